//! The one error type of the module and its stable codes.
//!
//! Every failure a caller can see is a [`PayError`]: a [`Code`] from the
//! table of the README ("Errors"; `ErrorCode` in `www/lib/index.d.ts`), a
//! plain-words message that names the field at fault,
//! and the dotted path of that field where one field is to blame. The
//! JavaScript `PayError` class is built from this in `web/error.rs`.
//!
//! Messages are assembled with `cat!` rather than `format!`: the wasm build
//! stays free of the formatting machinery.

use crate::prelude::*;

/// Declares [`Code`]: each member with the string JavaScript callers see,
/// `as_str`, and `ALL`, every code, which `tests/names.rs` checks against
/// `ErrorCode` in `www/lib/index.d.ts` and the README's table ("Errors").
macro_rules! codes {
    ($($(#[$m:meta])* $v:ident = $s:literal,)*) => {
        /// The stable error codes (the README, "Errors").
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $($(#[$m])* $v,)*
        }

        impl Code {
            /// Every code, in its order of declaration.
            pub const ALL: &'static [Code] = &[$(Code::$v,)*];

            /// The code as JavaScript callers see it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$v => $s,)*
                }
            }
        }
    };
}

codes! {
    NotReady = "not_ready",
    InvalidPayment = "invalid_payment",
    UnsupportedChannel = "unsupported_channel",
    UnsafeUrl = "unsafe_url",
    InvalidOptions = "invalid_options",
    WrongRuntime = "wrong_runtime",
    BridgeTimeout = "bridge_timeout",
    Busy = "busy",
    InvalidRequest = "invalid_request",
    InvalidResponse = "invalid_response",
    BadSignature = "bad_signature",
    Transport = "transport",
    /// A wallet bridge, a hook or the platform threw; the original error is
    /// kept as the cause by the JavaScript edge.
    BridgeError = "bridge_error",
    /// The merchant's `confirm` hook failed or did not answer in time.
    ConfirmFailed = "confirm_failed",
    /// An authorization callback does not match what was sent (state
    /// mismatch) or reports a failure.
    AuthFailed = "auth_failed",
    /// A card-network `userAuthCode` older than its five-minute validity.
    AuthExpired = "auth_expired",
    /// An authorization callback this tab has already taken (Back, reload,
    /// Forward): its code is not sent again.
    AuthUsed = "auth_used",
    /// The authentication client's `sign`, `verify` or `encrypt` hook threw,
    /// rejected or outlived `timeoutMs` ([`crate::perform::hooks`]).
    HookFailed = "hook_failed",
}

/// One problem found by a validator that reports every problem at once
/// (`validateCardCheck`, `validateNameCheck`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub field: String,
    /// A short machine-readable reason: `required`, `length`, `format`,
    /// `check_digit`, `luhn`, `enum`, `factors`, ...
    pub code: &'static str,
    pub message: String,
}

/// The error every fallible call of the module returns: one pointer wide,
/// its fields ([`PayErrorData`]) behind a box and read through it
/// (`e.code`, `e.message`), the shape of `serde_json::Error`. A `Result` of
/// the module is then a word or two where the fields held inline made each
/// one larger than the fields' pointer that every `?` and return copied
/// (tests/bench/README.md).
#[derive(Clone, PartialEq, Eq)]
pub struct PayError(Box<PayErrorData>);

impl PayError {
    /// The fields, out of the box (to move them).
    pub fn into_data(self) -> PayErrorData {
        *self.0
    }
}

impl core::ops::Deref for PayError {
    type Target = PayErrorData;
    fn deref(&self) -> &PayErrorData {
        &self.0
    }
}

impl core::ops::DerefMut for PayError {
    fn deref_mut(&mut self) -> &mut PayErrorData {
        &mut self.0
    }
}

impl core::fmt::Debug for PayError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}

/// What a [`PayError`] holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PayErrorData {
    pub code: Code,
    pub message: String,
    /// Dotted path of the input field at fault (`pay_info.paySign`).
    pub field: Option<String>,
    /// Every problem, for `invalid_request`.
    pub details: Vec<Problem>,
    /// A card-network callback's `respCode` other than `00`
    /// (`auth_failed`), so that a page can branch on it.
    pub resp_code: Option<String>,
}

