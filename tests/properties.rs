//! Property tests of the two promises the planner makes about URLs:
//! the wallet1 scheme URL's `qrcode` decodes back to `pay_info` byte for
//! byte, and every URL the module accepts to open is, read by `url::Url`
//! (the WHATWG parser browsers follow), a plain https URL with the host the
//! module checked.
#![cfg(not(target_arch = "wasm32"))]

use paybridge::runtime::{Host, Runtime};
use paybridge::safe_url::{self, UrlPolicy};
use paybridge::{plan, Action, Json, Options, Payment};
use proptest::prelude::*;
use url::Url;

fn browser() -> Runtime {
    Runtime { host: Host::Browser, mobile: true }
}

/// Characters a valid `pay_info` path, query or fragment may hold raw.
const TAIL_CHARS: &str = "abcXYZ019-._~!$&'()*+,;=:@/?#[]{}|^%";

/// A valid tail: any of the characters above, with every `%` followed by
/// two hex digits (percent-encoded bytes, non-ASCII included).
fn tail() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => proptest::sample::select(TAIL_CHARS.chars().filter(|c| *c != '%').collect::<Vec<_>>()).prop_map(|c| c.to_string()),
        1 => any::<u8>().prop_map(|b| format!("%{b:02X}")),
        1 => "[\u{4e00}-\u{4e10}]".prop_map(|s| s.bytes().map(|b| format!("%{b:02X}")).collect::<String>()),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

fn host() -> impl Strategy<Value = String> {
    // Plain labels only: one that happens to begin with `xn--` is an
    // internationalized label, valid only when its punycode decodes to the
    // characters browsers keep (safe_url's own tests cover those), so a
    // random one is rightly refused ("xn--a" was once drawn here).
    let label = "[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?".prop_filter("an xn-- label is not a plain label", |l: &String| !l.starts_with("xn--"));
    (proptest::collection::vec(label, 1..4), "[a-z]{2,6}").prop_map(|(labels, tld)| {
        let mut h = labels.join(".");
        h.push('.');
        h.push_str(&tld);
        h
    })
}

fn pay_info() -> impl Strategy<Value = String> {
    (host(), proptest::option::of(1u16..=65535), tail()).prop_map(|(h, port, t)| {
        let mut u = format!("https://{h}");
        if let Some(p) = port {
            u.push_str(&format!(":{p}"));
        }
        u.push('/');
        u.push_str(&t);
        u
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    #[test]
    fn qrcode_decodes_back_to_pay_info(info in pay_info()) {
        let payment = Payment::from_json(Json::obj(vec![("pay_channel", Json::str("wallet1")), ("pay_info", Json::Str(info.clone()))])).unwrap();
        let p = plan(&payment, &Options::default(), browser()).unwrap();
        let Action::OpenUrl { url, fallback_url } = p.action else { panic!("not open_url") };
        prop_assert_eq!(&fallback_url, &info);
        prop_assert!(url.starts_with("wallet1://platformapi/startapp?saId=10000007&qrcode="));
        // As a wallet reading the query would.
        let parsed = Url::parse(&url).unwrap();
        let qrcode: Vec<String> = parsed.query_pairs().filter(|(k, _)| k == "qrcode").map(|(_, v)| v.into_owned()).collect();
        prop_assert_eq!(qrcode, vec![info.clone()]);
        // As plain percent-decoding would.
        let raw = &url[url.find("qrcode=").unwrap() + 7..];
        prop_assert_eq!(percent_encoding::percent_decode_str(raw).decode_utf8().unwrap(), info.as_str());
    }

    #[test]
    fn plain_urls_are_accepted(info in pay_info()) {
        let ok = safe_url::check(&info, &UrlPolicy::default(), "pay_info");
        prop_assert!(ok.is_ok(), "{info}: {:?}", ok.err());
    }

    #[test]
    fn what_is_accepted_is_a_plain_https_url_to_the_checked_host(s in url_like()) {
        if let Ok(host) = safe_url::check_shape(&s, true) {
            let u = Url::parse(&s);
            prop_assert!(u.is_ok(), "{s} accepted but not a URL: {:?}", u.err());
            let u = u.unwrap();
            prop_assert!(u.scheme() == "https" || (u.scheme() == "http" && (host == "127.0.0.1" || host == "localhost")), "{s}: scheme {}", u.scheme());
            prop_assert_eq!(u.username(), "");
            prop_assert_eq!(u.password(), None);
            prop_assert_eq!(u.host_str(), Some(host.as_str()), "{}: the browser would connect elsewhere", s);
            prop_assert!(!u.cannot_be_a_base());
        }
    }
}

/// Strings shaped like URLs, with the tricks that fool weaker checks.
fn url_like() -> impl Strategy<Value = String> {
    let scheme = proptest::sample::select(vec![
        "https://",
        "HTTPS://",
        "http://",
        "https:",
        "https:/",
        "https:///",
        "//",
        "javascript:",
        "https:\\\\",
        " https://",
        "hTTps://",
    ]);
    let userinfo = proptest::sample::select(vec!["", "", "", "user@", "a:b@", "good.example@", "@"]);
    let host = prop_oneof![
        4 => host(),
        1 => proptest::sample::select(vec!["127.0.0.1", "localhost", "0x7f.1", "127.1", "2130706433", "1.2.3.4", "1.2.3.256", "[::1]", "xn--fiqs8s.example", "ex\u{0430}mple.com", "a..b", ".a.b", "a.b.", "-a.b", "a_b.example", "A.EXAMPLE", "%65xample.com", "example.com\t", "1.2.3", "09.1.1.1"]).prop_map(String::from),
    ];
    let port = proptest::sample::select(vec!["", "", ":443", ":8080", ":0", ":65535", ":65536", ":", ":08", ":x"]);
    let tail = prop_oneof![
        3 => tail().prop_map(|t| format!("/{t}")),
        1 => proptest::sample::select(vec!["", "?a=1", "#f", "\\evil", "/a b", "/\u{4e2d}", "/%zz", "/\"<>", "@evil.example/", ":x@evil.example/"]).prop_map(String::from),
    ];
    (scheme, userinfo, host, port, tail).prop_map(|(s, ui, h, p, t)| format!("{s}{ui}{h}{p}{t}"))
}
