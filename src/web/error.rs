//! `PayError` across the boundary: one conversion for every export.
//!
//! The class itself is declared by the package's JavaScript entry (so that
//! `instanceof PayError` works for users) and registered here at load time
//! with `__setErrorClass`; errors are built with `new PayError(message,
//! code, field, details, cause)`. Before registration (raw use of the full
//! module's wasm, as its own wasm tests do) an `Error` named `PayError` with
//! the same fields is thrown; the other modules are always linked by an
//! entry first, and there give the message alone.

use super::env::Text;
use super::local::Local;
use crate::error::PayError;
use core::cell::OnceCell;
use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;

static CLASS: Local<OnceCell<Function>> = Local::new(OnceCell::new());
/// The entry's state shared by every module it links (see [`shared`]).
static SHARED: Local<OnceCell<JsValue>> = Local::new(OnceCell::new());

/// Registers the JavaScript `PayError` class, the entry's shared state (an
/// object that every module linked by the same entry is given) and
/// `globalThis` ([`super::env::global`]). An entry links each module
/// instance once (`link` in www/lib/shared.js); should it be called again,
/// the first registration stays.
#[wasm_bindgen(js_name = __setErrorClass)]
pub fn set_error_class(class: Function, shared: JsValue, global: JsValue) {
    CLASS.with(|c| drop(c.set(class)));
    super::env::set_global(global);
    if super::env::kind(&shared) == super::env::kind::OBJECT {
        SHARED.with(|s| drop(s.set(shared)));
    }
}

/// The state object the entry shares among its modules (a browser page's
/// payment and full modules are two instances: the one-payment-at-a-time
/// flag lives here so that each sees the other's payment). None for raw
/// use of the wasm.
pub fn shared() -> Option<JsValue> {
    SHARED.with(|s| s.get().cloned())
}

/// Whether this build makes errors with `details` or a `respCode`: only the
/// authorization and verification exports do (feature `web-extra`), so the
/// other modules leave out the code that carries them.
const RICH: bool = cfg!(feature = "web-extra");

/// The JavaScript error for `e`.
#[inline(never)]
pub fn to_js(e: &PayError) -> JsValue {
    build(e, &e.message, &JsValue::UNDEFINED)
}

/// The JavaScript error for `e`, keeping `cause` (an error thrown by a
/// bridge or a hook) as its `cause`.
#[inline(always)]
pub fn to_js_with_cause(e: &PayError, cause: &JsValue) -> JsValue {
    build(e, &e.message, cause)
}

// `new PayError(message, code, field, details, cause)`, with the class the
// entry registered: one call, the message and code passed as text.
#[wasm_bindgen(inline_js = "export function made(C,m,c,f,d,x){return new C(m,c,f,d,x)}")]
extern "C" {
    fn made(class: &Function, message: &str, code: &str, field: &JsValue, details: &JsValue, cause: &JsValue) -> JsValue;
}

/// The JavaScript error for `e`, its message `message`.
#[inline(never)]
fn build(e: &PayError, message: &str, cause: &JsValue) -> JsValue {
    let field = e.field.as_deref().map(JsValue::from_str).unwrap_or(JsValue::UNDEFINED);
    let details = if !RICH || e.details.is_empty() {
        JsValue::UNDEFINED
    } else {
        let a = Array::new();
        for p in &e.details {
            let o = js_sys::Object::new();
            super::convert::set(&o, "field", &JsValue::from_str(&p.field));
            super::convert::set(&o, "code", &JsValue::from_str(p.code));
            super::convert::set(&o, "message", &JsValue::from_str(&p.message));
            a.push(&o);
        }
        a.into()
    };
    let code = e.code.as_str();
    let built = CLASS.with(|c| c.get().map(|class| made(class, message, code, &field, &details, cause)));
    if let Some(err) = built {
        if let Some(rc) = e.resp_code.as_ref().filter(|_| RICH) {
            super::convert::set(&err, "respCode", &JsValue::from_str(rc));
        }
        return err;
    }
    // Only the full module is ever used before an entry registers the class
    // (its own wasm tests): the other modules are linked by an entry first,
    // and give the message alone should that ever fail.
    if !RICH {
        return JsValue::from_str(message);
    }
    let code = JsValue::from_str(code);
    let err: JsValue = js_sys::Error::new(message).into();
    let rc = e.resp_code.as_deref().map(JsValue::from_str).unwrap_or(JsValue::UNDEFINED);
    for &(k, v) in [
        ("name", &JsValue::from_str("PayError")),
        ("code", &code),
        ("field", &field),
        ("details", &details),
        ("cause", cause),
        ("respCode", &rc),
    ]
    .iter()
    {
        if super::env::kind(v) != super::env::kind::UNDEFINED {
            super::convert::set(&err, k, v);
        }
    }
    err
}

/// The JavaScript error for `e` (a failure caused by a thrown value:
/// neither `details` nor a `respCode`), its message followed by the thrown
/// value's own message, keeping the thrown value as the cause.
pub fn from_thrown(e: &PayError, thrown: &JsValue) -> JsValue {
    let detail = super::env::get(thrown, "message").text().or_else(|| thrown.text()).unwrap_or_default();
    let mut msg = crate::prelude::own(&e.message);
    if !detail.is_empty() {
        msg.push_str(": ");
        msg.push_str(crate::safe_url::clip(&detail));
    }
    build(e, &msg, thrown)
}
