//! The `alloc` names every module uses. The host build has them from the
//! standard prelude; the wasm build is `no_std` (so that no formatting
//! machinery is linked for panics) and takes them from here.

pub use alloc::borrow::ToOwned;
pub use alloc::boxed::Box;
pub use alloc::string::{String, ToString};
pub use alloc::vec;
pub use alloc::vec::Vec;
