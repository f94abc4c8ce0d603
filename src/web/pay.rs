//! `pay()`: plan, wait for what the action needs, perform it, report.
//!
//! Guards: one payment at a time (`busy`); a wallet callback counts once;
//! `wrong_runtime` at once when the action needs a wallet the page is not in
//! and its bridge is absent; a throwing bridge or hook reaches the caller as
//! a `PayError` whose `cause` is the thrown value; a throwing `onEvent` is
//! ignored.

use super::bridge::{fill, is_full, slot, wait_then, SharedSlot, SlotFuture};
use super::convert::{from_js, set, to_js};
use super::dom::{Callback as JsCallback, EventListener, EventTarget, Timeout};
use super::env;
use super::error::{from_thrown, to_js as err};
use super::local::Local;
use super::local::RefCell;
use crate::action::{Action, Options, Via};
use crate::error::{cat, Code, PayError};
use crate::json::Json;
use crate::outcome::{self, Callback, PayResult, Status};
use crate::prelude::*;
use crate::runtime::{Host, Runtime};
use alloc::rc::Rc;
use core::cell::Cell;
use js_sys::{Function, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// `Promise.resolve(v)`, catching what a hostile `v` throws.
    #[wasm_bindgen(catch, js_namespace = Promise, js_name = resolve)]
    fn resolve(v: &JsValue) -> Result<Promise, JsValue>;
}

type Callbacks = Vec<JsCallback>;

static BUSY: Local<Cell<bool>> = Local::new(Cell::new(false));

/// Clears the in-flight flag when the payment ends, however it ends.
pub(super) struct InFlight;

/// Claims the one payment slot for `export` (`pay`, `cardnetPay`): a
/// second payment while one is in flight is `busy`, so that a double tap
/// never pays or orders twice.
pub(super) fn claim(export: &str) -> Result<InFlight, JsValue> {
    if swap_busy(true) {
        let e =
            PayError::new(Code::Busy, cat(&[export, "() was called while another payment is still in flight; wait for its result first"]));
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
            let was = env::get(&s, "busy").is_truthy();
            set(&s, "busy", &JsValue::from_bool(now));
            was
        }
        None => BUSY.with(|b| b.replace(now)),
    }
}

/// `options.onEvent`, called safely.
#[derive(Clone)]
pub struct Events(Option<Function>);

impl Events {
    /// The `onEvent` member of the options (none: events go nowhere).
    pub fn from_options(options: &JsValue) -> Events {
        Events(env::method(options, "onEvent"))
    }

    pub fn emit(&self, kind: &str, detail: Option<&JsValue>) {
        let Some(f) = &self.0 else { return };
        let e = Object::new();
        set(&e, "type", &JsValue::from_str(kind));
        set(&e, "at", &JsValue::from_f64(env::now()));
        if let Some(d) = detail {
            set(&e, "detail", d);
        }
        // A throwing onEvent never breaks a payment.
        let _ = f.call1(&JsValue::UNDEFINED, &e);
    }

    /// Whether anyone listens: a detail that costs something to build is
    /// built only then.
    pub fn on(&self) -> bool {
        self.0.is_some()
    }

    /// [`Events::emit`] with a detail of string members, built only when
    /// someone listens.
    pub fn emit_pairs(&self, kind: &str, pairs: &[(&str, &str)]) {
        if self.on() {
            self.emit(kind, Some(&obj(pairs)));
        }
    }
}

pub(super) fn obj(pairs: &[(&str, &str)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        set(&o, k, &JsValue::from_str(v));
    }
    o.into()
}

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

/// `pay(payment, options?) -> Promise<PayResult>`.
#[wasm_bindgen(js_name = pay, skip_typescript)]
pub fn pay(payment: JsValue, options: JsValue) -> Promise {
    guarded("pay", run(payment, options))
}

