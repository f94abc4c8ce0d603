//! Validation of the fields of `cardcheck` and `namecheck` before anything
//! is sent. Every problem is reported at once, each naming its field.
//!
//! Values are strings (`null` counts as absent, an empty string as not
//! given); any other kind of value is a problem of code `type`, for fields
//! the module does not know too, since every parameter travels as text.
//! Unknown fields are otherwise passed through untouched. `app_token` and
//! `sign` are set by the client and may not appear among the fields;
//! `order_id` and `order_date` may (they are generated when absent).

use super::checks::{all_digits, check_id_number, luhn_ok, valid_mmyy, valid_yyyymmdd, IdFault};
use crate::error::{cat, u64_str, Code, PayError, Problem};
use crate::json::Json;
use crate::prelude::*;

/// Which request the fields are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    CardCheck,
    NameCheck,
}

/// Every problem of the fields of a `cardcheck` request (empty when valid),
/// strictly ([`validate`]).
pub fn validate_card_check(fields: &Json) -> Vec<Problem> {
    validate(Kind::CardCheck, fields, true)
}

/// Every problem of the fields of a `namecheck` request (empty when valid),
/// strictly ([`validate`]).
pub fn validate_name_check(fields: &Json) -> Vec<Problem> {
    validate(Kind::NameCheck, fields, true)
}

/// `invalid_request` carrying every problem; the message is the first one's
/// (with a count of the others) and `field` is set when only one field is
/// at fault.
pub fn invalid_request(problems: Vec<Problem>) -> PayError {
    let first = problems.first().map(|p| p.message.clone()).unwrap_or_else(|| "the request is invalid".into());
    let message = match problems.len() {
        0 | 1 => first,
        n => cat!(&first, " (and ", &u64_str(n as u64 - 1), " more problem", if n > 2 { "s)" } else { ")" }),
    };
    let mut e = PayError::new(Code::InvalidRequest, message);
    if problems.len() == 1 {
        e.field = problems.first().map(|p| p.field.clone());
    }
    e.with_details(problems)
}

fn problem(field: &str, code: &'static str, message: String) -> Problem {
    Problem { field: field.into(), code, message }
}

/// The fields as `(name, value)` pairs in first-seen order, the last value
/// winning where a name repeats (as `JSON.parse` does); `null` values are
/// left out and non-string values reported.
fn collect<'a>(m: &'a [(String, Json)], problems: &mut Vec<Problem>) -> Vec<(&'a str, &'a str)> {
    let mut out: Vec<(&str, &str)> = Vec::new();
    for (i, (k, v)) in m.iter().enumerate() {
        if m[i + 1..].iter().any(|(k2, _)| k2 == k) {
            continue;
        }
        match v {
            Json::Null => {}
            Json::Str(s) => out.push((k, s)),
            other => problems.push(problem(k, "type", cat!(k, " must be a string, not ", other.kind()))),
        }
    }
    out
}

/// The given, non-empty value of a field.
fn given<'a>(fields: &[(&str, &'a str)], name: &str) -> Option<&'a str> {
    fields.iter().find(|(k, _)| *k == name).map(|(_, v)| *v).filter(|v| !v.is_empty())
}

/// True when `name` is present with a value of the wrong kind (already
/// reported as `type`): it is not "missing" then.
fn mistyped(m: &[(String, Json)], name: &str) -> bool {
    m.iter().rev().find(|(k, _)| k == name).is_some_and(|(_, v)| !matches!(v, Json::Null | Json::Str(_)))
}

