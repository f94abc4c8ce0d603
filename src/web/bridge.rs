//! Waiting for a wallet's JS bridge.
//!
//! The rules (API.md, "Bridge-ready waiting"):
//! 1. listen for the ready event first, then look for the global, so a
//!    bridge that arrives between the two is not missed;
//! 2. when the global is there, act at once;
//! 3. concurrent waiters for the same bridge share one listener;
//! 4. every listener and timer is removed when the wait ends, whichever way;
//! 5. at the time-out, look once more before failing with `bridge_timeout`.
//!
//! A waiter is a callback, not a channel: the ready-event handler runs it
//! synchronously, so the wallet is called in the same turn as the event,
//! with no timer or task in between.

use super::dom::{EventListener, Timeout};
use super::env;
use super::local::Local;
use super::local::RefCell;
use super::slot::{fill, is_full, slot, SharedSlot, SlotFuture};
use crate::error::{cat, Code, PayError};
use crate::prelude::*;
use alloc::rc::Rc;
use core::cell::Cell;
use wasm_bindgen::prelude::*;

type Waiter = Box<dyn FnOnce(JsValue)>;
type OnReady<T> = Rc<RefCell<Option<Box<dyn FnOnce(JsValue) -> T>>>>;

struct Entry {
    name: String,
    event: String,
    listener: Option<EventListener>,
    waiters: Vec<(u32, Waiter)>,
}

static ENTRIES: Local<RefCell<Vec<Entry>>> = Local::new(RefCell::new(Vec::new()));
static NEXT_ID: Local<Cell<u32>> = Local::new(Cell::new(0));

/// How many ready-event listeners and waiters exist now (for leak tests).
pub fn counts() -> (usize, usize) {
    ENTRIES.with(|e| {
        let e = e.borrow();
        (e.iter().filter(|x| x.listener.is_some()).count(), e.iter().map(|x| x.waiters.len()).sum())
    })
}

fn add_waiter(target: &super::dom::EventTarget, name: &str, event: &str, w: Waiter) -> u32 {
    let id = NEXT_ID.with(|n| {
        let id = n.get().wrapping_add(1);
        n.set(id);
        id
    });
    ENTRIES.with(|entries| {
        let mut entries = entries.borrow_mut();
        if let Some(e) = entries.iter_mut().find(|e| e.name == name && e.event == event) {
            e.waiters.push((id, w));
            return;
        }
        let (n, ev) = (name.to_string(), event.to_string());
        let listener = EventListener::new(target, event, move |_| ready(&n, &ev));
        entries.push(Entry { name: name.to_string(), event: event.to_string(), listener: Some(listener), waiters: vec![(id, w)] });
    });
    id
}

/// Removes a waiter; the shared listener goes with the last one.
fn remove_waiter(name: &str, event: &str, id: u32) {
    let gone = ENTRIES.with(|entries| {
        let mut entries = entries.borrow_mut();
        let e = entries.iter_mut().find(|e| e.name == name && e.event == event)?;
        e.waiters.retain(|(wid, _)| *wid != id);
        if e.waiters.is_empty() {
            take_entry(&mut entries, name, event)
        } else {
            None
        }
    });
    drop(gone);
}

/// Takes the entry of `name` and `event` out of the list (without
/// `Vec::remove`, whose index check would format a panic message).
fn take_entry(entries: &mut Vec<Entry>, name: &str, event: &str) -> Option<Entry> {
    let mut found = None;
    for e in core::mem::take(entries) {
        if found.is_none() && e.name == name && e.event == event {
            found = Some(e);
        } else {
            entries.push(e);
        }
    }
    found
}

/// The ready event fired: every waiter is called with the bridge.
fn ready(name: &str, event: &str) {
    let bridge = env::global_get(name);
    if !env::is_object(&bridge) {
        // An event without the bridge behind it: keep waiting.
        return;
    }
    let entry = ENTRIES.with(|entries| take_entry(&mut entries.borrow_mut(), name, event));
    let Some(mut entry) = entry else { return };
    // This handler is the listener's own closure: drop it once the handler
    // has returned, not while it runs.
    if let Some(l) = entry.listener.take() {
        super::task::spawn(async move { drop(l) });
    }
    for (_, w) in entry.waiters {
        w(bridge.clone());
    }
}

