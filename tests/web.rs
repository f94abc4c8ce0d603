//! The wasm build in headless Chromium (wasm-bindgen-test with Debian's
//! chromedriver): the exports called as a page calls them, on real JS values.
//! `make test-wasm` builds it with `web-extra` (planAction, detectRuntime
//! and waitForBridge are not in the payment module's build).
#![cfg(all(target_arch = "wasm32", feature = "web-extra"))]

use js_sys::{Reflect, JSON};
use paybridge::perform::wire::{count, field, Feed, Op};
use paybridge::web::{exports, table, wait};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn js(text: &str) -> JsValue {
    JSON::parse(text).unwrap()
}

fn get(v: &JsValue, k: &str) -> JsValue {
    Reflect::get(v, &k.into()).unwrap()
}

fn code(e: &JsValue) -> String {
    get(e, "code").as_string().unwrap()
}

#[wasm_bindgen_test]
fn plans_from_objects_and_json_text() {
    let a = exports::plan_action(js(r#"{"pay_channel":"wallet1","pay_info":"https://pay.example.com/c?a=1&b=%2B"}"#), JsValue::UNDEFINED)
        .unwrap();
    assert_eq!(get(&a, "kind"), "open_url");
    let url = get(&a, "url").as_string().unwrap();
    let parsed = web_sys_url_qrcode(&url);
    assert_eq!(parsed, "https://pay.example.com/c?a=1&b=%2B");
    let text = JsValue::from_str(
        r#"{"pay_channel":"wallet2_pub","pay_info":{"appId":"a","timeStamp":1,"nonceStr":"n","package":"p","signType":"RSA","paySign":"s"}}"#,
    );
    let a = exports::plan_action(text, JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&get(&a, "params"), "timeStamp"), "1");
}

/// `new URL(url).searchParams.get("qrcode")`, as a wallet would read it.
fn web_sys_url_qrcode(url: &str) -> String {
    let ctor: js_sys::Function = Reflect::get(&js_sys::global(), &"URL".into()).unwrap().unchecked_into();
    let u = Reflect::construct(&ctor, &js_sys::Array::of1(&url.into())).unwrap();
    let params = get(&u, "searchParams");
    let f: js_sys::Function = get(&params, "get").unchecked_into();
    f.call1(&params, &"qrcode".into()).unwrap().as_string().unwrap()
}

#[wasm_bindgen_test]
fn errors_carry_code_and_field() {
    let e = exports::plan_action(js(r#"{"pay_channel":"wallet1","pay_info":"javascript:alert(1)"}"#), JsValue::UNDEFINED).unwrap_err();
    assert!(e.is_instance_of::<js_sys::Error>());
    assert_eq!(code(&e), "unsafe_url");
    assert_eq!(get(&e, "field"), "pay_info");
    let e = exports::plan_action(JsValue::from_f64(3.0), JsValue::UNDEFINED).unwrap_err();
    assert_eq!(code(&e), "invalid_payment");
    let e = exports::plan_action(js(r#"{"pay_channel":"wallet1_pub","pay_info":{"tradeNO":"T"}}"#), js(r#"{"timeoutMs":-1}"#)).unwrap_err();
    assert_eq!((code(&e), get(&e, "field").as_string().unwrap()), ("invalid_options".into(), "timeoutMs".into()));
}

#[wasm_bindgen_test]
fn detects_the_browser() {
    let r = exports::detect_runtime(JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&r, "host"), "browser");
}

#[wasm_bindgen_test]
fn waits_for_a_bridge_that_arrives_with_its_event() {
    let global = js_sys::global();
    let name = "TestBridgeA";
    let start = wait::wait_start(name.into(), "TestBridgeAReady".into(), js(r#"{"timeoutMs":2000}"#)).unwrap();
    let id = start.get(0).as_f64().unwrap() as u32;
    let listen: js_sys::Array = start.get(1).unchecked_into();
    assert_eq!(
        (listen.get(0), at(&listen, Op::Listen, "event")),
        ((Op::Listen as u32).into(), "TestBridgeAReady".into()),
        "listening first"
    );
    assert_eq!(last(&start).0, Op::SetTimer as u32, "then a timer, the bridge not there");
    assert_eq!(counts(), (1, 1, 0), "listening before the bridge exists");
    let b = js(r#"{"id":7}"#);
    Reflect::set(&global, &name.into(), &b).unwrap();
    let (op, c) = last(&table::step(id, Feed::Event as u32, "TestBridgeAReady".into()));
    assert_eq!(op, Op::Resolve as u32);
    assert_eq!(get(&at(&c, Op::Resolve, "value"), "id"), 7);
    assert_eq!(counts(), (0, 0, 0), "nothing left behind");
    assert_eq!(table::step(id, Feed::Release as u32, JsValue::UNDEFINED).length(), 0);
}

#[wasm_bindgen_test]
fn a_bridge_that_never_comes_times_out_cleanly() {
    let start = wait::wait_start("TestBridgeNever".into(), "TestBridgeNeverReady".into(), js(r#"{"timeoutMs":150}"#)).unwrap();
    let id = start.get(0).as_f64().unwrap() as u32;
    let (op, c) = last(&table::step(id, Feed::Timer as u32, JsValue::from_f64(0.0)));
    assert_eq!(op, Op::Reject as u32);
    assert_eq!(code(&at(&c, Op::Reject, "error")), "bridge_timeout");
    assert_eq!(counts(), (0, 0, 0));
    let e = wait::wait_start(JsValue::from_f64(1.0), "E".into(), JsValue::UNDEFINED).unwrap_err();
    assert_eq!((code(&e), get(&e, "field")), ("invalid_options".into(), "name".into()));
}

/// What the module holds, `(listeners, waiters, retained)`: the query
/// `Counts` of the one step export, read where the wire declares each
/// (`perform::wire::COUNTS`).
fn counts() -> (u32, u32, u32) {
    let c = table::step(0, Feed::Counts as u32, JsValue::UNDEFINED);
    let n = |name| c.get(count(name) as u32).as_f64().unwrap() as u32;
    (n("listeners"), n("waiters"), n("retained"))
}

/// Command `c`'s value `name`, read where the wire declares it
/// (`perform::wire::FIELDS`), for `op`.
fn at(c: &js_sys::Array, op: Op, name: &str) -> JsValue {
    c.get(field(op, name).expect("a value the wire declares") as u32)
}

/// The last command of a batch, `[op, ...]`, and its operation.
fn last(cmds: &js_sys::Array) -> (u32, js_sys::Array) {
    let c: js_sys::Array = cmds.get(cmds.length() - 1).unchecked_into();
    (c.get(0).as_f64().unwrap() as u32, c)
}

#[wasm_bindgen_test]
fn pays_through_a_bridge_already_present() {
    let global = js_sys::global();
    let bridge_obj = js(r#"{}"#);
    let call = Closure::<dyn Fn()>::new(|| {});
    Reflect::set(&bridge_obj, &"call".into(), call.as_ref()).unwrap();
    Reflect::set(&global, &"Wallet1JSBridge".into(), &bridge_obj).unwrap();
    let start = table::pay_start(js(r#"{"pay_channel":"wallet1_pub","pay_info":{"tradeNO":"T"}}"#), JsValue::UNDEFINED);
    let id = start.get(0).as_f64().unwrap() as u32;
    let (op, c) = last(&start);
    assert_eq!(op, Op::CallBridge as u32, "the bridge is called at once");
    let v = |name| at(&c, Op::CallBridge, name);
    assert_eq!(v("bridge"), bridge_obj);
    assert_eq!((v("method"), v("op")), ("call".into(), "tradePay".into()));
    assert_eq!(get(&v("params"), "tradeNO"), "T");
    assert_eq!(counts(), (0, 0, 1), "the callback counts while the call runs");
    // The wallet calls back while the call runs, then the call returns.
    let during = table::step(id, Feed::Success as u32, js(r#"{"resultCode":"6001"}"#));
    assert_eq!(last(&during).0, 0, "only the callback event");
    let after = table::step(id, Feed::Returned as u32, JsValue::UNDEFINED);
    let (op, c) = last(&after);
    assert_eq!(op, Op::Resolve as u32);
    let r = at(&c, Op::Resolve, "value");
    assert_eq!(get(&r, "status"), "cancelled");
    assert_eq!(get(&r, "code"), "6001");
    assert_eq!(get(&r, "verified"), false);
    assert_eq!(get(&get(&r, "raw"), "resultCode"), "6001");
    assert_eq!(counts(), (0, 0, 0), "nothing left behind");
    let again = JsValue::from_str(r#"{"pay_channel":"wallet1_pub","pay_info":{"tradeNO":"T"}}"#);
    let busy = table::pay_start(again.clone(), JsValue::UNDEFINED);
    assert_eq!(busy.get(0), 0, "run 0: nothing started");
    let (op, c) = last(&busy);
    assert_eq!((op, code(&at(&c, Op::Reject, "error"))), (Op::Reject as u32, "busy".into()), "until the shim has performed the end");
    assert_eq!(table::step(id, Feed::Release as u32, JsValue::UNDEFINED).length(), 0);
    assert_eq!(table::step(id, Feed::Success as u32, js("{}")).length(), 0, "a late callback of an ended run changes nothing");
    Reflect::delete_property(&global, &JsValue::from_str("Wallet1JSBridge")).unwrap();
    assert_eq!(last(&table::pay_start(again, JsValue::UNDEFINED)).0, 10, "the slot is free: the next payment runs (and finds no bridge)");
}

#[wasm_bindgen_test]
fn objects_from_data_define_their_members() {
    use paybridge::json::Json;
    use paybridge::web::convert::{from_js, to_js};
    let polluted = || Json::obj(vec![("polluted", Json::Bool(true))]);
    let item = Json::obj(vec![("__proto__", polluted()), ("a", Json::str("1"))]);
    let data = Json::obj(vec![
        ("__proto__", polluted()),
        ("constructor", Json::obj(vec![("prototype", polluted())])),
        ("list", Json::Arr(vec![item])),
    ]);
    assert_eq!(data.as_obj().unwrap()[0].0, "__proto__", "the core keeps the member");
    let o = to_js(&data);
    let object_prototype = Reflect::get_prototype_of(&js_sys::Object::new()).unwrap();
    for v in [o.clone(), Reflect::get_u32(&get(&o, "list"), 0).unwrap()] {
        assert_eq!(JsValue::from(Reflect::get_prototype_of(&v).unwrap()), JsValue::from(object_prototype.clone()));
        assert!(get(&v, "polluted").is_undefined());
        let own = js_sys::Object::get_own_property_descriptor(v.unchecked_ref::<js_sys::Object>(), &"__proto__".into());
        assert!(!own.is_undefined(), "__proto__ is an own data property");
    }
    // Read back, the member is there as it came.
    let back = from_js(&o, paybridge::Code::InvalidResponse, "data").unwrap();
    assert_eq!(back.get("__proto__").and_then(|p| p.get("polluted")), Some(&Json::Bool(true)));
}
