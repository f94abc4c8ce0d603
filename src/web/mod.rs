//! The wasm32 edge: the one place that touches JavaScript.
//!
//! Every export decodes its arguments into core types ([`convert`]), calls
//! the core, and encodes the answer; errors become the JavaScript `PayError`
//! class in one function ([`error::build`]). Platform objects are reached
//! through `globalThis` only ([`mod@env`]), so the same code runs in browsers,
//! Node and mini-program runtimes, where there is no `window`.
//!
//! Three builds, by feature: the browser's payment module (no feature:
//! `pay` alone, what a paying page downloads); `web-tools` adds the
//! synchronous payment exports and the mini-program helpers (the
//! mini-program module); `web-extra` adds `waitForBridge`, authorization
//! and verification (the full module, which `ready()` loads and Node uses).

#[cfg(feature = "wasm2js")]
mod arena;
#[cfg(feature = "web-extra")]
pub mod auth;
#[cfg(feature = "web-extra")]
pub mod auth_tools;
#[cfg(feature = "web-extra")]
pub mod authorize;
pub mod busy;
pub mod convert;
pub mod env;
pub mod error;
pub mod exports;
pub mod local;
#[cfg(feature = "web-tools")]
pub mod miniprogram;
pub mod pay;
pub mod platform;
pub mod protocol;
#[cfg(feature = "web-extra")]
pub mod runs;
pub mod table;
#[cfg(feature = "web-extra")]
pub mod transport;
#[cfg(feature = "web-extra")]
pub mod wait;
