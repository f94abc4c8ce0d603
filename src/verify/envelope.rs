//! Decoding of the service's answers.
//!
//! The common envelope is `{"data": "<JSON text>", "signature": "..."}`:
//! `data` is a JSON object carried as text and `signature` signs that text
//! exactly as it came. Two other forms appear in the service document and
//! are read too: the failure sample without an envelope (`return_code` and
//! `return_message` at the top level, unsigned), and `data` given as an
//! object rather than text (its compact rewriting is then what a `verify`
//! hook sees). HTTP 400 answers are read like any other: the status is not
//! the result, `return_code` is.
//!
//! [`encode_envelope`] writes the common envelope, for whatever plays the
//! service (the sandbox server, tests).

use crate::error::{cat, u64_str, Code, PayError};
use crate::json::json_obj;
use crate::json::Json;
use crate::prelude::*;

/// A decoded answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Envelope {
    /// The `data` object (or the whole body, for the unenveloped form).
    pub data: Json,
    /// The text `signature` signs: `data` as it came.
    pub data_text: String,
    /// `signature`, when present and non-empty.
    pub signature: Option<String>,
    /// `return_code` of `data` (never empty).
    pub return_code: String,
    /// The answer came without the envelope (`return_code` at the top
    /// level, as the document's result-query failure sample).
    pub bare: bool,
}

/// The non-empty string under `key` of an object.
pub fn text_field(obj: &Json, key: &str) -> Option<String> {
    match obj.get(key) {
        Some(Json::Str(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// `return_code` of `data`: a non-empty string, or a whole number written
/// without quotes (seen in failure samples), in decimal.
fn return_code_of(data: &Json) -> Option<String> {
    match data.get("return_code") {
        Some(Json::Str(s)) if !s.is_empty() => Some(s.clone()),
        Some(Json::Num(n)) => crate::json::whole(*n).map(u64_str),
        _ => None,
    }
}

fn bad(status: u16, why: &str) -> PayError {
    PayError::new(Code::InvalidResponse, cat!("the HTTP ", &u64_str(status as u64), " answer is not a service response: ", why))
}

/// Decodes an answer of the service; `invalid_response` when it is not one.
pub fn decode_envelope(status: u16, body: &str) -> Result<Envelope, PayError> {
    let text = body.strip_prefix('\u{feff}').unwrap_or(body);
    let top = crate::json_text::parse(text, Code::InvalidResponse, "the body").map_err(|e| bad(status, &e.message))?;
    if top.as_obj().is_none() {
        return Err(bad(status, &cat!("the body is ", top.kind(), ", not an object")));
    }
    let (data, data_text) = match top.given("data") {
        Some(Json::Str(t)) => {
            let d = crate::json_text::parse(t, Code::InvalidResponse, "data").map_err(|e| bad(status, &e.message))?;
            (d, t.clone())
        }
        Some(d @ Json::Obj(_)) => (d.clone(), d.to_text()),
        None if top.get("return_code").is_some() => (top.clone(), text.to_owned()),
        None => return Err(bad(status, "the body has neither data nor return_code")),
        Some(other) => return Err(bad(status, &cat!("data is ", other.kind(), ", not JSON text"))),
    };
    if data.as_obj().is_none() {
        return Err(bad(status, &cat!("data holds ", data.kind(), ", not an object")));
    }
    let signature = match top.given("signature") {
        None => None,
        Some(Json::Str(s)) if s.is_empty() => None,
        Some(Json::Str(s)) => Some(s.clone()),
        Some(other) => return Err(bad(status, &cat!("signature is ", other.kind(), ", not a string"))),
    };
    let Some(return_code) = return_code_of(&data) else {
        return Err(bad(status, "data has no return_code"));
    };
    let bare = !matches!(top.get("data"), Some(Json::Str(_) | Json::Obj(_)));
    Ok(Envelope { data, data_text, signature, return_code, bare })
}

/// The common envelope around `data_text` (a JSON object as text) and its
/// `signature`: `{"data":"<data_text>","signature":"<signature>"}`.
/// [`decode_envelope`] reads it back with `data_text` unchanged, which is
/// what the signature signs.
pub fn encode_envelope(data_text: &str, signature: &str) -> String {
    json_obj! { "data" => Json::str(data_text), "signature" => Json::str(signature) }.to_text()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_what_it_decodes() {
        let data = r#"{"return_code":"10200","resp_info":"一致 \"ok\"\n","order_id":"o1"}"#;
        let body = encode_envelope(data, "sig");
        assert_eq!(
            body,
            r#"{"data":"{\"return_code\":\"10200\",\"resp_info\":\"一致 \\\"ok\\\"\\n\",\"order_id\":\"o1\"}","signature":"sig"}"#
        );
        let e = decode_envelope(200, &body).unwrap();
        assert_eq!(e.data_text, data);
        assert_eq!(e.signature.as_deref(), Some("sig"));
        assert_eq!(e.return_code, "10200");
        assert_eq!(text_field(&e.data, "resp_info").as_deref(), Some("一致 \"ok\"\n"));
    }

    #[test]
    fn reads_the_envelope() {
        let body = r#"{"data":"{\"return_code\":\"10200\",\"resp_code\":\"00\",\"order_id\":\"o1\"}","signature":"abc"}"#;
        let e = decode_envelope(200, body).unwrap();
        assert_eq!(e.return_code, "10200");
        assert_eq!(e.data_text, r#"{"return_code":"10200","resp_code":"00","order_id":"o1"}"#);
        assert_eq!(e.signature.as_deref(), Some("abc"));
        assert!(!e.bare);
        assert_eq!(text_field(&e.data, "resp_code").as_deref(), Some("00"));
    }

    #[test]
    fn reads_the_unenveloped_failure() {
        let body = r#"{"return_code":"90101","return_message":"order_id missing"}"#;
        let e = decode_envelope(400, body).unwrap();
        assert_eq!(e.return_code, "90101");
        assert_eq!(e.signature, None);
        assert_eq!(e.data_text, body);
        assert!(e.bare);
        let n = decode_envelope(400, r#"{"return_code":90105}"#).unwrap();
        assert_eq!(n.return_code, "90105");
    }

    #[test]
    fn reads_data_as_an_object() {
        let e = decode_envelope(400, r#"{"data":{"return_code":"90101"},"signature":""}"#).unwrap();
        assert_eq!(e.return_code, "90101");
        assert_eq!(e.data_text, r#"{"return_code":"90101"}"#);
        assert_eq!(e.signature, None);
    }

    #[test]
    fn refuses_what_is_not_a_response() {
        for (status, body) in [
            (200, ""),
            (200, "<html>502 Bad Gateway</html>"),
            (200, "[]"),
            (200, r#"{"data":"{not json"}"#),
            (200, r#"{"data":"[1]"}"#),
            (200, r#"{"data":5}"#),
            (200, r#"{"data":"{}"}"#),
            (200, r#"{"data":"{\"return_code\":\"\"}"}"#),
            (200, r#"{"data":"{\"return_code\":1.5}"}"#),
            (200, r#"{"data":"{\"return_code\":\"1\"}","signature":7}"#),
            (200, r#"{"signature":"x"}"#),
        ] {
            let e = decode_envelope(status, body).unwrap_err();
            assert_eq!(e.code, Code::InvalidResponse, "{body}");
            assert!(e.message.starts_with("the HTTP 200 answer"), "{}", e.message);
        }
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        let e = decode_envelope(200, "\u{feff}{\"return_code\":\"90199\"}").unwrap();
        assert_eq!(e.return_code, "90199");
    }
}
