//! The merchant's session: what a merchant site keeps of its visitor on the
//! server, behind a cookie, so that every tab of one browser knows the
//! user an authorization gave.
//!
//! - `GET /merchant/session` answers `{ wallet1_user_id, wallet2_openid }`
//!   (each `null` until set);
//! - `POST /merchant/session` with a JSON object sets the members it names
//!   (`null` forgets one) and answers the session as `GET` does.
//!
//! A request without a known session cookie gets a new session and a
//! `Set-Cookie` (`HttpOnly`, `SameSite=Lax`, path `/`); the sandbox
//! remembers the newest [`super::MEMORY`] sessions. A real merchant server
//! learns the user from its own code exchange; the demo pages make the
//! exchange themselves and tell the session.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use super::http::Problem;
use super::{lock, sign, AppState, Sandbox};

/// The cookie's name.
pub const COOKIE_NAME: &str = "paybridge_merchant_session";

/// The members a session keeps.
const MEMBERS: [&str; 2] = ["wallet1_user_id", "wallet2_openid"];

/// One visitor's session.
#[derive(Clone, Debug, Default)]
pub struct MerchantSession {
    pub wallet1_user_id: Option<String>,
    pub wallet2_openid: Option<String>,
}

impl MerchantSession {
    fn member(&mut self, name: &str) -> Option<&mut Option<String>> {
        match name {
            "wallet1_user_id" => Some(&mut self.wallet1_user_id),
            "wallet2_openid" => Some(&mut self.wallet2_openid),
            _ => None,
        }
    }

    fn to_json(&self) -> Value {
        json!({ "wallet1_user_id": self.wallet1_user_id, "wallet2_openid": self.wallet2_openid })
    }
}

pub fn router() -> Router<AppState> {
    Router::new().route("/merchant/session", get(show).post(update))
}

/// The session id the request's cookie names, if the sandbox knows it.
fn known(s: &Sandbox, headers: &HeaderMap) -> Option<String> {
    let sessions = lock(&s.sessions);
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, id)| *name == COOKIE_NAME && sessions.get(id).is_some())
        .map(|(_, id)| id.to_string())
}

/// The request's session id, and whether it is new (a cookie to set).
fn session_id(s: &Sandbox, headers: &HeaderMap) -> (String, bool) {
    match known(s, headers) {
        Some(id) => (id, false),
        None => {
            let id = sign::random_hex(16);
            lock(&s.sessions).insert(id.clone(), MerchantSession::default());
            (id, true)
        }
    }
}

fn answer(s: &Sandbox, id: &str, new: bool) -> Response {
    let body = lock(&s.sessions).get(id).map(MerchantSession::to_json).unwrap_or_else(|| MerchantSession::default().to_json());
    let mut res = Json(body).into_response();
    if new {
        let cookie = format!("{COOKIE_NAME}={id}; Path=/; HttpOnly; SameSite=Lax");
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            res.headers_mut().insert(SET_COOKIE, v);
        }
    }
    res
}

async fn show(State(s): State<AppState>, headers: HeaderMap) -> Response {
    let (id, new) = session_id(&s, &headers);
    answer(&s, &id, new)
}

/// The changes a `POST` body asks for: each member named, to a value or to `None`.
fn changes(body: &[u8]) -> Result<Vec<(&'static str, Option<String>)>, Problem> {
    let v: Value = serde_json::from_slice(body).map_err(|e| Problem::bad("body", format!("the body is not JSON text ({e})")))?;
    let Value::Object(map) = v else {
        return Err(Problem::bad("body", "the body must be a JSON object"));
    };
    if let Some(other) = map.keys().find(|k| !MEMBERS.contains(&k.as_str())) {
        return Err(Problem::bad(other, format!("{other} is not kept in the session (wallet1_user_id, wallet2_openid)")));
    }
    let mut out = Vec::new();
    for name in MEMBERS {
        match map.get(name) {
            None => {}
            Some(Value::Null) => out.push((name, None)),
            Some(Value::String(t)) if !t.is_empty() && t.len() <= 128 && t.bytes().all(|c| c.is_ascii_graphic()) => {
                out.push((name, Some(t.clone())))
            }
            Some(_) => return Err(Problem::bad(name, format!("{name} must be null or up to 128 printable ASCII characters"))),
        }
    }
    Ok(out)
}

async fn update(State(s): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let changes = match changes(&body) {
        Ok(c) => c,
        Err(p) => return p.json(),
    };
    let (id, new) = session_id(&s, &headers);
    if let Some(session) = lock(&s.sessions).get_mut(&id) {
        for (name, value) in changes {
            if let Some(slot) = session.member(name) {
                *slot = value;
            }
        }
    }
    answer(&s, &id, new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_name_known_members_only() {
        assert_eq!(
            changes(br#"{"wallet1_user_id":"w1u1","wallet2_openid":null}"#).unwrap(),
            vec![("wallet1_user_id", Some("w1u1".to_string())), ("wallet2_openid", None)]
        );
        assert!(changes(br#"{"admin":true}"#).is_err());
        assert!(changes(br#"{"wallet1_user_id":""}"#).is_err());
        assert!(changes(br#"{"wallet1_user_id":"a b"}"#).is_err());
        assert!(changes(b"[]").is_err());
    }
}
