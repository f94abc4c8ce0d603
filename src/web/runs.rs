//! The full module's runs besides the payment: bridge waits
//! (`waitForBridge`), the card-network flow (`cardnetPay`), the
//! authentication client's calls, `verifyNotification` and `watchPayment`.
//! Each is a core state machine ([`crate::perform`]) performed by the one
//! shim driver (`www/lib/perform.js`, `drive`), in the protocol of
//! [`super::protocol`]: its start export answers `[run, ...commands]` (or
//! throws the `PayError` of a bad argument), and the module's one step
//! export, `__step(run, kind, value)`, feeds what happened. Every run is
//! kept in the module's one run table ([`super::table`]), payments
//! included, until the shim feeds `Release`.

use super::busy::InFlight;
use super::convert::{define, to_js};
use super::env;
use super::env::Text;
use super::protocol::{input_of, token, write, Encode, Page, REJECTED_REASON, SETTLED_VALUE};
use super::transport::Transport;
use crate::error::cat;
use crate::perform::verify::Sender;
use crate::perform::wire::{Feed, Op};
use crate::perform::{order_refusal, BridgeWait, CardnetRun, Cmd, Expect, Got, Hook, Input, NoticeRun, Out, Target, VerifyRun, WatchRun};
use crate::prelude::*;
use crate::verify::Config;
use alloc::rc::Rc;
use core::cell::Cell;
use js_sys::{Array, Function, Object};
use wasm_bindgen::prelude::*;

/// A run of the full module, with what its commands are written from.
pub enum Flow {
    Wait(BridgeWait),
    /// The run, the options `cardnetPay` was given, the payment slot.
    Cardnet(Box<CardnetRun<JsValue>>, JsValue, InFlight),
    /// The run, its client, and the `AbortController` of the request it
    /// awaits (`fetch`'s, where the runtime has one).
    Verify(Box<VerifyRun<JsValue>>, Rc<Client>, Rc<Cell<Option<JsValue>>>),
    /// The run and its `verify` hook (none: `verify: false`).
    Notice(NoticeRun, Option<Function>),
    /// `watchPayment`: the run, its options (`signal`) and `ask`.
    Watch(Box<WatchRun>, JsValue, Function),
}

impl Flow {
    /// What happened to run `id` (`kind` a [`Feed`]), its commands written
    /// to `out`.
    pub fn step(&mut self, id: u32, kind: u32, v: JsValue, out: &Array) {
        let none = JsValue::UNDEFINED;
        match self {
            Flow::Wait(w) => {
                if let Some(input) = input_of(kind, v) {
                    w.step_into(input, &Page(&none), &mut Encode(out, &none, &none));
                }
            }
            Flow::Cardnet(run, options, _) => {
                let input = match refusal_passed(kind, &v) {
                    Some((t, e)) => Some(Input::Settled(t, Got::Payment(Box::new(Err(e)), v))),
                    None => flow_input(kind, v, &|x| Got::Payment(Box::new(super::exports::payment_from(&x)), x)),
                };
                if let Some(input) = input {
                    run.step_into(input, &Page(options), &mut Writer { out, hooks: Hooks::Order(options) });
                }
            }
            Flow::Verify(run, inner, request) => {
                let expect = run.expects();
                let read = |x| match expect {
                    Expect::Text => text(x),
                    Expect::Flag => flag(x),
                    Expect::Answer => inner.transport.got(x),
                };
                if let Some(input) = flow_input(kind, v, &read) {
                    run.step_into(input, &**inner, &mut Writer { out, hooks: Hooks::Client(inner, request) });
                }
                // A request the run no longer awaits (its time-out passed, the
                // run ended) is aborted, not left open.
                if !run.sending() {
                    if let Some(c) = request.take() {
                        super::transport::abort(&c);
                    }
                }
            }
            Flow::Notice(run, f) => {
                if let (Some(input), Some(f)) = (flow_input(kind, v, &flag), f) {
                    run.step_into(input, &mut Writer { out, hooks: Hooks::Verify(f) });
                }
            }
            Flow::Watch(run, options, ask) => {
                if let Some(input) = flow_input(kind, v, &status) {
                    run.step_into(input, &mut Writer { out, hooks: Hooks::Watch(options, ask, id) });
                }
            }
        }
    }

    /// What the run holds: the ready event it waits on (a wait), whether it
    /// is a waiter, whether it is another run going on.
    pub fn counts(&self) -> (Option<&str>, usize, usize) {
        match self {
            Flow::Wait(w) => (w.waiting(), usize::from(w.waiting().is_some()), 0),
            _ => (None, 0, 1),
        }
    }
}

/// An input of a run that awaits calls: an awaited answer, `[token,
/// value]`, read as the run awaits it (`read`); any other kind as a
/// payment's (`Rejected` included, which reads the same for every run).
fn flow_input(kind: u32, v: JsValue, read: &dyn Fn(JsValue) -> Got<JsValue>) -> Option<Input<JsValue>> {
    if kind == Feed::Settled as u32 {
        return Some(Input::Settled(token(&v), read(env::get(&v, SETTLED_VALUE))));
    }
    input_of(kind, v)
}

/// `order`'s rejection with a `code` that `cardnetPay` passes through
/// ([`order_refusal`]): its token and the error, which the run takes as
/// its answer; `None` for any other input.
fn refusal_passed(kind: u32, v: &JsValue) -> Option<(u32, crate::error::PayError)> {
    if kind != Feed::Rejected as u32 {
        return None;
    }
    let reason = env::get(v, REJECTED_REASON);
    if !env::is_object(&reason) {
        return None;
    }
    let (code, message) = (env::get(&reason, "code").text(), env::get(&reason, "message").text());
    Some((token(v), order_refusal(code.as_deref(), message.as_deref())?))
}

