//! The requests of the authentication API, fully described so that an edge
//! only joins `base_url + path (+ "?" + query)` and sends them.
//!
//! | method | path | parameters |
//! | --- | --- | --- |
//! | POST | /api/v1/trade/cardcheck | form body: common parameters + cardcheck fields |
//! | POST | /api/v1/trade/namecheck | form body: common parameters + namecheck fields |
//! | GET | /api/v1/checkresult | query string: common parameters + seq_id |
//!
//! Those are the default paths; `AuthClient`'s `paths` option puts each
//! interface elsewhere under `baseUrl` ([`super::config::Paths`]), such as
//! the `v4` result-query form the document also shows,
//! [`V4_CHECK_RESULT_PATH`].
//!
//! The common parameters are `order_date`, `order_id`, `app_token` and
//! `sign`; every request carries the `env` header. Parameters are encoded
//! by [`super::form`] (space as `%20`).

use super::form::encode_form;
use crate::json::Json;
use crate::prelude::*;

pub const CARD_CHECK_PATH: &str = "/api/v1/trade/cardcheck";
pub const NAME_CHECK_PATH: &str = "/api/v1/trade/namecheck";
pub const CHECK_RESULT_PATH: &str = "/api/v1/checkresult";
/// The other result-query form of the document's "Versioning".
pub const V4_CHECK_RESULT_PATH: &str = "/api/v4/checkresult";

/// The fields the document says are sent encrypted (`cvv2`, "sent
/// encrypted"): the client's `encrypt` hook turns each into what is sent,
/// before signing.
pub const ENCRYPTED_FIELDS: [&str; 1] = ["cvv2"];

/// The content type of the POST bodies.
pub const FORM_CONTENT_TYPE: &str = "application/x-www-form-urlencoded";

/// One HTTP request, ready to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// `"GET"` or `"POST"`.
    pub method: &'static str,
    pub path: String,
    /// The encoded query string (without `?`), for GET.
    pub url_query: Option<String>,
    /// Header names in lowercase.
    pub headers: Vec<(String, String)>,
    /// The encoded form body, for POST.
    pub body: Option<String>,
    /// Every parameter sent, `sign` last, decoded (for logs and tests).
    pub params: Vec<(String, String)>,
}

impl Request {
    /// A POST of `params` (already signed) as a form body.
    pub fn post(path: &str, env: &str, params: Vec<(String, String)>) -> Request {
        Request {
            method: "POST",
            path: path.into(),
            url_query: None,
            headers: vec![("content-type".into(), FORM_CONTENT_TYPE.into()), ("env".into(), env.into())],
            body: Some(encode_form(&params)),
            params,
        }
    }

    /// A GET of `params` (already signed) as a query string.
    pub fn get(path: &str, env: &str, params: Vec<(String, String)>) -> Request {
        Request {
            method: "GET",
            path: path.into(),
            url_query: Some(encode_form(&params)),
            headers: vec![("env".into(), env.into())],
            body: None,
            params,
        }
    }

    /// The value of parameter `name`, if sent.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// The common parameters but `sign`, in the order the service lists them.
pub fn common_params(order_date: &str, order_id: &str, app_token: &str) -> Vec<(String, String)> {
    vec![("order_date".into(), order_date.into()), ("order_id".into(), order_id.into()), ("app_token".into(), app_token.into())]
}

/// The unsigned parameters of a `cardcheck` or `namecheck`: the common ones
/// then every string field in the caller's order (unknown ones included; a
/// repeated name keeps its last value; `null`, `order_id`, `order_date`,
/// `app_token` and `sign` are left out, the first two being in the common
/// parameters). An `id_number`'s check character is sent as the national
/// standard writes it, `X`, however it was typed. The fields are expected
/// to have passed validation.
pub fn check_params(order_date: &str, order_id: &str, app_token: &str, fields: &Json) -> Vec<(String, String)> {
    let mut out = common_params(order_date, order_id, app_token);
    let members = fields.as_obj().unwrap_or(&[]);
    for (i, (k, v)) in members.iter().enumerate() {
        let later = members[i + 1..].iter().any(|(k2, _)| k2 == k);
        let common = matches!(k.as_str(), "order_id" | "order_date" | "app_token" | "sign");
        if let (false, false, Json::Str(s)) = (later, common, v) {
            let s = if k == "id_number" { s.to_ascii_uppercase() } else { s.clone() };
            out.push((k.clone(), s));
        }
    }
    out
}

/// The unsigned parameters of a `checkresult`; `seq_id` is sent empty for a
/// query by `order_id`.
pub fn query_params(order_date: &str, order_id: &str, app_token: &str, seq_id: &str) -> Vec<(String, String)> {
    let mut out = common_params(order_date, order_id, app_token);
    out.push(("seq_id".into(), seq_id.into()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Code;
    use crate::json::parse;

    fn names(p: &[(String, String)]) -> Vec<&str> {
        p.iter().map(|(k, _)| k.as_str()).collect()
    }

    #[test]
    fn check_params_keep_the_callers_fields() {
        let f = parse(
            r#"{"full_name":"张 三","order_id":"o9","x":"1","imei":null,"x":"2","acct_no":"4111111111111111"}"#,
            Code::InvalidRequest,
            "fields",
        )
        .unwrap();
        let p = check_params("20240101", "o9", "T", &f);
        assert_eq!(names(&p), ["order_date", "order_id", "app_token", "full_name", "x", "acct_no"]);
        assert_eq!(p[4].1, "2");
    }

    #[test]
    fn post_and_get() {
        let mut p = check_params("20240101", "o1", "T", &Json::obj(vec![("full_name", Json::str("A B"))]));
        p.push(("sign".into(), "s+/=".into()));
        let r = Request::post(CARD_CHECK_PATH, "test", p);
        assert_eq!(r.method, "POST");
        assert_eq!(r.body.as_deref(), Some("order_date=20240101&order_id=o1&app_token=T&full_name=A%20B&sign=s%2B%2F%3D"));
        assert_eq!(r.url_query, None);
        assert_eq!(r.headers, vec![("content-type".to_string(), FORM_CONTENT_TYPE.to_string()), ("env".to_string(), "test".to_string())]);
        assert_eq!(r.param("sign"), Some("s+/="));

        let mut q = query_params("20240101", "o1", "T", "");
        q.push(("sign".into(), "x".into()));
        let g = Request::get(CHECK_RESULT_PATH, "test", q);
        assert_eq!(g.method, "GET");
        assert_eq!(g.body, None);
        assert_eq!(g.url_query.as_deref(), Some("order_date=20240101&order_id=o1&app_token=T&seq_id=&sign=x"));
        assert_eq!(g.headers, vec![("env".to_string(), "test".to_string())]);
    }
}