fn timeout_error(name: &str, timeout_ms: u32) -> PayError {
    let mut m = cat(&["the wallet bridge ", name, " did not become ready within "]);
    crate::error::push_u64(&mut m, timeout_ms as u64);
    m.push_str(" ms (timeoutMs)");
    PayError::field(Code::BridgeTimeout, "timeoutMs", m)
}

/// Waits for `globalThis[name]` (announced by `event` on the document) and
/// runs `on_ready` with it in the same turn, at most once.
pub async fn wait_then<T: 'static>(
    name: &str,
    event: &str,
    timeout_ms: u32,
    on_ready: impl FnOnce(JsValue) -> T + 'static,
) -> Result<T, PayError> {
    let Some(doc) = env::document() else {
        // No page to listen on: only a bridge that is already there counts.
        let b = env::global_get(name);
        if env::is_object(&b) {
            return Ok(on_ready(b));
        }
        return Err(PayError::new(
            Code::WrongRuntime,
            cat(&["the wallet bridge ", name, " is not here and this runtime has no document to announce it"]),
        ));
    };
    let result: SharedSlot<Result<T, PayError>> = slot();
    let action: OnReady<T> = Rc::new(RefCell::new(Some(Box::new(on_ready))));
    let run = {
        let (action, result) = (action.clone(), result.clone());
        move |bridge: JsValue| {
            let f = action.borrow_mut().take();
            if let Some(f) = f {
                fill(&result, Ok(f(bridge)));
            }
        }
    };
    // 1. Listen first.
    let id = add_waiter(&doc, name, event, Box::new(run.clone()));
    // 2. Then look.
    let b = env::global_get(name);
    if env::is_object(&b) {
        remove_waiter(name, event, id);
        run(b);
    }
    // 3. A time-out that looks once more before giving up.
    let timer = if is_full(&result) {
        None
    } else {
        let (n, ev, result) = (name.to_string(), event.to_string(), result.clone());
        Some(Timeout::new(timeout_ms, move || {
            remove_waiter(&n, &ev, id);
            let b = env::global_get(&n);
            if env::is_object(&b) {
                run(b);
            } else {
                fill(&result, Err(timeout_error(&n, timeout_ms)));
            }
        }))
    };
    let r = SlotFuture(result).await;
    drop(timer);
    r
}

#[cfg(feature = "web-tools")]
fn check_name(v: &str, field: &str) -> Result<(), PayError> {
    let ok =
        !v.is_empty() && v.len() <= 128 && v.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b':' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(PayError::field(Code::InvalidOptions, field, cat(&[field, " must be a global or event name (letters, digits, _ $ . : -)"])))
    }
}

/// `waitForBridge(name, readyEvent, { timeoutMs }?) -> Promise<object>`.
#[cfg(feature = "web-tools")]
#[wasm_bindgen(js_name = waitForBridge, skip_typescript)]
pub fn wait_for_bridge(name: JsValue, ready_event: JsValue, options: JsValue) -> js_sys::Promise {
    let args = (|| {
        let name = name.as_string().ok_or_else(|| PayError::field(Code::InvalidOptions, "name", "name must be a string"))?;
        let event =
            ready_event.as_string().ok_or_else(|| PayError::field(Code::InvalidOptions, "readyEvent", "readyEvent must be a string"))?;
        check_name(&name, "name")?;
        check_name(&event, "readyEvent")?;
        let opts = super::exports::options_from(&options)?;
        Ok::<_, PayError>((name, event, opts.timeout_ms))
    })();
    super::task::promise(async move {
        let (name, event, timeout_ms) = args.map_err(|e| super::error::to_js(&e))?;
        wait_then(&name, &event, timeout_ms, |b| b).await.map_err(|e| super::error::to_js(&e))
    })
}
