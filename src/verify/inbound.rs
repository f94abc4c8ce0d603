//! A request as the service receives it: the parameter check behind the
//! service's `90101` answer, for whatever plays the service (the sandbox
//! server, tests).
//!
//! The client checks its fields before anything is sent (strictly by
//! default, [`validate`]); the service checks the document's formats of the
//! same fields on the decoded parameters of the form body or the query
//! string (digits, lengths, the final `X`; not the client's Luhn digit,
//! date of birth or check digit: the document's joint-debugging mock
//! decides on the ID number's first digit alone), together with the common
//! parameters the client adds (`order_date`, `order_id`, `app_token`,
//! `sign`: all required, in every call). Whether `app_token` is the right one (`90103`) and whether `sign`
//! matches (`90102`) are not parameter checks and are left to the caller.

use super::checks::valid_yyyymmdd;
use super::fields::{validate, Kind};
use super::step::Operation;
use crate::error::{cat, Problem};
use crate::json::Json;
use crate::prelude::*;

/// The common parameters of every call, in the order the service lists them.
pub const COMMON_PARAMS: [&str; 4] = ["order_date", "order_id", "app_token", "sign"];

fn problem(field: &str, code: &'static str, message: String) -> Problem {
    Problem { field: field.into(), code, message }
}

/// Every problem of the decoded parameters of a received request of `op`
/// (an `AwaitResult` is received as the `checkresult` it sends); empty when
/// they pass. Problems come in this order: names given more than once, the
/// missing common parameters, then the fields (as the client's validators
/// report them; `order_date`'s format among them).
pub fn validate_received(op: Operation, params: &[(String, String)]) -> Vec<Problem> {
    let mut out: Vec<Problem> = Vec::new();
    for (i, (k, _)) in params.iter().enumerate() {
        if params[..i].iter().any(|(k2, _)| k2 == k) && !out.iter().any(|p| p.field == *k) {
            out.push(problem(k, "repeated", cat!(k, " is given more than once")));
        }
    }
    let value = |name: &str| params.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).filter(|v| !v.is_empty());
    let query = matches!(op, Operation::CheckResult | Operation::AwaitResult(_));
    for name in COMMON_PARAMS {
        if value(name).is_none() {
            let why = if query && name == "order_id" { " (the original request's order_id when seq_id is empty)" } else { "" };
            out.push(problem(name, "required", cat!(name, " is required", why)));
        }
    }
    let fields = Json::Obj(crate::json::list(
        params.iter().filter(|(k, _)| k != "app_token" && k != "sign").map(|(k, v)| (k.clone(), Json::Str(v.clone()))).collect(),
    ));
    match op {
        Operation::CardCheck => out.extend(validate(Kind::CardCheck, &fields, false)),
        Operation::NameCheck => out.extend(validate(Kind::NameCheck, &fields, false)),
        Operation::CheckResult | Operation::AwaitResult(_) => {
            if value("order_date").is_some_and(|d| !valid_yyyymmdd(d)) {
                out.push(problem("order_date", "format", "order_date must be eight digits YYYYMMDD naming a real day".into()));
            }
        }
    }
    out
}

/// The `return_message` of a `90101` answer: every problem's message, joined
/// with `; `.
pub fn problems_message(problems: &[Problem]) -> String {
    let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
    messages.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::schedule::Wait;

    fn params(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn codes(p: &[Problem]) -> Vec<(&str, &str)> {
        p.iter().map(|p| (p.field.as_str(), p.code)).collect()
    }

    const COMMON: [(&str, &str); 4] = [("order_date", "20240101"), ("order_id", "o1"), ("app_token", "T"), ("sign", "s")];

    #[test]
    fn a_valid_card_check_passes_with_its_credentials() {
        let mut p = params(&COMMON);
        p.extend(params(&[("full_name", "A"), ("acct_no", "4111111111111111"), ("source_channel", "0"), ("extra", "kept")]));
        assert_eq!(validate_received(Operation::CardCheck, &p), vec![]);
    }

    #[test]
    fn common_parameters_are_required_in_every_call() {
        let p = params(&[("full_name", "A"), ("id_number", "11010519491231002X"), ("source_channel", "1"), ("sign", "")]);
        assert_eq!(
            codes(&validate_received(Operation::NameCheck, &p)),
            vec![("order_date", "required"), ("order_id", "required"), ("app_token", "required"), ("sign", "required")]
        );
        let q = validate_received(Operation::CheckResult, &params(&[("seq_id", "")]));
        assert_eq!(q.len(), 4);
        assert_eq!(q[1].message, "order_id is required (the original request's order_id when seq_id is empty)");
        let wait = Operation::AwaitResult(Wait::default());
        assert_eq!(
            validate_received(wait, &params(&[("order_date", "20240231"), ("order_id", "o"), ("app_token", "T"), ("sign", "s")])).len(),
            1
        );
    }

    #[test]
    fn fields_are_checked_as_the_client_checks_them() {
        let mut p = params(&COMMON);
        p[0].1 = "2024-01-01".into();
        p.extend(params(&[("acct_no", "4111-1111"), ("source_channel", "0"), ("mer_bg_url", "ftp://x")]));
        let found = validate_received(Operation::CardCheck, &p);
        assert_eq!(
            codes(&found),
            vec![("order_date", "format"), ("full_name", "required"), ("acct_no", "format"), ("mer_bg_url", "format")]
        );
        let message = problems_message(&found);
        assert!(message.starts_with("order_date must be eight digits YYYYMMDD naming a real day; full_name is required; "), "{message}");
        assert_eq!(message.matches("; ").count(), 3);
    }

    #[test]
    fn the_documents_formats_not_the_clients_strict_checks() {
        // "Joint-debugging environment mock for cardcheck: the result
        // depends only on the ID number": a number the strict client
        // refuses (no birth date, no check digit; no Luhn digit) is taken.
        let mut p = params(&COMMON);
        p.extend(params(&[
            ("full_name", "A"),
            ("acct_no", "6222021234567890123"),
            ("id_number", "800000000000000000"),
            ("source_channel", "0"),
        ]));
        assert_eq!(validate_received(Operation::CardCheck, &p), vec![]);
        p[6].1 = "80000000000000000".into();
        assert_eq!(codes(&validate_received(Operation::CardCheck, &p)), vec![("id_number", "length")]);
    }

    #[test]
    fn repeated_names_are_reported_once() {
        let mut p = params(&COMMON);
        p.extend(params(&[("seq_id", "S1"), ("seq_id", "S2"), ("seq_id", "S3")]));
        assert_eq!(codes(&validate_received(Operation::CheckResult, &p)), vec![("seq_id", "repeated")]);
    }
}
