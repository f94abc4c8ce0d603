//! A merchant server: creates payment objects for every channel and tells a
//! page whether a payment was paid (its `confirm` hook asks here).
//!
//! `POST /merchant/payments` with JSON
//! `{ channel, amount?, subject?, open_id?, buyer_id?, user_id?, user_auth_code?, app_id?, return_url? }`
//! answers the payment object `{ id, object, pay_channel, amount, subject,
//! status, pay_info, expend?, created }`; `GET /merchant/payments/{id}`
//! answers `{ id, pay_channel, status }` with `status` `"created"` or
//! `"paid"`.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Map, Value};

use super::bounded::Bounded;
use super::config::DEFAULT_WALLET2_APP_ID;
use super::http::{redirect_target, Problem};
use super::oauth::{self, GrantKind};
use super::{lock, sign, AppState, Sandbox};
use crate::payment::Channel;

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
}

impl PayStatus {
    pub fn name(self) -> &'static str {
        match self {
            PayStatus::Created => "created",
            PayStatus::Paid => "paid",
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
}

/// Payments by id, and their ids by wallet-side reference.
pub struct Payments {
    by_id: Bounded<Payment>,
    by_trade: HashMap<String, String>,
}

impl Payments {
    pub fn new(cap: usize) -> Payments {
        Payments { by_id: Bounded::new(cap), by_trade: HashMap::new() }
    }

    pub fn insert(&mut self, p: Payment) {
        self.by_trade.insert(p.trade.clone(), p.id.clone());
        for (_, gone) in self.by_id.insert(p.id.clone(), p) {
            self.by_trade.remove(&gone.trade);
        }
    }

    pub fn get(&self, id: &str) -> Option<&Payment> {
        self.by_id.get(id)
    }

    pub fn by_trade(&mut self, trade: &str) -> Option<&mut Payment> {
        let id = self.by_trade.get(trade)?;
        self.by_id.get_mut(id)
    }
}

/// `1.00` for 100 cents.
pub fn money(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

pub fn router() -> Router<AppState> {
    Router::new().route("/merchant/payments", post(create)).route("/merchant/payments/{id}", get(status))
}

async fn create(State(s): State<AppState>, body: Bytes) -> Response {
    match create_payment(&s, &body) {
        Ok(object) => Json(object).into_response(),
        Err(p) => p.json(),
    }
}

async fn status(State(s): State<AppState>, Path(id): Path<String>) -> Response {
    let payments = lock(&s.payments);
    match payments.get(&id) {
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
            oauth::check_grant(s, GrantKind::Cardnet, &code, false)
                .map_err(|why| Problem::bad("user_auth_code", format!("user_auth_code {why}")))?;
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
            crate::encode::push_component(&mut q, v);
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
