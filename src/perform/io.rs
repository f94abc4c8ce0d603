//! What a run and its edge say to each other: the commands a run answers
//! ([`Cmd`]) and the inputs it is fed ([`Input`]), with their parts. Every
//! flow speaks this one vocabulary: a payment ([`super::Run`]), a bridge
//! wait ([`super::BridgeWait`]), the card-network flow
//! ([`super::CardnetRun`]), a call of the authentication client
//! ([`super::VerifyRun`]), a notification's check ([`super::NoticeRun`])
//! and a watch of a payment ([`super::WatchRun`]).

use super::wire::Timer;
use crate::error::PayError;
use crate::event::EventType;
use crate::json::Json;
use crate::outcome::{Callback, PayResult};
use crate::prelude::*;

/// Where an event is listened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Document = 0,
    Window = 1,
    /// The `signal` option of `watchPayment` (an `AbortSignal`).
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Signal = 2,
}

/// What an event reports besides its type.
#[derive(Debug, PartialEq)]
pub enum Detail<V> {
    None,
    Json(Json),
    /// The value a wallet callback was called with.
    Value(V),
}

/// A result as a command reports it: the payment's result and the wallet's
/// own answer (`raw`). Boxed, as are a call's fields: every command is then
/// a few words to build and to move where it is built as a [`Cmd`] (the
/// host tests, the runs behind a wrapper of [`Out`], the commands `Out`
/// names no method for). The browser's payment module builds none: its
/// runs write through the wasm encoder alone, which writes `Out`'s methods
/// straight.
pub type Reported<V> = Box<(PayResult, Option<V>)>;

/// `globalThis[bridge][method](op, params, callback)`.
#[derive(Debug, PartialEq)]
pub struct BridgeCall {
    pub bridge: String,
    pub method: &'static str,
    pub op: String,
    pub params: Json,
}

/// `api[method]({ ...params, success, fail, complete? })`.
#[derive(Debug, PartialEq)]
pub struct ApiCall {
    pub global: String,
    pub method: &'static str,
    pub params: Json,
    pub complete: bool,
}

/// A command of a run, as [`Out::push`] takes it. Its variant is a tag byte
/// of its own (`repr(u8)`), not a value hidden in a field's unused range:
/// where commands are built as `Cmd`s (the host tests, the runs behind a
/// wrapper of [`Out`], the commands `Out` names no method for) they are
/// made at every step and matched where they are written, and a plain tag
/// is one store and one load, where a field's range is compared at every
/// read.
#[derive(Debug, PartialEq)]
#[repr(u8)]
pub enum Cmd<V> {
    Emit(EventType, Detail<V>),
    Listen(Target, String),
    Unlisten(Target, String),
    SetTimer(Timer, u32),
    ClearTimer(Timer),
    /// Go to `url` (checked by the planner). Last of its batch.
    Navigate(String),
    /// Calls the wallet's bridge. Last of its batch.
    CallBridge(Box<BridgeCall>),
    /// Calls the mini-program API, the API as [`super::World::api_has`] finds it.
    /// Last of its batch.
    CallApi(Box<ApiCall>),
    /// Calls `hook` and awaits its answer (a value or a promise), which
    /// comes back as [`Input::Settled`] or [`Input::Rejected`] with this
    /// token; a settling whose token is not the one awaited is late and
    /// changes nothing. The time-out is a [`Cmd::SetTimer`] of
    /// [`Timer::Await`] before it. Last of its batch.
    Await(u32, Hook<V>),
    /// Where the build does not await `confirm` ([`super::CONFIRM_HERE`]): start
    /// loading the module that does, the wallet having been asked to pay.
    Preload,
    /// Where the build does not await `confirm`: the wallet's result and
    /// `confirmTimeoutMs`, for the full module to go on with
    /// ([`super::Run::confirming`]). This run ends with it; where that module
    /// does not load, the payment fails `confirm_failed` with the result.
    HandOff(Reported<V>, u32),
    /// The payment's result: reported as the event `result` (its detail),
    /// then the end.
    Done(Reported<V>),
    /// The payment failed: the error, the thrown value behind it, and the
    /// wallet's unverified result when the failure came after it.
    Fail(PayError, Option<V>, Option<Reported<V>>),
    /// A payment refused before it starts for an input it does not word
    /// (`crate::error::WORDED`): the module that words it is asked to,
    /// then the run ends rejecting with it.
    Explain(PayError),
    /// The run's answer, with no event: the authentication client's
    /// outcome, a notification's check, a watch's result.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Resolve(Json),
    /// The run's answer, with no event: the global the bridge wait found
    /// (`waitForBridge`), named.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Found(String),
    /// The run failed: the error, worded whole, and the value behind it as
    /// its cause (not read into the message, as [`Cmd::Fail`]'s is).
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    FailCaused(PayError, V),
}

