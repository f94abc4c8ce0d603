//! `options.onEvent`: each step of a payment reported as it happens
//! (`{ type, at, detail? }`), with a throwing handler ignored.

use super::convert::set;
use super::env;
use js_sys::{Function, Object};
use wasm_bindgen::prelude::*;

/// `options.onEvent`, called safely.
#[derive(Clone)]
pub struct Events(Option<Function>);

impl Events {
    /// The `onEvent` member of the options (none: events go nowhere).
    pub fn from_options(options: &JsValue) -> Events {
        Events(env::method(options, "onEvent"))
    }

    pub fn emit(&self, kind: &str, detail: Option<&JsValue>) {
        let Some(f) = &self.0 else { return };
        let e = Object::new();
        set(&e, "type", &JsValue::from_str(kind));
        set(&e, "at", &JsValue::from_f64(env::now()));
        if let Some(d) = detail {
            set(&e, "detail", d);
        }
        // A throwing onEvent never breaks a payment.
        let _ = f.call1(&JsValue::UNDEFINED, &e);
    }

    /// Whether anyone listens: a detail that costs something to build is
    /// built only then.
    pub fn on(&self) -> bool {
        self.0.is_some()
    }

    /// [`Events::emit`] with a detail of string members, built only when
    /// someone listens.
    pub fn emit_pairs(&self, kind: &str, pairs: &[(&str, &str)]) {
        if self.on() {
            self.emit(kind, Some(&obj(pairs)));
        }
    }
}

pub(super) fn obj(pairs: &[(&str, &str)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        set(&o, k, &JsValue::from_str(v));
    }
    o.into()
}
