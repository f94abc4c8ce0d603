//! The protocol between the wasm edges that run the core
//! ([`crate::perform`]: `pay()` in [`super::pay`]; `waitForBridge()`,
//! `cardnetPay()`, the authentication client, `verifyNotification()` and
//! `watchPayment()` in `web::runs`, the full module's) and the shim that performs (`www/lib/perform.js`).
//!
//! A run starts with `[run, ...commands]` and is fed with the module's one
//! step export, `__step(run, kind, value)` ([`super::table`]), which
//! answers the next commands. A command is
//! an array, its first element the operation ([`Op`]), then its values in
//! the order `perform::wire::FIELDS` names them ([`fn@write`]); an input's
//! kind is a [`Feed`]. All are declared once, in `perform/wire.rs`, from
//! which `www/lib/protocol.js` is generated:
//!
//! | command | the shim |
//! | --- | --- |
//! | `[Emit, type, detail]` | calls `onEvent({ type, at, detail })` |
//! | `[Listen, key, event, target]`, `[Unlisten, key, event]` | adds, removes a listener on `target` (`key`: 0 the document, 1 `globalThis`; a watch's `signal` option `"signal"` and its run's number, `web/runs.rs`) that feeds `[Event, event]` |
//! | `[SetTimer, timer, ms]`, `[ClearTimer, timer]` | sets (feeds `[Timer, timer]`), clears a timer |
//! | `[Navigate, location, url]` | `location.assign(url)` |
//! | `[CallBridge, bridge, method, op, params]` | `bridge[method](op, params, cb)`; `cb` feeds `[Success, v]` |
//! | `[CallApi, api, method, params, complete]` | `api[method](params)` with `success`, `fail` (and `complete`) feeding `[Success \| Fail \| Complete, v]` |
//! | `[Await, f, x, y, token]` | `f(x, y)` (`confirm(payment, hint)`, `order(code, detail)`, a client's hook, `transport(request)`, `fetch(url, init)`, `response.text()`), its settling fed as `[Settled, [token, v]]` or `[Rejected, [token, e, threw]]` |
//! | `[Resolve, value, event]`, `[Reject, error]` | reports `event` (when given) with the value as its detail, then resolves; rejects; the run's listeners and timers go |
//! | `[Explain, error]` (run 0, the payment module's bad input) | rejects with the error as the full module words it (`__explain`), or as it is where that module does not load |
//! | `[HandOff, hint, ms, error]` (the payment module, with `confirm`) | loads the full module and goes on there (`www/lib/flows.js` `__confirm`, which starts `__confirmStart(payment, options, hint, ms)`), this run ended after that one; where it does not load, ends the run and rejects with `error` (`confirm_failed`, `hint` its `result`), the load's error its `cause` |
//! | `[Preload]` (the payment module, with `confirm`) | starts loading the full module (a failure is `HandOff`'s) |
//!
//! A run that cannot start (busy, or bad input where it is worded)
//! answers run 0, kept nowhere, with `[Reject, error]`: the core's command
//! that ends it (`perform::busy`, `perform::refuse`). A bridge wait ends
//! with the core's `Found`, written `[Resolve, bridge]`.
//!
//! After `Navigate`, `CallBridge` and `CallApi` the shim feeds `[Returned]`
//! when the call returned and `[Threw, e]` when it threw. Having performed
//! `Resolve` or `Reject` it feeds `[Release]`: the edge lets the run go.
//! `Counts` is no step: `step(0, Counts)` answers what the module holds
//! (`__debugCounts`), its values named in `perform::wire::COUNTS`.

use super::convert::{from_js, member, set, to_js};
use super::env;
use super::env::Text;
use super::error::{build, thrown_into};
use crate::error::{Code, PayError};
use crate::event::EventType;
use crate::json::Json;
use crate::outcome::{Callback, PayResult};
use crate::perform::wire::{at, Feed, Op};
use crate::perform::{Cmd, Detail, Got, Hook, Input, Out, Reported, Target, Timer, World};
use crate::prelude::*;
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
        env::has_global("document")
    }
    fn visible(&self) -> bool {
        env::page_visible()
    }
    fn has_global(&self, name: &str) -> bool {
        env::has_global(name)
    }
    fn has_method(&self, name: &str, method: &str) -> bool {
        env::has_method(&env::global_get(name), method)
    }
    fn api_has(&self, global: &str, method: &str) -> bool {
        env::has_method(&self.api(global), method)
    }
    fn unnamed(&self) -> bool {
        let named =
            |k: &str| !matches!(js_sys::Reflect::get(self.0, &JsValue::from_str(k)), Ok(v) if env::kind(&v) == env::kind::UNDEFINED);
        !env::is_object(self.0) || !(named("api") || named("runtime"))
    }
}

