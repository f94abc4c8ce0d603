//! `waitForBridge()` in the wasm build: the core's wait
//! ([`crate::perform::BridgeWait`], the same rules `pay()` waits by),
//! performed by the shim (`www/lib/perform.js`) as `pay()` is.
//!
//! `__waitStart(name, readyEvent, options)` checks the arguments (a bad one
//! throws its `PayError`) and answers `[wait, ...commands]`;
//! `__flowStep(wait, kind, value)` feeds what happened ([`super::runs`]).
//! The commands and inputs are `pay()`'s (`web/pay.rs`); the wait ends with
//! `[Resolve, bridge]` or `[Reject, error]`. Any number of waits may run at
//! once; the shim shares one listener among them.

use super::env::Text;
use super::error::to_js as err;
use super::protocol::{Encode, Page};
use super::runs::Flow;
use crate::error::{cat, Code, PayError};
use crate::perform::BridgeWait;
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
    Ok(super::runs::begin(super::runs::Hooks::None, |w| {
        Flow::Wait(BridgeWait::start_into(name, event, ms, &Page(&none), &mut Encode(w.out, &none, &none)))
    }))
}
