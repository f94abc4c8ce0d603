//! What the provider sends back to the redirect address, and what may be
//! done with it.
//!
//! [`parse_auth_callback`] reads the callback address (the page's
//! `location.href`, or a Node server's `req.url` path): parameters from the
//! query and from the fragment (after its first `?` when it has one, so
//! hash-routed pages work), `+` read as a space in both (as a hash router
//! reads its query), percent-decoded strictly.
//! The provider is recognized by its parameters:
//!
//! | provider | parameters |
//! | --- | --- |
//! | `wallet1` | `auth_code` (+ `app_id`, `scope`, `state`) |
//! | `wallet2` | `code`, `state` (only `state`: the user refused) |
//! | `cardnet` | `respCode`, `userAuthCode` |
//!
//! Every failure is a `PayError` with code `auth_failed` whose `field` names
//! the parameter at fault (`url` when the address itself is unreadable):
//! a `state` that differs from `expectedState` or is missing when one is
//! expected, a parameter given twice with different values, a wallet
//! callback without its code (the user refused), and a card-network
//! `respCode` other than `00` (the message quotes the code; the failure is
//! an error rather than a result so that no caller orders with a failed
//! authorization by mistake). A successful result thus has `respCode`
//! `"00"` when it comes from the card network.

use super::{bad, fail, valid_state, Provider, STATE_RULE};
use crate::error::{cat, Code, PayError, Result};
use crate::json::Json;
use crate::prelude::*;
use crate::safe_url::{clip, MAX_URL};

/// A callback that passed every check.
#[derive(Clone, Debug, PartialEq)]
pub struct AuthCallback {
    pub provider: Provider,
    /// The authorization code: wallet1 `auth_code`, wallet2 `code`.
    pub code: Option<String>,
    pub state: Option<String>,
    /// Card network: always `"00"` in a parsed callback.
    pub resp_code: Option<String>,
    /// Card network: the temporary code, valid five minutes.
    pub user_auth_code: Option<String>,
    /// wallet1's `app_id` echo (wallet1 callbacks only).
    pub app_id: Option<String>,
    /// wallet1's granted `scope` (wallet1 callbacks only).
    pub scope: Option<String>,
    /// When the callback was read (ms since the epoch, whole).
    pub received_at: f64,
}

/// The raw `key=value` pairs of the query and of the fragment (`plus`: `+`
/// is a space, in both).
fn raw_pairs(url: &str) -> Result<Vec<(&str, &str, bool)>> {
    if url.len() > MAX_URL {
        return Err(fail("url", "is longer than 8192 characters"));
    }
    if url.bytes().any(|b| b <= b' ' || b >= 0x7f) {
        return Err(fail("url", "contains whitespace, a control character or raw non-ASCII text"));
    }
    let starts = |p: &str| url.len() >= p.len() && url.as_bytes()[..p.len()].eq_ignore_ascii_case(p.as_bytes());
    if !(starts("https://") || starts("http://") || (url.starts_with('/') && !url.starts_with("//"))) {
        return Err(fail("url", "is not an http(s) address or a path: it cannot be an authorization callback"));
    }
    let (head, frag) = url.split_once('#').unwrap_or((url, ""));
    let query = head.split_once('?').map_or("", |(_, q)| q);
    let frag = frag.split_once('?').map_or(frag, |(_, q)| q);
    let mut out = Vec::new();
    for &(part, plus) in [(query, true), (frag, true)].iter() {
        for pair in part.split('&') {
            if let Some((k, v)) = pair.split_once('=') {
                out.push((k, v, plus));
            }
        }
    }
    Ok(out)
}

/// Strict percent-decoding: every `%` starts two hex digits, the result is
/// UTF-8 and holds no control character.
pub(super) fn decode(s: &str, plus: bool) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = match b[i] {
            b'%' => {
                let hex = |j: usize| (*b.get(j)? as char).to_digit(16);
                let v = hex(i + 1)? * 16 + hex(i + 2)?;
                i += 2;
                v as u8
            }
            b'+' if plus => b' ',
            c => c,
        };
        out.push(c);
        i += 1;
    }
    let s = String::from_utf8(out).ok()?;
    if crate::error::has_control(&s) {
        return None;
    }
    Some(s)
}

/// The decoded value of `key`; a key given twice must carry the same
/// value.
fn lookup(pairs: &[(&str, &str, bool)], key: &str) -> Result<Option<String>> {
    let mut found: Option<String> = None;
    for (k, v, plus) in pairs {
        if decode(k, *plus).as_deref() != Some(key) {
            continue;
        }
        let v =
            decode(v, *plus).ok_or_else(|| fail(key, "has a malformed percent escape, text that is not UTF-8, or a control character"))?;
        match &found {
            Some(f) if *f != v => return Err(fail(key, "is given twice with different values")),
            _ => found = Some(v),
        }
    }
    Ok(found)
}