/// What an [`Cmd::Await`] calls. Only `Confirm` is in the browser's
/// payment module; the others are the full module's flows.
#[derive(Debug, PartialEq)]
pub enum Hook<V> {
    /// `confirm(payment, result)`.
    Confirm(Reported<V>),
    /// `order(userAuthCode, { userAuthCode, expiresAt })`.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Order(Box<crate::authorize::CardnetOrder>),
    /// `encrypt(field, value)`.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Encrypt(Box<(String, String)>),
    /// `sign(params)`.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Sign(Vec<(String, String)>),
    /// `verify(data, signature)`.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Verify(Box<(String, String)>),
    /// The request: `transport(request)`, or `fetch(url, init)`.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Send(Box<crate::verify::Request>),
    /// The body of what `fetch` answered: `response.text()`.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Body(V),
    /// `watchPayment`'s `ask()`: the merchant's status of the payment.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Ask,
}

/// An awaited answer, as the edge reads it for the run (a payment's
/// `confirm`: text; `order`: the payment; a client's call: as
/// `VerifyRun::expects` says (the full module)).
#[derive(Debug)]
pub enum Got<V> {
    /// A string; otherwise the answer's type (`number`, `null`, ...).
    Text(core::result::Result<String, String>),
    /// A boolean; otherwise the answer's type.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Flag(core::result::Result<bool, String>),
    /// The payment `order` answered, decoded, and the answer itself.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Payment(Box<core::result::Result<crate::payment::Payment, PayError>>, V),
    /// What a `transport` answered, `{ status, body }`, read.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Answer(core::result::Result<(u16, String), PayError>),
    /// What `fetch` answered: its status, and the response whose body is
    /// read next; an error when it is no response.
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
    Response(core::result::Result<u16, PayError>, V),
    /// The modules without the full module's flows read text alone.
    #[cfg(all(target_arch = "wasm32", not(feature = "web-extra")))]
    Never(core::convert::Infallible, core::marker::PhantomData<V>),
}

/// What a client's call awaits, so that the edge reads the answer as
/// [`Got`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// [`Got::Text`].
    Text,
    /// `Got::Flag` (the full module's).
    Flag,
    /// `Got::Answer` (a `transport`) or `Got::Response` (`fetch`), the full module's.
    Answer,
}

/// What happened to a run; its variant a tag byte of its own, as
/// [`Cmd`]'s.
#[derive(Debug)]
#[repr(u8)]
pub enum Input<V> {
    /// The last command (navigation, call) returned.
    Returned,
    /// The last command threw this.
    Threw(V),
    /// A listened-for event fired.
    Event(String),
    Timer(Timer),
    /// A wallet callback: which one, its argument, and that argument's
    /// members as the result mapping reads them, each by its name.
    Callback(Callback, V, Json),
    /// An awaited call's answer, with the token of its [`Cmd::Await`].
    Settled(u32, Got<V>),
    /// An awaited call failed: its token, the reason, and whether the call
    /// threw (rather than its promise rejecting).
    Rejected(u32, V, bool),
}

