//! `wallet1PageUrl(pageUrl, params?, options?)`: step 1 of the wallet1
//! life-account flow, the address that opens a life-account page in the
//! wallet1 app.
//!
//! The service document: open `<scheme>://platformapi/startapp?saId=10000007&qrcode=<page URL>`,
//! "payment business parameters may be appended to the page URL". So
//! `params` (string, number or boolean values) are appended to the page
//! URL's query in their order, each key and value percent-encoded, before
//! its fragment; the page URL is checked as every URL opened
//! ([`safe_url::check`]: https, a plain host, within `allowedHosts`;
//! `insecureLoopback` for the sandbox), before and after; and the whole is
//! the `qrcode` of the scheme URL, percent-encoded so that it decodes back
//! to the page URL byte for byte. A parameter the page URL's query already
//! holds is refused (`invalid_options`) rather than sent twice.

use super::{bad, AuthOptions};
use crate::action::scheme_url;
use crate::encode::push_component;
use crate::error::{cat, Code, PayError, Result};
use crate::json::Json;
use crate::prelude::*;
use crate::safe_url::{self, MAX_URL};

/// The page URL with `params` appended (see the module docs).
pub fn wallet1_page_with_params(page_url: &str, params: Option<&Json>, options: &AuthOptions) -> Result<String> {
    safe_url::check(page_url, &options.policy, "pageUrl")?;
    let pairs: &[(String, Json)] = match params {
        None | Some(Json::Null) => &[],
        Some(Json::Obj(m)) => m,
        Some(other) => return Err(bad("params", &cat!("must be an object of business parameters, not ", other.kind()))),
    };
    let (base, fragment) = match page_url.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (page_url, None),
    };
    let mut url = String::from(base);
    let query = base.split_once('?').map_or("", |(_, q)| q);
    for (k, v) in pairs {
        let field = cat!("params.", crate::safe_url::clip(k));
        let value = match v {
            Json::Null => continue,
            Json::Str(s) => s.clone(),
            Json::Bool(b) => String::from(if *b { "true" } else { "false" }),
            Json::Num(_) => v.to_text(),
            other => return Err(bad(&field, &cat!("must be a string, number or boolean, not ", other.kind()))),
        };
        if k.is_empty() {
            return Err(bad("params", "has an empty key"));
        }
        if query.split('&').any(|pair| super::once::key_is(pair.split_once('=').map_or(pair, |(n, _)| n), k)) {
            return Err(bad(&field, "is already in pageUrl's query: give it once"));
        }
        if !url.contains('?') {
            url.push('?');
        } else if !url.ends_with(['?', '&']) {
            url.push('&');
        }
        push_component(&mut url, k);
        url.push('=');
        push_component(&mut url, &value);
    }
    if let Some(f) = fragment {
        url.push('#');
        url.push_str(f);
    }
    if url.len() > MAX_URL {
        return Err(PayError::field(Code::UnsafeUrl, "params", "params make pageUrl longer than 8192 characters"));
    }
    safe_url::check(&url, &options.policy, "pageUrl")?;
    Ok(url)
}

/// `wallet1PageUrl(pageUrl, params?, options?)`: the scheme URL whose
/// `qrcode` is the page URL with `params` appended.
pub fn wallet1_page_url(page_url: &Json, params: Option<&Json>, options: Option<&Json>) -> Result<String> {
    let o = AuthOptions::from_json(options)?;
    let Json::Str(page) = page_url else {
        return Err(PayError::field(Code::UnsafeUrl, "pageUrl", cat!("pageUrl must be the page's https address, not ", page_url.kind())));
    };
    let full = wallet1_page_with_params(page, params, &o)?;
    Ok(scheme_url(&o.profile, &full))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::percent_decode;

    fn opts(text: &str) -> Json {
        crate::json::parse(text, Code::InvalidOptions, "options").unwrap()
    }

    #[test]
    fn the_page_in_the_scheme_url_with_its_params() {
        let params = opts(r#"{"order":"A 1&2","amount":12.5,"vip":true,"skip":null,"名":"值"}"#);
        let u = wallet1_page_url(&Json::str("https://shop.example/life?x=1#top"), Some(&params), None).unwrap();
        let prefix = "wallet1://platformapi/startapp?saId=10000007&qrcode=";
        assert!(u.starts_with(prefix), "{u}");
        let page = percent_decode(&u[prefix.len()..], false).unwrap();
        assert_eq!(page, "https://shop.example/life?x=1&order=A%201%262&amount=12.5&vip=true&%E5%90%8D=%E5%80%BC#top");
        assert!(!u[prefix.len()..].contains(['&', '?', '#', '=']), "the page URL is one encoded component: {u}");
        let plain = wallet1_page_url(&Json::str("https://shop.example/life"), None, None).unwrap();
        assert_eq!(plain, "wallet1://platformapi/startapp?saId=10000007&qrcode=https%3A%2F%2Fshop.example%2Flife");
        let q = wallet1_page_url(&Json::str("https://shop.example/life?"), Some(&opts(r#"{"a":"1"}"#)), None).unwrap();
        assert_eq!(percent_decode(&q[prefix.len()..], false).unwrap(), "https://shop.example/life?a=1");
        let scheme =
            wallet1_page_url(&Json::str("https://shop.example/l"), None, Some(&opts(r#"{"profile":{"wallet1":{"scheme":"w1"}}}"#)));
        assert!(scheme.unwrap().starts_with("w1://platformapi/startapp?saId=10000007&qrcode="));
    }

    #[test]
    fn the_page_url_is_checked_like_every_url_opened() {
        for (page, code, field) in [
            (Json::str("http://shop.example/life"), Code::UnsafeUrl, "pageUrl"),
            (Json::str("javascript:alert(1)"), Code::UnsafeUrl, "pageUrl"),
            (Json::str("https://user@shop.example/"), Code::UnsafeUrl, "pageUrl"),
            (Json::str("https://evil.example/life"), Code::UnsafeUrl, "pageUrl"),
            (Json::Num(1.0), Code::UnsafeUrl, "pageUrl"),
        ] {
            let e = wallet1_page_url(&page, None, Some(&opts(r#"{"allowedHosts":["*.shop.example","shop.example"]}"#))).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (code, Some(field)), "{page:?}: {}", e.message);
        }
        let ok = wallet1_page_url(&Json::str("http://127.0.0.1:8080/demo/life.html"), None, Some(&opts(r#"{"insecureLoopback":true}"#)));
        assert!(ok.is_ok());
        for (params, field) in
            [(r#"{"x":"2"}"#, "params.x"), (r#"{"o":{"a":1}}"#, "params.o"), (r#"{"":"1"}"#, "params"), (r#"[1]"#, "params")]
        {
            let e = wallet1_page_url(&Json::str("https://shop.example/l?x=1"), Some(&opts(params)), None).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some(field)), "{params}: {}", e.message);
        }
        let long = opts(&cat!(r#"{"a":""#, &"a".repeat(9000), r#""}"#));
        assert_eq!(wallet1_page_url(&Json::str("https://shop.example/l"), Some(&long), None).unwrap_err().code, Code::UnsafeUrl);
    }
}
