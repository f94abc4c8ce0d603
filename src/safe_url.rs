//! The strict check every URL passes before the module opens it.
//!
//! Accepted: an absolute `https` URL with a plain host (ASCII letters,
//! digits, hyphens and dots, or a dotted-decimal IPv4 address), an optional
//! port, no user info, and a path, query and fragment made of printable
//! ASCII with well-formed percent escapes. Refused: any other scheme
//! (`javascript:`, `data:`, `http:` outside the loopback opt-in),
//! scheme-relative `//host`, backslashes, whitespace and control characters
//! anywhere, raw non-ASCII (hosts with odd Unicode), `@` in the authority,
//! empty or trailing-dot labels, IPv4 in odd notations, and hosts outside
//! `allowedHosts`.
//!
//! The checker is hand-written rather than built on `url::Url`, whose IDNA
//! tables would multiply the size of the wasm build; the host tests compare
//! it with `url::Url` as an oracle.

use crate::error::{cat, Code, PayError, Result};
use crate::prelude::*;

/// The longest URL the module opens.
pub const MAX_URL: usize = 8192;

/// One entry of `allowedHosts`: an exact host or `*.suffix`.
///
/// An exact rule is a host name or a dotted-decimal IPv4 address. A
/// suffix rule is `*.` followed by a host name of at least two labels whose
/// last label is not numeric (a name a URL parser reads as an address is
/// not a name), and it matches host names only: never an IP address,
/// whatever its tail. An address is allowed only when it is listed exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostRule {
    Exact(String),
    /// Any host name that ends in `.suffix` (not the suffix itself).
    Suffix(String),
}

/// What a URL must satisfy beyond being a plain https URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrlPolicy {
    /// `None`: any host. `Some(rules)`: the host must match one rule.
    pub allowed_hosts: Option<Vec<HostRule>>,
    /// Accept `http://127.0.0.1[:port]` and `http://localhost[:port]` too
    /// (the local sandbox; off unless asked for).
    pub insecure_loopback: bool,
}

/// A URL that passed the check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SafeUrl {
    /// The URL exactly as given (it is opened as given).
    pub url: String,
    /// The host, lowercased.
    pub host: String,
}

impl HostRule {
    /// Parses one `allowedHosts` entry; `None` when it is not a host name,
    /// an IPv4 address, or `*.` followed by a host name of two labels or
    /// more.
    pub fn parse(s: &str) -> Option<HostRule> {
        let lower = s.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("*.") {
            if rest.as_bytes().contains(&b'.') && plain_host(rest) && !is_address(rest) {
                return Some(HostRule::Suffix(rest.to_string()));
            }
            return None;
        }
        if plain_host(&lower) {
            Some(HostRule::Exact(lower))
        } else {
            None
        }
    }

    pub fn matches(&self, host: &str) -> bool {
        match self {
            HostRule::Exact(h) => h == host,
            HostRule::Suffix(s) => {
                !is_address(host)
                    && host.len() > s.len() + 1
                    && host.ends_with(s.as_str())
                    && host.as_bytes()[host.len() - s.len() - 1] == b'.'
            }
        }
    }
}

/// An IP address rather than a name: dotted-decimal IPv4, or a bracketed
/// IPv6 literal (which the shape check refuses before any rule sees it).
fn is_address(host: &str) -> bool {
    host.starts_with('[') || is_ipv4(host)
}

fn unsafe_url(field: &str, why: &str) -> PayError {
    PayError::field(Code::UnsafeUrl, field, cat(&[field, " is not a safe URL to open: ", why]))
}

/// Checks `url` (the value of input `field`) against the strict rules and
/// `policy`.
pub fn check(url: &str, policy: &UrlPolicy, field: &str) -> Result<SafeUrl> {
    let host = check_shape(url, policy.insecure_loopback).map_err(|why| unsafe_url(field, why))?;
    if let Some(rules) = &policy.allowed_hosts {
        if !rules.iter().any(|r| r.matches(&host)) {
            return Err(PayError::field(
                Code::UnsafeUrl,
                field,
                cat(&[field, " points at host ", &host, ", which is not in allowedHosts"]),
            ));
        }
    }
    Ok(SafeUrl { url: url.to_string(), host })
}

