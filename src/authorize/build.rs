//! The addresses that start a user authorization.
//!
//! Each builder takes the parameters object typed in `www/lib/index.d.ts` (camelCase keys) and
//! the options object, and gives the address to navigate to: the profile's
//! base address (which may carry a query of its own: ours is appended with
//! `&`), then the query parameters in the order the service document lists
//! them, every value percent-encoded by [`crate::encode::push_component`].
//!
//! - wallet1: `app_id`, `scope` (comma-joined), `redirect_uri`, `state`.
//! - wallet2: `appid`, `redirect_uri`, `response_type=code`, `scope`,
//!   `state`, `connect_redirect=1`, then the profile's `redirectFragment`.
//! - card network: `version=1.0.0`, `redirectUrl`.
//!
//! The redirect address must pass [`safe_url::check`] (`unsafe_url`);
//! `insecureLoopback: true` lets the local sandbox use `http://127.0.0.1`,
//! for the redirect address and for the profile's provider addresses. The
//! address a builder returns is checked again, with `allowedHosts` when
//! given (the page navigates there). A profile address whose query already
//! holds one of the parameters a builder adds is refused (`invalid_options`)
//! rather than sent with it twice; wallet2's address takes the profile's
//! `redirectFragment`, so an `authorizeUrl` with a fragment of its own is
//! refused rather than silently replaced.

use super::{app_id, bad, opt_str, params_obj, push_param, valid_state, AuthOptions, STATE_RULE};
use crate::error::{cat, Code, PayError, Result};
use crate::json::Json;
use crate::prelude::*;
use crate::profile::Field;
use crate::safe_url::{self, UrlPolicy, MAX_URL};

/// The card-network authorization `version`.
pub const CARDNET_VERSION: &str = "1.0.0";

/// The redirect address under `key`: a string that passes the strict check.
fn redirect<'a>(params: &'a Json, key: &str, policy: &UrlPolicy) -> Result<&'a str> {
    let v = opt_str(params, key, Code::UnsafeUrl)?.ok_or_else(|| {
        PayError::field(Code::UnsafeUrl, key, cat!(key, " is missing (the https address the provider sends the user back to)"))
    })?;
    // The merchant's own address: allowedHosts, which names where the page
    // may go, applies to the address the builder returns, not to this one.
    let shape = UrlPolicy { insecure_loopback: policy.insecure_loopback, ..UrlPolicy::default() };
    safe_url::check(v, &shape, key)?;
    Ok(v)
}

fn state(params: &Json) -> Result<&str> {
    match opt_str(params, "state", Code::InvalidOptions)? {
        Some(s) if valid_state(s) => Ok(s),
        Some(_) => Err(bad("state", STATE_RULE)),
        None => Err(bad("state", "is missing: it protects the callback against forgery (newState() makes one)")),
    }
}

/// A scope token: a lowercase letter, then lowercase letters, digits and
/// `_`, at most 64 characters.
fn scope_token(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 64
        && b[0].is_ascii_lowercase()
        && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
}

/// wallet1's `scopes`: an array of scope names (or one string, names
/// separated by commas), each `auth_` followed by a scope token
/// (`auth_user` explicit, `auth_base` silent). Gives them comma-joined.
pub(crate) fn wallet1_scopes(params: &Json) -> Result<String> {
    const RULE: &str =
        "must list scopes such as auth_user (explicit) or auth_base (silent): lowercase auth_* names, as an array or separated by commas";
    let mut names: Vec<&str> = Vec::new();
    match params.get("scopes") {
        Some(Json::Arr(items)) => {
            for it in items.iter() {
                names.push(it.as_str().ok_or_else(|| bad("scopes", RULE))?);
            }
        }
        Some(Json::Str(s)) => names.extend(s.split(',')),
        _ => return Err(bad("scopes", RULE)),
    }
    let ok = |s: &&str| s.len() > 5 && s.starts_with("auth_") && scope_token(s);
    if names.is_empty() || names.len() > 16 || !names.iter().all(ok) {
        return Err(bad("scopes", RULE));
    }
    // Joined by hand: `[&str]::join` links a generic copy loop into the wasm.
    let mut out = String::new();
    for n in names {
        if !out.is_empty() {
            out.push(',');
        }
        out.push_str(n);
    }
    Ok(out)
}

