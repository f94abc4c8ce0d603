//! The planner against the shared vectors of `tests/vectors/` (the same
//! files the Node and browser tests run through the built package).
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::from_serde;
use paybridge::error::Code;
use paybridge::json::Json;
use paybridge::runtime::{Host, Runtime};
use paybridge::{plan, Options, Payment};

/// Test files are read with serde_json: they hold inputs deeper than the
/// module itself accepts.
fn load(name: &str) -> Vec<Json> {
    let text = std::fs::read_to_string(format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    match from_serde(serde_json::from_str(&text).unwrap()) {
        Json::Arr(items) => items,
        _ => panic!("{name} is not a list"),
    }
}

fn browser() -> Runtime {
    Runtime { host: Host::Browser, mobile: false }
}

/// Decode, read options, plan: what `planAction` does after reading its
/// arguments.
fn plan_case(payment: &Json, options: Option<&Json>) -> Result<Json, paybridge::PayError> {
    let opts = Options::from_json(options)?;
    let payment = Payment::from_json(payment.clone())?;
    let rt = opts.runtime.unwrap_or_else(browser);
    Ok(plan(&payment, &opts, rt)?.to_json())
}

#[test]
fn golden_actions() {
    let cases = load("plan.json");
    assert!(cases.len() >= 20);
    for c in &cases {
        let name = c.get("name").and_then(Json::as_str).unwrap();
        let got = plan_case(c.get("payment").unwrap(), c.get("options")).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&got, c.get("expect").unwrap(), "{name}");
    }
}

#[test]
fn hostile_inputs_fail_with_their_code() {
    let cases = load("hostile.json");
    assert!(cases.len() >= 100, "{} cases", cases.len());
    for c in &cases {
        let name = c.get("name").and_then(Json::as_str).unwrap();
        let e = plan_case(c.get("payment").unwrap(), c.get("options")).expect_err(name);
        assert_eq!(e.code.as_str(), c.get("code").and_then(Json::as_str).unwrap(), "{name}: {}", e.message);
        if let Some(f) = c.get("field").and_then(Json::as_str) {
            assert_eq!(e.field.as_deref(), Some(f), "{name}: {}", e.message);
        }
        assert!(!e.message.is_empty());
    }
}

#[test]
fn huge_inputs_fail_cleanly() {
    let big = "x".repeat(2 << 20);
    let text = format!(r#"{{"pay_channel":"wallet1","pay_info":"https://pay.example.com/","blob":"{big}"}}"#);
    assert_eq!(Payment::from_text(&text).unwrap_err().code, Code::InvalidPayment);
    let long_url = format!("https://pay.example.com/{big}");
    let p = Payment::from_json(Json::obj(vec![("pay_channel", Json::str("wallet1")), ("pay_info", Json::Str(long_url))])).unwrap();
    assert_eq!(plan(&p, &Options::default(), browser()).unwrap_err().code, Code::UnsafeUrl);
}

#[test]
fn planning_is_pure() {
    for c in load("plan.json") {
        let a = plan_case(c.get("payment").unwrap(), c.get("options"));
        let b = plan_case(c.get("payment").unwrap(), c.get("options"));
        assert_eq!(a, b);
    }
}
