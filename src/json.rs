//! A small JSON value: what every input of the module is decoded from.
//!
//! Objects keep their keys in order (and keep keys the module does not read),
//! so nothing a caller passes is lost. The wasm edge builds a [`Json`] by
//! walking a JavaScript value (`web/convert.rs`); host code parses text with
//! [`parse`]; with the `serde` feature any serde format can produce one.
//! Keeping this type in the core rather than serde-derived structs is what
//! keeps the wasm build small (see the README's size section).

use crate::error::{cat, u64_str, Code, PayError};
use crate::prelude::*;

/// How deep arrays and objects may nest before input is refused.
pub const MAX_DEPTH: usize = 64;
/// The longest text [`parse`] accepts (bytes).
pub const MAX_TEXT: usize = 1 << 20;

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// The value under `key` of an object (the last one when a key repeats,
    /// as `JSON.parse` does).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_obj(&self) -> Option<&[(String, Json)]> {
        match self {
            Json::Obj(m) => Some(m),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// A word for the kind of value, for messages ("a number", "an array").
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Num(_) => "a number",
            Json::Str(_) => "a string",
            Json::Arr(_) => "an array",
            Json::Obj(_) => "an object",
        }
    }

    /// Builds an object from pairs.
    pub fn obj(pairs: Vec<(&str, Json)>) -> Json {
        Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    pub fn str(s: &str) -> Json {
        Json::Str(s.to_string())
    }

    /// True when arrays and objects nest deeper than `limit` levels.
    pub fn deeper_than(&self, limit: usize) -> bool {
        match self {
            Json::Arr(a) => limit == 0 || a.iter().any(|x| x.deeper_than(limit - 1)),
            Json::Obj(m) => limit == 0 || m.iter().any(|(_, x)| x.deeper_than(limit - 1)),
            _ => false,
        }
    }

    /// Writes the value as compact JSON text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        write_value(self, &mut out);
        out
    }
}

