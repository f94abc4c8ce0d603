//! The wallet's answer: its result mapped, then the merchant's `confirm`
//! hook awaited when there is one.

use super::hooks::{self, Awaited, Failure};
use super::io::{Got, Hook, Reported};
use super::{Input, Out, Phase, Run, Target, Timer, CONFIRM_HERE};
use crate::action::{Action, Options};
use crate::error::{cat, Code, PayError};
use crate::json::Json;
use crate::outcome::{self, Callback, PayResult, Status};
use crate::prelude::*;

/// The token of a run's one awaited call, `confirm`.
const CONFIRM: u32 = 1;

impl<V: Clone> Run<V> {
    /// The wallet answered, or will not: its result, then `confirm`.
    pub(super) fn answered(&mut self, out: &mut impl Out<V>) {
        if self.phase == Phase::Awaiting {
            out.unlisten(Target::Document, "visibilitychange");
            out.clear_timer(Timer::Answer);
            out.clear_timer(Timer::Grace);
        }
        let (status, code, raw) = match self.answer.take() {
            None => (Status::Pending, None, None),
            Some((status, code, raw)) => (status, code, Some(raw)),
        };
        let mut result = PayResult::new(status, self.channel, code);
        if raw.is_none() {
            result.message = own("no answer came from the wallet (the page came back without one, or callbackTimeoutMs passed); ask your server for the payment's state");
        }
        if self.confirm && self.confirm_here() {
            return self.await_confirm(Box::new((result, raw)), out);
        }
        self.phase = Phase::Over;
        if self.confirm {
            out.hand_off(result, raw, self.opts.confirm_timeout_ms)
        } else {
            out.done(result, raw)
        }
    }

    /// The wallet's answer (from its callback `which`) mapped to a status
    /// and code, its members read through `member` as the mapping names
    /// them.
    pub(super) fn mapped(&self, which: Callback, member: &dyn Fn(&str) -> Option<Json>) -> outcome::Mapped {
        let p = &self.opts.profile;
        match (&self.action, which) {
            (Action::Wallet2BridgePay { .. }, _) => outcome::wallet2_bridge_result(member),
            (Action::Wallet2RequestPayment { .. }, which) if super::API_CALLS => outcome::wallet2_mini_result(which, member),
            // The bridge's one callback (the only one the
            // browser's payment module is fed), or the API's `success`.
            (_, which) if which == Callback::Success || !super::API_CALLS => outcome::wallet1_result(p, member),
            _ => outcome::wallet1_fail(p, member),
        }
    }

    /// Whether this run awaits `confirm` itself ([`CONFIRM_HERE`]).
    pub(super) fn confirm_here(&self) -> bool {
        #[cfg(test)]
        if self.hand_off {
            return false;
        }
        CONFIRM_HERE
    }

    fn await_confirm(&mut self, reported: Reported<V>, out: &mut impl Out<V>) {
        self.phase = Phase::Confirming;
        self.keep(&reported);
        hooks::ask(out, CONFIRM, Hook::Confirm(reported), self.opts.confirm_timeout_ms);
    }

    /// Keeps the wallet's result while `confirm` is awaited, for the run's
    /// end: the result confirmed, or the error's unverified result.
    #[cfg(not(all(target_arch = "wasm32", not(feature = "web-tools"))))]
    fn keep(&mut self, reported: &Reported<V>) {
        self.result = Some((reported.0.clone(), reported.1.clone()));
    }

    /// The result kept while `confirm` was awaited.
    #[cfg(not(all(target_arch = "wasm32", not(feature = "web-tools"))))]
    fn kept(&mut self) -> Option<(PayResult, Option<V>)> {
        self.result.take()
    }

    /// The browser's payment module never awaits `confirm`: no result to keep.
    #[cfg(all(target_arch = "wasm32", not(feature = "web-tools")))]
    fn keep(&mut self, _: &Reported<V>) {}

    /// The browser's payment module never awaits `confirm`: no result kept.
    #[cfg(all(target_arch = "wasm32", not(feature = "web-tools")))]
    fn kept(&mut self) -> Option<(PayResult, Option<V>)> {
        None
    }

    /// The run that goes on from a [`super::Cmd::HandOff`]: the wallet's `result`
    /// (and `raw`), `confirm` awaited for `timeout_ms`, then as any run.
    pub fn confirming(result: PayResult, raw: Option<V>, timeout_ms: u32, out: &mut impl Out<V>) -> Run<V> {
        let mut run = Run {
            channel: crate::payment::Channel::from_name(&result.channel).map_or("", |c| c.name()),
            action: Action::Redirect { url: String::new() },
            host: crate::runtime::Host::Browser,
            opts: Options { confirm_timeout_ms: timeout_ms, ..Options::default() },
            confirm: true,
            phase: Phase::Over,
            answer: None,
            hidden: false,
            #[cfg(not(all(target_arch = "wasm32", not(feature = "web-tools"))))]
            result: None,
            #[cfg(test)]
            hand_off: false,
        };
        run.await_confirm(Box::new((result, raw)), out);
        run
    }

    pub(super) fn confirmed(&mut self, input: Input<V>, out: &mut impl Out<V>) {
        let failed = |m: String| PayError::field(Code::ConfirmFailed, "confirm", m);
        let (e, cause) = match input {
            Input::Settled(CONFIRM, Got::Text(text)) => {
                let text = text.unwrap_or_default();
                match Status::from_name(&text) {
                    Some(s) => {
                        let (mut r, raw) = self.kept().unwrap_or_else(|| (PayResult::new(s, self.channel, None), None));
                        r.status = s;
                        r.verified = true;
                        r.message = own("confirmed by the merchant's server");
                        return self.finish(r, raw, out);
                    }
                    None => {
                        let clipped = crate::safe_url::clip(&text);
                        (
                            failed(cat!(
                                "the confirm hook answered ",
                                clipped,
                                "; it must answer a PayResult status such as \"succeeded\""
                            )),
                            None,
                        )
                    }
                }
            }
            Input::Rejected(CONFIRM, t, threw) => (hooks::failed(Awaited::Confirm, Failure::thrown(threw)), Some(t)),
            Input::Timer(Timer::Await) => (hooks::failed(Awaited::Confirm, Failure::Late(self.opts.confirm_timeout_ms)), None),
            _ => return,
        };
        self.phase = Phase::Over;
        out.fail(e, cause, self.kept().map(Box::new));
    }
}
