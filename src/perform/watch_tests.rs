//! `watchPayment`'s rules on the host: the schedule of asks against a clock
//! the test keeps, what the page may say after each answer, and the end.

use super::io::{Got, Hook};
use super::watch::{Says, WatchOptions, WatchRun, EVENT};
use super::*;
use crate::json::Json;

fn opts(fields: &[(&str, Json)], signal: bool) -> Result<WatchOptions, PayError> {
    WatchOptions::read(|n| fields.iter().find(|(k, _)| *k == n).map(|(_, v)| v.clone()), signal)
}

fn start(o: WatchOptions) -> (WatchRun, Vec<Cmd<u32>>) {
    let mut out = Vec::new();
    let run = WatchRun::start(o, &mut out);
    (run, out)
}

fn step(run: &mut WatchRun, input: Input<u32>) -> Vec<Cmd<u32>> {
    let mut out = Vec::new();
    run.step_into(input, &mut out);
    out
}

/// The token of the ask the commands make, if they make one.
fn asked(cmds: &[Cmd<u32>]) -> Option<u32> {
    cmds.iter().find_map(|c| match c {
        Cmd::Await(t, Hook::Ask) => Some(*t),
        _ => None,
    })
}

fn timer(cmds: &[Cmd<u32>], which: Timer) -> Option<u32> {
    cmds.iter().find_map(|c| match c {
        Cmd::SetTimer(t, ms) if *t == which => Some(*ms),
        _ => None,
    })
}

/// What the page was told to say (the `status` event), if anything.
fn said(cmds: &[Cmd<u32>]) -> Option<Json> {
    cmds.iter().find_map(|c| match c {
        Cmd::Emit(e, Detail::Json(j)) if *e == EVENT => Some(j.clone()),
        _ => None,
    })
}

fn ended(cmds: &[Cmd<u32>]) -> Option<Json> {
    cmds.iter().find_map(|c| match c {
        Cmd::Resolve(j) => Some(j.clone()),
        _ => None,
    })
}

fn text(word: &str) -> Got<u32> {
    Got::Text(Ok(word.into()))
}

/// Drives a watch against a merchant that says `created` until `paid_at`
/// ms and `word` from then on (each ask answered at once), on a clock the
/// test advances by each timer the run sets. Answers when the page was
/// told something final, and the times of the asks.
fn drive(o: WatchOptions, paid_at: u64, word: &str) -> (u64, Json, Vec<u64>) {
    let (mut run, mut cmds) = start(o);
    let mut clock = 0u64;
    let mut asks = Vec::new();
    for _ in 0..1000 {
        if let Some(t) = asked(&cmds) {
            asks.push(clock);
            let now = if clock >= paid_at { word } else { "created" };
            cmds = step(&mut run, Input::Settled(t, text(now)));
            if let Some(end) = ended(&cmds) {
                return (clock, end, asks);
            }
            let said = said(&cmds).unwrap();
            assert_eq!(said.get("status").and_then(Json::as_str), Some("not_paid_yet"), "{said:?}");
            continue;
        }
        let ms = timer(&cmds, Timer::Sleep).expect("a sleep before the next ask");
        clock += ms as u64;
        cmds = step(&mut run, Input::Timer(Timer::Sleep));
    }
    panic!("the watch never ended");
}

#[test]
fn asks_at_once_then_backs_off_doubling_to_the_cap() {
    let (_, _, asks) = drive(opts(&[], false).unwrap(), 200_000, "paid");
    assert_eq!(&asks[..8], &[0, 2000, 6000, 14000, 30000, 60000, 90000, 120000]);
    // A test (or a demo) shortens the back-off.
    let short = opts(&[("intervalMs", Json::Num(100.0)), ("maxIntervalMs", Json::Num(400.0))], false).unwrap();
    let (_, _, asks) = drive(short, 2000, "paid");
    assert_eq!(&asks[..6], &[0, 100, 300, 700, 1100, 1500]);
}

#[test]
fn a_late_payment_is_said_paid_at_the_next_ask() {
    let o = opts(&[("intervalMs", Json::Num(500.0)), ("maxIntervalMs", Json::Num(2000.0))], false).unwrap();
    // The wallet's payment reaches the merchant 3 s after the page asked.
    let (at, end, _) = drive(o, 3000, "paid");
    assert!((3000..=3000 + 2000).contains(&at), "said paid at {at} ms");
    assert_eq!(end.get("status").and_then(Json::as_str), Some("paid"));
    assert_eq!(end.get("merchant").and_then(Json::as_str), Some("paid"));
    assert_eq!(end.get("final"), Some(&Json::Bool(true)));
    // `succeeded` is paid too; `closed` is the one word that says nothing
    // was charged.
    let (_, end, _) = drive(opts(&[], false).unwrap(), 0, "succeeded");
    assert_eq!(end.get("status").and_then(Json::as_str), Some("paid"));
    let (_, end, _) = drive(opts(&[], false).unwrap(), 5000, "closed");
    assert_eq!(end.get("status").and_then(Json::as_str), Some("closed"));
    for w in ["created", "pending", "cancelled", "failed", "", "PAID"] {
        assert_eq!(Says::of(w), Says::NotPaidYet, "{w}");
    }
}