/// The shape check alone; returns the lowercased host or why it failed.
pub fn check_shape(url: &str, insecure_loopback: bool) -> core::result::Result<String, &'static str> {
    if url.is_empty() {
        return Err("it is empty");
    }
    if url.len() > MAX_URL {
        return Err("it is longer than 8192 characters");
    }
    for &b in url.as_bytes() {
        if b <= b' ' || b == 0x7f {
            return Err("it contains whitespace or a control character");
        }
        if b >= 0x80 {
            return Err("it contains raw non-ASCII characters (percent-encode them)");
        }
        if b == b'\\' {
            return Err("it contains a backslash");
        }
        if matches!(b, b'"' | b'<' | b'>' | b'`') {
            return Err("it contains a quote or angle bracket");
        }
    }
    let (rest, http) = if let Some(r) = strip_prefix_ci(url, "https://") {
        (r, false)
    } else if let Some(r) = strip_prefix_ci(url, "http://") {
        (r, true)
    } else if url.starts_with("//") {
        return Err("it is scheme-relative; an absolute https URL is needed");
    } else {
        return Err("it is not an https URL");
    };
    // Byte positions and `get` rather than `str` slicing: the URL is ASCII
    // by now, and no slicing here can panic.
    let end = rest.bytes().position(|b| matches!(b, b'/' | b'?' | b'#')).unwrap_or(rest.len());
    let authority = rest.get(..end).unwrap_or("");
    let tail = rest.get(end..).unwrap_or("");
    if authority.bytes().any(|b| b == b'@') {
        return Err("it carries user info (an @ before the host)");
    }
    let (host, port) = match authority.bytes().rposition(|b| b == b':') {
        Some(i) => (authority.get(..i).unwrap_or(""), Some(authority.get(i + 1..).unwrap_or(""))),
        None => (authority, None),
    };
    if let Some(p) = port {
        if p.is_empty() || p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit()) || p.starts_with('0') {
            return Err("its port is not a number from 1 to 65535");
        }
        let n: u32 = p.bytes().fold(0, |n, b| n * 10 + (b - b'0') as u32);
        if n > 65535 {
            return Err("its port is not a number from 1 to 65535");
        }
    }
    let host = host.to_ascii_lowercase();
    if !plain_host(&host) {
        return Err("its host is not a plain host name or IPv4 address");
    }
    if http && !(insecure_loopback && (host == "127.0.0.1" || host == "localhost")) {
        return Err("it is http, not https");
    }
    check_tail(tail)?;
    Ok(host)
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    match (s.as_bytes().get(..prefix.len()), s.get(prefix.len()..)) {
        (Some(head), Some(rest)) if head.eq_ignore_ascii_case(prefix.as_bytes()) => Some(rest),
        _ => None,
    }
}

/// A lowercase host: a registered name or a canonical dotted-decimal IPv4.
fn plain_host(h: &str) -> bool {
    if h.is_empty() || h.len() > 253 {
        return false;
    }
    // WHATWG URL parsing reads a host whose last label is numeric (or hex)
    // as an IPv4 address in any of several notations; only the canonical
    // dotted-decimal form is accepted, so that the host checked is the host
    // the browser connects to.
    // Labels are split as bytes throughout: `str::split` keeps a panicking
    // slice check (and so the formatter) in the wasm build.
    let last = h.as_bytes().rsplit(|&b| b == b'.').next().unwrap_or(&[]);
    let numeric_last = !last.is_empty() && (last.iter().all(u8::is_ascii_digit) || last.starts_with(b"0x"));
    if numeric_last {
        return is_ipv4(h);
    }
    is_reg_name(h)
}

fn is_reg_name(h: &str) -> bool {
    if h.is_empty() || h.len() > 253 {
        return false;
    }
    h.as_bytes().split(|&b| b == b'.').all(|b| {
        !b.is_empty()
            && b.len() <= 63
            && b.first() != Some(&b'-')
            && b.last() != Some(&b'-')
            && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
            && a_label_ok(b)
    })
}

