//! What the full module's own asynchronous flows (`cardnetPay`, the
//! authentication client) share: the payment slot around a future,
//! navigation with its event, and a sleep.

use super::busy::claim;
use super::dom::Timeout;
use super::env;
use super::error::from_thrown;
use super::events::Events;
use super::slot::{fill, slot, SharedSlot, SlotFuture};
use crate::error::Code;
use js_sys::Promise;
use wasm_bindgen::prelude::*;

/// `f`'s promise, run as the one payment in flight (`busy` otherwise); the
/// claim is released when it ends, however it ends.
pub(super) fn guarded<F: core::future::Future<Output = Result<JsValue, JsValue>> + 'static>(name: &str, f: F) -> Promise {
    let guard = match claim(name) {
        Ok(g) => g,
        Err(e) => return Promise::reject(&e),
    };
    super::task::promise(async move {
        let r = f.await;
        drop(guard);
        r
    })
}

pub(super) fn go(url: &str, events: &Events) -> Result<(), JsValue> {
    events.emit_pairs("navigating", &[("url", url)]);
    env::navigate(url).map_err(|t| from_thrown(Code::WrongRuntime, None, "the page could not navigate", &t))
}

/// Resolves after `ms`; the timer is cleared if the future is dropped first.
pub async fn sleep(ms: u32) {
    let s: SharedSlot<()> = slot();
    let s2 = s.clone();
    let _t = Timeout::new(ms, move || {
        fill(&s2, ());
    });
    SlotFuture(s).await
}
