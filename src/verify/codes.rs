//! Return codes and the outcome state they give (the service document's
//! "States and transitions" and "Errors").
//!
//! `return_code` only says whether the call went through; `resp_code` is the
//! verification result. The state of an outcome comes from both:
//!
//! | return_code | resp_code | state |
//! | --- | --- | --- |
//! | 10200, 10400, 20000 | 00 / 01 / 99 | consistent / inconsistent / exception |
//! | 10201, 20012 | | pending |
//! | 20011 | | not_found |
//! | 20010 | | failed |
//! | 10210, 10410, 9xxxx | | call_failed |
//!
//! Two rows the document does not give: a success code whose `resp_code`
//! is missing or not one of 00/01/99 gives `exception` (the answer holds no
//! usable result; `resp_code` is kept in the outcome as it came), and a code
//! outside the table gives `call_failed`, its code kept.

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

/// The state given by `return_code` and `resp_code` (see the module table).
pub fn state_of(return_code: &str, resp_code: Option<&str>) -> State {
    match return_code {
        CARD_OK | NAME_OK | QUERY_OK => match resp_code {
            Some("00") => State::Consistent,
            Some("01") => State::Inconsistent,
            _ => State::Exception,
        },
        CARD_ASYNC | QUERY_IN_PROGRESS => State::Pending,
        QUERY_NOT_FOUND => State::NotFound,
        QUERY_FAILED => State::Failed,
        _ => State::CallFailed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table() {
        for ok in [CARD_OK, NAME_OK, QUERY_OK] {
            assert_eq!(state_of(ok, Some("00")), State::Consistent);
            assert_eq!(state_of(ok, Some("01")), State::Inconsistent);
            assert_eq!(state_of(ok, Some("99")), State::Exception);
            assert_eq!(state_of(ok, None), State::Exception);
            assert_eq!(state_of(ok, Some("7")), State::Exception);
        }
        assert_eq!(state_of(CARD_ASYNC, None), State::Pending);
        assert_eq!(state_of(QUERY_IN_PROGRESS, Some("00")), State::Pending);
        assert_eq!(state_of(QUERY_NOT_FOUND, None), State::NotFound);
        assert_eq!(state_of(QUERY_FAILED, None), State::Failed);
        for bad in [CARD_FAILED, NAME_FAILED, PARAM_ERROR, SIGN_ERROR, NO_PERMISSION, REPEATED, TOO_FREQUENT, UNKNOWN, "90000", "12345", ""]
        {
            assert_eq!(state_of(bad, Some("00")), State::CallFailed, "{bad}");
        }
    }

    #[test]
    fn names() {
        assert_eq!(State::NotFound.as_str(), "not_found");
        assert_eq!(State::CallFailed.as_str(), "call_failed");
        assert!(!State::Pending.is_final());
        assert!(State::Failed.is_final());
    }
}
