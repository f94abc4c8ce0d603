//! `watchPayment(ask, options)`, sans-IO: asks the merchant for a
//! payment's status until the merchant's word is final, backing off
//! between asks, and says after each answer what the page may tell the
//! customer.
//!
//! A wallet's answer is a hint: a cancel, a failure, a time-out, Back or a
//! reload does not mean nothing was charged, since the wallet's payment may
//! reach the merchant later. The page therefore says "not paid yet" and
//! keeps asking until the merchant says `paid` (or `succeeded`) or `closed`
//! (the merchant closed the unpaid payment: only then was nothing charged).
//!
//! What must stay true: the first ask is made at once (or after
//! `firstAfterMs`); after every answer that is not final, and after every
//! ask that failed (threw, rejected, answered no status, or did not answer
//! within `timeoutMs`), the next ask waits `intervalMs`, doubling up to
//! `maxIntervalMs`; an answer whose ask is not the one awaited (its
//! time-out passed) changes nothing; one ask awaited at a time (one that outlived
//! `timeoutMs` may still answer, unheard); the run ends only
//! on a final word, on `stopAfterMs`, or when `signal` aborts, and then
//! holds no timer or listener.

use super::io::{Got, Hook};
use super::{Cmd, Detail, Input, Out, Target, Timer};
use crate::error::{cat, push_u64, Code, PayError};
use crate::event::EventType;
use crate::json::Json;
use crate::prelude::*;

/// The longest time a timer is set for (a browser fires a longer one at once).
const MAX_TIMER_MS: f64 = 2_147_483_647.0;

/// What the page may say about a payment, from the merchant's word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Says {
    /// The merchant has no final word (or could not be asked): nothing is
    /// known about a charge yet.
    NotPaidYet,
    /// The merchant says paid.
    Paid,
    /// The merchant closed the payment unpaid: nothing was charged.
    Closed,
}

impl Says {
    /// The merchant's word as the page may repeat it: `paid` and
    /// `succeeded` are paid, `closed` is closed; every other word
    /// (`created`, `pending`, ...) is not final.
    pub fn of(word: &str) -> Says {
        match word {
            "paid" | "succeeded" => Says::Paid,
            "closed" => Says::Closed,
            _ => Says::NotPaidYet,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Says::NotPaidYet => "not_paid_yet",
            Says::Paid => "paid",
            Says::Closed => "closed",
        }
    }
}

/// The schedule of a watch, in ms.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchOptions {
    pub first_after_ms: u32,
    pub interval_ms: u32,
    pub max_interval_ms: u32,
    pub timeout_ms: u32,
    pub stop_after_ms: Option<u32>,
    /// Whether `options.signal` is there to listen to.
    pub signal: bool,
    /// Whether that signal had aborted already when the watch began (a
    /// fact of the page, not an option: the edge reads it).
    pub aborted: bool,
}

impl WatchOptions {
    /// Reads the options from `get(name)` (absent: `None`); each a whole
    /// number of ms, `timeoutMs` and `intervalMs` at least 1.
    pub fn read(get: impl Fn(&str) -> Option<Json>, signal: bool) -> Result<WatchOptions, PayError> {
        let ms = |name: &str, default: u32, least: u32| -> Result<u32, PayError> {
            match get(name) {
                None | Some(Json::Null) => Ok(default),
                Some(Json::Num(n)) if crate::json::whole(n).is_some() && n >= least as f64 && n <= MAX_TIMER_MS => Ok(n as u32),
                Some(_) => {
                    let mut m = cat!(name, " must be a whole number of ms from ");
                    push_u64(&mut m, least as u64);
                    m.push_str(" to 2147483647");
                    Err(PayError::field(Code::InvalidOptions, name, m))
                }
            }
        };
        let interval_ms = ms("intervalMs", 2000, 1)?;
        let max_interval_ms = ms("maxIntervalMs", 30000.max(interval_ms), 1)?;
        if max_interval_ms < interval_ms {
            let m = "maxIntervalMs must not be less than intervalMs";
            return Err(PayError::field(Code::InvalidOptions, "maxIntervalMs", m));
        }
        let stop_after_ms = match get("stopAfterMs") {
            None | Some(Json::Null) => None,
            Some(_) => Some(ms("stopAfterMs", 0, 1)?),
        };
        Ok(WatchOptions {
            first_after_ms: ms("firstAfterMs", 0, 0)?,
            interval_ms,
            max_interval_ms,
            timeout_ms: ms("timeoutMs", 15000, 1)?,
            stop_after_ms,
            signal,
            aborted: false,
        })
    }
}

#[derive(Debug, PartialEq)]
enum Waiting {
    Asking,
    Sleeping,
    Over,
}

/// One watch of a payment.
pub struct WatchRun {
    opts: WatchOptions,
    /// The pause before the next ask after this one.
    next_ms: u32,
    /// Asks made; the token of the one awaited.
    asks: u32,
    /// The merchant's last word.
    last: Option<String>,
    waiting: Waiting,
}

