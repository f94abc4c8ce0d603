//! The one run table of a module, and its one step export: every run the
//! module starts (the browser's payment module: payments; the full module:
//! payments, bridge waits, `cardnetPay`, the authentication client's calls,
//! `verifyNotification`, `watchPayment`) is kept here under its number,
//! and fed by `__step(run, kind, value)`, which answers the next commands
//! in the protocol of [`super::protocol`].
//!
//! A start export answers `[run, ...commands]` (`__payStart`,
//! `__confirmStart` here; the full module's others through `begin`); a
//! run refused before it starts answers run 0, kept nowhere, and the
//! core's command that ends it. Having performed a run's end the
//! shim feeds `Release`, and the run, with what it holds (the payment slot),
//! goes. Any number of runs may be going on at once; an input for a run that
//! is not kept does nothing.

use super::local::{Local, RefCell};
#[cfg(feature = "web-extra")]
use super::runs::{Flow, Hooks, Writer};
use crate::perform::wire::Feed;
#[cfg(feature = "web-extra")]
use crate::prelude::*;
use core::cell::Cell;
use js_sys::Array;
use wasm_bindgen::prelude::*;

/// A run of this module, with what its commands are written from. A
/// payment kept in place, not boxed: the payment module keeps nothing else.
#[allow(clippy::large_enum_variant)]
pub enum Kept {
    /// A payment (`pay()`).
    Pay(super::pay::Flight),
    /// The full module's other runs.
    #[cfg(feature = "web-extra")]
    Flow(super::runs::Flow),
}

/// Where the runs are kept: any number in the full module; in the payment
/// and mini-program modules, whose only runs are payments, one at a time
/// (the payment slot), room for one.
#[cfg(feature = "web-extra")]
type Runs = Vec<(u32, Kept)>;
#[cfg(feature = "web-extra")]
const NONE: Runs = Vec::new();
#[cfg(not(feature = "web-extra"))]
type Runs = Option<(u32, Kept)>;
#[cfg(not(feature = "web-extra"))]
const NONE: Runs = None;

static RUNS: Local<RefCell<Runs>> = Local::new(RefCell::new(NONE));
static NEXT: Local<Cell<u32>> = Local::new(Cell::new(0));

/// A new run's number, pushed first of the array its commands follow.
fn number(out: &Array) -> u32 {
    let id = NEXT.with(|n| {
        n.set(n.get().wrapping_add(1));
        n.get()
    });
    out.push(&JsValue::from_f64(id as f64));
    id
}

/// A new run's number and the array its commands follow.
#[cfg(feature = "web-extra")]
fn started() -> (u32, Array) {
    let out = Array::new();
    (number(&out), out)
}

/// Keeps run `id` until the shim has performed its end.
fn keep(id: u32, run: Kept) {
    #[cfg(feature = "web-extra")]
    RUNS.with(|r| r.borrow_mut().push((id, run)));
    #[cfg(not(feature = "web-extra"))]
    RUNS.with(|r| *r.borrow_mut() = Some((id, run)));
}

/// Run `id`, taken out of the table.
fn take(id: u32) -> Option<Kept> {
    RUNS.with(|r| {
        let mut r = r.borrow_mut();
        #[cfg(feature = "web-extra")]
        let taken = r.iter().position(|(rid, _)| *rid == id).map(|i| r.swap_remove(i));
        #[cfg(not(feature = "web-extra"))]
        let taken = r.take_if(|(rid, _)| *rid == id);
        taken.map(|(_, run)| run)
    })
}

/// Whether no run is kept.
fn idle() -> bool {
    RUNS.with(|r| r.borrow().iter().next().is_none())
}

/// `__payStart(payment, options?) -> [run, ...commands]`: `pay()`
/// ([`super::pay::start`]); a payment that cannot start is kept nowhere.
#[wasm_bindgen(js_name = __payStart, skip_typescript)]
pub fn pay_start(payment: JsValue, options: JsValue) -> Array {
    let idle = idle();
    let out = Array::new();
    if let Some((id, f)) = super::pay::start(payment, options, idle, &out, number) {
        keep(id, Kept::Pay(f));
    }
    out
}

