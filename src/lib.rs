//! paybridge: turns a payment object from the aggregated payment service into
//! the right action for its channel, performs it in a browser, a wallet page
//! or a mini-program, and reports a normalized result; builds and checks the
//! authorization URLs those flows need; and speaks the service's aggregated
//! authentication API.
//!
//! The crate is a pure core (every module but `web`, tested on the host) and
//! thin edges in `web` (wasm32 only: the exports, and the writing of the
//! commands that the JavaScript shim performs).
//!
//! How the code is laid out (the map is the README's "Architecture"):
//!
//! - **A pure core, thin edges.** Outside `src/web/` all is plain Rust
//!   tested on the host; `src/web/` (wasm32 only) decodes each export's
//!   arguments (`convert.rs`), calls the core, encodes the answer, and makes
//!   every error the `PayError` class (`error.rs`). What the core needs
//!   of the runtime it asks through two ports, which the edge implements:
//!   `platform.rs` (reading JSON text, judging an internationalized host)
//!   and `perform::World` (what a run asks of the page: is the bridge there,
//!   is the page visible; `web/protocol.rs` `Page`). The core never names
//!   `web` (tests/tools/layout.mjs). Platform objects are
//!   reached through the global object the entry gives (`env.rs`; `{}` in a
//!   runtime with none, `www/lib/globals.js`). `www/lib/` loads and re-exports; it decides
//!   nothing.
//! - **One shape for every flow: core, protocol, driver.** Each flow is a
//!   sans-IO state machine in `perform/`: `Run` (a payment), `BridgeWait`
//!   (`waitForBridge`), `CardnetRun` (`cardnetPay`), `VerifyRun` (a call of
//!   the authentication client, around `verify::Call`, which decides what
//!   to send and when to try again and alone holds where the call is,
//!   read by the run), `NoticeRun` (`verifyNotification`)
//!   and `WatchRun` (`watchPayment`: ask the merchant until its word is
//!   final, backing off).
//!   Each answers every input (a call returned, an event, a timer, an
//!   awaited answer with its token) with commands of one vocabulary
//!   (`perform/io.rs`: listen, set a timer, call the bridge or the API,
//!   await a hook or a request under a time-out, navigate, report, end;
//!   `perform/hooks.rs` writes that await and its failure once, one error
//!   code per kind of hook).
//!   The wasm edge starts the runs (`web/pay.rs` a payment; `wait.rs`,
//!   `authorize.rs`, `auth.rs`, `auth_tools.rs` the rest) and steps them
//!   (`web/pay.rs`, `web/runs.rs`); `web/protocol.rs` writes the commands
//!   for the shim and reads its inputs; every run of a module, payments and the rest,
//!   is kept in its one run table and fed through its one step export,
//!   `__step` (`web/table.rs`); the one driver, `drive` in
//!   `www/lib/perform.js`, performs them in a page, in Node and in a
//!   mini-program. Every way a run ends is a core command (`Done`, `Fail`,
//!   `FailCaused`, `Resolve`, `Found`, `Explain`, `HandOff`), and so is the
//!   refusal to start of a payment (`perform::busy`, `perform::refuse`)
//!   and of `cardnetPay` (busy); the other start exports check their
//!   arguments in the edge and throw the `PayError` before any run exists,
//!   which `drive` rejects with. Nothing in the crate polls a
//!   future or holds a timer or listener of its own: every wait is a
//!   command the driver performs.
//!
//!   Following `pay()` to the wallet's call and back: `www/lib/index.js`
//!   `pay`, once the payment module is loaded (`whenLoaded`), calls
//!   `perform.js` `perform`, which hands `drive` the start
//!   `bg.__payStart(payment, options)`; `web/table.rs` `pay_start` gives the run its number and
//!   `web/pay.rs` `start` claims the payment slot, plans
//!   (`action.rs`) and starts `perform::Run`, whose commands
//!   (`perform/io.rs`, named as `Out`'s methods) `web/protocol.rs` `Encode` writes for the shim;
//!   `drive` performs them (the wallet called by `OP_CALL_BRIDGE` or
//!   `OP_CALL_API`) and feeds each answer back through `__step`
//!   (`table.rs` `step`, then `pay.rs` `Flight::step`, which calls the
//!   run's method for each input: `Run::returned`, `event`, `timer`,
//!   `callback`),
//!   until `Done` or `Fail` ends the run (written `[Resolve, result,
//!   event]` and `[Reject, error]`, `Encode::done` and `fail`); having performed the end the
//!   driver feeds `Release` and the run leaves the table, freeing the
//!   slot.
//!   Host tests drive every rule and fault with a fake world
//!   (`perform/tests.rs`, `perform/flow_tests.rs`, `perform/watch_tests.rs`). The payment module
//!   refuses bad input unworded (`error::WORDED`); the full module's
//!   `__explain` words it, and awaits `confirm`, which comes after the
//!   wallet's answer (`Cmd::HandOff`).
//! - **Hand-made pieces kept for size** (what each saves:
//!   `tests/bench/README.md`): the `no_std` build with
//!   lol_alloc, a bump heap, JSON through `JSON.parse` instead of serde, the
//!   URL check instead of the `url` crate (checked against it by property
//!   tests and fuzz), short names, the carried `.wasm`. Elsewhere well-kept crates serve as they are (`axum`, `tokio`,
//!   `serde_json`, `url`, `hmac`, `proptest`).
//! - **The sandbox beside the crate.** The local server of `make demo`
//!   (merchant, simulated wallets, authorization pages, the authentication
//!   API) is `paybridge-sandbox` in `sandbox/`, a crate of the same
//!   workspace that depends on this one (feature `hmac`): host only, so
//!   the library has no server dependency and no build of it holds any of
//!   the sandbox.
//! - **The wire declared once.** The operations of the commands an edge
//!   answers and the kinds of input the shim feeds back are the enums of
//!   `perform/wire.rs`; `www/lib/protocol.js` is generated from them and
//!   `tests/wire.rs` fails when the two drift or the shim uses a number.
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
pub mod event;
pub mod json;
pub mod json_text;
pub mod miniprogram;
pub mod outcome;
pub mod payment;
pub mod perform;
pub mod platform;
pub mod prelude;
pub mod profile;
pub mod runtime;
pub mod safe_url;
pub mod security;
pub mod status;
pub mod verify;

#[cfg(target_arch = "wasm32")]
pub mod web;

/// Whether this is the browser's payment module (wasm32 without
/// `web-tools`): the build a paying page downloads, which is built without
/// what it never runs (mini-program API calls, the profile's
/// authorization defaults). Every other build, the host's included, has
/// everything.
pub(crate) const PAYMENT_MODULE: bool = cfg!(target_arch = "wasm32") && !cfg!(feature = "web-tools");

/// Whether this is the mini-program module (wasm32 with `web-tools` and
/// without `web-extra`, and its JavaScript build): only a mini-program
/// imports it, so a payment there that finds no mini-program API is a
/// mini-program page whose API global the module cannot see.
pub(crate) const MINI_PROGRAM_MODULE: bool = cfg!(target_arch = "wasm32") && cfg!(feature = "web-tools") && !cfg!(feature = "web-extra");

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
