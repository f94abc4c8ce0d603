//! Sending one request of the authentication client and reading its answer:
//! through the caller's `transport` function, or through `fetch`, looked up
//! on `globalThis` at each call (never bound by name, so the glue does not
//! mention it and runtimes without it load the module all the same).
//!
//! Whatever goes wrong on the way (the function throws or rejects, the
//! network fails, no answer within `timeoutMs`) is "no answer": the core
//! then decides whether to ask for the result instead of sending again.

use super::convert::{from_js, set};
use super::dom::Timeout;
use super::env;
use super::env::Text;
use super::local::RefCell;
use super::task::settle;
use crate::error::{cat, u64_str, Code, PayError};
use crate::prelude::*;
use crate::verify::{Event, Request};
use alloc::rc::Rc;
use js_sys::{Array, Function, Object, Promise, Reflect};
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

/// Why a request got no answer: a message and the thrown value, if any.
pub struct Failure {
    pub message: String,
    pub cause: JsValue,
}

impl Transport {
    /// `transport` error when there is neither a `transport` nor a `fetch`.
    pub fn available(&self) -> Result<(), PayError> {
        if self.custom.is_some() || fetch_fn().is_some() {
            Ok(())
        } else {
            Err(no_fetch())
        }
    }

    /// Sends `req`: the core's answer event, with the failure behind an
    /// [`Event::NoAnswer`]. Errs when there is nothing to send with, or when
    /// a `transport` resolves with something that is not an answer.
    pub async fn send(&self, req: &Request) -> Result<(Event, Option<Failure>), PayError> {
        let mut url = cat!(&self.base_url, &req.path);
        if let Some(q) = &req.url_query {
            url.push('?');
            url.push_str(q);
        }
        let headers = Object::new();
        for (k, v) in &req.headers {
            set(&headers, k, &JsValue::from_str(v));
        }
        match &self.custom {
            Some(f) => self.send_custom(f, req, &url, &headers).await,
            None => self.send_fetch(req, &url, &headers).await,
        }
    }

    async fn send_custom(&self, f: &Function, req: &Request, url: &str, headers: &Object) -> Result<(Event, Option<Failure>), PayError> {
        let r = Object::new();
        set(&r, "method", &JsValue::from_str(req.method));
        set(&r, "url", &JsValue::from_str(url));
        set(&r, "headers", headers);
        if let Some(b) = &req.body {
            set(&r, "body", &JsValue::from_str(b));
        }
        set(&r, "timeoutMs", &JsValue::from_f64(self.timeout_ms as f64));
        let expiry = Expiry::new(self.timeout_ms, None);
        let returned = match f.call1(&JsValue::UNDEFINED, &r) {
            Ok(v) => v,
            Err(t) => return Ok(no_answer("the transport function threw", t)),
        };
        let answer = match expiry.race(&returned).await {
            None => return Ok(expiry.timed_out(self.timeout_ms)),
            Some(Err(t)) => return Ok(no_answer("the transport function's promise rejected", t)),
            Some(Ok(v)) => v,
        };
        read_answer(&answer).map(|e| (e, None))
    }

    async fn send_fetch(&self, req: &Request, url: &str, headers: &Object) -> Result<(Event, Option<Failure>), PayError> {
        let Some(fetch) = fetch_fn() else { return Err(no_fetch()) };
        let init = Object::new();
        set(&init, "method", &JsValue::from_str(req.method));
        set(&init, "headers", headers);
        if let Some(b) = &req.body {
            set(&init, "body", &JsValue::from_str(b));
        }
        // Abort the request at the time-out where the runtime can.
        let controller = abort_controller();
        if let Some(c) = &controller {
            set(&init, "signal", &env::get(c, "signal"));
        }
        let expiry = Expiry::new(self.timeout_ms, controller);
        let returned = match fetch.call2(&env::global(), &JsValue::from_str(url), &init) {
            Ok(v) => v,
            Err(t) => return Ok(no_answer("fetch threw", t)),
        };
        let response = match expiry.race(&returned).await {
            None => return Ok(expiry.timed_out(self.timeout_ms)),
            Some(Err(t)) => return Ok(no_answer("the request failed", t)),
            Some(Ok(r)) => r,
        };
        let status = env::get(&response, "status").as_f64().unwrap_or(0.0);
        let Some(text) = env::method(&response, "text") else {
            return Err(PayError::new(Code::Transport, "fetch resolved with something that is not a Response (no text())"));
        };
        let body = match text.call0(&response) {
            Ok(p) => expiry.race(&p).await,
            Err(t) => Some(Err(t)),
        };
        match body {
            None => Ok(expiry.timed_out(self.timeout_ms)),
            Some(Err(t)) => Ok(no_answer("the answer's body could not be read", t)),
            Some(Ok(b)) => Ok((Event::Response { status: status_of(status), body: b.text().unwrap_or_default() }, None)),
        }
    }
}

