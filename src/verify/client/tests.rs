//! Unit tests of the sans-IO verification client: every step and fault.

use super::*;

const TOKEN: &str = "sandbox-app-token-0000000000000000000000";

fn call(op: Operation, fields: Json) -> Call {
    let config = Config::new(TOKEN, "test", 3, 100).unwrap();
    Call::new(&config, op, fields, false, 1_704_040_205_042.0, [7; 16])
}

fn card_fields() -> Json {
    Json::obj(vec![("full_name", Json::str("A")), ("acct_no", Json::str("4111111111111111")), ("source_channel", Json::str("0"))])
}

fn answer(data: &str) -> Event {
    let body = Json::obj(vec![("data", Json::str(data))]).to_text();
    Event::Response { status: 200, body }
}

#[test]
fn card_check_in_four_steps() {
    let mut c = call(Operation::CardCheck, card_fields());
    let Step::NeedSign(params) = c.next(Event::Start) else { panic!("expected NeedSign") };
    assert_eq!(params[0], ("order_date".into(), "20240101".into()));
    assert_eq!(params[1], ("order_id".into(), "202401010030050420707070707070707".into()));
    assert_eq!(c.order_id(), "202401010030050420707070707070707");
    let Step::Send(req) = c.next(Event::Signed("sig".into())) else { panic!("expected Send") };
    assert_eq!((req.method, req.path.as_str()), ("POST", crate::verify::request::CARD_CHECK_PATH));
    assert_eq!(req.param("sign"), Some("sig"));
    let echoes = r#""order_id":"202401010030050420707070707070707","order_date":"20240101""#;
    let ok = cat!(r#"{"return_code":"10200","resp_code":"01","service_date":"20240101","#, echoes, "}");
    let Step::Done(Ok(o)) = c.next(answer(&ok)) else { panic!("expected an outcome") };
    assert_eq!(o.state, State::Inconsistent);
    assert_eq!(o.order_id, "202401010030050420707070707070707");
    assert_eq!(o.order_date, "20240101");
    assert_eq!(o.record, None);
}

#[test]
fn a_result_without_the_required_envelope_fields_is_not_taken() {
    let full = [("service_date", "20240101"), ("order_id", "202401010030050420707070707070707"), ("order_date", "20240101")];
    for left_out in ["service_date", "order_id", "order_date"] {
        let mut c = call(Operation::CardCheck, card_fields());
        c.next(Event::Start);
        c.next(Event::Signed("sig".into()));
        let mut data = vec![("return_code", Json::str("10200")), ("resp_code", Json::str("00"))];
        data.extend(full.iter().filter(|(k, _)| *k != left_out).map(|(k, v)| (*k, Json::str(v))));
        let Step::Done(Err(e)) = c.next(answer(&Json::obj(data).to_text())) else { panic!("expected an error without {left_out}") };
        assert_eq!((e.code, e.field.as_deref()), (Code::InvalidResponse, Some(left_out)), "{}", e.message);
    }
    // A failure carries no result, and no echo is required of it.
    let mut c = call(Operation::CardCheck, card_fields());
    c.next(Event::Start);
    c.next(Event::Signed("sig".into()));
    let Step::Done(Ok(o)) = c.next(answer(r#"{"return_code":"10210"}"#)) else { panic!("expected an outcome") };
    assert_eq!(o.state, State::CallFailed);
}

#[test]
fn invalid_fields_end_at_once() {
    let mut c = call(Operation::NameCheck, Json::obj(vec![]));
    let Step::Done(Err(e)) = c.next(Event::Start) else { panic!("expected an error") };
    assert_eq!(e.code, Code::InvalidRequest);
    let fields: Vec<&str> = e.details.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(fields, ["full_name", "id_number", "source_channel"]);
}

#[test]
fn empty_signature_is_refused() {
    let mut c = call(Operation::CheckResult, Json::obj(vec![("seqId", Json::str("S"))]));
    assert!(matches!(c.next(Event::Start), Step::NeedSign(_)));
    let Step::Done(Err(e)) = c.next(Event::Signed(String::new())) else { panic!("expected an error") };
    assert_eq!(e.field.as_deref(), Some("sign"));
}

#[test]
fn events_out_of_order_and_after_the_end() {
    let mut c = call(Operation::CardCheck, card_fields());
    let Step::Done(Err(e)) = c.next(Event::Slept) else { panic!("expected an error") };
    assert_eq!(e.message, "the call was told Slept while waiting for Start");
    let Step::Done(Err(e)) = c.next(Event::Start) else { panic!("expected an error") };
    assert_eq!(e.message, "the call has already finished");
}

#[test]
fn the_phase_says_what_the_call_waits_for_until_it_ends() {
    let mut c = call(Operation::CheckResult, Json::obj(vec![("seqId", Json::str("S"))]));
    assert_eq!(c.phase(), Phase::New);
    assert!(matches!(c.next(Event::Start), Step::NeedSign(_)));
    assert_eq!(c.phase(), Phase::Signing);
    assert!(matches!(c.next(Event::Signed("sig".into())), Step::Send(_)));
    assert_eq!(c.phase(), Phase::Sending);
    assert!(matches!(c.next(Event::NoAnswer), Step::Sleep(_)));
    assert_eq!(c.phase(), Phase::Sleeping);
    assert!(matches!(c.next(Event::Slept), Step::Send(_)));
    assert_eq!(c.phase(), Phase::Sending);
    // Ended by the edge (a hook that failed): over, as after Done.
    c.end();
    assert_eq!(c.phase(), Phase::Finished);
    let Step::Done(Err(e)) = c.next(Event::NoAnswer) else { panic!("expected an error") };
    assert_eq!(e.message, "the call has already finished");
}
