//! Where the module runs: a plain browser, inside a wallet's web view, or in
//! a wallet's mini-program; and whether on a phone.

use crate::error::{bad_option as bad, why, words, Result};
use crate::json::json_obj;
use crate::json::Json;
use crate::prelude::*;
use crate::profile::{Field, Profile};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    Browser,
    Wallet1,
    Wallet2,
    Wallet1MiniProgram,
    Wallet2MiniProgram,
}

/// Every host, in [`Host`]'s order.
const HOSTS: [Host; 5] = [Host::Browser, Host::Wallet1, Host::Wallet2, Host::Wallet1MiniProgram, Host::Wallet2MiniProgram];

/// Each host's name, in the order of [`HOSTS`].
const NAMES: [&str; 5] = ["browser", "wallet1", "wallet2", "wallet1_mini_program", "wallet2_mini_program"];

impl Host {
    pub fn as_str(self) -> &'static str {
        NAMES[self as usize]
    }

    pub fn from_name(s: &str) -> Option<Host> {
        index_of(&NAMES, s).map(|i| HOSTS[i])
    }

    pub fn is_mini_program(self) -> bool {
        matches!(self, Host::Wallet1MiniProgram | Host::Wallet2MiniProgram)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Runtime {
    pub host: Host,
    pub mobile: bool,
}

/// What the edge observed about its environment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Probe {
    pub user_agent: String,
    /// A `document` global exists (a page, not a mini-program's logic layer).
    pub has_document: bool,
    /// The wallet1 / wallet2 mini-program API globals of the profile exist.
    pub wallet1_global: bool,
    pub wallet2_global: bool,
    /// The mini-program an `api` object given to `pay()` stands for (see
    /// [`api_host`]): the caller's word that the page is in one.
    pub api: Option<Host>,
}

/// The mini-program host an `api` object stands for: wallet1's when it has
/// `tradePay`, else wallet2's when it has `requestPayment`.
pub fn api_host(has_trade_pay: bool, has_request_payment: bool) -> Option<Host> {
    if has_trade_pay {
        Some(Host::Wallet1MiniProgram)
    } else if has_request_payment {
        Some(Host::Wallet2MiniProgram)
    } else {
        None
    }
}

/// Reads the runtime from the probe: its host ([`detect_host`]), and
/// whether on a phone (a mini-program, or a mobile token in the user agent).
pub fn detect(probe: &Probe, profile: &Profile) -> Runtime {
    let host = detect_host(probe, profile);
    let ua = probe.user_agent.as_str();
    let mobile = host.is_mini_program() || profile.mobile_tokens.iter().any(|t| contains_token(ua, t));
    Runtime { host, mobile }
}

/// Reads the host from the probe: an `api` object given by the caller
/// decides first; then a mini-program API global with no `document` is a
/// mini-program; otherwise the wallets' user-agent tokens decide. All that
/// a payment reads of its runtime.
pub fn detect_host(probe: &Probe, profile: &Profile) -> Host {
    let ua = probe.user_agent.as_str();
    if let Some(h) = probe.api {
        h
    } else if !probe.has_document && probe.wallet1_global {
        Host::Wallet1MiniProgram
    } else if !probe.has_document && probe.wallet2_global {
        Host::Wallet2MiniProgram
    } else if contains_token(ua, profile.get(Field::W2UaToken)) {
        Host::Wallet2
    } else if contains_token(ua, profile.get(Field::W1UaToken)) {
        Host::Wallet1
    } else {
        Host::Browser
    }
}

/// `token` appears in the user agent as a word of its own (case-insensitive):
/// not preceded or followed by a letter or digit.
fn contains_token(ua: &str, token: &str) -> bool {
    let (u, t) = (ua.as_bytes(), token.as_bytes());
    let word = |i: usize| u.get(i).is_some_and(u8::is_ascii_alphanumeric);
    // `windows` takes no width of 0: an empty token is in no user agent.
    !t.is_empty()
        && u.windows(t.len()).enumerate().any(|(i, w)| w.eq_ignore_ascii_case(t) && !word(i.wrapping_sub(1)) && !word(i + t.len()))
}

impl Runtime {
    /// `options.runtime`: `{ host, mobile? }`.
    pub fn from_json(v: &Json) -> Result<Runtime> {
        if v.as_obj().is_none() {
            return Err(bad("runtime", &words!("must be an object { host, mobile }, not ", v.kind())));
        }
        let host = match v.given("host") {
            Some(Json::Str(s)) => {
                Host::from_name(s).ok_or(why!("must be browser, wallet1, wallet2, wallet1_mini_program or wallet2_mini_program"))
            }
            _ => Err(why!("must be a string naming the host")),
        }
        .map_err(|why| bad("runtime.host", why))?;
        let mobile = match v.given("mobile") {
            None => host.is_mini_program(),
            Some(Json::Bool(b)) => *b,
            Some(_) => return Err(bad("runtime.mobile", "must be true or false")),
        };
        Ok(Runtime { host, mobile })
    }

