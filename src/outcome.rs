//! Wallet results to the normalized `PayResult`: each wallet's answer
//! mapped to a status and the wallet's own code ([`Mapped`]), from which the
//! run builds the result ([`PayResult::new`]).
//!
//! A client-side result is a hint: `verified` is false until the merchant's
//! server confirms it. The wallet's own code is kept untouched in `code`.

use crate::json::Json;
use crate::prelude::*;
use crate::profile::Profile;

pub use crate::status::Status;

/// A normalized result (without `raw`, which the edge attaches: it is the
/// wallet's own JavaScript value).
#[derive(Clone, Debug, PartialEq)]
pub struct PayResult {
    pub status: Status,
    pub channel: String,
    pub verified: bool,
    pub code: Option<String>,
    pub message: String,
}

impl PayResult {
    pub fn new(status: Status, channel: &str, code: Option<String>) -> PayResult {
        PayResult { status, channel: own(channel), verified: false, code, message: own(status.message()) }
    }

    /// The result as JSON; the wasm edge writes the same members, in this
    /// order, onto the page's object (`web/protocol.rs`).
    pub fn to_json(&self) -> Json {
        let mut m = Vec::new();
        Json::put_str(&mut m, "status", self.status.as_str());
        Json::put_str(&mut m, "channel", &self.channel);
        Json::put(&mut m, "verified", Json::Bool(self.verified));
        if let Some(c) = &self.code {
            Json::put_str(&mut m, "code", c);
        }
        Json::put_str(&mut m, "message", &self.message);
        Json::Obj(crate::json::list(m))
    }
}

/// A code that may arrive as a string or as a whole number.
fn code_text(v: Option<Json>) -> Option<String> {
    match v? {
        Json::Str(s) => Some(s),
        Json::Num(n) => crate::json::whole(n).map(crate::error::u64_str),
        _ => None,
    }
}

/// A member that is a string.
fn text(v: Option<Json>) -> Option<String> {
    match v? {
        Json::Str(s) => Some(s),
        _ => None,
    }
}

/// A wallet's answer mapped: the status, and the wallet's own code kept
/// untouched (a [`PayResult`]'s `status` and `code`).
pub type Mapped = (Status, Option<String>);

/// wallet1's trade-pay callback (`{ resultCode }`), from the bridge or from
/// the mini-program's `success` callback. Each mapping reads the members
/// it names through `member` (the answer's member of that name, read alone;
/// `None`, or `Some(Json::Null)`, where it is absent or cannot be read,
/// which every mapping takes alike), and only those, as it needs them: a
/// member the mapping does not come to is not read at all.
pub fn wallet1_result(profile: &Profile, member: &dyn Fn(&str) -> Option<Json>) -> Mapped {
    let code = code_text(member("resultCode"));
    let status = match &code {
        Some(c) => profile.wallet1_status(c),
        None => Status::Failed,
    };
    (status, code)
}

/// wallet1's mini-program `fail` callback: `{ error, errorMessage }`, or a
/// `resultCode`. The code (`resultCode`, else `error`) maps through the
/// profile as from `success`, but a fail is never a success: a fail that
/// names the paid code is `pending`, for the merchant to say. A code the
/// profile does not list is a cancel when `errorMessage` says so, else a
/// failure.
pub fn wallet1_fail(profile: &Profile, member: &dyn Fn(&str) -> Option<Json>) -> Mapped {
    let code = code_text(member("resultCode")).or_else(|| code_text(member("error")));
    let status = match code.as_deref().and_then(|c| profile.wallet1_code(c)) {
        Some(Status::Succeeded) => Status::Pending,
        Some(s) => s,
        None if contains_cancel(&text(member("errorMessage")).unwrap_or_default()) => Status::Cancelled,
        None => Status::Failed,
    };
    (status, code)
}

/// wallet2's bridge callback: `{ err_msg }`, ending in `:ok` or `:cancel`.
pub fn wallet2_bridge_result(member: &dyn Fn(&str) -> Option<Json>) -> Mapped {
    let msg = text(member("err_msg"));
    let status = match msg.as_deref() {
        Some(m) if m.ends_with(":ok") => Status::Succeeded,
        Some(m) if m.ends_with(":cancel") => Status::Cancelled,
        _ => Status::Failed,
    };
    (status, msg)
}

/// Which callback of wallet2's mini-program `requestPayment` fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callback {
    Success,
    Fail,
    /// `complete` with no `success` or `fail` before it (older runtimes
    /// report a cancel this way).
    CompleteOnly,
}

/// wallet2's mini-program payment callbacks: `{ errMsg }`.
pub fn wallet2_mini_result(which: Callback, member: &dyn Fn(&str) -> Option<Json>) -> Mapped {
    let msg = text(member("errMsg"));
    let text = msg.as_deref().unwrap_or("");
    let status = match which {
        Callback::Success => Status::Succeeded,
        Callback::Fail | Callback::CompleteOnly if contains_cancel(text) => Status::Cancelled,
        Callback::CompleteOnly if text.ends_with(":ok") => Status::Succeeded,
        _ => Status::Failed,
    };
    (status, msg)
}

