//! `waitForBridge()` in the wasm build: the core's wait
//! ([`crate::perform::BridgeWait`], the same rules `pay()` waits by),
//! performed by the shim (`www/lib/perform.js`) as `pay()` is.
//!
//! `__waitStart(name, readyEvent, options)` checks the arguments (a bad one
//! throws its `PayError`) and answers `[wait, ...commands]`;
//! `__waitStep(wait, kind, value)` feeds what happened. The commands and
//! inputs are `pay()`'s (`web/pay.rs`); the wait ends with `[Resolve,
//! bridge]` or `[Reject, error]`. Any number of waits may run at once; the shim shares one
//! listener among them.

use super::env::Text;
use super::error::to_js as err;
use super::local::{Local, RefCell};
use super::protocol::{input_of, started, Encode, Page};
use crate::error::{cat, Code, PayError};
use crate::perform::wire::{Feed, Op};
use crate::perform::BridgeWait;
use crate::prelude::*;
use core::cell::Cell;
use js_sys::Array;
use wasm_bindgen::prelude::*;

/// The waits going on: their number and state.
static WAITS: Local<RefCell<Vec<(u32, BridgeWait)>>> = Local::new(RefCell::new(Vec::new()));
static NEXT: Local<Cell<u32>> = Local::new(Cell::new(0));

fn check_name(v: Option<String>, field: &str) -> Result<String, PayError> {
    match v {
        Some(v)
            if !v.is_empty()
                && v.len() <= 128
                && v.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b':' | b'-')) =>
        {
            Ok(v)
        }
        _ => Err(PayError::field(
            Code::InvalidOptions,
            field,
            cat!(field, " must be a string naming a global or an event (letters, digits, _ $ . : -)"),
        )),
    }
}

/// `__waitStart(name, readyEvent, options?) -> [wait, ...commands]`.
#[wasm_bindgen(js_name = __waitStart, skip_typescript)]
pub fn wait_start(name: JsValue, ready_event: JsValue, options: JsValue) -> Result<Array, JsValue> {
    let args = || {
        let name = check_name(name.text(), "name")?;
        let event = check_name(ready_event.text(), "readyEvent")?;
        Ok::<_, PayError>((name, event, super::exports::options_from(&options)?.timeout_ms))
    };
    let (name, event, ms) = args().map_err(|e| err(&e))?;
    let (id, out) = started(&NEXT);
    let none = JsValue::UNDEFINED;
    let wait = BridgeWait::start_into(name, event, ms, &Page(&none), &mut Encode(&out, &none, &none));
    keep(id, wait, &out);
    Ok(out)
}

/// `__waitStep(wait, kind, value) -> commands`; `Release` once the shim
/// has performed the end.
#[wasm_bindgen(js_name = __waitStep, skip_typescript)]
pub fn wait_step(id: u32, kind: u32, v: JsValue) -> Array {
    let out = Array::new();
    let taken = WAITS.with(|w| {
        let mut w = w.borrow_mut();
        let i = w.iter().position(|(wid, _)| *wid == id)?;
        Some(w.swap_remove(i))
    });
    if let Some((_, mut wait)) = taken.filter(|_| kind != Feed::Release as u32) {
        let none = JsValue::UNDEFINED;
        if let Some(input) = input_of(kind, v, false) {
            wait.step_into(input, &Page(&none), &mut Encode(&out, &none, &none));
        }
        keep(id, wait, &out);
    }
    out
}

/// Keeps the wait until the shim has performed its end, and writes the
/// bridge found, after the step's commands, into `out` (`[Resolve, bridge]`).
fn keep(id: u32, mut wait: BridgeWait, out: &Array) {
    if let Some(bridge) = wait.found() {
        out.push(&Array::of2(&JsValue::from_f64(Op::Resolve as u8 as f64), &super::env::global_get(bridge)));
    }
    WAITS.with(|w| w.borrow_mut().push((id, wait)));
}

/// The ready-event listeners (one an event, however many wait on it) and
/// the waits going on.
pub fn counts() -> (usize, usize) {
    WAITS.with(|w| {
        let w = w.borrow();
        let mut events: Vec<&str> = w.iter().filter_map(|(_, x)| x.waiting()).collect();
        let waiters = events.len();
        events.sort_unstable();
        events.dedup();
        (events.len(), waiters)
    })
}
