//! A payment performed, sans-IO: every decision after planning, as a state
//! machine that the edge feeds with what happened and that answers with
//! what to do next.
//!
//! The core never touches the platform. It reads facts through [`World`]
//! (is the bridge there, is the page visible) and answers each [`Input`]
//! with commands, written through [`Out`] (its methods, or [`Cmd`]s
//! pushed): listen for an event, set a timer, call the bridge or the
//! mini-program API, navigate, report an event, end. The package's shim
//! (`www/lib/perform.js`) performs them; the wasm edge steps the run
//! (`web/pay.rs`), its commands written and inputs read by `web/protocol.rs`. Host tests drive it with a fake world.
//!
//! Protocol: a command that can fail or answer later (`Navigate`,
//! `CallBridge`, `CallApi`, `Await`) is the last of its batch, and its
//! outcome comes back as the next input: `Returned` or `Threw` (a call's
//! callbacks may come before that, while the call runs), and for `Await`
//! `Settled` or `Rejected` with the command's token. `Done` and `Fail` end the run: the shim then
//! drops every listener and timer the run still holds, and later inputs of
//! that run are ignored. `HandOff` ends it too, the payment going on in
//! another module's run ([`Run::confirming`]).
//!
//! The rules kept here (`pay` and `waitForBridge` in `www/lib/index.d.ts`):
//! listen for the ready event first, then look for the bridge; call at once
//! when it is there; remove the listener and timer when the wait ends; look
//! once more at the time-out before `bridge_timeout`. The first wallet
//! callback counts, later ones are reported and ignored; a call that threw
//! after calling back has answered. With no answer, the page shown again
//! after the wallet's screen (plus a grace period) or `callbackTimeoutMs`
//! ends the wait as `pending`.

use crate::action::{Action, Options, Plan, Via};
use crate::error::{cat, Code, PayError};
use crate::event::EventType;
use crate::json::Json;
use crate::outcome::{Callback, PayResult, Status};
use crate::prelude::*;
use crate::profile::Field;
use crate::runtime::Host;

mod answer;
mod call;
pub use call::no_api;
#[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
mod cardnet;
#[cfg(test)]
mod flow_tests;
pub mod hooks;
mod io;
#[cfg(test)]
mod tests;
#[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
pub mod verify;
mod wait;
#[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
pub mod watch;
#[cfg(test)]
mod watch_tests;
pub mod wire;

#[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
pub use cardnet::{order_refusal, CardnetRun};
pub use io::{ApiCall, BridgeCall, Cmd, Detail, Expect, Got, Hook, Input, Out, Reported, Target};
#[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
pub use verify::{NoticeRun, VerifyRun};
#[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
pub use wait::BridgeWait;
#[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
pub use watch::{Says, WatchOptions, WatchRun};
pub use wire::Timer;

/// Writes to `out` the command that ends a run refused before it starts:
/// `busy`, for `export` (`pay`, `cardnetPay`), when another payment holds
/// the one payment slot.
pub fn busy<V>(export: &str, out: &mut impl Out<V>) {
    let m = cat!(export, "() was called while another payment is still in flight; wait for its result first");
    out.fail(PayError::new(Code::Busy, m), None, None)
}

/// Writes to `out` the command that ends a payment refused before it
/// starts for its input `e`: rejected with it where this build words its
/// errors (`crate::error::WORDED`), else handed to the module that words it
/// ([`Cmd::Explain`]).
pub fn refuse<V>(e: PayError, out: &mut impl Out<V>) {
    if crate::error::WORDED {
        out.fail(e, None, None)
    } else {
        out.explain(e)
    }
}

/// Whether this build calls mini-program APIs at all: every build but the
/// browser's payment module (wasm, without `web-tools`), whose pages have
/// none. Known when the module is built, so that the code of those calls
/// and of their answers is not in that module.
pub const API_CALLS: bool = !crate::PAYMENT_MODULE;

