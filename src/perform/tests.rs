//! The performing rules on the host, with a fake world.

use super::*;
use crate::action::plan;
use crate::json::Json;
use crate::outcome::Callback;
use crate::payment::Payment;
use crate::runtime::Runtime;
use core::cell::Cell;

#[derive(Default)]
struct Fake {
    doc: bool,
    hidden: Cell<bool>,
    bridge: Cell<bool>,
    api: bool,
}

impl World for Fake {
    fn has_document(&self) -> bool {
        self.doc
    }
    fn visible(&self) -> bool {
        !self.hidden.get()
    }
    fn has_global(&self, _: &str) -> bool {
        self.bridge.get()
    }
    fn has_method(&self, _: &str, _: &str) -> bool {
        self.bridge.get()
    }
    fn api_has(&self, _: &str, _: &str) -> bool {
        self.api
    }
    fn unnamed(&self) -> bool {
        true
    }
}

fn page() -> Fake {
    Fake { doc: true, ..Fake::default() }
}

fn start(payment: &str, options: &str, host: Host, w: &Fake) -> (Run<u32>, Vec<Cmd<u32>>) {
    let p = Payment::from_text(payment).unwrap();
    let o = Options::from_json(Some(&crate::json::parse(options, Code::InvalidOptions, "options").unwrap())).unwrap();
    let rt = Runtime { host, mobile: true };
    let confirm = options.contains("\"confirm\"");
    Run::start(plan(&p, &o, rt).unwrap(), o, host, confirm, w)
}

const W1: &str = r#"{"pay_channel":"wallet1_pub","pay_info":{"tradeNO":"T1"}}"#;

fn answer(code: &str) -> Json {
    Json::obj(vec![("resultCode", Json::str(code))])
}

/// The commands by kind. `Done` reports the event `result`, then ends the
/// run: it reads as both.
fn kinds(cmds: &[Cmd<u32>]) -> Vec<String> {
    cmds.iter()
        .flat_map(|c| match c {
            Cmd::Done(_) => vec!["emit result".into(), kind(c)],
            c => vec![kind(c)],
        })
        .collect()
}

fn kind(c: &Cmd<u32>) -> String {
    match c {
        Cmd::Emit(k, _) => format!("emit {k}"),
        Cmd::Listen(_, e) => format!("listen {e}"),
        Cmd::Unlisten(_, e) => format!("unlisten {e}"),
        Cmd::SetTimer(t, ms) => format!("timer {t:?} {ms}"),
        Cmd::ClearTimer(t) => format!("clear {t:?}"),
        Cmd::Navigate(u) => format!("go {u}"),
        Cmd::CallBridge(c) => format!("call {}", c.op),
        Cmd::CallApi(c) => format!("api {}", c.method),
        Cmd::Await(t, Hook::Confirm(_)) => format!("await confirm {t}"),
        Cmd::Await(t, _) => format!("await {t}"),
        Cmd::Resolve(_) => "resolve".into(),
        Cmd::Found(b) => format!("found {b}"),
        Cmd::Explain(e) => format!("explain {}", e.code.as_str()),
        Cmd::FailCaused(e, _) => format!("fail {}", e.code.as_str()),
        Cmd::Preload => "preload".into(),
        Cmd::HandOff(r, ms) => format!("hand off {} {ms}", r.0.status.as_str()),
        Cmd::Done(r) => format!("done {}", r.0.status.as_str()),
        Cmd::Fail(e, ..) => format!("fail {}", e.code.as_str()),
    }
}

#[test]
fn listens_first_then_looks_and_calls_when_the_event_comes() {
    let w = page();
    let (mut run, out) = start(W1, "{}", Host::Wallet1, &w);
    assert_eq!(kinds(&out), ["emit planned", "emit waiting", "listen Wallet1JSBridgeReady", "timer Ready 10000"]);
    assert_eq!(run.counts(), (1, 1, 0));
    // An event without the bridge behind it keeps the wait.
    assert!(run.step(Input::Event("Wallet1JSBridgeReady".into()), &w).is_empty());
    w.bridge.set(true);
    let out = run.step(Input::Event("Wallet1JSBridgeReady".into()), &w);
    assert_eq!(kinds(&out), ["unlisten Wallet1JSBridgeReady", "clear Ready", "emit bridge_ready", "emit called", "call tradePay"]);
    // The callback during the call counts; a second one is ignored.
    let out = run.step(Input::Callback(Callback::Success, 1, answer("9000")), &w);
    assert_eq!(kinds(&out), ["emit callback"]);
    let out = run.step(Input::Callback(Callback::Success, 2, answer("6001")), &w);
    assert_eq!(kinds(&out), ["emit callback_ignored"]);
    let out = run.step(Input::Returned, &w);
    assert_eq!(kinds(&out), ["emit result", "done succeeded"]);
    assert!(matches!(out.last(), Some(Cmd::Done(r)) if r.1 == Some(1) && r.0.code.as_deref() == Some("9000")));
    assert!(run.over());
    assert!(run.step(Input::Callback(Callback::Success, 3, answer("9000")), &w).is_empty());
}

