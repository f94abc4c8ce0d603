//! The authentication client's rules of the service document, driven
//! without a network: return codes read by their structure for the
//! interface called, the `paths` option, the fields sent encrypted, the
//! fail-closed `verify` rule, `serviceDate` and the list items of a record.

use paybridge::json::{self, Json};
use paybridge::verify::codes::Interface;
use paybridge::verify::config::{check_verify, is_loopback, Paths, VerifyOption};
use paybridge::verify::request::{CARD_CHECK_PATH, CHECK_RESULT_PATH, V4_CHECK_RESULT_PATH};
use paybridge::verify::{encode_envelope, parse_notification, Call, Config, Event, Operation, Outcome, Request, State, Step};
use paybridge::{Code, PayError};

mod common;
use common::echo_order;

const TOKEN: &str = "sandbox-app-token-0000000000000000000000";
const NOW: f64 = 1_704_040_205_042.0;

fn j(text: &str) -> Json {
    json::parse(text, Code::InvalidRequest, "test").unwrap()
}

fn card() -> Json {
    j(r#"{"full_name":"张三","acct_no":"4111111111111111","source_channel":"0"}"#)
}

fn credit_card() -> Json {
    j(r#"{"full_name":"张三","acct_no":"4111111111111111","source_channel":"0","card_type":"C","valid_date":"1229","cvv2":"123"}"#)
}

fn person() -> Json {
    j(r#"{"full_name":"张三","id_number":"440524188001010014","source_channel":"0"}"#)
}

#[derive(Default)]
struct Log {
    encrypted: Vec<(String, String)>,
    signed: Vec<Vec<(String, String)>>,
    sent: Vec<Request>,
}

/// Runs `call` to its end: encrypts as `enc(<value>)`, signs with a fixed
/// signature, answers every request with `answer(request)` (`None`: no
/// answer), unsigned.
fn run(mut call: Call, mut answer: impl FnMut(&Request) -> Option<(u16, String)>) -> (Result<Outcome, PayError>, Log) {
    let mut log = Log::default();
    let mut event = Event::Start;
    for _ in 0..50 {
        event = match call.next(event) {
            Step::NeedEncrypt(fields) => {
                assert!(log.signed.is_empty(), "encrypted before anything is signed");
                let out = fields.iter().map(|(_, v)| format!("enc({v})")).collect();
                log.encrypted.extend(fields);
                Event::Encrypted(out)
            }
            Step::NeedSign(params) => {
                log.signed.push(params);
                Event::Signed("sig".into())
            }
            Step::Send(req) => {
                let a = answer(&req).map(|a| echoed(&req, a));
                log.sent.push(req);
                match a {
                    Some((status, body)) => Event::Response { status, body },
                    None => Event::NoAnswer,
                }
            }
            Step::NeedVerify { .. } => Event::Verified(true),
            Step::Sleep(_) => Event::Slept,
            Step::Done(r) => return (r, log),
        };
    }
    panic!("the call did not end");
}

fn config() -> Config {
    Config::new(TOKEN, "test", 3, 10).unwrap()
}

/// An answer as the service writes it: the `data` of an enveloped answer
/// echoes the request's order ([`common::echo_order`]); a bare answer goes
/// as written.
fn echoed(req: &Request, (status, body): (u16, String)) -> (u16, String) {
    let Ok(env) = json::parse(&body, Code::InvalidRequest, "test") else { return (status, body) };
    let (Some(Json::Str(text)), Some(Json::Str(sig))) = (env.get("data"), env.get("signature")) else { return (status, body) };
    let Ok(d @ Json::Obj(_)) = json::parse(text, Code::InvalidRequest, "test") else { return (status, body) };
    (status, encode_envelope(&echo_order(req, d).to_text(), sig))
}

fn call(config: &Config, op: Operation, fields: Json) -> Call {
    Call::new(config, op, fields, false, NOW, [3; 16])
}

/// An answer carrying `pairs`, and `service_date` (required in every
/// answer that reports a state) unless they name it.
fn answer_with(pairs: &[(&str, &str)]) -> (u16, String) {
    let mut d: Vec<(&str, Json)> = pairs.iter().map(|(k, v)| (*k, Json::str(v))).collect();
    if !pairs.iter().any(|(k, _)| *k == "service_date") {
        d.push(("service_date", Json::str("20240101")));
    }
    let d = Json::obj(d);
    (200, encode_envelope(&d.to_text(), "sig"))
}

/// The outcome of `op` answered with `code` (and `resp_code` 00).
fn outcome(op: Operation, code: &str) -> Outcome {
    let fields = match op {
        Operation::CardCheck => card(),
        Operation::NameCheck => person(),
        _ => j(r#"{"seqId":"S-1"}"#),
    };
    let (r, log) = run(call(&config(), op, fields), |_| Some(answer_with(&[("return_code", code), ("resp_code", "00")])));
    assert_eq!(log.sent.len(), 1, "{code}");
    r.unwrap_or_else(|e| panic!("{code}: {e}"))
}

#[test]
fn every_class_of_return_code_for_every_interface() {
    use Operation::{CardCheck as CARD, CheckResult as QUERY, NameCheck as NAME};
    use State::*;
    let rows: &[(Operation, &str, State)] = &[
        // The interface's own success codes, listed or not, and the common ones.
        (CARD, "10200", Consistent),
        (CARD, "10202", Consistent),
        (CARD, "10209", Consistent),
        (NAME, "10400", Consistent),
        (NAME, "10403", Consistent),
        (QUERY, "20000", Consistent),
        (QUERY, "20005", Consistent),
        (CARD, "90000", Consistent),
        (NAME, "90009", Consistent),
        (QUERY, "90004", Consistent),
        // Listed codes keep their meaning.
        (CARD, "10201", Pending),
        (QUERY, "20012", Pending),
        (QUERY, "20011", NotFound),
        (QUERY, "20010", Failed),
        // The interface's own failures and the common errors.
        (CARD, "10210", CallFailed),
        (CARD, "10299", CallFailed),
        (NAME, "10410", CallFailed),
        (QUERY, "20013", CallFailed),
        (CARD, "90010", CallFailed),
        (NAME, "90101", CallFailed),
        (QUERY, "90199", CallFailed),
        (CARD, "91099", CallFailed),
        // Not five digits.
        (CARD, "1020", CallFailed),
        (QUERY, "2000x", CallFailed),
    ];
    for (op, code, state) in rows {
        let o = outcome(*op, code);
        assert_eq!(o.state, *state, "{code} answering {op:?}");
        assert_eq!(o.message, None, "{code} answering {op:?}: no other interface");
    }
}

#[test]
fn another_interfaces_code_is_call_failed_naming_both() {
    use Operation::{CardCheck as CARD, CheckResult as QUERY, NameCheck as NAME};
    for (op, code, ours, theirs) in [
        (NAME, "10200", "104", "102"),
        (NAME, "10201", "104", "102"),
        (CARD, "10400", "102", "104"),
        (CARD, "20000", "102", "200"),
        (CARD, "20012", "102", "200"),
        (QUERY, "10200", "200", "102"),
        (QUERY, "10400", "200", "104"),
        (NAME, "30000", "104", "300"),
    ] {
        let o = outcome(op, code);
        assert_eq!(o.state, State::CallFailed, "{code} answering {op:?}");
        let m = o.message.clone().unwrap_or_default();
        assert!(m.contains(&format!("interface {theirs}")) && m.contains(&format!("not of interface {ours}")), "{m}");
        assert_eq!(o.to_json().get("message").and_then(Json::as_str), Some(m.as_str()));
    }
}

#[test]
fn a_recovered_check_reads_the_result_querys_codes() {
    // The check gets no answer; the query by order_id that follows is an
    // interface 200 call, so its 20000 is a result, not another interface's.
    let mut first = true;
    let (r, log) = run(call(&config(), Operation::CardCheck, card()), |_| {
        if std::mem::take(&mut first) {
            None
        } else {
            Some(answer_with(&[("return_code", "20000"), ("resp_code", "01")]))
        }
    });
    let o = r.unwrap();
    assert_eq!((o.state, o.message), (State::Inconsistent, None));
    assert_eq!(log.sent.iter().map(|r| r.path.as_str()).collect::<Vec<_>>(), [CARD_CHECK_PATH, CHECK_RESULT_PATH]);
}

#[test]
fn paths_put_each_interface_where_the_caller_says() {
    let paths =
        Paths { card_check: "/gw/v4/cardcheck".into(), name_check: "/gw/v4/namecheck".into(), check_result: V4_CHECK_RESULT_PATH.into() };
    let c = config().with_paths(paths);
    let ok = |_: &Request| Some(answer_with(&[("return_code", "10200"), ("resp_code", "00")]));
    let (_, log) = run(call(&c, Operation::CardCheck, card()), ok);
    assert_eq!(log.sent[0].path, "/gw/v4/cardcheck");
    let (_, log) = run(call(&c, Operation::NameCheck, person()), |_| Some(answer_with(&[("return_code", "10400")])));
    assert_eq!(log.sent[0].path, "/gw/v4/namecheck");
    let (r, log) = run(call(&c, Operation::CheckResult, j(r#"{"seqId":"S"}"#)), |_| Some(answer_with(&[("return_code", "20000")])));
    assert_eq!((log.sent[0].method, log.sent[0].path.as_str()), ("GET", "/api/v4/checkresult"));
    assert_eq!(r.unwrap().state, State::Exception);
    // The recovery query of a lost check goes to the result-query path too.
    let (_, log) = run(call(&c, Operation::CardCheck, card()), |r| (r.method == "GET").then(|| answer_with(&[("return_code", "20012")])));
    assert_eq!(log.sent.iter().map(|r| r.path.as_str()).collect::<Vec<_>>(), ["/gw/v4/cardcheck", "/api/v4/checkresult"]);
}

#[test]
fn cvv2_is_encrypted_before_signing() {
    let c = config();
    let (r, log) = run(call(&c, Operation::CardCheck, credit_card()).encrypting(true), |_| {
        Some(answer_with(&[("return_code", "10200"), ("resp_code", "00")]))
    });
    assert_eq!(r.unwrap().state, State::Consistent);
    assert_eq!(log.encrypted, [("cvv2".to_string(), "123".to_string())]);
    let signed = &log.signed[0];
    assert!(signed.contains(&("cvv2".into(), "enc(123)".into())), "the signature covers the encrypted value");
    assert_eq!(log.sent[0].param("cvv2"), Some("enc(123)"));
    assert!(!log.sent[0].body.as_deref().unwrap().contains("cvv2=123"));
    // No cvv2: the hook is not called.
    let (_, log) = run(call(&c, Operation::CardCheck, card()).encrypting(true), |_| Some(answer_with(&[("return_code", "10200")])));
    assert!(log.encrypted.is_empty());
}

#[test]
fn cvv2_without_encrypt_goes_only_to_loopback() {
    let (r, log) = run(call(&config(), Operation::CardCheck, credit_card()), |_| panic!("nothing may be sent"));
    let e = r.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("encrypt")));
    assert!(log.sent.is_empty() && log.signed.is_empty());
    // The sandbox on loopback takes it as typed.
    let c = config().at_loopback(true);
    let (r, log) =
        run(call(&c, Operation::CardCheck, credit_card()), |_| Some(answer_with(&[("return_code", "10200"), ("resp_code", "00")])));
    assert!(r.is_ok());
    assert_eq!(log.sent[0].param("cvv2"), Some("123"));
}

#[test]
fn verify_fails_closed_away_from_loopback() {
    assert!(is_loopback("http://127.0.0.1:8080") && !is_loopback("https://auth.example.com"));
    let e = check_verify(is_loopback("https://auth.example.com"), VerifyOption::Absent).unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("verify")));
    assert_eq!(check_verify(false, VerifyOption::Off), Ok(false), "verify: false accepts answers unchecked, knowingly");
    assert_eq!(check_verify(true, VerifyOption::Absent), Ok(false), "the sandbox works without verify");
}

#[test]
fn service_date_and_list_items() {
    let (r, _) = run(call(&config(), Operation::CheckResult, j(r#"{"seqId":"S-1"}"#)), |_| {
        let d = j(
            r#"{"return_code":"20000","resp_code":"00","service_date":"20240101","file_list":[{"file_id":"f","file_source":"JVS"}],"face_identify_list":[{"personId":"p","fileId":"f","personName":"n","score":"80"}]}"#,
        );
        Some((200, encode_envelope(&d.to_text(), "sig")))
    });
    let o = r.unwrap();
    assert_eq!(o.state, State::Consistent, "a faulty list item does not throw");
    assert_eq!(o.service_date.as_deref(), Some("20240101"));
    let j = o.to_json();
    assert_eq!(j.get("serviceDate"), Some(&Json::str("20240101")));
    let fields: Vec<&str> = o.problems.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(fields, ["record.file_list[0].file_type"]);
    assert_eq!(o.problems[0].code, "required");
    // A notification's items are checked the same way.
    let n = parse_notification(&Json::str(
        "seq_id=S&order_id=o&return_code=10200&resp_code=00&resp_info=ok&full_name=A&service_date=20240102&face_identify_list=%5B%7B%22personId%22%3A%22p%22%7D%5D&sign=x",
    ))
    .unwrap();
    assert_eq!(n.outcome.service_date.as_deref(), Some("20240102"));
    assert_eq!(n.outcome.problems.len(), 3, "{:?}", n.outcome.problems);
    assert_eq!(Interface::of_code("10200"), Some(Interface::CardCheck));
}

#[test]
fn records_keep_proto_and_constructor_keys_as_members() {
    // What the edge turns into own properties (web/convert.rs `define`):
    // the core keeps every key as it came, from JSON and from form bodies.
    let (r, _) = run(call(&config(), Operation::CheckResult, j(r#"{"seqId":"S-1"}"#)), |_| {
        let d = r#"{"return_code":"20000","resp_code":"00","service_date":"20240101","__proto__":{"polluted":"yes"},"constructor":"c","file_list":[{"__proto__":{"x":1},"file_id":"f","file_type":"00","file_source":"JVS"}]}"#;
        Some((200, encode_envelope(d, "sig")))
    });
    let record = r.unwrap().record.unwrap();
    let keys: Vec<&str> = record.as_obj().unwrap().iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["return_code", "resp_code", "service_date", "__proto__", "constructor", "file_list", "order_id", "order_date"]);
    let item = &record.get("file_list").and_then(|l| if let Json::Arr(a) = l { a.first().cloned() } else { None }).unwrap();
    assert!(item.get("__proto__").is_some());
    let n = parse_notification(&Json::str(
        "seq_id=S&order_id=o&return_code=10200&resp_code=00&resp_info=r&full_name=A&__proto__=x&constructor=y&sign=s",
    ))
    .unwrap();
    let rec = n.outcome.record.unwrap();
    assert_eq!(rec.get("__proto__"), Some(&Json::str("x")));
    assert_eq!(rec.get("constructor"), Some(&Json::str("y")));
    assert!(n.sign_input.contains("__proto__=x"), "the signed input covers them too");
}

// ------------------------------------------- the document's rules, round 2

/// Every accepted `paths` entry, resolved by the WHATWG URL parser (the
/// `url` crate, as `fetch` resolves it), stays under `baseUrl`.
#[test]
fn accepted_paths_stay_under_base_url_once_parsed() {
    use paybridge::verify::config::check_path;
    let base = "https://gw.example.com/auth";
    let mut candidates: Vec<String> = vec![
        "/api/%2e%2e/%2e%2e/admin/checkresult".into(),
        "/api/.%2E/x".into(),
        "/api/%2E./x".into(),
        "/%2F%2Fevil.example/x".into(),
        "/api/%2e/x".into(),
        "/api/v4/checkresult".into(),
        "/api/..%2e/x".into(),
    ];
    let parts = ["", ".", "..", "%2e", "%2E", "%2e%2e", ".%2e", "%2e.", "%2f", "%2F", "%5c", "a", "%2e%2e%2e", "x%2e"];
    for a in parts {
        for b in parts {
            candidates.push(format!("/{a}/{b}/checkresult"));
            candidates.push(format!("/api/{a}{b}"));
        }
    }
    let mut accepted = 0;
    for path in &candidates {
        let Ok(p) = check_path("checkResult", path) else {
            let e = check_path("checkResult", path).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("paths.checkResult")), "{path}");
            continue;
        };
        accepted += 1;
        let u = url::Url::parse(&format!("{base}{p}")).unwrap();
        assert_eq!(u.host_str(), Some("gw.example.com"), "{path}");
        assert!(u.path().starts_with("/auth/"), "{path} resolves to {}", u.path());
        assert!(!u.path().to_ascii_lowercase().contains("%2f"), "{path}");
    }
    assert!(accepted > 20, "{accepted}");
    for bad in ["/api/%2e%2e/%2e%2e/admin/checkresult", "/api/.%2E/x", "/%2F%2Fevil.example/x"] {
        assert!(check_path("checkResult", bad).is_err(), "{bad}");
    }
}

#[test]
fn ipv6_loopback_is_loopback_and_no_other_ipv6_address() {
    use paybridge::verify::config::check_base_url;
    for yes in ["http://[::1]:18700", "http://localhost:1", "http://127.0.0.1"] {
        let b = check_base_url(yes).unwrap_or_else(|e| panic!("{yes}: {e}"));
        assert!(is_loopback(&b), "{yes}");
        assert_eq!(check_verify(is_loopback(&b), VerifyOption::Absent), Ok(false), "{yes} needs no verify");
    }
    for other in ["http://[::2]:18700", "http://[fe80::1]", "http://[::ffff:127.0.0.1]"] {
        assert!(!is_loopback(other), "{other}");
        assert_eq!(check_base_url(other).unwrap_err().field.as_deref(), Some("baseUrl"), "{other}");
    }
}

/// Drives `call` as `run` does, the `verify` hook answering `verdict`.
fn run_verifying(mut call: Call, verdict: bool, mut answer: impl FnMut(&Request) -> Option<(u16, String)>) -> Result<Outcome, PayError> {
    let mut event = Event::Start;
    for _ in 0..50 {
        event = match call.next(event) {
            Step::NeedEncrypt(f) => Event::Encrypted(f.iter().map(|(_, v)| v.clone()).collect()),
            Step::NeedSign(_) => Event::Signed("sig".into()),
            Step::Send(req) => match answer(&req).map(|a| echoed(&req, a)) {
                Some((status, body)) => Event::Response { status, body },
                None => Event::NoAnswer,
            },
            Step::NeedVerify { .. } => Event::Verified(verdict),
            Step::Sleep(_) => Event::Slept,
            Step::Done(r) => return r,
        };
    }
    panic!("the call did not end");
}

#[test]
fn bare_result_query_failures_are_states_even_with_verify() {
    // "The checkresult failure sample shows return_code and return_message
    // at top level, without the envelope."
    let query = || Call::new(&config(), Operation::CheckResult, j(r#"{"orderId":"o-1","orderDate":"20240101"}"#), true, NOW, [3; 16]);
    let bare = |code: &str| Some((400, format!(r#"{{"return_code":"{code}","return_message":"m"}}"#)));
    let o = run_verifying(query(), true, |_| bare("20011")).unwrap();
    assert_eq!((o.state, o.return_code.as_str()), (State::NotFound, "20011"));
    let o = run_verifying(query(), true, |_| bare("20010")).unwrap();
    assert_eq!(o.state, State::Failed);
    // A bare 20000 or 20012, a bare answer carrying resp_code, and a
    // signed answer the hook rejects stay bad_signature.
    for body in [
        r#"{"return_code":"20000","resp_code":"00","service_date":"20240101"}"#,
        r#"{"return_code":"20012","service_date":"20240101"}"#,
        r#"{"return_code":"20011","resp_code":"00"}"#,
        r#"{"return_code":"20010","mp_ssim":"99"}"#,
    ] {
        let e = run_verifying(query(), true, |_| Some((400, body.into()))).unwrap_err();
        assert_eq!(e.code, Code::BadSignature, "{body}");
    }
    let e = run_verifying(query(), false, |_| Some(answer_with(&[("return_code", "20011")]))).unwrap_err();
    assert_eq!(e.code, Code::BadSignature);
    // A lost check followed by bare 20011 answers ends not_found, asked
    // again within the budget first.
    let mut sent = 0;
    let check = Call::new(&config(), Operation::CardCheck, card(), true, NOW, [3; 16]);
    let o = run_verifying(check, true, |_| {
        sent += 1;
        if sent == 1 {
            None
        } else {
            bare("20011")
        }
    })
    .unwrap();
    assert_eq!(o.state, State::NotFound);
    assert_eq!(sent, 4, "the check, then three queries");
}

#[test]
fn required_fields_and_echoes_are_never_a_silent_success() {
    // "service_date | String | Y | Date at the authentication system."
    let d = Json::obj(vec![("return_code", Json::str("10200")), ("resp_code", Json::str("00"))]);
    let (r, _) = run(call(&config(), Operation::CardCheck, card()), |_| Some((200, encode_envelope(&d.to_text(), "s"))));
    let e = r.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (Code::InvalidResponse, Some("service_date")));
    // A failed call needs none: it dates nothing.
    let d = Json::obj(vec![("return_code", Json::str("90101"))]);
    let (r, _) = run(call(&config(), Operation::CardCheck, card()), |_| Some((400, encode_envelope(&d.to_text(), "s"))));
    assert_eq!(r.unwrap().state, State::CallFailed);
    // "order_date | String | Y | Echo of the request date."
    let mut fields = card();
    if let Json::Obj(m) = &mut fields {
        m.push(("order_date".into(), Json::str("20240101")));
    }
    let (r, _) = run(call(&config(), Operation::CardCheck, fields), |_| {
        Some(answer_with(&[("return_code", "10200"), ("resp_code", "00"), ("order_date", "19990101")]))
    });
    let e = r.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (Code::InvalidResponse, Some("order_date")));
    assert!(e.message.contains("19990101") && e.message.contains("20240101"), "{}", e.message);
    // A query by order_id without its date takes the record's date.
    let q = j(r#"{"orderId":"o-1"}"#);
    let (r, _) = run(call(&config(), Operation::CheckResult, q), |_| {
        Some(answer_with(&[("return_code", "20000"), ("resp_code", "00"), ("order_id", "o-1"), ("order_date", "19990101")]))
    });
    assert_eq!(r.unwrap().order_date, "19990101");
    // "The asynchronous result of cardcheck is described with resp_code
    // (Y), resp_info (Y), full_name (Y)."
    for (form, field) in [
        ("seq_id=S&order_id=o&return_code=10200&resp_code=00&resp_info=ok&sign=x", "full_name"),
        ("seq_id=S&order_id=o&return_code=10200&resp_code=00&full_name=A&sign=x", "resp_info"),
    ] {
        let e = parse_notification(&Json::str(form)).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (Code::InvalidResponse, Some(field)), "{form}");
    }
}

#[test]
fn scores_outside_0_to_100_are_problems_and_never_pass() {
    use paybridge::verify::passes_threshold;
    let (r, _) = run(call(&config(), Operation::CheckResult, j(r#"{"seqId":"S-1"}"#)), |_| {
        Some(answer_with(&[("return_code", "20000"), ("resp_code", "00"), ("mp_ssim", "150")]))
    });
    let o = r.unwrap();
    assert_eq!(o.score, None);
    let p: Vec<(&str, &str)> = o.problems.iter().map(|p| (p.field.as_str(), p.code)).collect();
    assert_eq!(p, [("mp_ssim", "range")]);
    let n =
        parse_notification(&Json::str("seq_id=S&order_id=o&return_code=10200&resp_code=00&resp_info=r&full_name=A&mp_ssim=high&sign=x"))
            .unwrap();
    assert_eq!(n.outcome.problems[0].code, "format");
    assert!(!passes_threshold(150.0, 60.0));
    assert!(passes_threshold(60.5, 60.0));
}

#[test]
fn strict_false_sends_what_the_documents_formats_allow() {
    let f = j(r#"{"full_name":"A","acct_no":"6222021234567890123","id_number":"800000000000000000","source_channel":"0"}"#);
    let (r, log) = run(call(&config(), Operation::CardCheck, f.clone()), |_| panic!("nothing may be sent"));
    let e = r.unwrap_err();
    assert_eq!(e.code, Code::InvalidRequest);
    assert!(log.sent.is_empty());
    let lax = config().with_strict(false);
    let (r, log) = run(call(&lax, Operation::CardCheck, f), |_| Some(answer_with(&[("return_code", "10200"), ("resp_code", "01")])));
    assert_eq!(r.unwrap().state, State::Inconsistent);
    assert_eq!(log.sent[0].param("id_number"), Some("800000000000000000"));
    // The document's formats still hold: 18 characters, digits.
    let short = j(r#"{"full_name":"A","acct_no":"6222021234567890123","id_number":"80000000000000000","source_channel":"0"}"#);
    let (r, _) = run(call(&lax, Operation::CardCheck, short), |_| panic!("nothing may be sent"));
    assert_eq!(r.unwrap_err().details[0].code, "length");
}