/// Whether this build awaits the `confirm` hook itself: every build but the
/// browser's payment module, which hands the wallet's result to the full
/// module for that ([`Cmd::HandOff`]). `confirm` runs only after the wallet
/// has answered, so its code is not fetched before the wallet is called
/// (not in the browser entry); the module that runs it is
/// fetched while the wallet's screen is up ([`Cmd::Preload`]).
pub const CONFIRM_HERE: bool = !crate::PAYMENT_MODULE;

/// What the core may ask of the platform without changing it.
pub trait World {
    /// Whether there is a document to listen on (a page).
    fn has_document(&self) -> bool;
    /// Whether the page is visible (true where there is no document).
    fn visible(&self) -> bool;
    /// Whether `globalThis[name]` is an object.
    fn has_global(&self, name: &str) -> bool;
    /// Whether `globalThis[name][method]` is a function.
    fn has_method(&self, name: &str, method: &str) -> bool;
    /// Whether the mini-program API (`options.api`, else
    /// `globalThis[global]`) has `method`.
    fn api_has(&self, global: &str, method: &str) -> bool;
    /// Whether the caller named neither `options.api` nor `options.runtime`
    /// (a getter that throws names it), as the mini-program module asks.
    fn unnamed(&self) -> bool;
}

/// Leaves for `url`: the event `navigating`, then [`Out::navigate`]; out
/// of line, one copy for the run's two navigations (the plan's, the
/// fallback).
#[inline(never)]
fn leave_for<V>(url: &str, out: &mut impl Out<V>) {
    out.said(EventType::NAVIGATING, "url", url);
    out.navigate(url);
}

/// Where a run stands; its variant a tag byte of its own, as [`Cmd`]'s.
#[derive(Debug, PartialEq)]
#[repr(u8)]
enum Phase {
    /// Navigating; reported with this status when it went.
    Navigating(Status),
    /// After a scheme URL: watching whether the page stays visible.
    Watching,
    /// Waiting for the bridge's ready event.
    Waiting,
    Calling,
    Awaiting,
    Confirming,
    Over,
}

/// How long after the page is shown again a missing callback counts as none.
const RETURN_GRACE_MS: u32 = 1500;

/// One payment being performed.
pub struct Run<V> {
    channel: &'static str,
    action: Action,
    /// Where the run runs: all it reads of the runtime.
    host: Host,
    opts: Options,
    confirm: bool,
    phase: Phase,
    /// The wallet's answer that counts, mapped as it came: its status and
    /// code, and the answer itself.
    answer: Option<(Status, Option<String>, V)>,
    hidden: bool,
    /// The wallet's result while `confirm` is awaited ([`Run::kept`]): not
    /// in the browser's payment module, which hands the result over
    /// ([`CONFIRM_HERE`]).
    #[cfg(not(all(target_arch = "wasm32", not(feature = "web-tools"))))]
    result: Option<(PayResult, Option<V>)>,
    /// The host tests' stand-in for a build without [`CONFIRM_HERE`].
    #[cfg(test)]
    hand_off: bool,
}

impl<V: Clone> Run<V> {
    /// Starts performing `plan` in `host` (the runtime's, all a run reads
    /// of it); `confirm`: whether the options have a `confirm` hook.
    pub fn start(plan: Plan, opts: Options, host: Host, confirm: bool, w: &impl World) -> (Run<V>, Vec<Cmd<V>>) {
        let mut out = Vec::new();
        let run = Run::start_into(plan, opts, host, confirm, w, &mut out);
        (run, out)
    }

    /// [`Run::start`], its commands written to `out`.
    pub fn start_into(plan: Plan, opts: Options, host: Host, confirm: bool, w: &impl World, out: &mut impl Out<V>) -> Run<V> {
        let planned = Detail::Json(plan.to_json());
        let mut run = Run {
            channel: plan.channel.name(),
            action: plan.action,
            host,
            opts,
            confirm,
            phase: Phase::Over,
            answer: None,
            hidden: false,
            #[cfg(not(all(target_arch = "wasm32", not(feature = "web-tools"))))]
            result: None,
            #[cfg(test)]
            hand_off: false,
        };
        out.emit(EventType::PLANNED, planned);
        run.begin(w, out);
        run
    }

