//! One operation of the authentication client, free of I/O: its rules.
//!
//! A [`Call`] says what to do next ([`Step`]) and is told what happened
//! ([`Event`]); `perform::VerifyRun` turns its steps into commands (sign,
//! send, verify, sleep), which the shim's `drive` performs.
//! The rules it follows:
//!
//! - A `cardcheck` or `namecheck` is validated first (every problem at once)
//!   and gets an `order_id`/`order_date` when the caller gave none.
//! - The fields the document sends encrypted (`cvv2`) go through the
//!   `encrypt` hook before signing; without one, such a field is sent as
//!   typed only to a loopback `baseUrl` (the sandbox): to any other it is
//!   `invalid_options` naming `encrypt`, and nothing is sent.
//! - Return codes are read for the interface of the request sent
//!   (`codes.rs`): a check's own, or the result query's once recovering.
//! - Never twice: a `cardcheck`/`namecheck` that gets no answer (network
//!   error, time-out, or a 5xx that is not a service answer) is never sent
//!   again (the service would answer 90104); its result is asked with
//!   `checkresult` by `order_id`, `seq_id` empty.
//! - 90105 (too frequent): the document does not say whether the service
//!   recorded the order first. After a growing delay the client asks
//!   `checkresult` by `order_id`; only a `20011` (no record) sends the
//!   same signed check again, and a `90104` after a 90105 is recovered by
//!   `order_id` too. Within `attempts` sends of the check in all. A result
//!   query met by 90105 or by no answer is sent again the same way; past
//!   the budget, `transport`.
//! - Answers are checked before they are believed (`answer`): the echoes
//!   of `order_id` and `order_date`, `service_date`, the `signature`.
//! - `awaitResult` polls while the result is pending, with a growing
//!   interval, until a final state or its time-out (then the pending outcome
//!   is returned as it is).

use super::codes::{Interface, State};
use super::config::Config;
use super::envelope::text_field;
use super::fields::{invalid_request, validate, Kind};
use super::ids;
use super::outcome::Outcome;
use super::query::Query;
use super::request::{check_params, query_params, Request};
use super::schedule::{backoff_delay, poll_delay};
use super::step::{Event, Operation, Phase, Step};
use crate::error::{cat, Code, PayError};
use crate::json::Json;
use crate::prelude::*;

/// One operation of the authentication client, driven by [`Call::next`].
#[derive(Clone, Debug)]
pub struct Call {
    config: Config,
    op: Operation,
    fields: Json,
    has_verify: bool,
    has_encrypt: bool,
    now_ms: f64,
    random: [u8; 16],
    phase: Phase,
    order_id: String,
    order_date: String,
    /// A query whose `order_id` was generated (by `seq_id`, none given):
    /// the answer's echo, when present, names the order better.
    order_id_from_answer: bool,
    /// Likewise for a generated `order_date`.
    order_date_from_answer: bool,
    queried_seq_id: Option<String>,
    /// The current request is a `checkresult`.
    querying: bool,
    /// A `cardcheck`/`namecheck` went unanswered and its result is queried.
    recovering: bool,
    path: String,
    unsigned: Vec<(String, String)>,
    request: Option<Request>,
    /// Sends of the current request so far.
    tries: u32,
    /// Sends of the check (`cardcheck`/`namecheck`) in all.
    check_sends: u32,
    /// The signed check, kept once it met 90105: sent again only after a
    /// result query by `order_id` found no record of it.
    check: Option<Request>,
    polls: u32,
    /// The sleep is between two polls of `awaitResult`, not between tries.
    polling: bool,
    waited_ms: u64,
    held: Option<Outcome>,
}

impl Call {
    /// A call of `op` over `fields` (the check's fields, or the query of
    /// `checkResult`/`awaitResult`). `has_verify` says whether the edge has
    /// a `verify` hook; `now_ms` and `random` feed the generated ids. Never
    /// fails: problems come out as the first [`Step::Done`].
    pub fn new(config: &Config, op: Operation, fields: Json, has_verify: bool, now_ms: f64, random: [u8; 16]) -> Call {
        Call {
            config: config.clone(),
            op,
            fields,
            has_verify,
            has_encrypt: false,
            now_ms,
            random,
            phase: Phase::New,
            order_id: String::new(),
            order_date: String::new(),
            order_id_from_answer: false,
            order_date_from_answer: false,
            queried_seq_id: None,
            querying: false,
            recovering: false,
            path: String::new(),
            unsigned: Vec::new(),
            request: None,
            tries: 0,
            check_sends: 0,
            check: None,
            polls: 0,
            polling: false,
            waited_ms: 0,
            held: None,
        }
    }