/// Every problem of the fields of a request of `kind`. `strict` (the
/// client's default, `strict` of `AuthClient`) adds the checks the
/// document does not make: a card number's Luhn digit and length (12 to
/// 19), an ID number's date of birth and check digit. Without it only the
/// document's formats are checked: digits, lengths, the final `X`.
pub fn validate(kind: Kind, fields: &Json, strict: bool) -> Vec<Problem> {
    let mut out = Vec::new();
    let Some(m) = fields.as_obj() else {
        out.push(problem("fields", "type", cat!("fields must be an object, not ", fields.kind())));
        return out;
    };
    let f = collect(m, &mut out);
    let present = |name: &str| given(&f, name);
    let required = |out: &mut Vec<Problem>, name: &str, why: &str| {
        if present(name).is_none() && !mistyped(m, name) {
            out.push(problem(name, "required", cat!(name, " is required", why)));
        }
    };

    for &reserved in ["app_token", "sign"].iter() {
        if m.iter().any(|(k, v)| k == reserved && !v.is_null()) {
            out.push(problem(
                reserved,
                "reserved",
                cat!(reserved, " is set by the client (from its appToken and sign hook); leave it out of the fields"),
            ));
        }
    }
    if let Some(d) = present("order_date") {
        if !valid_yyyymmdd(d) {
            out.push(problem("order_date", "format", "order_date must be eight digits YYYYMMDD naming a real day".into()));
        }
    }

    required(&mut out, "full_name", "");
    if present("full_name").is_some_and(|n| n.trim().is_empty()) {
        out.push(problem("full_name", "required", "full_name is only spaces: it must name the holder".into()));
    }
    match kind {
        Kind::CardCheck => {
            required(&mut out, "acct_no", "");
            if let Some(acct) = present("acct_no") {
                // Card numbers carry a Luhn digit; a passbook (P), a virtual
                // account (V) or a corporate account (acct_type E) need not.
                let card = strict && !matches!(present("card_type"), Some("P" | "V")) && present("acct_type") != Some("E");
                check_account_number(&mut out, acct, card);
            }
        }
        Kind::NameCheck => required(&mut out, "id_number", ""),
    }
    if let Some(id) = present("id_number") {
        check_id(&mut out, id, strict);
    }
    required(&mut out, "source_channel", " (0 PC, 1 Android, 2 iOS)");
    check_enum(&mut out, &f, "source_channel", &["0", "1", "2"]);

    if kind == Kind::CardCheck {
        if let Some(mobile) = present("mobile_no") {
            if mobile.len() != 11 || !all_digits(mobile) {
                out.push(problem("mobile_no", "format", "mobile_no must be 11 digits".into()));
            }
            if present("id_number").is_none() && !mistyped(m, "id_number") {
                out.push(problem(
                    "mobile_no",
                    "factors",
                    "mobile_no needs id_number: the supported factor sets are acct_no + full_name, acct_no + full_name + id_number, and acct_no + full_name + id_number + mobile_no".into(),
                ));
            }
        }
        check_enum(&mut out, &f, "acct_type", &["E", "P"]);
        check_enum(&mut out, &f, "card_type", &["D", "C", "P", "V", "Y", "Z"]);
        let credit = present("card_type") == Some("C");
        if credit {
            required(&mut out, "valid_date", " for a credit card (card_type C), as mmyy");
            required(&mut out, "cvv2", " for a credit card (card_type C)");
        }
        if let Some(d) = present("valid_date") {
            if !valid_mmyy(d) {
                out.push(problem("valid_date", "format", "valid_date must be mmyy: four digits with a month of 01 to 12".into()));
            }
        }
        if let Some(url) = present("mer_bg_url") {
            check_url(&mut out, url);
        }
    }
    out
}

fn check_account_number(out: &mut Vec<Problem>, acct: &str, card: bool) {
    if !all_digits(acct) {
        out.push(problem("acct_no", "format", "acct_no must be the account number's digits only (no spaces or dashes)".into()));
    } else if !card {
        if acct.len() > 32 {
            out.push(problem("acct_no", "length", cat!("acct_no must be at most 32 digits (got ", &u64_str(acct.len() as u64), ")")));
        }
    } else if !(12..=19).contains(&acct.len()) {
        out.push(problem("acct_no", "length", cat!("acct_no must be 12 to 19 digits (got ", &u64_str(acct.len() as u64), ")")));
    } else if !luhn_ok(acct) {
        out.push(problem("acct_no", "luhn", "acct_no is not a valid card number (its Luhn check digit does not match: a passbook or virtual account is card_type P or V, a corporate account acct_type E)".into()));
    }
}