/// The profile's base address (`field` names it) split from its fragment,
/// refused when its query already holds one of `ours`.
fn base<'a>(url: &'a str, field: &str, ours: &[&str]) -> Result<(String, &'a str)> {
    let (b, f) = url.split_once('#').unwrap_or((url, ""));
    let query = b.split_once('?').map_or("", |(_, q)| q);
    for pair in query.split('&') {
        let key = pair.split_once('=').map_or(pair, |(k, _)| k);
        if let Some(k) = ours.iter().find(|k| crate::authorize::once::key_is(key, k)) {
            return Err(bad(field, &cat!("already has a ", k, " parameter in its query, which the builder adds itself: remove it")));
        }
    }
    Ok((b.into(), f))
}

/// The finished address: the base's fragment (or `fragment`) put back, and
/// the whole checked once more (its length above all: an encoded redirect
/// address grows up to three times).
fn finish(mut url: String, fragment: &str, redirect_key: &str, profile_key: &str, policy: &UrlPolicy) -> Result<String> {
    if !fragment.is_empty() {
        if !fragment.starts_with('#') {
            url.push('#');
        }
        url.push_str(fragment);
    }
    if url.len() > MAX_URL {
        return Err(PayError::field(
            Code::UnsafeUrl,
            redirect_key,
            cat!(redirect_key, " is too long: the authorization address would pass 8192 characters"),
        ));
    }
    let loopback = UrlPolicy { insecure_loopback: policy.insecure_loopback, ..UrlPolicy::default() };
    safe_url::check(&url, &loopback, redirect_key)?;
    // Where the page will go: the provider's host, within allowedHosts.
    safe_url::check(&url, policy, profile_key)?;
    Ok(url)
}

/// `wallet1AuthUrl({ appId, redirectUri, scopes, state }, options?)`.
pub fn wallet1_auth_url(params: &Json, options: Option<&Json>) -> Result<String> {
    let o = AuthOptions::from_json(options)?;
    let p = params_obj(params)?;
    let app = app_id(p)?;
    let scopes = wallet1_scopes(p)?;
    let uri = redirect(p, "redirectUri", &o.policy)?;
    let st = state(p)?;
    const KEY: &str = "profile.wallet1.authUrl";
    let (mut url, frag) = base(o.profile.get(Field::W1AuthUrl), KEY, &["app_id", "scope", "redirect_uri", "state"])?;
    push_param(&mut url, "app_id", app);
    push_param(&mut url, "scope", &scopes);
    push_param(&mut url, "redirect_uri", uri);
    push_param(&mut url, "state", st);
    finish(url, frag, "redirectUri", KEY, &o.policy)
}

/// `wallet2AuthUrl({ appId, redirectUri, scope, state }, options?)`.
/// `scope` is one scope token (`snsapi_base`-like; silent authorization is
/// enough to learn the openid).
pub fn wallet2_auth_url(params: &Json, options: Option<&Json>) -> Result<String> {
    let o = AuthOptions::from_json(options)?;
    let p = params_obj(params)?;
    let app = app_id(p)?;
    let uri = redirect(p, "redirectUri", &o.policy)?;
    let scope = match opt_str(p, "scope", Code::InvalidOptions)? {
        Some(s) if scope_token(s) => s,
        _ => return Err(bad("scope", "must be one scope name: a lowercase letter, then lowercase letters, digits and _ (at most 64)")),
    };
    let st = state(p)?;
    const KEY: &str = "profile.wallet2.authorizeUrl";
    let (mut url, own) =
        base(o.profile.get(Field::W2AuthorizeUrl), KEY, &["appid", "redirect_uri", "response_type", "scope", "state", "connect_redirect"])?;
    if !own.is_empty() {
        return Err(bad(
            KEY,
            "has a fragment of its own; the address ends with profile.wallet2.redirectFragment instead: put the fragment there",
        ));
    }
    push_param(&mut url, "appid", app);
    push_param(&mut url, "redirect_uri", uri);
    push_param(&mut url, "response_type", "code");
    push_param(&mut url, "scope", scope);
    push_param(&mut url, "state", st);
    push_param(&mut url, "connect_redirect", "1");
    finish(url, o.profile.get(Field::W2RedirectFragment), "redirectUri", KEY, &o.policy)
}

