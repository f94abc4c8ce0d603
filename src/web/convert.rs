//! JavaScript values to and from the core's [`Json`].
//!
//! Reading walks the value the way `JSON.stringify` would (own enumerable
//! string keys; `undefined` and functions left out) with limits on depth,
//! size and string length, so a hostile value (a cycle, a getter that
//! throws, a huge string, a `Proxy` whose traps throw) becomes a
//! `PayError`, not a hang or a trap. Every platform call the walk makes
//! catches what it throws: an exception that crossed the wasm frames would
//! skip their clean-up (the in-flight flag of `pay()` stayed set for good).

use super::env::{copy_text, get, kind, len, num, set_key, Text};
use crate::error::{why, words, Code, PayError};
use crate::json::{Json, MAX_DEPTH};
use crate::prelude::*;
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// `Object.keys(v)`, which a `Proxy`'s `ownKeys` trap can make throw.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(v: &JsValue) -> Result<Array, JsValue>;

    /// `Array.isArray(v)`, which throws for a revoked `Proxy`.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array(v: &JsValue) -> Result<bool, JsValue>;
}

// The walk's two questions about a string or a list of keys, one plain
// import each (no thrown value to catch and no result to drop):
// `v.length` (`env::len`), and whether `encodeURIComponent(s)` takes the
// string, which it refuses exactly when the string holds a lone surrogate
// (one call where a scan would cross into JavaScript once per UTF-16 unit).
#[wasm_bindgen(inline_js = "export function wellFormed(s){try{encodeURIComponent(s);return!0}catch(e){return!1}}")]
extern "C" {
    #[wasm_bindgen(js_name = wellFormed)]
    fn well_formed(s: &JsValue) -> bool;
}

/// The most values one input may hold.
const MAX_NODES: usize = 20_000;
/// The longest string one input may hold (UTF-16 units).
const MAX_STRING: u32 = 1 << 20;
/// The most text one input may hold in all, its strings and member names
/// together (UTF-8 bytes once copied): many strings each under
/// [`MAX_STRING`] would otherwise fill the module's memory (the wasm2js
/// build's heap is a fixed 16 MiB), and the trap that ends would leave
/// `pay()`'s in-flight flag set.
const MAX_TEXT: usize = 2 << 20;

struct Walk {
    nodes: usize,
    text: usize,
    /// Whether the top-level object's `api` is left unread (the options:
    /// the runtime's own object, not data).
    options: bool,
}

/// Reads `v` as a [`Json`]; `code` and `what` name the input in errors.
pub fn from_js(v: &JsValue, code: Code, what: &str) -> Result<Json, PayError> {
    walk(v, code, what, false)
}

fn walk(v: &JsValue, code: Code, what: &str, options: bool) -> Result<Json, PayError> {
    let mut w = Walk { nodes: 0, text: 0, options };
    w.value(v, 0).map_err(|why| crate::error::refuse(code, what, words!(what, " ", why)))
}

/// The options of a payment: like [`from_js_opt`], leaving `api` (the
/// mini-program's global API object, which the edge reads) unread.
pub fn options_from_js(v: &JsValue) -> Result<Option<Json>, PayError> {
    walk_opt(v, Code::InvalidOptions, "options", true)
}

/// Like [`from_js`], with `undefined` read as `None`.
pub fn from_js_opt(v: &JsValue, code: Code, what: &str) -> Result<Option<Json>, PayError> {
    walk_opt(v, code, what, false)
}

fn walk_opt(v: &JsValue, code: Code, what: &str, options: bool) -> Result<Option<Json>, PayError> {
    if kind(v) == kind::UNDEFINED {
        Ok(None)
    } else {
        walk(v, code, what, options).map(Some)
    }
}

