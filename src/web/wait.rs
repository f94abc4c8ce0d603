//! `waitForBridge()` in the wasm build: the core's wait
//! ([`crate::perform::BridgeWait`], the same rules `pay()` waits by),
//! performed by the shim (`www/lib/perform.js`) as `pay()` is.
//!
//! `__waitStart(name, readyEvent, options)` checks the arguments (a bad one
//! throws its `PayError`) and answers `[wait, ...commands]`;
//! `__step(wait, kind, value)` feeds what happened ([`super::table`]).
//! The commands and inputs are `pay()`'s (`web/pay.rs`); the wait ends with
//! the core's `Found` (`[Resolve, bridge]`) or `Fail` (`[Reject, error]`). Any number of waits may run at
//! once; the shim shares one listener among them.

use super::env::Text;
use super::error::to_js as err;
use super::protocol::{Encode, Page};
use super::runs::Flow;
use crate::error::{cat, Code, PayError};
use crate::perform::{BridgeWait, WatchOptions, WatchRun};
use crate::prelude::*;
use js_sys::Array;
use wasm_bindgen::prelude::*;

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
    let none = JsValue::UNDEFINED;
    Ok(super::table::begin(super::runs::Hooks::None, |w| {
        Flow::Wait(BridgeWait::start_into(name, event, ms, &Page(&none), &mut Encode(w.out, &none, &none)))
    }))
}

/// `__watchStart(ask, options?) -> [run, ...commands]`: `watchPayment`,
/// whose promise the shim's driver settles (`drive`, `www/lib/perform.js`;
/// `www/lib/flows.js` starts it), as a run
/// of [`WatchRun`] fed by `__step`. A bad argument throws its
/// `PayError` (`ask`, or the option named), which rejects the promise; a
/// `signal` that has aborted already ends the watch before its first ask.
#[wasm_bindgen(js_name = __watchStart, skip_typescript)]
pub fn watch_start(ask: JsValue, options: JsValue) -> Result<Array, JsValue> {
    use super::runs::Hooks;
    use super::table::begin_numbered;
    use wasm_bindgen::JsCast;
    let bad = |field: &str, why: &str| err(&PayError::field(Code::InvalidOptions, field, cat!(field, " ", why)));
    let Ok(ask) = ask.dyn_into::<js_sys::Function>() else {
        return Err(bad("ask", "must be a function () => status: asks the merchant's server for the payment's status"));
    };
    if !options.is_undefined() && !options.is_null() && !super::env::is_object(&options) {
        return Err(bad("options", "must be an object"));
    }
    let signal = super::env::get(&options, "signal");
    let listens = super::env::has_method(&signal, "addEventListener");
    if !signal.is_undefined() && !signal.is_null() && !listens {
        return Err(bad("signal", "must be an AbortSignal"));
    }
    let get = |name: &str| {
        let v = super::env::get(&options, name);
        if v.is_undefined() {
            return Ok(None);
        }
        super::convert::from_js(&v, Code::InvalidOptions, name).map(Some)
    };
    let mut read = Vec::new();
    for name in ["firstAfterMs", "intervalMs", "maxIntervalMs", "timeoutMs", "stopAfterMs"] {
        read.push((name, get(name).map_err(|e| err(&e))?));
    }
    let field = |name: &str| read.iter().find(|(n, _)| *n == name).and_then(|(_, v)| v.clone());
    let mut opts = WatchOptions::read(field, listens).map_err(|e| err(&e))?;
    opts.aborted = listens && super::env::get(&signal, "aborted").is_truthy();
    let o = options.clone();
    let a = ask.clone();
    Ok(begin_numbered(|id| Hooks::Watch(&options, &ask, id), |w| Flow::Watch(Box::new(WatchRun::start(opts, w)), o, a)))
}
