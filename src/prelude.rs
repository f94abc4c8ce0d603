//! The `alloc` names every module uses. The host build has them from the
//! standard prelude; the wasm build is `no_std` (so that no formatting
//! machinery is linked for panics) and takes them from here. Beside them,
//! the crate's one way to copy text into a `String` ([`own`]) and its one
//! find of a name in a list of names ([`index_of`]).

pub use alloc::borrow::ToOwned;
pub use alloc::boxed::Box;
pub use alloc::string::{String, ToString};
pub use alloc::vec;
pub use alloc::vec::Vec;

/// `s` copied into a new `String`. In the payment module, pushed onto an
/// empty one: it grows its strings and lists by one routine
/// (`RawVecInner::grow_amortized`, behind each push), and a
/// `String::from`, `to_string` or `clone` of text would link a second,
/// the allocation at the exact size (`<[u8]>::to_vec`,
/// `try_allocate_in`), which it leaves out by copying text only through
/// this. One body there, out of line.
#[cfg(all(target_arch = "wasm32", not(feature = "web-tools")))]
#[inline(never)]
pub fn own(s: &str) -> String {
    let mut o = String::new();
    o.push_str(s);
    o
}

/// `s` copied into a new `String`: every other build links the exact-size
/// allocation anyway (its clones and collections), and copies by it.
#[cfg(not(all(target_arch = "wasm32", not(feature = "web-tools"))))]
#[inline]
pub fn own(s: &str) -> String {
    String::from(s)
}

/// A message as `PayError::new` and `PayError::field` take it: a
/// string made already, kept; text, copied by [`own`] (not by `Into`,
/// whose copy of a `&str` is the exact-size allocation the payment
/// module leaves out).
pub trait Message {
    fn into_message(self) -> String;
}

impl Message for String {
    fn into_message(self) -> String {
        self
    }
}

impl Message for &str {
    fn into_message(self) -> String {
        own(self)
    }
}

impl Message for &String {
    fn into_message(self) -> String {
        own(self)
    }
}

/// The place of `s` in a list of names: the one find of a name that the
/// statuses, the runtime's hosts, the channels, the profile's groups and
/// the wire's command values share, out of line once rather than a loop
/// at each caller.
#[inline(never)]
pub fn index_of(names: &[&str], s: &str) -> Option<usize> {
    names.iter().position(|n| *n == s)
}
