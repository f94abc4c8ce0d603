//! The sandbox signing rule (`www/demo/README.md`).
//!
//! The service document does not give the real algorithm of `sign`, so the
//! module never signs by itself: a caller's `sign` hook does. What the core
//! offers is the canonical input the sandbox signs: the parameters other than
//! `sign` whose values are not empty, sorted by name, written `name=value`
//! (raw, not percent-encoded) and joined with `&`. The same rule gives the
//! input of a notification's `sign`.
//!
//! HMAC-SHA256 itself is only needed by the sandbox server and by tests; it
//! sits behind the cargo feature `hmac`, which the wasm build never enables.

use crate::prelude::*;

/// The canonical sign input of `params`: every pair except `sign` and those
/// with an empty value, sorted by name (then by value, so that the result
/// does not depend on the order of repeated names), `name=value` joined with
/// `&`.
pub fn sign_input(params: &[(String, String)]) -> String {
    let mut kept: Vec<(&str, &str)> =
        params.iter().filter(|(k, v)| k != "sign" && !v.is_empty()).map(|(k, v)| (k.as_str(), v.as_str())).collect();
    kept.sort_unstable();
    let mut out = String::new();
    for (i, (k, v)) in kept.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        out.push_str(k);
        out.push('=');
        out.push_str(v);
    }
    out
}

/// Lowercase hex HMAC-SHA256 of `msg` keyed with `key`: the sandbox's `sign`
/// and `signature`.
#[cfg(feature = "hmac")]
pub fn hmac_sha256_hex(key: &[u8], msg: &[u8]) -> String {
    use hmac::{Hmac, Mac};
    // HMAC accepts keys of any length, so this cannot fail.
    let mut mac = match <Hmac<sha2::Sha256> as Mac>::new_from_slice(key) {
        Ok(m) => m,
        Err(_) => return String::new(),
    };
    mac.update(msg);
    let bytes = mac.finalize().into_bytes();
    let mut out = String::new();
    crate::encode::push_hex(&mut out, &bytes);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::pairs;

    #[test]
    fn sorts_drops_sign_and_empty_values() {
        let p = pairs(&[("order_id", "A1"), ("sign", "zzz"), ("app_token", "t"), ("seq_id", ""), ("full_name", "张 三&x=y")]);
        assert_eq!(sign_input(&p), "app_token=t&full_name=张 三&x=y&order_id=A1");
    }

    #[test]
    fn empty_input() {
        assert_eq!(sign_input(&[]), "");
        assert_eq!(sign_input(&pairs(&[("sign", "x"), ("a", "")])), "");
    }

    #[test]
    fn order_of_input_does_not_matter() {
        let a = pairs(&[("b", "2"), ("a", "1"), ("c", "3")]);
        let b = pairs(&[("c", "3"), ("b", "2"), ("a", "1")]);
        assert_eq!(sign_input(&a), sign_input(&b));
        assert_eq!(sign_input(&a), "a=1&b=2&c=3");
    }

    #[cfg(feature = "hmac")]
    #[test]
    fn rfc4231_vectors() {
        // RFC 4231, test cases 1 and 2.
        assert_eq!(hmac_sha256_hex(&[0x0b; 20], b"Hi There"), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
        assert_eq!(
            hmac_sha256_hex(b"Jefe", b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