fn contains_cancel(s: &str) -> bool {
    s.as_bytes().windows(6).any(|w| w.eq_ignore_ascii_case(b"cancel"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;
    use crate::Code;

    /// The members of the answer `t` (JSON text), as the edge reads them.
    fn j(t: &str) -> impl Fn(&str) -> Option<Json> {
        let answer = parse(t, Code::InvalidResponse, "answer").unwrap();
        move |k| answer.get(k).cloned()
    }

    #[test]
    fn wallet1_codes_map_through_the_profile() {
        let p = Profile::default();
        for (code, st) in [
            (r#""9000""#, Status::Succeeded),
            (r#""8000""#, Status::Pending),
            (r#""6004""#, Status::Pending),
            (r#""6001""#, Status::Cancelled),
            (r#""6002""#, Status::Failed),
            (r#""4000""#, Status::Failed),
            (r#""5000""#, Status::Failed),
            (r#""4""#, Status::Failed),
            (r#""99""#, Status::Cancelled),
            ("9000", Status::Succeeded),
            ("99", Status::Cancelled),
        ] {
            let (status, c) = wallet1_result(&p, &j(&["{\"resultCode\":", code, "}"].concat()));
            assert_eq!(status, st, "{code}");
            assert_eq!(c.as_deref(), Some(code.trim_matches('"')));
            assert!(!PayResult::new(status, "wallet1_pub", c).verified);
        }
        assert_eq!(wallet1_result(&p, &j("{}")).0, Status::Failed);
    }

    #[test]
    fn wallet2_err_msg() {
        for (m, st) in [
            ("brand_pay_request:ok", Status::Succeeded),
            ("brand_pay_request:cancel", Status::Cancelled),
            ("brand_pay_request:fail", Status::Failed),
            ("ok", Status::Failed),
        ] {
            let (status, code) = wallet2_bridge_result(&j(&["{\"err_msg\":\"", m, "\"}"].concat()));
            assert_eq!((status, code.as_deref()), (st, Some(m)));
        }
    }

    #[test]
    fn mini_program_callbacks() {
        let cancel = j(r#"{"errMsg":"requestPayment:fail cancel"}"#);
        assert_eq!(wallet2_mini_result(Callback::Fail, &cancel).0, Status::Cancelled);
        assert_eq!(wallet2_mini_result(Callback::CompleteOnly, &cancel).0, Status::Cancelled);
        let fail = j(r#"{"errMsg":"requestPayment:fail (detail message)"}"#);
        assert_eq!(wallet2_mini_result(Callback::Fail, &fail).0, Status::Failed);
        let ok = j(r#"{"errMsg":"requestPayment:ok"}"#);
        assert_eq!(wallet2_mini_result(Callback::Success, &ok).0, Status::Succeeded);
        let p = Profile::default();
        assert_eq!(wallet1_fail(&p, &j(r#"{"error":6001,"errorMessage":"user cancel"}"#)).0, Status::Cancelled);
        let f = wallet1_fail(&p, &j(r#"{"error":4000,"errorMessage":"system busy"}"#));
        assert_eq!((f.0, f.1.as_deref()), (Status::Failed, Some("4000")));
        // A resultCode in fail maps as in success; a fail is never a success.
        let f = wallet1_fail(&p, &j(r#"{"resultCode":"6001"}"#));
        assert_eq!((f.0, f.1.as_deref()), (Status::Cancelled, Some("6001")));
        assert_eq!(wallet1_fail(&p, &j(r#"{"resultCode":8000}"#)).0, Status::Pending);
        // A fail naming the paid code: only the merchant knows.
        let f = wallet1_fail(&p, &j(r#"{"resultCode":"9000"}"#));
        assert_eq!((f.0, f.1.as_deref()), (Status::Pending, Some("9000")));
        // The error code maps through the same table: a result still
        // unknown or processing is pending, never failed.
        for (answer, status, code) in [
            (r#"{"error":6004,"errorMessage":"result unknown"}"#, Status::Pending, "6004"),
            (r#"{"error":"8000"}"#, Status::Pending, "8000"),
            (r#"{"error":9000}"#, Status::Pending, "9000"),
            (r#"{"error":99}"#, Status::Cancelled, "99"),
            (r#"{"error":4,"errorMessage":"no permission"}"#, Status::Failed, "4"),
            (r#"{"error":6002}"#, Status::Failed, "6002"),
            (r#"{"error":3,"errorMessage":"unknown error"}"#, Status::Failed, "3"),
            (r#"{"error":11,"errorMessage":"user cancelled"}"#, Status::Cancelled, "11"),
        ] {
            let f = wallet1_fail(&p, &j(answer));
            assert_eq!((f.0, f.1.as_deref()), (status, Some(code)), "{answer}");
        }
        // A profile's own table decides a listed code, as from success.
        let mut q = Profile::default();
        q.result_codes = vec![("6004".into(), Status::Failed)];
        assert_eq!(wallet1_fail(&q, &j(r#"{"error":6004}"#)).0, Status::Failed);
        assert_eq!(wallet1_fail(&q, &j(r#"{"error":8000,"errorMessage":"cancel"}"#)).0, Status::Cancelled);
    }
}
