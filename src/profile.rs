//! The profile: every provider-specific name the module uses, in one place.
//!
//! No other module spells a wallet's scheme, bridge global, event, method,
//! user-agent token or address; they all read them from a [`Profile`]. The
//! defaults use the service document's neutral names; a page sets the real
//! ones with `options.profile`, deep-merged over [`Profile::default`].

use crate::error::{cat, Code, PayError, Result};
use crate::json::Json;
use crate::outcome::Status;
use crate::payment::Channel;
use crate::safe_url::{self, clip, UrlPolicy};

#[derive(Clone, Debug, PartialEq)]
pub struct Wallet1Profile {
    /// The app's URL scheme (`<scheme>://platformapi/startapp?...`).
    pub scheme: String,
    /// The global name of the JS bridge in wallet1's web view.
    pub bridge: String,
    /// The event fired on `document` when the bridge becomes ready.
    pub ready_event: String,
    /// The user-agent token of wallet1's web view.
    pub ua_token: String,
    /// The mini-program API global (`globalThis[name].tradePay`).
    pub mini_program_global: String,
    /// Trade-pay result codes and what they mean.
    pub result_codes: Vec<(String, Status)>,
    /// The page-authorization address (`wallet1AuthUrl`).
    pub auth_url: String,
    /// The gateway that exchanges an authorization code (server side).
    pub token_url: String,
    /// The gateway operation name of that exchange.
    pub token_method: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Wallet2Profile {
    pub bridge: String,
    pub ready_event: String,
    /// The bridge call name: `bridge.invoke(payMethod, params, cb)`.
    pub pay_method: String,
    pub ua_token: String,
    /// The mini-program API global (`globalThis[name].requestPayment`).
    pub mini_program_global: String,
    /// The web-authorization address (`wallet2AuthUrl`).
    pub authorize_url: String,
    /// The fragment the provider requires at the end of that address.
    pub redirect_fragment: String,
    /// Server side: the official-account code exchange.
    pub oauth_token_url: String,
    /// Server side: the mini-program login-code (session) exchange.
    pub session_url: String,
    /// What a mini-program's original id starts with (`wallet2LaunchRequest`
    /// checks `userName` against it: the prefix, then letters and digits).
    pub original_id_prefix: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CardnetProfile {
    /// The card network's user-authorization address (`cardnetAuthUrl`).
    pub auth_url: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    pub wallet1: Wallet1Profile,
    pub wallet2: Wallet2Profile,
    pub cardnet: CardnetProfile,
    /// User-agent tokens that mean a phone or tablet.
    pub mobile_tokens: Vec<String>,
    /// Other names for the channels: `alias -> channel`.
    pub channel_aliases: Vec<(String, Channel)>,
}

impl Default for Profile {
    fn default() -> Profile {
        let s = String::from;
        Profile {
            wallet1: Wallet1Profile {
                scheme: s("wallet1"),
                bridge: s("Wallet1JSBridge"),
                ready_event: s("Wallet1JSBridgeReady"),
                ua_token: s("Wallet1Client"),
                mini_program_global: s("wallet1"),
                result_codes: vec![
                    (s("9000"), Status::Succeeded),
                    (s("8000"), Status::Pending),
                    (s("6004"), Status::Pending),
                    (s("6001"), Status::Cancelled),
                    (s("6002"), Status::Failed),
                    (s("4000"), Status::Failed),
                ],
                auth_url: s("https://auth.wallet1.example/oauth2/publicAppAuthorize.htm"),
                token_url: s("https://openapi.wallet1.example/gateway.do"),
                token_method: s("wallet1.system.oauth.token"),
            },
            wallet2: Wallet2Profile {
                bridge: s("Wallet2JSBridge"),
                ready_event: s("Wallet2JSBridgeReady"),
                pay_method: s("getBrandPayRequest"),
                ua_token: s("Wallet2Client"),
                mini_program_global: s("wallet2"),
                authorize_url: s("https://open.wallet2.example/connect/oauth2/authorize"),
                redirect_fragment: s("#wallet2_redirect"),
                oauth_token_url: s("https://api.wallet2.example/sns/oauth2/access_token"),
                session_url: s("https://api.wallet2.example/sns/jscode2session"),
                original_id_prefix: s("gh_"),
            },
            cardnet: CardnetProfile { auth_url: s("https://open.cardnet.example/oauth/authorize") },
            mobile_tokens: ["Mobile", "Android", "iPhone", "iPad", "iPod", "HarmonyOS"].iter().map(|t| s(t)).collect(),
            channel_aliases: Vec::new(),
        }
    }
}

/// What a profile string must look like.
#[derive(Clone, Copy)]
enum Kind {
    /// A JavaScript identifier (global names, method names).
    Ident,
    /// An event name or user-agent token: letters, digits and `_.:/-`.
    Token,
    /// A URL scheme other than the ones that run or embed content.
    Scheme,
    /// An https address.
    Url,
    /// `#` followed by token characters.
    Fragment,
}

fn valid(kind: Kind, v: &str) -> core::result::Result<(), &'static str> {
    if v.is_empty() || v.len() > 128 {
        return Err("must be 1 to 128 characters");
    }
    let b = v.as_bytes();
    let token = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':' | b'/' | b'-');
    match kind {
        Kind::Ident => {
            let ok = !b[0].is_ascii_digit() && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'$');
            if ok {
                Ok(())
            } else {
                Err("must be a JavaScript identifier")
            }
        }
        Kind::Token => {
            if b.iter().all(token) {
                Ok(())
            } else {
                Err("may hold only letters, digits and _ . : / -")
            }
        }
        Kind::Scheme => {
            let shape = b[0].is_ascii_lowercase()
                && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'+' | b'.' | b'-'));
            if !shape {
                return Err("must be a lowercase URL scheme");
            }
            if ["javascript", "data", "vbscript", "file", "blob", "about", "filesystem", "http", "https", "ws", "wss"].contains(&v) {
                return Err("must be an app scheme, not one that loads or runs content");
            }
            Ok(())
        }
        Kind::Url => safe_url::check_shape(v, false).map(|_| ()),
        Kind::Fragment => {
            if b[0] == b'#' && b.len() > 1 && b[1..].iter().all(token) {
                Ok(())
            } else {
                Err("must be # followed by letters, digits and _ . : / -")
            }
        }
    }
}

