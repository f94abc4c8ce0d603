//! The server side of the code exchanges, for a Node back end.
//!
//! These describe the HTTP request the merchant's server sends to turn an
//! authorization code into a user id, and read the answer. The wallet2
//! requests carry the application secret: build them on the server only,
//! never in a browser or a mini-program (anything shipped to a page is
//! public). The wallet1 gateway request is left unsigned: wallet1 gateway
//! calls are signed with the merchant's private key under the gateway's
//! own rules, which are the merchant's business; [`ExchangeRequest::sign_param`]
//! names the parameter the signature goes in, and the merchant adds the
//! gateway's other common parameters (charset, timestamp, ...) as its
//! gateway requires.

use super::{app_id, params_obj, push_param, req_str, AuthOptions};
use crate::error::{cat, push_u64, Code, PayError, Result};
use crate::json::json_obj;
use crate::json::Json;
use crate::prelude::*;
use crate::profile::Field;
use crate::safe_url::clip;

/// One HTTP request for the server to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExchangeRequest {
    /// `"GET"` (parameters in the query) or `"POST"` (parameters
    /// form-encoded in the body).
    pub method: &'static str,
    /// The address, without the parameters.
    pub url: String,
    /// The parameters, in the order the provider documents them.
    pub params: Vec<(&'static str, String)>,
    /// When set, the request must be signed before it is sent: the
    /// signature over `params` goes in a parameter of this name.
    pub sign_param: Option<&'static str>,
}

impl ExchangeRequest {
    /// The parameters percent-encoded as `a=1&b=2` (the GET query, or the
    /// POST body with content type `application/x-www-form-urlencoded`).
    pub fn encoded_params(&self) -> String {
        let mut s = String::from("?");
        for (k, v) in &self.params {
            push_param(&mut s, k, v);
        }
        s.split_off(1)
    }

    /// The address with the parameters in its query (for GET).
    pub fn href(&self) -> String {
        let mut s = self.url.clone();
        for (k, v) in &self.params {
            push_param(&mut s, k, v);
        }
        s
    }

    /// Adds the merchant's signature under [`sign_param`](Self::sign_param).
    pub fn signed(mut self, signature: &str) -> ExchangeRequest {
        if let Some(k) = self.sign_param.take() {
            self.params.push((k, signature.into()));
        }
        self
    }

    /// `{ method, url, params, href? (GET), body? (POST, once signed or when no signature is needed), signParam? }`.
    pub fn to_json(&self) -> Json {
        let mut m = Vec::new();
        Json::put(&mut m, "method", Json::str(self.method));
        Json::put(&mut m, "url", Json::Str(self.url.clone()));
        Json::put(&mut m, "params", Json::str_obj(&self.params));
        if self.method == "GET" {
            Json::put(&mut m, "href", Json::Str(self.href()));
        } else if self.sign_param.is_none() {
            Json::put(&mut m, "body", Json::Str(self.encoded_params()));
        }
        if let Some(k) = self.sign_param {
            Json::put(&mut m, "signParam", Json::str(k));
        }
        Json::Obj(crate::json::list(m))
    }
}

/// A code or secret: 1 to 512 printable ASCII characters, no spaces.
fn token<'a>(params: &'a Json, key: &str) -> Result<&'a str> {
    let v = req_str(params, key, Code::InvalidOptions)?;
    if v.len() <= 512 && v.bytes().all(|b| b.is_ascii_graphic()) {
        Ok(v)
    } else {
        Err(super::bad(key, "must be 1 to 512 printable ASCII characters without spaces"))
    }
}

const GRANT: (&str, &str) = ("grant_type", "authorization_code");

/// wallet1: `{ appId, code }` -> the gateway's `authorization_code` grant
/// (POST to `profile.wallet1.tokenUrl`, operation `profile.wallet1.tokenMethod`),
/// unsigned: the merchant signs it.
pub fn wallet1_token_request(params: &Json, options: Option<&Json>) -> Result<ExchangeRequest> {
    let o = AuthOptions::from_json(options)?;
    let p = params_obj(params)?;
    Ok(ExchangeRequest {
        method: "POST",
        url: o.profile.get(Field::W1TokenUrl).into(),
        params: vec![
            ("app_id", app_id(p)?.into()),
            ("method", o.profile.get(Field::W1TokenMethod).into()),
            (GRANT.0, GRANT.1.into()),
            ("code", token(p, "code")?.into()),
        ],
        sign_param: Some("sign"),
    })
}

fn wallet2_request(params: &Json, code_key: &str, code_param: &'static str, url: String) -> Result<ExchangeRequest> {
    let p = params_obj(params)?;
    Ok(ExchangeRequest {
        method: "GET",
        url,
        params: vec![
            ("appid", app_id(p)?.into()),
            ("secret", token(p, "secret")?.into()),
            (code_param, token(p, code_key)?.into()),
            (GRANT.0, GRANT.1.into()),
        ],
        sign_param: None,
    })
}

/// wallet2 official account: `{ appId, secret, code }` -> GET
/// `profile.wallet2.oauthTokenUrl` with `appid, secret, code, grant_type`.
pub fn wallet2_oauth_token_request(params: &Json, options: Option<&Json>) -> Result<ExchangeRequest> {
    let o = AuthOptions::from_json(options)?;
    wallet2_request(params, "code", "code", o.profile.get(Field::W2OauthTokenUrl).into())
}

