//! What a run and its edge say to each other: the commands a run answers
//! ([`Cmd`]) and the inputs it is fed ([`Input`]), with their parts.

use super::wire::Timer;
use crate::error::PayError;
use crate::json::Json;
use crate::outcome::{Callback, PayResult};
use crate::prelude::*;

/// Where an event is listened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Document = 0,
    Window = 1,
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
/// a few words to build and to move, which the commands' many pushes and
/// matches repay (0.09 KB less gzipped on the payment module).
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

#[derive(Debug, PartialEq)]
pub enum Cmd<V> {
    Emit(&'static str, Detail<V>),
    Listen(Target, String),
    Unlisten(Target, String),
    SetTimer(Timer, u32),
    ClearTimer(Timer),
    /// Go to `url` (checked by the planner). Last of its batch.
    Navigate(String),
    /// Calls the wallet's bridge. Last of its batch.
    CallBridge(Box<BridgeCall>),
    /// Calls the mini-program API, the API as [`World::api_has`] finds it.
    /// Last of its batch.
    CallApi(Box<ApiCall>),
    /// `confirm(payment, hint)`, its answer awaited. Last of its batch.
    Confirm(Reported<V>),
    /// Where the build does not await `confirm` ([`CONFIRM_HERE`]): start
    /// loading the module that does, the wallet having been asked to pay.
    Preload,
    /// Where the build does not await `confirm`: the wallet's result and
    /// `confirmTimeoutMs`, for the full module to go on with
    /// ([`Run::confirming`]). This run ends with it; where that module
    /// does not load, the payment fails `confirm_failed` with the result.
    HandOff(Reported<V>, u32),
    /// The payment's result: reported as the event `result` (its detail),
    /// then the end.
    Done(Reported<V>),
    /// The payment failed: the error, the thrown value behind it, and the
    /// wallet's unverified result when the failure came after it.
    Fail(PayError, Option<V>, Option<Reported<V>>),
}

#[derive(Debug)]
pub enum Input<V> {
    /// The last command (navigation, call) returned.
    Returned,
    /// The last command threw this.
    Threw(V),
    /// A listened-for event fired.
    Event(String),
    Timer(Timer),
    /// A wallet callback: which one, its argument, and that argument as the
    /// result mapping reads it.
    Callback(Callback, V, Json),
    /// `confirm`'s answer settled: its text, when it was a string.
    Confirmed(Option<String>),
    /// `confirm`'s answer was rejected with this.
    ConfirmFailed(V),
}
