//! Return codes and the outcome state they give (the service document's
//! "States and transitions" and "Errors").
//!
//! `return_code` only says whether the call went through; `resp_code` is the
//! verification result. A return code is five digits: the first three name
//! the interface (102 bank-card verification, 104 ID-card verification, 200
//! result query), the last two the message, `00`-`09` success and `10`-`99`
//! failure; codes beginning with 9 are common to every interface,
//! `90000`-`90009` success and the rest errors. The state of an outcome
//! comes from the code read by that structure, for the interface called:
//!
//! | return_code | resp_code | state |
//! | --- | --- | --- |
//! | 10201 (bank card), 20012 (result query) | | pending |
//! | 20011 (result query) | | not_found |
//! | 20010 (result query) | | failed |
//! | the interface's `xxx00`-`xxx09` (10200, 10400, 20000 among them), `90000`-`90009` | 00 / 01 / 99 | consistent / inconsistent / exception |
//! | the interface's `xxx10`-`xxx99` (10210, 10410 among them), `90010`-`99999` (90101-90199 among them) | | call_failed |
//! | another interface's code (a 10200 answering a namecheck) | | call_failed, [`foreign`] naming both |
//! | anything but five digits, or a leading 0 | | call_failed |
//!
//! The listed codes keep their own meaning before the structure is read
//! (10201 is a success code that awaits its result; 20010-20012 are failure
//! codes that report a state). The client acts on two more of them, which
//! stay `call_failed` when they end a call: 90105 (too frequent) is sent
//! again after a delay, and a check that got no answer is recovered with a
//! result query rather than sent again (the service would answer 90104).
//!
//! Two rows the document does not give: a success code whose `resp_code`
//! is missing or not one of 00/01/99 gives `exception` (the answer holds no
//! usable result; `resp_code` is kept in the outcome as it came), and a code
//! that is not five digits gives `call_failed`, its code kept.

use crate::error::cat;
use crate::prelude::*;

/// Bank-card verification: request succeeded.
pub const CARD_OK: &str = "10200";
/// Bank-card verification: request succeeded, asynchronous result awaited.
pub const CARD_ASYNC: &str = "10201";
/// Bank-card verification: request failed.
pub const CARD_FAILED: &str = "10210";
/// ID-card verification: request succeeded.
pub const NAME_OK: &str = "10400";
/// ID-card verification: request failed.
pub const NAME_FAILED: &str = "10410";
/// Result query: request succeeded.
pub const QUERY_OK: &str = "20000";
/// Result query: verification failed.
pub const QUERY_FAILED: &str = "20010";
/// Result query: verification record not found.
pub const QUERY_NOT_FOUND: &str = "20011";
/// Result query: verification in progress.
pub const QUERY_IN_PROGRESS: &str = "20012";
/// Parameter error.
pub const PARAM_ERROR: &str = "90101";
/// Signature verification error.
pub const SIGN_ERROR: &str = "90102";
/// No permission to use the interface.
pub const NO_PERMISSION: &str = "90103";
/// Repeated request.
pub const REPEATED: &str = "90104";
/// Operation too frequent: back off and retry.
pub const TOO_FREQUENT: &str = "90105";
/// Unknown reason.
pub const UNKNOWN: &str = "90199";

/// The state of a verification outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    Consistent,
    Inconsistent,
    Exception,
    Pending,
    NotFound,
    Failed,
    CallFailed,
}

impl State {
    /// The state as JavaScript callers see it.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Consistent => "consistent",
            State::Inconsistent => "inconsistent",
            State::Exception => "exception",
            State::Pending => "pending",
            State::NotFound => "not_found",
            State::Failed => "failed",
            State::CallFailed => "call_failed",
        }
    }

    /// True for every state but `pending`: nothing will change by waiting.
    pub fn is_final(self) -> bool {
        self != State::Pending
    }
}

/// The interface a return code belongs to: the three interfaces of the
/// authentication API, by their number in the service document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interface {
    /// 102: `cardcheck`.
    CardCheck,
    /// 104: `namecheck`.
    NameCheck,
    /// 200: `checkresult`.
    CheckResult,
}

impl Interface {
    /// The interface's three digits.
    pub fn number(self) -> &'static str {
        match self {
            Interface::CardCheck => "102",
            Interface::NameCheck => "104",
            Interface::CheckResult => "200",
        }
    }

    /// The interface's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Interface::CardCheck => "bank-card verification",
            Interface::NameCheck => "ID-card verification",
            Interface::CheckResult => "result query",
        }
    }

    /// The interface whose number `code` begins with, if one of the three.
    pub fn of_code(code: &str) -> Option<Interface> {
        [Interface::CardCheck, Interface::NameCheck, Interface::CheckResult].into_iter().find(|i| code.get(..3) == Some(i.number()))
    }
}

/// `code` is five ASCII digits.
fn five_digits(code: &str) -> bool {
    code.len() == 5 && code.bytes().all(|b| b.is_ascii_digit())
}

/// When `code` is an interface's own code (leading digit 1 to 8) and that
/// interface is not `called`: the explanation of the `call_failed` it
/// gives, naming both.
pub fn foreign(called: Interface, code: &str) -> Option<String> {
    if !five_digits(code) || matches!(code.as_bytes()[0], b'0' | b'9') || code.get(..3) == Some(called.number()) {
        return None;
    }
    let theirs = match Interface::of_code(code) {
        Some(i) => cat!(i.number(), " (", i.name(), ")"),
        None => cat!(&code[..3]),
    };
    Some(cat!(
        "return_code ",
        code,
        " is a code of interface ",
        &theirs,
        ", not of interface ",
        called.number(),
        " (",
        called.name(),
        "), the one called: the answer is not this call's"
    ))
}

