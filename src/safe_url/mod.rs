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
//! it with `url::Url` as an oracle. Internationalized (`xn--`) hosts are
//! judged by the runtime's own `URL` where there is one (asked through the
//! core's port, [`crate::platform`]), else by the crate's punycode rule
//! (`punycode.rs`).

use crate::error::{bad_option, why, words, Code, Result};

use crate::prelude::*;

// Internationalized hosts: where the runtime has `URL` (the browser's
// payment module and the full module, feature `platform-url`), the
// platform's own parser judges them (`Platform::url_keeps_host`);
// elsewhere (mini-program runtimes, the wasm2js build, the host) the
// crate's punycode check does.
#[cfg(all(target_arch = "wasm32", feature = "platform-url"))]
use crate::platform::{Here, Platform};
#[cfg(not(all(target_arch = "wasm32", feature = "platform-url")))]
mod punycode;

/// Whether the platform's URL parser judges a host with an
/// internationalized label (after its shape), not the punycode rule.
const PLATFORM_URL: bool = cfg!(all(target_arch = "wasm32", feature = "platform-url"));

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

impl HostRule {
    /// Parses one `allowedHosts` entry; `None` when it is not a host name,
    /// an IPv4 address, or `*.` followed by a host name of two labels or
    /// more.
    pub fn parse(s: &str) -> Option<HostRule> {
        // `*.` is ASCII: the name after it is lowercased once, as an exact
        // rule's name is.
        let wildcard = s.strip_prefix("*.");
        let name = wildcard.unwrap_or(s).to_ascii_lowercase();
        plain_host(&name)?;
        match wildcard {
            None => Some(HostRule::Exact(name)),
            // A byte loop, not `contains`: that one call would bring the
            // standard library's word-at-a-time memchr into the module.
            Some(_) if name.bytes().any(|b| b == b'.') && !is_address(&name) => Some(HostRule::Suffix(name)),
            Some(_) => None,
        }
    }

    pub fn matches(&self, host: &str) -> bool {
        match self {
            HostRule::Exact(h) => h == host,
            HostRule::Suffix(s) => {
                // A label and a dot before the suffix.
                !is_address(host) && host.strip_suffix(s.as_str()).is_some_and(|head| head.len() > 1 && head.ends_with('.'))
            }
        }
    }
}

/// An IP address rather than a name: dotted-decimal IPv4, or a bracketed
/// IPv6 literal (which the shape check refuses before any rule sees it).
fn is_address(host: &str) -> bool {
    host.as_bytes().first() == Some(&b'[') || is_ipv4(host)
}

/// Checks `url` (the value of input `field`) against the strict rules and
/// `policy`. One refusal, its reason picked where it is written. A URL
/// that passes is opened as given: the caller keeps its own copy, if any.
pub fn check(url: &str, policy: &UrlPolicy, field: &str) -> Result<()> {
    // Any host when there is no `allowedHosts`, else one a rule matches.
    let allowed = |host: &str| policy.allowed_hosts.as_ref().is_none_or(|rules| rules.iter().any(|r| r.matches(host)));
    let why = match check_shape(url, policy.insecure_loopback) {
        Ok(host) if allowed(&host) => return Ok(()),
        Ok(host) => words!(field, " points at host ", &host, ", which is not in allowedHosts"),
        Err(why) => words!(field, " is not a safe URL to open: ", why),
    };
    Err(crate::error::refuse(Code::UnsafeUrl, field, why))
}

/// A copy of `url` (the value of input `field`) once it passed [`check`]:
/// the planner's, for the URLs an action keeps (one body for its two).
#[inline(never)]
pub fn checked(url: &str, policy: &UrlPolicy, field: &str) -> Result<String> {
    check(url, policy, field).map(|_| own(url))
}