/// What happened, as the shim feeds it (`kind`, a [`Feed`]), to the full
/// module's runs (`web/runs.rs`); `None` for a kind that is no input
/// (`Release`, `Counts`, an unknown number) or a timer no command set. A
/// wallet callback's answer is not read here: those runs call no wallet. A
/// payment's inputs go straight to its run's methods (`web/pay.rs`,
/// `Flight::step`), which read an answer only when it counts.
pub fn input_of(kind: u32, v: JsValue) -> Option<Input<JsValue>> {
    Some(match Feed::of(kind)? {
        Feed::Returned => Input::Returned,
        Feed::Threw => Input::Threw(v),
        Feed::Event => Input::Event(v.text().unwrap_or_default()),
        Feed::Timer => Input::Timer(timer_of(&v)?),
        f @ (Feed::Success | Feed::Fail | Feed::Complete) => Input::Callback(callback_of(f)?, v, Json::Null),
        f => return settled_of(f, v),
    })
}

/// An awaited call's settling (`Settled`, `Rejected`) as an input:
/// `confirm`'s answer, `[token, value]`, read as its text; or `[token,
/// reason, threw]`. `None` for any other feed, and in the browser's
/// payment module, which hands `confirm` over (perform::CONFIRM_HERE) and
/// is never fed one.
pub fn settled_of(f: Feed, v: JsValue) -> Option<Input<JsValue>> {
    Some(match f {
        _ if !crate::perform::CONFIRM_HERE => return None,
        Feed::Settled => Input::Settled(token(&v), Got::Text(env::get(&v, SETTLED_VALUE).text().ok_or_else(String::new))),
        Feed::Rejected => Input::Rejected(token(&v), env::get(&v, REJECTED_REASON), env::get(&v, REJECTED_THREW).is_truthy()),
        _ => return None,
    })
}

/// The timer a `[Timer, timer]` feed names; `None` for one no command set.
pub fn timer_of(v: &JsValue) -> Option<Timer> {
    Timer::of(env::num(v) as u32)
}

/// The wallet callback a feed `f` reports (`Success`, `Fail`,
/// `Complete`); `None` for any other, and for `Fail` and `Complete` where
/// the build makes no mini-program API call (perform::API_CALLS): the
/// browser's payment module's bridge calls back `Success` alone.
pub fn callback_of(f: Feed) -> Option<Callback> {
    match f {
        Feed::Success => Some(Callback::Success),
        _ if !crate::perform::API_CALLS => None,
        Feed::Fail => Some(Callback::Fail),
        Feed::Complete => Some(Callback::CompleteOnly),
        _ => None,
    }
}

/// Where an awaited call's answer is in its settling, and a rejection's
/// reason ([`crate::perform::wire::VALUES`]).
/// Constants, so that each is found when the crate is compiled.
pub const SETTLED_VALUE: &str = at(Feed::Settled, "value");
pub const REJECTED_REASON: &str = at(Feed::Rejected, "reason");
const REJECTED_THREW: &str = at(Feed::Rejected, "threw");
const TOKEN: &str = at(Feed::Settled, "token");
// One token place for both settlings: `token` reads either.
const _: () = assert!(TOKEN.as_bytes()[0] == at(Feed::Rejected, "token").as_bytes()[0]);

/// The token of an awaited call's settling, `[token, ...]`.
pub fn token(v: &JsValue) -> u32 {
    env::num(&env::get(v, TOKEN)) as u32
}

/// The commands written for the shim as a core answers them: `(out,
/// payment, options)`; a wait has neither (`undefined` for both). Each
/// command the core names ([`Out`]'s methods) is written here straight,
/// its values moved into what the shim is given (a wallet's value is
/// handed on, not copied); a [`Cmd`] pushed is written by the same method.
pub struct Encode<'a>(pub &'a Array, pub &'a JsValue, pub &'a JsValue);

fn s(x: &str) -> JsValue {
    JsValue::from_str(x)
}

fn n(x: u32) -> JsValue {
    JsValue::from_f64(x as f64)
}

const U: JsValue = JsValue::UNDEFINED;

impl Encode<'_> {
    /// One `put` a command: its operation and up to four arguments.
    #[inline(always)]
    fn put(&self, op: Op, a: JsValue, b: JsValue, c: JsValue, d: JsValue) {
        write(self.0, op, a, b, c, d)
    }
}

