//! A value filled in once by a callback and awaited by a future: how a
//! callback, a timer or a promise hands its answer to the full module's
//! asynchronous flows (`flow.rs`, `hook.rs`, `task.rs`).

use super::local::RefCell;
use alloc::rc::Rc;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll, Waker};

/// A value filled in once by a callback and awaited by a future. Once
/// filled it stays filled: a later callback changes nothing, even after the
/// future has taken the value.
pub struct Slot<T> {
    value: Option<T>,
    filled: bool,
    waker: Option<Waker>,
}

pub type SharedSlot<T> = Rc<RefCell<Slot<T>>>;

pub fn slot<T>() -> SharedSlot<T> {
    Rc::new(RefCell::new(Slot { value: None, filled: false, waker: None }))
}

/// Fills the slot unless it is already full; true when this call filled it.
pub fn fill<T>(s: &SharedSlot<T>, v: T) -> bool {
    let waker = {
        let mut s = s.borrow_mut();
        if s.filled {
            return false;
        }
        s.filled = true;
        s.value = Some(v);
        s.waker.take()
    };
    if let Some(w) = waker {
        w.wake();
    }
    true
}

pub fn is_full<T>(s: &SharedSlot<T>) -> bool {
    s.borrow().filled
}

/// Waits for the slot to be filled.
pub struct SlotFuture<T>(pub SharedSlot<T>);

impl<T> Future for SlotFuture<T> {
    type Output = T;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        let mut s = self.0.borrow_mut();
        match s.value.take() {
            Some(v) => Poll::Ready(v),
            None => {
                s.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}
