//! The wasm32 edge: the one place that touches JavaScript.
//!
//! Every export decodes its arguments into core types ([`convert`]), calls
//! the core, and encodes the answer; errors become the JavaScript `PayError`
//! class in one function ([`error::to_js`]). Platform objects are reached
//! through `globalThis` only ([`env`]), so the same code runs in browsers,
//! Node and mini-program runtimes, where there is no `window`.

#[cfg(feature = "wasm2js")]
mod arena;
pub mod bridge;
pub mod convert;
pub mod env;
pub mod error;
pub mod exports;
pub mod miniprogram;
pub mod pay;
pub mod task;