fn check_id(out: &mut Vec<Problem>, id: &str, strict: bool) {
    match check_id_number(id) {
        Ok(()) | Err(IdFault::BirthDate | IdFault::CheckDigit) if !strict => {}
        Ok(()) => {}
        Err(IdFault::Length) => out.push(problem(
            "id_number",
            "length",
            cat!("id_number must be 18 characters (got ", &u64_str(id.chars().count() as u64), ")"),
        )),
        Err(IdFault::Format) => out.push(problem("id_number", "format", "id_number must be 17 digits followed by a digit or X".into())),
        Err(IdFault::BirthDate) => out.push(problem(
            "id_number",
            "format",
            "id_number's characters 7 to 14 must be a date of birth, YYYYMMDD (a real calendar date)".into(),
        )),
        Err(IdFault::CheckDigit) => out.push(problem(
            "id_number",
            "check_digit",
            "id_number has a wrong check digit (its last character does not match the first 17)".into(),
        )),
    }
}

fn check_enum(out: &mut Vec<Problem>, f: &[(&str, &str)], name: &str, allowed: &[&str]) {
    if let Some(v) = given(f, name) {
        if !allowed.contains(&v) {
            out.push(problem(name, "enum", cat!(name, " must be one of ", &allowed.join(", "))));
        }
    }
}