fn bad(field: &str, why: &str) -> PayError {
    PayError::field(Code::InvalidOptions, field, cat(&[field, " ", why]))
}

fn join(prefix: &str, key: &str) -> String {
    cat(&[prefix, ".", key])
}

fn set_str(slot: &mut String, v: &Json, kind: Kind, field: &str) -> Result<()> {
    match v {
        Json::Str(s) => {
            valid(kind, s).map_err(|why| bad(field, why))?;
            *slot = s.clone();
            Ok(())
        }
        other => Err(bad(field, &cat(&["must be a string, not ", other.kind()]))),
    }
}

fn members<'a>(v: &'a Json, field: &str) -> Result<&'a [(String, Json)]> {
    v.as_obj().ok_or_else(|| bad(field, &cat(&["must be an object, not ", v.kind()])))
}

fn unknown(field: &str) -> PayError {
    bad(field, "is not a profile field (check its spelling against defaultProfile())")
}

impl Profile {
    /// `Profile::default()` with `patch` (a partial profile) merged over it.
    pub fn from_patch(patch: Option<&Json>) -> Result<Profile> {
        let mut p = Profile::default();
        if let Some(v) = patch {
            p.merge(v, "profile")?;
        }
        Ok(p)
    }

    /// Deep-merges a partial profile. Absent and `null` members keep their
    /// value; unknown members are refused so that a misspelt name does not
    /// silently fall back to a default.
    pub fn merge(&mut self, patch: &Json, at: &str) -> Result<()> {
        if patch.is_null() {
            return Ok(());
        }
        for (k, v) in members(patch, at)? {
            if v.is_null() {
                continue;
            }
            let f = join(at, k);
            match k.as_str() {
                "wallet1" => self.merge_wallet1(v, &f)?,
                "wallet2" => self.merge_wallet2(v, &f)?,
                "cardnet" => {
                    for (k2, v2) in members(v, &f)? {
                        let f2 = join(&f, k2);
                        match k2.as_str() {
                            "authUrl" => set_str(&mut self.cardnet.auth_url, v2, Kind::Url, &f2)?,
                            _ if v2.is_null() => {}
                            _ => return Err(unknown(&f2)),
                        }
                    }
                }
                "mobileTokens" => {
                    let Json::Arr(items) = v else {
                        return Err(bad(&f, "must be an array of strings"));
                    };
                    let mut out = Vec::with_capacity(items.len());
                    for it in items {
                        let mut s = String::new();
                        set_str(&mut s, it, Kind::Token, &f)?;
                        out.push(s);
                    }
                    self.mobile_tokens = out;
                }
                "channelAliases" => {
                    for (alias, target) in members(v, &f)? {
                        let f2 = join(&f, alias);
                        if target.is_null() {
                            self.channel_aliases.retain(|(a, _)| a != alias);
                            continue;
                        }
                        let name = target.as_str().ok_or_else(|| bad(&f2, "must name a channel as a string"))?;
                        let ch = Channel::from_name(name)
                            .ok_or_else(|| bad(&f2, &cat(&["names ", clip(name), ", which is not a channel of this module"])))?;
                        if alias.is_empty() || alias.len() > 64 {
                            return Err(bad(&f2, "must be an alias of 1 to 64 characters"));
                        }
                        if Channel::from_name(alias).is_some() {
                            return Err(bad(&f2, "would rename a channel of this module"));
                        }
                        self.channel_aliases.retain(|(a, _)| a != alias);
                        self.channel_aliases.push((alias.clone(), ch));
                    }
                }
                _ => return Err(unknown(&f)),
            }
        }
        Ok(())
    }