#[test]
fn a_bridge_already_there_is_called_at_once_and_the_last_look_finds_a_late_one() {
    let w = page();
    w.bridge.set(true);
    let (_, out) = start(W1, "{}", Host::Wallet1, &w);
    assert_eq!(
        kinds(&out),
        [
            "emit planned",
            "emit waiting",
            "listen Wallet1JSBridgeReady",
            "unlisten Wallet1JSBridgeReady",
            "emit bridge_ready",
            "emit called",
            "call tradePay"
        ]
    );
    let w = page();
    let (mut run, _) = start(W1, r#"{"timeoutMs":800}"#, Host::Wallet1, &w);
    w.bridge.set(true);
    let out = run.step(Input::Timer(Timer::Ready), &w);
    assert_eq!(kinds(&out), ["unlisten Wallet1JSBridgeReady", "emit bridge_ready", "emit called", "call tradePay"]);
}

#[test]
fn no_bridge_times_out_and_a_missing_one_outside_the_wallet_is_wrong_runtime() {
    let w = page();
    let (mut run, _) = start(W1, r#"{"timeoutMs":500}"#, Host::Wallet1, &w);
    let out = run.step(Input::Timer(Timer::Ready), &w);
    assert_eq!(kinds(&out), ["unlisten Wallet1JSBridgeReady", "emit timeout", "fail bridge_timeout"]);
    assert!(matches!(&out[2], Cmd::Fail(e, None, None) if e.message.contains("within 500 ms") && e.field.as_deref() == Some("timeoutMs")));
    let (_, out) = start(W1, "{}", Host::Browser, &w);
    assert_eq!(kinds(&out), ["emit planned", "fail wrong_runtime"]);
    // No document: only a bridge already there counts.
    let (_, out) = start(W1, "{}", Host::Wallet1, &Fake::default());
    assert_eq!(kinds(&out), ["emit planned", "emit waiting", "fail wrong_runtime"]);
}

#[test]
fn a_call_that_threw_after_calling_back_has_answered() {
    let w = page();
    w.bridge.set(true);
    let (mut run, _) = start(W1, "{}", Host::Wallet1, &w);
    run.step(Input::Callback(Callback::Success, 1, answer("6001")), &w);
    let out = run.step(Input::Threw(9), &w);
    assert_eq!(kinds(&out), ["emit result", "done cancelled"]);
    let (mut run, _) = start(W1, "{}", Host::Wallet1, &w);
    let out = run.step(Input::Threw(9), &w);
    assert!(matches!(&out[0], Cmd::Fail(e, Some(9), None) if e.message == "the wallet bridge threw on tradePay"));
}

#[test]
fn the_page_shown_again_without_an_answer_is_pending_after_the_grace() {
    let w = page();
    w.bridge.set(true);
    let (mut run, _) = start(W1, r#"{"callbackTimeoutMs":5000}"#, Host::Wallet1, &w);
    let out = run.step(Input::Returned, &w);
    assert_eq!(kinds(&out), ["timer Answer 5000", "listen visibilitychange"]);
    // Shown without having been hidden: nothing.
    assert!(run.step(Input::Event("visibilitychange".into()), &w).is_empty());
    w.hidden.set(true);
    assert_eq!(kinds(&run.step(Input::Event("visibilitychange".into()), &w)), ["clear Grace"]);
    w.hidden.set(false);
    assert_eq!(kinds(&run.step(Input::Event("visibilitychange".into()), &w)), ["timer Grace 1500"]);
    let out = run.step(Input::Timer(Timer::Grace), &w);
    assert_eq!(kinds(&out), ["unlisten visibilitychange", "clear Answer", "clear Grace", "emit result", "done pending"]);
    assert!(matches!(out.last(), Some(Cmd::Done(r)) if r.1.is_none()));
}

#[test]
fn confirm_turns_the_hint_into_a_verified_status_or_fails_keeping_it() {
    let w = page();
    w.bridge.set(true);
    let opts = r#"{"confirm":1,"confirmTimeoutMs":700}"#;
    let (mut run, _) = start(W1, opts, Host::Wallet1, &w);
    run.step(Input::Callback(Callback::Success, 1, answer("6001")), &w);
    let out = run.step(Input::Returned, &w);
    assert_eq!(kinds(&out), ["timer Await 700", "await confirm 1"]);
    let out = run.step(Input::Settled(1, Got::Text(Ok("succeeded".into()))), &w);
    assert!(matches!(out.last(), Some(Cmd::Done(r)) if r.1 == Some(1) && r.0.verified && r.0.status == Status::Succeeded));
    for (input, msg) in [
        (
            Input::Settled(1, Got::Text(Ok("yes".into()))),
            "the confirm hook answered yes; it must answer a PayResult status such as \"succeeded\"",
        ),
        (Input::Rejected(1, 5, false), "the confirm hook's promise rejected"),
        (Input::Rejected(1, 5, true), "the confirm hook threw"),
        (Input::Timer(Timer::Await), "the confirm hook did not answer within 700 ms (confirmTimeoutMs)"),
    ] {
        let (mut run, _) = start(W1, opts, Host::Wallet1, &w);
        run.step(Input::Callback(Callback::Success, 1, answer("6001")), &w);
        run.step(Input::Returned, &w);
        let out = run.step(input, &w);
        assert!(
            matches!(&out[0], Cmd::Fail(e, _, Some(r)) if r.1 == Some(1) && e.message == msg && r.0.status == Status::Cancelled && !r.0.verified),
            "{msg}"
        );
    }
}

#[test]
fn without_confirm_here_the_result_is_handed_over_and_confirmed_by_the_run_that_goes_on() {
    let w = page();
    w.bridge.set(true);
    let opts = r#"{"confirm":1,"confirmTimeoutMs":700}"#;
    // The answer after the call returned: the other module is preloaded
    // while the wallet's screen is up, then given the result.
    let (mut run, _) = start(W1, opts, Host::Wallet1, &w);
    run.hand_off = true;
    assert!(run.takes_answer(), "a callback during the call counts");
    let out = run.step(Input::Returned, &w);
    assert_eq!(kinds(&out), ["preload", "timer Answer 600000", "listen visibilitychange"]);
    assert!(run.takes_answer());
    let out = run.step(Input::Callback(Callback::Success, 1, answer("6001")), &w);
    assert!(!run.takes_answer(), "only the first answer is read");
    assert_eq!(kinds(&out), ["emit callback", "unlisten visibilitychange", "clear Answer", "clear Grace", "hand off cancelled 700"]);
    assert!(run.over());
    assert!(run.step(Input::Settled(1, Got::Text(Ok("succeeded".into()))), &w).is_empty(), "the run that handed over is over");
    // The answer during the call: handed over when the call returns.
    let (mut run, _) = start(W1, opts, Host::Wallet1, &w);
    run.hand_off = true;
    run.step(Input::Callback(Callback::Success, 1, answer("9000")), &w);
    let out = run.step(Input::Returned, &w);
    let Some(Cmd::HandOff(r, 700)) = out.last() else { panic!("{:?}", kinds(&out)) };
    assert_eq!((r.0.status, r.1), (Status::Succeeded, Some(1)));
    // No confirm: nothing is preloaded or handed over.
    let (mut run, _) = start(W1, "{}", Host::Wallet1, &w);
    run.hand_off = true;
    assert!(!kinds(&run.step(Input::Returned, &w)).contains(&"preload".to_string()));
    assert_eq!(kinds(&run.step(Input::Callback(Callback::Success, 1, answer("9000")), &w)).last().unwrap(), "done succeeded");

    // The run that goes on: confirm, then as any run.
    let hint = || PayResult::new(Status::Cancelled, "wallet1_pub", Some("6001".into()));
    let mut out = Vec::new();
    let mut run = Run::confirming(hint(), Some(1), 700, &mut out);
    assert_eq!(kinds(&out), ["timer Await 700", "await confirm 1"]);
    let out = run.step(Input::Settled(1, Got::Text(Ok("succeeded".into()))), &w);
    assert!(
        matches!(out.last(), Some(Cmd::Done(r)) if r.1 == Some(1) && r.0.verified && r.0.status == Status::Succeeded && r.0.channel == "wallet1_pub")
    );
    let mut run = Run::confirming(hint(), Some(1), 700, &mut Vec::new());
    let out = run.step(Input::Timer(Timer::Await), &w);
    assert!(
        matches!(&out[0], Cmd::Fail(e, _, Some(r)) if e.code == Code::ConfirmFailed && r.0 == hint() && r.1 == Some(1)),
        "{:?}",
        kinds(&out)
    );
}

#[test]
fn a_scheme_url_falls_back_only_when_the_page_stayed_visible() {
    let pay = r#"{"pay_channel":"wallet1","pay_info":"https://pay.example.com/c"}"#;
    let w = page();
    let (mut run, out) = start(pay, r#"{"fallbackAfterMs":2000}"#, Host::Browser, &w);
    assert!(matches!(out.last(), Some(Cmd::Navigate(u)) if u.starts_with("wallet1://")), "{:?}", kinds(&out));
    let out = run.step(Input::Returned, &w);
    assert_eq!(kinds(&out), ["listen visibilitychange", "listen pagehide", "listen blur", "timer Fallback 2000"]);
    let out = run.step(Input::Timer(Timer::Fallback), &w);
    assert_eq!(kinds(&out)[3..], ["emit navigating", "go https://pay.example.com/c"]);
    assert_eq!(kinds(&run.step(Input::Returned, &w)), ["emit result", "done redirected"]);
    let (mut run, _) = start(pay, r#"{"fallbackAfterMs":2000}"#, Host::Browser, &w);
    run.step(Input::Returned, &w);
    run.step(Input::Event("blur".into()), &w);
    assert_eq!(kinds(&run.step(Input::Timer(Timer::Fallback), &w)), ["emit result", "done opened"]);
}

#[test]
fn mini_program_calls_need_the_api_and_the_first_callback_counts() {
    let pay = r#"{"pay_channel":"wallet2_lite","pay_info":{"timeStamp":"1","nonceStr":"n","package":"p","signType":"RSA","paySign":"s"}}"#;
    let (_, out) = start(pay, "{}", Host::Wallet2MiniProgram, &Fake::default());
    assert_eq!(kinds(&out), ["emit planned", "fail wrong_runtime"]);
    let w = Fake { api: true, ..Fake::default() };
    let (mut run, out) = start(pay, "{}", Host::Wallet2MiniProgram, &w);
    assert!(matches!(out.last(), Some(Cmd::CallApi(c)) if c.method == "requestPayment" && c.complete));
    let cancel = Json::obj(vec![("errMsg", Json::str("requestPayment:fail cancel"))]);
    run.step(Input::Callback(Callback::CompleteOnly, 1, cancel), &w);
    let out = run.step(Input::Returned, &w);
    assert!(matches!(out.last(), Some(Cmd::Done(r)) if r.1 == Some(1) && r.0.status == Status::Cancelled));
}

#[test]
fn wait_for_bridge_alone_listens_first_and_ends_once() {
    let w = page();
    let (mut wait, out) = BridgeWait::start::<u32>("B".into(), "BReady".into(), 300, &w);
    assert_eq!(kinds(&out), ["listen BReady", "timer Ready 300"]);
    assert_eq!(wait.waiting(), Some("BReady"));
    assert!(wait.step::<u32>(Input::Event("BReady".into()), &w).is_empty(), "no bridge behind the event");
    w.bridge.set(true);
    let out = wait.step::<u32>(Input::Event("BReady".into()), &w);
    assert_eq!(kinds(&out), ["unlisten BReady", "clear Ready", "found B"]);
    assert_eq!(wait.waiting(), None);
    assert!(wait.step::<u32>(Input::Event("BReady".into()), &w).is_empty(), "found once");
    assert!(wait.step::<u32>(Input::Timer(Timer::Ready), &w).is_empty(), "a late timer changes nothing");

    // Already there: listened, then looked, then found, with no timer.
    let (wait, out) = BridgeWait::start::<u32>("B".into(), "BReady".into(), 300, &w);
    assert_eq!(kinds(&out), ["listen BReady", "unlisten BReady", "found B"]);
    assert_eq!(wait.waiting(), None);
}

#[test]
fn wait_for_bridge_alone_looks_once_more_at_the_time_out() {
    let w = page();
    let (mut wait, _) = BridgeWait::start::<u32>("B".into(), "BReady".into(), 50, &w);
    let out = wait.step::<u32>(Input::Timer(Timer::Ready), &w);
    assert_eq!(kinds(&out), ["unlisten BReady", "fail bridge_timeout"]);
    let Cmd::Fail(e, ..) = &out[1] else { unreachable!() };
    assert_eq!(e.field.as_deref(), Some("timeoutMs"));
    assert!(e.message.contains("within 50 ms"), "{}", e.message);

    // The bridge came just before the time-out, its event missed.
    let (mut wait, _) = BridgeWait::start::<u32>("B".into(), "BReady".into(), 50, &w);
    w.bridge.set(true);
    assert_eq!(kinds(&wait.step::<u32>(Input::Timer(Timer::Ready), &w)), ["unlisten BReady", "found B"]);

    // No document: only a bridge already there counts.
    let none = Fake::default();
    let (wait, out) = BridgeWait::start::<u32>("B".into(), "BReady".into(), 50, &none);
    assert_eq!(kinds(&out), ["fail wrong_runtime"]);
    assert_eq!(wait.waiting(), None);
}

#[test]
fn only_the_mini_program_module_words_a_missing_api_for_a_bare_caller() {
    // The host build is no mini-program module: every refusal stays as it
    // is, even for a caller that named neither `api` nor `runtime`.
    let e = PayError::field(Code::WrongRuntime, "miniProgram", "the planner's words");
    let same = super::no_api(e, &page());
    assert_eq!((same.code, same.field.as_deref(), same.message.as_str()), (Code::WrongRuntime, Some("miniProgram"), "the planner's words"));
}
