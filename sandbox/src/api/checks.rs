//! `POST /api/v1/trade/cardcheck` and `POST /api/v1/trade/namecheck`.
//!
//! After the checks of the module table, the verification is recorded under
//! a new `seq_id` and its result decided by the mock ([`super::mock`]):
//!
//! - `namecheck`: `10400` with `resp_code` and `resp_info` (always
//!   synchronous; a `mer_bg_url` is not one of its fields and changes
//!   nothing);
//! - `cardcheck` without `mer_bg_url`: `10200` with `resp_code` and
//!   `resp_info`;
//! - `cardcheck` with `mer_bg_url`: `10201`, no result yet; after the
//!   notification delay the result is ready and notified ([`super::notifier`])
//!   when `mer_bg_url` is a loopback `http://` address; to any other the
//!   sandbox posts nothing, and the `10201`'s `return_message` says so.
//!
//! Refusals are answered in the signed envelope, HTTP 400, as the service's
//! parameter-check sample.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;

use super::mock::{result_fields, Subject, Verdict};
use super::post::target;
use super::store::Verification;
use super::{admit, common, decode, enveloped, new_seq_id, notifier, param, refused_enveloped, within_rate, Params, Refusal};
use crate::{lock, AppState};
use paybridge::json::Json;
use paybridge::verify::codes::{CARD_ASYNC, CARD_OK, NAME_OK, REPEATED};
use paybridge::verify::Operation;

pub async fn card_check(State(s): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    answer(&s, Operation::CardCheck, &headers, &body)
}

pub async fn name_check(State(s): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    answer(&s, Operation::NameCheck, &headers, &body)
}

/// Everything after the body was read, with no wait: once recorded, a
/// verification is there whether or not the answer reaches the caller.
fn answer(s: &AppState, op: Operation, headers: &HeaderMap, body: &[u8]) -> Response {
    let params = match decode(body) {
        Ok(p) => p,
        Err(r) => return refused_enveloped(s, &Vec::new(), r),
    };
    match admit(s, op, headers, &params).and_then(|()| accept(s, op, &params)) {
        Ok(r) => r,
        Err(r) => refused_enveloped(s, &params, r),
    }
}

fn accept(s: &AppState, op: Operation, params: &Params) -> Result<Response, Refusal> {
    let get = |name: &str| param(params, name);
    let (app_token, order_id, order_date) =
        (get("app_token").unwrap_or_default(), get("order_id").unwrap_or_default(), get("order_date").unwrap_or_default());
    let card = op == Operation::CardCheck;
    let verdict = Verdict::of(get("id_number"), if card { get("acct_no") } else { None });
    let seq_id = new_seq_id(s);
    let who = Subject {
        full_name: get("full_name").unwrap_or_default(),
        id_number: get("id_number"),
        authorization_info: get("authorization_info"),
    };
    let notify_to = if card { get("mer_bg_url") } else { None };
    let v = Verification {
        seq_id: seq_id.clone(),
        app_token: app_token.into(),
        order_id: order_id.into(),
        order_date: order_date.into(),
        result: result_fields(&s.config.secret, &seq_id, verdict, &who),
        ready: notify_to.is_none(),
    };
    if !lock(&s.verifications).insert_new(v) {
        return Err(Refusal::new(REPEATED, format!("order_id {order_id} was sent before; ask its result with checkresult by order_id")));
    }
    if s.config.record_before_limit {
        within_rate(s, app_token)?;
    }
    let mut data;
    match notify_to {
        Some(url) => {
            notifier::schedule(s.clone(), seq_id.clone(), url.to_string());
            // The sandbox posts only to loopback http addresses: it says so
            // where the caller reads, not only in /sim/deliveries.
            let message = match target(url) {
                Ok(_) => "accepted; the result will be notified".to_string(),
                Err(why) => format!("accepted; the result is not notified ({why}): ask checkresult"),
            };
            data = common(s, CARD_ASYNC, &message, Some(&seq_id), order_id, order_date);
        }
        None => {
            let code = if card { CARD_OK } else { NAME_OK };
            data = common(s, code, "request succeeded", Some(&seq_id), order_id, order_date);
            data.push(("resp_code".into(), Json::str(verdict.resp_code())));
            data.push(("resp_info".into(), Json::str(verdict.resp_info())));
        }
    }
    Ok(enveloped(s, data))
}
