//! The heap of the wasm2js build (feature `wasm2js`): a free list
//! ([`crate::bump::free_list`], the algorithm of lol_alloc's, which the
//! other builds' heaps are) over a static arena, so that the module never
//! executes `memory.grow`.
//!
//! wasm2js grows linear memory by copying it into a new `ArrayBuffer`; the
//! old one stays attached, so wasm-bindgen's cached `Uint8Array` and
//! `DataView` of it (which it renews only when the old buffer is detached)
//! would read and write stale memory. A memory that never grows has no
//! such moment. Inputs are bounded (`web/convert.rs`: 1 MiB per string,
//! 20000 values), and the arena leaves room for the largest of them.

use crate::bump::free_list::FreeList;
use core::alloc::{GlobalAlloc, Layout};
use core::cell::{Cell, UnsafeCell};
use core::mem::MaybeUninit;

/// The arena: 16 MiB. Engines map a fresh `ArrayBuffer` lazily, so the
/// pages a payment never touches cost no memory.
const ARENA_BYTES: usize = 16 << 20;

/// The arena's bytes, aligned as the free list's blocks are.
#[repr(align(8))]
struct Arena(UnsafeCell<[MaybeUninit<u8>; ARENA_BYTES]>);

// SAFETY: the wasm build is single-threaded (web::local), and the arena is
// reached only through the heap below.
unsafe impl Sync for Arena {}

static ARENA: Arena = Arena(UnsafeCell::new([MaybeUninit::uninit(); ARENA_BYTES]));

/// The free list, handed the arena at the first allocation.
struct Heap {
    list: FreeList,
    claimed: Cell<bool>,
}

// SAFETY: as the arena's.
unsafe impl Sync for Heap {}

unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !self.claimed.replace(true) {
            // SAFETY: the arena is handed to the list once, here, and
            // touched by nothing else.
            unsafe { self.list.claim(ARENA.0.get().cast(), ARENA_BYTES) }
        }
        // SAFETY: the caller's layout, passed on.
        unsafe { self.list.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: a block the list handed out, of this layout.
        unsafe { self.list.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static HEAP: Heap = Heap { list: FreeList::new(), claimed: Cell::new(false) };