impl Walk {
    /// `s` copied, within the limits on text: checked before the copy by
    /// its length (a UTF-8 byte or more per UTF-16 unit; first, so that no
    /// platform call sees an overlong string), counted after it in bytes.
    fn text(&mut self, s: &js_sys::JsString) -> Result<String, &'static str> {
        const TOO_MUCH: &str = why!("holds more than 2 MiB of text in all");
        let n = len(s);
        if n > MAX_STRING {
            return Err(why!("holds a string longer than 1 MiB"));
        }
        if self.text + n as usize > MAX_TEXT {
            return Err(TOO_MUCH);
        }
        // A lone surrogate has no UTF-8 form: refused, as the host's JSON
        // parser refuses it, rather than replaced (in member names too).
        if !well_formed(s) {
            return Err(why!("holds a string with a lone surrogate (not valid Unicode)"));
        }
        // Copied at the length asked above (the value is known to be a
        // string here): no second question to the platform.
        let copied = copy_text(s, n);
        self.text += copied.len();
        if self.text > MAX_TEXT {
            return Err(TOO_MUCH);
        }
        Ok(copied)
    }

    fn value(&mut self, v: &JsValue, depth: usize) -> Result<Json, &'static str> {
        self.value_of(v, kind(v), depth)
    }

    /// [`Walk::value`] of `v`, whose kind `k` is known.
    fn value_of(&mut self, v: &JsValue, k: u8, depth: usize) -> Result<Json, &'static str> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(why!("holds more than 20000 values"));
        }
        if depth > MAX_DEPTH {
            return Err(why!("is nested deeper than 64 levels (or refers to itself)"));
        }
        match k {
            // As JSON writes them: a function or a symbol is null.
            kind::UNDEFINED | kind::NULL | kind::FUNCTION | kind::SYMBOL => Ok(Json::Null),
            kind::FALSE | kind::TRUE => Ok(Json::Bool(k == kind::TRUE)),
            kind::NUMBER => Ok(match num(v) {
                n if n.is_finite() => Json::Num(n),
                _ => Json::Null,
            }),
            kind::STRING => Ok(Json::Str(self.text(v.unchecked_ref())?)),
            kind::OBJECT => {
                // An array's elements by index, an object's own keys, each
                // member read by one call (a Proxy's `get` trap may throw).
                let list = is_array(v).map_err(|_| why!("is an object that cannot be read"))?;
                let (keys, n) = if list {
                    // `length` read as any member is.
                    let len = get(v, "length");
                    if kind(&len) != kind::NUMBER {
                        return Err(why!("has a length that cannot be read"));
                    }
                    // Saturating: a length past `u32::MAX` is past the limit too.
                    (None, num(&len) as u32)
                } else {
                    let keys = object_keys(v).map_err(|_| why!("is an object whose members cannot be listed"))?;
                    let n = len(&keys);
                    (Some(keys), n)
                };
                if n > MAX_NODES as u32 {
                    return Err(why!("holds more than 20000 values"));
                }
                // No room reserved ahead: what is kept is what was counted.
                let mut items = Vec::new();
                let mut members = Vec::new();
                for i in 0..n {
                    let k = match &keys {
                        Some(keys) => keys.get(i),
                        None => JsValue::from_f64(i as f64),
                    };
                    if depth == 0 && self.options && !list && k.text().as_deref() == Some("api") {
                        continue;
                    }
                    let item = Reflect::get(v, &k).map_err(|_| {
                        if list {
                            why!("has an element that cannot be read")
                        } else {
                            why!("has a member that cannot be read")
                        }
                    })?;
                    let ik = kind(&item);
                    // Left out, as JSON leaves them out.
                    if !list && matches!(ik, kind::UNDEFINED | kind::FUNCTION | kind::SYMBOL) {
                        continue;
                    }
                    // An element or a member read by the one call below;
                    // a member's name copied first.
                    let name = if list { None } else { Some(self.text(k.unchecked_ref())?) };
                    let x = self.value_of(&item, ik, depth + 1)?;
                    match name {
                        Some(name) => members.push((name, x)),
                        None => items.push(x),
                    }
                }
                Ok(if list { Json::Arr(crate::json::list(items)) } else { Json::Obj(crate::json::list(members)) })
            }
            _ => Err(why!("holds a value JSON cannot carry (a BigInt?)")),
        }
    }
}

/// JSON text read with the platform's `JSON.parse`, then walked like any
/// JavaScript input (same depth and size limits).
pub fn parse_text(text: &str, code: Code, what: &str) -> Result<Json, PayError> {
    match js_sys::JSON::parse(text) {
        Ok(v) => from_js(&v, code, what),
        Err(e) => {
            // Read only where the message is worded (crate::error::WORDED):
            // the payment module makes no platform call for it.
            let detail = || super::env::get(&e, "message").text().unwrap_or_default();
            Err(crate::error::refuse(code, what, words!(what, " is not valid JSON text (", crate::safe_url::clip(&detail()), ")")))
        }
    }
}

/// Builds the JavaScript value of `j` (plain objects and arrays).
///
/// In the modules that hand out data (`web-tools`: the mini-program and full
/// modules: records, notifications, list items, launch queries), every
/// member is defined as an own data property (`define`): a member named
/// `__proto__` stays a member instead of setting the object's prototype,
/// and no setter on `Object.prototype` runs. The payment module's objects
/// have the module's own fixed keys only, and assign them.
pub fn to_js(j: &Json) -> JsValue {
    match j {
        Json::Null => JsValue::NULL,
        Json::Bool(b) => JsValue::from_bool(*b),
        Json::Num(n) => JsValue::from_f64(*n),
        Json::Str(s) => JsValue::from_str(s),
        Json::Arr(a) => {
            let out = Array::new();
            for x in a.iter() {
                out.push(&to_js(x));
            }
            out.into()
        }
        Json::Obj(m) => {
            let out = Object::new().into();
            for (k, x) in m.iter() {
                member(&out, k, &to_js(x));
            }
            out
        }
    }
}

/// A member of an object the module hands out, written as [`to_js`]
/// writes them: defined where the build hands out data (`web-tools`),
/// assigned in the payment module.
#[inline(always)]
pub fn member(obj: &JsValue, key: &str, v: &JsValue) {
    #[cfg(feature = "web-tools")]
    define(obj, key, v);
    #[cfg(not(feature = "web-tools"))]
    set(obj, key, v);
}

/// `obj[key] = v` on an object the module itself created.
pub fn set(obj: &JsValue, key: &str, v: &JsValue) {
    set_key(obj, key, v);
}

/// `key` defined on `obj` (an object the module itself created) as an own,
/// enumerable, writable, configurable data property holding `v`, whatever
/// its name: `Object.defineProperty`, never an assignment.
#[cfg(feature = "web-tools")]
pub fn define(obj: &JsValue, key: &str, v: &JsValue) {
    let d = Object::new();
    set(&d, "value", v);
    for flag in ["enumerable", "writable", "configurable"] {
        set(&d, flag, &JsValue::TRUE);
    }
    let _ = Reflect::define_property(obj.unchecked_ref::<Object>(), &JsValue::from_str(key), &d);
}