/// `cardnetAuthUrl({ redirectUrl }, options?)`. The card network sends no
/// `state` back of its own: to protect the callback, put one in the query
/// of `redirectUrl` and give it to `parseAuthCallback` as `expectedState`.
pub fn cardnet_auth_url(params: &Json, options: Option<&Json>) -> Result<String> {
    let o = AuthOptions::from_json(options)?;
    let p = params_obj(params)?;
    let uri = redirect(p, "redirectUrl", &o.policy)?;
    const KEY: &str = "profile.cardnet.authUrl";
    let (mut url, frag) = base(o.profile.get(Field::CardnetAuthUrl), KEY, &["version", "redirectUrl"])?;
    push_param(&mut url, "version", CARDNET_VERSION);
    push_param(&mut url, "redirectUrl", uri);
    finish(url, frag, "redirectUrl", KEY, &o.policy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn j(t: &str) -> Json {
        parse(t, Code::InvalidOptions, "params").unwrap()
    }

    #[test]
    fn scopes_forms() {
        for (t, want) in [
            (r#"{"scopes":["auth_user"]}"#, "auth_user"),
            (r#"{"scopes":["auth_user","auth_base"]}"#, "auth_user,auth_base"),
            (r#"{"scopes":"auth_base,auth_user"}"#, "auth_base,auth_user"),
            (r#"{"scopes":["auth_zhima_2"]}"#, "auth_zhima_2"),
        ] {
            assert_eq!(wallet1_scopes(&j(t)).unwrap(), want, "{t}");
        }
        for t in [
            r#"{}"#,
            r#"{"scopes":[]}"#,
            r#"{"scopes":""}"#,
            r#"{"scopes":"auth_"}"#,
            r#"{"scopes":["auth_User"]}"#,
            r#"{"scopes":["user"]}"#,
            r#"{"scopes":"auth_user, auth_base"}"#,
            r#"{"scopes":"auth_user,,auth_base"}"#,
            r#"{"scopes":[1]}"#,
            r#"{"scopes":{"a":1}}"#,
        ] {
            let e = wallet1_scopes(&j(t)).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("scopes")), "{t}");
        }
    }

    #[test]
    fn profile_fragment_and_query_are_kept() {
        let o = j(r#"{"profile":{"cardnet":{"authUrl":"https://c.example/auth?x=1#top"}}}"#);
        let u = cardnet_auth_url(&j(r#"{"redirectUrl":"https://s.example/cb"}"#), Some(&o)).unwrap();
        assert_eq!(u, "https://c.example/auth?x=1&version=1.0.0&redirectUrl=https%3A%2F%2Fs.example%2Fcb#top");
    }

    #[test]
    fn profile_query_never_gets_our_keys_twice() {
        let params = j(r#"{"redirectUrl":"https://s.example/cb"}"#);
        for base in [
            "https://c.example/auth?version=2",
            "https://c.example/auth?x=1&redirectUrl=https://e.example",
            "https://c.example/a?%76ersion=1",
        ] {
            let o = j(&cat!(r#"{"profile":{"cardnet":{"authUrl":""#, base, r#""}}}"#));
            let e = cardnet_auth_url(&params, Some(&o)).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("profile.cardnet.authUrl")), "{base}");
        }
        let w2 = j(r#"{"appId":"wx1","redirectUri":"https://s.example/cb","scope":"snsapi_base","state":"abcdefgh"}"#);
        let o = j(r#"{"profile":{"wallet2":{"authorizeUrl":"https://o.example/authorize?lang=en&state=x"}}}"#);
        assert_eq!(wallet2_auth_url(&w2, Some(&o)).unwrap_err().field.as_deref(), Some("profile.wallet2.authorizeUrl"));
        // Its own keys stay, in place.
        let o = j(r#"{"profile":{"wallet2":{"authorizeUrl":"https://o.example/authorize?lang=en"}}}"#);
        assert!(wallet2_auth_url(&w2, Some(&o)).unwrap().starts_with("https://o.example/authorize?lang=en&appid=wx1&"));
    }

    #[test]
    fn wallet2_fragment_is_added_never_substituted() {
        let w2 = j(r#"{"appId":"wx1","redirectUri":"https://s.example/cb","scope":"snsapi_base","state":"abcdefgh"}"#);
        let o = j(r##"{"profile":{"wallet2":{"authorizeUrl":"https://o.example/authorize#mine"}}}"##);
        let e = wallet2_auth_url(&w2, Some(&o)).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("profile.wallet2.authorizeUrl")));
        assert!(wallet2_auth_url(&w2, None).unwrap().ends_with("&connect_redirect=1#wallet2_redirect"));
    }

    #[test]
    fn allowed_hosts_apply_to_the_returned_address() {
        let params = j(r#"{"redirectUrl":"https://s.example/cb"}"#);
        let ok = j(r#"{"allowedHosts":["*.cardnet.example","s.example"]}"#);
        assert!(cardnet_auth_url(&params, Some(&ok)).is_ok());
        let no = j(r#"{"allowedHosts":["pay.example.com"]}"#);
        let e = cardnet_auth_url(&params, Some(&no)).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (Code::UnsafeUrl, Some("profile.cardnet.authUrl")));
        let bad = j(r#"{"allowedHosts":["*.0.1"]}"#);
        let e = cardnet_auth_url(&params, Some(&bad)).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("allowedHosts[0]")));
    }

    #[test]
    fn loopback_provider_addresses_need_insecure_loopback() {
        // The local sandbox's authorization pages are http://127.0.0.1.
        let params = j(r#"{"redirectUrl":"http://127.0.0.1:8080/cb"}"#);
        let profile = r#""profile":{"cardnet":{"authUrl":"http://127.0.0.1:8080/sim/cardnet/authorize"}}"#;
        let o = j(&cat!("{", profile, r#","insecureLoopback":true}"#));
        let u = cardnet_auth_url(&params, Some(&o)).unwrap();
        assert_eq!(u, "http://127.0.0.1:8080/sim/cardnet/authorize?version=1.0.0&redirectUrl=http%3A%2F%2F127.0.0.1%3A8080%2Fcb");
        let e = cardnet_auth_url(&params, Some(&j(&cat!("{", profile, "}")))).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("profile.cardnet.authUrl")));
        // Only loopback: another http host stays refused.
        let o = j(r#"{"profile":{"cardnet":{"authUrl":"http://c.example/a"}},"insecureLoopback":true}"#);
        let e = cardnet_auth_url(&params, Some(&o)).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("profile.cardnet.authUrl"));
        let o = j(r#"{"profile":{"wallet1":{"authUrl":"http://localhost:9/a"}},"insecureLoopback":true}"#);
        let w1 = j(r#"{"appId":"app","redirectUri":"http://localhost:9/cb","scopes":"auth_base","state":"abcdefgh"}"#);
        assert_eq!(
            wallet1_auth_url(&w1, Some(&o)).unwrap(),
            "http://localhost:9/a?app_id=app&scope=auth_base&redirect_uri=http%3A%2F%2Flocalhost%3A9%2Fcb&state=abcdefgh"
        );
    }

    #[test]
    fn overlong_redirect_is_refused() {
        let long = cat!("https://s.example/", &"%41".repeat(2700));
        let mut m = vec![("redirectUrl", Json::Str(long))];
        let e = cardnet_auth_url(&Json::obj(m.clone()), None).unwrap_err();
        assert_eq!(e.code, Code::UnsafeUrl);
        assert_eq!(e.field.as_deref(), Some("redirectUrl"));
        m[0].1 = Json::str("https://s.example/cb");
        assert!(cardnet_auth_url(&Json::obj(m), None).is_ok());
    }
}
