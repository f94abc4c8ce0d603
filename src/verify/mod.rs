//! Area B of the service document: the aggregated authentication API.

pub mod checks;
pub mod fields;
pub mod form;
pub mod ids;
pub mod sign;

pub use fields::{validate_card_check, validate_name_check};
#[cfg(feature = "hmac")]
pub use sign::hmac_sha256_hex;
pub use sign::sign_input;
