//! Module-wide state of the wasm build.
//!
//! The wasm build is `no_std`, so there is no `thread_local!`. wasm32
//! without the atomics feature has one thread, which is what makes [`Local`]
//! sound: its value is only ever touched from that thread.

/// A value shared by the module's functions on its one thread.
pub struct Local<T>(T);

// SAFETY: the wasm build targets wasm32 without threads (no `atomics`
// target feature): every access happens on the one thread there is.
unsafe impl<T> Sync for Local<T> {}

impl<T> Local<T> {
    pub const fn new(v: T) -> Local<T> {
        Local(v)
    }

    pub fn with<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        f(&self.0)
    }
}

#[cfg(target_feature = "atomics")]
compile_error!("paybridge's wasm build is single-threaded; build it without the atomics target feature");

/// `core::cell::RefCell` for the wasm build: a conflicting borrow (a bug:
/// the module never re-enters itself while it holds a borrow) traps, where
/// core's would panic with a formatted message and so keep the formatting
/// machinery in the `.wasm`.
pub struct RefCell<T>(core::cell::RefCell<T>);

impl<T> RefCell<T> {
    pub const fn new(v: T) -> RefCell<T> {
        RefCell(core::cell::RefCell::new(v))
    }

    pub fn borrow(&self) -> core::cell::Ref<'_, T> {
        self.0.try_borrow().unwrap_or_else(|_| core::arch::wasm32::unreachable())
    }

    pub fn borrow_mut(&self) -> core::cell::RefMut<'_, T> {
        self.0.try_borrow_mut().unwrap_or_else(|_| core::arch::wasm32::unreachable())
    }
}
