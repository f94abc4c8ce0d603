//! Area B of the service document: the aggregated authentication API.

pub mod checks;
pub mod client;
pub mod codes;
pub mod config;
pub mod envelope;
pub mod fields;
pub mod form;
pub mod ids;
pub mod outcome;
pub mod query;
pub mod request;
pub mod schedule;
pub mod score;
pub mod sign;

pub use client::{Call, Event, Operation, Step};
pub use codes::State;
pub use config::Config;
pub use envelope::{decode_envelope, Envelope};
pub use fields::{validate_card_check, validate_name_check};
pub use outcome::Outcome;
pub use query::Query;
pub use request::Request;
pub use schedule::Wait;
pub use score::{parse_score, passes_threshold, DEFAULT_THRESHOLD};
#[cfg(feature = "hmac")]
pub use sign::hmac_sha256_hex;
pub use sign::sign_input;
