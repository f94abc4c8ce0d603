//! What each profile string must look like: identifiers, tokens, app
//! schemes (never one that loads or runs content), https addresses,
//! fragments.

use crate::error::{why, word};
use crate::safe_url;

/// What a profile string must look like.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    /// A JavaScript identifier (global names, method names).
    Ident,
    /// An event name or user-agent token: letters, digits and `_.:/-`.
    Token,
    /// A URL scheme other than the ones that run or embed content.
    Scheme,
    /// An https address.
    Url,
    /// `#` followed by token characters.
    Fragment,
}

/// The schemes that load or run content, which an app scheme may not be.
const CONTENT_SCHEMES: [&str; 11] = ["javascript", "data", "vbscript", "file", "blob", "about", "filesystem", "http", "https", "ws", "wss"];

/// `v` as a profile string of `kind`; `loopback` also lets an address be
/// `http://127.0.0.1` or `http://localhost` (the local sandbox).
pub(super) fn valid(kind: Kind, v: &str, loopback: bool) -> core::result::Result<(), &'static str> {
    if v.is_empty() || v.len() > 128 {
        return Err(why!("must be 1 to 128 characters"));
    }
    let b = v.as_bytes();
    let token = |b: &[u8]| word(b, b"_.:/-");
    match kind {
        Kind::Ident => {
            let ok = !b[0].is_ascii_digit() && word(b, b"_$");
            if ok {
                Ok(())
            } else {
                Err(why!("must be a JavaScript identifier"))
            }
        }
        Kind::Token => {
            if token(b) {
                Ok(())
            } else {
                Err(why!("may hold only letters, digits and _ . : / -"))
            }
        }
        Kind::Scheme => {
            let shape = b[0].is_ascii_lowercase()
                && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'+' | b'.' | b'-'));
            if !shape {
                return Err(why!("must be a lowercase URL scheme"));
            }
            if CONTENT_SCHEMES.contains(&v) {
                return Err(why!("must be an app scheme, not one that loads or runs content"));
            }
            Ok(())
        }
        Kind::Url => safe_url::check_shape(v, loopback).map(|_| ()),
        Kind::Fragment => {
            if b.len() > 1 && b[0] == b'#' && token(&b[1..]) {
                Ok(())
            } else {
                Err(why!("must be # followed by letters, digits and _ . : / -"))
            }
        }
    }
}
