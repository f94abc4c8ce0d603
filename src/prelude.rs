//! The `alloc` names every module uses. The host build has them from the
//! standard prelude; the wasm build is `no_std` (so that no formatting
//! machinery is linked for panics) and takes them from here. Beside them,
//! the crate's one way to copy text into a `String` ([`own`]).

pub use alloc::borrow::ToOwned;
pub use alloc::boxed::Box;
pub use alloc::string::{String, ToString};
pub use alloc::vec;
pub use alloc::vec::Vec;

/// `s` copied into a new `String`: pushed onto an empty one, so that the
/// crate makes its strings by the one routine that grows every string and
/// list (`RawVecInner::grow_amortized`, behind each push). `String::from`,
/// `to_string` and `clone` of text allocate at the exact size by another
/// (`<[u8]>::to_vec`, `try_allocate_in`), which the payment module, copying
/// text only through this, does not link.
#[inline(never)]
pub fn own(s: &str) -> String {
    let mut o = String::new();
    o.push_str(s);
    o
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