impl Out<JsValue> for Encode<'_> {
    fn push(&mut self, c: Cmd<JsValue>) {
        let options = self.2;
        let (op, a, b, c, d) = match c {
            Cmd::Emit(kind, detail) => return self.emit(kind, detail),
            Cmd::Listen(t, e) => return self.listen(t, &e),
            Cmd::Unlisten(t, e) => return self.unlisten(t, &e),
            Cmd::SetTimer(t, ms) => return self.set_timer(t, ms),
            Cmd::ClearTimer(t) => return self.clear_timer(t),
            Cmd::Navigate(url) => return self.navigate(&url),
            Cmd::CallBridge(c) => return self.call_bridge(&c.bridge, c.method, &c.op, c.params),
            // Never made by the browser's payment module (perform::API_CALLS).
            Cmd::CallApi(_) if !crate::perform::API_CALLS => return,
            Cmd::CallApi(c) => (Op::CallApi, Page(options).api(&c.global), s(c.method), to_js(&c.params), JsValue::from_bool(c.complete)),
            // Each made by one kind of build (perform::CONFIRM_HERE).
            Cmd::Await(..) if !crate::perform::CONFIRM_HERE => return,
            Cmd::Await(t, Hook::Confirm(r)) => (Op::Await, env::get(options, "confirm"), self.1.clone(), with_raw(&r.0, &r.1), n(t)),
            // The full module's other awaited calls, which its runs write
            // themselves (web/runs.rs).
            #[cfg(feature = "web-extra")]
            Cmd::Await(..) => return,
            #[cfg(feature = "web-extra")]
            Cmd::Resolve(j) => (Op::Resolve, to_js(&j), U, U, U),
            #[cfg(feature = "web-extra")]
            Cmd::Found(name) => (Op::Resolve, env::global_get(&name), U, U, U),
            Cmd::Explain(e) => return self.explain(e),
            #[cfg(feature = "web-extra")]
            Cmd::FailCaused(e, cause) => (Op::Reject, build(&e, &cause), U, U, U),
            Cmd::Preload => return self.preload(),
            Cmd::HandOff(r, ms) => {
                let (result, raw) = *r;
                return self.hand_off(result, raw, ms);
            }
            Cmd::Done(r) => {
                let (result, raw) = *r;
                return self.done(result, raw);
            }
            Cmd::Fail(e, cause, result) => return self.fail(e, cause, result),
        };
        self.put(op, a, b, c, d)
    }

    fn emit(&mut self, kind: EventType, detail: Detail<JsValue>) {
        let detail = match detail {
            Detail::None => U,
            Detail::Json(j) => to_js(&j),
            Detail::Value(v) => v,
        };
        self.put(Op::Emit, s(kind.as_str()), detail, U, U)
    }

    // The detail object as `emit` writes `Out::said`'s default (a tree of
    // one member, through `to_js`): its member written by `member`, as
    // `to_js` writes them. The runs behind a wrapper (web/runs.rs) take
    // that default, so the two must stay alike.
    fn said(&mut self, kind: EventType, key: &str, value: &str) {
        let detail: JsValue = js_sys::Object::new().into();
        member(&detail, key, &s(value));
        self.put(Op::Emit, s(kind.as_str()), detail, U, U)
    }

    fn listen(&mut self, t: Target, event: &str) {
        let target = match t {
            Target::Document => env::global_get("document"),
            Target::Window => env::global().into(),
            #[cfg(feature = "web-extra")]
            Target::Signal => env::get(self.2, "signal"),
        };
        self.put(Op::Listen, n(t as u32), s(event), target, U)
    }

    fn unlisten(&mut self, t: Target, event: &str) {
        self.put(Op::Unlisten, n(t as u32), s(event), U, U)
    }

    fn set_timer(&mut self, t: Timer, ms: u32) {
        self.put(Op::SetTimer, n(t as u32), n(ms), U, U)
    }

    fn clear_timer(&mut self, t: Timer) {
        self.put(Op::ClearTimer, n(t as u32), U, U, U)
    }

    fn navigate(&mut self, url: &str) {
        self.put(Op::Navigate, env::global_get("location"), s(url), U, U)
    }

    fn call_bridge(&mut self, bridge: &str, method: &'static str, op: &str, params: Json) {
        self.put(Op::CallBridge, env::global_get(bridge), s(method), s(op), to_js(&params))
    }

    fn preload(&mut self) {
        // Made by the builds that hand `confirm` over (perform::CONFIRM_HERE).
        if !crate::perform::CONFIRM_HERE {
            self.put(Op::Preload, U, U, U, U)
        }
    }

    fn hand_off(&mut self, result: PayResult, raw: Option<JsValue>, ms: u32) {
        if crate::perform::CONFIRM_HERE {
            return;
        }
        let hint = with_raw(&result, &raw);
        let e = build(
            &PayError::field(Code::ConfirmFailed, "confirm", "the confirm hook was not called: the module that calls it did not load"),
            &U,
        );
        set(&e, "result", &hint);
        self.put(Op::HandOff, hint, n(ms), e, U)
    }

    fn done(&mut self, result: PayResult, raw: Option<JsValue>) {
        self.put(Op::Resolve, with_raw(&result, &raw), s(EventType::RESULT.as_str()), U, U)
    }

    fn fail(&mut self, mut e: PayError, cause: Option<JsValue>, result: Option<Reported<JsValue>>) {
        // One path for every error of the core: a thrown cause's message
        // added to the error's own, then the error built with the cause.
        let cause = cause.map_or(U, |t| {
            thrown_into(&mut e, &t);
            t
        });
        let error = build(&e, &cause);
        // A result only after `confirm` failed, in the builds that
        // await it (perform::CONFIRM_HERE).
        if let Some(r) = result.filter(|_| crate::perform::CONFIRM_HERE) {
            set(&error, "result", &with_raw(&r.0, &r.1));
        }
        self.put(Op::Reject, error, U, U, U)
    }

    fn explain(&mut self, e: PayError) {
        self.put(Op::Explain, build(&e, &U), U, U, U)
    }
}

