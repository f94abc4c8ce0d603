//! A merchant's hook answered within a time limit: the `order` of
//! `cardnetPay` (`pay()`'s `confirm` is the payment core's, performed by
//! the shim).

use super::dom::{Callback as JsCallback, Timeout};
use super::env;
use super::slot::{fill, is_full, slot, SharedSlot, SlotFuture};
use js_sys::Promise;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `Promise.resolve(v)`, catching what a hostile `v` throws.
    #[wasm_bindgen(catch, js_namespace = Promise, js_name = resolve)]
    fn resolve(v: &JsValue) -> Result<Promise, JsValue>;
}

/// `v` (a value or a promise, as a hook answers) once it settles, or `None`
/// when `ms` pass first. The timer is cleared either way.
pub(super) async fn settle_within(v: &JsValue, ms: u32) -> Option<Result<JsValue, JsValue>> {
    let answer: SharedSlot<Option<Result<JsValue, JsValue>>> = slot();
    let on = |f: fn(JsValue) -> Result<JsValue, JsValue>| {
        let a = answer.clone();
        JsCallback::new(move |x| {
            fill(&a, Some(f(x)));
        })
    };
    let (ok, failed) = (on(Ok), on(Err));
    // `Promise.resolve` reads `v.constructor`, and `then` may be the hook's
    // own: either may throw, which counts as the hook failing.
    let subscribed = resolve(v).and_then(|p| match env::method(&p, "then") {
        Some(then) => then.call2(&p, ok.function(), failed.function()),
        None => Err(JsValue::UNDEFINED),
    });
    if let Err(t) = subscribed {
        if !is_full(&answer) {
            return Some(Err(t));
        }
    }
    let a = answer.clone();
    let _timer = Timeout::new(ms, move || {
        fill(&a, None);
    });
    // After a time-out the promise may still settle: `ok` and `failed`,
    // dropped on return, then do nothing.
    SlotFuture(answer).await
}
