//! A merchant server: creates payment objects for every channel and tells a
//! page whether a payment was paid (its `confirm` hook asks here).
//!
//! `POST /merchant/payments` with JSON
//! `{ channel, amount?, subject?, open_id?, buyer_id?, user_id?, user_auth_code?, app_id?, return_url? }`
//! answers the payment object `{ id, object, pay_channel, amount, subject,
//! status, pay_info, expend?, created }`; `GET /merchant/payments/{id}`
//! answers `{ id, pay_channel, status }` with `status` `"created"`,
//! `"paid"` or `"closed"`.
//!
//! What must stay true:
//! - **Final states.** A payment is `created` until it is paid or, unpaid
//!   for the sandbox's payment lifetime (`PAYMENT_LIFETIME_MS`), closed;
//!   `paid` and `closed` never change, and a closed payment is paid by no
//!   cashier or bridge. `closed` is the one word meaning nothing was
//!   charged.
//! - **Idempotent orders.** A `POST` with an `Idempotency-Key` header
//!   answers the payment that key created (its status as it is now), not a
//!   new one, so that a page reloaded while the answer was on its way finds
//!   the payment; the key with another channel is `409`.
//! - **The card network's code, once.** An order with a `user_auth_code`
//!   uses the code up; an expired one is answered `{ error, code:
//!   "auth_expired" }`, a used one `{ error, code: "auth_used" }` (400,
//!   `field: "user_auth_code"`), the codes `cardnetPay` passes through from
//!   a rejected `order`.
//! - **CORS.** `/merchant/payments` answers any origin (a separate dev
//!   server's page), preflight included, with no credentials.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Map, Value};

use super::bounded::Bounded;
use super::config::DEFAULT_WALLET2_APP_ID;
use super::http::{redirect_target, Problem};
use super::oauth::{self, GrantKind};
use super::{lock, sign, AppState, Sandbox};
use paybridge::payment::Channel;

/// The subject of a payment whose order names none; its `+` and spaces make
/// the wallet1 pay_info URL carry `%2B` and `%20`.
pub const DEFAULT_SUBJECT: &str = "Sandbox tea + cake";
/// Amount in cents of a payment whose order names none.
pub const DEFAULT_AMOUNT: u64 = 100;
const MAX_AMOUNT: u64 = 100_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PayStatus {
    Created,
    Paid,
    /// Unpaid for the payment lifetime: final, nothing was charged.
    Closed,
}

impl PayStatus {
    pub fn name(self) -> &'static str {
        match self {
            PayStatus::Created => "created",
            PayStatus::Paid => "paid",
            PayStatus::Closed => "closed",
        }
    }
}

/// A payment as the merchant server remembers it.
#[derive(Clone, Debug)]
pub struct Payment {
    pub id: String,
    /// The wallet-side reference: `tradeNO`, the `prepay_id` of `package`,
    /// the `trade` of the cashier URLs.
    pub trade: String,
    pub channel: Channel,
    /// In cents.
    pub amount: u64,
    pub subject: String,
    pub status: PayStatus,
    /// Where the simulated cashier's "return to merchant" link goes.
    pub return_url: Option<String>,
    /// The payment object as it was handed out.
    pub object: Value,
    /// When it was created, by the sandbox's clock.
    pub created_ms: u64,
    /// The `Idempotency-Key` it was ordered with.
    pub key: Option<String>,
}

/// Payments by id, and their ids by wallet-side reference and by
/// idempotency key.
pub struct Payments {
    by_id: Bounded<Payment>,
    by_trade: HashMap<String, String>,
    by_key: HashMap<String, String>,
    /// How long a payment stays `created` before it is closed.
    lifetime_ms: u64,
}

impl Payments {
    pub fn new(cap: usize, lifetime_ms: u64) -> Payments {
        Payments { by_id: Bounded::new(cap), by_trade: HashMap::new(), by_key: HashMap::new(), lifetime_ms }
    }

    pub fn insert(&mut self, p: Payment) {
        self.by_trade.insert(p.trade.clone(), p.id.clone());
        if let Some(k) = &p.key {
            self.by_key.insert(k.clone(), p.id.clone());
        }
        for (_, gone) in self.by_id.insert(p.id.clone(), p) {
            self.by_trade.remove(&gone.trade);
            if let Some(k) = &gone.key {
                self.by_key.remove(k);
            }
        }
    }

    /// The payment `id` as it is at `now_ms` (closed when its lifetime
    /// passed unpaid).
    pub fn get(&mut self, id: &str, now_ms: u64) -> Option<&mut Payment> {
        let lifetime = self.lifetime_ms;
        let p = self.by_id.get_mut(id)?;
        if p.status == PayStatus::Created && now_ms.saturating_sub(p.created_ms) >= lifetime {
            p.status = PayStatus::Closed;
        }
        Some(p)
    }

