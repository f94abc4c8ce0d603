//! wallet1: the page-authorization screen, the `auth_code` exchange, and the
//! mini-program `getAuthCode` stand-in.

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::{allowed, app_id, check_grant, consent, form, issue, scopes, GrantKind};
use crate::http::{redirect_target, see_other, with_query, Params, Problem};
use crate::pages::escape;
use crate::{sign, AppState};

struct Wallet1Ask<'a> {
    app_id: &'a str,
    scope: &'a str,
    redirect: url::Url,
    state: Option<&'a str>,
}

fn wallet1_ask(p: &Params) -> Result<Wallet1Ask<'_>, Problem> {
    Ok(Wallet1Ask {
        app_id: app_id(p, "app_id")?,
        scope: scopes(p, "scope")?,
        redirect: redirect_target("redirect_uri", p.required("redirect_uri")?)?,
        state: p.get("state"),
    })
}

pub async fn consent_page(RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    match wallet1_ask(&p) {
        Ok(a) => {
            let asks = format!(
                "<p>The app <b>{}</b> asks for your wallet1 account (scope <code>{}</code>).</p>",
                escape(a.app_id),
                escape(a.scope)
            );
            let redirect = a.redirect.to_string();
            let mut fields = vec![("app_id", a.app_id), ("scope", a.scope), ("redirect_uri", redirect.as_str())];
            if let Some(st) = a.state {
                fields.push(("state", st));
            }
            consent("Authorize with wallet1", &asks, "/sim/wallet1/authorize", &fields, &redirect)
        }
        Err(e) => e.html(),
    }
}

pub async fn decide(State(s): State<AppState>, body: Bytes) -> Response {
    let p = form(&body);
    let run = || -> Result<Response, Problem> {
        let a = wallet1_ask(&p)?;
        let state = a.state.unwrap_or("");
        let mut back = Vec::new();
        let code;
        if allowed(&p)? {
            code = issue(&s, GrantKind::Wallet1, a.app_id, a.scope);
            back.push(("auth_code", code.as_str()));
        }
        if !state.is_empty() {
            back.push(("state", state));
        }
        Ok(see_other(&with_query(a.redirect, &back)))
    };
    run().unwrap_or_else(Problem::html)
}

/// A gateway-style error: `{ error, message }` with status 400.
fn refused(error: &'static str, message: String) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({ "error": error, "message": message }))).into_response()
}

pub async fn token(State(s): State<AppState>, RawQuery(q): RawQuery, body: Bytes) -> Response {
    // Form body; the query string too, as the gateway takes either.
    let mut p = form(&body);
    if p.get("code").is_none() && p.get("grant_type").is_none() {
        p = Params::from_query(q.as_deref());
    }
    let run = || -> Result<Response, Problem> {
        let grant_type = p.required("grant_type")?;
        if grant_type != "authorization_code" {
            return Err(Problem::bad("grant_type", "grant_type must be authorization_code"));
        }
        let code = p.required("code")?;
        let g = match check_grant(&s, GrantKind::Wallet1, code, true) {
            Ok(g) => g,
            Err(why) => return Ok(refused("invalid_grant", format!("code {why}"))),
        };
        Ok(Json(json!({
            "user_id": format!("w1u{}", sign::stable_id(&s.config.secret, &format!("wallet1:{}", g.app_id))),
            "access_token": format!("w1t{}", sign::random_hex(16)),
            "expires_in": 7200,
            "scope": g.scope,
        }))
        .into_response())
    };
    run().unwrap_or_else(Problem::json)
}

/// What a wallet1 mini-program's `getAuthCode` would give, without a page.
pub async fn auth_code(State(s): State<AppState>, RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    let run = || -> Result<Response, Problem> {
        let app = app_id(&p, "app_id")?;
        let scope = scopes(&p, "scopes")?;
        let code = issue(&s, GrantKind::Wallet1, app, scope);
        Ok(Json(json!({ "authCode": code })).into_response())
    };
    run().unwrap_or_else(Problem::json)
}
