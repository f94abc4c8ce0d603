//! Authorization helpers: the addresses that start each provider's user
//! authorization, the reading of what the provider sends back, and the
//! server-side code exchanges that turn a code into a user id.
//!
//! - [`build`] makes the addresses (`wallet1AuthUrl`, `wallet2AuthUrl`,
//!   `cardnetAuthUrl`); [`page`] the one that opens a life-account page in
//!   wallet1 (`wallet1PageUrl`);
//! - [`callback`] reads the callback (`parseAuthCallback`);
//! - [`cardnet`] decides whether a card-network `userAuthCode` may still be
//!   used (`isUserAuthCodeFresh`, and "order with this code, or why not");
//! - [`exchange`] describes the code exchanges and reads their answers, for
//!   a Node back end (they carry the app secret: never build them in a
//!   browser).
//!
//! Pure: no I/O, no clock, no random source. The edge passes the time
//! (`now_ms`) and the platform's random bytes ([`new_state`]).

pub mod build;
pub mod callback;
pub mod cardnet;
pub mod exchange;
pub mod once;
pub mod page;

pub use build::{cardnet_auth_url, wallet1_auth_url, wallet2_auth_url};
pub use callback::{parse_auth_callback, AuthCallback};
pub use cardnet::{cardnet_order, is_user_auth_code_fresh, is_user_auth_code_fresh_json, CardnetOrder, USER_AUTH_CODE_TTL_MS};
pub use exchange::{
    read_wallet1_token, read_wallet2_openid, wallet1_token_request, wallet2_oauth_token_request, wallet2_session_request, ExchangeRequest,
    Wallet1Token,
};
pub use page::wallet1_page_url;

pub(crate) use crate::error::bad_option as bad;
use crate::error::{cat, Code, PayError, Result};
use crate::json::Json;
use crate::prelude::*;
use crate::profile::Profile;
use crate::safe_url::UrlPolicy;

/// Who authorized the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    Wallet1,
    Wallet2,
    Cardnet,
}

impl Provider {
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Wallet1 => "wallet1",
            Provider::Wallet2 => "wallet2",
            Provider::Cardnet => "cardnet",
        }
    }

    pub fn from_name(s: &str) -> Option<Provider> {
        match s {
            "wallet1" => Some(Provider::Wallet1),
            "wallet2" => Some(Provider::Wallet2),
            "cardnet" => Some(Provider::Cardnet),
            _ => None,
        }
    }
}

/// The options the authorization helpers read: `profile` (merged over the
/// defaults), `insecureLoopback` (accept an `http://127.0.0.1` or
/// `http://localhost` redirect address and provider addresses, for the
/// local sandbox) and `allowedHosts` (where the address a builder returns
/// may lead, as for `pay()`). Other members are left to the edge.
#[derive(Clone, Debug, PartialEq)]
pub struct AuthOptions {
    pub profile: Profile,
    pub policy: UrlPolicy,
}

impl AuthOptions {
    pub fn from_json(v: Option<&Json>) -> Result<AuthOptions> {
        let mut o = AuthOptions { profile: Profile::default(), policy: UrlPolicy::default() };
        let v = match v {
            None | Some(Json::Null) => return Ok(o),
            Some(v) => v,
        };
        if v.as_obj().is_none() {
            return Err(bad("options", &cat!("must be an object, not ", v.kind())));
        }
        match v.given("insecureLoopback") {
            None => {}
            Some(Json::Bool(b)) => o.policy.insecure_loopback = *b,
            Some(_) => return Err(bad("insecureLoopback", "must be true or false")),
        }
        if let Some(p) = v.get("profile") {
            o.profile.merge_with(p, "profile", o.policy.insecure_loopback)?;
        }
        if let Some(h) = v.given("allowedHosts") {
            o.policy.allowed_hosts = Some(crate::safe_url::allowed_hosts_from_json(h)?);
        }
        Ok(o)
    }
}

/// An `auth_failed` error blamed on `field`.
pub(crate) fn fail(field: &str, why: &str) -> PayError {
    crate::error::blame(Code::AuthFailed, field, why)
}

/// The string member `key` of the parameters object (`None` when absent or
/// `null`); another kind of value is an error with `code`.
pub(crate) fn opt_str<'a>(params: &'a Json, key: &str, code: Code) -> Result<Option<&'a str>> {
    match params.given(key) {
        None => Ok(None),
        Some(Json::Str(s)) => Ok(Some(s)),
        Some(v) => Err(PayError::field(code, key, cat!(key, " must be a string, not ", v.kind()))),
    }
}

