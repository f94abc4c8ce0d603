//! The browser payment module's heap: a bump allocator that frees nothing
//! piece by piece and takes everything back at once when a payment starts.
//!
//! Freeing nothing is what makes it small. Every `dealloc` is empty, so the
//! compiler leaves out the code that only frees (the drops of strings,
//! vectors and JSON trees: a tree's lists, whose drop is recursive, are
//! not dropped at all in this build, `json::List`), which lol_alloc's free
//! list, kept by the other modules, cannot (tests/bench/README.md). The
//! payment module holds heap memory for the payment in flight only
//! (`web/pay.rs`), so when a payment claims the slot with none in flight
//! nothing on the heap is live, and [`Bump::reset`] starts over. What a
//! payment allocates stays until the next one starts: its input, read once
//! and bounded (`web/convert.rs`), and a few bytes a step; a wallet
//! callback that does not count is not read.
//!
//! The arithmetic is generic over how memory grows ([`Grow`]), so that the
//! host tests drive it with a fake memory.
//!
//! [`free_list`] is the wasm2js build's heap (`web/arena.rs`): the
//! mini-program module it translates frees piece by piece (its exports
//! allocate outside any payment), over a fixed region, since that build's
//! memory never grows.

use core::alloc::{GlobalAlloc, Layout};
use core::cell::Cell;
use core::ptr::null_mut;

/// A WebAssembly page.
pub const PAGE: usize = 65536;

/// Grows linear memory by `pages`, answering its former size in pages
/// (`usize::MAX` when it cannot grow), as `memory.grow` does.
pub trait Grow {
    fn grow(&self, pages: usize) -> usize;
}

/// A bump allocator over the pages it grows memory by.
pub struct Bump<G> {
    /// Where [`Bump::reset`] starts over: the start of its pages.
    base: Cell<usize>,
    next: Cell<usize>,
    end: Cell<usize>,
    grow: G,
}

// SAFETY: the wasm build is single-threaded (web::local); the host tests
// use their own instances on one thread each.
unsafe impl<G> Sync for Bump<G> {}

impl<G: Grow> Bump<G> {
    pub const fn new(grow: G) -> Bump<G> {
        Bump { base: Cell::new(0), next: Cell::new(0), end: Cell::new(0), grow }
    }

    /// Takes back everything allocated. Only where nothing allocated is
    /// live any more.
    pub fn reset(&self) {
        self.next.set(self.base.get());
    }

    /// Bytes allocated since the start or the last reset.
    pub fn used(&self) -> usize {
        self.next.get() - self.base.get()
    }

    fn take(&self, size: usize, align: usize) -> *mut u8 {
        let Some(start) = self.next.get().checked_add(align - 1).map(|n| n & !(align - 1)) else {
            return null_mut();
        };
        let start = match start.checked_add(size) {
            Some(stop) if stop <= self.end.get() => start,
            _ => {
                let Some(pages) = size.checked_add(align).map(|n| n.div_ceil(PAGE)) else {
                    return null_mut();
                };
                let former = self.grow.grow(pages);
                if former == usize::MAX {
                    return null_mut();
                }
                let region = former * PAGE;
                // (No pages yet: none to be contiguous with, even where
                // memory starts empty.)
                let contiguous = region == self.end.get() && region != 0;
                self.end.set(region + pages * PAGE);
                if contiguous {
                    start
                } else {
                    // The first pages, or memory grown by someone else in
                    // between: start over in the new pages (the ones before
                    // are left alone). Never at address 0, the null
                    // pointer, where memory starts empty.
                    let from = region.max(1);
                    self.base.set(from);
                    (from + align - 1) & !(align - 1)
                }
            }
        };
        self.next.set(start + size);
        start as *mut u8
    }
}

unsafe impl<G: Grow> GlobalAlloc for Bump<G> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.take(layout.size(), layout.align())
    }

    unsafe fn dealloc(&self, _: *mut u8, _: Layout) {}
}

/// The browser payment module's heap (with `wasm-runtime`, without
/// `web-tools`: every other wasm build keeps lol_alloc's free list, the
/// wasm2js build its arena; lib.rs).
#[cfg(all(target_arch = "wasm32", feature = "wasm-runtime", not(feature = "web-tools"), not(feature = "wasm2js")))]
pub mod heap {
    use super::{Bump, Grow};

    /// The module's own memory.
    pub struct Wasm;

    impl Grow for Wasm {
        fn grow(&self, pages: usize) -> usize {
            core::arch::wasm32::memory_grow(0, pages)
        }
    }

    #[global_allocator]
    static HEAP: Bump<Wasm> = Bump::new(Wasm);

    /// Takes back the payment module's heap (see the module's notes).
    pub fn reset() {
        HEAP.reset();
    }

    /// The list of a JSON tree's elements or members (`crate::json::List`)
    /// in this heap, which frees nothing piece by piece: never dropped
    /// element by element. A tree's memory is taken back with the heap's
    /// when the next payment starts ([`reset`]), as it was already (every
    /// `dealloc` is empty); the compiler cannot see that by itself, since a
    /// tree's drop is recursive, and kept the drop of every tree, a walk
    /// that frees nothing, at every place one goes out of scope. So a tree
    /// holds plain data only, never a value whose drop does more than free
    /// memory (a `JsValue`'s releases its slot in the JavaScript heap
    /// table).
    pub type List<T> = core::mem::ManuallyDrop<crate::prelude::Vec<T>>;

    /// `v` as a [`List`].
    pub fn list<T>(v: crate::prelude::Vec<T>) -> List<T> {
        core::mem::ManuallyDrop::new(v)
    }
}

/// Every other build's heap frees (lol_alloc's free list, the wasm2js
/// arena, the host's): a JSON tree's list is a plain `Vec`, dropped as any.
/// The negation of the bump heap's own condition, beside it, so that the
/// lists follow wherever that heap is.
#[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime", not(feature = "web-tools"), not(feature = "wasm2js"))))]
pub mod heap {
    /// The list of a JSON tree's elements or members (`crate::json::List`).
    pub type List<T> = crate::prelude::Vec<T>;

    /// `v` as a [`List`].
    pub fn list<T>(v: crate::prelude::Vec<T>) -> List<T> {
        v
    }
}

pub mod free_list;

#[cfg(test)]
mod tests;
