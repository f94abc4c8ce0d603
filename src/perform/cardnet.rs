//! `cardnetPay`, sans-IO: the card network's callback read, the merchant's
//! `order` awaited for the payment, then that payment performed as any
//! redirect ([`Run`]).
//!
//! What must stay true: nothing is ordered unless the callback is the card
//! network's, `00` and less than five minutes old
//! ([`crate::authorize::cardnet_order`]); the edge marks the callback taken
//! (storage, address bar) after [`CardnetRun::start`] and before it hands
//! the commands on, so that Back, reload or Forward never order with the
//! code again; the page navigates only to the `expend.pay_url` of a
//! payment that plans as a card-network redirect (every URL of a plan has
//! passed the strict check, `allowedHosts` included); an `order` that never
//! answers ends the run after `confirmTimeoutMs`, freeing the payment slot.

use super::hooks::{self, Awaited, Failure};
use super::io::{Got, Hook};
use super::{Cmd, Detail, Input, Out, Run, Timer, World};
use crate::action::{plan_on, Action, Options};
use crate::authorize::{cardnet_order, AuthCallback};
use crate::error::{cat, Code, PayError};
use crate::event::EventType;
use crate::payment::{Channel, Payment};
use crate::prelude::*;
use crate::runtime::Host;

/// The token of the run's one awaited call, `order`.
const ORDER: u32 = 1;

/// The card-network flow being performed.
pub struct CardnetRun<V> {
    opts: Options,
    host: Host,
    phase: Phase<V>,
}

enum Phase<V> {
    Ordering,
    /// The payment `order` gave, performed; its answer kept as the
    /// result's `raw`.
    Paying(Box<Run<V>>, V),
    Over,
}

impl<V: Clone> CardnetRun<V> {
    /// Starts with the callback `cb` read at `now_ms`: reports it, then
    /// orders with its code, or fails when it cannot pay.
    pub fn start(cb: &AuthCallback, now_ms: f64, opts: Options, host: Host, out: &mut impl Out<V>) -> CardnetRun<V> {
        let mut run = CardnetRun { opts, host, phase: Phase::Over };
        out.emit(EventType::CALLBACK, Detail::Json(cb.to_json()));
        match cardnet_order(cb, now_ms) {
            Ok(order) => {
                out.said(EventType::CALLED, "method", "order");
                hooks::ask(out, ORDER, Hook::Order(Box::new(order)), run.opts.confirm_timeout_ms);
                run.phase = Phase::Ordering;
            }
            Err(e) => out.fail(e, None, None),
        }
        run
    }

    /// Whether the run has ended.
    pub fn over(&self) -> bool {
        match &self.phase {
            Phase::Paying(run, _) => run.over(),
            p => matches!(p, Phase::Over),
        }
    }

    /// Answers one input. Inputs after the end change nothing.
    pub fn step_into(&mut self, input: Input<V>, w: &impl World, out: &mut impl Out<V>) {
        if let Phase::Paying(run, raw) = &mut self.phase {
            return run.step_into(input, w, &mut WithRaw(out, raw));
        }
        if !matches!(self.phase, Phase::Ordering) {
            return;
        }
        let failed = match input {
            Input::Settled(ORDER, Got::Payment(payment, raw)) => {
                out.clear_timer(Timer::Await);
                match (*payment).and_then(|p| self.planned(&p)) {
                    Ok(p) => {
                        let run = Run::start_into(p, self.opts.clone(), self.host, false, w, &mut WithRaw(out, &raw));
                        self.phase = Phase::Paying(Box::new(run), raw);
                        return;
                    }
                    Err(e) => (e, None),
                }
            }
            Input::Rejected(ORDER, t, threw) => (hooks::failed(Awaited::Order, Failure::thrown(threw)), Some(t)),
            // A merchant call that never answers must not hold the payment
            // slot for the rest of the page's life.
            Input::Timer(Timer::Await) => (hooks::failed(Awaited::Order, Failure::Late(self.opts.confirm_timeout_ms)), None),
            _ => return,
        };
        self.phase = Phase::Over;
        out.fail(failed.0, failed.1, None);
    }

    /// The payment `order` gave, planned: it must be a card-network
    /// payment, planned as a redirect.
    fn planned(&self, payment: &Payment) -> Result<crate::action::Plan, PayError> {
        if self.opts.profile.resolve_channel(&payment.pay_channel) != Some(Channel::Cardnet) {
            let m = cat!(
                "pay_channel ",
                crate::safe_url::clip(&payment.pay_channel),
                " is not the card network: order() must give the cardnet payment (with expend.pay_url; profile.channelAliases maps another name)"
            );
            return Err(PayError::field(Code::InvalidPayment, "pay_channel", m));
        }
        let p = plan_on(payment, &self.opts, self.host)?;
        match p.action {
            Action::Redirect { .. } => Ok(p),
            _ => Err(PayError::field(Code::InvalidPayment, "pay_channel", "the cardnet payment did not plan as a redirect")),
        }
    }
}

/// The commands of the payment run, its result given `order`'s answer as
/// `raw`.
struct WithRaw<'a, O, V>(&'a mut O, &'a V);

impl<V: Clone, O: Out<V>> Out<V> for WithRaw<'_, O, V> {
    fn push(&mut self, c: Cmd<V>) {
        self.0.push(match c {
            Cmd::Done(mut r) => {
                r.1.get_or_insert_with(|| self.1.clone());
                Cmd::Done(r)
            }
            c => c,
        })
    }
}

/// `order`'s rejection passed through: a reason whose `code` is
/// `auth_expired` (the card network's own expiry of the code, which only
/// the merchant sees) or `auth_used` (the code ordered before, in another
/// tab or on another device) fails `cardnetPay` with that code, naming
/// `userAuthCode`, the reason's `message` kept in the error's. Any other
/// rejection is `transport`, as [`CardnetRun`] has it.
pub fn order_refusal(code: Option<&str>, message: Option<&str>) -> Option<PayError> {
    let (code, why) = match code? {
        "auth_expired" => (Code::AuthExpired, "the userAuthCode has expired"),
        "auth_used" => (Code::AuthUsed, "the userAuthCode was used already"),
        _ => return None,
    };
    let mut m = cat!("order refused: ", why, " (the merchant's answer)");
    if let Some(said) = message.filter(|s| !s.is_empty()) {
        m = cat!("order refused: ", crate::safe_url::clip(said));
    }
    Some(PayError::field(code, "userAuthCode", m))
}
