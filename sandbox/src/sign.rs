//! The sandbox's signing rule and its random identifiers.
//!
//! The service document does not give the real algorithm, so the sandbox
//! declares its own (`www/demo/README.md`): the lowercase hex
//! HMAC-SHA256, keyed with the secret, of the parameters other than `sign`
//! with non-empty values, sorted by name, written `name=value` and joined
//! with `&`. The simulated wallets sign their payment data the same way.
//!
//! Nor does the document give the encryption of the fields it sends
//! encrypted (`cvv2`), so the sandbox declares that too: `encrypt(field,
//! value)` is `sbx1:` then the lowercase hex of the value's UTF-8 bytes
//! (at most 32) XORed with the HMAC-SHA256, keyed with the secret, of
//! `encrypt:` and the field's name. A reversible stand-in that shows the
//! hook's place in a request (before signing), not a cipher to use
//! anywhere else. The sandbox decrypts a value in that form before its
//! parameter check; a value without the `sbx1:` prefix is taken as typed,
//! as a client of a loopback `baseUrl` may send it.

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    paybridge::encode::push_hex(&mut out, bytes);
    out
}

/// Lowercase hex HMAC-SHA256 of `text` keyed with `secret`.
pub fn hmac_hex(secret: &str, text: &str) -> String {
    paybridge::verify::sign::hmac_sha256_hex(secret.as_bytes(), text.as_bytes())
}

/// The text the rule signs: the crate's own canonical sign input
/// (`verify::sign::sign_input`), the one the client and tests use too.
pub fn sign_input<'a>(params: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let owned: Vec<(String, String)> = params.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    paybridge::verify::sign::sign_input(&owned)
}

/// The `sign` of `params` under the sandbox's rule.
pub fn sign<'a>(secret: &str, params: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    hmac_hex(secret, &sign_input(params))
}

/// The prefix of a value encrypted by the sandbox's rule.
pub const ENCRYPTED_PREFIX: &str = "sbx1:";

fn keystream(secret: &str, field: &str) -> Vec<u8> {
    use hmac::{Hmac, Mac};
    let mut mac = <Hmac<sha2::Sha256> as Mac>::new_from_slice(secret.as_bytes()).expect("HMAC takes keys of any length");
    mac.update(b"encrypt:");
    mac.update(field.as_bytes());
    mac.finalize().into_bytes().to_vec()
}

/// `value` of `field` encrypted by the sandbox's rule (module docs); `None`
/// for a value longer than 32 bytes.
pub fn encrypt(secret: &str, field: &str, value: &str) -> Option<String> {
    let key = keystream(secret, field);
    if value.len() > key.len() {
        return None;
    }
    let bytes: Vec<u8> = value.bytes().zip(key).map(|(b, k)| b ^ k).collect();
    Some(format!("{ENCRYPTED_PREFIX}{}", hex(&bytes)))
}

/// The value `text` (in the `sbx1:` form) of `field` holds; `None` for a
/// text not in that form, or that does not decrypt to UTF-8 text.
pub fn decrypt(secret: &str, field: &str, text: &str) -> Option<String> {
    let h = text.strip_prefix(ENCRYPTED_PREFIX)?.as_bytes();
    let key = keystream(secret, field);
    if h.is_empty() || h.len() % 2 != 0 || h.len() / 2 > key.len() {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).filter(|_| !c.is_ascii_uppercase()).map(|d| d as u8);
    let mut out = Vec::with_capacity(h.len() / 2);
    for (pair, k) in h.chunks(2).zip(key) {
        out.push(((digit(pair[0])? << 4) | digit(pair[1])?) ^ k);
    }
    String::from_utf8(out).ok()
}

/// Compares two signatures without stopping at the first difference.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `n` random bytes from the system's source, as hex.
pub fn random_hex(n: usize) -> String {
    let mut buf = vec![0u8; n];
    // The system random source failing is not something a sandbox can
    // recover from; the buffer stays zero only if it did.
    getrandom::fill(&mut buf).expect("the system random source works");
    hex(&buf)
}

/// A stable identifier derived from `label` (the same user gets the same
/// id in every run with the same secret).
pub fn stable_id(secret: &str, label: &str) -> String {
    hmac_hex(secret, label)[..16].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4231_case_2() {
        assert_eq!(hmac_hex("Jefe", "what do ya want for nothing?"), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }

    #[test]
    fn sign_input_sorts_and_drops_sign_and_empty_values() {
        let p = [("b", "2"), ("sign", "x"), ("a", "1"), ("c", ""), ("a_b", "3")];
        assert_eq!(sign_input(p), "a=1&a_b=3&b=2");
        assert_eq!(sign("k", p), hmac_hex("k", "a=1&a_b=3&b=2"));
    }

    #[test]
    fn encryption_round_trips() {
        let e = encrypt("sandbox-secret", "cvv2", "123").unwrap();
        assert!(e.starts_with("sbx1:") && e.len() == 5 + 6, "{e}");
        assert_ne!(&e[5..], "313233");
        assert_eq!(decrypt("sandbox-secret", "cvv2", &e).as_deref(), Some("123"));
        assert_ne!(decrypt("other-secret", "cvv2", &e).as_deref(), Some("123"));
        assert_ne!(encrypt("sandbox-secret", "cvv3", "123"), Some(e.clone()));
        assert_eq!(encrypt("k", "cvv2", &"9".repeat(33)), None);
        for bad in ["123", "sbx1:", "sbx1:abc", "sbx1:zz", &e.to_uppercase(), &cat_hex_too_long()] {
            assert_eq!(decrypt("sandbox-secret", "cvv2", bad), None, "{bad}");
        }
    }

    fn cat_hex_too_long() -> String {
        format!("sbx1:{}", "00".repeat(33))
    }

    #[test]
    fn random_ids_differ() {
        let a = random_hex(16);
        assert_eq!(a.len(), 32);
        assert_ne!(a, random_hex(16));
        assert!(same(&a, &a.clone()));
        assert!(!same(&a, &random_hex(16)));
        assert!(!same("ab", "abc"));
    }
}