    /// The payment with wallet-side reference `trade`, as [`Payments::get`].
    pub fn by_trade(&mut self, trade: &str, now_ms: u64) -> Option<&mut Payment> {
        let id = self.by_trade.get(trade)?.clone();
        self.get(&id, now_ms)
    }

    /// The payment ordered with idempotency key `key`, as [`Payments::get`].
    pub fn by_key(&mut self, key: &str, now_ms: u64) -> Option<&mut Payment> {
        let id = self.by_key.get(key)?.clone();
        self.get(&id, now_ms)
    }
}

/// `1.00` for 100 cents.
pub fn money(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/merchant/payments", post(create))
        .route("/merchant/payments/{id}", get(status))
        .layer(axum::middleware::from_fn(super::http::cors))
}

async fn create(State(s): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let key = match headers.get("idempotency-key").map(|v| v.to_str()) {
        None => None,
        Some(Ok(k)) if !k.is_empty() && k.len() <= 128 && k.bytes().all(|b| b.is_ascii_graphic()) => Some(k.to_string()),
        Some(_) => return Problem::bad("Idempotency-Key", "the Idempotency-Key header must be 1 to 128 printable ASCII characters").json(),
    };
    match create_payment_keyed(&s, &body, key.as_deref()) {
        Ok(object) => Json(object).into_response(),
        // A refused card-network code also as `code`: a page's `order`
        // rejects with the body, and cardnetPay passes that code through.
        Err(p) if p.error.starts_with("auth_") => {
            let body = json!({ "error": p.error, "code": p.error, "message": p.message, "field": p.field });
            (p.status, Json(body)).into_response()
        }
        Err(p) => p.json(),
    }
}

async fn status(State(s): State<AppState>, Path(id): Path<String>) -> Response {
    let mut payments = lock(&s.payments);
    match payments.get(&id, s.now_ms()) {
        Some(p) => Json(json!({
            "id": p.id,
            "pay_channel": p.channel.name(),
            "status": p.status.name(),
        }))
        .into_response(),
        None => Problem::not_found(format!("no payment {id} (the sandbox forgets payments when it restarts)")).json(),
    }
}

/// An optional string member: absent or null is `None`; otherwise a
/// non-empty string of printable characters up to `max` long.
fn text(body: &Map<String, Value>, name: &str, max: usize) -> Result<Option<String>, Problem> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Err(Problem::bad(name, format!("{name} is empty"))),
        Some(Value::String(s)) if s.chars().count() > max => Err(Problem::bad(name, format!("{name} is longer than {max} characters"))),
        Some(Value::String(s)) if s.chars().any(char::is_control) => Err(Problem::bad(name, format!("{name} holds control characters"))),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(Problem::bad(name, format!("{name} must be a string"))),
    }
}

fn amount(body: &Map<String, Value>) -> Result<u64, Problem> {
    match body.get("amount") {
        None | Some(Value::Null) => Ok(DEFAULT_AMOUNT),
        Some(v) => match v.as_u64() {
            Some(n) if (1..=MAX_AMOUNT).contains(&n) => Ok(n),
            _ => Err(Problem::bad("amount", format!("amount must be a whole number of cents from 1 to {MAX_AMOUNT}"))),
        },
    }
}

/// Builds and remembers a payment from the JSON order in `body`.
pub fn create_payment(s: &Sandbox, body: &[u8]) -> Result<Value, Problem> {
    create_payment_keyed(s, body, None)
}

