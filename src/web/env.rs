//! Platform objects reached through `globalThis`: the document, location,
//! clock, user agent and crypto source. Nothing here names `window`.

use super::local::Local;
use crate::prelude::*;
use core::cell::OnceCell;
use js_sys::{Function, Object};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

// Read only by the full module, whose wasm tests run it without an entry.
#[cfg(feature = "web-extra")]
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(thread_local_v2, js_name = globalThis)]
    static GLOBAL: Object;
}

// The edges' plainest questions, one import and one crossing each: what a
// value is (`kind`, where wasm-bindgen's own checks `is_null`,
// `is_undefined`, `as_bool`, `is_string`, `is_function`, `is_symbol` and
// `is_object` take an import and a crossing each; the walk of an input
// asks it of every value, web/convert.rs), the number a value holds, and
// a member read or written by name. Written into the glue by
// www/build/short-names.mjs.
#[wasm_bindgen(
    inline_js = "export function kind(v){var t=typeof v;return v===void 0?0:v===null?1:t=='boolean'?2+v:t=='number'?4:t=='string'?5:t=='function'?6:t=='symbol'?7:t=='object'?8:9}\nexport function num(v){return+v}\nexport function getKey(o,k){try{return o[k]}catch(e){}}\nexport function setKey(o,k,v){try{o[k]=v}catch(e){}}\nexport function len(v){return v.length}\nconst E=new TextEncoder;\nexport function textInto(s,a){return E.encodeInto(s,a).written}"
)]
extern "C" {
    /// What `v` is: one of the constants of [`mod@kind`].
    pub fn kind(v: &JsValue) -> u8;
    /// `+v`: the number a value of kind `NUMBER` holds (no `Option` to
    /// pass back through memory, as `as_f64` does).
    pub fn num(v: &JsValue) -> f64;
    /// `o[k]`, or `undefined` when reading it throws: the key passed as
    /// text, not as a JavaScript string made and dropped for the call.
    #[wasm_bindgen(js_name = getKey)]
    fn get_key(o: &JsValue, k: &str) -> JsValue;
    /// `o[k] = v`, a throw ignored.
    #[wasm_bindgen(js_name = setKey)]
    pub fn set_key(o: &JsValue, k: &str, v: &JsValue);
    /// `v.length`.
    pub fn len(v: &JsValue) -> u32;
    /// The string `s` written into `buf` as UTF-8 (`TextEncoder`'s
    /// `encodeInto`, into the module's memory itself): the bytes written.
    #[wasm_bindgen(js_name = textInto)]
    fn text_into(s: &JsValue, buf: &mut [u8]) -> u32;
}

/// A JavaScript string copied into the module, `None` for any other value:
/// what `JsValue::as_string` does, written straight into a buffer of the
/// module's (three bytes a UTF-16 unit, the most UTF-8 needs). wasm-bindgen's
/// own way has the glue allocate in the module and pass the string back
/// through memory (its encoder, its allocator call, a pointer and a length
/// written for the module to read), and the module box the bytes (what
/// that costs: tests/bench/README.md, a1fe5b5).
pub trait Text {
    fn text(&self) -> Option<String>;
}

impl Text for JsValue {
    fn text(&self) -> Option<String> {
        (kind(self) == kind::STRING).then(|| copy_text(self, len(self)))
    }
}

/// The string `s`, `units` UTF-16 units long, copied into the module (what
/// [`Text::text`] does once it knows both; the walk of an input, which has
/// asked them already, calls this).
#[allow(clippy::reserve_after_initialization)]
pub fn copy_text(s: &JsValue, units: u32) -> String {
    // Reserved on an empty buffer, the one way the payment module sizes
    // its strings (`prelude::own`; `vec![0; n]` and `with_capacity`
    // allocate by another, which that module leaves out), and zeroed.
    let size = units as usize * 3;
    let mut buf: Vec<u8> = Vec::new();
    buf.reserve(size);
    // SAFETY: `size` bytes reserved, each written before the length counts it.
    unsafe {
        buf.as_mut_ptr().write_bytes(0, size);
        buf.set_len(size);
    }
    let n = text_into(s, &mut buf) as usize;
    buf.truncate(n);
    // SAFETY: `encodeInto` writes UTF-8 only (a lone surrogate as U+FFFD),
    // whole characters, into a buffer that holds them all: the trust
    // wasm-bindgen's own string passing places in the platform's
    // `TextEncoder`.
    unsafe { String::from_utf8_unchecked(buf) }
}