    pub fn to_json(self) -> Json {
        json_obj! { "host" => Json::str(self.host.as_str()), "mobile" => Json::Bool(self.mobile) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Code;

    fn ua(s: &str) -> Runtime {
        detect(&Probe { user_agent: s.into(), has_document: true, ..Probe::default() }, &Profile::default())
    }

    #[test]
    fn user_agents() {
        let phone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
        assert_eq!(ua(phone), Runtime { host: Host::Browser, mobile: true });
        assert_eq!(ua(&[phone, " Wallet2Client/8.0.40"].concat()).host, Host::Wallet2);
        assert_eq!(ua(&[phone, " Wallet1Client/10.5"].concat()).host, Host::Wallet1);
        assert_eq!(ua("Mozilla/5.0 (X11; Linux x86_64) Chrome/120"), Runtime { host: Host::Browser, mobile: false });
        assert_eq!(ua("Mozilla/5.0 NotWallet1Clientx").host, Host::Browser);
        assert!(ua("Mozilla/5.0 (Linux; Android 14)").mobile);
    }

    #[test]
    fn host_names() {
        for (i, (&name, &host)) in NAMES.iter().zip(HOSTS.iter()).enumerate() {
            assert_eq!(host as usize, i);
            assert_eq!(host.as_str(), name);
            assert_eq!(Host::from_name(name), Some(host));
        }
        // Each name tied to its variant by hand, not by the two tables.
        let pairs = [
            (Host::Browser, "browser"),
            (Host::Wallet1, "wallet1"),
            (Host::Wallet2, "wallet2"),
            (Host::Wallet1MiniProgram, "wallet1_mini_program"),
            (Host::Wallet2MiniProgram, "wallet2_mini_program"),
        ];
        for (host, name) in pairs {
            assert_eq!((host.as_str(), Host::from_name(name)), (name, Some(host)));
        }
        assert_eq!(Host::from_name("Browser"), None);
        assert_eq!(Host::from_name("wallet3"), None);
        assert_eq!(Host::from_name(""), None);
    }

    #[test]
    fn token_edges() {
        assert!(contains_token("Wallet1Client", "wallet1client"));
        assert!(contains_token("x/Wallet1Client", "Wallet1Client"));
        assert!(contains_token("Wallet1Client/1", "Wallet1Client"));
        assert!(!contains_token("aWallet1Client", "Wallet1Client"));
        assert!(!contains_token("Wallet1Client9", "Wallet1Client"));
        assert!(!contains_token("Wallet1", "Wallet1Client"));
        assert!(!contains_token("Wallet1Client", ""));
        assert!(!contains_token("", ""));
        assert!(contains_token("iPad iPad9", "iPad"));
        assert!(!contains_token("iPad9 xiPad", "iPad"));
    }

    #[test]
    fn mini_program_globals() {
        let p = Profile::default();
        let mp = |w1, w2, doc| {
            detect(&Probe { user_agent: String::new(), has_document: doc, wallet1_global: w1, wallet2_global: w2, api: None }, &p)
        };
        assert_eq!(mp(true, false, false), Runtime { host: Host::Wallet1MiniProgram, mobile: true });
        assert_eq!(mp(false, true, false).host, Host::Wallet2MiniProgram);
        assert_eq!(mp(false, true, true).host, Host::Browser);
    }

    #[test]
    fn an_api_object_names_the_mini_program() {
        let p = Profile::default();
        assert_eq!(api_host(true, true), Some(Host::Wallet1MiniProgram));
        assert_eq!(api_host(false, true), Some(Host::Wallet2MiniProgram));
        assert_eq!(api_host(false, false), None);
        // Given by the caller, it wins over a document and a user agent.
        let probe =
            Probe { user_agent: "Mozilla/5.0 Wallet2Client/8".into(), has_document: true, api: api_host(true, false), ..Probe::default() };
        assert_eq!(detect(&probe, &p), Runtime { host: Host::Wallet1MiniProgram, mobile: true });
    }

    #[test]
    fn runtime_option() {
        let j = crate::json::parse(r#"{"host":"wallet2"}"#, Code::InvalidOptions, "runtime").unwrap();
        assert_eq!(Runtime::from_json(&j).unwrap(), Runtime { host: Host::Wallet2, mobile: false });
        let j = crate::json::parse(r#"{"host":"tv"}"#, Code::InvalidOptions, "runtime").unwrap();
        assert_eq!(Runtime::from_json(&j).unwrap_err().field.as_deref(), Some("runtime.host"));
    }
}
