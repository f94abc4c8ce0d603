//! `pay()` in the wasm build: the translation between the core that
//! decides ([`crate::perform`]) and the shim that performs
//! (`www/lib/perform.js`).
//!
//! `__payStart(payment, options)` plans (a payment that cannot start
//! answers the command that rejects with its `PayError`, or, for a bad
//! input in the payment module, which does not word those, the command
//! that has the full module word it),
//! claims the one payment slot (`busy`) and answers `[run, ...commands]`;
//! `__payStep(run, kind, value)` feeds what happened and answers the next
//! commands, in the protocol of [`super::protocol`]. Having performed the
//! end the shim feeds `[Release]`, which frees the payment slot.

use super::busy::{claim, InFlight};
use super::env;
use super::error::to_js as err;
use super::local::{Local, RefCell};
use super::protocol::{input_of, started, Encode, Page};
use crate::perform::wire::{Feed, Op};
use crate::perform::Run;
use core::cell::Cell;
use js_sys::Array;
use wasm_bindgen::prelude::*;

/// The payment in flight: its number, the core's state, and what the shim
/// is handed back (the payment and options as given).
struct Flight {
    id: u32,
    run: Run<JsValue>,
    payment: JsValue,
    options: JsValue,
    /// The payment slot, where this run holds it: a run that goes on from
    /// the payment module's hand-over leaves it to that module's run.
    _slot: Option<InFlight>,
}

static FLIGHT: Local<RefCell<Option<Flight>>> = Local::new(RefCell::new(None));
static NEXT: Local<Cell<u32>> = Local::new(Cell::new(0));

/// `__payStart(payment, options?) -> [run, ...commands]`.
#[wasm_bindgen(js_name = __payStart, skip_typescript)]
pub fn pay_start(payment: JsValue, options: JsValue) -> Array {
    // A payment that cannot start answers run 0 and the one command that
    // rejects (protocol.rs): `[Reject, error]` (busy; bad input where it is
    // worded) or `[Explain, error]` (bad input refused unworded,
    // crate::error::WORDED, which the shim has the full module word). An
    // answer, never a throw: the export then passes no result through
    // memory, and its glue is a plain call (0.1 KB less on the entry).
    let slot = match claim("pay") {
        Ok(s) => s,
        Err(e) => return refused(Op::Reject, e),
    };
    // The slot claimed and no payment in flight: nothing on the heap is
    // live (the module's heap serves the payment in flight only), and the
    // payment module takes it all back (src/bump/).
    #[cfg(all(feature = "wasm-runtime", not(feature = "web-tools"), not(feature = "wasm2js")))]
    if FLIGHT.with(|s| s.borrow().is_none()) {
        crate::bump::heap::reset();
    }
    let (_, opts, runtime, plan) = match super::exports::plan_js(&payment, &options) {
        Ok(p) => p,
        Err(e) => return refused(if crate::error::WORDED { Op::Reject } else { Op::Explain }, err(&e)),
    };
    let confirm = env::method(&options, "confirm").is_some();
    let (id, out) = started(&NEXT);
    let run = Run::start_into(plan, opts, runtime, confirm, &Page(&options), &mut Encode(&out, &payment, &options));
    FLIGHT.with(|s| *s.borrow_mut() = Some(Flight { id, run, payment, options, _slot: Some(slot) }));
    out
}

/// The answer of a payment that cannot start: run 0 and the one command
/// that rejects. Built from the calls every command uses (`Array.of` with
/// five values, `push`): no import of its own for this answer.
fn refused(op: Op, e: JsValue) -> Array {
    let out = Array::new();
    let u = JsValue::UNDEFINED;
    out.push(&JsValue::from_f64(0.0));
    out.push(&Array::of5(&JsValue::from_f64(op as u8 as f64), &e, &u, &u, &u));
    out
}

/// `__confirmStart(payment, options, hint, ms) -> [run, ...commands]`: a
/// payment that the browser's payment module handed over to await
/// `confirm` (its command `HandOff`, [`crate::perform::Cmd::HandOff`]): `hint` is
/// the wallet's result as that module reported it (with `raw`), `ms`
/// `confirmTimeoutMs`. It then goes on as any payment, fed by
/// `__payStep`. The payment slot stays claimed by the run that handed
/// over, which the shim ends after this one.
#[cfg(feature = "web-extra")]
#[wasm_bindgen(js_name = __confirmStart, skip_typescript)]
pub fn confirm_start(payment: JsValue, options: JsValue, hint: JsValue, ms: u32) -> Array {
    use super::env::Text;
    use crate::outcome::{PayResult, Status};
    let text = |k: &str| env::get(&hint, k).text();
    let status = text("status").and_then(|s| Status::from_name(&s)).unwrap_or(Status::Pending);
    let mut result = PayResult::new(status, &text("channel").unwrap_or_default(), text("code"));
    if let Some(m) = text("message") {
        result.message = m;
    }
    let raw = env::get(&hint, "raw");
    let raw = (env::kind(&raw) != env::kind::UNDEFINED).then_some(raw);
    let (id, out) = started(&NEXT);
    let run = Run::confirming(result, raw, ms, &mut Encode(&out, &payment, &options));
    FLIGHT.with(|s| *s.borrow_mut() = Some(Flight { id, run, payment, options, _slot: None }));
    out
}

/// `__payStep(run, kind, value) -> commands`: what happened, fed back
/// (`kind` a [`Feed`]). `Feed::Counts` is no step: it answers
/// `[listeners, waiters, retained]`, what
/// the module holds on to right now (for the leak tests: `__debugCounts`
/// of Node's entry and the mini-program module, and the browser tests'
/// `debugCounts`), through this export rather than one of its own.
#[wasm_bindgen(js_name = __payStep, skip_typescript)]
pub fn pay_step(id: u32, kind: u32, v: JsValue) -> Array {
    if kind == Feed::Counts as u32 {
        return debug_counts();
    }
    let out = Array::new();
    // Taken out while the core steps: a value the shim hands on may call
    // back into this module, which then finds no payment to feed.
    let Some(mut f) = FLIGHT.with(|s| s.borrow_mut().take_if(|f| f.id == id)) else {
        return out;
    };
    if kind == Feed::Release as u32 {
        // The shim has performed the end: the payment slot is free again.
        return out;
    }
    if let Some(input) = input_of(kind, v, f.run.takes_answer()) {
        f.run.step_into(input, &Page(&f.options), &mut Encode(&out, &f.payment, &f.options));
    }
    // Kept, and with it the payment slot, until the shim has performed the
    // end (so that `pay()` from an `onEvent` of the last batch is still
    // `busy`).
    FLIGHT.with(|s| *s.borrow_mut() = Some(f));
    out
}

/// What the payment in flight holds: `(listeners, waiters, retained)`.
pub fn counts() -> (usize, usize, usize) {
    FLIGHT.with(|s| s.borrow().as_ref().map_or((0, 0, 0), |f| f.run.counts()))
}

/// `[listeners, waiters, retained]`: ready-event listeners, bridge waiters,
/// and wallet callbacks that still count (none between payments).
fn debug_counts() -> Array {
    #[allow(unused_mut)]
    let (mut listeners, mut waiters, mut retained) = counts();
    #[cfg(feature = "web-extra")]
    {
        let (l, w, r) = super::runs::counts();
        listeners += l;
        waiters += w;
        retained += r;
    }
    let n = |x: usize| JsValue::from_f64(x as f64);
    let u = JsValue::UNDEFINED;
    Array::of5(&n(listeners), &n(waiters), &n(retained), &u, &u)
}
