//! wallet2: the web-authorization screen, the official-account code exchange
//! and the mini-program login-code (session) exchange.

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::{allowed, app_id, check_grant, consent, form, issue, scopes, Grant, GrantKind};
use crate::http::{redirect_target, see_other, with_query, Params, Problem};
use crate::pages::escape;
use crate::{sign, AppState, Sandbox};

struct Wallet2Ask<'a> {
    appid: &'a str,
    scope: &'a str,
    redirect: url::Url,
    state: Option<&'a str>,
}

fn wallet2_ask(p: &Params) -> Result<Wallet2Ask<'_>, Problem> {
    let appid = app_id(p, "appid")?;
    let redirect = redirect_target("redirect_uri", p.required("redirect_uri")?)?;
    if p.required("response_type")? != "code" {
        return Err(Problem::bad("response_type", "response_type must be code"));
    }
    Ok(Wallet2Ask { appid, scope: scopes(p, "scope")?, redirect, state: p.get("state") })
}

pub async fn consent_page(RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    match wallet2_ask(&p) {
        Ok(a) => {
            let asks = format!(
                "<p>The official account <b>{}</b> asks for your wallet2 identity (scope <code>{}</code>).</p>",
                escape(a.appid),
                escape(a.scope)
            );
            let redirect = a.redirect.to_string();
            let mut fields = vec![("appid", a.appid), ("redirect_uri", redirect.as_str()), ("response_type", "code"), ("scope", a.scope)];
            if let Some(st) = a.state {
                fields.push(("state", st));
            }
            consent("Authorize with wallet2", &asks, "/sim/wallet2/authorize", &fields, &redirect)
        }
        Err(e) => e.html(),
    }
}

pub async fn decide(State(s): State<AppState>, body: Bytes) -> Response {
    let p = form(&body);
    let run = || -> Result<Response, Problem> {
        let a = wallet2_ask(&p)?;
        let mut back = Vec::new();
        let code;
        if allowed(&p)? {
            code = issue(&s, GrantKind::Wallet2Web, a.appid, a.scope);
            back.push(("code", code.as_str()));
        }
        // The provider always sends state back, empty or not.
        back.push(("state", a.state.unwrap_or("")));
        Ok(see_other(&with_query(a.redirect, &back)))
    };
    run().unwrap_or_else(Problem::html)
}

/// The provider's error shape `{ errcode, errmsg }`, with status 400.
fn errcode(code: u32, msg: &str) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({ "errcode": code, "errmsg": msg }))).into_response()
}

/// The checks both wallet2 exchanges make; the grant on success.
fn wallet2_exchange(s: &Sandbox, p: &Params, code_field: &str, kind: GrantKind) -> Result<Grant, (u32, String)> {
    let present = |k: &str| p.get(k).is_some_and(|v| !v.is_empty());
    if !present("appid") {
        return Err((41002, "appid missing".to_string()));
    }
    if !present("secret") {
        return Err((41004, "appsecret missing".to_string()));
    }
    if !present(code_field) {
        return Err((41008, format!("{code_field} missing")));
    }
    if p.get("grant_type") != Some("authorization_code") {
        return Err((40002, "invalid grant_type (must be authorization_code)".to_string()));
    }
    let appid = p.get("appid").unwrap_or("");
    if !sign::same(p.get("secret").unwrap_or(""), &s.config.secret) {
        return Err((40125, "invalid appsecret (the sandbox's is its signing secret)".to_string()));
    }
    let code = p.get(code_field).unwrap_or("");
    match check_grant(s, kind, code, true) {
        Ok(g) if g.app_id == appid => Ok(g),
        Ok(_) => Err((40029, format!("invalid {code_field} (issued to another appid)"))),
        Err(why) if why.contains("already used") => Err((40163, format!("{code_field} been used"))),
        Err(why) => Err((40029, format!("invalid {code_field}: it {why}"))),
    }
}

fn openid(s: &Sandbox, appid: &str) -> String {
    format!("w2o{}", sign::stable_id(&s.config.secret, &format!("wallet2:{appid}")))
}

pub async fn access_token(State(s): State<AppState>, RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    match wallet2_exchange(&s, &p, "code", GrantKind::Wallet2Web) {
        Ok(g) => Json(json!({
            "access_token": format!("w2t{}", sign::random_hex(16)),
            "expires_in": 7200,
            "refresh_token": format!("w2r{}", sign::random_hex(16)),
            "openid": openid(&s, &g.app_id),
            "scope": g.scope,
        }))
        .into_response(),
        Err((code, msg)) => errcode(code, &msg),
    }
}

pub async fn session(State(s): State<AppState>, RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    match wallet2_exchange(&s, &p, "js_code", GrantKind::Wallet2Login) {
        Ok(g) => Json(json!({
            "openid": openid(&s, &g.app_id),
            "session_key": sign::random_hex(16),
        }))
        .into_response(),
        Err((code, msg)) => errcode(code, &msg),
    }
}

/// What a wallet2 mini-program's `login` would give: a `js_code`.
pub async fn login(State(s): State<AppState>, RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    match app_id(&p, "appid") {
        Ok(appid) => Json(json!({ "code": issue(&s, GrantKind::Wallet2Login, appid, "") })).into_response(),
        Err(e) => e.json(),
    }
}
