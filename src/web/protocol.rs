//! The protocol between the wasm edges that run the core
//! ([`crate::perform`]: `pay()` in [`super::pay`], `waitForBridge()` in
//! `wait.rs`) and the shim that performs (`www/lib/perform.js`).
//!
//! A run starts with `[run, ...commands]` and is fed with
//! `step(run, kind, value)`, which answers the next commands. A command is
//! an array, its first element the operation:
//!
//! | op | command | the shim |
//! | --- | --- | --- |
//! | 0 | `[0, type, detail]` | calls `onEvent({ type, at, detail })` |
//! | 1, 2 | `[1, t, event, target]`, `[2, t, event]` | adds, removes a listener on `target` (`t`: 0 the document, 1 `globalThis`) that feeds `[2, event]` |
//! | 3, 4 | `[3, id, ms]`, `[4, id]` | sets (feeds `[3, id]`), clears a timer |
//! | 5 | `[5, location, url]` | `location.assign(url)` |
//! | 6 | `[6, bridge, method, op, params]` | `bridge[method](op, params, cb)`; `cb` feeds `[4, v]` |
//! | 7 | `[7, api, method, params, complete]` | `api[method](params)` with `success`, `fail` (and `complete`) feeding `[4 \| 5 \| 6, v]` |
//! | 8 | `[8, confirm, payment, hint]` | `confirm(payment, hint)`, its settling fed as `[7, v]` or `[8, e]` |
//! | 9, 10 | `[9, result, event]`, `[10, error]` | reports `event` (when given) with the result as its detail, then resolves; rejects; the run's listeners and timers go |
//! | 11 | `[11, error]` (run 0, the payment module's bad input) | rejects with the error as the full module words it (`__explain`), or as it is where that module does not load |
//! | 12 | `[12, hint, ms, error]` (the payment module, with `confirm`) | loads the full module and goes on there with `__confirmStart(payment, options, hint, ms)`, this run ended after that one; where it does not load, ends the run and rejects with `error` (`confirm_failed`, `hint` its `result`), the load's error its `cause` |
//! | 13 | `[13]` (the payment module, with `confirm`) | starts loading the full module (a failure is 12's) |
//!
//! A payment that cannot start (busy, or bad input where it is worded)
//! answers run 0 with `[10, error]`.
//!
//! After 5, 6 and 7 the shim feeds `[0]` when the call returned and `[1, e]`
//! when it threw (and after 8 only `[1, e]`, when `confirm` threw). Having
//! performed 9 or 10 it feeds `[9]`: the edge lets the run go. Kind 10 is
//! no step: `step(0, 10)` answers what the module holds (`__debugCounts`).

use super::convert::{from_js, set, to_js};
use super::env;
use super::env::Text;
use super::error::{from_thrown, to_js as err};
use super::local::Local;
use crate::error::{Code, PayError};
use crate::json::Json;
use crate::outcome::{Callback, PayResult};
use crate::perform::{Cmd, Detail, Input, Out, Target, Timer, World};
use crate::prelude::*;
use core::cell::Cell;
use js_sys::Array;
use wasm_bindgen::prelude::*;

/// The platform as the core asks about it.
pub struct Page<'a>(pub &'a JsValue);

impl Page<'_> {
    fn api(&self, global: &str) -> JsValue {
        let given = env::get(self.0, "api");
        if env::is_object(&given) {
            given
        } else {
            env::global_get(global)
        }
    }
}

impl World for Page<'_> {
    fn has_document(&self) -> bool {
        env::is_object(&env::global_get("document"))
    }
    fn visible(&self) -> bool {
        env::page_visible()
    }
    fn has_global(&self, name: &str) -> bool {
        env::is_object(&env::global_get(name))
    }
    fn has_method(&self, name: &str, method: &str) -> bool {
        env::method(&env::global_get(name), method).is_some()
    }
    fn api_has(&self, global: &str, method: &str) -> bool {
        env::method(&self.api(global), method).is_some()
    }
}

/// The answer to a start: a new run number from `counter` (payments and
/// waits each number their own), first of the array the commands follow.
pub fn started(counter: &Local<Cell<u32>>) -> (u32, Array) {
    let id = counter.with(|n| {
        n.set(n.get().wrapping_add(1));
        n.get()
    });
    let out = Array::new();
    out.push(&JsValue::from_f64(id as f64));
    (id, out)
}

/// What happened, as the shim feeds it (`kind`, see the table above). A
/// wallet callback's answer is read only when `answer` (the run takes it,
/// [`crate::perform::Run::takes_answer`]): one that would not count is
/// neither read nor kept (no memory a callback, however many the wallet
/// makes; `src/bump/`).
pub fn input_of(kind: u32, v: JsValue, answer: bool) -> Input<JsValue> {
    match kind {
        0 => Input::Returned,
        1 => Input::Threw(v),
        2 => Input::Event(v.text().unwrap_or_default()),
        3 => Input::Timer(match env::num(&v) as u32 {
            0 => Timer::Ready,
            1 => Timer::Answer,
            2 => Timer::Grace,
            3 => Timer::Fallback,
            _ => Timer::Confirm,
        }),
        4..=6 => {
            let which = [Callback::Success, Callback::Fail, Callback::CompleteOnly][kind as usize - 4];
            let answer = if answer { answer_of(&v) } else { Json::Null };
            Input::Callback(which, v, answer)
        }
        // Never fed to the browser's payment module, which hands `confirm`
        // over (perform::CONFIRM_HERE).
        7 if crate::perform::CONFIRM_HERE => Input::Confirmed(v.text()),
        _ => Input::ConfirmFailed(v),
    }
}

