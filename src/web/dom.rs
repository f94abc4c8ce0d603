//! Timers and callbacks that remove themselves when dropped (the full
//! module's asynchronous flows).
//!
//! The same idea as gloo's `Timeout` (which needs the standard library): a
//! value owns the registration and its closure, and dropping it removes
//! both, so a wait that ends for any reason leaves nothing behind.

use super::local::{Local, RefCell};
use crate::prelude::*;
use alloc::rc::Rc;
use core::cell::Cell;
use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(f: &Function, ms: i32) -> JsValue;

    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);

    /// The dispatching closure of [`Callback`]s.
    #[derive(Clone)]
    type Dispatch;

    /// `dispatch.bind(undefined, id)`.
    #[wasm_bindgen(method, js_name = bind)]
    fn bind(this: &Dispatch, this_arg: &JsValue, id: u32) -> Function;
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

/// A JavaScript function that runs `f` while this value lives and does
/// nothing once it is dropped: for what a wallet or a hook's promise may
/// call late (after a time-out, after the payment ended) or never. Each is
/// a bound function of one closure that lives as long as the module, with
/// `f` in a table under its id; a late call finds no entry. Nothing is
/// kept after the drop, and a late call never meets a freed closure.
pub struct Callback {
    id: u32,
    function: Function,
}

type Entry = (u32, Rc<dyn Fn(JsValue)>);

static CALLBACKS: Local<RefCell<Vec<Entry>>> = Local::new(RefCell::new(Vec::new()));
static NEXT_ID: Local<Cell<u32>> = Local::new(Cell::new(0));
static DISPATCH: Local<RefCell<Option<Dispatch>>> = Local::new(RefCell::new(None));

/// The one closure every [`Callback`] is bound from: `(id, value)`.
fn dispatch() -> Dispatch {
    DISPATCH.with(|d| {
        d.borrow_mut()
            .get_or_insert_with(|| {
                // `Fn`, not `FnMut`: a callback may be called again from
                // inside its own call (a wallet calling back from an
                // `onEvent` handler).
                let c = Closure::wrap(Box::new(|id: JsValue, v: JsValue| {
                    let id = id.as_f64().unwrap_or(-1.0);
                    let f = CALLBACKS.with(|t| t.borrow().iter().find(|(i, _)| *i as f64 == id).map(|(_, f)| f.clone()));
                    if let Some(f) = f {
                        f(v)
                    }
                }) as Box<dyn Fn(JsValue, JsValue)>);
                c.into_js_value().unchecked_into()
            })
            .clone()
    })
}

impl Callback {
    pub fn new(f: impl Fn(JsValue) + 'static) -> Callback {
        let id = NEXT_ID.with(|n| n.replace(n.get().wrapping_add(1)));
        CALLBACKS.with(|t| t.borrow_mut().push((id, Rc::new(f))));
        let function = dispatch().bind(&JsValue::UNDEFINED, id);
        Callback { id, function }
    }

    /// The function to hand to JavaScript.
    pub fn function(&self) -> &Function {
        &self.function
    }
}

impl Drop for Callback {
    fn drop(&mut self) {
        CALLBACKS.with(|t| t.borrow_mut().retain(|(i, _)| *i != self.id));
    }
}

/// How many [`Callback`]s are live (for leak tests: none between payments).
pub fn live_callbacks() -> usize {
    CALLBACKS.with(|t| t.borrow().len())
}