fn write_value(v: &Json, out: &mut String) {
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
/// would add about 10 KB gzipped to the wasm build.
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
        padded = cat(&[&"0".repeat(s + 1 - digits.len()), digits]);
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

/// `n` as a whole number when it is one, at least 0 and below 2^53 (what a
/// JSON number can hold exactly); `None` otherwise. (`f64::fract` is not
/// in `core`.)
pub fn whole(n: f64) -> Option<u64> {
    if (0.0..9.007_199_254_740_992e15).contains(&n) && (n as u64) as f64 == n {
        Some(n as u64)
    } else {
        None
    }
}

/// Parses JSON text. `what` names the input in error messages; errors carry
/// `code` (the caller decides which code bad text is: `invalid_payment` for a
/// payment, `invalid_response` for an envelope). The wasm build hands the
/// text to the platform's `JSON.parse` (then reads the value with the same
/// limits as any JavaScript input); host builds use the parser below.
pub fn parse(text: &str, code: Code, what: &str) -> Result<Json, PayError> {
    if text.len() > MAX_TEXT {
        return Err(PayError::field(code, what, cat(&[what, " is longer than 1 MiB of JSON text"])));
    }
    #[cfg(target_arch = "wasm32")]
    return crate::web::convert::parse_text(text, code, what);
    #[cfg(not(target_arch = "wasm32"))]
    parse_here(text, code, what)
}

#[cfg(not(target_arch = "wasm32"))]
fn parse_here(text: &str, code: Code, what: &str) -> Result<Json, PayError> {
    let mut p = Parser { s: text.as_bytes(), i: 0 };
    let fail = |at: &str| PayError::field(code, what, cat(&[what, " is not valid JSON text (", at, ")"]));
    p.ws();
    let v = p.value(0).map_err(fail)?;
    p.ws();
    if p.i != p.s.len() {
        return Err(fail("unexpected text after the value"));
    }
    Ok(v)
}

#[cfg(not(target_arch = "wasm32"))]
struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

#[cfg(not(target_arch = "wasm32"))]
type PResult<T> = Result<T, &'static str>;

#[cfg(not(target_arch = "wasm32"))]
impl Parser<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn lit(&mut self, word: &[u8], v: Json) -> PResult<Json> {
        if self.s[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(v)
        } else {
            Err("unknown word")
        }
    }

    fn value(&mut self, depth: usize) -> PResult<Json> {
        if depth > MAX_DEPTH {
            return Err("nested deeper than 64 levels");
        }
        match self.peek() {
            None => Err("ends too early"),
            Some(b'n') => self.lit(b"null", Json::Null),
            Some(b't') => self.lit(b"true", Json::Bool(true)),
            Some(b'f') => self.lit(b"false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.peek() == Some(b']') {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    self.ws();
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(items));
                        }
                        _ => return Err("expected , or ] in an array"),
                    }
                }
            }
            Some(b'{') => {
                self.i += 1;
                let mut members = Vec::new();
                self.ws();
                if self.peek() == Some(b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(members));
                }
                loop {
                    self.ws();
                    if self.peek() != Some(b'"') {
                        return Err("expected a quoted key");
                    }
                    let k = self.string()?;
                    self.ws();
                    if self.peek() != Some(b':') {
                        return Err("expected : after a key");
                    }
                    self.i += 1;
                    self.ws();
                    let v = self.value(depth + 1)?;
                    members.push((k, v));
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Obj(members));
                        }
                        _ => return Err("expected , or } in an object"),
                    }
                }
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err("unexpected character"),
        }
    }

    fn hex4(&mut self) -> PResult<u32> {
        let mut n = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err("bad \\u escape"),
            };
            n = n * 16 + d as u32;
            self.i += 1;
        }
        Ok(n)
    }

    fn string(&mut self) -> PResult<String> {
        self.i += 1; // opening quote
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(c) = self.peek() {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            // The input is a &str and we stopped on ASCII, so this slice is
            // valid UTF-8.
            out.push_str(core::str::from_utf8(&self.s[start..self.i]).map_err(|_| "bad UTF-8")?);
            match self.peek() {
                None => return Err("unterminated string"),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let e = self.peek().ok_or("unterminated string")?;
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi) {
                                if self.s.get(self.i) != Some(&b'\\') || self.s.get(self.i + 1) != Some(&b'u') {
                                    return Err("lone surrogate");
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err("lone surrogate");
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            out.push(char::from_u32(c).ok_or("lone surrogate")?);
                        }
                        _ => return Err("bad escape"),
                    }
                }
                Some(_) => return Err("control character in a string"),
            }
        }
    }

    /// Numbers: exact for integers up to 2^53 and for decimals with at most
    /// 15 significant digits (Clinger's fast path); others are close.
    fn number(&mut self) -> PResult<Json> {
        let neg = self.peek() == Some(b'-');
        if neg {
            self.i += 1;
        }
        let mut mant: u64 = 0;
        let mut digits = 0u32;
        let mut exp: i32 = 0;
        let int_start = self.i;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            if digits < 19 {
                mant = mant * 10 + (c - b'0') as u64;
                if mant != 0 {
                    digits += 1;
                }
            } else {
                exp += 1;
            }
            self.i += 1;
        }
        let int_len = self.i - int_start;
        if int_len == 0 || (int_len > 1 && self.s[int_start] == b'0') {
            return Err("bad number");
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            let frac_start = self.i;
            while let Some(c @ b'0'..=b'9') = self.peek() {
                if digits < 19 {
                    mant = mant * 10 + (c - b'0') as u64;
                    if mant != 0 {
                        digits += 1;
                    }
                    exp -= 1;
                }
                self.i += 1;
            }
            if self.i == frac_start {
                return Err("bad number");
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            let eneg = match self.peek() {
                Some(b'-') => {
                    self.i += 1;
                    true
                }
                Some(b'+') => {
                    self.i += 1;
                    false
                }
                _ => false,
            };
            let start = self.i;
            let mut e: i32 = 0;
            while let Some(c @ b'0'..=b'9') = self.peek() {
                e = (e * 10 + (c - b'0') as i32).min(100_000);
                self.i += 1;
            }
            if self.i == start {
                return Err("bad number");
            }
            exp += if eneg { -e } else { e };
        }
        if mant == 0 {
            // Zero with any exponent (`0e400` would be 0 times infinity).
            return Ok(Json::Num(if neg { -0.0 } else { 0.0 }));
        }
        let mut v = mant as f64;
        if exp > 0 {
            v *= pow10(exp);
        } else if exp < 0 {
            // Dividing by an exact power of ten is correctly rounded up to 1e22.
            if exp >= -22 {
                v /= pow10(-exp);
            } else {
                v /= pow10(22);
                v /= pow10(-exp - 22);
            }
        }
        if !v.is_finite() {
            // Beyond f64 (`1e400`): `JSON.parse` gives Infinity, which the
            // wasm edge reads as null, as `to_text` writes it.
            return Ok(Json::Null);
        }
        Ok(Json::Num(if neg { -v } else { v }))
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn pow10(e: i32) -> f64 {
    let mut r = 1.0f64;
    let mut i = 0;
    while i < e && r.is_finite() {
        r *= 10.0;
        i += 1;
    }
    r
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::Json;
    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
    use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

    impl<'de> Deserialize<'de> for Json {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Json;
                fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                    f.write_str("any JSON value")
                }
                fn visit_unit<E>(self) -> Result<Json, E> {
                    Ok(Json::Null)
                }
                fn visit_none<E>(self) -> Result<Json, E> {
                    Ok(Json::Null)
                }
                fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
                    Json::deserialize(d)
                }
                fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
                    Ok(Json::Bool(b))
                }
                fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
                    Ok(Json::Num(n as f64))
                }
                fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
                    Ok(Json::Num(n as f64))
                }
                fn visit_f64<E>(self, n: f64) -> Result<Json, E> {
                    Ok(Json::Num(n))
                }
                fn visit_str<E>(self, s: &str) -> Result<Json, E> {
                    Ok(Json::Str(s.to_string()))
                }
                fn visit_string<E>(self, s: String) -> Result<Json, E> {
                    Ok(Json::Str(s))
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                    let mut v = Vec::new();
                    while let Some(x) = a.next_element()? {
                        v.push(x);
                    }
                    Ok(Json::Arr(v))
                }
                fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                    let mut v = Vec::new();
                    while let Some((k, x)) = a.next_entry::<String, Json>()? {
                        v.push((k, x));
                    }
                    Ok(Json::Obj(v))
                }
            }
            d.deserialize_any(V)
        }
    }

    impl Serialize for Json {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                Json::Null => s.serialize_unit(),
                Json::Bool(b) => s.serialize_bool(*b),
                Json::Num(n) => s.serialize_f64(*n),
                Json::Str(x) => s.serialize_str(x),
                Json::Arr(a) => {
                    let mut q = s.serialize_seq(Some(a.len()))?;
                    for x in a {
                        q.serialize_element(x)?;
                    }
                    q.end()
                }
                Json::Obj(m) => {
                    let mut q = s.serialize_map(Some(m.len()))?;
                    for (k, x) in m {
                        q.serialize_entry(k, x)?;
                    }
                    q.end()
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(t: &str) -> Json {
        parse(t, Code::InvalidPayment, "payment").unwrap()
    }

    #[test]
    fn parses_values() {
        assert_eq!(p(" null "), Json::Null);
        assert_eq!(p("[1, -2.5, 1e3, true]"), Json::Arr(vec![Json::Num(1.0), Json::Num(-2.5), Json::Num(1000.0), Json::Bool(true)]));
        assert_eq!(p(r#"{"a":"x\u00e9\ud83d\ude00\n","a":2}"#).get("a"), Some(&Json::Num(2.0)));
        assert_eq!(p(r#""\u00e9\ud83d\ude00""#), Json::str("é😀"));
        assert_eq!(p("0.1"), Json::Num(0.1));
        assert_eq!(p("1700000000"), Json::Num(1_700_000_000.0));
        // Zero stays zero whatever its exponent; beyond f64 is null.
        assert_eq!(p("[0e400,-0E+999,0.0e309,1e400,-1e400,1e-400]"), p("[0,-0,0,null,null,0]"));
        assert_eq!(p("123456789897.2010132010131122212202e8790"), Json::Null);
    }

    #[test]
    fn refuses_bad_text() {
        for bad in ["", "{", "[1,]", "01", "1.", "\"\\x\"", "nul", "{\"a\" 1}", "\"\\ud800\"", "1 2", "\"a\u{1}\""] {
            let e = parse(bad, Code::InvalidPayment, "payment").unwrap_err();
            assert_eq!(e.code, Code::InvalidPayment, "{bad}");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(parse(&deep, Code::InvalidPayment, "payment").is_err());
    }

    fn num(n: f64) -> String {
        Json::Num(n).to_text()
    }

    #[test]
    fn writes_numbers_without_the_float_formatter() {
        for (n, text) in [
            (0.1, "0.1"),
            (88.5, "88.5"),
            (-2.5, "-2.5"),
            (1.1, "1.1"),
            (60.25, "60.25"),
            (0.30000000000000004, "0.30000000000000004"),
            (123456.789, "123456.789"),
            (0.00001, "0.00001"),
            (4503599627370495.5, "4503599627370495.5"),
            (-0.0, "0"),
            (9007199254740993.0, "9007199254740992"),
            (1e21, "1000000000000000000000"),
            (1152921504606846976.0, "1152921504606846976"),
            (f64::NAN, "null"),
            (f64::INFINITY, "null"),
        ] {
            assert_eq!(num(n), text, "{n:?}");
        }
        // Tiny values come out exact: long, but the same double.
        for n in [1e-7, 5e-324, f64::MIN_POSITIVE, 1.5e-300] {
            let t = num(n);
            assert_eq!(t.parse::<f64>().unwrap(), n, "{t}");
            assert!(t.starts_with("0.0000"), "{t}");
        }
        assert_eq!(num(f64::MAX).parse::<f64>().unwrap(), f64::MAX);
    }

    proptest::proptest! {
        #[test]
        fn numbers_read_back_as_the_same_double(bits in proptest::prelude::any::<u64>()) {
            let n = f64::from_bits(bits);
            if !n.is_finite() || n == 0.0 {
                return Ok(());
            }
            let t = num(n);
            proptest::prop_assert_eq!(t.parse::<f64>().unwrap(), n, "{}", t);
            if (1e-5..9.007_199_254_740_992e15).contains(&n.abs()) {
                proptest::prop_assert_eq!(t, n.to_string());
            }
        }

        #[test]
        fn shortest_digits_over_the_plain_range(e in -16i32..53, m in 0u64..(1 << 52)) {
            // Every double from 2^-16 (above 1e-5) to 2^53.
            let n = f64::from_bits((((e + 1023) as u64) << 52) | m);
            proptest::prop_assert_eq!(num(n), n.to_string());
        }

        #[test]
        fn short_decimals_are_written_as_given(int in 0u64..10_000_000, frac in 0u64..100_000) {
            let text = cat(&[&u64_str(int), ".", &u64_str(frac)]);
            let n: f64 = text.parse().unwrap();
            proptest::prop_assert_eq!(num(n), n.to_string());
        }
    }

    #[test]
    fn writes_text_back() {
        let v = p(r#"{"a":[1,"x\"y",null,true],"b":{"c":-3}}"#);
        assert_eq!(v.to_text(), r#"{"a":[1,"x\"y",null,true],"b":{"c":-3}}"#);
        assert_eq!(p(&v.to_text()), v);
    }
}
