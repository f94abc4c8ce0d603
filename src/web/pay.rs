//! `pay()`: plan, wait for what the action needs, perform it, report.
//!
//! Guards: one payment at a time (`busy`); a wallet callback counts once;
//! `wrong_runtime` at once when the action needs a wallet the page is not in
//! and its bridge is absent; a throwing bridge or hook reaches the caller as
//! a `PayError` whose `cause` is the thrown value; a throwing `onEvent` is
//! ignored.

use super::convert::{set, to_js};
use super::dom::{EventListener, EventTarget, Timeout};
use super::env;
use super::error::{from_thrown, to_js as err};
use super::events::{obj, Events};
#[cfg(feature = "web-tools")]
use super::hook::confirm_status;
use super::local::Local;
use super::slot::{fill, slot, SharedSlot, SlotFuture};
#[cfg(not(feature = "web-tools"))]
use super::wallet::not_here;
use super::wallet::{answer_of, bridge_call, no_callback, with_raw, Callbacks};
#[cfg(feature = "web-tools")]
use super::wallet::{mini_api, mini_call};
use crate::action::{Action, Options, Via};
use crate::error::{cat, Code, PayError};
use crate::json::Json;
#[cfg(feature = "web-tools")]
use crate::outcome::Callback;
use crate::outcome::{self, PayResult, Status};
use crate::prelude::*;
use crate::runtime::{Host, Runtime};
use alloc::rc::Rc;
use core::cell::Cell;
use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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
        let hint = with_raw(&result, &raw);
        let status = match apart(confirm_status(&confirm, &payment_js, &hint, opts.confirm_timeout_ms)).await {
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

/// `f` boxed, so that its code is a function of its own rather than part of
/// the payment's one large future. The `confirm` hook and the scheme URL's
/// fallback run only after the wallet is asked to pay, and only on some
/// payments: kept apart, they are not compiled before that call (V8
/// compiles each wasm function on its first call).
fn apart<'a, T>(f: impl core::future::Future<Output = T> + 'a) -> core::pin::Pin<Box<dyn core::future::Future<Output = T> + 'a>> {
    Box::pin(f)
}

/// The browser's payment module runs `confirm` in the full module, fetched
/// when first needed (`ready()` loads it ahead): what runs only after the
/// wallet has answered is not among the bytes a page needs before the
/// wallet call. The entry's shared state carries the function that loads
/// it and calls its `__confirmStatus`; a module that does not load is
/// `confirm_failed`, with the wallet's result kept as for any failing hook.
#[cfg(not(feature = "web-tools"))]
async fn confirm_status(confirm: &js_sys::Function, payment_js: &JsValue, hint: &JsValue, timeout_ms: u32) -> Result<Status, JsValue> {
    let failed = |why: &JsValue| from_thrown(Code::ConfirmFailed, Some("confirm"), "the confirm hook could not run", why);
    let shared = super::error::shared().unwrap_or(JsValue::UNDEFINED);
    let run = env::method(&shared, "confirm")
        .ok_or_else(|| failed(&JsValue::from_str("this page's entry does not load the module that runs it")))?;
    let args = js_sys::Array::of4(confirm, payment_js, hint, &JsValue::from_f64(timeout_ms as f64));
    let answered = run.apply(&JsValue::UNDEFINED, &args).map_err(|t| failed(&t))?;
    let s: SharedSlot<Result<JsValue, JsValue>> = slot();
    let (a, b) = (s.clone(), s.clone());
    let ok = super::dom::Callback::new(move |v| {
        fill(&a, Ok(v));
    });
    let no = super::dom::Callback::new(move |e| {
        fill(&b, Err(e));
    });
    let then = env::method(&answered, "then").ok_or_else(|| failed(&answered))?;
    then.call2(&answered, ok.function(), no.function()).map_err(|t| failed(&t))?;
    match SlotFuture(s).await {
        Ok(v) => Ok(Status::from_name(&v.as_string().unwrap_or_default()).unwrap_or(Status::Pending)),
        // The hook's own failure comes as it is; a module that did not load
        // is said so.
        Err(e) if js_code(&e).as_deref() == Some("confirm_failed") => Err(e),
        Err(e) => Err(failed(&e)),
    }
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
