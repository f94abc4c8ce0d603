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