impl PayError {
    #[inline]
    pub fn new(code: Code, message: impl Message) -> PayError {
        PayError::make(code, None, message.into_message())
    }

    /// An error blamed on one field; `message` should already name it.
    #[inline]
    pub fn field(code: Code, field: &str, message: impl Message) -> PayError {
        PayError::make(code, Some(field), message.into_message())
    }

    /// What `new` and `field` inline into: one body for every kind of
    /// message, smaller in the payment module than a body a kind.
    fn make(code: Code, field: Option<&str>, message: String) -> PayError {
        PayError(Box::new(PayErrorData { code, message, field: field.map(own), details: Vec::new(), resp_code: None }))
    }

    pub fn with_details(mut self, details: Vec<Problem>) -> PayError {
        self.details = details;
        self
    }

    pub fn code_str(&self) -> &'static str {
        self.code.as_str()
    }
}

impl core::fmt::Display for PayError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.code.as_str())?;
        f.write_str(": ")?;
        f.write_str(&self.message)
    }
}

impl core::error::Error for PayError {}

/// Whether this build words the errors of bad input itself. The browser's
/// payment module does not: what it refuses before a wallet is called
/// (payment, options, profile, URLs) is refused with its code, its field
/// and a short message naming both, and the shim has the full module, which
/// runs the same checks, word it (the edge's `__explain`, `src/web/`). The
/// sentences are then in one module, fetched only when an input is bad,
/// not on the path of every payment (README, "Errors").
pub(crate) const WORDED: bool = !crate::PAYMENT_MODULE;

/// `words!(a, b, ...)`: an input error's message, [`cat!`] where the build
/// words its errors ([`WORDED`]), else empty, and then none of its parts is
/// in the build.
macro_rules! words {
    ($a:expr $(,)?) => {
        if $crate::error::WORDED {
            $crate::prelude::own($a)
        } else {
            $crate::prelude::String::new()
        }
    };
    ($($p:expr),+ $(,)?) => {
        if $crate::error::WORDED {
            $crate::error::cat!($($p),+)
        } else {
            $crate::prelude::String::new()
        }
    };
}
pub(crate) use words;

/// `why!("...")`: the reason part of an input error's message: the text
/// where the build words its errors ([`WORDED`]), else empty.
macro_rules! why {
    ($s:expr) => {
        if $crate::error::WORDED {
            $s
        } else {
            ""
        }
    };
}
pub(crate) use why;

/// `cat!(a, b, ...)`: the parts (`&str`) in one string, without the
/// formatting machinery. One body ([`cat3`]) takes the first three parts
/// (two parts: the third empty); more are pushed after them, one by one at
/// the call site. An array of the parts built on the stack at each call
/// site, and one body for each count of parts (two to six), each made the
/// payment module larger.
macro_rules! cat {
    ($a:expr $(,)?) => {
        $crate::prelude::own($a)
    };
    ($a:expr, $b:expr $(,)?) => {
        $crate::error::cat3($a, $b, "")
    };
    ($a:expr, $b:expr, $c:expr $(,)?) => {
        $crate::error::cat3($a, $b, $c)
    };
    ($a:expr, $b:expr, $c:expr, $($p:expr),+ $(,)?) => {{
        let mut s = $crate::error::cat3($a, $b, $c);
        $(s.push_str($p);)+
        s
    }};
}
pub(crate) use cat;

/// Three parts in one string (`cat!`, which gives two parts with an empty
/// third): the first copied as every `String` of a `&str` is, the others
/// pushed onto it.
pub fn cat3(a: &str, b: &str, c: &str) -> String {
    let mut s = own(a);
    s.push_str(b);
    s.push_str(c);
    s
}

/// An input refused: an error of `code` blamed on `field`, its message
/// `message` (made by [`words!`]) where the build words its errors
/// ([`WORDED`]). Where it does not, `message` is empty and unused: every
/// refusal site is then one call with its code and field, and one body
/// ([`unworded`]) makes the message that names them.
#[inline]
pub(crate) fn refuse(code: Code, field: &str, message: String) -> PayError {
    if WORDED {
        PayError::field(code, field, message)
    } else {
        unworded(code, field)
    }
}

