//! The sandbox's settings, read from flags and environment variables, and the
//! clock it reads time from (a manual one in tests).

use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The sandbox's `app_token` for the authentication API (40 characters).
pub const DEFAULT_APP_TOKEN: &str = "sandbox-app-token-0000000000000000000000";
/// The key of every signature the sandbox makes or checks.
pub const DEFAULT_SECRET: &str = "sandbox-secret";
/// The wallet2 official-account `appId` put in `wallet2_pub` payments when
/// the order names none.
pub const DEFAULT_WALLET2_APP_ID: &str = "wallet2-sandbox-app";

pub const USAGE: &str = "\
paybridge sandbox: the demo pages, a merchant server, simulated wallets and
authorization pages on one local address.

usage: sandbox [--port N] [--www DIR] [--pkg DIR] [--notify-delay-ms N]
               [--notify-attempts N] [--notify-retry-ms N]
               [--secret S] [--app-token T] [--rate-limit N] [--rate-limit-mode M]
               [--payment-lifetime-ms N]

  --port N             PORT              port on 127.0.0.1 (default 8080; 0 picks one)
  --www DIR            SANDBOX_WWW       demo pages served at / (default www)
  --pkg DIR            SANDBOX_PKG       built npm package served at /pkg/ (default pkg)
  --notify-delay-ms N  NOTIFY_DELAY_MS   delay before a verification notification (default 2000)
  --notify-attempts N  NOTIFY_ATTEMPTS   sends of a notification before giving up (default 8)
  --notify-retry-ms N  NOTIFY_RETRY_MS   first wait before sending it again, then doubling (default 1000)
  --secret S           SANDBOX_SECRET    signing key (default sandbox-secret)
  --app-token T        SANDBOX_APP_TOKEN authentication app_token, 40 characters
  --rate-limit N       RATE_LIMIT        requests per second per app_token (default 20; 0: no limit)
  --rate-limit-mode M  RATE_LIMIT_MODE   limit-first (default: a 90105 check is not recorded) or
                                         record-first (it is, and sending it again is 90104)
  --payment-lifetime-ms N  PAYMENT_LIFETIME_MS  an unpaid payment is closed after it (default 120000)

Flags win over environment variables.
";

/// Where the sandbox reads the time from.
pub trait Clock: Send + Sync + 'static {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> u64;
}

/// The system clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
    }
}

/// A clock that moves only when told to (tests of expiry rules).
pub struct ManualClock(AtomicU64);

impl ManualClock {
    pub fn new(start_ms: u64) -> ManualClock {
        ManualClock(AtomicU64::new(start_ms))
    }

    pub fn advance(&self, by: Duration) {
        self.0.fetch_add(by.as_millis() as u64, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

#[derive(Clone)]
pub struct Config {
    /// The address to bind; always loopback unless a caller changes it.
    pub host: IpAddr,
    pub port: u16,
    pub www: PathBuf,
    pub pkg: PathBuf,
    /// Delay before the authentication API's notification is sent.
    pub notify_delay: Duration,
    /// How long a merchant payment stays `created` before the merchant
    /// closes it unpaid (short, for the demo).
    pub payment_lifetime: Duration,
    /// Sends of one notification, until the merchant answers 2xx; at least 1.
    pub notify_attempts: u32,
    /// The wait after the first unacknowledged send; each further one
    /// doubles (at most a minute).
    pub notify_retry: Duration,
    pub secret: String,
    pub app_token: String,
    /// Requests per second per `app_token`; 0 means no limit.
    pub rate_limit: u32,
    /// A check over the rate is recorded before its `90105` (the other
    /// reading of the document, which does not say): sent again, it is
    /// `90104`, and `checkresult` by `order_id` finds it.
    pub record_before_limit: bool,
    pub clock: Arc<dyn Clock>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            www: PathBuf::from("www"),
            pkg: PathBuf::from("pkg"),
            notify_delay: Duration::from_millis(2000),
            payment_lifetime: Duration::from_secs(120),
            notify_attempts: 8,
            notify_retry: Duration::from_millis(1000),
            secret: DEFAULT_SECRET.to_string(),
            app_token: DEFAULT_APP_TOKEN.to_string(),
            rate_limit: 20,
            record_before_limit: false,
            clock: Arc::new(SystemClock),
        }
    }
}

/// What the command line asks for.
pub enum Command {
    Run(Config),
    Help,
}

fn number<T: std::str::FromStr>(name: &str, v: &str) -> Result<T, String> {
    v.trim().parse().map_err(|_| format!("{name} must be a whole number, not {v:?}"))
}

impl Config {
    /// The address pages are told to use (`http://127.0.0.1:8080`).
    pub fn base_url(&self) -> String {
        format!("http://{}:{}", self.host, self.port)
    }

