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
