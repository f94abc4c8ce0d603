//! Area B of the service document: the aggregated authentication API.

pub mod checks;
pub mod codes;
pub mod envelope;
pub mod fields;
pub mod form;
pub mod ids;
pub mod outcome;
pub mod score;
pub mod sign;

pub use codes::State;
pub use envelope::{decode_envelope, Envelope};
pub use fields::{validate_card_check, validate_name_check};
pub use outcome::Outcome;
pub use score::{parse_score, passes_threshold, DEFAULT_THRESHOLD};
#[cfg(feature = "hmac")]
pub use sign::hmac_sha256_hex;
pub use sign::sign_input;
