//! Simulated authorization pages and code exchanges of wallet1, wallet2 and
//! the card network.
//!
//! Each authorization page shows a consent screen; its Allow button sends
//! the browser back to the caller's redirect address with a fresh code, its
//! Deny button without one. Codes are remembered with the time they were
//! issued: wallet1 codes are single-use and live a day, wallet2 codes are
//! single-use and live five minutes, card-network `userAuthCode`s live five
//! minutes (service document, "Limits").

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

use super::http::{redirect_target, see_other, with_query, Params, Problem};
use super::pages::{escape, hidden, page};
use super::{lock, sign, AppState, Sandbox};

/// What a code was issued for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrantKind {
    /// wallet1 `auth_code` (authorization page or mini-program `getAuthCode`).
    Wallet1,
    /// wallet2 web-authorization `code`.
    Wallet2Web,
    /// wallet2 mini-program login `js_code`.
    Wallet2Login,
    /// card-network `userAuthCode`.
    Cardnet,
}

impl GrantKind {
    pub fn lifetime(self) -> Duration {
        match self {
            GrantKind::Wallet1 => Duration::from_secs(24 * 3600),
            _ => Duration::from_secs(5 * 60),
        }
    }

    fn lifetime_words(self) -> &'static str {
        match self {
            GrantKind::Wallet1 => "one day",
            _ => "5 minutes",
        }
    }
}

/// An issued code.
#[derive(Clone, Debug)]
pub struct Grant {
    pub kind: GrantKind,
    /// The app it was issued to (empty for the card network).
    pub app_id: String,
    pub scope: String,
    pub issued_ms: u64,
    pub used: bool,
}

/// Issues a code of `kind` to `app_id`.
pub fn issue(s: &Sandbox, kind: GrantKind, app_id: &str, scope: &str) -> String {
    let code = sign::random_hex(16);
    let grant = Grant {
        kind,
        app_id: app_id.to_string(),
        scope: scope.to_string(),
        issued_ms: s.now_ms(),
        used: false,
    };
    lock(&s.grants).insert(code.clone(), grant);
    code
}

/// Why a code was refused, completing "code ...".
pub type Refusal = String;

/// Checks that `code` was issued as `kind`, is unused (when single-use) and
/// fresh; marks it used when `consume`.
pub fn check_grant(
    s: &Sandbox,
    kind: GrantKind,
    code: &str,
    consume: bool,
) -> Result<Grant, Refusal> {
    let now = s.now_ms();
    let mut grants = lock(&s.grants);
    let g = match grants.get_mut(code) {
        Some(g) if g.kind == kind => g,
        _ => return Err("was not issued by this sandbox".into()),
    };
    if g.used {
        return Err("was already used (codes are single-use)".into());
    }
    if now.saturating_sub(g.issued_ms) >= kind.lifetime().as_millis() as u64 {
        return Err(format!("has expired (valid {})", kind.lifetime_words()));
    }
    if consume {
        g.used = true;
    }
    Ok(g.clone())
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/sim/wallet1/authorize",
            get(wallet1_consent).post(wallet1_decide),
        )
        .route("/sim/wallet1/token", post(wallet1_token))
        .route("/sim/wallet1/auth_code", post(wallet1_auth_code))
        .route(
            "/sim/wallet2/authorize",
            get(wallet2_consent).post(wallet2_decide),
        )
        .route(
            "/sim/wallet2/oauth2/access_token",
            get(wallet2_access_token),
        )
        .route("/sim/wallet2/jscode2session", get(wallet2_session))
        .route("/sim/wallet2/login", post(wallet2_login))
        .route(
            "/sim/cardnet/authorize",
            get(cardnet_consent).post(cardnet_decide),
        )
}

fn form(body: &Bytes) -> Params {
    Params::parse(&String::from_utf8_lossy(body))
}

