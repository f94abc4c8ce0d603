//! The settings of an authentication client that the core needs (its
//! `AuthClientOptions`, `www/lib/index.d.ts`, less the hooks, the base URL
//! and the transport, which the edge keeps), the check of that base URL and of the `paths` under it,
//! and the fail-closed rules: which hooks a client must have for where it
//! sends.
//!
//! | `baseUrl` | `verify` absent | `verify: false` | `cvv2` without `encrypt` |
//! | --- | --- | --- | --- |
//! | loopback (`localhost`, `127.x.x.x`, `[::1]`: the sandbox) | answers accepted unchecked | answers accepted unchecked | sent as typed |
//! | any other host | `invalid_options` (`verify`) at construction | answers accepted unchecked, knowingly | `invalid_options` (`encrypt`), nothing sent |

use super::request::{CARD_CHECK_PATH, CHECK_RESULT_PATH, NAME_CHECK_PATH};
use crate::error::{cat, u64_str, Code, PayError};
use crate::prelude::*;
use crate::safe_url::check_shape;

/// The paths of the three interfaces under `baseUrl` (`paths` of
/// `AuthClient`): by default the `/api/v1` forms of the service document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paths {
    pub card_check: String,
    pub name_check: String,
    pub check_result: String,
}

impl Default for Paths {
    fn default() -> Paths {
        Paths { card_check: CARD_CHECK_PATH.into(), name_check: NAME_CHECK_PATH.into(), check_result: CHECK_RESULT_PATH.into() }
    }
}

/// The longest path accepted.
pub const MAX_PATH: usize = 1024;

/// Checks one of `paths` (`name` is its member: `cardCheck`, `nameCheck`,
/// `checkResult`): an absolute path, joined to `baseUrl` as it is. It begins
/// with one `/` and holds only the characters of a URL path (ASCII letters,
/// digits, `-._~!$&'()*+,;=:@/` and `%XX` escapes), no `.` or `..`
/// segment; so no scheme, no `//` authority, no query, no fragment, no
/// whitespace can reach the address. `invalid_options` naming
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

/// What the caller gave as `verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyOption {
    /// No `verify` member (or `undefined`, `null`).
    Absent,
    /// `verify: false`: answers accepted unchecked, knowingly.
    Off,
    /// A function.
    Hook,
}

/// The fail-closed rule of `verify` (module table): whether answers are
/// checked (`true`: a hook was given), or `invalid_options` naming `verify`
/// for a client of a host other than loopback that gave none.
pub fn check_verify(loopback: bool, verify: VerifyOption) -> Result<bool, PayError> {
    match verify {
        VerifyOption::Hook => Ok(true),
        VerifyOption::Off => Ok(false),
        VerifyOption::Absent if loopback => Ok(false),
        VerifyOption::Absent => Err(PayError::field(
            Code::InvalidOptions,
            "verify",
            "verify is required when baseUrl is not a loopback address: pass verify: (data, signature) => boolean to check \
             each answer's signature with the service's certificate, or verify: false to accept answers unchecked knowingly \
             (anyone on the way could then forge a result)",
        )),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The caller's identifier (`app_token`), 40 characters.
    pub app_token: String,
    /// Sent as the `env` header of every request.
    pub env: String,
    /// How many times one request may be sent in all when the service
    /// answers 90105 (too frequent), and how many times a result query may
    /// be sent when it gets no answer. At least 1.
    pub attempts: u32,
    /// The first back-off delay; each further one doubles.
    pub base_delay_ms: u32,
    /// Where each interface is, under `baseUrl`.
    pub paths: Paths,
    /// `baseUrl` is loopback ([`is_loopback`]): the sandbox, to which the
    /// fields the document sends encrypted may go as typed.
    pub loopback: bool,
}

impl Config {
    pub const DEFAULT_ATTEMPTS: u32 = 3;
    pub const DEFAULT_BASE_DELAY_MS: u32 = 500;
    pub const MAX_ATTEMPTS: u32 = 10;
    pub const MAX_BASE_DELAY_MS: u32 = 60_000;
    pub const APP_TOKEN_LEN: usize = 40;

    /// Checks and keeps the settings; `invalid_options` naming the option
    /// (`appToken`, `env`, `retry.attempts`, `retry.baseDelayMs`).
    pub fn new(app_token: &str, env: &str, attempts: u32, base_delay_ms: u32) -> Result<Config, PayError> {
        let n = app_token.chars().count();
        if n != Self::APP_TOKEN_LEN {
            return Err(PayError::field(
                Code::InvalidOptions,
                "appToken",
                cat!(
                    "appToken must be the 40-character app_token the authentication system assigned (got ",
                    &u64_str(n as u64),
                    " characters)"
                ),
            ));
        }
        if app_token.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(PayError::field(Code::InvalidOptions, "appToken", "appToken may not contain spaces or control characters"));
        }
        if env.is_empty() || !env.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return Err(PayError::field(Code::InvalidOptions, "env", "env must be a non-empty header value of printable ASCII characters"));
        }
        if !(1..=Self::MAX_ATTEMPTS).contains(&attempts) {
            return Err(PayError::field(Code::InvalidOptions, "retry.attempts", "retry.attempts must be a whole number from 1 to 10"));
        }
        if base_delay_ms > Self::MAX_BASE_DELAY_MS {
            return Err(PayError::field(Code::InvalidOptions, "retry.baseDelayMs", "retry.baseDelayMs must be at most 60000"));
        }
        Ok(Config { app_token: app_token.into(), env: env.into(), attempts, base_delay_ms, paths: Paths::default(), loopback: false })
    }

    /// The settings with the default retry budget.
    pub fn with_defaults(app_token: &str, env: &str) -> Result<Config, PayError> {
        Config::new(app_token, env, Self::DEFAULT_ATTEMPTS, Self::DEFAULT_BASE_DELAY_MS)
    }
}

