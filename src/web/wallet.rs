//! Calling a wallet and waiting for its answer: the JS bridge (after the
//! ready wait of `bridge.rs`), the mini-program payment API, which callback
//! counts (once), and how long an answer is waited for.

use super::bridge::wait_then;
use super::convert::{from_js, set, to_js};
use super::dom::{Callback as JsCallback, EventListener, Timeout};
use super::env;
use super::error::{from_thrown, to_js as err};
use super::events::Events;
use super::local::RefCell;
use super::slot::{fill, is_full, slot, SharedSlot, SlotFuture};
use crate::action::Options;
use crate::error::{cat, Code, PayError};
use crate::json::Json;
use crate::outcome::{Callback, PayResult, Status};
use crate::prelude::*;
use crate::runtime::{Host, Runtime};
use alloc::rc::Rc;
use core::cell::Cell;
use js_sys::Function;
use wasm_bindgen::prelude::*;

/// The wallet callbacks of a payment: no-ops once dropped.
pub(super) type Callbacks = Vec<JsCallback>;

/// The wallet's answer as the outcome reads it: the whole value, or, when it
/// cannot be read whole (too big, cyclic, hostile), the members the outcome
/// reads, so that a wallet's code is never lost to the rest of its answer.
pub(super) fn answer_of(raw: &JsValue) -> Json {
    from_js(raw, Code::InvalidResponse, "result").unwrap_or_else(|_| {
        let read = ["resultCode", "error", "errorMessage", "err_msg", "errMsg"];
        Json::Obj(
            read.iter()
                .filter_map(|k| match from_js(&env::get(raw, k), Code::InvalidResponse, "result") {
                    Ok(v) if !v.is_null() => Some((k.to_string(), v)),
                    _ => None,
                })
                .collect(),
        )
    })
}

/// The wallet's screen came and went without a callback: the payment may or
/// may not have gone through, so ask the server.
pub(super) fn no_callback(channel: &str) -> (PayResult, JsValue) {
    let mut r = PayResult::new(Status::Pending, channel, None);
    r.message =
        "no answer came from the wallet (the page came back without one, or callbackTimeoutMs passed); ask your server for the payment's state"
            .to_string();
    (r, JsValue::UNDEFINED)
}

/// A wallet callback that counts once; later calls change nothing.
/// What the wallet answered: which callback and its argument; `None` when
/// the page came back from the wallet without one.
type Answer = Option<(Callback, JsValue)>;

pub(super) fn once_callback(result: &SharedSlot<Answer>, which: Callback, events: &Events) -> JsCallback {
    let (result, events) = (result.clone(), events.clone());
    JsCallback::new(move |v: JsValue| {
        let first = match which {
            // `complete` counts only when neither success nor fail came.
            Callback::CompleteOnly => !is_full(&result) && fill(&result, Some((which, v.clone()))),
            _ => fill(&result, Some((which, v.clone()))),
        };
        events.emit(if first { "callback" } else { "callback_ignored" }, Some(&v));
    })
}

#[allow(clippy::too_many_arguments)]
pub(super) async fn bridge_call(
    runtime: Runtime,
    wallet: Host,
    bridge: &str,
    ready_event: &str,
    opts: &Options,
    method_name: &'static str,
    op: &str,
    params: JsValue,
    channel: &str,
    events: &Events,
    cbs: &mut Callbacks,
) -> Result<Option<JsValue>, JsValue> {
    if runtime.host != wallet && !env::is_object(&env::global_get(bridge)) {
        let msg = cat(&[
            channel,
            " pays through the ",
            wallet.as_str(),
            " app's JS bridge (",
            bridge,
            "), which is not on this page, and the runtime is ",
            runtime.host.as_str(),
            "; open this page inside the ",
            wallet.as_str(),
            " app",
        ]);
        return Err(err(&PayError::field(Code::WrongRuntime, "pay_channel", msg)));
    }
    events.emit_pairs("waiting", &[("bridge", bridge), ("event", ready_event)]);
    let result: SharedSlot<Answer> = slot();
    let cb = once_callback(&result, Callback::Success, events);
    let cb_fn: Function = cb.function().clone();
    cbs.push(cb);
    let (ev2, op2, bridge2) = (events.clone(), op.to_string(), bridge.to_string());
    let called = wait_then(bridge, ready_event, opts.timeout_ms, move |b| {
        ev2.emit_pairs("bridge_ready", &[("bridge", &bridge2)]);
        let Some(f) = env::method(&b, method_name) else {
            let msg = cat(&["the wallet bridge ", &bridge2, " has no ", method_name, " method"]);
            return Err(err(&PayError::new(Code::BridgeError, msg)));
        };
        ev2.emit_pairs("called", &[("method", &op2)]);
        f.call3(&b, &JsValue::from_str(&op2), &params, &cb_fn)
            .map(|_| ())
            .map_err(|t| from_thrown(Code::BridgeError, None, &cat(&["the wallet bridge threw on ", &op2]), &t))
    })
    .await
    .map_err(|e| err(&e))?;
    // A bridge that threw after calling back has answered: the answer counts.
    if !is_full(&result) {
        called?;
    }
    Ok(await_callback(result, opts.callback_timeout_ms).await.map(|(_, raw)| raw))
}

