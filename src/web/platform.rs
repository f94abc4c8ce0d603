//! The edge's side of the core's port ([`crate::platform`]): what the core
//! asks of the runtime, answered with the runtime's own objects.
//!
//! JSON text is read by the platform's `JSON.parse` and walked like any
//! JavaScript input ([`super::convert::parse_text`]).
//!
//! An internationalized host is judged by the platform's own URL parser,
//! where the runtime has `URL` (pages and Node; feature `platform-url`): a
//! host with an `xn--` label passes only when `new URL` parses the URL and
//! keeps its host exactly as it is, so the parser that checks is the parser
//! that navigates, and no punycode code is in the module. (A refused label:
//! punycode that does not decode, or stands for characters the URL
//! standard maps or forbids, or is not the one encoding of them.)

use crate::error::{Code, PayError};
use crate::json::Json;
use crate::platform::{Here, Platform};
#[cfg(feature = "platform-url")]
use wasm_bindgen::prelude::*;

#[cfg(feature = "platform-url")]
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = URL)]
    type Url;

    #[wasm_bindgen(constructor, catch, js_class = "URL")]
    fn new(url: &str) -> Result<Url, JsValue>;
}

impl Platform for Here {
    fn parse_json(text: &str, code: Code, what: &str) -> Result<Json, PayError> {
        super::convert::parse_text(text, code, what)
    }

    /// Whether `new URL(url)` reads `host` as the URL's host name.
    #[cfg(feature = "platform-url")]
    fn url_keeps_host(url: &str, host: &str) -> bool {
        use super::env::Text;
        // `hostname` read as any member is (no getter import of its own).
        Url::new(url).is_ok_and(|u| super::env::get(&u, "hostname").text().as_deref() == Some(host))
    }
}
