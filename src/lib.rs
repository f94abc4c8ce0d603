//! paybridge: turns a payment object from the aggregated payment service into
//! the right action for its channel, performs it in a browser, a wallet page
//! or a mini-program, and reports a normalized result; builds and checks the
//! authorization URLs those flows need; and speaks the service's aggregated
//! authentication API.
//!
//! The crate is a pure core (every module but `web`, tested on the host) and
//! thin edges in `web` (wasm32 only: the exports, bridges, events, timers,
//! navigation and `fetch`).
//!
//! The wasm build is `no_std`: with the `wasm-runtime` feature the crate
//! brings its own allocator and a panic handler that traps without
//! formatting anything, which keeps the formatting machinery out of the
//! `.wasm`. Host builds use the standard library as usual.

#![cfg_attr(target_arch = "wasm32", no_std)]

extern crate alloc;

pub mod action;
pub mod authorize;
pub mod bump;
pub mod encode;
pub mod error;
pub mod json;
pub mod json_text;
pub mod miniprogram;
pub mod outcome;
pub mod payment;
pub mod perform;
pub mod prelude;
pub mod profile;
pub mod runtime;
pub mod safe_url;
pub mod security;
pub mod status;
pub mod verify;

#[cfg(target_arch = "wasm32")]
pub mod web;

// The local sandbox server (host only, feature `sandbox`).
#[cfg(all(feature = "sandbox", not(target_arch = "wasm32")))]
pub mod sandbox;

/// Whether this is the browser's payment module (wasm32 without
/// `web-tools`): the build a paying page downloads, which is built without
/// what it never runs (mini-program API calls, the profile's
/// authorization defaults). Every other build, the host's included, has
/// everything.
pub(crate) const PAYMENT_MODULE: bool = cfg!(target_arch = "wasm32") && !cfg!(feature = "web-tools");

pub use action::{plan, Action, Options, Plan};
pub use error::{Code, PayError, Problem};
pub use json::Json;
pub use outcome::{PayResult, Status};
pub use payment::{Channel, Payment};
pub use profile::Profile;
pub use runtime::{Host, Runtime};

/// The allocator and panic handler of the published wasm build (feature
/// `wasm-runtime`; a Rust program that links this crate with the standard
/// library leaves the feature off).
#[cfg(all(target_arch = "wasm32", any(feature = "wasm-runtime", feature = "wasm2js")))]
mod wasm_runtime {
    // The wasm2js build has its own heap (web/arena.rs), and the browser's
    // payment module a bump allocator (bump/).
    #[cfg(all(not(feature = "wasm2js"), feature = "web-tools"))]
    #[global_allocator]
    static ALLOC: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
        // SAFETY: the wasm build is single-threaded (see web::local).
        unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

    /// A panic is a bug (inputs never panic); it traps without formatting a
    /// message, and the JavaScript caller sees a `RuntimeError`.
    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo) -> ! {
        core::arch::wasm32::unreachable()
    }
}
