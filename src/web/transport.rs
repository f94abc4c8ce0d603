//! The authentication client's request, as the shim performs it: through
//! the caller's `transport` function, or through `fetch`, looked up on
//! `globalThis` at each call (never bound by name, so the glue does not
//! mention it and runtimes without it load the module all the same). The
//! core ([`crate::perform::VerifyRun`]) awaits it and decides what an
//! answer, a failure or a time-out means; this file writes the call and
//! reads what it answered.

use super::convert::{from_js, set};
use super::env;
use super::env::Text;
use crate::error::{cat, Code, PayError};
use crate::perform::Got;
use crate::prelude::*;
use crate::verify::Request;
use js_sys::{Function, Object};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Where requests go and how.
pub struct Transport {
    /// `baseUrl`, checked, without trailing slashes.
    pub base_url: String,
    /// The caller's `transport`, or `None` for `fetch`.
    pub custom: Option<Function>,
    /// How long one request may take before it counts as unanswered.
    pub timeout_ms: u32,
}

impl Transport {
    /// Whether there is a way to send: a `transport`, or `fetch`.
    pub fn available(&self) -> bool {
        self.custom.is_some() || fetch_fn().is_some()
    }

    /// The awaited call that sends `req`: `(f, x, y)` for `f(x, y)`:
    /// `transport(request)`, or `fetch(url, init)` with the signal of the
    /// `AbortController` also answered, where the runtime has one (the run's
    /// edge aborts it once the run no longer awaits the request: after the
    /// core's time-out, or the run's end).
    pub fn call(&self, req: &Request) -> (JsValue, JsValue, JsValue, Option<JsValue>) {
        let mut url = cat!(&self.base_url, &req.path);
        if let Some(q) = &req.url_query {
            url.push('?');
            url.push_str(q);
        }
        let headers = Object::new();
        for (k, v) in &req.headers {
            set(&headers, k, &JsValue::from_str(v));
        }
        let url = JsValue::from_str(&url);
        let init = Object::new();
        set(&init, "method", &JsValue::from_str(req.method));
        if self.custom.is_some() {
            set(&init, "url", &url);
        }
        set(&init, "headers", &headers);
        if let Some(b) = &req.body {
            set(&init, "body", &JsValue::from_str(b));
        }
        if let Some(f) = &self.custom {
            set(&init, "timeoutMs", &JsValue::from_f64(self.timeout_ms as f64));
            return (f.into(), init.into(), JsValue::UNDEFINED, None);
        }
        let controller = abort_controller();
        if let Some(c) = &controller {
            set(&init, "signal", &env::get(c, "signal"));
        }
        // `fetch` called on `globalThis`, as a page's own call is.
        let f = fetch_fn().map_or(JsValue::UNDEFINED, |f| f.bind0(&env::global()).into());
        (f, url, init.into(), controller)
    }

    /// What the request answered, as the core reads it.
    pub fn got(&self, v: JsValue) -> Got<JsValue> {
        if self.custom.is_some() {
            return Got::Answer(read_answer(&v));
        }
        if !env::has_method(&v, "text") {
            return Got::Response(
                Err(PayError::new(Code::Transport, "fetch resolved with something that is not a Response (no text())")),
                v,
            );
        }
        Got::Response(Ok(status_of(env::get(&v, "status").as_f64().unwrap_or(0.0))), v)
    }
}

/// `response.text` bound to the response: the awaited call that reads the
/// body.
pub fn body_call(response: &JsValue) -> JsValue {
    env::method(response, "text").map_or(JsValue::UNDEFINED, |f| f.bind0(response).into())
}

fn abort_controller() -> Option<JsValue> {
    let class = env::global_get("AbortController").dyn_into::<Function>().ok()?;
    js_sys::Reflect::construct(&class, &js_sys::Array::new()).ok()
}

/// Aborts a request a run no longer awaits (nothing, once it has ended).
pub fn abort(controller: &JsValue) {
    if let Some(f) = env::method(controller, "abort") {
        let _ = f.call0(controller);
    }
}

fn fetch_fn() -> Option<Function> {
    env::global_get("fetch").dyn_into::<Function>().ok()
}

/// What a thrown value says after the words of a failure: `": message"`
/// and, when it has a cause with a message (fetch's own reason: a refused
/// connection, a closed socket), `" (cause)"`.
pub fn describe(thrown: &JsValue) -> String {
    let detail = env::get(thrown, "message").text().or_else(|| thrown.text()).unwrap_or_default();
    let mut message = String::new();
    if !detail.is_empty() {
        message.push_str(": ");
        message.push_str(crate::safe_url::clip(&detail));
    }
    if let Some(why) = env::get(&env::get(thrown, "cause"), "message").text().filter(|s| !s.is_empty()) {
        message.push_str(" (");
        message.push_str(crate::safe_url::clip(&why));
        message.push(')');
    }
    message
}

/// An HTTP status as the core takes it (0 when out of range).
fn status_of(n: f64) -> u16 {
    if crate::json::whole(n).is_some_and(|w| w <= 999) {
        n as u16
    } else {
        0
    }
}

/// What a `transport` resolved with: `{ status, body }`. A body that is an
/// object (some request APIs decode JSON answers themselves) is written back
/// as JSON text; the service's `data` member is text inside it, so what its
/// `signature` signs comes through unchanged.
fn read_answer(v: &JsValue) -> Result<(u16, String), PayError> {
    let bad = |why: &str| {
        PayError::field(Code::InvalidOptions, "transport", cat!("transport must resolve with { status: number, body: string }, but ", why))
    };
    if !env::is_object(v) {
        return Err(bad("it resolved with something that is not an object"));
    }
    let status = env::get(v, "status").as_f64().ok_or_else(|| bad("status is not a number"))?;
    if !crate::json::whole(status).is_some_and(|w| (100..=599).contains(&w)) {
        return Err(bad("status is not an HTTP status from 100 to 599"));
    }
    let body = env::get(v, "body");
    let body = if let Some(s) = body.text() {
        s
    } else if body.is_undefined() || body.is_null() {
        String::new()
    } else if env::is_object(&body) {
        from_js(&body, Code::InvalidResponse, "body")?.to_text()
    } else {
        return Err(bad("body is neither text nor an object"));
    };
    Ok((status as u16, body))
}