impl Config {
    /// The settings with `paths` in place of the defaults.
    pub fn with_paths(mut self, paths: Paths) -> Config {
        self.paths = paths;
        self
    }

    /// The settings of a client whose `baseUrl` is (or is not) loopback.
    pub fn at_loopback(mut self, loopback: bool) -> Config {
        self.loopback = loopback;
        self
    }
}

/// Checks `baseUrl`: an absolute `http` or `https` URL with a plain host
/// (the strict shape of [`crate::safe_url`]: no user info, whitespace,
/// control characters or backslashes) and no query or fragment, since the
/// client appends each interface's path to it ([`Paths`]). Returns it
/// without trailing slashes; `invalid_options` naming `baseUrl` otherwise. Plain `http` is accepted
/// for any host, as the service's joint-debugging address may be one.
pub fn check_base_url(url: &str) -> Result<String, PayError> {
    let bad = |why: &str| {
        PayError::field(
            Code::InvalidOptions,
            "baseUrl",
            cat!("baseUrl must be an absolute http(s) URL such as https://auth.example.com (", why, ")"),
        )
    };
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &url[8..]
    } else if lower.starts_with("http://") {
        &url[7..]
    } else {
        return Err(bad("it does not begin with http:// or https://"));
    };
    // The shape rules do not depend on the scheme; https is given so that
    // the loopback rule for http does not apply.
    check_shape(&cat!("https://", rest), false).map_err(bad)?;
    if url.contains(['?', '#']) {
        return Err(bad("it has a query or fragment, and the client appends each path (paths) to it"));
    }
    Ok(url.trim_end_matches('/').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "sandbox-app-token-0000000000000000000000";

    #[test]
    fn accepts_the_sandbox_token() {
        assert_eq!(TOKEN.len(), 40);
        let c = Config::with_defaults(TOKEN, "test").unwrap();
        assert_eq!(c.attempts, 3);
        assert_eq!(c.base_delay_ms, 500);
    }

    #[test]
    fn names_the_bad_option() {
        let field = |r: Result<Config, PayError>| {
            let e = r.unwrap_err();
            assert_eq!(e.code, Code::InvalidOptions);
            assert!(e.message.starts_with(e.field.as_deref().unwrap()));
            e.into_data().field.unwrap()
        };
        assert_eq!(field(Config::with_defaults("short", "test")), "appToken");
        let e = Config::with_defaults("short", "test").unwrap_err();
        assert!(e.message.contains("got 5 characters"), "{}", e.message);
        let spaced = "sandbox-app-token 0000000000000000000000";
        assert_eq!(field(Config::with_defaults(spaced, "test")), "appToken");
        assert_eq!(field(Config::with_defaults(TOKEN, "")), "env");
        assert_eq!(field(Config::with_defaults(TOKEN, "a\r\nb: c")), "env");
        assert_eq!(field(Config::new(TOKEN, "t", 0, 0)), "retry.attempts");
        assert_eq!(field(Config::new(TOKEN, "t", 11, 0)), "retry.attempts");
        assert_eq!(field(Config::new(TOKEN, "t", 1, 60_001)), "retry.baseDelayMs");
        assert!(Config::new(TOKEN, "t", 1, 0).is_ok());
    }

    #[test]
    fn base_urls() {
        assert_eq!(check_base_url("https://auth.example.com").unwrap(), "https://auth.example.com");
        assert_eq!(check_base_url("http://127.0.0.1:8080/").unwrap(), "http://127.0.0.1:8080");
        assert_eq!(check_base_url("HTTPS://gw.example.com/auth//").unwrap(), "HTTPS://gw.example.com/auth");
        assert_eq!(check_base_url("http://test.example.com").unwrap(), "http://test.example.com");
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
        ] {
            let e = check_base_url(bad).unwrap_err();
            assert_eq!(e.code, Code::InvalidOptions, "{bad}");
            assert_eq!(e.field.as_deref(), Some("baseUrl"), "{bad}");
            assert!(e.message.starts_with("baseUrl must be an absolute http(s) URL"), "{}", e.message);
        }
    }

    #[test]
    fn paths() {
        for good in ["/api/v4/checkresult", "/api/v1/trade/cardcheck", "/gw/auth%2Fv4/x", "/a-b_c~d/e:f@g"] {
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

    #[test]
    fn verify_fails_closed() {
        assert_eq!(check_verify(false, VerifyOption::Hook), Ok(true));
        assert_eq!(check_verify(true, VerifyOption::Hook), Ok(true));
        assert_eq!(check_verify(false, VerifyOption::Off), Ok(false));
        assert_eq!(check_verify(true, VerifyOption::Absent), Ok(false));
        let e = check_verify(false, VerifyOption::Absent).unwrap_err();
        assert_eq!(e.code, Code::InvalidOptions);
        assert_eq!(e.field.as_deref(), Some("verify"));
        assert!(e.message.starts_with("verify is required"), "{}", e.message);
    }
}