// The order in which [`Encode`] (above) and the full module's runs
// (`runs.rs`, `Await`) write each command's values, stated here and
// checked against the declaration when the crate is compiled: a
// declaration reordered without its writer fails the build.
const _: () = {
    use crate::perform::wire::written_as as w;
    assert!(w(Op::Emit, &["type", "detail"]));
    assert!(w(Op::Listen, &["key", "event", "target"]));
    assert!(w(Op::Unlisten, &["key", "event"]));
    assert!(w(Op::SetTimer, &["timer", "ms"]));
    assert!(w(Op::ClearTimer, &["timer"]));
    assert!(w(Op::Navigate, &["location", "url"]));
    assert!(w(Op::CallBridge, &["bridge", "method", "op", "params"]));
    assert!(w(Op::CallApi, &["api", "method", "params", "complete"]));
    assert!(w(Op::Await, &["f", "x", "y", "token"]));
    assert!(w(Op::Resolve, &["value", "event"]));
    assert!(w(Op::Reject, &["error"]));
    assert!(w(Op::Explain, &["error"]));
    assert!(w(Op::HandOff, &["hint", "ms", "error"]));
    assert!(w(Op::Preload, &[]));
};

// One import a command: `[op, a, b, c, d]` pushed onto the answer, its
// values handed over (none made, copied or dropped here).
#[wasm_bindgen(inline_js = "export function put(o,...c){o.push(c)}")]
extern "C" {
    fn put(out: &Array, op: u8, a: JsValue, b: JsValue, c: JsValue, d: JsValue);
}

/// A command as the shim reads it, `[op, a, b, c, d]`, pushed onto `out`:
/// its values in the order the wire declares for `op`
/// (`perform::wire::FIELDS`). Every command of every run is written here.
#[inline(always)]
pub fn write(out: &Array, op: Op, a: JsValue, b: JsValue, c: JsValue, d: JsValue) {
    put(out, op as u8, a, b, c, d)
}

/// The member `key` of the wallet's answer `raw`, as the result mapping
/// reads it: each member it names read alone, so that a wallet's code is
/// never lost to the rest of its answer (too big, cyclic, hostile); the
/// page gets the whole value as `raw`.
pub fn member_of(raw: &JsValue, key: &str) -> Option<Json> {
    from_js(&env::get(raw, key), Code::InvalidResponse, "result").ok()
}

/// `result` as the page sees it, with the wallet's own answer as `raw`:
/// the members [`PayResult::to_json`] names, in its order, written
/// straight onto the page's object (no tree built first to be converted).
fn with_raw(result: &PayResult, raw: &Option<JsValue>) -> JsValue {
    let out: JsValue = js_sys::Object::new().into();
    let s = |x: &str| JsValue::from_str(x);
    set(&out, "status", &s(result.status.as_str()));
    set(&out, "channel", &s(&result.channel));
    set(&out, "verified", &JsValue::from_bool(result.verified));
    if let Some(c) = &result.code {
        set(&out, "code", &s(c));
    }
    set(&out, "message", &s(&result.message));
    if let Some(raw) = raw.as_ref().filter(|r| env::kind(r) != env::kind::UNDEFINED) {
        set(&out, "raw", raw);
    }
    out
}
