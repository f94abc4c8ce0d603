//! The verification result notification (service to merchant, POSTed to
//! `mer_bg_url`): decoding, the input of its `sign`, and the same outcome
//! shape as the answers.
//!
//! A notification arrives as form-encoded text (`+` or `%20` for a space)
//! or, when the merchant's server has decoded it already, as an object; JSON
//! text is read too. `file_list` and `face_identify_list` come as JSON text
//! inside the form and are decoded into `record`. The `sign` check is the
//! edge's `verify` hook over [`Notification::sign_input`]: the canonical
//! sign string of every other field (values as they came, before the lists
//! are decoded; in an object, a list given as an array counts as its compact
//! JSON text).
//!
//! A notification that reports a result must carry `resp_info` and
//! `full_name` (the document's asynchronous result): without them it is
//! `invalid_response` naming the field, whatever its `sign`.
//!
//! [`notification_params`] goes the other way, for whatever plays the
//! service (the sandbox server, tests): the form fields of a notification
//! from its record, which `sign_input` and `encode_form` then sign and encode.

use super::codes::{Interface, State};
use super::envelope::text_field;
use super::form::decode_form;
use super::outcome::Outcome;
use super::sign::sign_input;
use crate::error::{cat, Code, PayError};
use crate::json::Json;
use crate::prelude::*;

/// The fields that hold lists, as JSON text in a form.
pub const LIST_FIELDS: [&str; 2] = ["file_list", "face_identify_list"];
/// The longest `seq_id` accepted (bytes): it bounds what
/// [`super::dedupe::SeenSeqIds`] keeps.
pub const MAX_SEQ_ID_LEN: usize = 256;

/// A decoded notification whose `sign` is still to be checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Notification {
    /// The outcome it reports (`record` holds every field but `sign`).
    pub outcome: Outcome,
    /// `sign` as it came.
    pub sign: String,
    /// The canonical sign string of the other fields: what `sign` signs.
    pub sign_input: String,
}

impl Notification {
    /// The outcome, once the `verify` hook has said whether `sign` matches
    /// `sign_input`; `bad_signature` when it does not.
    pub fn accept(self, verified: bool) -> Result<Outcome, PayError> {
        if verified {
            Ok(self.outcome)
        } else {
            Err(PayError::field(
                Code::BadSignature,
                "sign",
                cat!(
                    "sign of the notification for seq_id ",
                    self.outcome.seq_id.as_deref().unwrap_or(""),
                    " was rejected by the verify hook"
                ),
            ))
        }
    }
}

fn bad(field: &str, why: &str) -> PayError {
    PayError::field(Code::InvalidResponse, field, cat!(field, why))
}

/// Decodes a notification: form-encoded text, JSON text or an object.
pub fn parse_notification(input: &Json) -> Result<Notification, PayError> {
    let raw: Vec<(String, String)> = match input {
        Json::Str(text) if text.trim_start().starts_with('{') => {
            let v = crate::json_text::parse(text, Code::InvalidResponse, "notification")?;
            notification_params(&v)?
        }
        Json::Str(text) => decode_form(text, "notification")?,
        Json::Obj(_) => notification_params(input)?,
        other => return Err(bad("notification", &cat!(" must be form-encoded text or an object, not ", other.kind()))),
    };
    for (i, (k, _)) in raw.iter().enumerate() {
        if raw[..i].iter().any(|(k2, _)| k2 == k) {
            if k.is_empty() {
                return Err(bad("notification", " has two fields with an empty name"));
            }
            return Err(bad(k, " appears twice in the notification"));
        }
    }
    let mut record = Vec::new();
    let mut sign = None;
    for (k, v) in &raw {
        if k == "sign" {
            sign = Some(v.clone());
        } else if LIST_FIELDS.contains(&k.as_str()) && !v.is_empty() {
            let list = crate::json_text::parse(v, Code::InvalidResponse, k)?;
            if !matches!(list, Json::Arr(_)) {
                return Err(bad(k, &cat!(" must be a JSON list, not ", list.kind())));
            }
            record.push((k.clone(), list));
        } else {
            record.push((k.clone(), Json::Str(v.clone())));
        }
    }
    let record = Json::Obj(crate::json::list(record));
    let need = |name: &str| text_field(&record, name).ok_or_else(|| bad(name, " is missing from the notification"));
    let seq_id = need("seq_id")?;
    if seq_id.len() > MAX_SEQ_ID_LEN {
        return Err(bad("seq_id", " is longer than 256 bytes"));
    }
    let order_id = need("order_id")?;
    let return_code = need("return_code")?;
    let sign = match sign {
        Some(s) if !s.is_empty() => s,
        _ => return Err(bad("sign", " is missing from the notification")),
    };
    let order_date = text_field(&record, "order_date").unwrap_or_default();
    // A notification answers no call: its code is read as one of the
    // interface it names (a cardcheck's asynchronous result by default).
    let interface = Interface::of_code(&return_code).unwrap_or(Interface::CardCheck);
    let outcome = Outcome::from_data(&record, interface, &return_code, &order_id, &order_date, true);
    // "The asynchronous result of cardcheck is described with resp_code
    // (Y), resp_info (Y), full_name (Y)": a result without any of the
    // three is not taken (without resp_code it would read as an exception,
    // a final result the service never gave).
    if matches!(outcome.state, State::Consistent | State::Inconsistent | State::Exception) {
        for name in ["resp_code", "resp_info", "full_name"] {
            if text_field(&record, name).is_none() {
                return Err(bad(name, " is missing from the notification, which reports a result (the document requires it)"));
            }
        }
    }
    Ok(Notification { outcome, sign, sign_input: sign_input(&raw) })
}