fn fetch_fn() -> Option<Function> {
    env::global_get("fetch").dyn_into::<Function>().ok()
}

fn no_fetch() -> PayError {
    PayError::field(
        Code::Transport,
        "transport",
        "this runtime has no fetch: pass transport: ({ method, url, headers, body }) => Promise<{ status, body }> \
         to new AuthClient (a mini-program's request API wrapped in a function, for instance)",
    )
}

fn abort_controller() -> Option<JsValue> {
    let class = env::global_get("AbortController").dyn_into::<Function>().ok()?;
    Reflect::construct(&class, &Array::new()).ok()
}

fn no_answer(what: &str, thrown: JsValue) -> (Event, Option<Failure>) {
    let detail = env::get(&thrown, "message").text().or_else(|| thrown.text()).unwrap_or_default();
    let mut message = String::from(what);
    if !detail.is_empty() {
        message.push_str(": ");
        message.push_str(crate::safe_url::clip(&detail));
    }
    // fetch's own reason (a refused connection, a closed socket) is its cause.
    if let Some(why) = env::get(&env::get(&thrown, "cause"), "message").text().filter(|s| !s.is_empty()) {
        message.push_str(" (");
        message.push_str(crate::safe_url::clip(&why));
        message.push(')');
    }
    (Event::NoAnswer, Some(Failure { message, cause: thrown }))
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
fn read_answer(v: &JsValue) -> Result<Event, PayError> {
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
    Ok(Event::Response { status: status as u16, body })
}

/// One deadline for every step of a request: a promise that resolves with
/// a value of its own when the time is up (and aborts the request, when
/// given a controller). The timer is cleared when it is dropped.
struct Expiry {
    promise: Promise,
    marker: Object,
    _timer: Rc<RefCell<Option<Timeout>>>,
}

impl Expiry {
    fn new(ms: u32, controller: Option<JsValue>) -> Expiry {
        let marker = Object::new();
        let timer: Rc<RefCell<Option<Timeout>>> = Rc::new(RefCell::new(None));
        let (t, m) = (timer.clone(), marker.clone());
        let mut controller = controller;
        let promise = Promise::new(&mut |resolve, _| {
            let (m, c) = (m.clone(), controller.take());
            *t.borrow_mut() = Some(Timeout::new(ms, move || {
                let _ = resolve.call1(&JsValue::UNDEFINED, &m);
                if let Some(c) = c {
                    if let Some(abort) = env::method(&c, "abort") {
                        let _ = abort.call0(&c);
                    }
                }
            }));
        });
        Expiry { promise, marker, _timer: timer }
    }

    /// Waits for `v` (a value or a promise) unless the time is up first
    /// (`None`).
    async fn race(&self, v: &JsValue) -> Option<Result<JsValue, JsValue>> {
        let raced = Promise::race(&Array::of2(&Promise::resolve(v), &self.promise));
        match settle(&raced).await {
            Ok(x) if Object::is(&x, &self.marker) => None,
            r => Some(r),
        }
    }

    fn timed_out(&self, ms: u32) -> (Event, Option<Failure>) {
        let message = cat!("no answer within ", &u64_str(ms as u64), " ms (timeoutMs)");
        (Event::NoAnswer, Some(Failure { message, cause: JsValue::UNDEFINED }))
    }
}
