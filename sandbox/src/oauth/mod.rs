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
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use super::http::{Params, Problem};
use super::pages::{escape, hidden, page};
use super::{lock, sign, AppState, Sandbox};

mod cardnet;
mod wallet1;
mod wallet2;

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
    let grant = Grant { kind, app_id: app_id.to_string(), scope: scope.to_string(), issued_ms: s.now_ms(), used: false };
    lock(&s.grants).insert(code.clone(), grant);
    code
}

/// Why a code was refused, completing "code ...".
pub type Refusal = String;

/// A refusal of [`check_grant`] as an error code: `auth_expired`,
/// `auth_used`, or `invalid_request` for a code never issued.
pub fn refusal_code(why: &str) -> &'static str {
    if why.starts_with(EXPIRED) {
        "auth_expired"
    } else if why == USED {
        "auth_used"
    } else {
        "invalid_request"
    }
}

const EXPIRED: &str = "has expired";
const USED: &str = "was already used (codes are single-use)";

/// Checks that `code` was issued as `kind`, is unused (when single-use) and
/// fresh; marks it used when `consume`.
pub fn check_grant(s: &Sandbox, kind: GrantKind, code: &str, consume: bool) -> Result<Grant, Refusal> {
    let now = s.now_ms();
    let mut grants = lock(&s.grants);
    let g = match grants.get_mut(code) {
        Some(g) if g.kind == kind => g,
        _ => return Err("was not issued by this sandbox".into()),
    };
    if g.used {
        return Err(USED.into());
    }
    if now.saturating_sub(g.issued_ms) >= kind.lifetime().as_millis() as u64 {
        return Err(format!("{EXPIRED} (valid {})", kind.lifetime_words()));
    }
    if consume {
        g.used = true;
    }
    Ok(g.clone())
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/sim/wallet1/authorize", get(wallet1::consent_page).post(wallet1::decide))
        .route("/sim/wallet1/token", post(wallet1::token))
        .route("/sim/wallet1/auth_code", post(wallet1::auth_code))
        .route("/sim/wallet2/authorize", get(wallet2::consent_page).post(wallet2::decide))
        .route("/sim/wallet2/oauth2/access_token", get(wallet2::access_token))
        .route("/sim/wallet2/jscode2session", get(wallet2::session))
        .route("/sim/wallet2/login", post(wallet2::login))
        .route("/sim/cardnet/authorize", get(cardnet::consent_page).post(cardnet::decide))
}

fn form(body: &Bytes) -> Params {
    Params::parse(&String::from_utf8_lossy(body))
}

/// A list of scopes (`a,b`) or one scope: names of letters, digits, `_`, `.`.
fn scopes<'a>(p: &'a Params, field: &str) -> Result<&'a str, Problem> {
    let v = p.required(field)?;
    let ok = v.split(',').all(|s| !s.is_empty() && s.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.'));
    if ok && v.len() <= 256 {
        Ok(v)
    } else {
        Err(Problem::bad(field, format!("{field} must be scope names separated by commas")))
    }
}

fn app_id<'a>(p: &'a Params, field: &str) -> Result<&'a str, Problem> {
    let v = p.required(field)?;
    if v.len() <= 64 && v.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')) {
        Ok(v)
    } else {
        Err(Problem::bad(field, format!("{field} must be up to 64 letters, digits, _ - .")))
    }
}

/// The consent screen: what is asked, and Allow / Deny posting `fields`
/// back to `path`.
fn consent(title: &str, asks: &str, path: &str, fields: &[(&str, &str)], redirect: &str) -> Response {
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