/// Where the core's commands go, in order: a `Vec` (the host tests) or the
/// wasm edges' encoder (`web/protocol.rs`), which writes each one for the
/// shim as it comes (no vector of commands to build, walk and drop).
///
/// The commands a payment makes in the browser's payment module are named
/// once here, as methods: each one's default builds its [`Cmd`] and pushes
/// it, so that the host tests, the full module's wrappers and every
/// recorder see the `Cmd`s; the wasm encoder writes each straight for the
/// shim, no `Cmd` built, matched or dropped. The commands only the other
/// builds make (`CallApi`, `Await`, and the full module's `Resolve`,
/// `Found`, `FailCaused`) are pushed as `Cmd`s. A wrapper of another `Out`
/// overrides `push` alone, so that every command reaches it as a `Cmd`
/// (`WithRaw` in `cardnet.rs`, `Writer` in `web/runs.rs`).
pub trait Out<V> {
    fn push(&mut self, c: Cmd<V>);

    /// [`Cmd::Emit`].
    fn emit(&mut self, kind: EventType, detail: Detail<V>) {
        self.push(Cmd::Emit(kind, detail))
    }

    /// The event `kind` with one string member as its detail, `{ key: value }`.
    /// (The wasm encoder writes that object itself, alike: `web/protocol.rs`.)
    fn said(&mut self, kind: EventType, key: &str, value: &str) {
        let mut m = Vec::new();
        Json::put_str(&mut m, key, value);
        self.emit(kind, Detail::Json(Json::Obj(crate::json::list(m))))
    }

    /// [`Cmd::Listen`]: listening for `event` on `t`.
    fn listen(&mut self, t: Target, event: &str) {
        self.push(Cmd::Listen(t, event.to_string()))
    }

    /// [`Cmd::Unlisten`]: no longer listening for `event` on `t`.
    fn unlisten(&mut self, t: Target, event: &str) {
        self.push(Cmd::Unlisten(t, event.to_string()))
    }

    /// [`Cmd::SetTimer`].
    fn set_timer(&mut self, t: Timer, ms: u32) {
        self.push(Cmd::SetTimer(t, ms))
    }

    /// [`Cmd::ClearTimer`].
    fn clear_timer(&mut self, t: Timer) {
        self.push(Cmd::ClearTimer(t))
    }

    /// [`Cmd::Navigate`] to `url`.
    fn navigate(&mut self, url: &str) {
        self.push(Cmd::Navigate(url.to_string()))
    }

    /// [`Cmd::CallBridge`]: `globalThis[bridge][method](op, params, callback)`.
    fn call_bridge(&mut self, bridge: &str, method: &'static str, op: &str, params: Json) {
        self.push(Cmd::CallBridge(Box::new(BridgeCall { bridge: bridge.to_string(), method, op: op.to_string(), params })))
    }

    /// [`Cmd::Preload`].
    fn preload(&mut self) {
        self.push(Cmd::Preload)
    }

    /// [`Cmd::HandOff`] of the wallet's result, `confirm` awaited for `ms`.
    fn hand_off(&mut self, result: PayResult, raw: Option<V>, ms: u32) {
        self.push(Cmd::HandOff(Box::new((result, raw)), ms))
    }

    /// [`Cmd::Done`] with the payment's result.
    fn done(&mut self, result: PayResult, raw: Option<V>) {
        self.push(Cmd::Done(Box::new((result, raw))))
    }

    /// [`Cmd::Fail`].
    fn fail(&mut self, e: PayError, cause: Option<V>, result: Option<Reported<V>>) {
        self.push(Cmd::Fail(e, cause, result))
    }

    /// [`Cmd::Explain`].
    fn explain(&mut self, e: PayError) {
        self.push(Cmd::Explain(e))
    }
}

impl<V> Out<V> for Vec<Cmd<V>> {
    fn push(&mut self, c: Cmd<V>) {
        Vec::push(self, c)
    }
}