/// The error of a refused input in a build that does not word them
/// ([`refuse`]): `"<field> is not valid (<code>)"`. Cold: a refusal is
/// the path a payment does not take, laid out after the ones it does.
#[cold]
#[inline(never)]
fn unworded(code: Code, field: &str) -> PayError {
    PayError::field(code, field, cat!(field, " is not valid (", code.as_str(), ")"))
}

/// An `invalid_options` error: the option `field` and why it is refused
/// (`"timeoutMs"`, `"must be ..."`). Every check of the options and the
/// profile ends in this one body rather than a copy of it at each
/// refusal.
#[inline(never)]
pub(crate) fn bad_option(field: &str, why: &str) -> PayError {
    blame(Code::InvalidOptions, field, why)
}

/// An error of `code` blamed on `field`, its message the field and why
/// (`"code"`, `"is missing"`): the one body of [`bad_option`] and of the
/// authorization helpers' refusals.
#[inline(never)]
pub(crate) fn blame(code: Code, field: &str, why: &str) -> PayError {
    refuse(code, field, words!(field, " ", why))
}

/// Whether `s` holds a control character (Unicode `Cc`: U+0000 to U+001F
/// and U+007F to U+009F), read off its UTF-8 bytes: the same answer as
/// `s.chars().any(char::is_control)` without decoding `char`s, whose
/// decoder the browser entry then leaves out.
pub fn has_control(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter().enumerate().any(|(i, &c)| c < 0x20 || c == 0x7f || (c == 0xc2 && matches!(b.get(i + 1), Some(0x80..=0x9f))))
}

/// Whether every byte of `b` is an ASCII letter or digit or one of
/// `extra`: the one walk of the identifiers, tokens and ids that the
/// profile, the options and the helpers check.
#[inline(never)]
pub fn word(b: &[u8], extra: &[u8]) -> bool {
    b.iter().all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
}

/// Writes an unsigned integer in decimal (no formatting machinery).
pub fn push_u64(out: &mut String, n: u64) {
    // Highest power of ten in `n` first: no buffer, so no index to check.
    let mut d = 1u64;
    while n / d >= 10 {
        d *= 10;
    }
    loop {
        crate::encode::push_ascii(out, b'0' + (n / d % 10) as u8);
        if d == 1 {
            break;
        }
        d /= 10;
    }
}

/// `n` in decimal.
pub fn u64_str(n: u64) -> String {
    let mut s = String::new();
    push_u64(&mut s, n);
    s
}

pub type Result<T> = core::result::Result<T, PayError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_control_agrees_with_char_is_control_on_every_char() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let mut s = String::from("a");
            s.push(c);
            s.push('b');
            assert_eq!(has_control(&s), c.is_control(), "U+{:04X}", c as u32);
        }
        // A C2 lead byte at the very end of a check is never read past.
        assert!(!has_control("\u{a0}"));
        assert!(has_control("x\u{9f}"));
    }

    #[test]
    fn word_is_ascii_letters_digits_and_the_extra_bytes() {
        for b in 0..=255u8 {
            assert_eq!(word(&[b], b"_$"), b.is_ascii_alphanumeric() || b == b'_' || b == b'$', "{b}");
        }
        assert!(word(b"", b"") && word(b"aZ09", b"") && !word(b"a-b", b"_") && !word("é".as_bytes(), b""));
    }

    #[test]
    fn decimal_writer() {
        assert_eq!(u64_str(0), "0");
        assert_eq!(u64_str(10000007), "10000007");
        assert_eq!(u64_str(u64::MAX), "18446744073709551615");
    }

    #[test]
    fn display_names_code_and_message() {
        let e = PayError::field(Code::InvalidPayment, "pay_info", "pay_info is missing");
        assert_eq!(e.to_string(), "invalid_payment: pay_info is missing");
        assert_eq!(e.field.as_deref(), Some("pay_info"));
    }
}
