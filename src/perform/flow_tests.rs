//! The card-network flow and the authentication client's calls on the
//! host, with a fake world, as the payment's rules are driven in `tests.rs`.

use super::io::{Got, Hook};
use super::verify::Sender;
use super::*;
use crate::authorize::parse_auth_callback;
use crate::json::Json;
use crate::payment::Payment;
use crate::verify::{Call, Config, Operation, Phase};

struct Page;

impl World for Page {
    fn has_document(&self) -> bool {
        true
    }
    fn visible(&self) -> bool {
        true
    }
    fn has_global(&self, _: &str) -> bool {
        false
    }
    fn has_method(&self, _: &str, _: &str) -> bool {
        false
    }
    fn api_has(&self, _: &str, _: &str) -> bool {
        false
    }
    fn unnamed(&self) -> bool {
        true
    }
}

fn kinds(cmds: &[Cmd<u32>]) -> Vec<String> {
    cmds.iter()
        .map(|c| match c {
            Cmd::Emit(k, _) => format!("emit {k}"),
            Cmd::SetTimer(t, ms) => format!("timer {t:?} {ms}"),
            Cmd::ClearTimer(t) => format!("clear {t:?}"),
            Cmd::Navigate(u) => format!("go {u}"),
            Cmd::Await(t, h) => format!(
                "await {} {t}",
                match h {
                    Hook::Confirm(_) => "confirm",
                    Hook::Order(_) => "order",
                    Hook::Encrypt(_) => "encrypt",
                    Hook::Sign(_) => "sign",
                    Hook::Verify(_) => "verify",
                    Hook::Send(_) => "send",
                    Hook::Body(_) => "body",
                    Hook::Ask => "ask",
                }
            ),
            Cmd::Done(r) => format!("done {}", r.0.status.as_str()),
            Cmd::Fail(e, ..) | Cmd::FailCaused(e, _) => format!("fail {}", e.code.as_str()),
            Cmd::Resolve(_) => "resolve".into(),
            _ => "other".into(),
        })
        .collect()
}

const NOW: f64 = 1_700_000_000_000.0;

fn cardnet(url: &str, options: &str) -> (CardnetRun<u32>, Vec<Cmd<u32>>) {
    cardnet_at(url, options, NOW + 1000.0)
}

/// The flow started at `now`, the callback read at [`NOW`].
fn cardnet_at(url: &str, options: &str, now: f64) -> (CardnetRun<u32>, Vec<Cmd<u32>>) {
    let cb = parse_auth_callback(url, None, NOW).unwrap();
    let o = Options::from_json(Some(&crate::json::parse(options, Code::InvalidOptions, "options").unwrap())).unwrap();
    let mut out = Vec::new();
    let run = CardnetRun::start(&cb, now, o, Host::Browser, &mut out);
    (run, out)
}

const FRESH: &str = "https://m.example/cb?respCode=00&userAuthCode=U1&state=abcdefgh";
const PAYMENT: &str = r#"{"pay_channel":"cardnet","expend":{"pay_url":"https://c.example/p"}}"#;

fn payment(text: &str) -> Got<u32> {
    Got::Payment(Box::new(Payment::from_text(text)), 9)
}

