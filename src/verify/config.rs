//! The settings of an authentication client that the core needs (its
//! `AuthClientOptions`, `www/lib/index.d.ts`, less the hooks, the base URL
//! and the transport, which the edge keeps) and the fail-closed rules:
//! which hooks a client must have for where it sends (the address itself
//! is checked in [`super::address`]).
//!
//! | `baseUrl` | `verify` absent | `verify: false` | `cvv2` without `encrypt` |
//! | --- | --- | --- | --- |
//! | loopback (`localhost`, `127.x.x.x`, `[::1]`: the sandbox) | answers accepted unchecked | answers accepted unchecked | sent as typed |
//! | any other host | `invalid_options` (`verify`) at construction | answers accepted unchecked, knowingly | `invalid_options` (`encrypt`), nothing sent |

use super::request::{CARD_CHECK_PATH, CHECK_RESULT_PATH, NAME_CHECK_PATH};
use crate::error::{cat, u64_str, Code, PayError};
use crate::prelude::*;

pub use super::address::{check_base_url, check_path, is_loopback, MAX_PATH};

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
    /// `strict` (default true): the fields are checked beyond the
    /// document's formats ([`super::fields::validate`]).
    pub strict: bool,
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
        Ok(Config {
            app_token: app_token.into(),
            env: env.into(),
            attempts,
            base_delay_ms,
            paths: Paths::default(),
            loopback: false,
            strict: true,
        })
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

    /// The settings of a client whose fields are checked strictly or not.
    pub fn with_strict(mut self, strict: bool) -> Config {
        self.strict = strict;
        self
    }

    /// The settings of a client whose `baseUrl` is (or is not) loopback.
    pub fn at_loopback(mut self, loopback: bool) -> Config {
        self.loopback = loopback;
        self
    }
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
