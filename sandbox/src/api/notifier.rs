//! The verification result notification: after the configured delay the
//! result of an asynchronous `cardcheck` becomes ready (a result query
//! answers `20000` from then on) and is POSTed, form-encoded and signed, to
//! its `mer_bg_url`; sent again with a doubling wait until the merchant
//! answers 2xx, at most `notify_attempts` times. One task sends one
//! notification, one send after the other, so a notification the merchant
//! acknowledged is never sent again.
//!
//! Every delivery is recorded; `GET /sim/deliveries` lists them:
//! `{ deliveries: [{ seq_id, order_id, url, attempts, statuses, acknowledged,
//! gave_up, not_sent? }] }`, `statuses` holding the HTTP status of each
//! send, or what went wrong; `not_sent` says why nothing was sent to an
//! address the sandbox does not post to ([`super::post`]).

use std::time::Duration;

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

use super::post::{post_form, target};
use super::store::Verification;
use super::AppState;
use crate::bounded::Bounded;
use crate::{lock, sign};
use paybridge::json::Json as Data;
use paybridge::verify::codes::CARD_OK;
use paybridge::verify::form::encode_form;
use paybridge::verify::notification_params;
use paybridge::verify::schedule::backoff_delay;

/// How long one send may take before it counts as unanswered.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(5);

/// The result fields a notification carries (the service document's
/// notification fields, besides `seq_id`, `order_id`, `return_code`,
/// `return_message` and `sign`).
const NOTIFIED: [&str; 7] = ["resp_code", "resp_info", "mp_ssim", "full_name", "id_number", "file_list", "face_identify_list"];

/// One notification and what became of it.
#[derive(Clone, Debug)]
pub struct Delivery {
    pub seq_id: String,
    pub order_id: String,
    pub url: String,
    /// Per send: the HTTP status, or what went wrong.
    pub statuses: Vec<String>,
    /// Why nothing was sent.
    pub not_sent: Option<String>,
    pub acknowledged: bool,
    pub gave_up: bool,
}

pub type Deliveries = Bounded<Delivery>;

/// The form body of the notification of `v`, signed with `secret`.
pub fn notification_body(secret: &str, v: &Verification) -> String {
    let mut record = vec![
        ("seq_id".to_string(), Data::str(&v.seq_id)),
        ("order_id".to_string(), Data::str(&v.order_id)),
        ("return_code".to_string(), Data::str(CARD_OK)),
        ("return_message".to_string(), Data::str("verification finished")),
    ];
    record.extend(v.result.iter().filter(|(k, _)| NOTIFIED.contains(&k.as_str())).cloned());
    // An object always gives its fields.
    let mut params = notification_params(&Data::Obj(record)).unwrap_or_default();
    let sign = sign::sign(secret, params.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    params.push(("sign".into(), sign));
    encode_form(&params)
}

/// Starts the task that makes `seq_id` ready and notifies `mer_bg_url`.
pub fn schedule(state: AppState, seq_id: String, mer_bg_url: String) {
    tokio::spawn(deliver(state, seq_id, mer_bg_url));
}

fn update(state: &AppState, seq_id: &str, f: impl FnOnce(&mut Delivery)) {
    if let Some(d) = lock(&state.deliveries).get_mut(seq_id) {
        f(d);
    }
}

async fn deliver(state: AppState, seq_id: String, mer_bg_url: String) {
    tokio::time::sleep(state.config.notify_delay).await;
    let Some(v) = lock(&state.verifications).make_ready(&seq_id) else {
        return;
    };
    let delivery = Delivery {
        seq_id: seq_id.clone(),
        order_id: v.order_id.clone(),
        url: mer_bg_url.clone(),
        statuses: Vec::new(),
        not_sent: None,
        acknowledged: false,
        gave_up: false,
    };
    lock(&state.deliveries).insert(seq_id.clone(), delivery);
    let to = match target(&mer_bg_url) {
        Ok(t) => t,
        Err(why) => {
            return update(&state, &seq_id, |d| {
                d.not_sent = Some(why);
                d.gave_up = true;
            })
        }
    };
    let body = notification_body(&state.config.secret, &v);
    let attempts = state.config.notify_attempts.max(1);
    for attempt in 1..=attempts {
        let sent = post_form(&to, &body, SEND_TIMEOUT).await;
        let acknowledged = matches!(sent, Ok(200..=299));
        update(&state, &seq_id, |d| {
            d.statuses.push(match &sent {
                Ok(status) => status.to_string(),
                Err(e) => e.clone(),
            });
            d.acknowledged = acknowledged;
            d.gave_up = !acknowledged && attempt == attempts;
        });
        if acknowledged || attempt == attempts {
            return;
        }
        let first = state.config.notify_retry.as_millis().min(u32::MAX as u128) as u32;
        tokio::time::sleep(Duration::from_millis(backoff_delay(first, attempt) as u64)).await;
    }
}

fn to_json(d: &Delivery) -> Value {
    let mut v = json!({
        "seq_id": d.seq_id,
        "order_id": d.order_id,
        "url": d.url,
        "attempts": d.statuses.len(),
        "statuses": d.statuses,
        "acknowledged": d.acknowledged,
        "gave_up": d.gave_up,
    });
    if let Some(why) = &d.not_sent {
        v["not_sent"] = json!(why);
    }
    v
}

/// `GET /sim/deliveries`.
pub async fn list(State(s): State<AppState>) -> Json<Value> {
    let all: Vec<Value> = lock(&s.deliveries).values().map(to_json).collect();
    Json(json!({ "deliveries": all }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::mock::{result_fields, Subject, Verdict};
    use paybridge::verify::{parse_notification, State};

    #[test]
    fn the_body_parses_and_its_sign_verifies() {
        let who = Subject { full_name: "张 三", id_number: Some("81010519491231002X"), authorization_info: Some("a") };
        let v = Verification {
            seq_id: "S1".into(),
            app_token: "T".into(),
            order_id: "o&1".into(),
            order_date: "20240101".into(),
            result: result_fields("k", "S1", Verdict::Inconsistent, &who),
            ready: true,
        };
        let body = notification_body("k", &v);
        let n = parse_notification(&Data::Str(body)).unwrap();
        assert!(sign::same(&n.sign, &sign::hmac_hex("k", &n.sign_input)));
        let o = n.accept(true).unwrap();
        assert_eq!(o.state, State::Inconsistent);
        assert_eq!((o.seq_id.as_deref(), o.order_id.as_str()), (Some("S1"), "o&1"));
        let record = o.record.unwrap();
        assert_eq!(record.get("full_name"), Some(&Data::str("张 三")));
        assert_eq!(record.get("id_number"), Some(&Data::str("810105********002X")));
        assert!(matches!(record.get("file_list"), Some(Data::Arr(l)) if l.len() == 1));
        assert_eq!(record.get("authorization_info"), None, "not a notification field");
        assert_eq!(record.get("encrypt_method"), None, "not a notification field");
    }
}
