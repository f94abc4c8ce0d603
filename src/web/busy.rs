//! One payment at a time: `pay()` and `cardnetPay()` claim the one slot, so
//! that a double tap never pays or orders twice.

use super::convert::set;
use super::env;
use super::local::Local;
use core::cell::Cell;
use wasm_bindgen::prelude::*;

static BUSY: Local<Cell<bool>> = Local::new(Cell::new(false));

/// Clears the in-flight flag when the payment ends, however it ends.
pub struct InFlight;

/// Claims the one payment slot: `None` while another payment is in flight
/// (the core then answers `busy`, [`crate::perform::busy`]).
pub fn claim() -> Option<InFlight> {
    // Not `then_some`: an `InFlight` made and dropped would free the slot.
    (!swap_busy(true)).then(|| InFlight)
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
