//! A small JSON value: what every input of the module is decoded from.
//!
//! Objects keep their keys in order (and keep keys the module does not read),
//! so nothing a caller passes is lost. The wasm edge builds a [`Json`] by
//! walking a JavaScript value (`web/convert.rs`); host code parses text with
//! `parse` (`parse.rs`); with the `serde` feature any serde format can
//! produce one (`serde_impl.rs`). [`Json::to_text`] writes it (`write.rs`).
//! Keeping this type in the core rather than serde-derived structs is what
//! keeps the wasm build small (tests/bench/README.md, "The hand-made
//! pieces").

use crate::error::{Code, PayError};
use crate::prelude::*;

/// `json_obj!{ "a" => x, "b" => y }`: the object `{ a: x, b: y }`, built
/// member by member with [`Json::put`]. A `vec!` of pairs handed to
/// [`Json::obj`] costs a boxed array, its moves and a loop at every call
/// site, which the payment module pays for in bytes.
macro_rules! json_obj {
    ($($k:expr => $v:expr),* $(,)?) => {{
        #[allow(unused_mut)]
        let mut m = $crate::prelude::Vec::new();
        $($crate::json::Json::put(&mut m, $k, $v);)*
        $crate::json::Json::Obj($crate::json::list(m))
    }};
}
pub(crate) use json_obj;

/// How deep arrays and objects may nest before input is refused.
pub const MAX_DEPTH: usize = 64;
/// The longest text `parse` accepts (bytes).
pub const MAX_TEXT: usize = 1 << 20;

/// The list of an array's elements or of an object's members: its heap's
/// ([`crate::bump::heap::List`]), so that a tree is dropped element by
/// element exactly where the heap frees.
pub use crate::bump::heap::{list, List};

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(List<Json>),
    Obj(List<(String, Json)>),
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

    /// The value under `key`, to change or take ([`Json::get`]'s).
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Obj(m) => m.iter_mut().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value under `key` unless it is absent or `null`, which the
    /// readers of input take alike: one body for each of their reads.
    #[inline(never)]
    pub fn given(&self, key: &str) -> Option<&Json> {
        self.get(key).filter(|v| !v.is_null())
    }

    /// Takes the member `key` out of an object (the one [`Json::get`]
    /// finds), leaving `Null` in its place; `Null` when there is none.
    pub fn take(&mut self, key: &str) -> Json {
        self.get_mut(key).map_or(Json::Null, |v| core::mem::replace(v, Json::Null))
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

    /// Builds an object from pairs: for tests and host code only. The
    /// module's own objects are built member by member ([`Json::put`],
    /// `json_obj!`, which says why).
    pub fn obj(pairs: Vec<(&str, Json)>) -> Json {
        let mut m = Vec::with_capacity(pairs.len());
        for (k, v) in pairs {
            Json::put(&mut m, k, v);
        }
        Json::Obj(crate::json::list(m))
    }

    /// Adds the member `k` to the members `m`.
    pub fn put(m: &mut Vec<(String, Json)>, k: &str, v: Json) {
        m.push((own(k), v));
    }

    /// Adds the string member `k`: `v` copied. One body for the string
    /// members the crate writes (a plan's, a result's, a plan's parameters,
    /// the bridge call's and the events' details).
    #[inline(never)]
    pub fn put_str(m: &mut Vec<(String, Json)>, k: &str, v: &str) {
        Json::put(m, k, Json::str(v));
    }

    /// An object of string members (a plan's parameters).
    pub fn str_obj(pairs: &[(&str, String)]) -> Json {
        let mut m = Vec::new();
        for (k, v) in pairs {
            Json::put_str(&mut m, k, v);
        }
        Json::Obj(crate::json::list(m))
    }

    pub fn str(s: &str) -> Json {
        Json::Str(own(s))
    }

    /// True when a value sits more than `limit` levels below this one: the
    /// rule of the text parser and of the JavaScript walker, where the value
    /// given is at depth 0 and nothing may sit deeper than [`MAX_DEPTH`] (so
    /// an empty array may sit at depth 64, and no element below it).
    pub fn deeper_than(&self, limit: usize) -> bool {
        let below = |x: &Json| limit == 0 || x.deeper_than(limit - 1);
        match self {
            Json::Arr(a) => a.iter().any(below),
            Json::Obj(m) => m.iter().any(|(_, x)| below(x)),
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

/// The error for JSON text over [`MAX_TEXT`].
pub fn too_long(code: Code, what: &str) -> PayError {
    crate::error::refuse(code, what, crate::error::words!(what, " is longer than 1 MiB of JSON text"))
}

#[cfg(not(target_arch = "wasm32"))]
mod parse;
#[cfg(feature = "serde")]
mod serde_impl;
mod write;

#[cfg(not(target_arch = "wasm32"))]
pub use parse::parse;
use write::write_value;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{cat, u64_str};

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
    fn given_is_get_with_null_as_absent() {
        let v = p(r#"{"a":1,"b":null,"c":2,"c":null,"d":null,"d":"x"}"#);
        assert_eq!(v.given("a"), Some(&Json::Num(1.0)));
        assert_eq!((v.given("b"), v.given("c"), v.given("none")), (None, None, None));
        assert_eq!(v.given("d"), Some(&Json::str("x")));
        assert_eq!(Json::Num(1.0).given("a"), None);
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
            let text = cat!(&u64_str(int), ".", &u64_str(frac));
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
