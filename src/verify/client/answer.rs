//! An answer of the service, read for the request the call sent: what
//! makes it another try, and the rules it must pass before its outcome is
//! believed.
//!
//! - **Echoes.** A check, or a query by `order_id`, is answered with an echo
//!   of the order sent: an `order_id` or `order_date` that is not the
//!   request's (a replayed or misrouted answer, however well signed) is
//!   `invalid_response` naming the field. A query by `seq_id` may be
//!   answered with the record's own order, and a query's generated
//!   `order_date` with the record's date.
//! - **Required fields.** `service_date`, `order_id` and `order_date` are
//!   required in `data` (the document's common response fields, each Y):
//!   an answer that reports a state (a result, `pending`) without one is
//!   `invalid_response` naming it. Failure answers (`call_failed`,
//!   `not_found`, `failed`) carry nothing to date and may come without
//!   them, as the document's failure samples do.
//! - **Signatures.** With a `verify` hook, a signed answer's `signature` is
//!   checked over the `data` text. An unsigned answer is accepted only when
//!   it carries no result to forge: a failed call (`call_failed`), or the
//!   result query's bare failure answers, `20010` and `20011` with
//!   `return_code` and `return_message` at the top level ("The checkresult
//!   failure sample shows return_code and return_message at top level,
//!   without the envelope.") and no field beyond the common ones. A bare
//!   `20000` or `20012`, one carrying `resp_code` or any result field, is
//!   `bad_signature`.

use super::{words, Call, Phase};
use crate::error::{cat, Code, PayError};
use crate::verify::codes::{Interface, State, QUERY_FAILED, QUERY_NOT_FOUND, REPEATED, TOO_FREQUENT};
use crate::verify::envelope::{decode_envelope, text_field, Envelope};
use crate::verify::outcome::Outcome;
use crate::verify::schedule::backoff_delay;
use crate::verify::step::Step;

/// The fields a bare failure answer may carry: the common ones.
const COMMON_FIELDS: [&str; 6] = ["return_code", "return_message", "service_date", "seq_id", "order_date", "order_id"];

/// Whether an unsigned answer is one of the result query's bare failure
/// answers (module notes).
pub fn bare_failure(called: Interface, answer: &Envelope) -> bool {
    called == Interface::CheckResult
        && answer.bare
        && answer.signature.is_none()
        && matches!(answer.return_code.as_str(), QUERY_FAILED | QUERY_NOT_FOUND)
        && answer.data.as_obj().is_some_and(|m| m.iter().all(|(k, _)| COMMON_FIELDS.contains(&k.as_str())))
}

fn mismatch(field: &str, echoed: &str, sent: &str, what: &str) -> PayError {
    let m = cat!("the answer echoes ", field, " ", crate::safe_url::clip(echoed), ", not ");
    PayError::field(Code::InvalidResponse, field, cat!(&m, sent, what, ": it is not this request's answer"))
}