    /// Whether a wallet callback now would be the one that counts: the
    /// rule [`Run::callback`] applies (it reads the answer only then), for
    /// the tests to ask.
    pub fn takes_answer(&self) -> bool {
        self.answer.is_none() && matches!(self.phase, Phase::Calling | Phase::Awaiting)
    }

    /// Whether the run has ended.
    pub fn over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// What the run holds now: ready-event listeners, bridge waiters, and
    /// wallet callbacks that still count.
    pub fn counts(&self) -> (usize, usize, usize) {
        let w = usize::from(self.phase == Phase::Waiting);
        (w, w, usize::from(matches!(self.phase, Phase::Calling | Phase::Awaiting)))
    }

    fn begin(&mut self, w: &impl World, out: &mut impl Out<V>) {
        // Navigate, wait for the bridge, or call the mini-program API.
        let (url, then) = match &self.action {
            Action::Redirect { url } => (url, Status::Redirected),
            Action::OpenUrl { url, .. } | Action::OpenMiniProgram { url } => (url, Status::Opened),
            Action::Wallet1TradePay { via: Via::Bridge, .. } | Action::Wallet2BridgePay { .. } => return self.wait(w, out),
            Action::Wallet1TradePay { via: Via::MiniProgram, .. } | Action::Wallet2RequestPayment { .. } => return self.call_api(w, out),
        };
        leave_for(url, out);
        self.phase = Phase::Navigating(then);
    }

    /// Answers one input. Inputs after the end change nothing.
    pub fn step(&mut self, input: Input<V>, w: &impl World) -> Vec<Cmd<V>> {
        let mut out = Vec::new();
        self.step_into(input, w, &mut out);
        out
    }

    /// [`Run::step`], its commands written to `out`: each input to the
    /// run's method for it, which the wasm edge calls straight.
    pub fn step_into(&mut self, input: Input<V>, w: &impl World, out: &mut impl Out<V>) {
        match input {
            Input::Returned => self.returned(None, w, out),
            Input::Threw(t) => self.returned(Some(t), w, out),
            Input::Event(e) => self.event(&e, w, out),
            Input::Timer(t) => self.timer(t, w, out),
            Input::Callback(which, v, answer) => self.callback(which, v, |_, k| answer.get(k).cloned(), out),
            input => {
                if self.phase == Phase::Confirming && self.confirm_here() {
                    self.confirmed(input, out)
                }
            }
        }
    }

    /// The last command (navigation, call) returned (`threw`: `None`) or
    /// threw.
    pub fn returned(&mut self, threw: Option<V>, w: &impl World, out: &mut impl Out<V>) {
        match (&self.phase, threw) {
            (Phase::Navigating(_), None) => self.navigated(w, out),
            (Phase::Navigating(_), Some(t)) => {
                self.fail(PayError::new(Code::WrongRuntime, "the page could not navigate"), Some(t), out);
            }
            // A call that called back has answered, whether it then
            // returned or threw.
            (Phase::Calling, _) if self.answer.is_some() => self.answered(out),
            (Phase::Calling, None) => {
                self.phase = Phase::Awaiting;
                if self.confirm && !self.confirm_here() {
                    out.preload();
                }
                out.set_timer(Timer::Answer, self.opts.callback_timeout_ms);
                if w.has_document() {
                    out.listen(Target::Document, "visibilitychange");
                }
            }
            (Phase::Calling, Some(t)) => {
                const API: &str = "the mini-program API threw on ";
                let (what, op) = match &self.action {
                    Action::Wallet1TradePay { via: Via::MiniProgram, .. } if API_CALLS => (API, "tradePay"),
                    Action::Wallet2RequestPayment { .. } if API_CALLS => (API, "requestPayment"),
                    _ => ("the wallet bridge threw on ", self.op()),
                };
                self.fail(PayError::new(Code::BridgeError, cat!(what, op)), Some(t), out);
            }
            _ => {}
        }
    }