/// [`create_payment`], or with `key` given before, the payment that key
/// created, its status as it is now.
pub fn create_payment_keyed(s: &Sandbox, body: &[u8], key: Option<&str>) -> Result<Value, Problem> {
    if let Some(k) = key {
        if let Some(p) = lock(&s.payments).by_key(k, s.now_ms()) {
            let asked = serde_json::from_slice::<Value>(body).ok();
            let channel = asked.as_ref().and_then(|o| o.get("channel").or_else(|| o.get("pay_channel"))).and_then(Value::as_str);
            if channel.is_some_and(|c| Channel::from_name(c) != Some(p.channel)) {
                return Err(Problem {
                    status: StatusCode::CONFLICT,
                    error: "invalid_request",
                    field: Some("Idempotency-Key".into()),
                    message: format!(
                        "Idempotency-Key {k:?} ordered payment {} for {}: a new order needs a new key",
                        p.id,
                        p.channel.name()
                    ),
                });
            }
            let mut object = p.object.clone();
            object["status"] = json!(p.status.name());
            return Ok(object);
        }
    }
    let order: Value = serde_json::from_slice(body).map_err(|e| Problem::bad("body", format!("the body is not JSON text ({e})")))?;
    let Value::Object(order) = order else {
        return Err(Problem::bad("body", "the body must be a JSON object"));
    };
    let name = match (text(&order, "channel", 64)?, text(&order, "pay_channel", 64)?) {
        (Some(c), _) | (None, Some(c)) => c,
        (None, None) => {
            return Err(Problem::bad(
                "channel",
                "channel is missing (one of wallet1, wallet1_wap, wallet1_lite, wallet1_pub, wallet2_lite, wallet2_pub, cardnet)",
            ))
        }
    };
    let channel = Channel::from_name(&name).ok_or_else(|| {
        Problem::bad(
            "channel",
            format!("channel {name:?} is not one of wallet1, wallet1_wap, wallet1_lite, wallet1_pub, wallet2_lite, wallet2_pub, cardnet"),
        )
    })?;
    let amount = amount(&order)?;
    let subject = text(&order, "subject", 128)?.unwrap_or_else(|| DEFAULT_SUBJECT.to_string());
    let return_url = match text(&order, "return_url", 2048)? {
        Some(u) => Some(redirect_target("return_url", &u)?.to_string()),
        None => None,
    };
    let app_id = text(&order, "app_id", 64)?.unwrap_or_else(|| DEFAULT_WALLET2_APP_ID.to_string());
    let mut echo = Vec::new();
    for field in ["open_id", "buyer_id", "user_id"] {
        if let Some(v) = text(&order, field, 128)? {
            echo.push((field, v));
        }
    }
    let cardnet_code = text(&order, "user_auth_code", 128)?;

    let now = s.now_ms();
    let id = format!("pay_{}", sign::random_hex(12));
    let trade = format!("T{}", sign::random_hex(12));
    let secret = s.config.secret.as_str();
    let amount_text = amount.to_string();
    let mut expend = None;
    let pay_info = match channel {
        Channel::Wallet1 | Channel::Wallet1Wap => {
            Value::String(cashier_url(s, "/sim/wallet1/cashier", &trade, &amount_text, Some(&subject)))
        }
        Channel::Wallet1Lite | Channel::Wallet1Pub => json!({ "tradeNO": trade }),
        Channel::Wallet2Lite | Channel::Wallet2Pub => {
            let time_stamp = (now / 1000).to_string();
            let nonce = sign::random_hex(16);
            let package = format!("prepay_id={trade}");
            let pay_sign = sign::sign(
                secret,
                [
                    ("appId", app_id.as_str()),
                    ("nonceStr", &nonce),
                    ("package", &package),
                    ("signType", "HMAC-SHA256"),
                    ("timeStamp", &time_stamp),
                ],
            );
            let mut info = json!({
                "timeStamp": time_stamp,
                "nonceStr": nonce,
                "package": package,
                "signType": "HMAC-SHA256",
                "paySign": pay_sign,
            });
            if channel == Channel::Wallet2Pub {
                info["appId"] = json!(app_id);
            }
            info
        }
        Channel::Cardnet => {
            let Some(code) = cardnet_code else {
                return Err(Problem::bad(
                    "user_auth_code",
                    "user_auth_code is missing (cardnet needs the userAuthCode from /sim/cardnet/authorize)",
                ));
            };
            // Used up by this order: the same code orders nothing again.
            oauth::check_grant(s, GrantKind::Cardnet, &code, true).map_err(|why| Problem {
                error: oauth::refusal_code(&why),
                ..Problem::bad("user_auth_code", format!("user_auth_code {why}"))
            })?;
            let url = cashier_url(s, "/sim/cardnet/pay", &trade, &amount_text, None);
            expend = Some(json!({ "pay_url": url }));
            Value::Null
        }
    };
    let mut object = json!({
        "id": id,
        "object": "payment",
        "pay_channel": channel.name(),
        "amount": amount,
        "subject": subject,
        "status": PayStatus::Created.name(),
        "pay_info": pay_info,
        "created": now / 1000,
    });
    if let Some(e) = expend {
        object["expend"] = e;
    }
    for (field, v) in echo {
        object[field] = json!(v);
    }
    lock(&s.payments).insert(Payment {
        id,
        trade,
        channel,
        amount,
        subject,
        status: PayStatus::Created,
        return_url,
        object: object.clone(),
        created_ms: now,
        key: key.map(str::to_string),
    });
    Ok(object)
}

/// A signed link to one of the sandbox's cashier pages.
fn cashier_url(s: &Sandbox, path: &str, trade: &str, amount: &str, subject: Option<&str>) -> String {
    let mut params = vec![("trade", trade), ("amount", amount)];
    if let Some(subj) = subject {
        params.push(("subject", subj));
    }
    let sig = sign::sign(&s.config.secret, params.iter().copied());
    params.push(("sign", &sig));
    let query: Vec<String> = params
        .iter()
        .map(|(k, v)| {
            let mut q = format!("{k}=");
            paybridge::encode::push_component(&mut q, v);
            q
        })
        .collect();
    format!("{}{path}?{}", s.base, query.join("&"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_has_two_decimals() {
        assert_eq!(money(1), "0.01");
        assert_eq!(money(100), "1.00");
        assert_eq!(money(123456), "1234.56");
    }
}
