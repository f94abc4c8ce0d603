//! Area B of the service document: the aggregated authentication API.
//!
//! The path of a verification, all of it free of I/O:
//!
//! ```text
//! fields -> validate (fields.rs) -> request (request.rs: common parameters,
//!           ids.rs: order_id/order_date, sign.rs: the sandbox sign input)
//!        -> [edge: sign hook, transport]
//!        -> decode (envelope.rs) -> [edge: verify hook] -> state (codes.rs)
//!        -> Outcome (outcome.rs, score.rs)
//! lost answer / 90105 / pending -> the recovery rules of client/ decide
//! the next request (schedule.rs: how long to wait)
//! notification -> notify.rs (form.rs decoding) -> Outcome; dedupe.rs
//! ```
//!
//! The other side, for whatever plays the service (the sandbox server,
//! tests): inbound.rs checks a received request's parameters (90101),
//! `envelope::encode_envelope` writes an answer and
//! `notify::notification_params` the fields of a notification.
//!
//! [`Call`] is the driver an edge wraps: it asks for a signature, a send, a
//! signature check or a sleep ([`Step`]) and is told what happened
//! ([`Event`]), and holds where it is ([`Phase`]); step.rs holds that
//! vocabulary.

pub mod address;
pub mod checks;
pub mod client;
pub mod codes;
pub mod config;
pub mod dedupe;
pub mod envelope;
pub mod fields;
pub mod form;
pub mod ids;
pub mod inbound;
pub mod items;
pub mod notify;
pub mod outcome;
pub mod query;
pub mod request;
pub mod schedule;
pub mod score;
pub mod sign;
pub mod step;

/// `(name, value)` pairs as the verification modules take them, for their
/// unit tests.
#[cfg(test)]
pub(crate) fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

pub use client::Call;
pub use codes::{Interface, State};
pub use config::Config;
pub use dedupe::{Seen, SeenSeqIds};
pub use envelope::{decode_envelope, encode_envelope, Envelope};
pub use fields::{invalid_request, validate_card_check, validate_name_check};
pub use inbound::validate_received;
pub use notify::{notification_params, parse_notification, Notification};
pub use outcome::Outcome;
pub use query::Query;
pub use request::Request;
pub use schedule::Wait;
pub use score::{parse_score, passes_threshold, DEFAULT_THRESHOLD};
#[cfg(feature = "hmac")]
pub use sign::hmac_sha256_hex;
pub use sign::sign_input;
pub use step::{Event, Operation, Phase, Step};