/// An internationalized label (`xn--` followed by punycode) is accepted
/// only when it decodes, and stands for lowercase ASCII letters, digits and
/// hyphens with at least one character from a set that every WHATWG URL
/// parser keeps as it is (CJK unified ideographs, the lowercase Latin-1
/// letters): a browser refuses a URL whose punycode does not decode or
/// stands for a character IDNA maps or forbids, so accepting one would let
/// the check pass a URL that is never opened. Other labels pass.
///
/// The label is bytes (lowercase ASCII letters, digits and hyphens, checked
/// before): no UTF-8 validation is needed, and none is linked in.
fn a_label_ok(label: &[u8]) -> bool {
    let Some(code) = label.strip_prefix(b"xn--") else { return true };
    let Some(chars) = punycode_decode(code) else { return false };
    let kept = |c: &char| {
        c.is_ascii_lowercase()
            || c.is_ascii_digit()
            || *c == '-'
            || ('\u{4e00}'..='\u{9fff}').contains(c)
            || ('\u{df}'..='\u{ff}').contains(c) && *c != '\u{f7}'
    };
    chars.iter().any(|c| !c.is_ascii())
        && chars.iter().all(kept)
        && !chars.starts_with(&['x', 'n', '-', '-'])
        // Only the one encoding of those characters (no leading hyphen, no
        // reordered insertions): IDNA refuses the others.
        && punycode_encode(&chars).is_some_and(|e| e.as_bytes() == code)
}

const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;

fn threshold(k: u32, bias: u32) -> u32 {
    if k <= bias {
        T_MIN
    } else if k >= bias + T_MAX {
        T_MAX
    } else {
        k - bias
    }
}