/// A list of scopes (`a,b`) or one scope: names of letters, digits, `_`, `.`.
fn scopes<'a>(p: &'a Params, field: &str) -> Result<&'a str, Problem> {
    let v = p.required(field)?;
    let ok = v.split(',').all(|s| {
        !s.is_empty()
            && s.bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
    });
    if ok && v.len() <= 256 {
        Ok(v)
    } else {
        Err(Problem::bad(
            field,
            format!("{field} must be scope names separated by commas"),
        ))
    }
}

fn app_id<'a>(p: &'a Params, field: &str) -> Result<&'a str, Problem> {
    let v = p.required(field)?;
    if v.len() <= 64
        && v.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
    {
        Ok(v)
    } else {
        Err(Problem::bad(
            field,
            format!("{field} must be up to 64 letters, digits, _ - ."),
        ))
    }
}

/// The consent screen: what is asked, and Allow / Deny posting `fields`
/// back to `path`.
fn consent(
    title: &str,
    asks: &str,
    path: &str,
    fields: &[(&str, &str)],
    redirect: &str,
) -> Response {
    let body = format!(
        "<div class=\"box\">{asks}\
<p>You will be sent back to <code>{target}</code>.</p>\
<form method=\"post\" action=\"{path}\">{hidden}\
<button class=\"primary\" name=\"decision\" value=\"allow\">Allow</button>\
<button name=\"decision\" value=\"deny\">Deny</button></form></div>",
        target = escape(redirect),
        hidden = hidden(fields),
    );
    page(title, &body).into_response()
}

fn allowed(p: &Params) -> Result<bool, Problem> {
    match p.get("decision") {
        Some("allow") => Ok(true),
        Some("deny") => Ok(false),
        _ => Err(Problem::bad("decision", "decision must be allow or deny")),
    }
}

// ---- wallet1 -------------------------------------------------------------

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

async fn wallet1_consent(RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    match wallet1_ask(&p) {
        Ok(a) => {
            let asks = format!(
                "<p>The app <b>{}</b> asks for your wallet1 account (scope <code>{}</code>).</p>",
                escape(a.app_id),
                escape(a.scope)
            );
            let redirect = a.redirect.to_string();
            let mut fields = vec![
                ("app_id", a.app_id),
                ("scope", a.scope),
                ("redirect_uri", redirect.as_str()),
            ];
            if let Some(st) = a.state {
                fields.push(("state", st));
            }
            consent(
                "Authorize with wallet1",
                &asks,
                "/sim/wallet1/authorize",
                &fields,
                &redirect,
            )
        }
        Err(e) => e.html(),
    }
}

async fn wallet1_decide(State(s): State<AppState>, body: Bytes) -> Response {
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
    (
        StatusCode::BAD_REQUEST,
        Json(json!({ "error": error, "message": message })),
    )
        .into_response()
}