/// What [`fn@kind`] answers: `typeof`, with `null` and the two booleans apart.
pub mod kind {
    pub const UNDEFINED: u8 = 0;
    pub const NULL: u8 = 1;
    pub const FALSE: u8 = 2;
    pub const TRUE: u8 = 3;
    pub const NUMBER: u8 = 4;
    pub const STRING: u8 = 5;
    pub const FUNCTION: u8 = 6;
    pub const SYMBOL: u8 = 7;
    pub const OBJECT: u8 = 8;
    /// A BigInt (or a kind the language adds).
    pub const OTHER: u8 = 9;
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Date, js_name = now)]
    fn date_now() -> f64;
}

/// `globalThis` as the entry gave it when it linked the module.
static GLOBAL_THIS: Local<OnceCell<JsValue>> = Local::new(OnceCell::new());

/// Keeps the entry's `globalThis` (`__setErrorClass`) for [`global`]; the
/// first one given stays.
pub fn set_global(global: JsValue) {
    GLOBAL_THIS.with(|g| keep_object(g, global))
}

/// Keeps `v` in `cell` where it is an object; the first one kept stays.
/// Out of line: one body for `globalThis` and the entry's shared state.
#[inline(never)]
pub fn keep_object(cell: &OnceCell<JsValue>, v: JsValue) {
    if kind(&v) == kind::OBJECT {
        drop(cell.set(v));
    }
}

/// `globalThis`: the entry's, given when it linked the module. Not through
/// wasm-bindgen's lazily made static, whose initializer is the module's one
/// indirect call: without it the optimizer drops the function table and
/// what only the table kept (what that saves: tests/bench/README.md).
/// A module used without an entry reaches no platform object, except the
/// full module, whose wasm tests run it so.
pub fn global() -> Object {
    match GLOBAL_THIS.with(|g| g.get().cloned()) {
        Some(g) => g.unchecked_into(),
        #[cfg(feature = "web-extra")]
        None => GLOBAL.with(Object::clone),
        #[cfg(not(feature = "web-extra"))]
        None => JsValue::UNDEFINED.unchecked_into(),
    }
}

/// `obj[key]`, or `undefined` when reading it throws.
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    if !is_object(obj) {
        return JsValue::UNDEFINED;
    }
    get_key(obj, key)
}

/// `globalThis[key]`.
pub fn global_get(key: &str) -> JsValue {
    get(&global(), key)
}

/// A value that can hold properties (an object or a function).
pub fn is_object(v: &JsValue) -> bool {
    matches!(kind(v), kind::OBJECT | kind::FUNCTION)
}

/// `obj[key]` when it is a function.
pub fn method(obj: &JsValue, key: &str) -> Option<Function> {
    let f = get(obj, key);
    if kind(&f) == kind::FUNCTION {
        Some(f.unchecked_into())
    } else {
        None
    }
}

/// Whether `obj[key]` is a function: one body that drops what it read,
/// for the callers that only ask.
#[inline(never)]
pub fn has_method(obj: &JsValue, key: &str) -> bool {
    method(obj, key).is_some()
}

/// Whether the global `name` is an object: one body that drops what it
/// read, for the callers that only ask (the runtime probe, the page's
/// document and bridges).
#[inline(never)]
pub fn has_global(name: &str) -> bool {
    is_object(&global_get(name))
}

/// `performance.now()` where there is one, else `Date.now()`.
pub fn now() -> f64 {
    let perf = global_get("performance");
    if let Some(f) = method(&perf, "now") {
        if let Ok(t) = f.call0(&perf) {
            if kind(&t) == kind::NUMBER {
                return num(&t);
            }
        }
    }
    date_now()
}

/// Wall-clock milliseconds (`Date.now()`).
pub fn wall_ms() -> f64 {
    date_now()
}

/// The user agent, or "" outside a browser.
pub fn user_agent() -> String {
    get(&global_get("navigator"), "userAgent").text().unwrap_or_default()
}

/// Whether the page is visible (true where there is no document).
pub fn page_visible() -> bool {
    match get(&global_get("document"), "visibilityState").text() {
        Some(s) => s == "visible",
        None => true,
    }
}

/// Whether this runtime has a `location` to navigate.
pub fn can_navigate() -> bool {
    has_method(&global_get("location"), "assign")
}

/// 16 bytes from `crypto.getRandomValues`.
pub fn random16() -> Option<[u8; 16]> {
    let crypto = global_get("crypto");
    let f = method(&crypto, "getRandomValues")?;
    let arr = js_sys::Uint8Array::new_with_length(16);
    f.call1(&crypto, &arr).ok()?;
    // Byte by byte: `copy_to` links a length assertion and its formatting.
    let mut out = [0u8; 16];
    for (i, b) in out.iter_mut().enumerate() {
        *b = arr.get_index(i as u32);
    }
    Some(out)
}
