//! Internationalized host labels: an `xn--` label passes the URL check only
//! when it is the one punycode (RFC 3492) encoding of characters every
//! WHATWG URL parser keeps as they are.

use crate::prelude::*;

/// An internationalized label (`xn--` followed by punycode) is accepted
/// only when it decodes, and stands for lowercase ASCII letters, digits and
/// hyphens with at least one character from a set that every WHATWG URL
/// parser keeps as it is (CJK unified ideographs, the lowercase Latin-1
/// letters): a browser refuses a URL whose punycode does not decode or
/// stands for a character IDNA maps or forbids, so accepting one would let
/// the check pass a URL that is never opened. Other labels pass.
///
/// The label is bytes (lowercase ASCII letters, digits and hyphens, checked
/// before): no UTF-8 validation is needed, and none is linked in.
pub(super) fn a_label_ok(label: &[u8]) -> bool {
    let Some(code) = label.strip_prefix(b"xn--") else { return true };
    let Some(chars) = punycode_decode(code) else { return false };
    let kept = |c: &char| {
        c.is_ascii_lowercase()
            || c.is_ascii_digit()
            || *c == '-'
            || ('\u{4e00}'..='\u{9fff}').contains(c)
            || ('\u{df}'..='\u{ff}').contains(c) && *c != '\u{f7}'
    };
    chars.iter().any(|c| !c.is_ascii())
        && chars.iter().all(kept)
        && !chars.starts_with(&['x', 'n', '-', '-'])
        // Only the one encoding of those characters (no leading hyphen, no
        // reordered insertions): IDNA refuses the others.
        && punycode_encode(&chars).is_some_and(|e| e.as_bytes() == code)
}

const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;

fn threshold(k: u32, bias: u32) -> u32 {
    if k <= bias {
        T_MIN
    } else if k >= bias + T_MAX {
        T_MAX
    } else {
        k - bias
    }
}

/// RFC 3492 encoding (the inverse of [`punycode_decode`]).
fn punycode_encode(input: &[char]) -> Option<String> {
    let digit = |d: u32| (if d < 26 { b'a' + d as u8 } else { b'0' + (d - 26) as u8 }) as char;
    let mut out: String = input.iter().filter(|c| c.is_ascii()).collect();
    let basic = out.len() as u32;
    let mut h = basic;
    if basic > 0 {
        out.push('-');
    }
    let (mut n, mut delta, mut bias) = (128u32, 0u32, 72u32);
    while (h as usize) < input.len() {
        let m = input.iter().map(|&c| c as u32).filter(|&c| c >= n).min()?;
        delta = delta.checked_add((m - n).checked_mul(h + 1)?)?;
        n = m;
        for &c in input {
            let c = c as u32;
            if c < n {
                delta = delta.checked_add(1)?;
            }
            if c == n {
                let (mut q, mut k) = (delta, BASE);
                loop {
                    let t = threshold(k, bias);
                    if q < t {
                        break;
                    }
                    out.push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(digit(q));
                bias = adapt(delta, h + 1, h == basic);
                delta = 0;
                h += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n += 1;
    }
    Some(out)
}

/// RFC 3492 decoding of the part after `xn--` (lowercase); `None` when it
/// is not valid punycode or would stand for more than 63 characters.
fn punycode_decode(code: &[u8]) -> Option<Vec<char>> {
    // `get`, not slicing: no panic path in the wasm.
    let (basic, rest): (&[u8], &[u8]) = match code.iter().rposition(|&b| b == b'-') {
        Some(i) => (code.get(..i)?, code.get(i + 1..)?),
        None => (&[], code),
    };
    let mut out: Vec<char> = basic.iter().map(|&b| b as char).collect();
    let (mut n, mut i, mut bias) = (128u32, 0u32, 72u32);
    let mut digits = rest.iter().copied().peekable();
    while digits.peek().is_some() {
        let (old_i, mut w, mut k) = (i, 1u32, BASE);
        loop {
            let d = match digits.next()? {
                c @ b'a'..=b'z' => (c - b'a') as u32,
                c @ b'0'..=b'9' => (c - b'0') as u32 + 26,
                _ => return None,
            };
            i = i.checked_add(d.checked_mul(w)?)?;
            let t = threshold(k, bias);
            if d < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let len = out.len() as u32 + 1;
        bias = adapt(i - old_i, len, old_i == 0);
        n = n.checked_add(i / len)?;
        i %= len;
        if out.len() >= 63 || i as usize > out.len() {
            return None;
        }
        out.insert(i as usize, char::from_u32(n)?);
        i += 1;
    }
    Some(out)
}

fn adapt(delta: u32, points: u32, first: bool) -> u32 {
    let mut delta = if first { delta / 700 } else { delta / 2 };
    delta += delta / points;
    let mut k = 0;
    while delta > 455 {
        delta /= 35;
        k += 36;
    }
    k + 36 * delta / (delta + 38)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punycode() {
        let d = |s: &str| punycode_decode(s.as_bytes()).map(|v| v.into_iter().collect::<String>());
        assert_eq!(d("fiqs8s").as_deref(), Some("\u{4e2d}\u{56fd}"));
        for code in ["fiqs8s", "bcher-kva", "zca", "shop-zx3e", "ca-vja"] {
            assert_eq!(punycode_encode(&punycode_decode(code.as_bytes()).unwrap()).as_deref(), Some(code));
        }
        assert_eq!(d("bcher-kva").as_deref(), Some("b\u{fc}cher"));
        assert_eq!(d("zca").as_deref(), Some("\u{df}"));
        assert_eq!(d("fx"), None);
        assert_eq!(d("99999999999"), None);
        // U+0080, a hyphen alone, a character outside the kept set.
        for bad in ["xn--a", "xn---", "xn--ls8h", "xn--abc-", "xn--fx", "xn---fiqs8s", "xn---iqs8vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvalapsxm"]
        {
            assert!(!a_label_ok(bad.as_bytes()), "{bad}");
        }
    }
}