async fn run(payment_js: JsValue, options_js: JsValue) -> Result<JsValue, JsValue> {
    let events = Events::from_options(&options_js);
    let (_, opts, runtime, plan) = super::exports::plan_js(&payment_js, &options_js).map_err(|e| err(&e))?;
    if events.on() {
        events.emit("planned", Some(&to_js(&plan.to_json())));
    }
    let channel = plan.channel.name();
    let mut callbacks: Callbacks = Vec::new();
    let done = perform(&plan.action, channel, &opts, runtime, &options_js, &events, &mut callbacks).await;
    // The wallet's callbacks do nothing from here on: a late or repeated
    // call is a no-op.
    drop(callbacks);
    let (mut result, raw) = match done {
        Ok(r) => r,
        Err(e) => {
            if let Some(code) = js_code(&e) {
                if code == "bridge_timeout" {
                    events.emit("timeout", None);
                }
            }
            return Err(e);
        }
    };
    if let Some(confirm) = env::method(&options_js, "confirm") {
        let status = match apart(confirm_status(&confirm, &payment_js, &result, &raw, opts.confirm_timeout_ms)).await {
            Ok(s) => s,
            Err(e) => {
                // The wallet's answer is not lost with the hook: the error
                // carries it, unverified, as `result`.
                set(&e, "result", &with_raw(&result, &raw));
                return Err(e);
            }
        };
        result.status = status;
        result.verified = true;
        result.message = "confirmed by the merchant's server".to_string();
    }
    let out = with_raw(&result, &raw);
    events.emit("result", Some(&out));
    Ok(out)
}

/// `result` as the page sees it, with the wallet's own answer as `raw`.
fn with_raw(result: &PayResult, raw: &JsValue) -> JsValue {
    let out = to_js(&result.to_json());
    if !raw.is_undefined() {
        set(&out, "raw", raw);
    }
    out
}

/// `f` boxed, so that its code is a function of its own rather than part of
/// the payment's one large future. The `confirm` hook and the scheme URL's
/// fallback run only after the wallet is asked to pay, and only on some
/// payments: kept apart, they are not compiled before that call (V8
/// compiles each wasm function on its first call).
fn apart<'a, T>(f: impl core::future::Future<Output = T> + 'a) -> core::pin::Pin<Box<dyn core::future::Future<Output = T> + 'a>> {
    Box::pin(f)
}

fn js_code(e: &JsValue) -> Option<String> {
    env::get(e, "code").as_string()
}

async fn perform(
    action: &Action,
    channel: &str,
    opts: &Options,
    runtime: Runtime,
    #[cfg_attr(not(feature = "web-tools"), allow(unused_variables))] options_js: &JsValue,
    events: &Events,
    cbs: &mut Callbacks,
) -> Result<(PayResult, JsValue), JsValue> {
    let profile = &opts.profile;
    match action {
        Action::Redirect { url } => {
            go(url, events)?;
            Ok((PayResult::new(Status::Redirected, channel, None), JsValue::UNDEFINED))
        }
        Action::OpenMiniProgram { url } => {
            go(url, events)?;
            Ok((PayResult::new(Status::Opened, channel, None), JsValue::UNDEFINED))
        }
        Action::OpenUrl { url, fallback_url } => {
            go(url, events)?;
            if let Some(ms) = opts.fallback_after_ms {
                if apart(still_visible_after(ms)).await {
                    go(fallback_url, events)?;
                    return Ok((PayResult::new(Status::Redirected, channel, None), JsValue::UNDEFINED));
                }
            }
            Ok((PayResult::new(Status::Opened, channel, None), JsValue::UNDEFINED))
        }
        Action::Wallet1TradePay { trade_no, via: Via::Bridge } => {
            let w = &profile.wallet1;
            let params = obj(&[("tradeNO", trade_no)]);
            let raw = match bridge_call(
                runtime,
                Host::Wallet1,
                &w.bridge,
                &w.ready_event,
                opts,
                "call",
                "tradePay",
                params,
                channel,
                events,
                cbs,
            )
            .await?
            {
                Some(raw) => raw,
                None => return Ok(no_callback(channel)),
            };
            let answer = answer_of(&raw);
            Ok((outcome::wallet1_result(profile, channel, &answer), raw))
        }
        Action::Wallet2BridgePay { params } => {
            let w = &profile.wallet2;
            let p = to_js(&Json::Obj(params.iter().map(|(k, v)| (k.to_string(), Json::Str(v.clone()))).collect()));
            let raw = match bridge_call(
                runtime,
                Host::Wallet2,
                &w.bridge,
                &w.ready_event,
                opts,
                "invoke",
                &w.pay_method,
                p,
                channel,
                events,
                cbs,
            )
            .await?
            {
                Some(raw) => raw,
                None => return Ok(no_callback(channel)),
            };
            let answer = answer_of(&raw);
            Ok((outcome::wallet2_bridge_result(channel, &answer), raw))
        }
        #[cfg(not(feature = "web-tools"))]
        Action::Wallet1TradePay { via: Via::MiniProgram, .. } => Err(not_here(channel, "tradePay")),
        #[cfg(not(feature = "web-tools"))]
        Action::Wallet2RequestPayment { .. } => Err(not_here(channel, "requestPayment")),
        #[cfg(feature = "web-tools")]
        Action::Wallet1TradePay { trade_no, via: Via::MiniProgram } => {
            let api = mini_api(options_js, &profile.wallet1.mini_program_global, "tradePay", channel)?;
            let req = obj(&[("tradeNO", trade_no)]);
            let Some((which, raw)) = mini_call(&api, "tradePay", req, false, opts.callback_timeout_ms, events, cbs).await? else {
                return Ok(no_callback(channel));
            };
            let answer = answer_of(&raw);
            let r = match which {
                Callback::Success => outcome::wallet1_result(profile, channel, &answer),
                _ => outcome::wallet1_fail(profile, channel, &answer),
            };
            Ok((r, raw))
        }
        #[cfg(feature = "web-tools")]
        Action::Wallet2RequestPayment { params } => {
            let api = mini_api(options_js, &profile.wallet2.mini_program_global, "requestPayment", channel)?;
            let req = to_js(&Json::Obj(params.iter().map(|(k, v)| (k.to_string(), Json::Str(v.clone()))).collect()));
            let Some((which, raw)) = mini_call(&api, "requestPayment", req, true, opts.callback_timeout_ms, events, cbs).await? else {
                return Ok(no_callback(channel));
            };
            let answer = answer_of(&raw);
            Ok((outcome::wallet2_mini_result(channel, which, &answer), raw))
        }
    }
}