    fn merge_wallet1(&mut self, v: &Json, at: &str) -> Result<()> {
        let w = &mut self.wallet1;
        for (k, x) in members(v, at)? {
            if x.is_null() {
                continue;
            }
            let f = join(at, k);
            match k.as_str() {
                "scheme" => set_str(&mut w.scheme, x, Kind::Scheme, &f)?,
                "bridge" => set_str(&mut w.bridge, x, Kind::Ident, &f)?,
                "readyEvent" => set_str(&mut w.ready_event, x, Kind::Token, &f)?,
                "uaToken" => set_str(&mut w.ua_token, x, Kind::Token, &f)?,
                "miniProgramGlobal" => set_str(&mut w.mini_program_global, x, Kind::Ident, &f)?,
                "authUrl" => set_str(&mut w.auth_url, x, Kind::Url, &f)?,
                "tokenUrl" => set_str(&mut w.token_url, x, Kind::Url, &f)?,
                "tokenMethod" => set_str(&mut w.token_method, x, Kind::Token, &f)?,
                "resultCodes" => {
                    for (code, status) in members(x, &f)? {
                        let f2 = join(&f, code);
                        if code.is_empty() || code.len() > 32 {
                            return Err(bad(&f2, "must be a result code of 1 to 32 characters"));
                        }
                        w.result_codes.retain(|(c, _)| c != code);
                        if status.is_null() {
                            continue;
                        }
                        let st = status
                            .as_str()
                            .and_then(Status::from_wallet_name)
                            .ok_or_else(|| bad(&f2, "must be \"succeeded\", \"pending\", \"cancelled\" or \"failed\""))?;
                        w.result_codes.push((code.clone(), st));
                    }
                }
                _ => return Err(unknown(&f)),
            }
        }
        Ok(())
    }

    fn merge_wallet2(&mut self, v: &Json, at: &str) -> Result<()> {
        let w = &mut self.wallet2;
        for (k, x) in members(v, at)? {
            if x.is_null() {
                continue;
            }
            let f = join(at, k);
            match k.as_str() {
                "bridge" => set_str(&mut w.bridge, x, Kind::Ident, &f)?,
                "readyEvent" => set_str(&mut w.ready_event, x, Kind::Token, &f)?,
                "payMethod" => set_str(&mut w.pay_method, x, Kind::Ident, &f)?,
                "uaToken" => set_str(&mut w.ua_token, x, Kind::Token, &f)?,
                "miniProgramGlobal" => set_str(&mut w.mini_program_global, x, Kind::Ident, &f)?,
                "authorizeUrl" => set_str(&mut w.authorize_url, x, Kind::Url, &f)?,
                "redirectFragment" => set_str(&mut w.redirect_fragment, x, Kind::Fragment, &f)?,
                "oauthTokenUrl" => set_str(&mut w.oauth_token_url, x, Kind::Url, &f)?,
                "sessionUrl" => set_str(&mut w.session_url, x, Kind::Url, &f)?,
                "originalIdPrefix" => set_str(&mut w.original_id_prefix, x, Kind::Token, &f)?,
                _ => return Err(unknown(&f)),
            }
        }
        Ok(())
    }

    /// The channel a `pay_channel` value names, through the aliases.
    pub fn resolve_channel(&self, name: &str) -> Option<Channel> {
        Channel::from_name(name).or_else(|| self.channel_aliases.iter().find(|(a, _)| a == name).map(|(_, c)| *c))
    }

    /// The status a wallet1 trade-pay result code stands for (unknown codes
    /// are failures).
    pub fn wallet1_status(&self, code: &str) -> Status {
        self.wallet1.result_codes.iter().find(|(c, _)| c == code).map(|(_, s)| *s).unwrap_or(Status::Failed)
    }

