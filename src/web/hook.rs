//! A merchant's hook answered within a time limit: `confirm` after the
//! wallet's answer, and the `order` of `cardnetPay`. The browser's payment
//! module runs `confirm` here too, in the full module, fetched when first
//! needed (`__confirmStatus`; `pay.rs`).

use super::dom::{Callback as JsCallback, Timeout};
use super::env;
use super::error::{from_thrown, to_js as err};
use super::slot::{fill, is_full, slot, SharedSlot, SlotFuture};
use crate::error::{cat, Code, PayError};
use crate::outcome::Status;
use crate::prelude::*;
use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `Promise.resolve(v)`, catching what a hostile `v` throws.
    #[wasm_bindgen(catch, js_namespace = Promise, js_name = resolve)]
    fn resolve(v: &JsValue) -> Result<Promise, JsValue>;
}

/// Asks the merchant's `confirm(payment, hint)` for the verified status.
pub(super) async fn confirm_status(confirm: &Function, payment_js: &JsValue, hint: &JsValue, timeout_ms: u32) -> Result<Status, JsValue> {
    let answered = confirm
        .call2(&JsValue::UNDEFINED, payment_js, hint)
        .map_err(|t| from_thrown(Code::ConfirmFailed, Some("confirm"), "the confirm hook threw", &t))?;
    let answer = match settle_within(&answered, timeout_ms).await {
        Some(a) => a.map_err(|t| from_thrown(Code::ConfirmFailed, Some("confirm"), "the confirm hook failed", &t))?,
        None => {
            let mut m = String::from("the confirm hook did not answer within ");
            crate::error::push_u64(&mut m, timeout_ms as u64);
            m.push_str(" ms (confirmTimeoutMs)");
            return Err(err(&PayError::field(Code::ConfirmFailed, "confirm", m)));
        }
    };
    let text = answer.as_string().unwrap_or_default();
    Status::from_name(&text).ok_or_else(|| {
        let m =
            cat(&["the confirm hook answered ", crate::safe_url::clip(&text), "; it must answer a PayResult status such as \"succeeded\""]);
        err(&PayError::field(Code::ConfirmFailed, "confirm", m))
    })
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

/// `__confirmStatus(confirm, payment, hint, timeoutMs) -> Promise<status>`:
/// [`confirm_status`] for the browser's payment module, which leaves the
/// hook to this module (loaded by `ready()`, or when first needed).
#[cfg(feature = "web-extra")]
#[wasm_bindgen(js_name = __confirmStatus, skip_typescript)]
pub fn confirm_status_js(confirm: Function, payment: JsValue, hint: JsValue, timeout_ms: u32) -> Promise {
    super::task::promise(async move { confirm_status(&confirm, &payment, &hint, timeout_ms).await.map(|s| JsValue::from_str(s.as_str())) })
}
