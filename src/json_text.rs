//! JSON text to the core's [`Json`] value: the platform's `JSON.parse` in
//! the wasm builds (the text is then walked like any JavaScript input, with
//! the same limits: `web/convert.rs`), the crate's own parser on the host.
//! Every reader of JSON text in the core goes through [`parse`].

use crate::error::{Code, PayError};
use crate::json::{Json, MAX_TEXT};

/// Parses JSON text. `what` names the input in error messages; errors carry
/// `code` (the caller decides which code bad text is: `invalid_payment` for a
/// payment, `invalid_response` for an envelope).
pub fn parse(text: &str, code: Code, what: &str) -> Result<Json, PayError> {
    if text.len() > MAX_TEXT {
        return Err(crate::json::too_long(code, what));
    }
    #[cfg(target_arch = "wasm32")]
    return crate::web::convert::parse_text(text, code, what);
    #[cfg(not(target_arch = "wasm32"))]
    crate::json::parse(text, code, what)
}