    /// The profile as JavaScript sees it (`defaultProfile()`).
    pub fn to_json(&self) -> Json {
        let s = |v: &String| Json::Str(v.clone());
        let w1 = &self.wallet1;
        let w2 = &self.wallet2;
        Json::obj(vec![
            (
                "wallet1",
                Json::obj(vec![
                    ("scheme", s(&w1.scheme)),
                    ("bridge", s(&w1.bridge)),
                    ("readyEvent", s(&w1.ready_event)),
                    ("uaToken", s(&w1.ua_token)),
                    ("miniProgramGlobal", s(&w1.mini_program_global)),
                    ("resultCodes", Json::Obj(w1.result_codes.iter().map(|(c, st)| (c.clone(), Json::str(st.as_str()))).collect())),
                    ("authUrl", s(&w1.auth_url)),
                    ("tokenUrl", s(&w1.token_url)),
                    ("tokenMethod", s(&w1.token_method)),
                ]),
            ),
            (
                "wallet2",
                Json::obj(vec![
                    ("bridge", s(&w2.bridge)),
                    ("readyEvent", s(&w2.ready_event)),
                    ("payMethod", s(&w2.pay_method)),
                    ("uaToken", s(&w2.ua_token)),
                    ("miniProgramGlobal", s(&w2.mini_program_global)),
                    ("authorizeUrl", s(&w2.authorize_url)),
                    ("redirectFragment", s(&w2.redirect_fragment)),
                    ("oauthTokenUrl", s(&w2.oauth_token_url)),
                    ("sessionUrl", s(&w2.session_url)),
                    ("originalIdPrefix", s(&w2.original_id_prefix)),
                ]),
            ),
            ("cardnet", Json::obj(vec![("authUrl", s(&self.cardnet.auth_url))])),
            ("mobileTokens", Json::Arr(self.mobile_tokens.iter().map(s).collect())),
            ("channelAliases", Json::Obj(self.channel_aliases.iter().map(|(a, c)| (a.clone(), Json::str(c.name()))).collect())),
        ])
    }

    /// The https policy for URLs from the profile itself.
    pub fn url_policy() -> UrlPolicy {
        UrlPolicy::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn patch(t: &str) -> Result<Profile> {
        Profile::from_patch(Some(&parse(t, Code::InvalidOptions, "profile").unwrap()))
    }

    #[test]
    fn defaults_round_trip_through_merge() {
        let d = Profile::default();
        assert_eq!(patch(&d.to_json().to_text()).unwrap(), d);
    }

    #[test]
    fn deep_merge_keeps_siblings() {
        let p = patch(r#"{"wallet1":{"bridge":"MyBridge","resultCodes":{"7000":"pending","6001":"failed"}},"channelAliases":{"alipay_qr":"wallet1"}}"#).unwrap();
        assert_eq!(p.wallet1.bridge, "MyBridge");
        assert_eq!(p.wallet1.scheme, "wallet1");
        assert_eq!(p.wallet1_status("7000"), Status::Pending);
        assert_eq!(p.wallet1_status("6001"), Status::Failed);
        assert_eq!(p.wallet1_status("9000"), Status::Succeeded);
        assert_eq!(p.wallet1_status("1234"), Status::Failed);
        assert_eq!(p.resolve_channel("alipay_qr"), Some(Channel::Wallet1));
        assert_eq!(p.resolve_channel("wallet2_pub"), Some(Channel::Wallet2Pub));
        assert_eq!(p.resolve_channel("nope"), None);
    }

    #[test]
    fn refuses_bad_fields_by_name() {
        for (t, field) in [
            (r#"{"wallet1":{"scheme":"javascript"}}"#, "profile.wallet1.scheme"),
            (r#"{"wallet1":{"scheme":"Bad Scheme"}}"#, "profile.wallet1.scheme"),
            (r#"{"wallet1":{"bridge":"a.b"}}"#, "profile.wallet1.bridge"),
            (r#"{"wallet1":{"brige":"X"}}"#, "profile.wallet1.brige"),
            (r#"{"wallet2":{"authorizeUrl":"http://x.example/"}}"#, "profile.wallet2.authorizeUrl"),
            (r#"{"wallet2":{"redirectFragment":"x"}}"#, "profile.wallet2.redirectFragment"),
            (r#"{"wallet2":{"payMethod":5}}"#, "profile.wallet2.payMethod"),
            (r#"{"cardnet":{"authUrl":"javascript:alert(1)"}}"#, "profile.cardnet.authUrl"),
            (r#"{"channelAliases":{"x":"nope"}}"#, "profile.channelAliases.x"),
            (r#"{"channelAliases":{"wallet1":"cardnet"}}"#, "profile.channelAliases.wallet1"),
            (r#"{"wallet1":{"resultCodes":{"9000":"great"}}}"#, "profile.wallet1.resultCodes.9000"),
            (r#"{"mobileTokens":"Mobile"}"#, "profile.mobileTokens"),
            (r#"{"wallet1":[]}"#, "profile.wallet1"),
        ] {
            let e = patch(t).unwrap_err();
            assert_eq!(e.code, Code::InvalidOptions, "{t}");
            assert_eq!(e.field.as_deref(), Some(field), "{t}");
            assert!(e.message.starts_with(field), "{}", e.message);
        }
        assert_eq!(Profile::from_patch(Some(&Json::Num(3.0))).unwrap_err().field.as_deref(), Some("profile"));
    }
}