/// Waits for the wallet's callback. When the page is hidden (the wallet's
/// own screen) and then shown again with no callback, the wait ends after a
/// short grace period with `None` (reported as `pending`) rather than going
/// on forever; so does it after `ms` (`callbackTimeoutMs`), where there is
/// no page (a mini-program) or the wallet never answers.
pub(super) async fn await_callback(result: SharedSlot<Answer>, ms: u32) -> Answer {
    let r = result.clone();
    let _limit = Timeout::new(ms, move || {
        fill(&r, None);
    });
    let grace: Rc<RefCell<Option<Timeout>>> = Rc::new(RefCell::new(None));
    let _listener = env::document().map(|doc| {
        let (result, grace) = (result.clone(), grace.clone());
        let was_hidden = Rc::new(Cell::new(false));
        EventListener::new(&doc, "visibilitychange", move |_| {
            if !env::page_visible() {
                was_hidden.set(true);
                grace.borrow_mut().take();
            } else if was_hidden.get() && !is_full(&result) {
                let r = result.clone();
                *grace.borrow_mut() = Some(Timeout::new(RETURN_GRACE_MS, move || {
                    fill(&r, None);
                }));
            }
        })
    });
    let r = SlotFuture(result).await;
    grace.borrow_mut().take();
    r
}

/// How long after the page is shown again a missing callback counts as none.
const RETURN_GRACE_MS: u32 = 1500;

/// The browser's payment module has no mini-program calls: a mini-program
/// page pays through `paybridge/miniprogram`.
#[cfg(not(feature = "web-tools"))]
pub(super) fn not_here(channel: &str, method: &str) -> JsValue {
    let msg = cat(&[
        channel,
        " pays through the mini-program API's ",
        method,
        "(), which a browser page does not have: pay from the mini-program page with paybridge/miniprogram and { api }",
    ]);
    err(&PayError::field(Code::WrongRuntime, "api", msg))
}

#[cfg(feature = "web-tools")]
pub(super) fn mini_api(options_js: &JsValue, global_name: &str, method: &str, channel: &str) -> Result<JsValue, JsValue> {
    let given = env::get(options_js, "api");
    let api = if env::is_object(&given) { given } else { env::global_get(global_name) };
    if env::method(&api, method).is_none() {
        let msg = cat(&[
            channel,
            " pays through the mini-program API's ",
            method,
            "(), and none was given: call pay() from a mini-program page with { api } (its global API object)",
        ]);
        return Err(err(&PayError::field(Code::WrongRuntime, "api", msg)));
    }
    Ok(api)
}

#[cfg(feature = "web-tools")]
pub(super) async fn mini_call(
    api: &JsValue,
    method: &str,
    req: JsValue,
    with_complete: bool,
    answer_ms: u32,
    events: &Events,
    cbs: &mut Callbacks,
) -> Result<Option<(Callback, JsValue)>, JsValue> {
    let result: SharedSlot<Answer> = slot();
    let mut names = vec![("success", Callback::Success), ("fail", Callback::Fail)];
    if with_complete {
        names.push(("complete", Callback::CompleteOnly));
    }
    for (name, which) in names {
        let cb = once_callback(&result, which, events);
        set(&req, name, cb.function());
        cbs.push(cb);
    }
    events.emit_pairs("called", &[("method", method)]);
    let f =
        env::method(api, method).ok_or_else(|| err(&PayError::new(Code::WrongRuntime, "the mini-program API lost its payment method")))?;
    let called = f.call1(api, &req);
    // An API that threw after calling back has answered: the answer counts.
    if !is_full(&result) {
        called.map_err(|t| from_thrown(Code::BridgeError, None, &cat(&["the mini-program API threw on ", method]), &t))?;
    }
    Ok(await_callback(result, answer_ms).await)
}

/// `result` as the page sees it, with the wallet's own answer as `raw`.
pub(super) fn with_raw(result: &PayResult, raw: &JsValue) -> JsValue {
    let out = to_js(&result.to_json());
    if !raw.is_undefined() {
        set(&out, "raw", raw);
    }
    out
}
