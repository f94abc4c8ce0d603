//! Unit tests of the URL check: plain https accepted, every trick refused,
//! `allowedHosts` rules.

use super::*;

fn ok(u: &str) -> bool {
    check(u, &UrlPolicy::default(), "url").is_ok()
}

#[test]
fn accepts_plain_https() {
    for u in [
        "https://pay.example.com",
        "https://pay.example.com/",
        "HTTPS://Pay.Example.com/a/b?x=1&y=%E4%B8%AD#frag",
        "https://pay.example.com:8443/cashier?token=a+b=c&d=%2F",
        "https://pay.example.com:1/",
        "https://pay.example.com:65535/",
        "https://1.2.3.4/x",
        "https://xn--fiqs8s.example/x",
        "https://a-b.c/?q={x}|^",
        "https://xn--bcher-kva.example/",
        "https://xn--zca.example/",
        "https://shop.xn--fiqs8s/",
    ] {
        assert!(ok(u), "{u}");
    }
    // The host read lowercased, and matched so against `allowedHosts`.
    assert_eq!(check_shape("HTTPS://Pay.Example.com/", false).unwrap(), "pay.example.com");
    let p = UrlPolicy { allowed_hosts: Some(vec![HostRule::Exact("pay.example.com".into())]), insecure_loopback: false };
    assert!(check("HTTPS://Pay.Example.com/", &p, "u").is_ok());
}

#[test]
fn refuses_tricks() {
    for u in [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "data:text/html,hi",
        "http://pay.example.com/",
        "//pay.example.com/",
        "https://good.example@evil.example/",
        "https://good.example:x@evil.example/",
        "https:\\\\evil.example",
        "https://evil.example\\@good.example/",
        "https:/evil.example",
        "https:///evil.example",
        " https://pay.example.com/",
        "https://pay.example.com/\n",
        "https://pay.example.com/a b",
        "https://pay\u{0430}.example/",
        "https://pay.example.com/\u{4e2d}",
        "https://pay.example.com./",
        "https://.example.com/",
        "https://-a.example/",
        "https://0x7f.1/",
        "https://127.1/",
        "https://1.2.3.256/",
        "https://01.2.3.4/",
        "https://example.123/",
        "https://[::1]/",
        "https://xn--fx/",
        "https://xn--a.example/",
        "https://xn--.example/",
        "https://xn--abc-.example/",
        "https://xn--ls8h.example/",
        "https://pay.example.com:0/",
        "https://pay.example.com:/",
        "https://pay.example.com:65536/",
        "https://pay.example.com:99999/",
        "https://pay.example.com:123456/",
        "https://pay.example.com:08443/",
        "https://pay.example.com:+443/",
        "https://pay.example.com:4a/",
        "https://pay.example.com/%zz",
        "https://pay.example.com/%4",
        "https://pay.example.com/\"onload=",
        "https://pay.example.com/<script>",
        "https://pay%2eexample.com/",
        "https://",
        "",
    ] {
        let e = check(u, &UrlPolicy::default(), "pay_info");
        assert_eq!(e.map_err(|e| e.code), Err(Code::UnsafeUrl), "{u:?}");
    }
}

#[test]
fn allowed_hosts() {
    let rules = parse_allowed_hosts(&["pay.example.com".into(), "*.cashier.example".into()], "allowedHosts").unwrap();
    let p = UrlPolicy { allowed_hosts: Some(rules), insecure_loopback: false };
    assert!(check("https://pay.example.com/x", &p, "u").is_ok());
    assert!(check("https://a.cashier.example/x", &p, "u").is_ok());
    assert!(check("https://a.b.cashier.example/x", &p, "u").is_ok());
    assert!(check("https://cashier.example/x", &p, "u").is_err());
    assert!(check("https://evilcashier.example/x", &p, "u").is_err());
    assert!(check("https://pay.example.com.evil/x", &p, "u").is_err());
    let e = parse_allowed_hosts(&["ok.example".into(), "bad host".into()], "allowedHosts").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("allowedHosts[1]"));
    assert_eq!(e.code, Code::InvalidOptions);
}

#[test]
fn wildcards_never_match_addresses() {
    for bad in ["*.0.1", "*.3.4", "*.1.2.3.4", "*.com", "*.example", "*.a.0x1", "*.a.123", "*.[::1]", "[::1]", "*.", "*"] {
        let e = parse_allowed_hosts(&["ok.example".into(), bad.into()], "allowedHosts").unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("allowedHosts[1]")), "{bad}");
    }
    let suffix = HostRule::parse("*.example.com").unwrap();
    assert!(suffix.matches("a.example.com"));
    for addr in ["127.0.0.1", "1.2.3.4", "10.0.0.1", "[::1]"] {
        assert!(!suffix.matches(addr), "{addr}");
        assert!(!HostRule::Suffix("0.1".into()).matches(addr), "{addr}");
    }
    let rules = parse_allowed_hosts(&["1.2.3.4".into(), "*.cashier.example".into()], "allowedHosts").unwrap();
    let p = UrlPolicy { allowed_hosts: Some(rules), insecure_loopback: false };
    assert!(check("https://1.2.3.4/x", &p, "u").is_ok());
    assert!(check("https://1.2.3.5/x", &p, "u").is_err());
    assert!(check("https://127.0.0.1/x", &p, "u").is_err());
}

#[test]
fn loopback_only_when_asked() {
    let p = UrlPolicy { allowed_hosts: None, insecure_loopback: true };
    assert!(check("http://127.0.0.1:8080/cashier", &p, "u").is_ok());
    assert!(check("http://localhost:8080/cashier", &p, "u").is_ok());
    assert!(check("http://evil.example/", &p, "u").is_err());
    assert!(check("http://127.0.0.1:8080/", &UrlPolicy::default(), "u").is_err());
}

#[test]
fn allowed_hosts_refuses_a_non_string_before_a_bad_host() {
    let read = |t: &str| allowed_hosts_from_json(&crate::json::parse(t, Code::InvalidOptions, "allowedHosts").unwrap());
    let e = read(r#"["bad host", "ok.example", 7]"#).unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("allowedHosts[2]")));
    assert_eq!(e.message, "allowedHosts[2] must be a string");
    let e = read(r#"["ok.example", "bad host"]"#).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("allowedHosts[1]"));
    assert_eq!(
        e.message,
        "allowedHosts[1] is not a host name, an IPv4 address, or *. followed by a host name of two labels or more: bad host"
    );
    assert_eq!(
        read(r#"["A.example", "*.b.example"]"#).unwrap(),
        [HostRule::Exact("a.example".into()), HostRule::Suffix("b.example".into())]
    );
}
