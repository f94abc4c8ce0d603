//! The image-comparison score (`mp_ssim`, 0 to 100) and the threshold rule.
//!
//! The score arrives as text. It is read by hand rather than with
//! `str::parse::<f64>`, which would link the float parser into the wasm
//! build: at most 15 significant digits are read (more are cut), which is
//! exact for any score the service can mean.

use crate::error::{cat, Problem};
use crate::json::Json;

/// The example threshold of the service document.
pub const DEFAULT_THRESHOLD: f64 = 60.0;

/// The most significant digits read; the rest are cut.
const MAX_DIGITS: u32 = 15;

/// Reads a score written as decimal digits with an optional fraction
/// (`"85"`, `"85.5"`, `".5"`, `"85."`), surrounding spaces allowed. `None`
/// when it is not such a number or lies outside 0-100.
pub fn parse_score(s: &str) -> Option<f64> {
    read_number(s).filter(|v| in_range(*v))
}

/// The score's range, 0-100 (the document's `mp_ssim` limit).
fn in_range(v: f64) -> bool {
    (0.0..=100.0).contains(&v)
}

/// A number written as [`parse_score`] reads it, whatever its size (a
/// 16th integer digit is `None`).
fn read_number(s: &str) -> Option<f64> {
    let s = s.trim_matches(' ');
    let mut mant: u64 = 0;
    let mut digits = 0u32;
    let mut scale = 0u32;
    let mut seen_digit = false;
    let mut seen_dot = false;
    for b in s.bytes() {
        match b {
            b'0'..=b'9' => {
                seen_digit = true;
                let significant = mant != 0 || b != b'0';
                if digits < MAX_DIGITS {
                    mant = mant * 10 + (b - b'0') as u64;
                    if significant {
                        digits += 1;
                    }
                    if seen_dot {
                        scale += 1;
                    }
                } else if !seen_dot {
                    // A 16th integer digit: far beyond 100 anyway.
                    return None;
                }
            }
            b'.' if !seen_dot => seen_dot = true,
            _ => return None,
        }
    }
    if !seen_digit {
        return None;
    }
    let mut v = mant as f64;
    if scale > 0 {
        let mut p = 1.0f64;
        for _ in 0..scale {
            p *= 10.0;
        }
        v /= p;
    }
    Some(v)
}

/// The score held by an `mp_ssim` value: text as [`parse_score`] reads it,
/// or a number within 0-100.
pub fn score_of(v: &Json) -> Option<f64> {
    match v {
        Json::Str(s) => parse_score(s),
        Json::Num(n) if in_range(*n) => Some(*n),
        _ => None,
    }
}

/// What is wrong with an `mp_ssim` value that gives no score: `range` for
/// a number outside 0-100, `format` for anything else that is not one.
/// `None` for a score, and for an absent value (`null`, empty text).
pub fn score_problem(v: &Json) -> Option<Problem> {
    let number = match v {
        Json::Null => return None,
        Json::Str(s) if s.is_empty() => return None,
        // A negative number written as text is a number outside the range,
        // as a negative JSON number is.
        Json::Str(s) => match s.trim_matches(' ').strip_prefix('-') {
            Some(rest) => read_number(rest).map(|n| -n),
            None => read_number(s),
        },
        Json::Num(n) => Some(*n).filter(|n| !n.is_nan()),
        _ => None,
    };
    let (code, why) = match number {
        Some(n) if in_range(n) => return None,
        Some(_) => ("range", "is outside 0-100"),
        None => ("format", "is not a number"),
    };
    let shown = match v {
        Json::Str(s) => crate::safe_url::clip(s).into(),
        other => other.to_text(),
    };
    Some(Problem {
        field: "mp_ssim".into(),
        code,
        message: cat!("mp_ssim ", &shown, " ", why, " (a comparison score is 0-100): no score is given"),
    })
}

/// True when `score` is greater than `threshold` (the service's rule; pass
/// [`DEFAULT_THRESHOLD`] for its example value) and within 0-100. A score
/// equal to the threshold does not pass; NaN or a score outside 0-100
/// never does.
pub fn passes_threshold(score: f64, threshold: f64) -> bool {
    in_range(score) && score > threshold
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_scores() {
        assert_eq!(parse_score("85"), Some(85.0));
        assert_eq!(parse_score("85.5"), Some(85.5));
        assert_eq!(parse_score(" 60.00 "), Some(60.0));
        assert_eq!(parse_score("0"), Some(0.0));
        assert_eq!(parse_score("100"), Some(100.0));
        assert_eq!(parse_score(".5"), Some(0.5));
        assert_eq!(parse_score("7."), Some(7.0));
        assert_eq!(parse_score("0.1"), Some(0.1));
        assert_eq!(parse_score("99.99"), Some(99.99));
        assert_eq!(parse_score("000060.5"), Some(60.5));
        // More digits than are read: cut, not refused.
        assert_eq!(parse_score("12.3456789012345678901"), Some(12.3456789012345));
    }

    #[test]
    fn refuses_non_scores() {
        for bad in ["", " ", ".", "-1", "+5", "100.01", "1e2", "8 5", "85..", "1.2.3", "abc", "NaN", "inf", "1234567890123456789"] {
            assert_eq!(parse_score(bad), None, "{bad}");
        }
    }

    #[test]
    fn json_values() {
        assert_eq!(score_of(&Json::str("72.5")), Some(72.5));
        assert_eq!(score_of(&Json::Num(72.5)), Some(72.5));
        assert_eq!(score_of(&Json::Num(101.0)), None);
        assert_eq!(score_of(&Json::Num(f64::NAN)), None);
        assert_eq!(score_of(&Json::Null), None);
    }

    #[test]
    fn threshold() {
        assert!(passes_threshold(60.5, DEFAULT_THRESHOLD));
        assert!(!passes_threshold(60.0, DEFAULT_THRESHOLD));
        assert!(!passes_threshold(59.9, DEFAULT_THRESHOLD));
        assert!(passes_threshold(50.0, 40.0));
        assert!(!passes_threshold(f64::NAN, 0.0));
        // mp_ssim range 0-100 (the document's Limits): a score outside it
        // passes no threshold.
        assert!(!passes_threshold(150.0, DEFAULT_THRESHOLD));
        assert!(!passes_threshold(100.5, DEFAULT_THRESHOLD));
        assert!(!passes_threshold(-1.0, -5.0));
        assert!(passes_threshold(100.0, DEFAULT_THRESHOLD));
    }

    #[test]
    fn problems_of_non_scores() {
        let code = |v: Json| score_problem(&v).map(|p| (p.field, p.code));
        assert_eq!(code(Json::str("150")), Some(("mp_ssim".into(), "range")));
        assert_eq!(code(Json::Num(-3.0)), Some(("mp_ssim".into(), "range")));
        assert_eq!(code(Json::str("-1")), Some(("mp_ssim".into(), "range")));
        assert_eq!(code(Json::str("--1")), Some(("mp_ssim".into(), "format")));
        assert_eq!(code(Json::str("high")), Some(("mp_ssim".into(), "format")));
        assert_eq!(code(Json::Bool(true)), Some(("mp_ssim".into(), "format")));
        for fine in [Json::str("60.5"), Json::Num(0.0), Json::str(""), Json::Null] {
            assert_eq!(score_problem(&fine), None);
        }
        let p = score_problem(&Json::str("150")).unwrap();
        assert_eq!(p.message, "mp_ssim 150 is outside 0-100 (a comparison score is 0-100): no score is given");
    }
}
