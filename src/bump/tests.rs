//! The bump allocator's arithmetic over a fake memory.

use super::*;

/// Memory of `pages` pages that grows as asked, up to `limit`; `jump`
/// pages grown by someone else before the next growth.
struct Fake {
    pages: Cell<usize>,
    limit: usize,
    jump: Cell<usize>,
}

impl Grow for &Fake {
    fn grow(&self, pages: usize) -> usize {
        let former = self.pages.get() + self.jump.replace(0);
        if former + pages > self.limit {
            return usize::MAX;
        }
        self.pages.set(former + pages);
        former
    }
}

fn fake(pages: usize) -> Fake {
    Fake { pages: Cell::new(pages), limit: 1000, jump: Cell::new(0) }
}

fn take(b: &Bump<&Fake>, size: usize, align: usize) -> usize {
    unsafe { b.alloc(Layout::from_size_align(size, align).unwrap()) as usize }
}

#[test]
fn allocations_follow_each_other_aligned_in_the_pages_it_grows() {
    let mem = fake(17);
    let b = Bump::new(&mem);
    let a = take(&b, 3, 1);
    assert_eq!(a, 17 * PAGE, "its first pages start after the memory it found");
    assert_eq!(take(&b, 8, 8), a + 8);
    assert_eq!(take(&b, 1, 1), a + 16);
    assert_eq!(take(&b, 4, 4096), a + 4096);
    assert_eq!(mem.pages.get(), 18);
    assert_eq!(b.used(), 4100);
    // Past the page: more pages, contiguous, and the allocation runs on
    // from where it was.
    let big = take(&b, 3 * PAGE, 8);
    assert_eq!(big, a + 4104);
    assert!(big + 3 * PAGE <= mem.pages.get() * PAGE);
    assert_eq!(b.used(), 4104 + 3 * PAGE);
}

#[test]
fn reset_takes_everything_back_and_the_same_addresses_serve_again() {
    let mem = fake(2);
    let b = Bump::new(&mem);
    let first: Vec<usize> = (0..100).map(|i| take(&b, 1000 + i, 8)).collect();
    let pages = mem.pages.get();
    b.reset();
    assert_eq!(b.used(), 0);
    let again: Vec<usize> = (0..100).map(|i| take(&b, 1000 + i, 8)).collect();
    assert_eq!(first, again);
    assert_eq!(mem.pages.get(), pages, "no memory grown for the same payment again");
}

#[test]
fn memory_grown_by_someone_else_is_left_alone() {
    let mem = fake(1);
    let b = Bump::new(&mem);
    let a = take(&b, PAGE - 8, 8);
    mem.jump.set(5);
    let c = take(&b, 64, 8);
    assert_eq!(c, (1 + 1 + 5) * PAGE, "a fresh start in its own new pages");
    b.reset();
    assert_eq!(take(&b, 8, 8), c, "reset goes back to the start of those pages only");
    assert!(a < c);
}

#[test]
fn no_memory_is_a_null_pointer_never_a_wrong_one() {
    let mem = Fake { pages: Cell::new(1), limit: 3, jump: Cell::new(0) };
    let b = Bump::new(&mem);
    assert_ne!(take(&b, PAGE, 8), 0);
    assert_eq!(take(&b, 5 * PAGE, 8), 0);
    assert_eq!(b.take(usize::MAX - 4, 8) as usize, 0);
    assert_eq!(b.take(16, 1 << 31) as usize, 0);
    // What fits still does.
    assert_ne!(take(&b, 64, 8), 0);
}

#[test]
fn a_memory_that_starts_empty_never_gives_address_zero() {
    let mem = fake(0);
    let b = Bump::new(&mem);
    let a = take(&b, 16, 8);
    assert_eq!(a, 8);
    assert_eq!(take(&b, 1, 1), 24);
    b.reset();
    assert_eq!(take(&b, 1, 1), 1, "after a reset too");
    assert_eq!(take(&b, 16, 8), 8);
}

mod free_list {
    use super::super::free_list::FreeList;
    use core::alloc::{GlobalAlloc, Layout};

    /// A region for a list: `size` bytes aligned to 16 (the list's block
    /// alignment on a 64-bit host), and its start.
    #[repr(align(16))]
    struct Chunk {
        _bytes: [u8; 16],
    }

    fn region(size: usize) -> (Vec<Chunk>, usize) {
        let mut v: Vec<Chunk> = (0..size / 16).map(|_| Chunk { _bytes: [0; 16] }).collect();
        let start = v.as_mut_ptr() as usize;
        (v, start)
    }

    fn list(start: usize, size: usize) -> FreeList {
        let l = FreeList::new();
        unsafe { l.claim(start as *mut u8, size) };
        l
    }

    fn take(l: &FreeList, size: usize, align: usize) -> usize {
        unsafe { l.alloc(Layout::from_size_align(size, align).unwrap()) as usize }
    }

    fn give(l: &FreeList, at: usize, size: usize, align: usize) {
        unsafe { l.dealloc(at as *mut u8, Layout::from_size_align(size, align).unwrap()) }
    }

    #[test]
    fn blocks_lie_in_the_region_aligned_apart_and_none_past_it() {
        let (_mem, start) = region(4096);
        let l = list(start, 4096);
        let a = take(&l, 100, 8);
        let b = take(&l, 1, 1);
        let c = take(&l, 10, 256);
        for (at, size) in [(a, 100), (b, 1), (c, 10)] {
            assert!(at >= start && at + size <= start + 4096);
        }
        assert_eq!(c % 256, 0);
        assert!(b + 16 <= a || a + 112 <= b);
        assert!(c + 16 <= b || b + 16 <= c);
        assert_eq!(take(&l, 4096, 8), 0, "no room: a null pointer");
    }

    #[test]
    fn what_is_freed_merges_back_into_one_block() {
        let (_mem, start) = region(1 << 16);
        let l = list(start, 1 << 16);
        let mut held = Vec::new();
        let mut seed = 12345u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as usize
        };
        for round in 0..2000 {
            if held.len() < 40 && (round < 1500 || held.is_empty()) && next() % 3 != 0 {
                let (size, align) = (1 + next() % 700, 1 << (next() % 7));
                let at = take(&l, size, align);
                assert_ne!(at, 0, "room for {size} bytes in round {round}");
                assert_eq!(at % align, 0);
                for &(b, s, _) in &held {
                    assert!(at + size <= b || b + s <= at, "{at}+{size} overlaps {b}+{s}");
                }
                held.push((at, size, align));
            } else if !held.is_empty() {
                let (at, size, align) = held.swap_remove(next() % held.len());
                give(&l, at, size, align);
            }
        }
        for (at, size, align) in held.drain(..) {
            give(&l, at, size, align);
        }
        // Everything back, in whatever order: the whole region is one
        // block again.
        assert_eq!(take(&l, 1 << 16, 8), start);
    }

    #[test]
    fn a_block_between_two_free_ones_joins_both() {
        let (_mem, start) = region(4096);
        let l = list(start, 4096);
        let blocks: Vec<usize> = (0..3).map(|_| take(&l, 1024, 8)).collect();
        let rest = take(&l, 1024, 8);
        assert_eq!(take(&l, 16, 8), 0);
        give(&l, blocks[0], 1024, 8);
        give(&l, blocks[2], 1024, 8);
        give(&l, blocks[1], 1024, 8);
        assert_eq!(take(&l, 3072, 8), blocks.iter().copied().min().unwrap());
        give(&l, rest, 1024, 8);
    }
}