    /// A listened-for event fired.
    pub fn event(&mut self, e: &str, w: &impl World, out: &mut impl Out<V>) {
        match self.phase {
            Phase::Watching if e != "visibilitychange" || !w.visible() => self.hidden = true,
            // The ready event.
            Phase::Waiting => self.look(false, w, out),
            Phase::Awaiting => {
                if !w.visible() {
                    self.hidden = true;
                    out.clear_timer(Timer::Grace);
                } else if self.hidden {
                    out.set_timer(Timer::Grace, RETURN_GRACE_MS);
                }
            }
            _ => {}
        }
    }

    /// A timer fired.
    pub fn timer(&mut self, t: Timer, w: &impl World, out: &mut impl Out<V>) {
        match (&self.phase, t) {
            (Phase::Watching, Timer::Fallback) => self.navigated(w, out),
            // The time-out and the last look.
            (Phase::Waiting, Timer::Ready) => self.look(true, w, out),
            (Phase::Awaiting, Timer::Answer | Timer::Grace) => self.answered(out),
            (Phase::Confirming, _) if self.confirm_here() => self.confirmed(Input::Timer(t), out),
            _ => {}
        }
    }

    /// A wallet callback: which one, its argument, and how to read a
    /// member of that argument for the result mapping (`member`, called
    /// only for the answer that counts, [`Run::takes_answer`], and only for
    /// the members its mapping reads).
    pub fn callback(&mut self, which: Callback, v: V, member: impl Fn(&V, &str) -> Option<Json>, out: &mut impl Out<V>) {
        if !matches!(self.phase, Phase::Calling | Phase::Awaiting) {
            return;
        }
        if self.answer.is_some() {
            return out.emit(EventType::CALLBACK_IGNORED, Detail::Value(v));
        }
        let (status, code) = self.mapped(which, &|k| member(&v, k));
        out.emit(EventType::CALLBACK, Detail::Value(v.clone()));
        self.answer = Some((status, code, v));
        if self.phase == Phase::Awaiting {
            self.answered(out);
        }
    }

    /// A navigation returned, or the fallback's time-out came while
    /// watching the page after an `open_url`: watch the page (an `open_url`
    /// with `fallbackAfterMs`), go to the fallback (the page still shown),
    /// or end with the navigation's status.
    fn navigated(&mut self, w: &impl World, out: &mut impl Out<V>) {
        let status = match self.phase {
            Phase::Navigating(s) => s,
            _ => Status::Opened,
        };
        match (&self.phase, &self.action, self.opts.fallback_after_ms) {
            (Phase::Navigating(Status::Opened), Action::OpenUrl { .. }, Some(ms)) => {
                self.phase = Phase::Watching;
                self.hidden = !w.visible();
                if w.has_document() {
                    out.listen(Target::Document, "visibilitychange");
                }
                out.listen(Target::Window, "pagehide");
                out.listen(Target::Window, "blur");
                out.set_timer(Timer::Fallback, ms);
            }
            (Phase::Watching, Action::OpenUrl { fallback_url, .. }, _) if !self.hidden && w.visible() => {
                out.unlisten(Target::Document, "visibilitychange");
                out.unlisten(Target::Window, "pagehide");
                out.unlisten(Target::Window, "blur");
                leave_for(fallback_url, out);
                self.phase = Phase::Navigating(Status::Redirected);
            }
            _ => self.finish(PayResult::new(status, self.channel, None), None, out),
        }
    }

    /// The bridge call's name (`tradePay`, or the profile's wallet2 method).
    fn op(&self) -> &str {
        match &self.action {
            Action::Wallet2BridgePay { .. } => self.opts.profile.get(Field::W2PayMethod),
            _ => "tradePay",
        }
    }

    fn wallet(&self) -> Host {
        match self.action {
            Action::Wallet2BridgePay { .. } => Host::Wallet2,
            _ => Host::Wallet1,
        }
    }

    fn finish(&mut self, result: PayResult, raw: Option<V>, out: &mut impl Out<V>) {
        self.phase = Phase::Over;
        out.done(result, raw);
    }

    /// Ends the run with `e`; out of line, one copy for its every refusal.
    #[inline(never)]
    fn fail(&mut self, e: PayError, cause: Option<V>, out: &mut impl Out<V>) {
        self.phase = Phase::Over;
        out.fail(e, cause, None);
    }
}