/// An answer read as a string; otherwise its type.
fn text(x: JsValue) -> Got<JsValue> {
    Got::Text(x.text().ok_or_else(|| type_name(&x)))
}

/// `ask()`'s answer: the merchant's status, a string or an object's
/// `status`; otherwise what it was.
fn status(x: JsValue) -> Got<JsValue> {
    if let Some(s) = x.text() {
        return Got::Text(Ok(s));
    }
    let inner = if env::is_object(&x) { env::get(&x, "status") } else { JsValue::UNDEFINED };
    Got::Text(inner.text().ok_or_else(|| match env::is_object(&x) {
        true => cat!("an object whose status is ", &type_name(&inner)),
        false => type_name(&x),
    }))
}

/// An answer read as a boolean; otherwise its type.
fn flag(x: JsValue) -> Got<JsValue> {
    Got::Flag(x.as_bool().ok_or_else(|| type_name(&x)))
}

/// A value's type, for messages: `typeof`, or `null`.
pub fn type_name(v: &JsValue) -> String {
    if v.is_null() {
        return "null".into();
    }
    v.js_typeof().text().unwrap_or_default()
}

/// An authentication client's options, read once by its constructor
/// (`web/auth.rs`): what its runs' awaited calls are made of.
pub struct Client {
    pub config: Config,
    pub sign: Function,
    pub verify: Option<Function>,
    pub encrypt: Option<Function>,
    pub transport: Transport,
}

/// `params` as a plain object of strings, each an own data property
/// ([`define`]: a field named `__proto__` stays a field).
pub fn params_object(params: &[(String, String)]) -> JsValue {
    let o = Object::new();
    for (k, v) in params {
        define(&o, k, &JsValue::from_str(v));
    }
    o.into()
}

impl Sender<JsValue> for Client {
    fn can_send(&self) -> bool {
        self.transport.available()
    }
    fn describe(&self, v: &JsValue) -> String {
        super::transport::describe(v)
    }
}

/// What an awaited call is made of, by run.
pub enum Hooks<'a> {
    None,
    /// `cardnetPay`'s options (`order`).
    Order(&'a JsValue),
    /// The client's hooks and transport, and where the request's
    /// `AbortController` is kept.
    Client(&'a Client, &'a Cell<Option<JsValue>>),
    /// `verifyNotification`'s `verify`.
    Verify(&'a Function),
    /// `watchPayment`'s options (`signal`), its `ask` and the run's
    /// number, which keys its listener on the signal (each run its own).
    Watch(&'a JsValue, &'a Function, u32),
}

/// Writes a run's commands for the shim: an awaited call as its run makes
/// it, every other command as a payment's.
pub struct Writer<'a> {
    pub out: &'a Array,
    pub hooks: Hooks<'a>,
}

impl Out<JsValue> for Writer<'_> {
    fn push(&mut self, c: Cmd<JsValue>) {
        // A watch's listener on the `signal` option, keyed by its run.
        let Hooks::Watch(o, _, id) = self.hooks else { return self.push_other(c) };
        let (op, e) = match c {
            Cmd::Listen(Target::Signal, e) => (Op::Listen, e),
            Cmd::Unlisten(Target::Signal, e) => (Op::Unlisten, e),
            c => return self.push_other(c),
        };
        // No `to_string`: it would bring the formatting machinery into the module.
        let mut key = String::from("signal");
        crate::error::push_u64(&mut key, id as u64);
        let s = |x: &str| JsValue::from_str(x);
        write(self.out, op, s(&key), s(&e), env::get(o, "signal"), JsValue::UNDEFINED);
    }
}

impl Writer<'_> {
    /// A command other than a listener on the `signal` option.
    fn push_other(&mut self, c: Cmd<JsValue>) {
        let s = |x: &str| JsValue::from_str(x);
        let u = JsValue::UNDEFINED;
        let options = if let Hooks::Order(o) = self.hooks { o } else { &u };
        let Cmd::Await(token, hook) = c else {
            return Encode(self.out, &u, options).push(c);
        };
        let fun = |f: Option<&Function>| f.map_or(JsValue::UNDEFINED, |f| f.into());
        let (f, x, y) = match (&self.hooks, hook) {
            (_, Hook::Order(o)) => (env::get(options, "order"), s(&o.user_auth_code), to_js(&o.to_json())),
            (Hooks::Client(c, _), Hook::Encrypt(p)) => (fun(c.encrypt.as_ref()), s(&p.0), s(&p.1)),
            (Hooks::Client(c, _), Hook::Sign(params)) => (c.sign.clone().into(), params_object(&params), u),
            (Hooks::Client(c, _), Hook::Verify(p)) => (fun(c.verify.as_ref()), s(&p.0), s(&p.1)),
            (Hooks::Verify(f), Hook::Verify(p)) => ((*f).clone().into(), s(&p.0), s(&p.1)),
            (Hooks::Client(c, request), Hook::Send(req)) => {
                let (f, x, y, controller) = c.transport.call(&req);
                request.set(controller);
                (f, x, y)
            }
            (_, Hook::Body(r)) => (super::transport::body_call(&r), u.clone(), u),
            (Hooks::Watch(_, ask, _), Hook::Ask) => ((*ask).clone().into(), u.clone(), u),
            _ => (u.clone(), u.clone(), u),
        };
        write(self.out, Op::Await, f, x, y, JsValue::from_f64(token as f64));
    }
}
