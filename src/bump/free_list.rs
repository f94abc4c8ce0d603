//! A first-fit free list over one fixed region of memory, for the wasm2js
//! build's heap (web/arena.rs): the same algorithm as lol_alloc's free list,
//! which the other modules' heaps are, over a region given once instead of
//! pages grown (the wasm2js build's memory never grows).
//!
//! Free blocks are kept in a list sorted by address, highest first, each
//! holding its size and the next block in its first two words; a block is
//! taken from the end of the first free block it fits in, and a freed block
//! is merged with the free blocks it touches. Every block is a multiple of
//! two words, aligned to at least two words.

use core::alloc::{GlobalAlloc, Layout};
use core::cell::Cell;
use core::ptr::null_mut;

/// The head of a free block.
struct Node {
    next: *mut Node,
    size: usize,
}

const WORDS: usize = core::mem::size_of::<Node>();

/// The free list; empty until [`FreeList::claim`] hands it a region.
pub struct FreeList {
    head: Cell<*mut Node>,
}

// SAFETY: the wasm build is single-threaded (web::local); the host tests
// use their own instances on one thread each.
unsafe impl Sync for FreeList {}

impl Default for FreeList {
    fn default() -> FreeList {
        FreeList::new()
    }
}

fn full_size(layout: Layout) -> usize {
    (layout.size().max(WORDS) + WORDS - 1) & !(WORDS - 1)
}

impl FreeList {
    pub const fn new() -> FreeList {
        FreeList { head: Cell::new(null_mut()) }
    }

    /// Hands the list the region `[start, start + size)`, which nothing else
    /// uses; `start` aligned to two words, `size` a multiple of them.
    ///
    /// # Safety
    /// The region is valid memory that only this list hands out from now on.
    pub unsafe fn claim(&self, start: *mut u8, size: usize) {
        // SAFETY: the caller's region, as a block of this list.
        unsafe { self.free(start as *mut Node, size) }
    }

    /// Puts the block `[ptr, ptr + size)` back, merged with the free blocks
    /// it touches.
    unsafe fn free(&self, ptr: *mut Node, mut size: usize) {
        let mut link = self.head.as_ptr();
        // SAFETY: every node reached is a free block's head, written by
        // this list; `ptr` is a block it handed out, or a claimed region.
        unsafe {
            loop {
                let node = *link;
                if !node.is_null() && node >= ptr {
                    if node as usize == ptr as usize + size {
                        // The block above starts where this one ends: taken
                        // into it, and the one below looked at next.
                        size += (*node).size;
                        *link = (*node).next;
                    } else {
                        link = &raw mut (*node).next;
                    }
                    continue;
                }
                if !node.is_null() && node as usize + (*node).size == ptr as usize {
                    // The block below ends where this one starts.
                    (*node).size += size;
                } else {
                    (*ptr).next = node;
                    (*ptr).size = size;
                    *link = ptr;
                }
                return;
            }
        }
    }
}

unsafe impl GlobalAlloc for FreeList {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let size = full_size(layout);
        let align = layout.align().max(WORDS);
        let mut link = self.head.as_ptr();
        // SAFETY: as in `free`.
        unsafe {
            loop {
                let node = *link;
                if node.is_null() {
                    return null_mut();
                }
                let start = node as usize;
                let end = start + (*node).size;
                if size <= end - start {
                    let at = (end - size) & !(align - 1);
                    if at >= start {
                        if at + size < end {
                            // Alignment left a tail: a free block of its
                            // own, above this one in the list.
                            let tail = (at + size) as *mut Node;
                            (*tail).next = node;
                            (*tail).size = end - (at + size);
                            *link = tail;
                            link = &raw mut (*tail).next;
                        }
                        if at == start {
                            *link = (*node).next;
                        } else {
                            (*node).size = at - start;
                        }
                        return at as *mut u8;
                    }
                }
                link = &raw mut (*node).next;
            }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: a block this list handed out, of this layout.
        unsafe { self.free(ptr as *mut Node, full_size(layout)) }
    }
}