/// The state given by `return_code` and `resp_code` for an answer of the
/// interface `called` (see the module table).
pub fn state_of(called: Interface, return_code: &str, resp_code: Option<&str>) -> State {
    let from_resp = || match resp_code {
        Some("00") => State::Consistent,
        Some("01") => State::Inconsistent,
        _ => State::Exception,
    };
    match (called, return_code) {
        (Interface::CardCheck, CARD_ASYNC) | (Interface::CheckResult, QUERY_IN_PROGRESS) => return State::Pending,
        (Interface::CheckResult, QUERY_NOT_FOUND) => return State::NotFound,
        (Interface::CheckResult, QUERY_FAILED) => return State::Failed,
        _ => {}
    }
    if !five_digits(return_code) {
        return State::CallFailed;
    }
    let b = return_code.as_bytes();
    let success = b[3] == b'0';
    let own = match b[0] {
        b'9' => b[1] == b'0' && b[2] == b'0',
        b'0' => false,
        _ => return_code.get(..3) == Some(called.number()),
    };
    if own && success {
        from_resp()
    } else {
        State::CallFailed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use Interface::{CardCheck as CARD, CheckResult as QUERY, NameCheck as NAME};

    #[test]
    fn listed_codes() {
        for (i, ok) in [(CARD, CARD_OK), (NAME, NAME_OK), (QUERY, QUERY_OK)] {
            assert_eq!(state_of(i, ok, Some("00")), State::Consistent);
            assert_eq!(state_of(i, ok, Some("01")), State::Inconsistent);
            assert_eq!(state_of(i, ok, Some("99")), State::Exception);
            assert_eq!(state_of(i, ok, None), State::Exception);
            assert_eq!(state_of(i, ok, Some("7")), State::Exception);
        }
        assert_eq!(state_of(CARD, CARD_ASYNC, None), State::Pending);
        assert_eq!(state_of(QUERY, QUERY_IN_PROGRESS, Some("00")), State::Pending);
        assert_eq!(state_of(QUERY, QUERY_NOT_FOUND, None), State::NotFound);
        assert_eq!(state_of(QUERY, QUERY_FAILED, None), State::Failed);
        for i in [CARD, NAME, QUERY] {
            for bad in [PARAM_ERROR, SIGN_ERROR, NO_PERMISSION, REPEATED, TOO_FREQUENT, UNKNOWN, "12345", "", "1020", "102000", "1020a"] {
                assert_eq!(state_of(i, bad, Some("00")), State::CallFailed, "{bad}");
            }
        }
        assert_eq!(state_of(CARD, CARD_FAILED, Some("00")), State::CallFailed);
        assert_eq!(state_of(NAME, NAME_FAILED, Some("00")), State::CallFailed);
    }

    #[test]
    fn success_by_structure() {
        for (i, codes) in [(CARD, ["10202", "10209"]), (NAME, ["10401", "10409"]), (QUERY, ["20001", "20009"])] {
            for code in codes.into_iter().chain(["90000", "90005", "90009"]) {
                assert_eq!(state_of(i, code, Some("00")), State::Consistent, "{code}");
                assert_eq!(state_of(i, code, Some("01")), State::Inconsistent, "{code}");
                assert_eq!(state_of(i, code, None), State::Exception, "{code}");
                assert_eq!(foreign(i, code), None, "{code}");
            }
        }
    }

    #[test]
    fn failure_by_structure() {
        for (i, codes) in [(CARD, ["10211", "10299"]), (NAME, ["10420", "10499"]), (QUERY, ["20013", "20099"])] {
            for code in codes.into_iter().chain(["90010", "90099", "90100", "91099", "99999"]) {
                assert_eq!(state_of(i, code, Some("00")), State::CallFailed, "{code}");
                assert_eq!(foreign(i, code), None, "{code}");
            }
        }
        // A leading 0 names no interface.
        assert_eq!(state_of(CARD, "00000", Some("00")), State::CallFailed);
        assert_eq!(foreign(CARD, "00000"), None);
    }

    #[test]
    fn another_interfaces_code() {
        for (i, code, theirs) in [
            (NAME, CARD_OK, "interface 102 (bank-card verification)"),
            (CARD, NAME_OK, "interface 104 (ID-card verification)"),
            (CARD, QUERY_OK, "interface 200 (result query)"),
            (QUERY, CARD_ASYNC, "interface 102 (bank-card verification)"),
            (NAME, CARD_ASYNC, "interface 102 (bank-card verification)"),
            (CARD, QUERY_IN_PROGRESS, "interface 200 (result query)"),
            (NAME, QUERY_NOT_FOUND, "interface 200 (result query)"),
            (CARD, QUERY_FAILED, "interface 200 (result query)"),
            (QUERY, "30000", "interface 300,"),
        ] {
            assert_eq!(state_of(i, code, Some("00")), State::CallFailed, "{code} to {i:?}");
            let m = foreign(i, code).unwrap();
            assert!(m.contains(theirs), "{m}");
            assert!(m.contains(&cat!("not of interface ", i.number(), " (", i.name(), ")")), "{m}");
            assert!(m.starts_with(&cat!("return_code ", code)), "{m}");
        }
        assert_eq!(Interface::of_code("10400"), Some(NAME));
        assert_eq!(Interface::of_code("90000"), None);
    }

    #[test]
    fn names() {
        assert_eq!(State::NotFound.as_str(), "not_found");
        assert_eq!(State::CallFailed.as_str(), "call_failed");
        assert!(!State::Pending.is_final());
        assert!(State::Failed.is_final());
    }
}