/// RFC 3492 encoding (the inverse of [`punycode_decode`]).
fn punycode_encode(input: &[char]) -> Option<String> {
    let digit = |d: u32| (if d < 26 { b'a' + d as u8 } else { b'0' + (d - 26) as u8 }) as char;
    let mut out: String = input.iter().filter(|c| c.is_ascii()).collect();
    let basic = out.len() as u32;
    let mut h = basic;
    if basic > 0 {
        out.push('-');
    }
    let (mut n, mut delta, mut bias) = (128u32, 0u32, 72u32);
    while (h as usize) < input.len() {
        let m = input.iter().map(|&c| c as u32).filter(|&c| c >= n).min()?;
        delta = delta.checked_add((m - n).checked_mul(h + 1)?)?;
        n = m;
        for &c in input {
            let c = c as u32;
            if c < n {
                delta = delta.checked_add(1)?;
            }
            if c == n {
                let (mut q, mut k) = (delta, BASE);
                loop {
                    let t = threshold(k, bias);
                    if q < t {
                        break;
                    }
                    out.push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(digit(q));
                bias = adapt(delta, h + 1, h == basic);
                delta = 0;
                h += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n += 1;
    }
    Some(out)
}

/// RFC 3492 decoding of the part after `xn--` (lowercase); `None` when it
/// is not valid punycode or would stand for more than 63 characters.
fn punycode_decode(code: &[u8]) -> Option<Vec<char>> {
    // `get`, not slicing: no panic path in the wasm.
    let (basic, rest): (&[u8], &[u8]) = match code.iter().rposition(|&b| b == b'-') {
        Some(i) => (code.get(..i)?, code.get(i + 1..)?),
        None => (&[], code),
    };
    let mut out: Vec<char> = basic.iter().map(|&b| b as char).collect();
    let (mut n, mut i, mut bias) = (128u32, 0u32, 72u32);
    let mut digits = rest.iter().copied().peekable();
    while digits.peek().is_some() {
        let (old_i, mut w, mut k) = (i, 1u32, BASE);
        loop {
            let d = match digits.next()? {
                c @ b'a'..=b'z' => (c - b'a') as u32,
                c @ b'0'..=b'9' => (c - b'0') as u32 + 26,
                _ => return None,
            };
            i = i.checked_add(d.checked_mul(w)?)?;
            let t = threshold(k, bias);
            if d < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let len = out.len() as u32 + 1;
        bias = adapt(i - old_i, len, old_i == 0);
        n = n.checked_add(i / len)?;
        i %= len;
        if out.len() >= 63 || i as usize > out.len() {
            return None;
        }
        out.insert(i as usize, char::from_u32(n)?);
        i += 1;
    }
    Some(out)
}

fn adapt(delta: u32, points: u32, first: bool) -> u32 {
    let mut delta = if first { delta / 700 } else { delta / 2 };
    delta += delta / points;
    let mut k = 0;
    while delta > 455 {
        delta /= 35;
        k += 36;
    }
    k + 36 * delta / (delta + 38)
}

fn is_ipv4(h: &str) -> bool {
    let mut n = 0;
    for b in h.as_bytes().split(|&b| b == b'.') {
        n += 1;
        if n > 4 || b.is_empty() || b.len() > 3 || !b.iter().all(u8::is_ascii_digit) || (b.len() > 1 && b.first() == Some(&b'0')) {
            return false;
        }
        let v: u32 = b.iter().fold(0, |v, c| v * 10 + (c - b'0') as u32);
        if v > 255 {
            return false;
        }
    }
    n == 4
}

/// Path, query and fragment: printable ASCII (already checked) with
/// well-formed percent escapes.
fn check_tail(tail: &str) -> core::result::Result<(), &'static str> {
    let b = tail.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)) {
                return Err("it has a broken percent escape");
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    Ok(())
}

/// Parses `allowedHosts` (already known to be a list of strings).
pub fn parse_allowed_hosts(items: &[String], field: &str) -> Result<Vec<HostRule>> {
    let mut rules = Vec::with_capacity(items.len());
    for (i, s) in items.iter().enumerate() {
        match HostRule::parse(s) {
            Some(r) => rules.push(r),
            None => {
                let mut f = String::from(field);
                f.push('[');
                crate::error::push_u64(&mut f, i as u64);
                f.push(']');
                let msg =
                    cat(&[&f, " is not a host name, an IPv4 address, or *. followed by a host name of two labels or more: ", clip(s)]);
                return Err(PayError::field(Code::InvalidOptions, &f, msg));
            }
        }
    }
    Ok(rules)
}

/// The first 80 bytes of an input, cut on a character boundary, for quoting
/// it in a message.
pub fn clip(s: &str) -> &str {
    if s.len() <= 80 {
        return s;
    }
    let mut end = 80;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.get(..end).unwrap_or("")
}

#[cfg(test)]
mod tests {
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
            "https://1.2.3.4/x",
            "https://xn--fiqs8s.example/x",
            "https://a-b.c/?q={x}|^",
            "https://xn--bcher-kva.example/",
            "https://xn--zca.example/",
            "https://shop.xn--fiqs8s/",
        ] {
            assert!(ok(u), "{u}");
        }
        assert_eq!(check("HTTPS://Pay.Example.com/", &UrlPolicy::default(), "u").unwrap().host, "pay.example.com");
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
    fn punycode() {
        let d = |s: &str| punycode_decode(s.as_bytes()).map(|v| v.into_iter().collect::<String>());
        assert_eq!(d("fiqs8s").as_deref(), Some("\u{4e2d}\u{56fd}"));
        for code in ["fiqs8s", "bcher-kva", "zca", "shop-zx3e", "ca-vja"] {
            assert_eq!(punycode_encode(&punycode_decode(code.as_bytes()).unwrap()).as_deref(), Some(code));
        }
        assert_eq!(d("bcher-kva").as_deref(), Some("b\u{fc}cher"));
        assert_eq!(d("zca").as_deref(), Some("\u{df}"));
        assert_eq!(d("fx"), None);
        assert_eq!(d("99999999999"), None);
        // U+0080, a hyphen alone, a character outside the kept set.
        for bad in ["xn--a", "xn---", "xn--ls8h", "xn--abc-", "xn--fx", "xn---fiqs8s", "xn---iqs8vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvalapsxm"]
        {
            assert!(!a_label_ok(bad.as_bytes()), "{bad}");
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
}
