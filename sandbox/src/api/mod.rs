//! The aggregated authentication API of the service document at `/api/v1/`,
//! behaving as its joint-debugging environment does, on the crate's own
//! model in `verify/`: the parameter check is [`paybridge::verify::inbound`]
//! (the client's field validators), answers are written with
//! [`paybridge::verify::encode_envelope`], notifications with
//! [`paybridge::verify::notification_params`], and every signature follows the
//! sandbox rule of [`super::sign`].
//!
//! | method | path | module |
//! | --- | --- | --- |
//! | POST | `/api/v1/trade/cardcheck` (form) | [`checks`] |
//! | POST | `/api/v1/trade/namecheck` (form) | [`checks`] |
//! | GET | `/api/v1/checkresult` (query) | [`result`] |
//! | GET | `/api/v4/checkresult` (query): the same, the document's `v4` form | [`result`] |
//! | GET | `/sim/deliveries` (what was notified) | [`notifier`] |
//!
//! Every call goes through the same checks, in this order; the first that
//! fails answers:
//!
//! 1. the parameters decode (UTF-8, `%XX`) and the `env` header is there:
//!    else `90101`;
//! 2. the parameter check ([`paybridge::verify::validate_received`]: common
//!    parameters, fields, no name twice), on the parameters with `cvv2`
//!    decrypted when it is in the sandbox's encrypted form
//!    ([`super::sign`]): else `90101`, with every problem in
//!    `return_message`;
//! 3. `app_token` is the configured one: else `90103`;
//! 4. the caller is within its rate (per `app_token`, per second): else
//!    `90105`; with `--rate-limit-mode record-first`, a `cardcheck` or
//!    `namecheck` is recorded first (after check 6) and then limited, the
//!    other reading of the document (which does not say): sent again, it
//!    is `90104`, and `checkresult` by `order_id` finds it;
//! 5. `sign` is the sandbox rule's signature of the other parameters: else
//!    `90102`;
//! 6. for `cardcheck`/`namecheck`, the caller has not sent this `order_id`
//!    before: else `90104`. Result queries repeat their `order_id` (by
//!    design, for the query by `order_id`) and are not checked.
//!
//! What every answer looks like:
//!
//! - `data` holds `return_code`, `return_message`, `service_date`
//!   (`YYYYMMDD`), `seq_id` (once there is one), `order_date` and
//!   `order_id` (the request's, or for a result query the verification's
//!   own), and the fields of the call.
//! - HTTP 200 for the answers that carry a verification state (`10200`,
//!   `10201`, `10400`, `20000`, `20012`); 400 for the rest (`20011` and
//!   every `9xxxx`), as the service's failure samples.
//! - The signed envelope `{ data: "<JSON text>", signature }`, the
//!   signature being the sandbox rule's HMAC of the data text itself;
//!   except the refusals (`9xxxx`) of `checkresult`, which take the form of
//!   the service's result-query failure sample: `return_code` and
//!   `return_message` at the top level, no envelope, no signature.
//!
//! A call is accepted and recorded before its answer is written, with no
//! wait in between: a caller whose connection dropped finds its
//! verification with `checkresult` by `order_id`.

pub mod checks;
pub mod mock;
pub mod notifier;
pub mod post;
pub mod result;
pub mod store;

use std::sync::atomic::Ordering;

use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post as post_route};
use axum::Router;

use super::{sign, AppState, Sandbox};
use paybridge::json::Json;
use paybridge::verify::codes::{
    CARD_ASYNC, CARD_OK, NAME_OK, NO_PERMISSION, PARAM_ERROR, QUERY_IN_PROGRESS, QUERY_OK, SIGN_ERROR, TOO_FREQUENT,
};
use paybridge::verify::form::decode_form;
use paybridge::verify::inbound::problems_message;
use paybridge::verify::request::{CARD_CHECK_PATH, CHECK_RESULT_PATH, ENCRYPTED_FIELDS, NAME_CHECK_PATH, V4_CHECK_RESULT_PATH};
use paybridge::verify::{encode_envelope, ids, validate_received, Operation};

/// The authentication API's routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(CARD_CHECK_PATH, post_route(checks::card_check))
        .route(NAME_CHECK_PATH, post_route(checks::name_check))
        .route(CHECK_RESULT_PATH, get(result::check_result))
        .route(V4_CHECK_RESULT_PATH, get(result::check_result))
        .route("/sim/deliveries", get(notifier::list))
}

/// Decoded parameters, in order.
pub type Params = Vec<(String, String)>;

/// The non-empty value of `name`.
pub fn param<'a>(params: &'a Params, name: &str) -> Option<&'a str> {
    params.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).filter(|v| !v.is_empty())
}

/// A refused call: its return code and what was wrong.
#[derive(Debug)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
}

impl Refusal {
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }
}

/// The HTTP status of an answer with `return_code` `code`.
pub fn status_of(code: &str) -> StatusCode {
    match code {
        CARD_OK | CARD_ASYNC | NAME_OK | QUERY_OK | QUERY_IN_PROGRESS => StatusCode::OK,
        _ => StatusCode::BAD_REQUEST,
    }
}

/// Decodes a form body or a query string (check 1).
pub fn decode(raw: &[u8]) -> Result<Params, Refusal> {
    let text = std::str::from_utf8(raw).map_err(|_| Refusal::new(PARAM_ERROR, "the parameters are not UTF-8 text"))?;
    decode_form(text, "the parameters").map_err(|e| Refusal::new(PARAM_ERROR, e.into_data().message))
}