/// `__confirmStart(payment, options, hint, ms) -> [run, ...commands]`: a
/// payment handed over to await `confirm` ([`super::pay::confirming`]).
#[cfg(feature = "web-extra")]
#[wasm_bindgen(js_name = __confirmStart, skip_typescript)]
pub fn confirm_start(payment: JsValue, options: JsValue, hint: JsValue, ms: u32) -> Array {
    let (id, out) = started();
    keep(id, Kept::Pay(super::pay::confirming(payment, options, hint, ms, &out)));
    out
}

/// Starts one of the full module's other runs: `start` writes its first
/// commands, its awaited calls made of `hooks`; the answer is `[run,
/// ...commands]`.
#[cfg(feature = "web-extra")]
pub fn begin(hooks: Hooks, start: impl FnOnce(&mut Writer) -> Flow) -> Array {
    begin_numbered(|_| hooks, start)
}

/// [`begin`], with hooks that know the run's number.
#[cfg(feature = "web-extra")]
pub fn begin_numbered<'a>(hooks: impl FnOnce(u32) -> Hooks<'a>, start: impl FnOnce(&mut Writer) -> Flow) -> Array {
    let (id, out) = started();
    let flow = start(&mut Writer { out: &out, hooks: hooks(id) });
    keep(id, Kept::Flow(flow));
    out
}

/// `__step(run, kind, value) -> commands`: what happened to a run (`kind`
/// a [`Feed`]); `Release` once the shim has performed its end.
/// `Feed::Counts` is no step: it answers `[listeners, waiters, retained]`,
/// what the module holds on to right now (for the leak tests:
/// `__debugCounts` of Node's entry and the mini-program module, and the
/// browser tests' `debugCounts`), through this export rather than one of
/// its own.
#[wasm_bindgen(js_name = __step, skip_typescript)]
pub fn step(id: u32, kind: u32, v: JsValue) -> Array {
    if kind == Feed::Counts as u32 {
        return counts();
    }
    let out = Array::new();
    // Taken out while the core steps: a value the shim hands on may call
    // back into this module, which then finds no run to feed.
    let taken = take(id);
    // Released: the run goes, and with it what it holds.
    let Some(mut run) = taken.filter(|_| kind != Feed::Release as u32) else { return out };
    match &mut run {
        Kept::Pay(f) => f.step(kind, v, &out),
        #[cfg(feature = "web-extra")]
        Kept::Flow(f) => f.step(id, kind, v, &out),
    }
    // Kept, and with it the payment slot, until the shim has performed the
    // end (so that `pay()` from an `onEvent` of the last batch is still
    // `busy`).
    keep(id, run);
    out
}

/// `[listeners, waiters, retained]`, in the order the wire declares them
/// (`perform::wire::COUNTS`): ready-event listeners (one an event, however
/// many runs wait on it), bridge waiters, and what else still counts (a
/// payment's wallet callbacks, the full module's other runs; none between
/// calls).
fn counts() -> Array {
    use crate::perform::wire::{count, COUNTS};
    let (listeners, waiters, retained) = RUNS.with(|r| {
        let r = r.borrow();
        #[cfg(feature = "web-extra")]
        let mut events: Vec<&str> = Vec::new();
        let (mut listeners, mut waiters, mut retained) = (0, 0, 0);
        for (_, run) in r.iter() {
            // A payment's listener, counted as it is; the waits' events,
            // once each.
            let (l, w, kept) = match run {
                Kept::Pay(f) => f.run.counts(),
                #[cfg(feature = "web-extra")]
                Kept::Flow(f) => {
                    let (event, w, kept) = f.counts();
                    events.extend(event);
                    (0, w, kept)
                }
            };
            listeners += l;
            waiters += w;
            retained += kept;
        }
        #[cfg(feature = "web-extra")]
        {
            events.sort_unstable();
            events.dedup();
            listeners += events.len();
        }
        (listeners, waiters, retained)
    });
    // Each where the wire declares it (`perform::wire::COUNTS`).
    let mut c = [0; COUNTS.len()];
    c[const { count("listeners") }] = listeners;
    c[const { count("waiters") }] = waiters;
    c[const { count("retained") }] = retained;
    let out = Array::new();
    for n in c {
        out.push(&JsValue::from_f64(n as f64));
    }
    out
}
