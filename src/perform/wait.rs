//! The bridge-ready wait, shared by `pay()` and `waitForBridge()`
//! (`waitForBridge` and `PayOptions.timeoutMs` in `www/lib/index.d.ts`):
//! listen for the ready event first, then
//! look for the bridge; act at once when it is there; remove the listener
//! and the timer when the wait ends; look once more at the time-out before
//! failing with `bridge_timeout`. Sharing one listener among concurrent
//! waiters is the shim's: it adds one per event and target, however many
//! runs listen.

#[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
use super::{Cmd, Input};
use super::{Out, Target, Timer, World};
use crate::error::{cat, push_u64, Code, PayError};
#[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
use crate::prelude::*;

/// Where a wait stands after a step.
#[derive(Debug, PartialEq)]
pub(super) enum Looked {
    Waiting,
    Ready,
    TimedOut,
    /// No document to listen on, and no bridge already there.
    NoDocument,
}

/// Rule 1: listen first, then look.
#[inline(always)]
pub(super) fn begin<V>(bridge: &str, event: &str, timeout_ms: u32, w: &impl World, out: &mut impl Out<V>) -> Looked {
    if !w.has_document() {
        // No page to listen on: only a bridge that is already there counts.
        return if w.has_global(bridge) { Looked::Ready } else { Looked::NoDocument };
    }
    out.listen(Target::Document, event);
    if w.has_global(bridge) {
        out.unlisten(Target::Document, event);
        return Looked::Ready;
    }
    out.set_timer(Timer::Ready, timeout_ms);
    Looked::Waiting
}

/// The ready event fired (an event without the bridge behind it keeps the
/// wait), or the time-out came: then the last look.
#[inline(always)]
pub(super) fn look<V>(bridge: &str, event: &str, timed_out: bool, w: &impl World, out: &mut impl Out<V>) -> Looked {
    let here = w.has_global(bridge);
    if !here && !timed_out {
        return Looked::Waiting;
    }
    out.unlisten(Target::Document, event);
    if !timed_out {
        out.clear_timer(Timer::Ready);
    }
    if here {
        Looked::Ready
    } else {
        Looked::TimedOut
    }
}

#[inline(always)]
pub(super) fn timeout_error(bridge: &str, timeout_ms: u32) -> PayError {
    let mut m = cat!("the wallet bridge ", bridge, " did not become ready within ");
    push_u64(&mut m, timeout_ms as u64);
    m.push_str(" ms (timeoutMs)");
    PayError::field(Code::BridgeTimeout, "timeoutMs", m)
}

#[inline(always)]
pub(super) fn no_document_error(bridge: &str) -> PayError {
    PayError::new(Code::WrongRuntime, cat!("the wallet bridge ", bridge, " is not here and this runtime has no document to announce it"))
}

/// `waitForBridge(name, readyEvent, { timeoutMs })`: the wait alone, which
/// ends with [`Cmd::Fail`] or with the bridge found ([`Cmd::Found`]).
#[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
pub struct BridgeWait {
    bridge: String,
    event: String,
    timeout_ms: u32,
    waiting: bool,
}

#[cfg(any(not(target_arch = "wasm32"), feature = "web-extra"))]
impl BridgeWait {
    pub fn start<V>(bridge: String, event: String, timeout_ms: u32, w: &impl World) -> (BridgeWait, Vec<Cmd<V>>) {
        let mut out = Vec::new();
        let wait = BridgeWait::start_into(bridge, event, timeout_ms, w, &mut out);
        (wait, out)
    }

    /// [`BridgeWait::start`], its commands written to `out`.
    pub fn start_into<V>(bridge: String, event: String, timeout_ms: u32, w: &impl World, out: &mut impl Out<V>) -> BridgeWait {
        let looked = begin(&bridge, &event, timeout_ms, w, out);
        let mut wait = BridgeWait { bridge, event, timeout_ms, waiting: false };
        wait.end(looked, out);
        wait
    }

    /// Answers one input; inputs after the end change nothing.
    pub fn step<V>(&mut self, input: Input<V>, w: &impl World) -> Vec<Cmd<V>> {
        let mut out = Vec::new();
        self.step_into(input, w, &mut out);
        out
    }

    /// [`BridgeWait::step`], its commands written to `out`.
    pub fn step_into<V>(&mut self, input: Input<V>, w: &impl World, out: &mut impl Out<V>) {
        if self.waiting {
            let looked = match input {
                Input::Event(_) => look(&self.bridge, &self.event, false, w, out),
                Input::Timer(Timer::Ready) => look(&self.bridge, &self.event, true, w, out),
                _ => Looked::Waiting,
            };
            self.end(looked, out);
        }
    }

    fn end<V>(&mut self, looked: Looked, out: &mut impl Out<V>) {
        self.waiting = looked == Looked::Waiting;
        match looked {
            Looked::Waiting => {}
            Looked::Ready => out.push(Cmd::Found(self.bridge.clone())),
            Looked::TimedOut => out.fail(timeout_error(&self.bridge, self.timeout_ms), None, None),
            Looked::NoDocument => out.fail(no_document_error(&self.bridge), None, None),
        }
    }

    /// Whether the wait goes on, and for which event.
    pub fn waiting(&self) -> Option<&str> {
        self.waiting.then_some(self.event.as_str())
    }
}
