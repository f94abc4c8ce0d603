//! The wasm32 edge: the one place that touches JavaScript.
//!
//! Every export decodes its arguments into core types ([`convert`]), calls
//! the core, and encodes the answer; errors become the JavaScript `PayError`
//! class in one function ([`error::to_js`]). Platform objects are reached
//! through `globalThis` only ([`env`]), so the same code runs in browsers,
//! Node and mini-program runtimes, where there is no `window`.
//!
//! The authorization and verification exports are compiled only with the
//! `web-extra` feature: the package ships them in a second module, so that
//! a page that only pays downloads only the payment module.

#[cfg(feature = "wasm2js")]
mod arena;
#[cfg(feature = "web-extra")]
pub mod auth;
#[cfg(feature = "web-extra")]
pub mod auth_tools;
#[cfg(feature = "web-extra")]
pub mod authorize;
pub mod bridge;
pub mod convert;
pub mod dom;
pub mod env;
pub mod error;
pub mod exports;
pub mod local;
pub mod miniprogram;
pub mod pay;
pub mod task;
#[cfg(feature = "web-extra")]
pub mod transport;
