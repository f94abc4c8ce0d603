//! Area B of the service document: the aggregated authentication API.

pub mod form;
pub mod sign;

#[cfg(feature = "hmac")]
pub use sign::hmac_sha256_hex;
pub use sign::sign_input;