/// Equal strings, compared in time that does not depend on where they
/// differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

/// The callback's `state` against the one sent: present and equal.
fn state_matches(state: Option<&str>, want: &str) -> Result<()> {
    match state {
        None => Err(fail("state", "is missing from the callback, but one was sent: the callback may be forged, so authorize again")),
        Some(s) if !same(s, want) => {
            Err(fail("state", "differs from the one sent: the callback may be forged (or from an older attempt), so authorize again"))
        }
        _ => Ok(()),
    }
}

/// Reads a callback address. `expected_state`: the `state` this page sent
/// (required to match when given); `now_ms`: the time to stamp.
pub fn parse_auth_callback(url: &str, expected_state: Option<&str>, now_ms: f64) -> Result<AuthCallback> {
    if let Some(s) = expected_state {
        if !valid_state(s) {
            return Err(bad("expectedState", STATE_RULE));
        }
    }
    if !(now_ms.is_finite() && now_ms >= 0.0) {
        return Err(bad("now", "must be a time in ms since the epoch"));
    }
    let pairs = raw_pairs(url)?;
    let get = |k| lookup(&pairs, k);
    let (auth_code, code) = (get("auth_code")?, get("code")?);
    let (resp_code, user_auth_code) = (get("respCode")?, get("userAuthCode")?);
    // The provider is known by the keys it sends (even empty); `app_id`
    // and `scope` are no sign of wallet1, as a merchant's own redirect
    // address may carry them.
    let w1 = auth_code.is_some();
    let w2 = code.is_some();
    let cn = resp_code.is_some() || user_auth_code.is_some();
    let given = |v: Option<String>| v.filter(|v| !v.is_empty());
    let (auth_code, code) = (given(auth_code), given(code));
    let (resp_code, user_auth_code) = (given(resp_code), given(user_auth_code));
    let state = given(get("state")?);
    let provider = match (w1, w2, cn) {
        (true, false, false) => Provider::Wallet1,
        (false, false, true) => Provider::Cardnet,
        // Only `state`: wallet2 sends it back alone when the user refuses.
        (false, _, false) if w2 || state.is_some() => Provider::Wallet2,
        (false, false, false) => {
            return Err(fail("url", "carries no authorization parameters (auth_code, code, respCode or userAuthCode)"))
        }
        _ => return Err(fail("url", "carries the parameters of more than one provider")),
    };

    if let Some(want) = expected_state {
        state_matches(state.as_deref(), want)?;
    }

    let missing = |f: &str, why: &str| Err(fail(f, why));
    match provider {
        Provider::Wallet1 if auth_code.is_none() => return missing("auth_code", "is missing: the user did not authorize"),
        Provider::Wallet2 if code.is_none() => {
            return missing("code", "is missing: the user refused the authorization, or the page was opened without one")
        }
        Provider::Cardnet => match resp_code.as_deref() {
            None => return missing("respCode", "is missing from the card-network callback"),
            Some("00") if user_auth_code.is_none() => return missing("userAuthCode", "is missing although respCode is 00"),
            Some("00") => {}
            Some(other) => {
                let mut e = PayError::field(
                    Code::AuthFailed,
                    "respCode",
                    cat!("respCode is ", clip(other), ", not 00: the card network did not authorize the user"),
                );
                e.resp_code = Some(other.to_string());
                return Err(e);
            }
        },
        _ => {}
    }

    let (app_id, scope) = match provider {
        Provider::Wallet1 => (given(get("app_id")?), given(get("scope")?)),
        _ => (None, None),
    };
    Ok(AuthCallback { provider, code: auth_code.or(code), state, resp_code, user_auth_code, app_id, scope, received_at: floor_ms(now_ms) })
}

impl AuthCallback {
    /// Checks a kept callback's `state` against the one this page sent, as
    /// [`parse_auth_callback`] does with `expected_state`.
    pub fn expect_state(&self, expected_state: &str) -> Result<()> {
        if !valid_state(expected_state) {
            return Err(bad("expectedState", STATE_RULE));
        }
        state_matches(self.state.as_deref(), expected_state)
    }

    /// `{ provider, code?, state?, respCode?, userAuthCode?, appId?, scope?, receivedAt }`.
    pub fn to_json(&self) -> Json {
        let mut m = Vec::new();
        Json::put(&mut m, "provider", Json::str(self.provider.as_str()));
        for &(k, v) in [
            ("code", &self.code),
            ("state", &self.state),
            ("respCode", &self.resp_code),
            ("userAuthCode", &self.user_auth_code),
            ("appId", &self.app_id),
            ("scope", &self.scope),
        ]
        .iter()
        {
            if let Some(v) = v {
                Json::put(&mut m, k, Json::Str(v.clone()));
            }
        }
        Json::put(&mut m, "receivedAt", Json::Num(self.received_at));
        Json::Obj(crate::json::list(m))
    }

