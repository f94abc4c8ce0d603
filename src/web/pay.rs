//! `pay()` in the wasm build: starts and steps the core's run
//! ([`crate::perform`]) for the shim that performs (`www/lib/perform.js`);
//! [`super::protocol`]'s `Encode` writes the run's commands.
//!
//! `__payStart(payment, options)` ([`start`]) claims the one payment slot
//! (`busy`) and plans (a payment that cannot start answers the command
//! that rejects with its `PayError`, or, for a bad input in the payment
//! module, which does not word those, the command that has the full
//! module word it), and answers `[run, ...commands]`; the module's one
//! step export, `__step(run, kind, value)` ([`super::table`]), feeds what
//! happened ([`Flight::step`]) and answers the next commands, in the
//! protocol of [`super::protocol`]. Having performed the end the shim
//! feeds `[Release]`, which frees the payment slot.

use super::busy::{claim, InFlight};
use super::env;
use super::env::Text;
use super::protocol::{callback_of, member_of, settled_of, timer_of, Encode, Page};
use crate::perform::wire::Feed;
use crate::perform::Run;
use js_sys::Array;
use wasm_bindgen::prelude::*;

/// A payment: the core's state, and what the shim is handed back (the
/// payment and options as given).
pub struct Flight {
    pub run: Run<JsValue>,
    payment: JsValue,
    options: JsValue,
    /// The payment slot, where this run holds it: a run that goes on from
    /// the payment module's hand-over leaves it to that module's run.
    _slot: Option<InFlight>,
}

/// `__payStart(payment, options?)` ([`super::table`], which numbers and
/// keeps the run): claims the payment slot and plans, its answer written
/// to `out` (the run's `number`, then its commands); the payment to keep,
/// `None` when it cannot start. A payment that cannot start answers run 0,
/// kept nowhere, and the core's command that ends it: `busy`
/// ([`crate::perform::busy`]) or its bad input
/// ([`crate::perform::refuse`]). An answer, never a throw: the export then
/// passes no result through memory, and its glue is a plain call. `idle`:
/// whether the module keeps no run.
#[inline(always)]
pub fn start(payment: JsValue, options: JsValue, idle: bool, out: &Array, number: fn(&Array) -> u32) -> Option<(u32, Flight)> {
    // Why it cannot start: `None` busy, else its bad input.
    let refused = match claim() {
        None => None,
        Some(slot) => {
            // The slot claimed and no run kept: nothing on the heap is live
            // (the module's heap serves the payment in flight only), and the
            // payment module takes it all back (src/bump/).
            #[cfg(all(feature = "wasm-runtime", not(feature = "web-tools"), not(feature = "wasm2js")))]
            if idle {
                crate::bump::heap::reset();
            }
            match super::exports::plan_js(&payment, &options) {
                Ok((opts, host, plan)) => {
                    let confirm = env::has_method(&options, "confirm");
                    let id = number(out);
                    let run = Run::start_into(plan, opts, host, confirm, &Page(&options), &mut Encode(out, &payment, &options));
                    return Some((id, Flight { run, payment, options, _slot: Some(slot) }));
                }
                Err(e) => Some(crate::perform::no_api(e, &Page(&options))),
            }
        }
    };
    // `idle` is read only where the heap is taken back (above).
    let _ = idle;
    // Run 0, kept nowhere: nothing started.
    out.push(&JsValue::from_f64(0.0));
    let end = &mut Encode(out, &payment, &options);
    match refused {
        None => crate::perform::busy("pay", end),
        Some(e) => crate::perform::refuse(e, end),
    }
    None
}

/// `__confirmStart(payment, options, hint, ms)` ([`super::table`]): a
/// payment that the browser's payment module handed over to await
/// `confirm` (its command `HandOff`, [`crate::perform::Cmd::HandOff`]): `hint` is
/// the wallet's result as that module reported it (with `raw`), `ms`
/// `confirmTimeoutMs`. It then goes on as any payment, fed by
/// `__step`. The payment slot stays claimed by the run that handed
/// over, which the shim ends after this one.
#[cfg(feature = "web-extra")]
pub fn confirming(payment: JsValue, options: JsValue, hint: JsValue, ms: u32, out: &Array) -> Flight {
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
    let run = Run::confirming(result, raw, ms, &mut Encode(out, &payment, &options));
    Flight { run, payment, options, _slot: None }
}

impl Flight {
    /// What happened, fed to the payment (`kind` a
    /// [`crate::perform::wire::Feed`]), its commands written to `out`.
    #[inline(always)]
    pub fn step(&mut self, kind: u32, v: JsValue, out: &Array) {
        let (run, w, out) = (&mut self.run, &Page(&self.options), &mut Encode(out, &self.payment, &self.options));
        // Each input straight to the run's method for it, no `Input` built
        // to be matched again; `confirm`'s settlings (the builds that
        // await it) as `Input`s.
        let Some(feed) = Feed::of(kind) else { return };
        match feed {
            Feed::Returned => run.returned(None, w, out),
            Feed::Threw => run.returned(Some(v), w, out),
            Feed::Event => run.event(&v.text().unwrap_or_default(), w, out),
            Feed::Timer => {
                if let Some(t) = timer_of(&v) {
                    run.timer(t, w, out)
                }
            }
            f => match callback_of(f) {
                Some(which) => run.callback(which, v, member_of, out),
                None => {
                    if let Some(input) = settled_of(f, v) {
                        run.step_into(input, w, out);
                    }
                }
            },
        }
    }
}
