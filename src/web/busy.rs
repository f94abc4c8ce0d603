//! One payment at a time: `pay()` and `cardnetPay()` claim the one slot, so
//! that a double tap never pays or orders twice.

use super::convert::set;
use super::env;
use super::error::to_js as err;
use super::local::Local;
use crate::error::{cat, Code, PayError};
use core::cell::Cell;
use wasm_bindgen::prelude::*;

static BUSY: Local<Cell<bool>> = Local::new(Cell::new(false));

/// Clears the in-flight flag when the payment ends, however it ends.
pub struct InFlight;

/// Claims the one payment slot for `export` (`pay`, `cardnetPay`): a
/// second payment while one is in flight is `busy`.
pub fn claim(export: &str) -> Result<InFlight, JsValue> {
    if swap_busy(true) {
        let e =
            PayError::new(Code::Busy, cat!(export, "() was called while another payment is still in flight; wait for its result first"));
        return Err(err(&e));
    }
    Ok(InFlight)
}

impl Drop for InFlight {
    fn drop(&mut self) {
        swap_busy(false);
    }
}

/// Sets the in-flight flag, answering what it was: the flag of the entry's
/// shared state when there is one (every module of the page sees it), this
/// module's own otherwise.
fn swap_busy(now: bool) -> bool {
    match super::error::shared() {
        Some(s) => {
            let was = env::kind(&env::get(&s, "busy")) == env::kind::TRUE;
            set(&s, "busy", &JsValue::from_bool(now));
            was
        }
        None => BUSY.with(|b| b.replace(now)),
    }
}
