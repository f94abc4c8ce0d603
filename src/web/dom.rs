//! Event listeners and timers that remove themselves when dropped.
//!
//! The same idea as gloo's `EventListener` and `Timeout` (which need the
//! standard library): a value owns the registration and its closure, and
//! dropping it removes both, so a wait that ends for any reason leaves
//! nothing behind.

use crate::prelude::*;
use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// Anything with `addEventListener` (the page's `document`).
    #[derive(Clone)]
    pub type EventTarget;

    #[wasm_bindgen(method, js_name = addEventListener)]
    fn add_event_listener(this: &EventTarget, kind: &str, f: &Function);

    #[wasm_bindgen(method, js_name = removeEventListener)]
    fn remove_event_listener(this: &EventTarget, kind: &str, f: &Function);

    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(f: &Function, ms: i32) -> JsValue;

    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
}

/// A listener on `target` for `kind`, removed on drop.
#[must_use = "the listener is removed when this value is dropped"]
pub struct EventListener {
    target: EventTarget,
    kind: String,
    closure: Closure<dyn FnMut(JsValue)>,
}

impl EventListener {
    pub fn new(target: &EventTarget, kind: &str, f: impl FnMut(JsValue) + 'static) -> EventListener {
        let closure = Closure::wrap(Box::new(f) as Box<dyn FnMut(JsValue)>);
        target.add_event_listener(kind, closure.as_ref().unchecked_ref());
        EventListener { target: target.clone(), kind: kind.to_string(), closure }
    }
}

impl Drop for EventListener {
    fn drop(&mut self) {
        self.target.remove_event_listener(&self.kind, self.closure.as_ref().unchecked_ref());
    }
}

/// A `setTimeout`, cleared on drop.
#[must_use = "the timer is cleared when this value is dropped"]
pub struct Timeout {
    id: JsValue,
    _closure: Closure<dyn FnMut(JsValue)>,
}

impl Timeout {
    pub fn new(ms: u32, f: impl FnOnce() + 'static) -> Timeout {
        let mut f = Some(f);
        // The same closure type as the listeners' (the timer passes no
        // argument): one closure entry point serves both.
        let closure = Closure::wrap(Box::new(move |_| {
            if let Some(f) = f.take() {
                f()
            }
        }) as Box<dyn FnMut(JsValue)>);
        let id = set_timeout(closure.as_ref().unchecked_ref(), ms.min(i32::MAX as u32) as i32);
        Timeout { id, _closure: closure }
    }
}

impl Drop for Timeout {
    fn drop(&mut self) {
        clear_timeout(&self.id);
    }
}