/// The fields of an object as text, in order: strings as they are, numbers,
/// booleans, lists and objects as their compact JSON text; `null` is left
/// out. This is how a notification object travels as a form, and the
/// pairs whose [`sign_input`] its `sign` signs.
pub fn notification_params(v: &Json) -> Result<Vec<(String, String)>, PayError> {
    let Some(m) = v.as_obj() else {
        return Err(bad("notification", &cat!(" must be an object, not ", v.kind())));
    };
    Ok(m.iter()
        .filter_map(|(k, v)| match v {
            Json::Null => None,
            Json::Str(s) => Some((k.clone(), s.clone())),
            other => Some((k.clone(), other.to_text())),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::codes::State;

    const FORM: &str = "seq_id=S1&order_id=o1&return_code=10200&resp_code=00&resp_info=%E4%B8%80%E8%87%B4+ok&full_name=A&mp_ssim=88.5&file_list=%5B%7B%22file_id%22%3A%22f1%22%2C%22file_type%22%3A%2200%22%2C%22file_source%22%3A%22JVS%22%7D%5D&sign=abc";

    #[test]
    fn form_notification() {
        let n = parse_notification(&Json::str(FORM)).unwrap();
        assert_eq!(n.sign, "abc");
        assert_eq!(
            n.sign_input,
            "file_list=[{\"file_id\":\"f1\",\"file_type\":\"00\",\"file_source\":\"JVS\"}]&full_name=A&mp_ssim=88.5&order_id=o1&resp_code=00&resp_info=一致 ok&return_code=10200&seq_id=S1"
        );
        let o = n.outcome.clone();
        assert_eq!(o.state, State::Consistent);
        assert_eq!(o.seq_id.as_deref(), Some("S1"));
        assert_eq!(o.order_id, "o1");
        assert_eq!(o.order_date, "");
        assert_eq!(o.score, Some(88.5));
        assert_eq!(o.resp_info.as_deref(), Some("一致 ok"));
        let rec = o.record.as_ref().unwrap();
        assert_eq!(rec.get("sign"), None);
        let list = rec.get("file_list").unwrap();
        assert!(matches!(list, Json::Arr(a) if a.len() == 1));
        assert_eq!(n.clone().accept(true).unwrap(), o);
        let e = n.accept(false).unwrap_err();
        assert_eq!(e.code, Code::BadSignature);
    }

    #[test]
    fn object_and_json_text_agree_with_the_form() {
        let from_form = parse_notification(&Json::str(FORM)).unwrap();
        let obj = Json::Obj(decode_form(FORM, "n").unwrap().into_iter().map(|(k, v)| (k, Json::Str(v))).collect());
        assert_eq!(parse_notification(&obj).unwrap(), from_form);
        assert_eq!(parse_notification(&Json::Str(obj.to_text())).unwrap(), from_form);
        // A list already decoded by the merchant's server signs as its text.
        let mut m = obj.as_obj().unwrap().to_vec();
        for (k, v) in m.iter_mut() {
            if k == "file_list" {
                *v = crate::json_text::parse(v.as_str().unwrap(), Code::InvalidResponse, "l").unwrap();
            }
        }
        assert_eq!(parse_notification(&Json::Obj(crate::json::list(m))).unwrap(), from_form);
    }

    #[test]
    fn a_record_travels_as_a_signed_form() {
        use crate::verify::form::encode_form;
        let file = Json::obj(vec![("file_id", Json::str("f1")), ("file_type", Json::str("00")), ("file_source", Json::str("JVS"))]);
        let record = Json::obj(vec![
            ("seq_id", Json::str("S 1")),
            ("order_id", Json::str("o&1")),
            ("return_code", Json::str("10200")),
            ("resp_code", Json::str("01")),
            ("resp_info", Json::str("inconsistent")),
            ("full_name", Json::str("A")),
            ("mp_ssim", Json::str("42.5")),
            ("id_number", Json::Null),
            ("file_list", Json::Arr(vec![file])),
            ("face_identify_list", Json::Arr(vec![])),
        ]);
        let mut params = notification_params(&record).unwrap();
        let names: Vec<&str> = params.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            ["seq_id", "order_id", "return_code", "resp_code", "resp_info", "full_name", "mp_ssim", "file_list", "face_identify_list"]
        );
        assert_eq!(params[7].1, r#"[{"file_id":"f1","file_type":"00","file_source":"JVS"}]"#);
        assert_eq!(params[8].1, "[]");
        let input = sign_input(&params);
        params.push(("sign".into(), "sig".into()));
        let n = parse_notification(&Json::Str(encode_form(&params))).unwrap();
        assert_eq!(n.sign, "sig");
        assert_eq!(n.sign_input, input);
        assert_eq!(n.outcome.state, State::Inconsistent);
        assert_eq!(n.outcome.seq_id.as_deref(), Some("S 1"));
        assert_eq!(n.outcome.order_id, "o&1");
        assert_eq!(n.outcome.score, Some(42.5));
        assert!(matches!(n.outcome.record.as_ref().and_then(|r| r.get("file_list")), Some(Json::Arr(a)) if a.len() == 1));
        assert!(notification_params(&Json::str("x")).is_err());
    }

    #[test]
    fn refuses_broken_notifications() {
        for (text, field) in [
            ("order_id=o&return_code=10200&sign=x", "seq_id"),
            ("seq_id=S&return_code=10200&sign=x", "order_id"),
            ("seq_id=S&order_id=o&sign=x", "return_code"),
            ("seq_id=S&order_id=o&return_code=10200&sign=", "sign"),
            ("seq_id=S&order_id=o&return_code=1&sign=x&seq_id=T", "seq_id"),
            ("seq_id=S&order_id=o&return_code=1&sign=x&file_list=%5B", "file_list"),
            ("seq_id=S&order_id=o&return_code=1&sign=x&face_identify_list=%7B%7D", "face_identify_list"),
            ("seq_id=%FF&order_id=o&return_code=1&sign=x", "seq_id"),
        ] {
            let e = parse_notification(&Json::str(text)).unwrap_err();
            assert_eq!(e.code, Code::InvalidResponse, "{text}");
            assert_eq!(e.field.as_deref(), Some(field), "{text}: {}", e.message);
        }
        let e = parse_notification(&Json::str("seq_id=S&order_id=o&return_code=1&sign=x&=a&=b")).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("notification"));
        assert_eq!(e.message, "notification has two fields with an empty name");
        for (text, field) in [
            ("seq_id=S&order_id=o&return_code=10200&resp_code=00&full_name=A&sign=x", "resp_info"),
            ("seq_id=S&order_id=o&return_code=10200&resp_code=01&resp_info=no&sign=x", "full_name"),
            ("seq_id=S&order_id=o&return_code=10200&resp_code=00&resp_info=&full_name=A&sign=x", "resp_info"),
            ("seq_id=S&order_id=o&return_code=10200&resp_info=ok&full_name=A&sign=x", "resp_code"),
            ("seq_id=S&order_id=o&return_code=10200&resp_code=&resp_info=ok&full_name=A&sign=x", "resp_code"),
        ] {
            let e = parse_notification(&Json::str(text)).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (Code::InvalidResponse, Some(field)), "{text}");
        }
        // A failure carries no result: neither is required.
        assert!(parse_notification(&Json::str("seq_id=S&order_id=o&return_code=10210&sign=x")).is_ok());
        let long = cat!("seq_id=", &"9".repeat(257), "&order_id=o&return_code=1&sign=x");
        assert!(parse_notification(&Json::Str(long)).is_err());
        assert!(parse_notification(&Json::Num(1.0)).is_err());
        assert!(parse_notification(&Json::str("{oops")).is_err());
        assert!(parse_notification(&Json::str("[1]")).is_err());
    }
}