fn check_url(out: &mut Vec<Problem>, url: &str) {
    let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"));
    match rest {
        None => out.push(problem("mer_bg_url", "format", "mer_bg_url must begin with http:// or https://".into())),
        Some(rest) if rest.is_empty() || rest.starts_with('/') => {
            out.push(problem("mer_bg_url", "format", "mer_bg_url has no host after its scheme".into()))
        }
        Some(_) if url.chars().any(|c| c.is_whitespace() || c.is_control()) => {
            out.push(problem("mer_bg_url", "format", "mer_bg_url may not contain spaces or control characters".into()))
        }
        Some(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn j(t: &str) -> Json {
        parse(t, Code::InvalidRequest, "fields").unwrap()
    }

    fn codes(p: &[Problem]) -> Vec<(&str, &str)> {
        p.iter().map(|p| (p.field.as_str(), p.code)).collect()
    }

    #[test]
    fn valid_two_three_four_factor_sets() {
        let two = j(r#"{"full_name":"张三","acct_no":"4111111111111111","source_channel":"0"}"#);
        assert_eq!(validate_card_check(&two), vec![]);
        let three = j(r#"{"full_name":"A","acct_no":"4111111111111111","id_number":"11010519491231002X","source_channel":"1"}"#);
        assert_eq!(validate_card_check(&three), vec![]);
        let four = j(
            r#"{"full_name":"A","acct_no":"4111111111111111","id_number":"11010519491231002x","mobile_no":"13800138000","source_channel":"2","extra":"kept"}"#,
        );
        assert_eq!(validate_card_check(&four), vec![]);
    }

    #[test]
    fn reports_every_problem() {
        let f = j(
            r#"{"acct_no":"4111111111111112","id_number":"110105194912310021","mobile_no":"1380013800","card_type":"C","acct_type":"X","source_channel":"3","mer_bg_url":"ftp://x"}"#,
        );
        assert_eq!(
            codes(&validate_card_check(&f)),
            vec![
                ("full_name", "required"),
                ("acct_no", "luhn"),
                ("id_number", "check_digit"),
                ("source_channel", "enum"),
                ("mobile_no", "format"),
                ("acct_type", "enum"),
                ("valid_date", "required"),
                ("cvv2", "required"),
                ("mer_bg_url", "format"),
            ]
        );
        for p in validate_card_check(&f) {
            assert!(p.message.contains(&p.field), "{}", p.message);
        }
    }

    #[test]
    fn numbers_are_type_problems_not_missing() {
        let f = j(r#"{"full_name":"A","acct_no":4111111111111111,"source_channel":1,"other":true}"#);
        assert_eq!(codes(&validate_card_check(&f)), vec![("acct_no", "type"), ("source_channel", "type"), ("other", "type")]);
    }

    #[test]
    fn namecheck_needs_id_number() {
        let f = j(r#"{"full_name":"A","source_channel":"0"}"#);
        assert_eq!(codes(&validate_name_check(&f)), vec![("id_number", "required")]);
        let ok = j(r#"{"full_name":"A","id_number":"11010519491231002X","source_channel":"0","acct_no":"x"}"#);
        assert_eq!(validate_name_check(&ok), vec![]);
    }

    #[test]
    fn reserved_and_common_fields() {
        let f = j(
            r#"{"full_name":"A","acct_no":"4111111111111111","source_channel":"0","sign":"x","app_token":"y","order_date":"20241340","order_id":"o1"}"#,
        );
        assert_eq!(codes(&validate_card_check(&f)), vec![("app_token", "reserved"), ("sign", "reserved"), ("order_date", "format")]);
    }

    #[test]
    fn strict_false_checks_the_documents_formats_only() {
        // Service document, bank-card fields: "id_number | String(18)";
        // no Luhn digit, date of birth or check digit is named.
        let f = j(r#"{"full_name":"A","acct_no":"6222021234567890123","id_number":"800000000000000000","source_channel":"0"}"#);
        assert_eq!(codes(&validate_card_check(&f)), vec![("acct_no", "luhn"), ("id_number", "format")]);
        assert_eq!(validate(Kind::CardCheck, &f, false), vec![]);
        let n = j(r#"{"full_name":"A","id_number":"110105194912310021","source_channel":"0"}"#);
        assert_eq!(codes(&validate_name_check(&n)), vec![("id_number", "check_digit")]);
        assert_eq!(validate(Kind::NameCheck, &n, false), vec![]);
        for (bad, code) in [("80000000000000000", "length"), ("8000000000000000Y0", "format"), ("80000000000000000Y", "format")] {
            let n = j(&cat!(r#"{"full_name":"A","source_channel":"0","id_number":""#, bad, "\"}"));
            assert_eq!(codes(&validate(Kind::NameCheck, &n, false)), vec![("id_number", code)], "{bad}");
        }
        let long = j(r#"{"full_name":"A","acct_no":"622202123456789012345678901234567","source_channel":"0"}"#);
        assert_eq!(codes(&validate(Kind::CardCheck, &long, false)), vec![("acct_no", "length")]);
        let dashed = j(r#"{"full_name":"A","acct_no":"6222-0212","source_channel":"0"}"#);
        assert_eq!(codes(&validate(Kind::CardCheck, &dashed, false)), vec![("acct_no", "format")]);
    }

    #[test]
    fn not_an_object() {
        assert_eq!(codes(&validate_name_check(&Json::str("x"))), vec![("fields", "type")]);
    }

    #[test]
    fn later_duplicate_wins_and_null_is_absent() {
        let f = j(r#"{"full_name":"A","acct_no":"1","acct_no":"4111111111111111","source_channel":"0","imei":null}"#);
        assert_eq!(validate_card_check(&f), vec![]);
    }

    #[test]
    fn mer_bg_url_forms() {
        let base = r#"{"full_name":"A","acct_no":"4111111111111111","source_channel":"0","mer_bg_url":"#;
        let with = |u: &str| validate_card_check(&j(&cat!(base, u, "}")));
        assert_eq!(with(r#""https://m.example/cb?a=1""#), vec![]);
        assert_eq!(with(r#""http://127.0.0.1:9/cb""#), vec![]);
        assert_eq!(codes(&with(r#""https://""#)), vec![("mer_bg_url", "format")]);
        assert_eq!(codes(&with(r#""https:///x""#)), vec![("mer_bg_url", "format")]);
        assert_eq!(codes(&with(r#""HTTPS://x""#)), vec![("mer_bg_url", "format")]);
        assert_eq!(codes(&with(r#""https://a b""#)), vec![("mer_bg_url", "format")]);
    }
}
