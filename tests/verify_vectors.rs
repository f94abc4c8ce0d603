//! Vectors and whole flows of the authentication client core, driven
//! without a network: a scripted service answers each request the driver
//! asks to send.

use paybridge::json::{self, Json};
use paybridge::verify::checks::{check_id_number, id_check_char, luhn_ok, IdFault};
use paybridge::verify::form::{decode_form, encode_form};
use paybridge::verify::request::{CARD_CHECK_PATH, CHECK_RESULT_PATH, NAME_CHECK_PATH};
use paybridge::verify::{
    decode_envelope, parse_notification, passes_threshold, sign_input, validate_card_check, validate_name_check, Call, Config, Event,
    Operation, Outcome, Request, Seen, SeenSeqIds, State, Step, Wait, DEFAULT_THRESHOLD,
};
use paybridge::{Code, PayError};

mod common;
use common::echo_order;

const TOKEN: &str = "sandbox-app-token-0000000000000000000000";
const SECRET: &str = "sandbox-secret";
/// 2024-01-01 00:30:05.042 in the service's time.
const NOW: f64 = 1_704_040_205_042.0;

fn j(text: &str) -> Json {
    json::parse(text, Code::InvalidRequest, "test").unwrap()
}

fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// The sandbox's signature of a text: HMAC-SHA256 with the `hmac` feature,
/// a stand-in that still depends on every byte without it.
fn sandbox_sign(text: &str) -> String {
    #[cfg(feature = "hmac")]
    {
        paybridge::verify::hmac_sha256_hex(SECRET.as_bytes(), text.as_bytes())
    }
    #[cfg(not(feature = "hmac"))]
    {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in SECRET.bytes().chain(text.bytes()) {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        paybridge::error::u64_str(h)
    }
}

// ---------------------------------------------------------------- vectors

#[test]
fn id_number_check_digits() {
    for valid in [
        "11010519491231002X",
        "11010519491231002x",
        "440524188001010014",
        "510104199001011230",
        "310115198512129879",
        "810000199909091234",
        "910000200002294569",
        "65010219700101000X",
        "350203198812315558",
    ] {
        assert_eq!(check_id_number(valid), Ok(()), "{valid}");
    }
    assert_eq!(id_check_char("44052418800101001"), Some('4'));
    for (bad, fault) in [
        ("110105194912310020", IdFault::CheckDigit),
        ("440524188001010015", IdFault::CheckDigit),
        ("65010219700101000 ", IdFault::Format),
        ("650102197001010000", IdFault::CheckDigit),
        ("6501021970010100X0", IdFault::Format),
        ("11010519491231002", IdFault::Length),
        ("11010519491231002XX", IdFault::Length),
        ("", IdFault::Length),
        // Characters 7 to 14 are the date of birth: month 13, day 00,
        // 30 February, 29 February of a common year.
        ("110105194913310021", IdFault::BirthDate),
        ("110105194912000021", IdFault::BirthDate),
        ("110105200002300021", IdFault::BirthDate),
        ("110105190002290021", IdFault::BirthDate),
    ] {
        assert_eq!(check_id_number(bad), Err(fault), "{bad}");
    }
}

#[test]
fn card_numbers_luhn() {
    for valid in [
        "622202020013",        // 12 digits
        "378282246310005",     // 15
        "622848000000000",     // 15
        "4111111111111111",    // 16
        "5555555555554444",    // 16
        "6225880000000001",    // 16
        "62220202001122338",   // 17
        "6217000000000000004", // 19
    ] {
        assert!(luhn_ok(valid), "{valid}");
    }
    for bad in ["4111111111111112", "6217000000000000005", "622202020010", "41111a11"] {
        assert!(!luhn_ok(bad), "{bad}");
    }
}

fn problems(v: Vec<paybridge::Problem>) -> Vec<(String, &'static str)> {
    v.into_iter().map(|p| (p.field, p.code)).collect()
}

fn expect(v: Vec<paybridge::Problem>, want: &[(&str, &'static str)]) {
    let want: Vec<(String, &str)> = want.iter().map(|(f, c)| (f.to_string(), *c)).collect();
    assert_eq!(problems(v), want);
}

#[test]
fn card_check_validation_vectors() {
    let base = r#""full_name":"张三","source_channel":"1""#;
    let card = |rest: &str| validate_card_check(&j(&["{", base, rest, "}"].concat()));
    // The three supported factor sets, unknown fields passed.
    expect(card(r#","acct_no":"6217000000000000004""#), &[]);
    expect(card(r#","acct_no":"622202020013","id_number":"440524188001010014""#), &[]);
    expect(
        card(
            r#","acct_no":"5555555555554444","id_number":"11010519491231002x","mobile_no":"13912345678","bank_identity":"B","imei":"I","authorization_info":"A","custom":"kept""#,
        ),
        &[],
    );
    // Mobile without ID number is not a set.
    expect(card(r#","acct_no":"4111111111111111","mobile_no":"13912345678""#), &[("mobile_no", "factors")]);
    // Card numbers.
    expect(card(r#","acct_no":"41111111111""#), &[("acct_no", "length")]);
    expect(card(r#","acct_no":"62170000000000000040""#), &[("acct_no", "length")]);
    expect(card(r#","acct_no":"4111 1111 1111 1111""#), &[("acct_no", "format")]);
    expect(card(r#","acct_no":"4111111111111112""#), &[("acct_no", "luhn")]);
    expect(card(r#","acct_no":"""#), &[("acct_no", "required")]);
    expect(card(r#","acct_no":4111111111111111"#), &[("acct_no", "type")]);
    // A name of only spaces names no one.
    let blank = validate_card_check(&j(r#"{"full_name":" \u3000 ","acct_no":"4111111111111111","source_channel":"1"}"#));
    expect(blank, &[("full_name", "required")]);
    // A passbook, a virtual account or a corporate account has no Luhn digit
    // and may be longer or shorter than a card number; digits only, at most 32.
    for rest in [r#","card_type":"P""#, r#","card_type":"V""#, r#","acct_type":"E""#, r#","acct_type":"E","card_type":"D""#] {
        for acct in ["6222020200112233445", "11014", "12345678901234567890123"] {
            expect(card(&[r#","acct_no":""#, acct, "\"", rest].concat()), &[]);
        }
        expect(card(&[r#","acct_no":"1234 5678""#, rest].concat()), &[("acct_no", "format")]);
        expect(card(&[r#","acct_no":""#, &"1".repeat(33), "\"", rest].concat()), &[("acct_no", "length")]);
    }
    // A card of any other type keeps the card rules.
    for t in ["D", "Y", "Z"] {
        expect(card(&[r#","acct_no":"6222020200112233445","card_type":""#, t, "\""].concat()), &[("acct_no", "luhn")]);
    }
    // ID and mobile numbers.
    expect(card(r#","acct_no":"4111111111111111","id_number":"440524188001010015""#), &[("id_number", "check_digit")]);
    expect(card(r#","acct_no":"4111111111111111","id_number":"4405241880010100""#), &[("id_number", "length")]);
    expect(card(r#","acct_no":"4111111111111111","id_number":"11010519491231002X","mobile_no":"1391234567x""#), &[("mobile_no", "format")]);
    // Credit cards need an expiry and a cvv2.
    expect(card(r#","acct_no":"4111111111111111","card_type":"C""#), &[("valid_date", "required"), ("cvv2", "required")]);
    expect(card(r#","acct_no":"4111111111111111","card_type":"C","valid_date":"1329","cvv2":"enc""#), &[("valid_date", "format")]);
    expect(card(r#","acct_no":"4111111111111111","card_type":"C","valid_date":"0129","cvv2":"enc""#), &[]);
    // Enumerations.
    for t in ["D", "C", "P", "V", "Y", "Z"] {
        let extra = if t == "C" { r#","valid_date":"1230","cvv2":"x""# } else { "" };
        expect(card(&[r#","acct_no":"4111111111111111","acct_type":"E","card_type":""#, t, "\"", extra].concat()), &[]);
    }
    expect(card(r#","acct_no":"4111111111111111","acct_type":"p","card_type":"X""#), &[("acct_type", "enum"), ("card_type", "enum")]);
    // source_channel is required and enumerated.
    let no_channel = validate_card_check(&j(r#"{"full_name":"A","acct_no":"4111111111111111"}"#));
    expect(no_channel, &[("source_channel", "required")]);
    let bad_channel = validate_card_check(&j(r#"{"full_name":"A","acct_no":"4111111111111111","source_channel":"3"}"#));
    expect(bad_channel, &[("source_channel", "enum")]);
    let number_channel = validate_card_check(&j(r#"{"full_name":"A","acct_no":"4111111111111111","source_channel":0}"#));
    expect(number_channel, &[("source_channel", "type")]);
    // Notification address.
    expect(card(r#","acct_no":"4111111111111111","mer_bg_url":"https://shop.example/notify""#), &[]);
    expect(card(r#","acct_no":"4111111111111111","mer_bg_url":"shop.example/notify""#), &[("mer_bg_url", "format")]);
}

#[test]
fn every_problem_at_once_and_messages_name_fields() {
    let v = validate_card_check(&j(
        r#"{"full_name":7,"acct_no":"123","id_number":"x","mobile_no":"1","acct_type":"Q","card_type":"C","source_channel":"9","mer_bg_url":"ftp://a","sign":"s"}"#,
    ));
    assert_eq!(v.len(), 10, "{v:?}");
    for p in &v {
        assert!(p.message.contains(p.field.as_str()), "{p:?}");
    }
}

#[test]
fn name_check_validation_vectors() {
    expect(
        validate_name_check(&j(
            r#"{"full_name":"李四","id_number":"310115198512129879","source_channel":"2","imei":"860000","authorization_info":"auth"}"#,
        )),
        &[],
    );
    expect(
        validate_name_check(&j(r#"{"id_number":"310115198512129870"}"#)),
        &[("full_name", "required"), ("id_number", "check_digit"), ("source_channel", "required")],
    );
    expect(validate_name_check(&Json::Null), &[("fields", "type")]);
}

#[test]
fn sign_input_and_sandbox_signature() {
    let params = pairs(&[
        ("source_channel", "0"),
        ("order_id", "o-1"),
        ("full_name", "张三"),
        ("imei", ""),
        ("app_token", TOKEN),
        ("order_date", "20240101"),
        ("acct_no", "4111111111111111"),
        ("sign", "ignored"),
    ]);
    let input = sign_input(&params);
    assert_eq!(
        input,
        "acct_no=4111111111111111&app_token=sandbox-app-token-0000000000000000000000&full_name=张三&order_date=20240101&order_id=o-1&source_channel=0"
    );
    #[cfg(feature = "hmac")]
    assert_eq!(
        sandbox_sign(&input),
        // Python: hmac.new(b"sandbox-secret", input.encode(), hashlib.sha256).hexdigest()
        "0405dfcdda6f1fefe579830ffb76e78319293c7e3f64e5420e77f6e51f1be9b9"
    );
}

#[test]
fn threshold_rule() {
    assert!(passes_threshold(60.01, DEFAULT_THRESHOLD));
    assert!(!passes_threshold(60.0, DEFAULT_THRESHOLD));
    assert!(passes_threshold(55.0, 50.0));
    assert!(!passes_threshold(85.0, 90.0));
}

// ---------------------------------------------------- a scripted service

/// What the scripted service does with one request.
enum Reply {
    /// An enveloped, signed answer with this `data` object.
    Signed(u16, Json),
    /// An enveloped answer without a signature.
    Unsigned(u16, Json),
    /// This exact body.
    Raw(u16, &'static str),
    /// No answer at all.
    Lost,
}

/// `data` of an answer: `pairs`, and `service_date` (required in every
/// answer that reports a state) unless they name it.
fn data(pairs: &[(&str, &str)]) -> Json {
    let mut d: Vec<(&str, Json)> = pairs.iter().map(|(k, v)| (*k, Json::str(v))).collect();
    if !pairs.iter().any(|(k, _)| *k == "service_date") {
        d.push(("service_date", Json::str("20240101")));
    }
    Json::obj(d)
}

#[derive(Default)]
struct Log {
    signed: Vec<Vec<(String, String)>>,
    sent: Vec<Request>,
    slept: Vec<u32>,
    verified: Vec<String>,
    encrypted: Vec<Vec<(String, String)>>,
}

impl Log {
    fn paths(&self) -> Vec<&str> {
        self.sent.iter().map(|r| r.path.as_str()).collect()
    }
}

fn config(attempts: u32, base_delay_ms: u32) -> Config {
    Config::new(TOKEN, "test", attempts, base_delay_ms).unwrap()
}

/// The edge's `verify` hook.
type VerifyHook<'a> = &'a dyn Fn(&str, &str) -> bool;

/// Runs `call` to its end. The edge signs with the sandbox rule, checks
/// signatures when `verify` is set, and asks `service` for every answer;
/// the service also checks the request's `sign`.
fn run(mut call: Call, verify: Option<VerifyHook>, mut service: impl FnMut(&Request) -> Reply) -> (Result<Outcome, PayError>, Log) {
    let mut log = Log::default();
    let mut event = Event::Start;
    for _ in 0..200 {
        event = match call.next(event) {
            Step::NeedEncrypt(fields) => {
                assert!(log.signed.is_empty(), "encrypted before signing");
                let out = fields.iter().map(|(k, v)| format!("enc({k}:{v})")).collect();
                log.encrypted.push(fields);
                Event::Encrypted(out)
            }
            Step::NeedSign(params) => {
                assert!(params.iter().all(|(k, _)| k != "sign"));
                let sig = sandbox_sign(&sign_input(&params));
                log.signed.push(params);
                Event::Signed(sig)
            }
            Step::Send(req) => {
                assert_eq!(
                    req.param("sign").map(str::to_string),
                    Some(sandbox_sign(&sign_input(&req.params))),
                    "the request is signed over its own parameters"
                );
                assert!(req.headers.contains(&("env".to_string(), "test".to_string())));
                let reply = service(&req);
                let event = match reply {
                    Reply::Lost => Event::NoAnswer,
                    Reply::Raw(status, body) => Event::Response { status, body: body.into() },
                    // The service echoes the order (common::echo_order); a
                    // `Reply::Raw` goes as written.
                    Reply::Signed(status, d) => envelope(status, &echo_order(&req, d), true),
                    Reply::Unsigned(status, d) => envelope(status, &echo_order(&req, d), false),
                };
                log.sent.push(req);
                event
            }
            Step::NeedVerify { data, signature } => {
                let hook = verify.expect("NeedVerify only with a verify hook");
                log.verified.push(data.clone());
                Event::Verified(hook(&data, &signature))
            }
            Step::Sleep(ms) => {
                log.slept.push(ms);
                Event::Slept
            }
            Step::Done(result) => return (result, log),
        };
    }
    panic!("the call did not end within 200 steps");
}

/// The service's envelope around `data`, signed or not.
fn envelope(status: u16, d: &Json, signed: bool) -> Event {
    let text = d.to_text();
    let mut env = vec![("data", Json::str(&text))];
    if signed {
        env.push(("signature", Json::str(&sandbox_sign(&text))));
    }
    Event::Response { status, body: Json::obj(env).to_text() }
}

fn sandbox_verify(data: &str, signature: &str) -> bool {
    sandbox_sign(data) == signature
}

fn card_fields() -> Json {
    j(r#"{"full_name":"张三","acct_no":"4111111111111111","id_number":"440524188001010014","source_channel":"0"}"#)
}

fn name_fields() -> Json {
    j(r#"{"full_name":"张三","id_number":"440524188001010014","source_channel":"0"}"#)
}

fn op_call(op: Operation, fields: Json, attempts: u32, has_verify: bool) -> Call {
    Call::new(&config(attempts, 100), op, fields, has_verify, NOW, [0xa5; 16])
}

const GENERATED_ID: &str = "20240101003005042a5a5a5a5a5a5a5a5";

// ------------------------------------------------------------ the flows

/// The fields a test sends for `op`.
fn fields_for(op: Operation) -> Json {
    match op {
        Operation::CardCheck => card_fields(),
        Operation::NameCheck => name_fields(),
        _ => j(r#"{"seqId":"S-1"}"#),
    }
}

#[test]
fn every_return_code_row() {
    use State::*;
    const CARD: Operation = Operation::CardCheck;
    const NAME: Operation = Operation::NameCheck;
    const QUERY: Operation = Operation::CheckResult;
    let rows = [
        (CARD, "10200", Some("00"), Consistent),
        (CARD, "10200", Some("01"), Inconsistent),
        (CARD, "10200", Some("99"), Exception),
        (CARD, "10201", None, Pending),
        (CARD, "10210", None, CallFailed),
        (NAME, "10400", Some("00"), Consistent),
        (NAME, "10400", Some("01"), Inconsistent),
        (NAME, "10400", Some("99"), Exception),
        (NAME, "10410", None, CallFailed),
        (QUERY, "20000", Some("00"), Consistent),
        (QUERY, "20000", Some("01"), Inconsistent),
        (QUERY, "20000", Some("99"), Exception),
        (QUERY, "20012", None, Pending),
        (QUERY, "20011", None, NotFound),
        (QUERY, "20010", None, Failed),
        (CARD, "90101", None, CallFailed),
        (CARD, "90102", None, CallFailed),
        (NAME, "90103", None, CallFailed),
        (NAME, "90104", None, CallFailed),
        (QUERY, "90199", None, CallFailed),
    ];
    for (op, code, resp, state) in rows {
        let mut d = vec![("return_code", code), ("return_message", "m")];
        if let Some(r) = resp {
            d.push(("resp_code", r));
            d.push(("resp_info", "info"));
        }
        let (result, log) = run(op_call(op, fields_for(op), 3, true), Some(&sandbox_verify), |_| Reply::Signed(200, data(&d)));
        let o = result.unwrap_or_else(|e| panic!("{code}: {e}"));
        assert_eq!(o.state, state, "{code} {resp:?}");
        assert_eq!(o.return_code, code);
        assert_eq!(o.return_message.as_deref(), Some("m"));
        assert_eq!(o.resp_code.as_deref(), resp);
        assert_eq!(log.sent.len(), 1, "{code}");
        assert_eq!(log.verified.len(), 1, "{code}: the signature was checked");
        assert!(!o.order_id.is_empty() && o.order_date.len() == 8);
        // A result query keeps the whole answer; a check does not.
        assert_eq!(o.record.is_some(), op == Operation::CheckResult, "{code}");
        assert_eq!(o.to_json().get("state"), Some(&Json::str(state.as_str())));
    }
}

#[test]
fn card_check_request_shape_and_generated_ids() {
    let (result, log) = run(op_call(Operation::CardCheck, card_fields(), 3, false), None, |_| {
        Reply::Signed(200, data(&[("return_code", "10200"), ("resp_code", "00")]))
    });
    let o = result.unwrap();
    assert_eq!((o.order_id.as_str(), o.order_date.as_str()), (GENERATED_ID, "20240101"));
    let req = &log.sent[0];
    assert_eq!((req.method, req.path.as_str(), req.url_query.as_deref()), ("POST", CARD_CHECK_PATH, None));
    let body = req.body.as_deref().unwrap();
    assert!(body.starts_with("order_date=20240101&order_id=20240101003005042a5a5a5a5a5a5a5a5&app_token=sandbox-app-token-0000000000000000000000&full_name=%E5%BC%A0%E4%B8%89&acct_no=4111111111111111"), "{body}");
    assert_eq!(decode_form(body, "body").unwrap(), req.params);
    assert!(log.verified.is_empty(), "no verify hook, no NeedVerify");
    // The name check goes to its own path; given ids are kept.
    let mut fields = name_fields().as_obj().unwrap().to_vec();
    fields.push(("order_id".into(), Json::str("mine-1")));
    fields.push(("order_date".into(), Json::str("20231231")));
    let (result, log) = run(op_call(Operation::NameCheck, Json::Obj(fields), 3, false), None, |_| {
        Reply::Signed(200, data(&[("return_code", "10400"), ("resp_code", "00")]))
    });
    let o = result.unwrap();
    assert_eq!((o.order_id.as_str(), o.order_date.as_str()), ("mine-1", "20231231"));
    assert_eq!(log.sent[0].path, NAME_CHECK_PATH);
    assert_eq!(log.sent[0].param("order_id"), Some("mine-1"));
}

#[test]
fn checkresult_by_seq_id() {
    let answer = j(
        r#"{"return_code":"20000","service_date":"20240101","resp_code":"00","resp_info":"一致","seq_id":"S-1","order_id":"orig-7","order_date":"20231230","mp_ssim":"72.5","full_name":"张三","id_number":"440524188001010014","file_list":[{"file_id":"f1","file_type":"00","file_source":"JVS"}],"face_identify_list":[{"personId":"p","fileId":"f","personName":"张三","score":"72.5"}],"authorization_info":"auth","encrypt_method":"SM4"}"#,
    );
    let a2 = answer.clone();
    let (result, log) = run(op_call(Operation::CheckResult, j(r#"{"seqId":"S-1"}"#), 3, true), Some(&sandbox_verify), move |_| {
        Reply::Signed(200, a2.clone())
    });
    let o = result.unwrap();
    let req = &log.sent[0];
    assert_eq!((req.method, req.path.as_str(), req.body.as_deref()), ("GET", CHECK_RESULT_PATH, None));
    assert_eq!(req.param("seq_id"), Some("S-1"));
    let q = req.url_query.as_deref().unwrap();
    assert!(q.contains("&seq_id=S-1&sign="), "{q}");
    assert_eq!(o.state, State::Consistent);
    assert_eq!(o.score, Some(72.5));
    assert!(passes_threshold(o.score.unwrap(), DEFAULT_THRESHOLD));
    // The queried verification's own order, from the answer's echo.
    assert_eq!((o.order_id.as_str(), o.order_date.as_str()), ("orig-7", "20231230"));
    assert_eq!(o.record.as_ref(), Some(&answer));
    let out = o.to_json();
    let rec = out.get("record").unwrap();
    for key in ["file_list", "face_identify_list", "authorization_info", "encrypt_method", "full_name", "id_number", "mp_ssim"] {
        assert!(rec.get(key).is_some(), "{key}");
    }
}

#[test]
fn checkresult_by_order_id() {
    let (result, log) = run(op_call(Operation::CheckResult, j(r#"{"orderId":"orig-7","orderDate":"20231230"}"#), 3, false), None, |_| {
        Reply::Signed(200, data(&[("return_code", "20011"), ("return_message", "no record")]))
    });
    let o = result.unwrap();
    let req = &log.sent[0];
    assert_eq!(req.param("seq_id"), Some(""));
    assert_eq!(req.param("order_id"), Some("orig-7"));
    assert_eq!(req.param("order_date"), Some("20231230"));
    assert!(req.url_query.as_deref().unwrap().contains("&seq_id=&sign="));
    assert_eq!(o.state, State::NotFound);
    assert_eq!((o.order_id.as_str(), o.order_date.as_str()), ("orig-7", "20231230"));
    assert_eq!(o.seq_id, None);
    // Without orderDate the service's current day is sent, and the
    // answer's echo of the order's date, if any, is the outcome's.
    let (result, log) = run(op_call(Operation::CheckResult, j(r#"{"order_id":"orig-8"}"#), 3, false), None, |_| {
        let echo = [("return_code", "20012"), ("order_date", "20231229")];
        Reply::Signed(200, data(&echo))
    });
    assert_eq!(log.sent[0].param("order_date"), Some("20240101"));
    let o = result.unwrap();
    assert_eq!((o.order_id.as_str(), o.order_date.as_str()), ("orig-8", "20231229"));
    // Neither id: refused before anything is signed.
    let (result, log) = run(op_call(Operation::CheckResult, j("{}"), 3, false), None, |_| Reply::Lost);
    assert_eq!(result.unwrap_err().code, Code::InvalidRequest);
    assert!(log.signed.is_empty() && log.sent.is_empty());
}

#[test]
fn await_result_pending_then_final() {
    let mut n = 0;
    let wait = Wait::new(1000, 60_000).unwrap();
    let (result, log) =
        run(op_call(Operation::AwaitResult(wait), j(r#"{"seqId":"S-9","orderId":"o-9"}"#), 3, true), Some(&sandbox_verify), |_| {
            n += 1;
            if n < 4 {
                Reply::Signed(200, data(&[("return_code", "20012"), ("seq_id", "S-9")]))
            } else {
                Reply::Signed(200, data(&[("return_code", "20000"), ("resp_code", "01"), ("seq_id", "S-9"), ("order_id", "echoed")]))
            }
        });
    let o = result.unwrap();
    assert_eq!(o.state, State::Inconsistent);
    assert_eq!(o.order_id, "o-9", "the order the caller named is kept");
    assert_eq!(log.slept, [1000, 2000, 4000], "a growing interval");
    assert_eq!(log.sent.len(), 4);
    assert_eq!(log.signed.len(), 1, "the same query is not signed again");
    assert!(log.sent.iter().all(|r| r == &log.sent[0]));
}

#[test]
fn await_result_times_out_pending() {
    let wait = Wait::new(1000, 2500).unwrap();
    let (result, log) = run(op_call(Operation::AwaitResult(wait), j(r#"{"orderId":"o-9"}"#), 3, false), None, |_| {
        Reply::Signed(200, data(&[("return_code", "20012")]))
    });
    let o = result.unwrap();
    assert_eq!(o.state, State::Pending);
    assert_eq!(log.slept, [1000, 1500], "the last wait ends at the time-out");
    assert_eq!(log.sent.len(), 3);
}

#[test]
fn an_answer_echoing_another_order_is_invalid_response() {
    // A check, and a query by order_id (the recovery of a lost answer
    // included), must be answered for the order sent.
    let other = |_: &Request| Reply::Signed(200, data(&[("return_code", "10200"), ("resp_code", "00"), ("order_id", "SOMEONE-ELSE")]));
    let (result, _) = run(op_call(Operation::CardCheck, card_fields(), 3, true), Some(&sandbox_verify), other);
    let e = result.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (Code::InvalidResponse, Some("order_id")));
    assert!(e.message.contains("SOMEONE-ELSE") && e.message.contains(GENERATED_ID), "{}", e.message);
    let (result, _) = run(op_call(Operation::CardCheck, card_fields(), 3, true), Some(&sandbox_verify), |req| {
        if req.method == "POST" {
            Reply::Lost
        } else {
            Reply::Signed(200, data(&[("return_code", "20000"), ("resp_code", "00"), ("order_id", "SOMEONE-ELSE")]))
        }
    });
    assert_eq!(result.unwrap_err().code, Code::InvalidResponse);
    let (result, _) = run(op_call(Operation::CheckResult, j(r#"{"orderId":"orig-7"}"#), 3, false), None, |_| {
        Reply::Signed(200, data(&[("return_code", "20000"), ("resp_code", "00"), ("order_id", "orig-8")]))
    });
    assert_eq!(result.unwrap_err().code, Code::InvalidResponse);
    // The same answer echoing the order sent is fine.
    let (result, _) = run(op_call(Operation::CheckResult, j(r#"{"orderId":"orig-7"}"#), 3, false), None, |_| {
        Reply::Signed(200, data(&[("return_code", "20000"), ("resp_code", "00"), ("order_id", "orig-7")]))
    });
    assert_eq!(result.unwrap().state, State::Consistent);
}

#[test]
fn lost_answer_is_recovered_by_checkresult_never_a_second_check() {
    for op in [Operation::CardCheck, Operation::NameCheck] {
        let fields = if op == Operation::CardCheck { card_fields() } else { name_fields() };
        let (result, log) = run(op_call(op, fields, 3, true), Some(&sandbox_verify), |req| {
            if req.method == "POST" {
                Reply::Lost
            } else {
                Reply::Signed(200, data(&[("return_code", "20000"), ("resp_code", "00"), ("seq_id", "S-2"), ("order_id", GENERATED_ID)]))
            }
        });
        let o = result.unwrap();
        let check_path = if op == Operation::CardCheck { CARD_CHECK_PATH } else { NAME_CHECK_PATH };
        assert_eq!(log.paths(), [check_path, CHECK_RESULT_PATH]);
        let query = &log.sent[1];
        assert_eq!(query.param("order_id"), Some(GENERATED_ID));
        assert_eq!(query.param("order_date"), log.sent[0].param("order_date"));
        assert_eq!(query.param("seq_id"), Some(""));
        assert_eq!(log.signed.len(), 2, "the query is signed anew");
        assert_eq!(o.state, State::Consistent);
        assert_eq!(o.seq_id.as_deref(), Some("S-2"));
        assert_eq!(o.order_id, GENERATED_ID);
        assert!(o.record.is_some());
    }
}

#[test]
fn recovery_asks_again_before_believing_not_found() {
    // The check got no answer; the service has not recorded it when first
    // asked (20011), then has.
    let mut queries = 0;
    let (result, log) = run(op_call(Operation::CardCheck, card_fields(), 3, false), None, |req| {
        if req.method == "POST" {
            return Reply::Lost;
        }
        queries += 1;
        if queries < 3 {
            Reply::Signed(200, data(&[("return_code", "20011")]))
        } else {
            Reply::Signed(200, data(&[("return_code", "20000"), ("resp_code", "00"), ("order_id", GENERATED_ID)]))
        }
    });
    assert_eq!(result.unwrap().state, State::Consistent);
    assert_eq!(log.paths(), [CARD_CHECK_PATH, CHECK_RESULT_PATH, CHECK_RESULT_PATH, CHECK_RESULT_PATH]);
    assert_eq!(log.signed.len(), 2, "the check and one query, sent again as it is");
    // Never recorded: not_found once the retry budget is spent, and the check
    // is still never sent twice.
    let (result, log) = run(op_call(Operation::CardCheck, card_fields(), 3, false), None, |req| {
        if req.method == "POST" {
            Reply::Lost
        } else {
            Reply::Signed(200, data(&[("return_code", "20011")]))
        }
    });
    assert_eq!(result.unwrap().state, State::NotFound);
    assert_eq!(log.paths().iter().filter(|p| **p == CARD_CHECK_PATH).count(), 1);
    // A query the caller asked for believes 20011 at once.
    let (result, log) = run(op_call(Operation::CheckResult, j(r#"{"orderId":"orig-7"}"#), 3, false), None, |_| {
        Reply::Signed(200, data(&[("return_code", "20011")]))
    });
    assert_eq!(result.unwrap().state, State::NotFound);
    assert_eq!(log.sent.len(), 1);
}

#[test]
fn lost_answers_everywhere_end_in_transport_after_the_budget() {
    let (result, log) = run(op_call(Operation::CardCheck, card_fields(), 3, false), None, |_| Reply::Lost);
    let e = result.unwrap_err();
    assert_eq!(e.code, Code::Transport);
    assert!(e.message.contains(GENERATED_ID), "{}", e.message);
    assert!(e.message.contains("checkResult"), "{}", e.message);
    assert_eq!(log.paths(), [CARD_CHECK_PATH, CHECK_RESULT_PATH, CHECK_RESULT_PATH, CHECK_RESULT_PATH]);
    assert_eq!(log.slept, [100, 200]);
    // A gateway's error page counts as no answer too.
    let (result, log) = run(op_call(Operation::CardCheck, card_fields(), 1, false), None, |req| {
        if req.method == "POST" {
            Reply::Raw(502, "<html>Bad Gateway</html>")
        } else {
            Reply::Signed(200, data(&[("return_code", "20012")]))
        }
    });
    assert_eq!(result.unwrap().state, State::Pending);
    assert_eq!(log.paths(), [CARD_CHECK_PATH, CHECK_RESULT_PATH]);
}

/// 90105 under both readings of the document (which says nothing of
/// what follows it): before the check goes again, or at a 90104 that
/// follows one, the client asks `checkresult` by `order_id`.
#[test]
fn too_frequent_asks_the_result_before_sending_the_check_again() {
    // The service limits before recording: the query finds nothing (20011),
    // and the same signed check goes again.
    let mut checks = 0;
    let (result, log) = run(op_call(Operation::CardCheck, card_fields(), 3, false), None, |r| {
        if r.method == "GET" {
            return Reply::Signed(400, data(&[("return_code", "20011")]));
        }
        checks += 1;
        if checks < 3 {
            Reply::Signed(200, data(&[("return_code", "90105")]))
        } else {
            Reply::Signed(200, data(&[("return_code", "10200"), ("resp_code", "00")]))
        }
    });
    assert_eq!(result.unwrap().state, State::Consistent);
    assert_eq!(log.slept, [100, 200], "a growing delay");
    assert_eq!(log.paths(), [CARD_CHECK_PATH, CHECK_RESULT_PATH, CARD_CHECK_PATH, CHECK_RESULT_PATH, CARD_CHECK_PATH]);
    assert_eq!(log.sent[0], log.sent[2], "the same signed check");
    assert_eq!(log.sent[2], log.sent[4]);
    assert_eq!(log.sent[1].param("order_id"), log.sent[0].param("order_id"));
    assert_eq!(log.sent[1].param("seq_id"), Some(""), "by order_id");

    // The service records before limiting: the query gives the result, and
    // the check is not sent again (it would be 90104).
    let (result, log) = run(op_call(Operation::CardCheck, card_fields(), 3, false), None, |r| {
        if r.method == "GET" {
            Reply::Signed(200, data(&[("return_code", "20000"), ("resp_code", "01")]))
        } else {
            Reply::Signed(200, data(&[("return_code", "90105")]))
        }
    });
    let o = result.unwrap();
    assert_eq!((o.state, o.return_code.as_str()), (State::Inconsistent, "20000"));
    assert_eq!(log.paths(), [CARD_CHECK_PATH, CHECK_RESULT_PATH]);

    // Recorded between the query and the second send: that send's 90104 is
    // recovered by order_id too.
    let (mut checks, mut queries) = (0, 0);
    let (result, log) = run(op_call(Operation::CardCheck, card_fields(), 3, false), None, |r| {
        if r.method == "GET" {
            queries += 1;
            return if queries == 1 {
                Reply::Signed(400, data(&[("return_code", "20011")]))
            } else {
                Reply::Signed(200, data(&[("return_code", "20000"), ("resp_code", "00")]))
            };
        }
        checks += 1;
        Reply::Signed(200, data(&[("return_code", if checks == 1 { "90105" } else { "90104" })]))
    });
    let o = result.unwrap();
    assert_eq!((o.state, o.return_code.as_str()), (State::Consistent, "20000"));
    assert_eq!(log.paths(), [CARD_CHECK_PATH, CHECK_RESULT_PATH, CARD_CHECK_PATH, CHECK_RESULT_PATH]);

    // Past the budget the 90105 answer is the outcome.
    let (result, log) = run(op_call(Operation::CardCheck, card_fields(), 2, false), None, |r| {
        if r.method == "GET" {
            Reply::Signed(400, data(&[("return_code", "20011")]))
        } else {
            Reply::Raw(200, r#"{"return_code":"90105","return_message":"too frequent"}"#)
        }
    });
    let o = result.unwrap();
    assert_eq!((o.state, o.return_code.as_str()), (State::CallFailed, "90105"));
    assert_eq!(log.paths(), [CARD_CHECK_PATH, CHECK_RESULT_PATH, CARD_CHECK_PATH]);
    assert_eq!(log.slept, [100]);
}

#[test]
fn bad_signatures() {
    // The verify hook says no.
    let (result, _) = run(op_call(Operation::CardCheck, card_fields(), 3, true), Some(&|_: &str, _: &str| false), |_| {
        Reply::Signed(200, data(&[("return_code", "10200"), ("resp_code", "00")]))
    });
    assert_eq!(result.unwrap_err().code, Code::BadSignature);
    // The message repeats what the untrusted answer says, as a hint: with
    // different secrets the service answers 90102, signed with its own.
    let (result, _) = run(op_call(Operation::CardCheck, card_fields(), 3, true), Some(&|_: &str, _: &str| false), |_| {
        Reply::Signed(400, data(&[("return_code", "90102"), ("return_message", "sign does not match")]))
    });
    let e = result.unwrap_err();
    assert_eq!(e.code, Code::BadSignature);
    assert!(
        e.message.contains("(unverified, it says 90102: sign does not match: the two sides sign with different secrets)"),
        "{}",
        e.message
    );
    // A tampered data text fails the real check.
    let (result, log) = run(
        op_call(Operation::NameCheck, name_fields(), 3, true),
        Some(&|d: &str, s: &str| sandbox_verify(&d.replace("\"01\"", "\"00\""), s)),
        |_| Reply::Signed(200, data(&[("return_code", "10400"), ("resp_code", "01")])),
    );
    assert_eq!(result.unwrap_err().code, Code::BadSignature);
    assert_eq!(log.verified.len(), 1);
    // A result without a signature is not trusted when a hook is set ...
    let (result, _) = run(op_call(Operation::CardCheck, card_fields(), 3, true), Some(&sandbox_verify), |_| {
        Reply::Unsigned(200, data(&[("return_code", "10200"), ("resp_code", "00")]))
    });
    assert_eq!(result.unwrap_err().code, Code::BadSignature);
    // ... but a failed call carries no result and is reported as it is.
    let (result, log) = run(op_call(Operation::CardCheck, card_fields(), 3, true), Some(&sandbox_verify), |_| {
        Reply::Raw(400, r#"{"return_code":"90101","return_message":"acct_no missing"}"#)
    });
    let o = result.unwrap();
    assert_eq!((o.state, o.return_message.as_deref()), (State::CallFailed, Some("acct_no missing")));
    assert!(log.verified.is_empty());
    // Without a hook, signatures are not asked about.
    let (result, log) = run(op_call(Operation::CardCheck, card_fields(), 3, false), None, |_| {
        Reply::Unsigned(200, data(&[("return_code", "10200"), ("resp_code", "00")]))
    });
    assert_eq!(result.unwrap().state, State::Consistent);
    assert!(log.verified.is_empty());
}

#[test]
fn malformed_bodies() {
    for body in [
        "",
        "not json",
        "[]",
        r#"{"data":"{broken"}"#,
        r#"{"data":"\"text\""}"#,
        r#"{"data":"{\"resp_code\":\"00\"}","signature":"x"}"#,
        r#"{"data":"{\"return_code\":\"10200\"}","signature":{}}"#,
        r#"{"signature":"x"}"#,
    ] {
        let (result, log) = run(op_call(Operation::CardCheck, card_fields(), 3, false), None, |_| Reply::Raw(200, body));
        let e = result.unwrap_err();
        assert_eq!(e.code, Code::InvalidResponse, "{body}");
        assert_eq!(log.sent.len(), 1, "a bad answer is not a lost one: {body}");
        assert_eq!(decode_envelope(200, body).unwrap_err().code, Code::InvalidResponse);
    }
    // An HTTP 400 answer in the envelope is read like any other.
    let (result, _) = run(op_call(Operation::CardCheck, card_fields(), 3, false), None, |_| {
        Reply::Signed(400, data(&[("return_code", "90101"), ("return_message", "bad order_date")]))
    });
    let o = result.unwrap();
    assert_eq!((o.state, o.return_code.as_str()), (State::CallFailed, "90101"));
}

#[test]
fn invalid_fields_send_nothing() {
    let (result, log) = run(
        op_call(Operation::CardCheck, j(r#"{"full_name":"A","acct_no":"4111111111111112","mobile_no":"13912345678"}"#), 3, false),
        None,
        |_| Reply::Lost,
    );
    let e = result.unwrap_err();
    assert_eq!(e.code, Code::InvalidRequest);
    let codes: Vec<(&str, &str)> = e.details.iter().map(|p| (p.field.as_str(), p.code)).collect();
    assert_eq!(codes, [("acct_no", "luhn"), ("source_channel", "required"), ("mobile_no", "factors")]);
    assert!(log.signed.is_empty() && log.sent.is_empty());
}

// -------------------------------------------------------- notifications

fn signed_form(fields: &[(&str, &str)]) -> String {
    let mut p = pairs(fields);
    let sig = sandbox_sign(&sign_input(&p));
    p.push(("sign".into(), sig));
    encode_form(&p)
}

#[test]
fn notification_with_the_sandbox_signature() {
    let list = r#"[{"file_id":"f1","file_type":"01","file_source":"JVS"}]"#;
    let body = signed_form(&[
        ("seq_id", "S-5"),
        ("order_id", "o-5"),
        ("return_code", "10200"),
        ("return_message", "success"),
        ("resp_code", "00"),
        ("resp_info", "一致"),
        ("mp_ssim", "59.5"),
        ("full_name", "张三"),
        ("id_number", "440524188001010014"),
        ("file_list", list),
        ("face_identify_list", ""),
    ]);
    let n = parse_notification(&Json::Str(body.clone())).unwrap();
    let verified = sandbox_verify(&n.sign_input, &n.sign);
    assert!(verified);
    let o = n.accept(verified).unwrap();
    assert_eq!(o.state, State::Consistent);
    assert_eq!((o.seq_id.as_deref(), o.order_id.as_str()), (Some("S-5"), "o-5"));
    assert_eq!(o.score, Some(59.5));
    assert!(!passes_threshold(59.5, DEFAULT_THRESHOLD));
    let rec = o.record.as_ref().unwrap();
    assert_eq!(rec.get("file_list"), Some(&j(list)));
    assert_eq!(rec.get("face_identify_list"), Some(&Json::str("")));
    // `+` for spaces decodes the same as `%20`.
    let plus = body.replace("%20", "+");
    assert_eq!(parse_notification(&Json::Str(plus)).unwrap().sign_input, sign_input(&decode_form(&body, "b").unwrap()));
    // A changed field breaks the signature.
    let forged = body.replace("resp_code=00", "resp_code=01");
    let n = parse_notification(&Json::Str(forged)).unwrap();
    let ok = sandbox_verify(&n.sign_input, &n.sign);
    assert_eq!(n.accept(ok).unwrap_err().code, Code::BadSignature);
}

#[test]
fn notifications_are_handled_once_per_seq_id() {
    let body = signed_form(&[
        ("seq_id", "S-6"),
        ("order_id", "o-6"),
        ("return_code", "10200"),
        ("resp_code", "01"),
        ("resp_info", "inconsistent"),
        ("full_name", "A"),
    ]);
    let mut seen = SeenSeqIds::new(16);
    let mut handled = 0;
    for _ in 0..3 {
        let n = parse_notification(&Json::str(&body)).unwrap();
        let ok = sandbox_verify(&n.sign_input, &n.sign);
        let o = n.accept(ok).unwrap();
        if seen.note(o.seq_id.as_deref().unwrap()) == Seen::First {
            handled += 1;
        }
    }
    assert_eq!(handled, 1);
}

// ------------------------------------------------- properties, no panics

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn form_encoding_agrees_with_form_urlencoded(
            p in proptest::collection::vec(("\\PC{0,12}", "\\PC{0,24}"), 0..6)
        ) {
            let text = encode_form(&p);
            prop_assert!(text.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~%=&".contains(&b)));
            let oracle: Vec<(String, String)> = url::form_urlencoded::parse(text.as_bytes()).into_owned().collect();
            let decoded = decode_form(&text, "form").unwrap();

            prop_assert_eq!(&decoded, &p);
            prop_assert_eq!(&oracle, &p);
        }

        #[test]
        fn decoders_never_panic(s in "\\PC{0,200}", status in 0u16..600) {
            let _ = decode_envelope(status, &s);
            let _ = parse_notification(&Json::Str(s.clone()));
            let _ = decode_form(&s, "x");
            let _ = paybridge::verify::parse_score(&s);
        }

        #[test]
        fn validators_never_panic(values in proptest::collection::vec("\\PC{0,24}", 9)) {
            let names = ["full_name", "acct_no", "id_number", "mobile_no", "card_type", "valid_date", "source_channel", "mer_bg_url", "order_date"];
            let f = Json::Obj(names.iter().zip(values.iter()).map(|(k, v)| (k.to_string(), Json::str(v))).collect());
            for p in validate_card_check(&f).into_iter().chain(validate_name_check(&f)) {
                prop_assert!(p.message.contains(p.field.as_str()));
            }
        }

        #[test]
        fn scores_agree_with_the_float_parser(int in 0u32..=100, frac in "[0-9]{0,6}") {
            let text = if frac.is_empty() { int.to_string() } else { format!("{int}.{frac}") };
            let std: f64 = text.parse().unwrap();
            let ours = paybridge::verify::parse_score(&text);
            if std <= 100.0 {
                prop_assert_eq!(ours, Some(std));
            } else {
                prop_assert_eq!(ours, None);
            }
        }

        #[test]
        fn id_check_digit_is_the_only_one(first17 in "[0-9]{6}(19[0-9]{2}|20[0-2][0-9])(0[1-9]|1[0-2])(0[1-9]|1[0-9]|2[0-8])[0-9]{3}") {
            let c = id_check_char(&first17).unwrap();
            for last in "0123456789X".chars() {
                let id = format!("{first17}{last}");
                prop_assert_eq!(check_id_number(&id).is_ok(), last == c);
            }
        }

        #[test]
        fn driver_ends_whatever_the_service_says(
            script in proptest::collection::vec((0u8..7, 0u16..600), 1..12),
            verify in any::<bool>(),
            op in 0u8..4,
        ) {
            let (operation, fields) = match op {
                0 => (Operation::CardCheck, card_fields()),
                1 => (Operation::NameCheck, name_fields()),
                2 => (Operation::CheckResult, j(r#"{"seqId":"S"}"#)),
                _ => (Operation::AwaitResult(Wait::new(10, 100).unwrap()), j(r#"{"orderId":"o"}"#)),
            };
            let codes = ["10200", "10201", "20012", "90105", "20000"];
            let mut i = 0;
            let (_, log) = run(
                op_call(operation, fields, 3, verify),
                Some(&|_: &str, _: &str| verify),
                |_| {
                    let (kind, status) = script[i % script.len()];
                    i += 1;
                    match kind {
                        0 => Reply::Lost,
                        1 => Reply::Raw(status, "garbage"),
                        k => Reply::Signed(status, data(&[("return_code", codes[(k - 2) as usize]), ("resp_code", "00")])),
                    }
                },
            );
            let checks = log.sent.iter().filter(|r| r.method == "POST").count();
            prop_assert!(checks <= 3, "a check is only resent after 90105");
            if let Some(lost_at) = log.sent.iter().position(|r| r.method == "GET") {
                prop_assert!(log.sent[lost_at..].iter().all(|r| r.method == "GET"));
            }
        }
    }
}
