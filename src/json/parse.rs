//! The crate's own JSON text parser, for host builds (the wasm builds
//! read text with the platform's `JSON.parse`: `json_text.rs`). Strict: the
//! same limits on depth and size as any input.

use super::{Json, MAX_DEPTH, MAX_TEXT};
use crate::error::{cat, Code, PayError};
use crate::prelude::*;

/// Parses JSON text with the crate's own parser (host builds; the wasm
/// builds read text with the platform's `JSON.parse`, see
/// [`crate::json_text::parse`], which every caller uses). `what` names the
/// input in error messages; errors carry `code`.
pub fn parse(text: &str, code: Code, what: &str) -> Result<Json, PayError> {
    if text.len() > MAX_TEXT {
        return Err(super::too_long(code, what));
    }
    parse_here(text, code, what)
}

fn parse_here(text: &str, code: Code, what: &str) -> Result<Json, PayError> {
    let mut p = Parser { s: text.as_bytes(), i: 0 };
    let fail = |at: &str| PayError::field(code, what, cat!(what, " is not valid JSON text (", at, ")"));
    p.ws();
    let v = p.value(0).map_err(fail)?;
    p.ws();
    if p.i != p.s.len() {
        return Err(fail("unexpected text after the value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

type PResult<T> = Result<T, &'static str>;

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
                    return Ok(Json::Arr(crate::json::list(items)));
                }
                loop {
                    self.ws();
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(crate::json::list(items)));
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
                    return Ok(Json::Obj(crate::json::list(members)));
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
                            return Ok(Json::Obj(crate::json::list(members)));
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

    /// Numbers: the text checked against JSON's grammar, then read by the
    /// core library's parser, which rounds correctly (so a number written
    /// by `to_text`, the shortest text that reads back as its double, reads
    /// back as that double).
    fn number(&mut self) -> PResult<Json> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        let int_start = self.i;
        self.digits();
        let int_len = self.i - int_start;
        if int_len == 0 || (int_len > 1 && self.s[int_start] == b'0') {
            return Err("bad number");
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return Err("bad number");
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'-' | b'+') = self.peek() {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err("bad number");
            }
        }
        // ASCII digits, signs, `.` and `e` only: valid UTF-8 and Rust's
        // float syntax.
        let v: f64 = core::str::from_utf8(&self.s[start..self.i]).ok().and_then(|t| t.parse().ok()).ok_or("bad number")?;
        if !v.is_finite() {
            // Beyond f64 (`1e400`): `JSON.parse` gives Infinity, which the
            // wasm edge reads as null, as `to_text` writes it.
            return Ok(Json::Null);
        }
        Ok(Json::Num(v))
    }

    /// Skips ASCII digits; how many.
    fn digits(&mut self) -> usize {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
        self.i - start
    }
}
