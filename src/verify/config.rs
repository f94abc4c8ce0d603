//! The settings of an authentication client that the core needs (`AuthClient`
//! options of `API.md`, less the hooks, the base URL and the transport, which
//! the edge keeps), and the check of that base URL.

use crate::error::{cat, u64_str, Code, PayError};
use crate::prelude::*;
use crate::safe_url::check_shape;

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
        Ok(Config { app_token: app_token.into(), env: env.into(), attempts, base_delay_ms })
    }

    /// The settings with the default retry budget.
    pub fn with_defaults(app_token: &str, env: &str) -> Result<Config, PayError> {
        Config::new(app_token, env, Self::DEFAULT_ATTEMPTS, Self::DEFAULT_BASE_DELAY_MS)
    }
}

/// Checks `baseUrl`: an absolute `http` or `https` URL with a plain host
/// (the strict shape of [`crate::safe_url`]: no user info, whitespace,
/// control characters or backslashes) and no query or fragment, since the
/// client appends `/api/v1/...` to it. Returns it without trailing slashes;
/// `invalid_options` naming `baseUrl` otherwise. Plain `http` is accepted
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
        return Err(bad("it has a query or fragment, and the client appends /api/v1/... to it"));
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
}
