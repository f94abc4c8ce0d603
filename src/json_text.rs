//! JSON text to the core's [`Json`] value: the runtime's own parser through
//! the core's port ([`crate::platform`]: the platform's `JSON.parse` in the
//! wasm builds, the text then walked like any JavaScript input, with the
//! same limits; the crate's own parser on the host). Every reader of JSON
//! text in the core goes through [`parse`].

use crate::error::{Code, PayError};
use crate::json::{Json, MAX_TEXT};
use crate::platform::{Here, Platform};

/// Parses JSON text. `what` names the input in error messages; errors carry
/// `code` (the caller decides which code bad text is: `invalid_payment` for a
/// payment, `invalid_response` for an envelope).
///
/// One body out of line, not the length check and its refusal copied into
/// each reader: a payment's decoding alone reads text at two places (the
/// payment, and `pay_info` that is text of an object).
#[inline(never)]
pub fn parse(text: &str, code: Code, what: &str) -> Result<Json, PayError> {
    if text.len() > MAX_TEXT {
        return Err(crate::json::too_long(code, what));
    }
    Here::parse_json(text, code, what)
}
