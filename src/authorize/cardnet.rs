//! The card-network flow's decision before ordering: the `userAuthCode` is
//! used within five minutes of its arrival, and only from a successful
//! card-network callback. The page edge then asks the merchant's server to
//! order with it and plans the redirect to `expend.pay_url`.

use super::{fail, AuthCallback, Provider};
use crate::error::{cat, push_u64, Code, PayError, Result};
use crate::json::json_obj;
use crate::json::Json;
use crate::prelude::*;
use crate::safe_url::clip;

/// How long a card-network `userAuthCode` may be used: five minutes.
pub const USER_AUTH_CODE_TTL_MS: f64 = 300_000.0;

/// What the card-network payment may go on with: order with this code
/// before `expires_at`.
#[derive(Clone, Debug, PartialEq)]
pub struct CardnetOrder {
    pub user_auth_code: String,
    /// `receivedAt` + five minutes (ms).
    pub expires_at: f64,
}

impl CardnetOrder {
    /// `{ userAuthCode, expiresAt }`.
    pub fn to_json(&self) -> Json {
        json_obj! { "userAuthCode" => Json::Str(self.user_auth_code.clone()), "expiresAt" => Json::Num(self.expires_at) }
    }
}

/// The card-network decision before ordering: the `userAuthCode` to order
/// with, or why not: `auth_failed` for another provider's callback, a
/// `respCode` other than `00` or a missing code; `auth_expired` once five
/// minutes have passed since `receivedAt` (or when `receivedAt` lies after
/// `now_ms`, which no callback stamped by this page does).
pub fn cardnet_order(cb: &AuthCallback, now_ms: f64) -> Result<CardnetOrder> {
    if cb.provider != Provider::Cardnet {
        return Err(fail(
            "provider",
            &cat!("is ", cb.provider.as_str(), ": the card-network payment needs a card-network callback (cardnetAuthUrl)"),
        ));
    }
    match cb.resp_code.as_deref() {
        Some("00") => {}
        other => {
            return Err(fail(
                "respCode",
                &cat!("is ", clip(other.unwrap_or("missing")), ", not 00: the card network did not authorize the user"),
            ))
        }
    }
    let code = match &cb.user_auth_code {
        Some(c) if !c.is_empty() => c.clone(),
        _ => return Err(fail("userAuthCode", "is missing: authorize again")),
    };
    let age = now_ms - cb.received_at;
    if !(0.0..USER_AUTH_CODE_TTL_MS).contains(&age) {
        let mut msg = String::from("userAuthCode ");
        if age >= USER_AUTH_CODE_TTL_MS {
            msg.push_str("was received ");
            push_u64(&mut msg, (age / 1000.0) as u64);
            msg.push_str(" s ago");
        } else {
            msg.push_str("has a receivedAt later than now");
        }
        msg.push_str("; it is valid for 5 minutes, so authorize again (cardnetAuthUrl)");
        return Err(PayError::field(Code::AuthExpired, "userAuthCode", msg));
    }
    Ok(CardnetOrder { user_auth_code: code, expires_at: cb.received_at + USER_AUTH_CODE_TTL_MS })
}

/// `isUserAuthCodeFresh(cb, now?)`: a card-network callback with its code,
/// less than five minutes old. `false` for any other callback.
pub fn is_user_auth_code_fresh(cb: &AuthCallback, now_ms: f64) -> bool {
    cardnet_order(cb, now_ms).is_ok()
}

/// [`is_user_auth_code_fresh`] for the callback object the page kept
/// (`false` when it is not one).
pub fn is_user_auth_code_fresh_json(cb: &Json, now_ms: f64) -> bool {
    AuthCallback::from_json(cb).is_ok_and(|cb| is_user_auth_code_fresh(&cb, now_ms))
}