/// The shape check alone; returns the lowercased host or why it failed.
pub fn check_shape(url: &str, insecure_loopback: bool) -> core::result::Result<String, &'static str> {
    if url.is_empty() {
        return Err(why!("it is empty"));
    }
    if url.len() > MAX_URL {
        return Err(why!("it is longer than 8192 characters"));
    }
    for &b in url.as_bytes() {
        if b <= b' ' || b == 0x7f {
            return Err(why!("it contains whitespace or a control character"));
        }
        if b >= 0x80 {
            return Err(why!("it contains raw non-ASCII characters (percent-encode them)"));
        }
        if b == b'\\' {
            return Err(why!("it contains a backslash"));
        }
        if matches!(b, b'"' | b'<' | b'>' | b'`') {
            return Err(why!("it contains a quote or angle bracket"));
        }
    }
    // Bytes from here on: the URL is printable ASCII by now, so the parts
    // are cut as bytes (no character boundaries to check) and no cut here
    // can panic.
    let b = url.as_bytes();
    // `https://`, else `http://` (loopback only, below), in any case.
    let http = !starts_with_ci(b, b"https://");
    if http && !starts_with_ci(b, b"http://") {
        return Err(if b.starts_with(b"//") {
            why!("it is scheme-relative; an absolute https URL is needed")
        } else {
            why!("it is not an https URL")
        });
    }
    // The authority starts after the scheme: `https://` is 8 bytes, `http://` 7.
    let rest = b.get(8 - usize::from(http)..).unwrap_or_default();
    let end = rest.iter().position(|c| matches!(c, b'/' | b'?' | b'#')).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at_checked(end).unwrap_or_default();
    // A byte loop, not `contains`, which would bring the standard
    // library's word-at-a-time memchr into the module.
    #[allow(clippy::manual_contains)]
    let user_info = authority.iter().any(|&c| c == b'@');
    if user_info {
        return Err(why!("it carries user info (an @ before the host)"));
    }
    let (host_len, port) = match authority.iter().rposition(|&c| c == b':') {
        Some(i) => (i, authority.get(i + 1..)),
        None => (end, None),
    };
    if port.is_some_and(|p| !number(p, 1, 65535)) {
        return Err(why!("its port is not a number from 1 to 65535"));
    }
    // The host, lowercased as it is copied.
    let mut host = String::new();
    for &c in authority.get(..host_len).unwrap_or_default() {
        crate::encode::push_ascii(&mut host, c.to_ascii_lowercase());
    }
    let Some(idn) = plain_host(&host) else {
        return Err(why!("its host is not a plain host name or IPv4 address"));
    };
    if !idn_ok(url, &host, idn) {
        return Err(why!("its host is an internationalized name that the platform's URL parser refuses or rewrites"));
    }
    if http && !(insecure_loopback && (host == "127.0.0.1" || host == "localhost")) {
        return Err(why!("it is http, not https"));
    }
    check_tail(tail)?;
    Ok(host)
}

fn starts_with_ci(s: &[u8], prefix: &[u8]) -> bool {
    s.get(..prefix.len()).is_some_and(|head| head.eq_ignore_ascii_case(prefix))
}

/// A lowercase host: a registered name or a canonical dotted-decimal IPv4.
/// `None` when it is neither; else whether the platform's URL parser is to
/// judge it too (a name with an internationalized label, where the build
/// has that parser: [`PLATFORM_URL`]).
#[inline(never)]
fn plain_host(h: &str) -> Option<bool> {
    if h.is_empty() || h.len() > 253 {
        return None;
    }
    if is_ipv4(h) {
        return Some(false);
    }
    reg_name(h)
}

/// A registered name: labels of letters, digits and inner hyphens, the
/// last not numeric. WHATWG URL parsing reads a host whose last label is
/// numeric (or hex) as an IPv4 address in any of several notations; only
/// the canonical dotted-decimal form is accepted ([`is_ipv4`]), so that the
/// host checked is the host the browser connects to. An internationalized
/// label (`xn--`) for the platform's parser is noted as the labels are read.
fn reg_name(h: &str) -> Option<bool> {
    // Labels are split as bytes throughout: `str::split` keeps a panicking
    // slice check (and so the formatter) in the wasm build. From the last:
    // the first label seen is the one that must not be numeric.
    let mut idn = false;
    let labels_ok = h.as_bytes().rsplit(|&b| b == b'.').enumerate().all(|(i, b)| {
        idn |= PLATFORM_URL && b.starts_with(b"xn--");
        !b.is_empty()
            && b.len() <= 63
            && b.first() != Some(&b'-')
            && b.last() != Some(&b'-')
            && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
            && (i > 0 || !(b.iter().all(u8::is_ascii_digit) || b.starts_with(b"0x")))
            && label_ok(b)
    });
    labels_ok.then_some(idn)
}