    /// Reads back what [`to_json`](Self::to_json) gave (the page keeps the
    /// callback object and passes it to `isUserAuthCodeFresh` or the
    /// card-network payment later).
    pub fn from_json(v: &Json) -> Result<AuthCallback> {
        let field = |k: &str| cat!("callback.", k);
        let text = |k: &str| match v.given(k) {
            None => Ok(None),
            Some(Json::Str(s)) => Ok(Some(s.clone())),
            Some(_) => Err(bad(&field(k), "must be a string")),
        };
        if v.as_obj().is_none() {
            return Err(bad("callback", "must be the object parseAuthCallback gave"));
        }
        let provider = v
            .get("provider")
            .and_then(Json::as_str)
            .and_then(Provider::from_name)
            .ok_or_else(|| bad(&field("provider"), "must be \"wallet1\", \"wallet2\" or \"cardnet\""))?;
        let received_at = match v.get("receivedAt") {
            Some(Json::Num(n)) if n.is_finite() && *n >= 0.0 => *n,
            _ => return Err(bad(&field("receivedAt"), "must be a time in ms since the epoch")),
        };
        Ok(AuthCallback {
            provider,
            code: text("code")?,
            state: text("state")?,
            resp_code: text("respCode")?,
            user_auth_code: text("userAuthCode")?,
            app_id: text("appId")?,
            scope: text("scope")?,
            received_at,
        })
    }
}

/// Whole milliseconds, rounded down (`f64::floor` is not in `core`).
fn floor_ms(t: f64) -> f64 {
    // From 2^53 on every f64 is whole (and `as i64` would saturate at 2^63).
    if t >= 9_007_199_254_740_992.0 {
        return t;
    }
    let w = t as i64 as f64;
    if w > t {
        w - 1.0
    } else {
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_decoding() {
        assert_eq!(decode("a+b%20c%2B", true).as_deref(), Some("a b c+"));
        assert_eq!(decode("a+b", false).as_deref(), Some("a+b"));
        assert_eq!(decode("%E4%B8%AD", true).as_deref(), Some("中"));
        for bad in ["%", "%4", "%zz", "%E4%B8", "%00", "%0A", "%7F", "%C2%85", "%FF"] {
            assert_eq!(decode(bad, true), None, "{bad}");
        }
    }

    #[test]
    fn stamps_whole_milliseconds() {
        assert_eq!(floor_ms(1_700_000_000_123.7), 1_700_000_000_123.0);
        assert_eq!(floor_ms(0.5), 0.0);
        assert_eq!(floor_ms(7.000_100_077_071e20), 7.000_100_077_071e20);
        assert_eq!(floor_ms(f64::MAX), f64::MAX);
    }

    #[test]
    fn constant_time_equality() {
        assert!(same("abcdefgh", "abcdefgh"));
        assert!(!same("abcdefgh", "abcdefgX"));
        assert!(!same("abcdefgh", "abcdefg"));
    }

    #[test]
    fn kept_callback_state() {
        let cb = parse_auth_callback("https://s.example/cb?respCode=00&userAuthCode=u&state=abcdefgh", None, 1.0).unwrap();
        assert_eq!(cb.expect_state("abcdefgh"), Ok(()));
        let e = cb.expect_state("abcdefgX").unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (Code::AuthFailed, Some("state")));
        let e = cb.expect_state("short").unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("expectedState")));
        let none = parse_auth_callback("https://s.example/cb?respCode=00&userAuthCode=u", None, 1.0).unwrap();
        assert_eq!(none.expect_state("abcdefgh").unwrap_err().field.as_deref(), Some("state"));
    }

    #[test]
    fn json_round_trip() {
        let cb = parse_auth_callback(
            "https://s.example/cb?app_id=2021&scope=auth_base&auth_code=ac1&state=abcdefgh",
            Some("abcdefgh"),
            1_700_000_000_123.7,
        )
        .unwrap();
        assert_eq!(
            cb.to_json().to_text(),
            r#"{"provider":"wallet1","code":"ac1","state":"abcdefgh","appId":"2021","scope":"auth_base","receivedAt":1700000000123}"#
        );
        assert_eq!(AuthCallback::from_json(&cb.to_json()).unwrap(), cb);
        for bad in [
            Json::Null,
            Json::obj(vec![("provider", Json::str("x")), ("receivedAt", Json::Num(1.0))]),
            Json::obj(vec![("provider", Json::str("cardnet"))]),
            Json::obj(vec![("provider", Json::str("cardnet")), ("receivedAt", Json::Num(1.0)), ("userAuthCode", Json::Num(1.0))]),
        ] {
            assert_eq!(AuthCallback::from_json(&bad).unwrap_err().code, Code::InvalidOptions);
        }
    }
}
