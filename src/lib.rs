//! paybridge: turns a payment object from the aggregated payment service into
//! the right action for its channel, performs it in a browser, a wallet page
//! or a mini-program, and reports a normalized result; builds and checks the
//! authorization URLs those flows need; and speaks the service's aggregated
//! authentication API.
//!
//! The crate is a pure core (everything at the top level, tested on the
//! host) and thin edges in [`web`] (wasm32 only: the exports, bridges,
//! events, timers, navigation and `fetch`).

pub mod error;
pub mod json;
pub mod verify;

pub use error::{Code, PayError, Problem};
pub use json::Json;