    /// The call, told whether the edge has an `encrypt` hook (without one,
    /// the fields the document sends encrypted go as typed to a loopback
    /// `baseUrl` only).
    pub fn encrypting(mut self, has_encrypt: bool) -> Call {
        self.has_encrypt = has_encrypt;
        self
    }

    /// The interface of the request being sent.
    fn interface(&self) -> Interface {
        match self.op {
            _ if self.querying => Interface::CheckResult,
            Operation::CardCheck => Interface::CardCheck,
            Operation::NameCheck => Interface::NameCheck,
            Operation::CheckResult | Operation::AwaitResult(_) => Interface::CheckResult,
        }
    }

    /// The order this call is about (empty before [`Event::Start`]).
    pub fn order_id(&self) -> &str {
        &self.order_id
    }

    /// The date of that order (empty before [`Event::Start`]).
    pub fn order_date(&self) -> &str {
        &self.order_date
    }

    /// Where the call is: what it waits for next. The one record of it;
    /// the edge that drives the call reads it here.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Ends the call from outside: the edge failed it (a hook that threw
    /// or answered wrongly, nothing to send with). Any further event gets
    /// an error, as after [`Step::Done`].
    pub fn end(&mut self) {
        self.phase = Phase::Finished;
    }

    /// Advances the call by one event.
    pub fn next(&mut self, event: Event) -> Step {
        let phase = core::mem::replace(&mut self.phase, Phase::Finished);
        let step = match (phase, event) {
            (Phase::New, Event::Start) => self.start(),
            (Phase::Encrypting, Event::Encrypted(values)) => self.encrypted(values),
            (Phase::Signing, Event::Signed(sign)) => self.signed(sign),
            (Phase::Sending, Event::Response { status, body }) => self.answered(status, &body),
            (Phase::Sending, Event::NoAnswer) => self.no_answer(),
            (Phase::Verifying, Event::Verified(ok)) => self.verified(ok),
            (Phase::Sleeping, Event::Slept) => {
                if self.polling {
                    self.tries = 0;
                }
                if self.check.is_some() && !self.querying {
                    self.probe()
                } else {
                    self.send()
                }
            }
            (Phase::Finished, _) => Step::Done(Err(PayError::new(Code::Transport, "the call has already finished"))),
            (phase, event) => Step::Done(Err(PayError::new(
                Code::Transport,
                cat!("the call was told ", event.name(), " while waiting for ", phase.awaited()),
            ))),
        };
        if matches!(step, Step::Done(_)) {
            self.phase = Phase::Finished;
        }
        step
    }

    fn start(&mut self) -> Step {
        match self.op {
            Operation::CardCheck | Operation::NameCheck => {
                let card = self.op == Operation::CardCheck;
                let kind = if card { Kind::CardCheck } else { Kind::NameCheck };
                let problems = validate(kind, &self.fields, self.config.strict);
                if !problems.is_empty() {
                    return Step::Done(Err(invalid_request(problems)));
                }
                self.order_id = text_field(&self.fields, "order_id").unwrap_or_else(|| ids::order_id(self.now_ms, &self.random));
                self.order_date = text_field(&self.fields, "order_date").unwrap_or_else(|| ids::order_date(self.now_ms));
                let paths = &self.config.paths;
                self.path = if card { paths.card_check.clone() } else { paths.name_check.clone() };
                self.unsigned = check_params(&self.order_date, &self.order_id, &self.config.app_token, &self.fields);
                let secret = encrypt::fields_to_encrypt(&self.unsigned);
                if let Some((field, _)) = secret.first() {
                    if self.has_encrypt {
                        self.phase = Phase::Encrypting;
                        return Step::NeedEncrypt(secret);
                    }
                    if !self.config.loopback {
                        return Step::Done(Err(encrypt::required(field)));
                    }
                }
            }
            Operation::CheckResult | Operation::AwaitResult(_) => {
                let query = match Query::from_json(&self.fields) {
                    Ok(q) => q,
                    Err(e) => return Step::Done(Err(e)),
                };
                let (seq_id, order_id, order_date) = match query {
                    Query::BySeqId { seq_id, order_id, order_date } => (seq_id, order_id, order_date),
                    Query::ByOrderId { order_id, order_date } => (String::new(), Some(order_id), order_date),
                };
                self.order_id_from_answer = order_id.is_none();
                self.order_date_from_answer = order_date.is_none();
                self.order_id = order_id.unwrap_or_else(|| ids::order_id(self.now_ms, &self.random));
                self.order_date = order_date.unwrap_or_else(|| ids::order_date(self.now_ms));
                self.queried_seq_id = (!seq_id.is_empty()).then(|| seq_id.clone());
                self.begin_query(&seq_id);
            }
        }
        self.phase = Phase::Signing;
        Step::NeedSign(self.unsigned.clone())
    }

