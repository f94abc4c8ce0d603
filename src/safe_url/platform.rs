//! The platform's own URL parser judges an internationalized host, where
//! the runtime has `URL` (pages and Node): a host with an `xn--` label
//! passes only when `new URL` parses it and keeps it exactly as it is, so
//! the parser that checks is the parser that navigates, and no punycode
//! code is in the module. (A refused label: punycode that does not decode,
//! or stands for characters the URL standard maps or forbids, or is not the
//! one encoding of them.)

use crate::prelude::*;
use crate::web::env::Text;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = URL)]
    type Url;

    #[wasm_bindgen(constructor, catch, js_class = "URL")]
    fn new(url: &str) -> Result<Url, JsValue>;
}

/// Whether `new URL("https://<host>/")` keeps `host` (lowercase, its shape
/// already checked) as it is.
pub(super) fn keeps(host: &str) -> bool {
    let mut url = String::from("https://");
    url.push_str(host);
    url.push('/');
    // `hostname` read as any member is (no getter import of its own).
    Url::new(&url).is_ok_and(|u| crate::web::env::get(&u, "hostname").text().as_deref() == Some(host))
}