    /// Reads the environment (through `env`), then the flags over it.
    pub fn from_args<I>(args: I, env: impl Fn(&str) -> Option<String>) -> Result<Command, String>
    where
        I: IntoIterator<Item = String>,
    {
        let mut c = Config::default();
        let set = |c: &mut Config, key: &str, v: &str| -> Result<(), String> {
            match key {
                "port" => c.port = number("port", v)?,
                "www" => c.www = PathBuf::from(v),
                "pkg" => c.pkg = PathBuf::from(v),
                "notify-delay-ms" => c.notify_delay = Duration::from_millis(number("notify delay", v)?),
                "payment-lifetime-ms" => match number("payment lifetime", v)? {
                    0 => return Err("the payment lifetime must be at least 1 ms".into()),
                    n => c.payment_lifetime = Duration::from_millis(n),
                },
                "notify-attempts" => match number("notify attempts", v)? {
                    0 => return Err("notify attempts must be at least 1".into()),
                    n => c.notify_attempts = n,
                },
                "notify-retry-ms" => c.notify_retry = Duration::from_millis(number("notify retry", v)?),
                "secret" if v.is_empty() => return Err("the secret must not be empty".into()),
                "secret" => c.secret = v.to_string(),
                "app-token" if v.chars().count() != 40 => {
                    return Err(format!("the app token must be 40 characters, not {}", v.chars().count()))
                }
                "app-token" => c.app_token = v.to_string(),
                "rate-limit" => c.rate_limit = number("rate limit", v)?,
                "rate-limit-mode" => {
                    c.record_before_limit = match v {
                        "limit-first" => false,
                        "record-first" => true,
                        _ => return Err(format!("the rate limit mode must be limit-first or record-first, not {v:?}")),
                    }
                }
                _ => return Err(format!("unknown option --{key} (see --help)")),
            }
            Ok(())
        };
        for (var, key) in [
            ("PORT", "port"),
            ("SANDBOX_WWW", "www"),
            ("SANDBOX_PKG", "pkg"),
            ("NOTIFY_DELAY_MS", "notify-delay-ms"),
            ("PAYMENT_LIFETIME_MS", "payment-lifetime-ms"),
            ("NOTIFY_ATTEMPTS", "notify-attempts"),
            ("NOTIFY_RETRY_MS", "notify-retry-ms"),
            ("SANDBOX_SECRET", "secret"),
            ("SANDBOX_APP_TOKEN", "app-token"),
            ("RATE_LIMIT", "rate-limit"),
            ("RATE_LIMIT_MODE", "rate-limit-mode"),
        ] {
            if let Some(v) = env(var) {
                set(&mut c, key, &v).map_err(|e| format!("{var}: {e}"))?;
            }
        }
        let mut args = args.into_iter();
        while let Some(a) = args.next() {
            if a == "-h" || a == "--help" {
                return Ok(Command::Help);
            }
            let Some(flag) = a.strip_prefix("--") else {
                return Err(format!("unexpected argument {a:?} (see --help)"));
            };
            let (key, value) = match flag.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => {
                    let v = args.next().ok_or_else(|| format!("--{flag} needs a value"))?;
                    (flag.to_string(), v)
                }
            };
            set(&mut c, &key, &value)?;
        }
        Ok(Command::Run(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str], env: &[(&str, &str)]) -> Result<Config, String> {
        let env: Vec<(String, String)> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let lookup = |k: &str| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        match Config::from_args(args.iter().map(|s| s.to_string()), lookup)? {
            Command::Run(c) => Ok(c),
            Command::Help => Err("help".into()),
        }
    }

    #[test]
    fn defaults() {
        let c = parse(&[], &[]).unwrap();
        assert_eq!(c.base_url(), "http://127.0.0.1:8080");
        assert_eq!(c.www, PathBuf::from("www"));
        assert_eq!(c.pkg, PathBuf::from("pkg"));
        assert_eq!(c.notify_delay, Duration::from_millis(2000));
        assert_eq!(c.notify_attempts, 8);
        assert_eq!(c.notify_retry, Duration::from_millis(1000));
        assert_eq!(c.secret, "sandbox-secret");
        assert_eq!(c.app_token.len(), 40);
        assert_eq!(c.rate_limit, 20);
    }

    #[test]
    fn flags_win_over_environment() {
        let c = parse(
            &["--port", "9000", "--www=demo", "--rate-limit", "5", "--notify-attempts", "3"],
            &[("PORT", "8081"), ("SANDBOX_SECRET", "s2"), ("NOTIFY_DELAY_MS", "10"), ("NOTIFY_ATTEMPTS", "2"), ("NOTIFY_RETRY_MS", "50")],
        )
        .unwrap();
        assert_eq!(c.notify_attempts, 3);
        assert_eq!(c.notify_retry, Duration::from_millis(50));
        assert_eq!(c.port, 9000);
        assert_eq!(c.www, PathBuf::from("demo"));
        assert_eq!(c.rate_limit, 5);
        assert_eq!(c.secret, "s2");
        assert_eq!(c.notify_delay, Duration::from_millis(10));
    }

    #[test]
    fn bad_values_are_refused() {
        assert!(parse(&["--port", "http"], &[]).is_err());
        assert!(parse(&[], &[("PORT", "70000")]).is_err());
        assert!(parse(&["--app-token", "short"], &[]).is_err());
        assert!(parse(&["--secret="], &[]).is_err());
        assert!(parse(&["--notify-attempts", "0"], &[]).is_err());
        assert!(parse(&["--colour", "red"], &[]).is_err());
        assert!(parse(&["--rate-limit-mode", "sometimes"], &[]).is_err());
        assert!(parse(&["--rate-limit-mode", "record-first"], &[]).unwrap().record_before_limit);
        assert!(!parse(&[], &[]).unwrap().record_before_limit);
        assert!(parse(&["--port"], &[]).is_err());
        assert!(parse(&["extra"], &[]).is_err());
        assert_eq!(parse(&["--help"], &[]).err().as_deref(), Some("help"));
    }
}