/// Like [`opt_str`], but absent and empty are errors too.
pub(crate) fn req_str<'a>(params: &'a Json, key: &str, code: Code) -> Result<&'a str> {
    match opt_str(params, key, code)? {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(PayError::field(code, key, cat!(key, " is missing"))),
    }
}

/// The parameters object itself.
pub(crate) fn params_obj(params: &Json) -> Result<&Json> {
    if params.as_obj().is_some() {
        Ok(params)
    } else {
        Err(bad("params", &cat!("must be an object, not ", params.kind())))
    }
}

/// A provider's application id: 1 to 64 letters, digits, `_`, `-` or `.`.
pub(crate) fn app_id(params: &Json) -> Result<&str> {
    let v = req_str(params, "appId", Code::InvalidOptions)?;
    if v.len() <= 64 && crate::error::word(v.as_bytes(), b"_-.") {
        Ok(v)
    } else {
        Err(bad("appId", "must be the provider's application id (1 to 64 letters, digits, _ - .)"))
    }
}

/// A `state`: 8 to 128 unreserved URL characters (`A-Z a-z 0-9 - . _ ~`),
/// so that it needs no encoding and compares exactly after any decoder.
pub fn valid_state(s: &str) -> bool {
    (8..=128).contains(&s.len()) && crate::error::word(s.as_bytes(), b"-._~")
}

pub(crate) const STATE_RULE: &str = "must be 8 to 128 characters of A-Z a-z 0-9 - . _ ~ (newState() makes one)";

/// Appends `key=value` to `url`, the value percent-encoded with
/// [`crate::encode::push_component`], after `?` (no query yet) or `&` (one
/// already there).
pub(crate) fn push_param(url: &mut String, key: &str, value: &str) {
    if !url.contains('?') {
        url.push('?');
    } else if !url.ends_with(['?', '&']) {
        url.push('&');
    }
    url.push_str(key);
    url.push('=');
    crate::encode::push_component(url, value);
}

/// A fresh `state` from 16 random bytes (the edge supplies the platform's
/// `crypto.getRandomValues`): 22 characters of unpadded base64url.
pub fn new_state(random: &[u8; 16]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in random.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (*b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_state_is_base64url() {
        assert_eq!(new_state(&[0; 16]), "AAAAAAAAAAAAAAAAAAAAAA");
        assert_eq!(new_state(&[0xff; 16]), "_____________________w");
        let s = new_state(&[0xfb, 0xff, 0xbf, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
        assert_eq!(s, "-_-_AQIDBAUGBwgJCgsMDQ");
        assert_eq!(s.len(), 22);
        assert!(valid_state(&s));
    }

    #[test]
    fn state_shape() {
        assert!(valid_state("abcdEFGH"));
        assert!(valid_state(&"a".repeat(128)));
        assert!(!valid_state("abcdEFG"));
        assert!(!valid_state(&"a".repeat(129)));
        assert!(!valid_state("abcd EFGH"));
        assert!(!valid_state("abcd+EFGH"));
        assert!(!valid_state("abcdéFGH"));
    }

    #[test]
    fn params_go_after_question_mark_or_ampersand() {
        for (base, want) in [
            ("https://a.example/x", "https://a.example/x?k=a%20b"),
            ("https://a.example/x?", "https://a.example/x?k=a%20b"),
            ("https://a.example/x?p=1", "https://a.example/x?p=1&k=a%20b"),
            ("https://a.example/x?p=1&", "https://a.example/x?p=1&k=a%20b"),
        ] {
            let mut u = String::from(base);
            push_param(&mut u, "k", "a b");
            assert_eq!(u, want);
        }
    }

    #[test]
    fn options() {
        let o = AuthOptions::from_json(Some(&Json::obj(vec![
            ("insecureLoopback", Json::Bool(true)),
            ("profile", Json::obj(vec![("cardnet", Json::obj(vec![("authUrl", Json::str("https://c.example/a"))]))])),
        ])))
        .unwrap();
        assert!(o.policy.insecure_loopback);
        assert_eq!(o.profile.get(crate::profile::Field::CardnetAuthUrl), "https://c.example/a");
        let e = AuthOptions::from_json(Some(&Json::obj(vec![("insecureLoopback", Json::str("yes"))]))).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("insecureLoopback"));
        let e = AuthOptions::from_json(Some(&Json::Num(1.0))).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("options"));
        assert_eq!(e.code, Code::InvalidOptions);
    }
}