/// The parameters as the service reads them: each field the document sends
/// encrypted (`cvv2`) decrypted when it is in the sandbox's encrypted form
/// ([`sign::decrypt`]); one in that form that does not decrypt is `90101`.
/// Signatures are checked over the parameters as received.
pub fn decrypted(s: &Sandbox, params: &Params) -> Result<Params, Refusal> {
    let mut out = params.clone();
    for (k, v) in out.iter_mut() {
        if ENCRYPTED_FIELDS.contains(&k.as_str()) && v.starts_with(sign::ENCRYPTED_PREFIX) {
            *v = sign::decrypt(&s.config.secret, k, v).ok_or_else(|| {
                Refusal::new(
                    PARAM_ERROR,
                    format!("{k} is not in the sandbox's encrypted form: sbx1: then the hex of the value XORed with HMAC-SHA256(secret, \"encrypt:{k}\")"),
                )
            })?;
        }
    }
    Ok(out)
}

/// Checks 1 to 5 of the module table, shared by every call; the parameter
/// check (2) reads encrypted fields decrypted ([`decrypted`]).
pub fn admit(s: &Sandbox, op: Operation, headers: &HeaderMap, params: &Params) -> Result<(), Refusal> {
    if headers.get("env").is_none_or(|v| v.as_bytes().is_empty()) {
        return Err(Refusal::new(PARAM_ERROR, "the env header is missing (every call sends it; the sandbox takes any value)"));
    }
    let problems = validate_received(op, &decrypted(s, params)?);
    if !problems.is_empty() {
        return Err(Refusal::new(PARAM_ERROR, problems_message(&problems)));
    }
    let token = param(params, "app_token").unwrap_or_default();
    if token != s.config.app_token {
        return Err(Refusal::new(NO_PERMISSION, "app_token is not one the sandbox assigned (see its --app-token)"));
    }
    let check = matches!(op, Operation::CardCheck | Operation::NameCheck);
    if !(check && s.config.record_before_limit) {
        within_rate(s, token)?;
    }
    let expected = sign::sign(&s.config.secret, params.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    if !sign::same(param(params, "sign").unwrap_or_default(), &expected) {
        return Err(Refusal::new(
            SIGN_ERROR,
            "sign does not match: HMAC-SHA256 (lowercase hex, keyed with the sandbox secret) of the other non-empty parameters, sorted by name, written name=value and joined with &",
        ));
    }
    Ok(())
}

/// Check 4: the caller `token` is within its rate.
pub fn within_rate(s: &Sandbox, token: &str) -> Result<(), Refusal> {
    if s.limiter.allow(token, s.now_ms()) {
        return Ok(());
    }
    let recorded = if s.config.record_before_limit { " (a check is recorded all the same: ask checkresult by order_id)" } else { "" };
    Err(Refusal::new(
        TOO_FREQUENT,
        format!("more than {} calls in this second for this app_token; wait and send again{recorded}", s.config.rate_limit),
    ))
}

/// A new `seq_id`: the service's day, a counter and a random part (a
/// restarted sandbox does not hand out the ids of an earlier run).
pub fn new_seq_id(s: &Sandbox) -> String {
    let n = s.seq.fetch_add(1, Ordering::Relaxed);
    format!("S{}{n:010}{}", ids::order_date(s.now_ms() as f64), sign::random_hex(3))
}

/// The common fields of `data`.
pub fn common(s: &Sandbox, code: &str, message: &str, seq_id: Option<&str>, order_id: &str, order_date: &str) -> Vec<(String, Json)> {
    let mut data = vec![
        ("return_code".to_string(), Json::str(code)),
        ("return_message".to_string(), Json::str(message)),
        ("service_date".to_string(), Json::Str(ids::order_date(s.now_ms() as f64))),
    ];
    if let Some(seq_id) = seq_id {
        data.push(("seq_id".into(), Json::str(seq_id)));
    }
    data.push(("order_date".into(), Json::str(order_date)));
    data.push(("order_id".into(), Json::str(order_id)));
    data
}

/// `data` in the signed envelope, with the status of its `return_code`.
pub fn enveloped(s: &Sandbox, data: Vec<(String, Json)>) -> Response {
    let data = Json::Obj(data);
    let code = data.get("return_code").and_then(Json::as_str).unwrap_or_default();
    let text = data.to_text();
    let signature = sign::hmac_hex(&s.config.secret, &text);
    json_response(status_of(code), encode_envelope(&text, &signature))
}

/// A refusal in the signed envelope, echoing the request's order.
pub fn refused_enveloped(s: &Sandbox, params: &Params, r: Refusal) -> Response {
    let order_id = param(params, "order_id").unwrap_or_default();
    let order_date = param(params, "order_date").unwrap_or_default();
    enveloped(s, common(s, r.code, &r.message, None, order_id, order_date))
}

/// A refusal as the result-query failure sample: no envelope.
pub fn refused_bare(r: Refusal) -> Response {
    let body = Json::obj(vec![("return_code", Json::str(r.code)), ("return_message", Json::Str(r.message))]);
    json_response(status_of(r.code), body.to_text())
}

fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(axum::http::header::CONTENT_TYPE, "application/json; charset=utf-8")], body).into_response()
}