#[test]
fn cardnet_orders_with_the_code_then_goes_to_the_pay_url_keeping_the_order_as_raw() {
    let (mut run, out) = cardnet(FRESH, r#"{"confirmTimeoutMs":700}"#);
    assert_eq!(kinds(&out), ["emit callback", "emit called", "timer Await 700", "await order 1"]);
    let Some(Cmd::Await(_, Hook::Order(o))) = out.last() else { unreachable!() };
    assert_eq!(o.user_auth_code, "U1");
    assert!(run.step_into_vec(Input::Settled(2, payment(PAYMENT))).is_empty(), "another token is a late answer");
    let out = run.step_into_vec(Input::Settled(1, payment(PAYMENT)));
    assert_eq!(kinds(&out), ["clear Await", "emit planned", "emit navigating", "go https://c.example/p"]);
    let out = run.step_into_vec(Input::Returned);
    assert!(matches!(out.last(), Some(Cmd::Done(r)) if r.0.status == Status::Redirected && r.1 == Some(9) && r.0.channel == "cardnet"));
    assert!(run.over());
    assert!(run.step_into_vec(Input::Returned).is_empty(), "nothing after the end");
}

#[test]
fn cardnet_fails_before_ordering_on_a_callback_that_cannot_pay() {
    // Five minutes after the code was read.
    let (run, out) = cardnet_at(FRESH, "{}", NOW + 300_001.0);
    assert_eq!(kinds(&out), ["emit callback", "fail auth_expired"]);
    assert!(run.over());
}

#[test]
fn cardnet_order_failures_time_out_and_wrong_payments_end_the_run() {
    let cases: [(Input<u32>, &str, &str); 5] = [
        (Input::Rejected(1, 5, true), "transport", "the order hook threw"),
        (Input::Rejected(1, 5, false), "transport", "the order hook's promise rejected"),
        (Input::Timer(Timer::Await), "transport", "the order hook did not answer within 700 ms (confirmTimeoutMs)"),
        (
            Input::Settled(1, payment(r#"{"pay_channel":"wallet1","pay_info":"https://p.example/x"}"#)),
            "invalid_payment",
            "pay_channel wallet1 is not the card network",
        ),
        (Input::Settled(1, Got::Payment(Box::new(Err(PayError::new(Code::InvalidPayment, "bad"))), 9)), "invalid_payment", "bad"),
    ];
    for (input, code, message) in cases {
        let (mut run, _) = cardnet(FRESH, r#"{"confirmTimeoutMs":700}"#);
        let out = run.step_into_vec(input);
        let Some(Cmd::Fail(e, ..)) = out.last() else { panic!("{message}: {:?}", kinds(&out)) };
        assert_eq!(e.code.as_str(), code);
        assert!(e.message.starts_with(message), "{}", e.message);
        assert!(run.over());
        assert!(run.step_into_vec(Input::Settled(1, payment(PAYMENT))).is_empty(), "a late order changes nothing");
    }
    // A page that cannot navigate.
    let (mut run, _) = cardnet(FRESH, "{}");
    run.step_into_vec(Input::Settled(1, payment(PAYMENT)));
    let out = run.step_into_vec(Input::Threw(3));
    assert!(matches!(out.last(), Some(Cmd::Fail(e, Some(3), None)) if e.code == Code::WrongRuntime));
}

impl CardnetRun<u32> {
    fn step_into_vec(&mut self, input: Input<u32>) -> Vec<Cmd<u32>> {
        let mut out = Vec::new();
        self.step_into(input, &Page, &mut out);
        out
    }
}

/// The platform of a call: whether it can send, and what a thrown value
/// says.
struct Net(bool);

impl Sender<u32> for Net {
    fn can_send(&self) -> bool {
        self.0
    }
    fn describe(&self, v: &u32) -> String {
        format!(": boom {v}")
    }
}

fn client(op: Operation, fields: Json, custom: bool, encrypting: bool, net: &Net) -> (VerifyRun<u32>, Vec<Cmd<u32>>) {
    let config = Config::new("sandbox-app-token-0000000000000000000000", "test", 2, 100).unwrap();
    let call = Call::new(&config, op, fields, false, 1_704_040_205_042.0, [7; 16]).encrypting(encrypting);
    let mut out = Vec::new();
    let run = VerifyRun::start(call, 500, custom, net, &mut out);
    (run, out)
}

fn card(extra: &[(&str, &str)]) -> Json {
    let mut f = vec![("full_name", Json::str("A")), ("acct_no", Json::str("4111111111111111")), ("source_channel", Json::str("0"))];
    f.extend(extra.iter().map(|(k, v)| (*k, Json::str(v))));
    Json::obj(f)
}

/// The order the answers of these tests echo.
const ORDER: &[(&str, &str)] = &[("order_id", "O1"), ("order_date", "20240101")];

fn body(data: &str) -> String {
    Json::obj(vec![("data", Json::str(data))]).to_text()
}

impl VerifyRun<u32> {
    fn feed(&mut self, input: Input<u32>, net: &Net) -> Vec<Cmd<u32>> {
        let mut out = Vec::new();
        self.step_into(input, net, &mut out);
        out
    }
}

#[test]
fn a_call_signs_sends_and_resolves_through_a_transport() {
    let net = Net(true);
    let (mut run, out) = client(Operation::CardCheck, card(ORDER), true, false, &net);
    assert_eq!(kinds(&out), ["timer Await 500", "await sign 1"]);
    assert_eq!(run.expects(), Expect::Text);
    let out = run.feed(Input::Settled(1, Got::Text(Ok("sig".into()))), &net);
    assert_eq!(kinds(&out), ["clear Await", "timer Await 500", "await send 2"]);
    assert_eq!(run.expects(), Expect::Answer);
    let ok = body(r#"{"return_code":"10200","resp_code":"00","service_date":"20240101","order_id":"O1","order_date":"20240101"}"#);
    let out = run.feed(Input::Settled(2, Got::Answer(Ok((200, ok)))), &net);
    assert_eq!(kinds(&out), ["clear Await", "resolve"]);
    assert!(run.over());
}

#[test]
fn fetch_answers_are_read_for_their_body_under_the_same_deadline() {
    let net = Net(true);
    let (mut run, _) = client(Operation::CardCheck, card(ORDER), false, false, &net);
    run.feed(Input::Settled(1, Got::Text(Ok("sig".into()))), &net);
    let out = run.feed(Input::Settled(2, Got::Response(Ok(200), 4)), &net);
    assert_eq!(kinds(&out), ["await body 3"], "no new timer: the request's deadline holds");
    assert!(run.feed(Input::Settled(2, Got::Response(Ok(200), 4)), &net).is_empty(), "the request's token is spent");
    let out = run.feed(
        Input::Settled(
            3,
            Got::Text(Ok(body(
                r#"{"return_code":"10200","resp_code":"00","service_date":"20240101","order_id":"O1","order_date":"20240101"}"#,
            ))),
        ),
        &net,
    );
    assert_eq!(kinds(&out), ["clear Await", "resolve"]);
}

#[test]
fn the_run_reads_what_it_awaits_from_the_call() {
    let net = Net(true);
    let (mut run, _) = client(Operation::CheckResult, Json::obj(vec![("seqId", Json::str("S"))]), false, false, &net);
    assert_eq!((run.call.phase(), run.expects(), run.sending()), (Phase::Signing, Expect::Text, false));
    run.feed(Input::Settled(1, Got::Text(Ok("sig".into()))), &net);
    assert_eq!((run.call.phase(), run.expects(), run.sending()), (Phase::Sending, Expect::Answer, true));
    // fetch answered: its body is read, the call still sending.
    run.feed(Input::Settled(2, Got::Response(Ok(200), 4)), &net);
    assert_eq!((run.call.phase(), run.expects(), run.sending()), (Phase::Sending, Expect::Text, true));
    // No body within the deadline: no answer, which the call meets with a
    // pause before the next try.
    let out = run.feed(Input::Timer(Timer::Await), &net);
    assert!(matches!(out.last(), Some(Cmd::SetTimer(Timer::Sleep, _))), "{:?}", kinds(&out));
    assert_eq!((run.call.phase(), run.sending(), run.over()), (Phase::Sleeping, false, false));
    run.feed(Input::Timer(Timer::Sleep), &net);
    assert_eq!((run.call.phase(), run.expects()), (Phase::Sending, Expect::Answer), "the signed query goes again");
    // A request answered with what is no answer ends the run, and the call.
    let out = run.feed(Input::Settled(4, Got::Answer(Err(PayError::new(Code::Transport, "no status")))), &net);
    assert!(matches!(out.last(), Some(Cmd::Fail(..))), "{:?}", kinds(&out));
    assert_eq!((run.call.phase(), run.over()), (Phase::Finished, true));
}

#[test]
fn requests_without_answers_are_tried_again_and_the_last_failure_is_told() {
    let net = Net(true);
    let (mut run, _) = client(Operation::CheckResult, Json::obj(vec![("seqId", Json::str("S"))]), false, false, &net);
    run.feed(Input::Settled(1, Got::Text(Ok("sig".into()))), &net);
    // Two tries (retry.attempts 2), each failing; the pause between them is
    // the run's own timer, and a late answer of the first try changes
    // nothing.
    let out = run.feed(Input::Timer(Timer::Await), &net);
    let mut token = 2;
    let mut last = out;
    loop {
        match last.last() {
            Some(Cmd::SetTimer(Timer::Sleep, _)) => last = run.feed(Input::Timer(Timer::Sleep), &net),
            Some(Cmd::Await(t, Hook::Sign(_))) => {
                token = *t;
                last = run.feed(Input::Settled(token, Got::Text(Ok("sig".into()))), &net)
            }
            Some(Cmd::Await(t, Hook::Send(_))) => {
                assert!(run.feed(Input::Settled(2, Got::Answer(Ok((200, String::new())))), &net).is_empty() || *t == 2);
                token = *t;
                last = run.feed(Input::Rejected(token, 6, false), &net);
            }
            _ => break,
        }
    }
    assert!(token > 2, "tried again");
    let Some(Cmd::FailCaused(e, 6)) = last.last() else { panic!("{:?}", kinds(&last)) };
    assert_eq!(e.code, Code::Transport);
    assert!(e.message.ends_with("(last: the request failed: boom 6)"), "{}", e.message);
}

#[test]
fn hooks_that_fail_answer_wrongly_or_late_end_the_call_naming_the_hook() {
    let net = Net(true);
    let cases: [(Input<u32>, &str, &str); 4] = [
        (
            Input::Settled(1, Got::Text(Err("number".into()))),
            "invalid_options",
            "sign must return the signature as a string (or a Promise of one), not number",
        ),
        (Input::Rejected(1, 5, true), "hook_failed", "the sign hook threw"),
        (Input::Rejected(1, 5, false), "hook_failed", "the sign hook's promise rejected"),
        (Input::Timer(Timer::Await), "hook_failed", "the sign hook did not answer within 500 ms (timeoutMs)"),
    ];
    for (input, code, message) in cases {
        let (mut run, _) = client(Operation::CardCheck, card(&[]), true, false, &net);
        let out = run.feed(input, &net);
        let Some(Cmd::Fail(e, ..)) = out.last() else { panic!("{message}: {:?}", kinds(&out)) };
        assert_eq!((e.code.as_str(), e.message.as_str(), e.field.as_deref()), (code, message, Some("sign")));
        assert!(run.feed(Input::Settled(1, Got::Text(Ok("late".into()))), &net).is_empty());
    }
    // Nothing to send with: refused before the hook is asked.
    let (_, out) = client(Operation::CardCheck, card(&[]), false, false, &Net(false));
    assert!(matches!(out.last(), Some(Cmd::Fail(e, None, None)) if e.code == Code::Transport && e.field.as_deref() == Some("transport")));
}

#[test]
fn encrypted_fields_are_asked_for_one_at_a_time_before_signing() {
    let net = Net(true);
    let (mut run, out) = client(Operation::CardCheck, card(&[("cvv2", "123")]), true, true, &net);
    let Some(Cmd::Await(1, Hook::Encrypt(p))) = out.last() else { panic!("{:?}", kinds(&out)) };
    assert_eq!((p.0.as_str(), p.1.as_str()), ("cvv2", "123"));
    let out = run.feed(Input::Settled(1, Got::Text(Ok("c1ph3r".into()))), &net);
    assert_eq!(kinds(&out), ["clear Await", "timer Await 500", "await sign 2"]);
    let Some(Cmd::Await(_, Hook::Sign(params))) = out.last() else { unreachable!() };
    assert!(params.iter().any(|(k, v)| k == "cvv2" && v == "c1ph3r"), "the signature covers what is sent");
}

#[test]
fn a_notification_is_accepted_only_when_verify_says_true() {
    let form = "seq_id=S1&order_id=o1&return_code=10200&resp_code=00&resp_info=ok&full_name=A&sign=abc";
    let n = || crate::verify::parse_notification(&Json::str(form)).unwrap();
    let mut out: Vec<Cmd<u32>> = Vec::new();
    let mut unchecked: Vec<Cmd<u32>> = Vec::new();
    let run = NoticeRun::start(n(), false, 500, &mut unchecked);
    assert_eq!(kinds(&unchecked), ["resolve"], "verify: false: the outcome at once, nothing asked");
    assert!(run.over());
    let mut run = NoticeRun::start(n(), true, 500, &mut out);
    assert_eq!(kinds(&out), ["timer Await 500", "await verify 1"]);
    let mut out = Vec::new();
    run.step_into(Input::Settled(1, Got::Flag(Ok(true))), &mut out);
    assert_eq!(kinds(&out), ["resolve"]);
    assert!(run.over());
    for (input, code) in [
        (Input::Settled(1, Got::Flag(Ok(false))), "bad_signature"),
        (Input::Settled(1, Got::Flag(Err("string".into()))), "invalid_options"),
        (Input::Rejected(1, 3, false), "hook_failed"),
        (Input::Timer(Timer::Await), "hook_failed"),
    ] {
        let mut run = NoticeRun::start(n(), true, 500, &mut Vec::<Cmd<u32>>::new());
        let mut out = Vec::new();
        run.step_into(input, &mut out);
        assert_eq!(kinds(&out), [format!("fail {code}")]);
        let mut after: Vec<Cmd<u32>> = Vec::new();
        run.step_into(Input::Settled(1, Got::Flag(Ok(true))), &mut after);
        assert!(after.is_empty(), "nothing after the end");
    }
}

#[test]
fn cardnet_passes_an_order_refusal_of_auth_expired_or_auth_used_through() {
    let e = order_refusal(Some("auth_expired"), Some("user_auth_code has expired (valid 5 minutes)")).unwrap();
    assert_eq!((e.code, e.field.as_deref()), (Code::AuthExpired, Some("userAuthCode")));
    assert_eq!(e.message, "order refused: user_auth_code has expired (valid 5 minutes)");
    let e = order_refusal(Some("auth_used"), None).unwrap();
    assert_eq!(e.code, Code::AuthUsed);
    assert!(e.message.contains("used already"));
    for other in [None, Some("transport"), Some("AUTH_USED"), Some(""), Some("auth_failed")] {
        assert!(order_refusal(other, Some("x")).is_none(), "{other:?}");
    }
    // As the edge feeds it: the run's answer, an error, and the run ends with it.
    let (mut run, _) = cardnet(FRESH, r#"{"confirmTimeoutMs":700}"#);
    let refused = order_refusal(Some("auth_expired"), None).unwrap();
    let out = run.step_into_vec(Input::Settled(1, Got::Payment(Box::new(Err(refused)), 9)));
    assert!(matches!(out.last(), Some(Cmd::Fail(e, None, None)) if e.code == Code::AuthExpired), "{:?}", kinds(&out));
    assert!(run.over());
}