/// The event each answer (or failed ask) is reported as.
pub const EVENT: EventType = EventType::STATUS;

impl WatchRun {
    /// Starts: listens for the signal's abort, sets the deadline, and asks
    /// (at once, or after `firstAfterMs`).
    pub fn start<V>(opts: WatchOptions, out: &mut impl Out<V>) -> WatchRun {
        let mut run = WatchRun { next_ms: opts.interval_ms, opts, asks: 0, last: None, waiting: Waiting::Sleeping };
        // Stopped before it started.
        if run.opts.aborted {
            run.end(false, out);
            return run;
        }
        if run.opts.signal {
            out.listen(Target::Signal, "abort");
        }
        if let Some(ms) = run.opts.stop_after_ms {
            out.set_timer(Timer::Ready, ms);
        }
        match run.opts.first_after_ms {
            0 => run.ask(out),
            ms => out.set_timer(Timer::Sleep, ms),
        }
        run
    }

    /// Whether the run has ended.
    pub fn over(&self) -> bool {
        self.waiting == Waiting::Over
    }

    fn ask<V>(&mut self, out: &mut impl Out<V>) {
        self.asks += 1;
        self.waiting = Waiting::Asking;
        super::hooks::ask(out, self.asks, Hook::Ask, self.opts.timeout_ms);
    }

    /// Answers one input. Inputs after the end change nothing.
    pub fn step_into<V>(&mut self, input: Input<V>, out: &mut impl Out<V>) {
        match (&self.waiting, input) {
            (Waiting::Over, _) => {}
            (_, Input::Event(e)) if e == "abort" => self.end(false, out),
            (_, Input::Timer(Timer::Ready)) => self.end(false, out),
            (Waiting::Sleeping, Input::Timer(Timer::Sleep)) => self.ask(out),
            (Waiting::Asking, Input::Settled(t, Got::Text(word))) if t == self.asks => {
                out.clear_timer(Timer::Await);
                match word {
                    Ok(w) => self.answered(w, out),
                    Err(kind) => self.failed(cat!("ask answered ", &kind, ": it must answer the merchant's status (\"paid\", \"closed\", \"created\", ...) or an object with it as status"), out),
                }
            }
            (Waiting::Asking, Input::Rejected(t, _, threw)) if t == self.asks => {
                out.clear_timer(Timer::Await);
                self.failed(if threw { "ask threw".into() } else { "ask failed".into() }, out)
            }
            (Waiting::Asking, Input::Timer(Timer::Await)) => {
                let mut m = String::from("ask did not answer within ");
                push_u64(&mut m, self.opts.timeout_ms as u64);
                m.push_str(" ms (timeoutMs)");
                // Its late answer finds the run sleeping, or a newer token.
                self.failed(m, out)
            }
            _ => {}
        }
    }

    fn answered<V>(&mut self, word: String, out: &mut impl Out<V>) {
        let says = Says::of(&word);
        self.last = Some(word);
        if says != Says::NotPaidYet {
            out.emit(EVENT, Detail::Json(self.detail(says, None, None)));
            return self.end(true, out);
        }
        let wait = self.sleep(out);
        out.emit(EVENT, Detail::Json(self.detail(says, None, Some(wait))));
    }

    fn failed<V>(&mut self, why: String, out: &mut impl Out<V>) {
        let wait = self.sleep(out);
        out.emit(EVENT, Detail::Json(self.detail(Says::NotPaidYet, Some(why), Some(wait))));
    }

    /// Sets the pause before the next ask, and doubles the one after it.
    fn sleep<V>(&mut self, out: &mut impl Out<V>) -> u32 {
        let wait = self.next_ms;
        self.next_ms = wait.saturating_mul(2).min(self.opts.max_interval_ms);
        self.waiting = Waiting::Sleeping;
        out.set_timer(Timer::Sleep, wait);
        wait
    }

    /// `{ status, merchant?, asks, error?, nextInMs? }`
    fn detail(&self, says: Says, error: Option<String>, next: Option<u32>) -> Json {
        let mut o = vec![(String::from("status"), Json::str(says.as_str()))];
        if let Some(w) = &self.last {
            o.push(("merchant".into(), Json::str(w)));
        }
        o.push(("asks".into(), Json::Num(self.asks as f64)));
        if let Some(e) = error {
            o.push(("error".into(), Json::Str(e)));
        }
        if let Some(n) = next {
            o.push(("nextInMs".into(), Json::Num(n as f64)));
        }
        Json::Obj(crate::json::list(o))
    }

    /// Ends: a final word, or no final word yet (stopped).
    fn end<V>(&mut self, is_final: bool, out: &mut impl Out<V>) {
        let says = self.last.as_deref().map_or(Says::NotPaidYet, Says::of);
        let mut detail = self.detail(says, None, None);
        if let Json::Obj(o) = &mut detail {
            o.push(("final".into(), Json::Bool(is_final)));
        }
        self.waiting = Waiting::Over;
        out.push(Cmd::Resolve(detail));
    }
}
