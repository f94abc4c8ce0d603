//! Where an authentication client sends: the check of its `baseUrl`, of
//! the `paths` under it, and whether that address is loopback (the
//! sandbox), which decides the fail-closed rules of [`super::config`].

use crate::error::{cat, refuse, why, words, Code, PayError};
use crate::prelude::*;
use crate::safe_url::check_shape;

/// The longest path accepted.
pub const MAX_PATH: usize = 1024;

/// Checks one of `paths` (`name` is its member: `cardCheck`, `nameCheck`,
/// `checkResult`): an absolute path, joined to `baseUrl` as it is. It begins
/// with one `/` and holds only the characters of a URL path (ASCII letters,
/// digits, `-._~!$&'()*+,;=:@/` and `%XX` escapes), no `.` or `..`
/// segment, encoded or not (`%2e`), and no encoded slash or backslash
/// (`%2F`, `%5C`); so no scheme, no `//` authority, no query, no fragment,
/// no whitespace can reach the address, and the path a URL parser or a
/// server reads stays under `baseUrl`. `invalid_options` naming
/// `paths.<name>` otherwise.
pub fn check_path(name: &str, path: &str) -> Result<String, PayError> {
    let field = cat!("paths.", name);
    let bad = |why: &str| {
        PayError::field(
            Code::InvalidOptions,
            &field,
            cat!(&field, " must be an absolute path under baseUrl such as /api/v4/checkresult (", why, ")"),
        )
    };
    if !path.starts_with('/') {
        return Err(bad("it does not begin with /"));
    }
    if path.starts_with("//") {
        return Err(bad("it begins with //, which names another host"));
    }
    if path.len() > MAX_PATH {
        return Err(bad("it is longer than 1024 characters"));
    }
    let b = path.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        let ok = c.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&c);
        if c == b'%' {
            if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)) {
                return Err(bad("it has a % not followed by two hex digits"));
            }
        } else if c == b'?' || c == b'#' {
            return Err(bad("it has a query or fragment"));
        } else if !ok {
            return Err(bad("it has whitespace, a control character, a backslash or another character a path cannot hold"));
        }
    }
    if path.split('/').any(|seg| seg == "." || seg == "..") {
        return Err(bad("it has a . or .. segment"));
    }
    // A URL parser (WHATWG's, fetch's) reads `%2e` as a dot in a dot
    // segment: `/api/%2e%2e/admin` is fetched as `/admin`. An encoded slash
    // or backslash stays in its segment for that parser, but a server or
    // proxy that decodes it first sees another path: both are refused.
    let lower = path.to_ascii_lowercase();
    if lower.contains("%2f") || lower.contains("%5c") {
        return Err(bad("it has an encoded slash or backslash (%2F, %5C), which a server may read as a separator"));
    }
    if lower.split('/').any(|seg| seg.contains("%2e") && matches!(seg.replace("%2e", ".").as_str(), "." | "..")) {
        return Err(bad("it has an encoded dot segment (%2e), which a URL parser reads as . or .."));
    }
    Ok(path.into())
}

/// Whether a checked `baseUrl` ([`check_base_url`]) points at this machine:
/// its host is `localhost`, an IPv4 address `127.x.x.x` or `[::1]`.
pub fn is_loopback(base_url: &str) -> bool {
    let rest = base_url.split_once("://").map_or(base_url, |(_, r)| r);
    let authority = rest.split('/').next().unwrap_or("");
    let host = if authority.starts_with('[') {
        authority.split_once(']').map_or(authority, |(h, _)| h).trim_start_matches('[')
    } else {
        authority.split(':').next().unwrap_or("")
    };
    if host.eq_ignore_ascii_case("localhost") || host == "::1" {
        return true;
    }
    // Four decimal octets, the first 127 (no integer parser: it would be
    // linked into the wasm for this alone).
    let octet = |p: &str| {
        p.len() <= 3
            && !p.is_empty()
            && p.bytes().all(|b| b.is_ascii_digit())
            && p.bytes().fold(0u32, |n, b| n * 10 + (b - b'0') as u32) < 256
    };
    host.split('.').count() == 4 && host.starts_with("127.") && host.split('.').all(octet)
}

