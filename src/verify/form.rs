//! Form encoding of request parameters (POST bodies and GET query strings)
//! and decoding of form-encoded notifications.
//!
//! Encoding escapes every byte except the unreserved characters of RFC 3986
//! (`A-Z a-z 0-9 - . _ ~`); a space is written `%20`, in bodies and query
//! strings alike, so that one encoder serves both and no `+` is ever
//! ambiguous. Decoding accepts both `%20` and `+` for a space.

use crate::error::{cat, Code, PayError};
use crate::prelude::*;

/// Appends `s` percent-encoded to `out`.
pub fn push_encoded(out: &mut String, s: &str) {
    crate::encode::push_component(out, s);
}

/// `name=value` pairs, encoded and joined with `&`, in the given order.
pub fn encode_form(params: &[(String, String)]) -> String {
    let mut out = String::new();
    for (i, (k, v)) in params.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        push_encoded(&mut out, k);
        out.push('=');
        push_encoded(&mut out, v);
    }
    out
}

/// Decodes one component: `+` is a space, `%XX` a byte; a `%` not followed
/// by two hex digits stays as it is. The bytes must be UTF-8.
pub fn decode_component(s: &str, what: &str) -> Result<String, PayError> {
    crate::encode::percent_decode(s, true)
        .ok_or_else(|| PayError::field(Code::InvalidResponse, what, cat!(what, " is not UTF-8 once percent-decoded")))
}

/// Splits form text into decoded pairs, in order; empty segments (`a=1&&b=2`)
/// are skipped and a segment without `=` is a name with an empty value.
/// `what` names the input in error messages.
pub fn decode_form(text: &str, what: &str) -> Result<Vec<(String, String)>, PayError> {
    let mut out = Vec::new();
    for seg in text.split('&') {
        if seg.is_empty() {
            continue;
        }
        let (k, v) = match seg.split_once('=') {
            Some((k, v)) => (k, v),
            None => (seg, ""),
        };
        let name = decode_component(k, what)?;
        // A bad value is blamed on its field, or on the whole input when the
        // field has no name.
        let value = decode_component(v, if name.is_empty() { what } else { &name })?;
        out.push((name, value));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::pairs;

    #[test]
    fn encodes_all_but_unreserved() {
        let p = pairs(&[("a b", "x+y&z=1/~._-"), ("name", "张三"), ("e", "")]);
        assert_eq!(encode_form(&p), "a%20b=x%2By%26z%3D1%2F~._-&name=%E5%BC%A0%E4%B8%89&e=");
        assert_eq!(encode_form(&[]), "");
    }

    #[test]
    fn decodes_plus_and_percent_twenty() {
        let d = decode_form("a=1+2&b=3%204&c=%2B&&d&e=%zz", "body").unwrap();
        assert_eq!(d, pairs(&[("a", "1 2"), ("b", "3 4"), ("c", "+"), ("d", ""), ("e", "%zz")]));
    }

    #[test]
    fn round_trip() {
        let p = pairs(&[("full_name", "A b+c&d=%"), ("x", "\u{1F600}\n")]);
        assert_eq!(decode_form(&encode_form(&p), "body").unwrap(), p);
    }

    #[test]
    fn refuses_bad_utf8() {
        let e = decode_form("a=%FF", "notification").unwrap_err();
        assert_eq!(e.code, Code::InvalidResponse);
        assert!(e.message.starts_with("a "), "{}", e.message);
        let e = decode_form("a=1&=%FF", "notification").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("notification"));
    }
}
