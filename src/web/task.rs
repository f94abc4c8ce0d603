//! A small single-threaded executor for the module's futures.
//!
//! A woken task is polled in a microtask (`Promise.resolve().then`), never
//! behind a timer, so a payment continues in the same turn as the event that
//! woke it. It reaches the platform only through `Promise`, which every
//! runtime the module supports has (unlike `queueMicrotask` or `window`).

use super::local::Local;
use super::local::RefCell;
use crate::prelude::*;
use alloc::collections::VecDeque;
use alloc::rc::Rc;
use core::cell::Cell;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};
use js_sys::Promise;
use wasm_bindgen::prelude::*;

struct Task {
    future: RefCell<Option<Pin<Box<dyn Future<Output = ()>>>>>,
    queued: Cell<bool>,
}

static QUEUE: Local<RefCell<VecDeque<Rc<Task>>>> = Local::new(RefCell::new(VecDeque::new()));
static SCHEDULED: Local<Cell<bool>> = Local::new(Cell::new(false));
/// The one closure that runs the queue, made on first use.
type Runner = core::cell::OnceCell<Closure<dyn FnMut(JsValue)>>;
static RUNNER: Local<Runner> = Local::new(core::cell::OnceCell::new());

/// Runs `f` to completion: polled at once, then whenever it is woken.
pub fn spawn(f: impl Future<Output = ()> + 'static) {
    let t = Rc::new(Task { future: RefCell::new(Some(Box::pin(f))), queued: Cell::new(false) });
    poll(t);
}

fn poll(t: Rc<Task>) {
    let waker = waker(t.clone());
    let mut cx = Context::from_waker(&waker);
    let mut slot = t.future.borrow_mut();
    if let Some(f) = slot.as_mut() {
        if let Poll::Ready(()) = f.as_mut().poll(&mut cx) {
            *slot = None;
        }
    }
}

fn schedule(t: Rc<Task>) {
    if t.queued.replace(true) {
        return;
    }
    QUEUE.with(|q| q.borrow_mut().push_back(t));
    if !SCHEDULED.with(|s| s.replace(true)) {
        RUNNER.with(|r| {
            let r = r.get_or_init(|| Closure::wrap(Box::new(|_| run_queue()) as Box<dyn FnMut(JsValue)>));
            let _ = Promise::resolve(&JsValue::UNDEFINED).then(r);
        });
    }
}

fn run_queue() {
    SCHEDULED.with(|s| s.set(false));
    loop {
        let Some(t) = QUEUE.with(|q| q.borrow_mut().pop_front()) else { break };
        t.queued.set(false);
        poll(t);
    }
}

fn waker(t: Rc<Task>) -> Waker {
    unsafe fn clone(p: *const ()) -> RawWaker {
        // SAFETY: `p` came from `Rc::into_raw` of a live `Rc<Task>`.
        unsafe { Rc::increment_strong_count(p as *const Task) };
        RawWaker::new(p, &VTABLE)
    }
    unsafe fn wake(p: *const ()) {
        // SAFETY: takes over the reference this waker held.
        schedule(unsafe { Rc::from_raw(p as *const Task) });
    }
    unsafe fn wake_by_ref(p: *const ()) {
        // SAFETY: `p` is a live `Rc<Task>`; the count is raised for the
        // clone handed to the queue.
        unsafe { Rc::increment_strong_count(p as *const Task) };
        schedule(unsafe { Rc::from_raw(p as *const Task) });
    }
    unsafe fn drop(p: *const ()) {
        // SAFETY: releases the reference this waker held.
        unsafe { Rc::decrement_strong_count(p as *const Task) };
    }
    static VTABLE: RawWakerVTable = RawWakerVTable::new(clone, wake, wake_by_ref, drop);
    // SAFETY: the vtable functions above keep the Rc count balanced, and the
    // module is single-threaded, so the waker never crosses threads.
    unsafe { Waker::from_raw(RawWaker::new(Rc::into_raw(t) as *const (), &VTABLE)) }
}

/// A promise settled by `f`'s result.
pub fn promise(f: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> Promise {
    let mut f = Some(f);
    Promise::new(&mut |resolve, reject| {
        if let Some(f) = f.take() {
            spawn(async move {
                let _ = match f.await {
                    Ok(v) => resolve.call1(&JsValue::UNDEFINED, &v),
                    Err(e) => reject.call1(&JsValue::UNDEFINED, &e),
                };
            });
        }
    })
}

/// Waits for a promise to settle.
pub async fn settle(p: &Promise) -> Result<JsValue, JsValue> {
    let s = super::slot::slot::<Result<JsValue, JsValue>>();
    let (a, b) = (s.clone(), s.clone());
    let ok = Closure::once(move |v: JsValue| {
        super::slot::fill(&a, Ok(v));
    });
    let fail = Closure::once(move |e: JsValue| {
        super::slot::fill(&b, Err(e));
    });
    let _ = p.then2(&ok, &fail);
    super::slot::SlotFuture(s).await
}
