//! The wallet's answer: its result mapped, then the merchant's `confirm`
//! hook awaited when there is one.

use super::{Cmd, Input, Out, Phase, Run, Target, Timer};
use crate::action::Action;
use crate::error::{cat, push_u64, Code, PayError};
use crate::outcome::{self, Callback, PayResult, Status};
use crate::prelude::*;

impl<V: Clone> Run<V> {
    /// The wallet answered, or will not: its result, then `confirm`.
    pub(super) fn answered(&mut self, out: &mut impl Out<V>) {
        if self.phase == Phase::Awaiting {
            out.push(Cmd::Unlisten(Target::Document, "visibilitychange".into()));
            out.push(Cmd::ClearTimer(Timer::Answer));
            out.push(Cmd::ClearTimer(Timer::Grace));
        }
        let ch = self.channel;
        let p = &self.opts.profile;
        let (result, raw) = match self.answer.take() {
            None => {
                let mut r = PayResult::new(Status::Pending, ch, None);
                r.message = "no answer came from the wallet (the page came back without one, or callbackTimeoutMs passed); ask your server for the payment's state".to_string();
                (r, None)
            }
            Some((which, raw, a)) => {
                let r = match (&self.action, which) {
                    (Action::Wallet2BridgePay { .. }, _) => outcome::wallet2_bridge_result(ch, &a),
                    (Action::Wallet2RequestPayment { .. }, which) if super::API_CALLS => outcome::wallet2_mini_result(ch, which, &a),
                    (_, Callback::Success) => outcome::wallet1_result(p, ch, &a),
                    _ => outcome::wallet1_fail(p, ch, &a),
                };
                (r, Some(raw))
            }
        };
        if self.confirm {
            self.phase = Phase::Confirming;
            self.result = Some((result.clone(), raw.clone()));
            out.push(Cmd::SetTimer(Timer::Confirm, self.opts.confirm_timeout_ms));
            out.push(Cmd::Confirm(Box::new((result, raw))));
        } else {
            self.finish(result, raw, out);
        }
    }

    pub(super) fn confirmed(&mut self, input: Input<V>, out: &mut impl Out<V>) {
        let failed = |m: String| PayError::field(Code::ConfirmFailed, "confirm", m);
        let (e, cause) = match input {
            Input::Confirmed(text) => {
                let text = text.unwrap_or_default();
                match Status::from_name(&text) {
                    Some(s) => {
                        let (mut r, raw) = self.result.take().unwrap_or_else(|| (PayResult::new(s, self.channel, None), None));
                        r.status = s;
                        r.verified = true;
                        r.message = "confirmed by the merchant's server".to_string();
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
            Input::Threw(t) => (failed("the confirm hook threw".into()), Some(t)),
            Input::ConfirmFailed(t) => (failed("the confirm hook failed".into()), Some(t)),
            Input::Timer(Timer::Confirm) => {
                let mut m = String::from("the confirm hook did not answer within ");
                push_u64(&mut m, self.opts.confirm_timeout_ms as u64);
                m.push_str(" ms (confirmTimeoutMs)");
                (failed(m), None)
            }
            _ => return,
        };
        self.phase = Phase::Over;
        out.push(Cmd::Fail(e, cause, self.result.take().map(Box::new)));
    }
}