/// wallet2 mini-program: `{ appId, secret, jsCode }` -> GET
/// `profile.wallet2.sessionUrl` with `appid, secret, js_code, grant_type`.
pub fn wallet2_session_request(params: &Json, options: Option<&Json>) -> Result<ExchangeRequest> {
    let o = AuthOptions::from_json(options)?;
    wallet2_request(params, "jsCode", "js_code", o.profile.get(Field::W2SessionUrl).into())
}

/// What the wallet1 exchange gives: the payer's user id (the `user_id` of
/// `wallet1_pub` and the `buyer_id` of `wallet1_lite`) and the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wallet1Token {
    pub user_id: String,
    pub access_token: String,
}

impl Wallet1Token {
    /// `{ userId, accessToken }`.
    pub fn to_json(&self) -> Json {
        json_obj! { "userId" => Json::Str(self.user_id.clone()), "accessToken" => Json::Str(self.access_token.clone()) }
    }
}

fn undecodable(field: &str, why: &str) -> PayError {
    crate::error::blame(Code::InvalidResponse, field, why)
}

fn answer_str<'a>(v: &'a Json, key: &str) -> Result<&'a str> {
    match v.get(key) {
        Some(Json::Str(s)) if !s.is_empty() => Ok(s),
        _ => Err(undecodable(key, "is missing from the answer")),
    }
}

/// A code of an answer as text (`40029`, `-1`, `isv.code-invalid`).
fn code_text(v: &Json) -> String {
    match v {
        Json::Str(s) => clip(s).into(),
        Json::Num(n) => {
            let mut s = String::new();
            if *n < 0.0 {
                s.push('-');
            }
            push_u64(&mut s, n.abs() as u64);
            s
        }
        _ => String::from("?"),
    }
}

/// Reads the wallet1 exchange's answer: the operation's `*_response`
/// object (or that object itself). An `error_response`, or a response with
/// an error `code`, is `auth_failed` with the codes and message quoted.
pub fn read_wallet1_token(answer: &Json) -> Result<Wallet1Token> {
    let Some(members) = answer.as_obj() else {
        return Err(undecodable("answer", "is not an object"));
    };
    let inner = if answer.get("access_token").is_some() || answer.get("code").is_some() {
        answer
    } else {
        members
            .iter()
            .find(|(k, v)| k.ends_with("_response") && v.as_obj().is_some())
            .map(|(_, v)| v)
            .ok_or_else(|| undecodable("answer", "holds no *_response object"))?
    };
    if inner.get("access_token").is_none() {
        if let Some(code) = inner.get("code") {
            let sub = inner.get("sub_code");
            let mut msg = cat!("wallet1 refused the code exchange: code ", &code_text(code));
            if let Some(s) = sub {
                msg.push_str(", sub_code ");
                msg.push_str(&code_text(s));
            }
            for &key in ["sub_msg", "msg"].iter() {
                if let Some(Json::Str(t)) = inner.get(key) {
                    msg.push_str(": ");
                    msg.push_str(clip(t));
                    break;
                }
            }
            let field = if sub.is_some() { "sub_code" } else { "code" };
            return Err(PayError::field(Code::AuthFailed, field, msg));
        }
    }
    Ok(Wallet1Token { user_id: answer_str(inner, "user_id")?.into(), access_token: answer_str(inner, "access_token")?.into() })
}

/// Reads the `openid` of a wallet2 answer (official-account exchange or
/// mini-program session). An answer with a non-zero `errcode` is
/// `auth_failed`, the code and `errmsg` quoted.
pub fn read_wallet2_openid(answer: &Json) -> Result<String> {
    if answer.as_obj().is_none() {
        return Err(undecodable("answer", "is not an object"));
    }
    if let Some(e) = answer.get("errcode") {
        if !matches!(e, Json::Null) && !matches!(e, Json::Num(n) if *n == 0.0) && e.as_str() != Some("0") {
            let mut msg = cat!("wallet2 refused the code exchange: errcode ", &code_text(e));
            if let Some(Json::Str(t)) = answer.get("errmsg") {
                msg.push_str(": ");
                msg.push_str(clip(t));
            }
            return Err(PayError::field(Code::AuthFailed, "errcode", msg));
        }
    }
    Ok(answer_str(answer, "openid")?.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_forms() {
        let r = ExchangeRequest {
            method: "GET",
            url: "https://a.example/x?v=1".into(),
            params: vec![("a", "1 2".into()), ("b", "&=".into())],
            sign_param: None,
        };
        assert_eq!(r.encoded_params(), "a=1%202&b=%26%3D");
        assert_eq!(r.href(), "https://a.example/x?v=1&a=1%202&b=%26%3D");
        let s = ExchangeRequest { method: "POST", sign_param: Some("sign"), ..r };
        assert!(s.to_json().get("body").is_none());
        let s = s.signed("c2ln+/=");
        assert_eq!(s.encoded_params(), "a=1%202&b=%26%3D&sign=c2ln%2B%2F%3D");
        assert_eq!(
            s.to_json().to_text(),
            r#"{"method":"POST","url":"https://a.example/x?v=1","params":{"a":"1 2","b":"&=","sign":"c2ln+/="},"body":"a=1%202&b=%26%3D&sign=c2ln%2B%2F%3D"}"#
        );
    }

    #[test]
    fn code_texts() {
        assert_eq!(code_text(&Json::Num(40029.0)), "40029");
        assert_eq!(code_text(&Json::Num(-1.0)), "-1");
        assert_eq!(code_text(&Json::str("isv.x")), "isv.x");
        assert_eq!(code_text(&Json::Bool(true)), "?");
    }
}
