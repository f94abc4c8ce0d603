//! The messages of a call's two endings that carry most detail: a rejected
//! signature and a request that got no answer.

use crate::error::{cat, u64_str};
use crate::prelude::*;
use crate::verify::codes::SIGN_ERROR;
use crate::verify::outcome::Outcome;

/// The `bad_signature` message of the answer for `order_id`, with what the
/// untrusted answer says (`held`) as a hint only (90102: the service found
/// the request's signature wrong too).
pub fn rejected(order_id: &str, held: Option<&Outcome>) -> String {
    let mut m = cat!("the verify hook rejected the signature of the answer for order_id ", order_id);
    if let Some(o) = held {
        m.push_str(" (unverified, it says ");
        m.push_str(crate::safe_url::clip(&o.return_code));
        if let Some(t) = &o.return_message {
            m.push_str(": ");
            m.push_str(crate::safe_url::clip(t));
        }
        if o.return_code == SIGN_ERROR {
            m.push_str(": the two sides sign with different secrets");
        }
        m.push(')');
    }
    m
}

/// The `transport` message of a call that ran out of tries: `tries` result
/// queries, after the check itself went unanswered when `recovering`.
pub fn unanswered(order_id: &str, order_date: &str, tries: u32, recovering: bool) -> String {
    let tries = u64_str(tries as u64);
    if recovering {
        cat!(
            "the request for order_id ",
            order_id,
            " got no answer, nor did the ",
            &tries,
            " result queries after it; its result may still exist: query it later with checkResult({ orderId: \"",
            order_id,
            "\", orderDate: \"",
            order_date,
            "\" }) rather than sending the request again"
        )
    } else {
        cat!("the result query for order_id ", order_id, " got no answer after ", &tries, " tries")
    }
}