/// The wallet's answer as the outcome reads it: the whole value, or, when it
/// cannot be read whole (too big, cyclic, hostile), the members the outcome
/// reads, so that a wallet's code is never lost to the rest of its answer.
fn answer_of(raw: &JsValue) -> Json {
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
fn no_callback(channel: &str) -> (PayResult, JsValue) {
    let mut r = PayResult::new(Status::Pending, channel, None);
    r.message =
        "no answer came from the wallet (the page came back without one, or callbackTimeoutMs passed); ask your server for the payment's state"
            .to_string();
    (r, JsValue::UNDEFINED)
}

pub(super) fn go(url: &str, events: &Events) -> Result<(), JsValue> {
    events.emit_pairs("navigating", &[("url", url)]);
    env::navigate(url).map_err(|t| from_thrown(Code::WrongRuntime, None, "the page could not navigate", &t))
}

/// After opening the wallet's scheme URL: true when the page stayed visible
/// for `ms` (the app did not open), false when it was hidden at any point.
async fn still_visible_after(ms: u32) -> bool {
    let hidden = Rc::new(Cell::new(!env::page_visible()));
    let doc = env::document();
    // `visibilitychange` fires on the document, `pagehide` and `blur` on the
    // window.
    let g: JsValue = env::global().into();
    let win: Option<EventTarget> = env::method(&g, "addEventListener").map(|_| g.unchecked_into());
    let watch = |target: &Option<EventTarget>, ev: &'static str| {
        let h = hidden.clone();
        target.as_ref().map(|t| {
            EventListener::new(t, ev, move |_| {
                if ev != "visibilitychange" || !env::page_visible() {
                    h.set(true)
                }
            })
        })
    };
    let _listeners = (watch(&doc, "visibilitychange"), watch(&win, "pagehide"), watch(&win, "blur"));
    sleep(ms).await;
    !hidden.get() && env::page_visible()
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

/// A wallet callback that counts once; later calls change nothing.
/// What the wallet answered: which callback and its argument; `None` when
/// the page came back from the wallet without one.
type Answer = Option<(Callback, JsValue)>;

fn once_callback(result: &SharedSlot<Answer>, which: Callback, events: &Events) -> JsCallback {
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
async fn bridge_call(
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
async fn await_callback(result: SharedSlot<Answer>, ms: u32) -> Answer {
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
fn not_here(channel: &str, method: &str) -> JsValue {
    let msg = cat(&[
        channel,
        " pays through the mini-program API's ",
        method,
        "(), which a browser page does not have: pay from the mini-program page with paybridge/miniprogram and { api }",
    ]);
    err(&PayError::field(Code::WrongRuntime, "api", msg))
}

#[cfg(feature = "web-tools")]
fn mini_api(options_js: &JsValue, global_name: &str, method: &str, channel: &str) -> Result<JsValue, JsValue> {
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
async fn mini_call(
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

/// Asks the merchant's `confirm(payment, result)` for the verified status.
async fn confirm_status(
    confirm: &Function,
    payment_js: &JsValue,
    result: &PayResult,
    raw: &JsValue,
    timeout_ms: u32,
) -> Result<Status, JsValue> {
    let hint = with_raw(result, raw);
    let answered = confirm
        .call2(&JsValue::UNDEFINED, payment_js, &hint)
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
