//! What the core asks of the runtime it runs in, declared here as a port
//! ([`Platform`], implemented for [`Here`]) and supplied from outside the
//! core: in the wasm builds by the edge (`web/platform.rs`: the runtime's
//! own `JSON.parse` and `URL`), on the host by this file (the crate's own
//! JSON parser). The core calls `Here`'s functions and never names the
//! edge (tests/tools/layout.mjs fails on a core file that does); the edge
//! depends on the core, not the other way round. The binding is made by
//! the compiler (one implementation per build), so a call through the port
//! costs what a direct call did.

use crate::error::{Code, PayError};
use crate::json::Json;

/// The runtime this build runs in: the one type that implements
/// [`Platform`] in each build.
pub struct Here;

/// The services the core needs from its runtime.
pub trait Platform {
    /// JSON text (at most [`crate::json::MAX_TEXT`] bytes: the caller,
    /// [`crate::json_text::parse`], has checked) to a [`Json`] value under
    /// the core's limits; an error carries `code` and names the input
    /// `what`.
    fn parse_json(text: &str, code: Code, what: &str) -> Result<Json, PayError>;

    /// Whether the runtime's own URL parser reads `url` (whose shape the
    /// core has checked) with its host kept exactly as `host` (the URL's
    /// host lowercased, an internationalized name): the URL judged is the
    /// URL opened, no second one built around the host. Only the builds
    /// whose runtime has `URL` (feature `platform-url`) ask; the others
    /// judge such a host by the crate's punycode rule
    /// (`safe_url/punycode.rs`).
    #[cfg(all(target_arch = "wasm32", feature = "platform-url"))]
    fn url_keeps_host(url: &str, host: &str) -> bool;
}

/// The host's runtime: the crate's own parser.
#[cfg(not(target_arch = "wasm32"))]
impl Platform for Here {
    fn parse_json(text: &str, code: Code, what: &str) -> Result<Json, PayError> {
        crate::json::parse(text, code, what)
    }
}
