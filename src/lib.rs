//! paybridge: turns a payment object from the aggregated payment service into
//! the right action for its channel, performs it in a browser, a wallet page
//! or a mini-program, and reports a normalized result; builds and checks the
//! authorization URLs those flows need; and speaks the service's aggregated
//! authentication API.
//!
//! The crate is a pure core (every module but `web`, tested on the host) and
//! thin edges in `web` (wasm32 only: the exports, bridges, events, timers,
//! navigation and `fetch`).

pub mod action;
pub mod authorize;
pub mod error;
pub mod json;
pub mod miniprogram;
pub mod outcome;
pub mod payment;
pub mod profile;
pub mod runtime;
pub mod safe_url;
pub mod verify;

#[cfg(target_arch = "wasm32")]
pub mod web;

// The local sandbox server (host only, feature `sandbox`).
#[cfg(all(feature = "sandbox", not(target_arch = "wasm32")))]
pub mod sandbox;

pub use action::{plan, Action, Options, Plan};
pub use error::{Code, PayError, Problem};
pub use json::Json;
pub use outcome::{PayResult, Status};
pub use payment::{Channel, Payment};
pub use profile::Profile;
pub use runtime::{Host, Runtime};
