//! A merchant's notification receiver, so that
//! `mer_bg_url = http://127.0.0.1:PORT/merchant/notify` works out of the box.
//!
//! `POST /merchant/notify` decodes the notification with the crate's
//! [`parse_notification`], checks its `sign` with the sandbox rule, handles
//! each `seq_id` once ([`SeenSeqIds`]) and answers 200 `success` (a
//! repeated notification is acknowledged again but not recorded again); a
//! notification that does not decode or whose `sign` does not match is
//! answered 400 with the reason, so that the sender tries again.
//! `GET /merchant/notifications` lists what was received:
//! `{ notifications: [{ received_ms, outcome }], duplicates }`, `outcome`
//! being the `VerifyOutcome` of `www/lib/index.d.ts`.

use std::collections::VecDeque;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use super::{lock, sign, AppState, MEMORY};
use paybridge::json::Json;
use paybridge::verify::{parse_notification, Outcome, Seen, SeenSeqIds};

/// What the receiver was sent.
pub struct Inbox {
    seen: SeenSeqIds,
    /// The first notification of each `seq_id`, with when it came; the
    /// newest [`MEMORY`].
    received: VecDeque<(u64, Outcome)>,
    duplicates: u64,
}

impl Default for Inbox {
    fn default() -> Inbox {
        Inbox { seen: SeenSeqIds::new(MEMORY), received: VecDeque::new(), duplicates: 0 }
    }
}

pub fn router() -> Router<AppState> {
    Router::new().route("/merchant/notify", post(notify)).route("/merchant/notifications", get(list))
}

fn refuse(message: String) -> Response {
    (StatusCode::BAD_REQUEST, message).into_response()
}

async fn notify(State(s): State<AppState>, body: Bytes) -> Response {
    let Ok(text) = String::from_utf8(body.to_vec()) else {
        return refuse("the notification is not UTF-8 text".into());
    };
    let n = match parse_notification(&Json::Str(text)) {
        Ok(n) => n,
        Err(e) => return refuse(e.into_data().message),
    };
    let verified = sign::same(&n.sign, &sign::hmac_hex(&s.config.secret, &n.sign_input));
    let outcome = match n.accept(verified) {
        Ok(o) => o,
        Err(e) => return refuse(e.into_data().message),
    };
    let mut inbox = lock(&s.inbox);
    match inbox.seen.note(outcome.seq_id.as_deref().unwrap_or_default()) {
        Seen::First => {
            if inbox.received.len() >= MEMORY {
                inbox.received.pop_front();
            }
            inbox.received.push_back((s.now_ms(), outcome));
        }
        Seen::Duplicate => inbox.duplicates += 1,
    }
    (StatusCode::OK, "success").into_response()
}

async fn list(State(s): State<AppState>) -> Response {
    let inbox = lock(&s.inbox);
    let all =
        inbox.received.iter().map(|(at, o)| Json::obj(vec![("received_ms", Json::Num(*at as f64)), ("outcome", o.to_json())])).collect();
    let body = Json::obj(vec![("notifications", Json::Arr(all)), ("duplicates", Json::Num(inbox.duplicates as f64))]);
    (StatusCode::OK, [(CONTENT_TYPE, "application/json; charset=utf-8")], body.to_text()).into_response()
}
