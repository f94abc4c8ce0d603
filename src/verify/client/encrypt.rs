//! The fields a request sends encrypted ([`ENCRYPTED_FIELDS`]): which ones a
//! request carries, the refusal of a request that cannot encrypt them, and
//! putting the `encrypt` hook's answers in their place before signing.

use crate::error::{cat, Code, PayError};
use crate::prelude::*;
use crate::verify::request::ENCRYPTED_FIELDS;

/// The parameters of `unsigned` to encrypt (the document's encrypted
/// fields, when not empty), in their order.
pub fn fields_to_encrypt(unsigned: &[(String, String)]) -> Vec<(String, String)> {
    unsigned.iter().filter(|(k, v)| is_encrypted(k, v)).cloned().collect()
}

fn is_encrypted(k: &str, v: &str) -> bool {
    ENCRYPTED_FIELDS.contains(&k) && !v.is_empty()
}

/// `invalid_options` naming `encrypt`: `field` would go in clear to a host
/// other than loopback.
pub fn required(field: &str) -> PayError {
    PayError::field(
        Code::InvalidOptions,
        "encrypt",
        cat!(
            "encrypt is required to send ",
            field,
            ", which the service takes encrypted: pass encrypt: (field, value) => ciphertext \
             (nothing was sent; only a loopback baseUrl, the sandbox, takes it as typed)"
        ),
    )
}

/// Puts `values` (the hook's answers, in the order [`fields_to_encrypt`]
/// gave) in place of the fields; an empty or missing answer is
/// `invalid_options` naming `encrypt`.
pub fn put(unsigned: &mut [(String, String)], values: Vec<String>) -> Result<(), PayError> {
    let mut values = values.into_iter();
    for (k, v) in unsigned.iter_mut() {
        if !is_encrypted(k, v) {
            continue;
        }
        match values.next() {
            Some(e) if !e.is_empty() => *v = e,
            _ => {
                return Err(PayError::field(
                    Code::InvalidOptions,
                    "encrypt",
                    cat!("encrypt: the hook returned no value for ", k, " (nothing was sent)"),
                ))
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::pairs as p;

    #[test]
    fn only_the_documents_encrypted_fields() {
        let unsigned = p(&[("order_id", "o"), ("cvv2", "123"), ("valid_date", "1229")]);
        assert_eq!(fields_to_encrypt(&unsigned), p(&[("cvv2", "123")]));
        assert!(fields_to_encrypt(&p(&[("cvv2", ""), ("acct_no", "4111")])).is_empty());
    }

    #[test]
    fn answers_take_their_places() {
        let mut unsigned = p(&[("order_id", "o"), ("cvv2", "123")]);
        put(&mut unsigned, vec!["c1ph3r".into()]).unwrap();
        assert_eq!(unsigned, p(&[("order_id", "o"), ("cvv2", "c1ph3r")]));
        for answers in [vec![], vec![String::new()]] {
            let e = put(&mut p(&[("cvv2", "123")]), answers).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("encrypt")));
            assert_eq!(e.message, "encrypt: the hook returned no value for cvv2 (nothing was sent)");
        }
        let e = required("cvv2");
        assert_eq!(e.field.as_deref(), Some("encrypt"));
        assert!(e.message.starts_with("encrypt is required to send cvv2"), "{}", e.message);
    }
}
