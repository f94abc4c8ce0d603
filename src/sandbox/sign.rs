//! The sandbox's signing rule and its random identifiers.
//!
//! The service document does not give the real algorithm, so the sandbox
//! declares its own (`API.md`, "The sandbox"): the lowercase hex
//! HMAC-SHA256, keyed with the secret, of the parameters other than `sign`
//! with non-empty values, sorted by name, written `name=value` and joined
//! with `&`. The simulated wallets sign their payment data the same way.

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    crate::encode::push_hex(&mut out, bytes);
    out
}

/// Lowercase hex HMAC-SHA256 of `text` keyed with `secret`.
pub fn hmac_hex(secret: &str, text: &str) -> String {
    crate::verify::sign::hmac_sha256_hex(secret.as_bytes(), text.as_bytes())
}

/// The text the rule signs: the crate's own canonical sign input
/// (`verify::sign::sign_input`), the one the client and tests use too.
pub fn sign_input<'a>(params: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let owned: Vec<(String, String)> = params.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    crate::verify::sign::sign_input(&owned)
}

/// The `sign` of `params` under the sandbox's rule.
pub fn sign<'a>(secret: &str, params: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    hmac_hex(secret, &sign_input(params))
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
    fn random_ids_differ() {
        let a = random_hex(16);
        assert_eq!(a.len(), 32);
        assert_ne!(a, random_hex(16));
        assert!(same(&a, &a.clone()));
        assert!(!same(&a, &random_hex(16)));
        assert!(!same("ab", "abc"));
    }
}
