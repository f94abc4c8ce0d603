//! [`Json`] as compact JSON text: numbers as JavaScript writes them
//! (shortest round-trip form), strings escaped as `JSON.stringify` does.

use super::{whole, Json};
use crate::error::{cat, u64_str};
use crate::prelude::*;

pub(super) fn write_value(v: &Json, out: &mut String) {
    match v {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Num(n) => write_number(*n, out),
        Json::Str(s) => write_string(s, out),
        Json::Arr(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(x, out);
            }
            out.push(']');
        }
        Json::Obj(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(k, out);
                out.push(':');
                write_value(x, out);
            }
            out.push('}');
        }
    }
}

/// Writes a number as JSON text without the standard float formatter, which
/// would add the float formatting machinery to every wasm build.
///
/// - Integers below 2^53 are written exactly.
/// - Other numbers from 1e-5 to 2^53 (the scores and amounts payloads
///   carry) are written as the shortest plain decimal that reads back as the
///   same double, the digits `JSON.stringify` and Rust's `Display` write:
///   found with exact 128-bit integer arithmetic ([`shortest_fixed`]).
/// - Anything else (huge integers, tiny fractions) is written as its exact
///   decimal value, which reads back as the same double but may be long.
fn write_number(n: f64, out: &mut String) {
    if !n.is_finite() {
        out.push_str("null");
        return;
    }
    if n == 0.0 {
        out.push('0');
        return;
    }
    if n < 0.0 {
        out.push('-');
    }
    let a = if n < 0.0 { -n } else { n };
    if let Some(w) = whole(a) {
        crate::error::push_u64(out, w);
        return;
    }
    let bits = a.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1 << 52) - 1);
    let (mant, e2) = if biased == 0 { (frac, -1074) } else { (frac | (1 << 52), biased - 1075) };
    if e2 < 0 && a >= 1e-5 {
        if let Some((m, s)) = shortest_fixed(mant, (-e2) as u32) {
            push_scaled(out, &u64_str(m), s);
            return;
        }
    }
    push_exact(out, mant, e2);
}

/// The shortest `m * 10^-s` that reads back as `mant * 2^-k` (`k` at most
/// 69, so that every product below fits in 128 bits): for each `s` from 0,
/// the nearest `m`, accepted when it lies within half the gap between
/// doubles (a quarter, to be safe, below a power of two, where the gap
/// below is half the gap above).
fn shortest_fixed(mant: u64, k: u32) -> Option<(u64, u32)> {
    if k > 69 {
        return None;
    }
    let one = 1u128 << k;
    let tight = mant == 1 << 52;
    let mut p10: u128 = 1;
    for s in 0..=22u32 {
        let p = mant as u128 * p10;
        let (q, r) = (p >> k, p & (one - 1));
        let (m, dist) = if r * 2 >= one { (q + 1, one - r) } else { (q, r) };
        let within = if tight { dist * 4 < p10 } else { dist * 2 < p10 };
        if within {
            return u64::try_from(m).ok().map(|m| (m, s));
        }
        p10 *= 10;
    }
    None
}

/// Writes the integer `digits` with the decimal point `s` places from the
/// right (zeros added in front as needed, trailing zeros of the fraction
/// left out).
fn push_scaled(out: &mut String, digits: &str, s: u32) {
    let s = s as usize;
    if s == 0 {
        out.push_str(digits);
        return;
    }
    let padded;
    let digits = if digits.len() <= s {
        padded = cat!(&"0".repeat(s + 1 - digits.len()), digits);
        padded.as_str()
    } else {
        digits
    };
    let (int, frac) = digits.split_at(digits.len() - s);
    out.push_str(int);
    let frac = frac.trim_end_matches('0');
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
}

/// Writes `mant * 2^e2` exactly: a base-10^9 number doubled `e2` times, or
/// multiplied by 5 `-e2` times with the point moved as many places
/// (`2^-k = 5^k / 10^k`).
fn push_exact(out: &mut String, mant: u64, e2: i32) {
    let mut limbs: Vec<u32> =
        vec![(mant % 1_000_000_000) as u32, (mant / 1_000_000_000 % 1_000_000_000) as u32, (mant / 1_000_000_000_000_000_000) as u32];
    let (factor, times) = if e2 >= 0 { (2u64, e2 as u32) } else { (5u64, e2.unsigned_abs()) };
    for _ in 0..times {
        let mut carry = 0u64;
        for l in limbs.iter_mut() {
            let v = *l as u64 * factor + carry;
            *l = (v % 1_000_000_000) as u32;
            carry = v / 1_000_000_000;
        }
        if carry > 0 {
            limbs.push(carry as u32);
        }
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut digits = String::new();
    for (i, l) in limbs.iter().rev().enumerate() {
        let part = u64_str(*l as u64);
        if i > 0 {
            digits.push_str(&"0".repeat(9 - part.len()));
        }
        digits.push_str(&part);
    }
    push_scaled(out, &digits, if e2 >= 0 { 0 } else { e2.unsigned_abs() });
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                out.push_str("\\u00");
                crate::encode::push_hex(out, &[c as u8]);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