/// Checks `baseUrl`: an absolute `http` or `https` URL with a plain host
/// (the strict shape of [`crate::safe_url`]: no user info, whitespace,
/// control characters or backslashes) and no query or fragment, since the
/// client appends each interface's path to it ([`crate::verify::config::Paths`]). Returns it
/// without trailing slashes; `invalid_options` naming `baseUrl` otherwise. Plain `http` is accepted
/// for any host, as the service's joint-debugging address may be one.
pub fn check_base_url(url: &str) -> Result<String, PayError> {
    // A refusal (`error::refuse`): its reason comes from `why!` (the shape
    // check's too), empty where the build does not word its errors, and
    // then the message names the field and the code.
    let bad = |why: &str| {
        refuse(
            Code::InvalidOptions,
            "baseUrl",
            words!("baseUrl must be an absolute http(s) URL such as https://auth.example.com (", why, ")"),
        )
    };
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &url[8..]
    } else if lower.starts_with("http://") {
        &url[7..]
    } else {
        return Err(bad(why!("it does not begin with http:// or https://")));
    };
    // The shape rules do not depend on the scheme; https is given so that
    // the loopback rule for http does not apply. The one IPv6 address
    // taken is loopback's, `[::1]`, checked as `localhost` would be.
    let rest = match rest.strip_prefix("[::1]") {
        Some(tail) if tail.is_empty() || tail.starts_with([':', '/']) => cat!("localhost", tail),
        _ => rest.into(),
    };
    check_shape(&cat!("https://", &rest), false).map_err(bad)?;
    if url.contains(['?', '#']) {
        return Err(bad(why!("it has a query or fragment, and the client appends each path (paths) to it")));
    }
    Ok(url.trim_end_matches('/').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::config::Paths;

    #[test]
    fn base_urls() {
        assert_eq!(check_base_url("https://auth.example.com").unwrap(), "https://auth.example.com");
        assert_eq!(check_base_url("http://127.0.0.1:8080/").unwrap(), "http://127.0.0.1:8080");
        assert_eq!(check_base_url("HTTPS://gw.example.com/auth//").unwrap(), "HTTPS://gw.example.com/auth");
        assert_eq!(check_base_url("http://test.example.com").unwrap(), "http://test.example.com");
        assert_eq!(check_base_url("http://[::1]:18700").unwrap(), "http://[::1]:18700");
        assert_eq!(check_base_url("http://[::1]/auth/").unwrap(), "http://[::1]/auth");
        for bad in [
            "",
            "auth.example.com",
            "/api",
            "//auth.example.com",
            "ftp://auth.example.com",
            "javascript:alert(1)",
            "https://",
            "https://user:pw@auth.example.com",
            "https://auth.example.com/a b",
            "https://auth.example.com\\x",
            "https://auth.example.com?x=1",
            "https://auth.example.com/#top",
            "https://auth.example.com:99999",
            "http://",
            "http://[::2]:8080",
            "http://[0:0:0:0:0:0:0:1]",
            "http://[::1]x",
            "http://[::1]:0",
        ] {
            let e = check_base_url(bad).unwrap_err();
            assert_eq!(e.code, Code::InvalidOptions, "{bad}");
            assert_eq!(e.field.as_deref(), Some("baseUrl"), "{bad}");
            assert!(e.message.starts_with("baseUrl must be an absolute http(s) URL"), "{}", e.message);
        }
    }

    #[test]
    fn paths() {
        for good in ["/api/v4/checkresult", "/api/v1/trade/cardcheck", "/gw/a%2Ex/v4", "/a-b_c~d/e:f@g", "/x/%2e%2e%2e/y"] {
            assert_eq!(check_path("checkResult", good).unwrap(), good);
        }
        for bad in [
            "",
            "api/v4/checkresult",
            "https://evil.example/api",
            "//evil.example/api",
            "/api/v4/checkresult?x=1",
            "/api/v4/checkresult#f",
            "/api/v4/check result",
            "/api/v4/check\tresult",
            "/api\\v4",
            "/api/\u{e9}",
            "/api/../admin",
            "/api/./x",
            "/api/%zz",
            "/api/%4",
            "/api/%2e%2e/%2e%2e/admin/checkresult",
            "/api/.%2E/x",
            "/api/%2E./x",
            "/api/%2e/x",
            "/%2F%2Fevil.example/x",
            "/gw/auth%2fv4/x",
            "/gw/a%5Cb",
        ] {
            let e = check_path("checkResult", bad).unwrap_err();
            assert_eq!(e.code, Code::InvalidOptions, "{bad:?}");
            assert_eq!(e.field.as_deref(), Some("paths.checkResult"), "{bad:?}");
            assert!(e.message.starts_with("paths.checkResult must be an absolute path under baseUrl"), "{}", e.message);
        }
        assert!(check_path("cardCheck", &cat!("/", &"a".repeat(1024))).is_err());
        assert_eq!(check_path("nameCheck", "x").unwrap_err().field.as_deref(), Some("paths.nameCheck"));
        assert_eq!(Paths::default().check_result, "/api/v1/checkresult");
    }

    #[test]
    fn loopback_hosts() {
        for yes in ["http://127.0.0.1:8080", "http://localhost", "https://LOCALHOST:1", "http://127.1.2.3", "http://[::1]:8080"] {
            assert!(is_loopback(yes), "{yes}");
        }
        for no in [
            "https://auth.example.com",
            "http://127.0.0.1.example.com",
            "http://localhost.example.com",
            "http://128.0.0.1",
            "http://127.0.0.256",
            "http://10.0.0.1",
            "http://[::2]",
            "http://0x7f.0.0.1",
        ] {
            assert!(!is_loopback(no), "{no}");
        }
    }
}
