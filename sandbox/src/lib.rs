//! paybridge-sandbox, the local sandbox server (`make demo`): the demo
//! pages, a merchant server, simulated wallets and authorization pages on
//! one local address, so that every flow of the service document can be
//! tried in a real browser with no provider account.
//!
//! ```text
//! cargo run --release -p paybridge-sandbox --bin sandbox -- --www www --pkg pkg
//! paybridge sandbox on http://127.0.0.1:8080
//!   demo pages: http://127.0.0.1:8080/   what is simulated: http://127.0.0.1:8080/sim   Ctrl-C stops it
//! ```
//!
//! A crate of the workspace beside the library, host only: it depends on
//! `paybridge` by path (feature `hmac`), so that the authentication API
//! ([`api`]) reuses the library's own model in `verify/`, and nothing of it
//! reaches the library's builds. The server is this library so that the
//! integration tests (`sandbox/tests/http.rs`) can start [`app`]
//! in-process; the binary, `src/main.rs`, is a thin `main` over [`serve`];
//! the settings and their flags and variables are in [`config`].
//!
//! | module        | paths |
//! | ------------- | ----- |
//! | [`merchant`]  | `/merchant/payments`: creates payment objects for every channel; tells whether one was paid |
//! | [`wallets`]   | `/sim/wallet1/cashier`, `/sim/cardnet/pay`, `/sim/pay/{ref}`, `/sim/bridge.js`, `/sim/miniprogram.js`: simulated cashiers, JS bridges and mini-program APIs |
//! | [`oauth`]     | `/sim/wallet1/*`, `/sim/wallet2/*`, `/sim/cardnet/authorize`: simulated authorization pages and code exchanges |
//! | [`api`]       | `/api/v1/*`: the aggregated authentication API; `/sim/deliveries`: the notifications it sent |
//! | [`receiver`]  | `/merchant/notify`, `/merchant/notifications`: a merchant's notification receiver |
//! | [`session`]   | `/merchant/session`: the merchant's session (a cookie): the user an authorization gave, for every tab |
//! | [`pages`]     | `/sim` (what is simulated), `/sim/callback` (where its authorization links come back), `www/` at `/`, `pkg/` at `/pkg/` |
//!
//! pay_info URLs point at `http://127.0.0.1:PORT`, so a page paying through
//! the module passes `insecureLoopback: true`. Every signature the sandbox
//! makes follows the rule it declares in [`sign`], and so does its
//! encryption of `cvv2`.

pub mod api;
pub mod bounded;
pub mod config;
pub mod http;
pub mod merchant;
pub mod oauth;
pub mod pages;
pub mod ratelimit;
pub mod receiver;
pub mod session;
pub mod sign;
pub mod wallets;

use std::future::Future;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use tokio::net::TcpListener;

use bounded::Bounded;
pub use config::{Clock, Command, Config, ManualClock, SystemClock};
use paybridge::profile::Profile;

/// How many payments, issued codes, verifications, notifications sent and
/// notifications received the sandbox remembers (of each).
pub const MEMORY: usize = 10_000;

/// What every handler shares.
pub struct Sandbox {
    pub config: Config,
    /// `http://127.0.0.1:PORT`, the address put in pay_info URLs.
    pub base: String,
    /// The provider names of [`Profile::default`] (bridge globals, events).
    pub profile: Profile,
    pub payments: Mutex<merchant::Payments>,
    pub grants: Mutex<Bounded<oauth::Grant>>,
    pub limiter: ratelimit::RateLimiter,
    pub verifications: Mutex<api::store::Verifications>,
    pub deliveries: Mutex<api::notifier::Deliveries>,
    /// The `seq_id` counter.
    pub seq: AtomicU64,
    pub inbox: Mutex<receiver::Inbox>,
    /// Merchant sessions by the id their cookie carries.
    pub sessions: Mutex<Bounded<session::MerchantSession>>,
    /// How far `POST /sim/clock` moved the sandbox's clock ahead.
    pub clock_ahead_ms: AtomicU64,
}

pub type AppState = Arc<Sandbox>;

/// Locks `m`, carrying on past a panic in another handler (the data is
/// plain maps that a panic cannot leave half-written in a harmful way).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Sandbox {
    pub fn new(config: Config) -> Sandbox {
        Sandbox {
            base: config.base_url(),
            profile: Profile::default(),
            payments: Mutex::new(merchant::Payments::new(MEMORY, config.payment_lifetime.as_millis() as u64)),
            grants: Mutex::new(Bounded::new(MEMORY)),
            limiter: ratelimit::RateLimiter::new(config.rate_limit),
            verifications: Mutex::new(api::store::Verifications::new(MEMORY)),
            deliveries: Mutex::new(Bounded::new(MEMORY)),
            seq: AtomicU64::new(1),
            inbox: Mutex::new(receiver::Inbox::default()),
            sessions: Mutex::new(Bounded::new(MEMORY)),
            clock_ahead_ms: AtomicU64::new(0),
            config,
        }
    }

    pub fn now_ms(&self) -> u64 {
        self.config.clock.now_ms() + self.clock_ahead_ms.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// The whole sandbox as a router. `config.port` must be the port it is
/// reached on (the one bound), since pay_info URLs point back at it.
pub fn app(config: Config) -> Router {
    let state: AppState = Arc::new(Sandbox::new(config));
    let routes = Router::new()
        .merge(merchant::router())
        .merge(wallets::router())
        .merge(oauth::router())
        .merge(api::router())
        .merge(receiver::router())
        .merge(session::router());
    pages::static_files(routes, &state).layer(axum::middleware::from_fn(pages::dev_headers)).with_state(state)
}

/// Serves the sandbox on `listener` until `shutdown` completes, then lets
/// requests in flight finish.
pub async fn serve(listener: TcpListener, mut config: Config, shutdown: impl Future<Output = ()> + Send + 'static) -> std::io::Result<()> {
    config.port = listener.local_addr()?.port();
    axum::serve(listener, app(config)).with_graceful_shutdown(shutdown).await
}

/// Completes on Ctrl-C or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