async fn wallet1_token(State(s): State<AppState>, RawQuery(q): RawQuery, body: Bytes) -> Response {
    // Form body; the query string too, as the gateway takes either.
    let mut p = form(&body);
    if p.get("code").is_none() && p.get("grant_type").is_none() {
        p = Params::from_query(q.as_deref());
    }
    let run = || -> Result<Response, Problem> {
        let grant_type = p.required("grant_type")?;
        if grant_type != "authorization_code" {
            return Err(Problem::bad(
                "grant_type",
                "grant_type must be authorization_code",
            ));
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
async fn wallet1_auth_code(State(s): State<AppState>, RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    let run = || -> Result<Response, Problem> {
        let app = app_id(&p, "app_id")?;
        let scope = scopes(&p, "scopes")?;
        let code = issue(&s, GrantKind::Wallet1, app, scope);
        Ok(Json(json!({ "authCode": code })).into_response())
    };
    run().unwrap_or_else(Problem::json)
}

// ---- wallet2 -------------------------------------------------------------

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
    Ok(Wallet2Ask {
        appid,
        scope: scopes(p, "scope")?,
        redirect,
        state: p.get("state"),
    })
}

async fn wallet2_consent(RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    match wallet2_ask(&p) {
        Ok(a) => {
            let asks = format!(
                "<p>The official account <b>{}</b> asks for your wallet2 identity (scope <code>{}</code>).</p>",
                escape(a.appid),
                escape(a.scope)
            );
            let redirect = a.redirect.to_string();
            let mut fields = vec![
                ("appid", a.appid),
                ("redirect_uri", redirect.as_str()),
                ("response_type", "code"),
                ("scope", a.scope),
            ];
            if let Some(st) = a.state {
                fields.push(("state", st));
            }
            consent(
                "Authorize with wallet2",
                &asks,
                "/sim/wallet2/authorize",
                &fields,
                &redirect,
            )
        }
        Err(e) => e.html(),
    }
}

async fn wallet2_decide(State(s): State<AppState>, body: Bytes) -> Response {
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
    (
        StatusCode::BAD_REQUEST,
        Json(json!({ "errcode": code, "errmsg": msg })),
    )
        .into_response()
}

/// The checks both wallet2 exchanges make; the grant on success.
fn wallet2_exchange(
    s: &Sandbox,
    p: &Params,
    code_field: &str,
    kind: GrantKind,
) -> Result<Grant, (u32, String)> {
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
        return Err((
            40002,
            "invalid grant_type (must be authorization_code)".to_string(),
        ));
    }
    let appid = p.get("appid").unwrap_or("");
    if !sign::same(p.get("secret").unwrap_or(""), &s.config.secret) {
        return Err((
            40125,
            "invalid appsecret (the sandbox's is its signing secret)".to_string(),
        ));
    }
    let code = p.get(code_field).unwrap_or("");
    match check_grant(s, kind, code, true) {
        Ok(g) if g.app_id == appid => Ok(g),
        Ok(_) => Err((
            40029,
            format!("invalid {code_field} (issued to another appid)"),
        )),
        Err(why) if why.contains("already used") => Err((40163, format!("{code_field} been used"))),
        Err(why) => Err((40029, format!("invalid {code_field}: it {why}"))),
    }
}

fn openid(s: &Sandbox, appid: &str) -> String {
    format!(
        "w2o{}",
        sign::stable_id(&s.config.secret, &format!("wallet2:{appid}"))
    )
}

async fn wallet2_access_token(State(s): State<AppState>, RawQuery(q): RawQuery) -> Response {
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

async fn wallet2_session(State(s): State<AppState>, RawQuery(q): RawQuery) -> Response {
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
async fn wallet2_login(State(s): State<AppState>, RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    match app_id(&p, "appid") {
        Ok(appid) => {
            Json(json!({ "code": issue(&s, GrantKind::Wallet2Login, appid, "") })).into_response()
        }
        Err(e) => e.json(),
    }
}

// ---- card network --------------------------------------------------------

fn cardnet_ask(p: &Params) -> Result<url::Url, Problem> {
    if p.required("version")? != "1.0.0" {
        return Err(Problem::bad("version", "version must be 1.0.0"));
    }
    redirect_target("redirectUrl", p.required("redirectUrl")?)
}

async fn cardnet_consent(RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    match cardnet_ask(&p) {
        Ok(target) => {
            let redirect = target.to_string();
            consent(
                "Card network: authorize",
                "<p>The merchant asks for your card-network user identity, to pay with your card.</p>",
                "/sim/cardnet/authorize",
                &[("version", "1.0.0"), ("redirectUrl", &redirect)],
                &redirect,
            )
        }
        Err(e) => e.html(),
    }
}

async fn cardnet_decide(State(s): State<AppState>, body: Bytes) -> Response {
    let p = form(&body);
    let run = || -> Result<Response, Problem> {
        let target = cardnet_ask(&p)?;
        let location = if allowed(&p)? {
            let code = issue(&s, GrantKind::Cardnet, "", "");
            with_query(target, &[("respCode", "00"), ("userAuthCode", &code)])
        } else {
            with_query(target, &[("respCode", "34")])
        };
        Ok(see_other(&location))
    };
    run().unwrap_or_else(Problem::html)
}
