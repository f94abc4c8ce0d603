//! `GET /api/v1/checkresult`: the result of a verification, by `seq_id`
//! when it is non-empty, else by the caller's `order_id` (the original
//! request's, for a caller that never got its answer).
//!
//! - `20000` with the record: `resp_code`, `resp_info`, `mp_ssim`,
//!   `full_name`, `id_number` (masked), `file_list`, `face_identify_list`,
//!   `authorization_info`, `encrypt_method` ([`super::mock::result_fields`]);
//! - `20012` while an asynchronous result is not ready;
//! - `20011` (HTTP 400, signed) when the caller has no such verification.
//!
//! `data` names the verification's own `order_id` and `order_date`, so a
//! query by `seq_id` learns them. Refusals take the form of the service's
//! result-query failure sample (no envelope).

use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;

use super::{admit, common, decode, enveloped, param, refused_bare};
use crate::{lock, AppState};
use paybridge::verify::codes::{QUERY_IN_PROGRESS, QUERY_NOT_FOUND, QUERY_OK};
use paybridge::verify::Operation;

pub async fn check_result(State(s): State<AppState>, headers: HeaderMap, uri: Uri) -> Response {
    let params = match decode(uri.query().unwrap_or("").as_bytes()) {
        Ok(p) => p,
        Err(r) => return refused_bare(r),
    };
    if let Err(r) = admit(&s, Operation::CheckResult, &headers, &params) {
        return refused_bare(r);
    }
    let get = |name: &str| param(&params, name).unwrap_or_default();
    let (app_token, order_id, order_date) = (get("app_token"), get("order_id"), get("order_date"));
    let seq_id = param(&params, "seq_id");
    let found = {
        let store = lock(&s.verifications);
        match seq_id {
            Some(seq_id) => store.by_seq_id(app_token, seq_id).cloned(),
            None => store.by_order_id(app_token, order_id).cloned(),
        }
    };
    let Some(v) = found else {
        let message = match seq_id {
            Some(id) => format!("no verification with seq_id {id}"),
            None => format!("no verification with order_id {order_id}"),
        };
        return enveloped(&s, common(&s, QUERY_NOT_FOUND, &message, seq_id, order_id, order_date));
    };
    if !v.ready {
        return enveloped(&s, common(&s, QUERY_IN_PROGRESS, "being verified", Some(&v.seq_id), &v.order_id, &v.order_date));
    }
    let mut data = common(&s, QUERY_OK, "query succeeded", Some(&v.seq_id), &v.order_id, &v.order_date);
    data.extend(v.result);
    enveloped(&s, data)
}