#[test]
fn a_failed_ask_is_not_paid_yet_and_asked_again() {
    let (mut run, cmds) = start(opts(&[("intervalMs", Json::Num(1000.0))], false).unwrap());
    assert_eq!(timer(&cmds, Timer::Await), Some(15000));
    assert_eq!(asked(&cmds), Some(1));
    // Rejected: asked again after the back-off.
    let cmds = step(&mut run, Input::Rejected(1, 0, false));
    let s = said(&cmds).unwrap();
    assert_eq!(s.get("status").and_then(Json::as_str), Some("not_paid_yet"));
    assert_eq!(s.get("error").and_then(Json::as_str), Some("ask failed"));
    assert_eq!(s.get("nextInMs"), Some(&Json::Num(1000.0)));
    assert_eq!(asked(&step(&mut run, Input::Timer(Timer::Sleep))), Some(2));
    // No answer within timeoutMs: the same; its late answer changes nothing.
    let cmds = step(&mut run, Input::Timer(Timer::Await));
    assert!(said(&cmds).unwrap().get("error").and_then(Json::as_str).unwrap().contains("timeoutMs"));
    assert!(step(&mut run, Input::Settled(2, text("paid"))).is_empty());
    let cmds = step(&mut run, Input::Timer(Timer::Sleep));
    assert_eq!(asked(&cmds), Some(3));
    // An answer that is no status: the same.
    let cmds = step(&mut run, Input::Settled(3, Got::Text(Err("number".into()))));
    assert!(said(&cmds).unwrap().get("error").and_then(Json::as_str).unwrap().starts_with("ask answered number"));
    assert!(ended(&cmds).is_none());
    // A timer that is not the run's, or an answer with another token: nothing.
    assert!(step(&mut run, Input::Settled(3, text("paid"))).is_empty());
    assert!(step(&mut run, Input::Timer(Timer::Await)).is_empty());
    let cmds = step(&mut run, Input::Timer(Timer::Sleep));
    assert_eq!(asked(&cmds), Some(4));
    let cmds = step(&mut run, Input::Settled(4, text("paid")));
    assert!(ended(&cmds).is_some());
    assert!(run.over());
    assert!(step(&mut run, Input::Timer(Timer::Sleep)).is_empty());
}

#[test]
fn stops_on_its_deadline_or_its_signal_saying_not_paid_yet() {
    let o = opts(&[("stopAfterMs", Json::Num(60000.0)), ("firstAfterMs", Json::Num(500.0))], true).unwrap();
    let (mut run, cmds) = start(o);
    assert!(matches!(&cmds[0], Cmd::Listen(Target::Signal, e) if e == "abort"));
    assert_eq!(timer(&cmds, Timer::Ready), Some(60000));
    assert_eq!(timer(&cmds, Timer::Sleep), Some(500));
    assert_eq!(asked(&cmds), None);
    let cmds = step(&mut run, Input::Timer(Timer::Sleep));
    step(&mut run, Input::Settled(asked(&cmds).unwrap(), text("created")));
    let end = ended(&step(&mut run, Input::Timer(Timer::Ready))).unwrap();
    assert_eq!(end.get("status").and_then(Json::as_str), Some("not_paid_yet"));
    assert_eq!(end.get("merchant").and_then(Json::as_str), Some("created"));
    assert_eq!(end.get("final"), Some(&Json::Bool(false)));
    assert!(run.over());

    let (mut run, _) = start(opts(&[], true).unwrap());
    let end = ended(&step(&mut run, Input::Event("abort".into()))).unwrap();
    assert_eq!(end.get("final"), Some(&Json::Bool(false)));
    // Aborted before it started: it ends at once, asking nothing.
    let mut o = opts(&[], true).unwrap();
    o.aborted = true;
    let (run, cmds) = start(o);
    assert!(run.over() && asked(&cmds).is_none() && ended(&cmds).is_some());
}

#[test]
fn options_are_whole_ms_and_name_their_field() {
    let d = opts(&[], false).unwrap();
    assert_eq!((d.first_after_ms, d.interval_ms, d.max_interval_ms, d.timeout_ms, d.stop_after_ms), (0, 2000, 30000, 15000, None));
    for (name, v) in [
        ("intervalMs", Json::Num(0.0)),
        ("intervalMs", Json::Num(1.5)),
        ("timeoutMs", Json::Str("5".into())),
        ("maxIntervalMs", Json::Num(-1.0)),
        ("stopAfterMs", Json::Num(0.0)),
        ("firstAfterMs", Json::Num(3e9)),
    ] {
        let e = opts(&[(name, v)], false).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some(name)));
        assert!(e.message.contains(name));
    }
    let e = opts(&[("intervalMs", Json::Num(5000.0)), ("maxIntervalMs", Json::Num(1000.0))], false).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("maxIntervalMs"));
    // A long interval raises the default cap with it.
    assert_eq!(opts(&[("intervalMs", Json::Num(60000.0))], false).unwrap().max_interval_ms, 60000);
}