/// The commands written for the shim as a core answers them: `(out,
/// payment, options)`; a wait has neither (`undefined` for both).
pub struct Encode<'a>(pub &'a Array, pub &'a JsValue, pub &'a JsValue);

impl Out<JsValue> for Encode<'_> {
    fn push(&mut self, c: Cmd<JsValue>) {
        self.0.push(&command(&c, self.1, self.2));
    }
}

/// One command as the shim performs it. Read by reference: its writer then
/// drops it in one place, where consuming it here cost a drop of every
/// kind of command at every call site (0.2 KB more gzipped on the payment
/// module, when the commands were collected in a `Vec` first).
pub fn command(c: &Cmd<JsValue>, payment: &JsValue, options: &JsValue) -> JsValue {
    let n = |x: u32| JsValue::from_f64(x as f64);
    let s = |x: &str| JsValue::from_str(x);
    let u = || JsValue::UNDEFINED;
    // One `Array.of` a command: its operation and up to four arguments.
    let (op, a, b, c, d) = match c {
        Cmd::Emit(kind, detail) => {
            let detail = match detail {
                Detail::None => u(),
                Detail::Json(j) => to_js(j),
                Detail::Value(v) => v.clone(),
            };
            (0, s(kind), detail, u(), u())
        }
        Cmd::Listen(t, e) => {
            let target = match t {
                Target::Document => env::global_get("document"),
                Target::Window => env::global().into(),
            };
            (1, n(*t as u32), s(e), target, u())
        }
        Cmd::Unlisten(t, e) => (2, n(*t as u32), s(e), u(), u()),
        Cmd::SetTimer(t, ms) => (3, n(*t as u32), n(*ms), u(), u()),
        Cmd::ClearTimer(t) => (4, n(*t as u32), u(), u(), u()),
        Cmd::Navigate(url) => (5, env::global_get("location"), s(url), u(), u()),
        Cmd::CallBridge(c) => (6, env::global_get(&c.bridge), s(c.method), s(&c.op), to_js(&c.params)),
        // Never made by the browser's payment module (perform::API_CALLS).
        Cmd::CallApi(_) if !crate::perform::API_CALLS => return JsValue::UNDEFINED,
        Cmd::CallApi(c) => (7, Page(options).api(&c.global), s(c.method), to_js(&c.params), JsValue::from_bool(c.complete)),
        // Each made by one kind of build (perform::CONFIRM_HERE).
        Cmd::Confirm(_) if !crate::perform::CONFIRM_HERE => return JsValue::UNDEFINED,
        Cmd::Preload | Cmd::HandOff(..) if crate::perform::CONFIRM_HERE => return JsValue::UNDEFINED,
        Cmd::Confirm(r) => (8, env::get(options, "confirm"), payment.clone(), with_raw(r), u()),
        Cmd::Preload => (13, u(), u(), u(), u()),
        Cmd::HandOff(r, ms) => {
            let hint = with_raw(r);
            let e = err(&PayError::field(
                Code::ConfirmFailed,
                "confirm",
                "the confirm hook was not called: the module that calls it did not load",
            ));
            set(&e, "result", &hint);
            (12, hint, n(*ms), e, u())
        }
        Cmd::Done(r) => (9, with_raw(r), s("result"), u(), u()),
        Cmd::Fail(e, cause, result) => {
            let error = match cause {
                Some(t) => from_thrown(e.code, e.field.as_deref(), &e.message, t),
                None => err(e),
            };
            if let Some(r) = result {
                set(&error, "result", &with_raw(r));
            }
            (10, error, u(), u(), u())
        }
    };
    Array::of5(&n(op), &a, &b, &c, &d).into()
}

/// The wallet's answer as the outcome reads it: the members it reads, each
/// read alone, so that a wallet's code is never lost to the rest of its
/// answer (too big, cyclic, hostile); the page gets the whole value as
/// `raw`.
fn answer_of(raw: &JsValue) -> Json {
    let mut read = Vec::new();
    for &k in ["resultCode", "error", "errorMessage", "err_msg", "errMsg"].iter() {
        if let Ok(v) = from_js(&env::get(raw, k), Code::InvalidResponse, "result") {
            if !v.is_null() {
                Json::put(&mut read, k, v);
            }
        }
    }
    Json::Obj(read)
}

/// `result` as the page sees it, with the wallet's own answer as `raw`.
fn with_raw((result, raw): &(PayResult, Option<JsValue>)) -> JsValue {
    let out = to_js(&result.to_json());
    if let Some(raw) = raw.as_ref().filter(|r| env::kind(r) != env::kind::UNDEFINED) {
        set(&out, "raw", raw);
    }
    out
}