    /// The values of the fields sent encrypted, in the order asked.
    fn encrypted(&mut self, values: Vec<String>) -> Step {
        if let Err(e) = encrypt::put(&mut self.unsigned, values) {
            return Step::Done(Err(e));
        }
        self.phase = Phase::Signing;
        Step::NeedSign(self.unsigned.clone())
    }

    fn begin_query(&mut self, seq_id: &str) {
        self.querying = true;
        self.path = self.config.paths.check_result.clone();
        self.unsigned = query_params(&self.order_date, &self.order_id, &self.config.app_token, seq_id);
    }

    fn signed(&mut self, sign: String) -> Step {
        if sign.is_empty() {
            return Step::Done(Err(PayError::field(Code::InvalidOptions, "sign", "sign: the hook returned an empty signature")));
        }
        let mut params = self.unsigned.clone();
        params.push(("sign".into(), sign));
        self.request = Some(if self.querying {
            Request::get(&self.path, &self.config.env, params)
        } else {
            Request::post(&self.path, &self.config.env, params)
        });
        self.tries = 0;
        self.send()
    }

    fn send(&mut self) -> Step {
        match &self.request {
            Some(r) => {
                self.tries += 1;
                self.check_sends += u32::from(!self.querying);
                self.phase = Phase::Sending;
                Step::Send(r.clone())
            }
            None => Step::Done(Err(PayError::new(Code::Transport, "the call has no signed request to send"))),
        }
    }

    fn sleep(&mut self, ms: u32, poll: bool) -> Step {
        self.phase = Phase::Sleeping;
        self.polling = poll;
        Step::Sleep(ms)
    }

    /// Done with `outcome`, unless awaiting a result that is still pending.
    fn settle(&mut self, outcome: Outcome) -> Step {
        if let Operation::AwaitResult(wait) = self.op {
            let timeout = wait.timeout_ms as u64;
            if outcome.state == State::Pending && self.waited_ms < timeout {
                let left = (timeout - self.waited_ms).min(u32::MAX as u64) as u32;
                let delay = poll_delay(wait.interval_ms, self.polls).min(left);
                self.polls += 1;
                self.waited_ms += delay as u64;
                return self.sleep(delay, true);
            }
        }
        Step::Done(Ok(outcome))
    }

    fn no_answer(&mut self) -> Step {
        if !self.querying {
            return self.recover();
        }
        if self.tries < self.config.attempts {
            let delay = backoff_delay(self.config.base_delay_ms, self.tries);
            return self.sleep(delay, false);
        }
        Step::Done(Err(PayError::new(Code::Transport, words::unanswered(&self.order_id, &self.order_date, self.tries, self.recovering))))
    }
}

impl Call {
    /// Never send the check again: ask for its result by `order_id`.
    fn recover(&mut self) -> Step {
        self.recovering = true;
        self.begin_query("");
        self.phase = Phase::Signing;
        Step::NeedSign(self.unsigned.clone())
    }

    /// After a 90105, before the check goes again: whether the service
    /// recorded it anyway, asked by `order_id` ([`answer`]).
    fn probe(&mut self) -> Step {
        self.begin_query("");
        self.phase = Phase::Signing;
        Step::NeedSign(self.unsigned.clone())
    }
}

mod answer;
mod encrypt;
#[cfg(test)]
mod tests;
mod words;