/// An internationalized label's own check: the crate's punycode rule, or,
/// with the platform's URL parser, none here (the whole host is judged by
/// `Platform::url_keeps_host` once its shape has passed).
#[cfg(not(all(target_arch = "wasm32", feature = "platform-url")))]
fn label_ok(label: &[u8]) -> bool {
    punycode::a_label_ok(label)
}

#[cfg(all(target_arch = "wasm32", feature = "platform-url"))]
fn label_ok(_: &[u8]) -> bool {
    true
}

/// A host with an internationalized label for the platform (`idn`): its
/// URL parser must keep it as it is. Without that parser, each such label
/// has passed the crate's punycode rule ([`label_ok`]).
#[cfg(all(target_arch = "wasm32", feature = "platform-url"))]
fn idn_ok(url: &str, host: &str, idn: bool) -> bool {
    !idn || Here::url_keeps_host(url, host)
}

#[cfg(not(all(target_arch = "wasm32", feature = "platform-url")))]
fn idn_ok(_: &str, _: &str, _: bool) -> bool {
    true
}

fn is_ipv4(h: &str) -> bool {
    // Split from the last, as a name's labels are: one split for both.
    let mut n = 0;
    for b in h.as_bytes().rsplit(|&b| b == b'.') {
        n += 1;
        if n > 4 || !number(b, 0, 255) {
            return false;
        }
    }
    n == 4
}

/// `b` is a decimal number from `min` to `max`, written as the URL
/// standard writes it: digits only, no leading zero. Each digit is checked
/// as its value is read, so that no value read can overflow.
fn number(b: &[u8], min: u32, max: u32) -> bool {
    if b.is_empty() || (b.len() > 1 && b.first() == Some(&b'0')) {
        return false;
    }
    let mut v = 0u32;
    for &c in b {
        if !c.is_ascii_digit() {
            return false;
        }
        v = v * 10 + (c - b'0') as u32;
        if v > max {
            return false;
        }
    }
    v >= min
}

/// Path, query and fragment: printable ASCII (already checked) with
/// well-formed percent escapes.
fn check_tail(b: &[u8]) -> core::result::Result<(), &'static str> {
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)) {
                return Err(why!("it has a broken percent escape"));
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    Ok(())
}

/// Reads the `allowedHosts` option: an array of strings, each a rule
/// ([`HostRule::parse`]); anything else is `invalid_options` naming
/// `allowedHosts` or the item at fault.
pub fn allowed_hosts_from_json(v: &crate::json::Json) -> Result<Vec<HostRule>> {
    use crate::json::Json;
    let Json::Arr(items) = v else {
        return Err(bad_option("allowedHosts", "must be an array of host names"));
    };
    rules(items.iter().map(Json::as_str), "allowedHosts")
}

/// Parses `allowedHosts` (already known to be a list of strings).
pub fn parse_allowed_hosts(items: &[String], field: &str) -> Result<Vec<HostRule>> {
    rules(items.iter().map(|s| Some(s.as_str())), field)
}

/// The rules of the list `field`. Every item must be a string before any
/// is read as a host: the first that is not one is refused first; then the
/// first that is no rule. One refusal, naming the item, its reason picked
/// where it is found.
fn rules<'a>(items: impl Iterator<Item = Option<&'a str>> + Clone, field: &str) -> Result<Vec<HostRule>> {
    let (i, why) = 'refused: {
        if let Some(i) = items.clone().position(|s| s.is_none()) {
            break 'refused (i, words!("must be a string"));
        }
        // Pushed onto an empty list, not into a reserved capacity: the one
        // way the payment module grows a list (`prelude::own`).
        let mut rules = Vec::new();
        for (i, s) in items.enumerate() {
            let s = s.unwrap_or_default();
            match HostRule::parse(s) {
                Some(r) => rules.push(r),
                None => {
                    break 'refused (
                        i,
                        words!("is not a host name, an IPv4 address, or *. followed by a host name of two labels or more: ", clip(s)),
                    )
                }
            }
        }
        return Ok(rules);
    };
    Err(bad_option(&item(field, i), &why))
}

/// `field[i]`: the name of item `i` of a list.
fn item(field: &str, i: usize) -> String {
    let mut f = own(field);
    crate::encode::push_ascii(&mut f, b'[');
    crate::error::push_u64(&mut f, i as u64);
    crate::encode::push_ascii(&mut f, b']');
    f
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
mod tests;