impl Call {
    pub(super) fn answered(&mut self, status: u16, body: &str) -> Step {
        let answer = match decode_envelope(status, body) {
            Ok(a) => a,
            // A gateway's error page: the request may or may not have
            // reached the service, exactly as when no answer comes.
            Err(_) if status >= 500 => return self.no_answer(),
            Err(e) => return Step::Done(Err(e)),
        };
        let code = answer.return_code.as_str();
        let attempts = self.config.attempts;
        if !self.querying {
            // 90105 to the check: whether the service recorded it first is
            // not said; its result is asked by order_id before it goes again.
            if code == TOO_FREQUENT && self.check_sends < attempts {
                self.check = self.request.clone();
                let delay = backoff_delay(self.config.base_delay_ms, self.check_sends);
                return self.sleep(delay, false);
            }
            // Sent again after a 90105 and refused as repeated: the first
            // send was recorded after all.
            if code == REPEATED && self.check.is_some() {
                return self.recover();
            }
        } else if self.check.is_some() && !self.recovering && code == QUERY_NOT_FOUND {
            // No record of the check that met 90105: the same signed check
            // goes again.
            self.querying = false;
            self.request = self.check.clone();
            return self.send();
        }
        // A result query met by 90105 is asked again after a delay; so is
        // 20011 while recovering a check that got no answer: the service
        // may not have recorded it yet, and a not_found believed too early
        // invites sending the check again. Both within `retry`.
        let not_yet = self.recovering && code == QUERY_NOT_FOUND;
        if ((self.querying && code == TOO_FREQUENT) || not_yet) && self.tries < attempts {
            let delay = backoff_delay(self.config.base_delay_ms, self.tries);
            return self.sleep(delay, false);
        }
        if let Err(e) = self.check_echoes(&answer) {
            return Step::Done(Err(e));
        }
        let outcome = self.outcome_of(&answer);
        let unsigned_ok = outcome.state == State::CallFailed || bare_failure(self.interface(), &answer);
        if self.has_verify && answer.signature.is_none() && !unsigned_ok {
            return Step::Done(Err(PayError::new(
                Code::BadSignature,
                cat!("the answer for order_id ", &self.order_id, " carries no signature, so its result cannot be trusted"),
            )));
        }
        // The envelope's fields the document marks required: a result
        // without them is not taken (an echo checked only when present
        // would let a signed answer for another order through unchecked).
        let reports = !matches!(outcome.state, State::CallFailed | State::NotFound | State::Failed);
        let missing = ["service_date", "order_id", "order_date"].into_iter().find(|name| text_field(&answer.data, name).is_none());
        if let (true, Some(name)) = (reports, missing) {
            return Step::Done(Err(PayError::field(
                Code::InvalidResponse,
                name,
                cat!(
                    name,
                    " is missing from the answer for order_id ",
                    &self.order_id,
                    " (the document requires it in every answer): its result is not taken"
                ),
            )));
        }
        if let (true, Some(signature)) = (self.has_verify, answer.signature) {
            self.held = Some(outcome);
            self.phase = Phase::Verifying;
            return Step::NeedVerify { data: answer.data_text, signature };
        }
        self.settle(outcome)
    }

    /// The echoes of the order sent (module notes).
    fn check_echoes(&self, answer: &Envelope) -> Result<(), PayError> {
        if self.queried_seq_id.is_some() {
            return Ok(());
        }
        if let Some(echoed) = text_field(&answer.data, "order_id") {
            if echoed != self.order_id {
                return Err(mismatch("order_id", &echoed, &self.order_id, ", the order sent"));
            }
        }
        if !self.order_date_from_answer {
            if let Some(echoed) = text_field(&answer.data, "order_date") {
                if echoed != self.order_date {
                    return Err(mismatch("order_date", &echoed, &self.order_date, ", the date of the order sent"));
                }
            }
        }
        Ok(())
    }

    fn outcome_of(&self, answer: &Envelope) -> Outcome {
        let echo = |from_answer: bool, key: &str, own: &str| {
            let echoed = if from_answer { text_field(&answer.data, key) } else { None };
            echoed.unwrap_or_else(|| own.into())
        };
        let mut o = Outcome::from_data(
            &answer.data,
            self.interface(),
            &answer.return_code,
            &echo(self.order_id_from_answer, "order_id", &self.order_id),
            &echo(self.order_date_from_answer, "order_date", &self.order_date),
            self.querying,
        );
        if o.seq_id.is_none() {
            o.seq_id.clone_from(&self.queried_seq_id);
        }
        o
    }

    pub(super) fn verified(&mut self, ok: bool) -> Step {
        match (ok, self.held.take()) {
            (true, Some(outcome)) => self.settle(outcome),
            (_, held) => Step::Done(Err(PayError::new(Code::BadSignature, words::rejected(&self.order_id, held.as_ref())))),
        }
    }
}
