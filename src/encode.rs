//! Percent-encoding of URL components and form values.
//!
//! One rule for every value the module writes into a URL or a form: every
//! byte but the unreserved characters of RFC 3986 (`A-Z a-z 0-9 - . _ ~`)
//! is escaped, so a value decodes back byte for byte whichever decoder
//! (`decodeURIComponent`, a form decoder that reads `+` as a space, a
//! wallet's own) reads it. Written by hand: a table-driven crate would add
//! its 768-byte escape table to the wasm.

use crate::prelude::*;

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `b`, an ASCII byte. Masked to seven bits, which it has already:
/// the compiler then knows the character is one byte and needs no UTF-8
/// encoder. In the payment module, pushed as a one-byte string, one body
/// out of line: `push_str` is the routine its strings grow by
/// (`prelude::own`), and `String::push` would be a second.
#[cfg(all(target_arch = "wasm32", not(feature = "web-tools")))]
#[inline(never)]
pub fn push_ascii(out: &mut String, b: u8) {
    out.push_str(char::from(b & 0x7f).encode_utf8(&mut [0; 4]));
}

/// Appends `b`, an ASCII byte: every other build links `String::push`
/// anyway, and pushes by it.
#[cfg(not(all(target_arch = "wasm32", not(feature = "web-tools"))))]
pub fn push_ascii(out: &mut String, b: u8) {
    out.push(char::from(b & 0x7f));
}

/// Appends `s` to `out`, percent-encoded.
pub fn push_component(out: &mut String, s: &str) {
    for &b in s.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            push_ascii(out, b);
        } else {
            push_ascii(out, b'%');
            push_ascii(out, HEX[(b >> 4) as usize]);
            push_ascii(out, HEX[(b & 15) as usize]);
        }
    }
}

/// Appends `bytes` as lowercase hex (signatures, ids, JSON escapes).
pub fn push_hex(out: &mut String, bytes: &[u8]) {
    const LOWER: &[u8; 16] = b"0123456789abcdef";
    for &b in bytes {
        push_ascii(out, LOWER[(b >> 4) as usize]);
        push_ascii(out, LOWER[(b & 15) as usize]);
    }
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Decodes `%XX` escapes (and `+` as a space when `plus_is_space`); a `%`
/// not followed by two hex digits stays as it is. `None` when the decoded
/// bytes are not UTF-8.
pub fn percent_decode(s: &str, plus_is_space: bool) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => match (b.get(i + 1).copied().and_then(hex_value), b.get(i + 2).copied().and_then(hex_value)) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' if plus_is_space => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_character() {
        let s = "a b+c&d=e?f#g/h%i~j.k_l-m\u{4e2d}\u{1f600}\"'<>\\";
        let mut e = String::new();
        push_component(&mut e, s);
        assert_eq!(e, "a%20b%2Bc%26d%3De%3Ff%23g%2Fh%25i~j.k_l-m%E4%B8%AD%F0%9F%98%80%22%27%3C%3E%5C");
        assert_eq!(percent_decode(&e, false).unwrap(), s);
        assert_eq!(percent_decode(&e, true).unwrap(), s);
    }

    #[test]
    fn decoding_is_lenient_about_stray_percents_and_strict_about_utf8() {
        assert_eq!(percent_decode("100%", false).unwrap(), "100%");
        assert_eq!(percent_decode("%zz%4", false).unwrap(), "%zz%4");
        assert_eq!(percent_decode("a+b", true).unwrap(), "a b");
        assert_eq!(percent_decode("a+b", false).unwrap(), "a+b");
        assert_eq!(percent_decode("%FF", false), None);
    }
}
