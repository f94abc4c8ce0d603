//! Request parameters, error answers and redirect targets, shared by the
//! sandbox's handlers.

use axum::extract::{RawQuery, Request, State};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use url::{form_urlencoded, Url};

use super::pages;

/// Query-string or form parameters, in order.
pub struct Params(Vec<(String, String)>);

impl Params {
    /// Parses `a=1&b=2` text (a query string or a form body).
    pub fn parse(text: &str) -> Params {
        Params(form_urlencoded::parse(text.as_bytes()).into_owned().collect())
    }

    pub fn from_query(query: Option<&str>) -> Params {
        Params::parse(query.unwrap_or(""))
    }

    /// The first value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The value of `name`, which must be present and non-empty.
    pub fn required(&self, name: &str) -> Result<&str, Problem> {
        match self.get(name) {
            Some(v) if !v.is_empty() => Ok(v),
            Some(_) => Err(Problem::bad(name, format!("{name} is empty"))),
            None => Err(Problem::bad(name, format!("{name} is missing"))),
        }
    }

    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// A refused request: answered as JSON by the APIs and as a page by the
/// simulated provider pages.
#[derive(Debug)]
pub struct Problem {
    pub status: StatusCode,
    /// `invalid_request`, `not_found`, ...
    pub error: &'static str,
    pub field: Option<String>,
    pub message: String,
}

impl Problem {
    pub fn bad(field: &str, message: impl Into<String>) -> Problem {
        Problem { status: StatusCode::BAD_REQUEST, error: "invalid_request", field: Some(field.to_string()), message: message.into() }
    }

    pub fn not_found(message: impl Into<String>) -> Problem {
        Problem { status: StatusCode::NOT_FOUND, error: "not_found", field: None, message: message.into() }
    }

    /// `{ error, message, field? }` with the problem's status.
    pub fn json(self) -> Response {
        let mut body = json!({ "error": self.error, "message": self.message });
        if let Some(f) = self.field {
            body["field"] = json!(f);
        }
        (self.status, Json(body)).into_response()
    }

    /// A small page that says what was wrong.
    pub fn html(self) -> Response {
        let title = if self.status == StatusCode::NOT_FOUND { "Not found" } else { "Bad request" };
        let body = format!("<p class=\"error\">{}</p>", pages::escape(&self.message));
        (self.status, pages::page(title, &body)).into_response()
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        self.json()
    }
}

/// Parses a redirect target given in `field`: an absolute http(s) URL
/// without user info.
pub fn redirect_target(field: &str, target: &str) -> Result<Url, Problem> {
    let url = Url::parse(target).map_err(|e| Problem::bad(field, format!("{field} is not an absolute URL ({e})")))?;
    if url.scheme() != "http" && url.scheme() != "https" {
        return Err(Problem::bad(field, format!("{field} must be an http or https URL, not {}:", url.scheme())));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(Problem::bad(field, format!("{field} must not hold user info")));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(Problem::bad(field, format!("{field} has no host")));
    }
    Ok(url)
}

/// `target` with `params` appended to its query (its fragment kept).
pub fn with_query(mut target: Url, params: &[(&str, &str)]) -> String {
    {
        let mut q = target.query_pairs_mut();
        for (k, v) in params {
            q.append_pair(k, v);
        }
    }
    target.into()
}

/// A `303 See Other` to `location`.
pub fn see_other(location: &str) -> Response {
    (StatusCode::SEE_OTHER, [(axum::http::header::LOCATION, location)]).into_response()
}

/// Any origin may call the merchant API (a page on a separate dev server):
/// a preflight is answered here, every answer names the origin allowed.
pub async fn cors(req: Request, next: Next) -> Response {
    let mut res = if req.method() == Method::OPTIONS { StatusCode::NO_CONTENT.into_response() } else { next.run(req).await };
    let h = res.headers_mut();
    h.insert("access-control-allow-origin", HeaderValue::from_static("*"));
    h.insert("access-control-allow-methods", HeaderValue::from_static("GET, POST, OPTIONS"));
    h.insert("access-control-allow-headers", HeaderValue::from_static("content-type, idempotency-key"));
    h.insert("access-control-max-age", HeaderValue::from_static("600"));
    res
}

/// `POST /sim/clock?advance_ms=N`: moves the sandbox's clock N ms ahead
/// (codes expire, unpaid payments close), for a test or a try of what a
/// late customer meets. Answers `{ ahead_ms }`, the total.
pub async fn clock_ahead(State(s): State<super::AppState>, RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    match p.get("advance_ms").and_then(|v| v.parse::<u64>().ok()).filter(|n| *n <= 86_400_000) {
        Some(n) => {
            let total = s.clock_ahead_ms.fetch_add(n, std::sync::atomic::Ordering::Relaxed) + n;
            Json(json!({ "ahead_ms": total })).into_response()
        }
        None => Problem::bad("advance_ms", "advance_ms must be a whole number of ms up to a day").json(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_decode_and_require() {
        let p = Params::parse("a=1&b=x%2By+z&c=&a=2");
        assert_eq!(p.get("a"), Some("1"));
        assert_eq!(p.get("b"), Some("x+y z"));
        assert!(p.required("c").is_err());
        assert!(p.required("d").is_err());
        assert_eq!(p.required("a").unwrap(), "1");
    }

    #[test]
    fn redirect_targets_are_plain_http_urls() {
        assert!(redirect_target("r", "https://shop.example/cb?x=1#frag").is_ok());
        assert!(redirect_target("r", "http://127.0.0.1:8080/cb").is_ok());
        for bad in ["javascript:alert(1)", "data:text/html,hi", "/relative", "ftp://x.example/", "https://user:pw@x.example/", ""] {
            assert!(redirect_target("r", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn query_is_appended_before_the_fragment() {
        let u = redirect_target("r", "https://shop.example/cb?x=1#frag").unwrap();
        assert_eq!(with_query(u, &[("code", "a b"), ("state", "s&t")]), "https://shop.example/cb?x=1&code=a+b&state=s%26t#frag");
    }
}
