//! Unit tests of the mini-program helpers: launch options, the return-to-app
//! button, the launch and authorization requests.

use super::*;
use crate::error::Code;
use crate::json::parse;

fn j(t: &str) -> Json {
    parse(t, Code::InvalidOptions, "test").unwrap()
}

fn launch(t: &str) -> Result<Json> {
    wallet2_launch_request(&j(t), None).map(|r| r.to_json())
}

fn field(r: Result<impl core::fmt::Debug>) -> String {
    let e = r.unwrap_err();
    assert_eq!(e.code, Code::InvalidOptions, "{}", e.message);
    assert!(e.message.starts_with(e.field.as_deref().unwrap()), "{}", e.message);
    e.into_data().field.unwrap()
}

#[test]
fn auth_request_lists_the_scopes() {
    let r = wallet1_mini_auth_request(&j(r#"{"scopes":["auth_user","auth_base"]}"#)).unwrap();
    assert_eq!(r.to_text(), r#"{"scopes":["auth_user","auth_base"]}"#);
    let r = wallet1_mini_auth_request(&j(r#"{"scopes":"auth_base"}"#)).unwrap();
    assert_eq!(r.to_text(), r#"{"scopes":["auth_base"]}"#);
    for bad in [r#"{}"#, r#"{"scopes":[]}"#, r#"{"scopes":["user"]}"#, r#"{"scopes":"auth_user,"}"#, r#"{"scopes":[1]}"#] {
        assert_eq!(field(wallet1_mini_auth_request(&j(bad))), "scopes", "{bad}");
    }
    assert_eq!(field(wallet1_mini_auth_request(&j("[]"))), "params");
}

#[test]
fn launch_request() {
    assert_eq!(launch(r#"{"userName":"gh_d43f693ca31f"}"#).unwrap().to_text(), r#"{"userName":"gh_d43f693ca31f","type":0}"#);
    assert_eq!(
        launch(r#"{"userName":"gh_abc","path":"pages/pay/index","query":{"order":"A 1&b=2","n":42,"t":true,"m":-3},"type":"preview"}"#)
            .unwrap()
            .to_text(),
        r#"{"userName":"gh_abc","path":"pages/pay/index?order=A%201%26b%3D2&n=42&t=true&m=-3","type":2}"#
    );
    assert_eq!(launch(r#"{"userName":"gh_abc","path":"/pages/pay/index","type":1}"#).unwrap().get("type"), Some(&Json::Num(1.0)));
    assert_eq!(launch(r#"{"userName":"gh_abc","type":"test"}"#).unwrap().get("type"), Some(&Json::Num(1.0)));
    // A query key that is not plain is encoded too.
    let r = launch(r#"{"userName":"gh_abc","path":"p","query":{"a b":"é"}}"#).unwrap();
    assert_eq!(r.get("path").and_then(Json::as_str), Some("p?a%20b=%C3%A9"));
}

#[test]
fn launch_request_refusals() {
    for (t, f) in [
        (r#"{}"#, "userName"),
        (r#"{"userName":5}"#, "userName"),
        (r#"{"userName":"wx_abc"}"#, "userName"),
        (r#"{"userName":"gh_"}"#, "userName"),
        (r#"{"userName":"gh_ab-c"}"#, "userName"),
        (r#"{"userName":"gh_abc","path":"pages/../x"}"#, "path"),
        (r#"{"userName":"gh_abc","path":"pages/x?a=1"}"#, "path"),
        (r#"{"userName":"gh_abc","path":"//evil"}"#, "path"),
        (r#"{"userName":"gh_abc","path":""}"#, "path"),
        (r#"{"userName":"gh_abc","query":{"a":"1"}}"#, "query"),
        (r#"{"userName":"gh_abc","path":"p","query":"a=1"}"#, "query"),
        (r#"{"userName":"gh_abc","path":"p","query":{"a":{"b":1}}}"#, "query.a"),
        (r#"{"userName":"gh_abc","path":"p","query":{"a":1.5}}"#, "query.a"),
        (r#"{"userName":"gh_abc","path":"p","query":{"":"1"}}"#, "query"),
        (r#"{"userName":"gh_abc","type":3}"#, "type"),
        (r#"{"userName":"gh_abc","type":"trial"}"#, "type"),
    ] {
        assert_eq!(field(launch(t)), f, "{t}");
    }
    let long = ["{\"userName\":\"gh_abc\",\"path\":\"p\",\"query\":{\"a\":\"", &"x".repeat(1100), "\"}}"].concat();
    assert_eq!(field(launch(&long)), "path");
    assert_eq!(field(wallet2_launch_request(&j("[]"), None)), "params");
    assert_eq!(field(wallet2_launch_request(&j(r#"{"userName":"gh_a"}"#), Some(&j("1")))), "options");
}

#[test]
fn the_original_id_prefix_comes_from_the_profile() {
    let o = j(r#"{"profile":{"wallet2":{"originalIdPrefix":"mp_"}}}"#);
    assert!(wallet2_launch_request(&j(r#"{"userName":"mp_123"}"#), Some(&o)).is_ok());
    let e = wallet2_launch_request(&j(r#"{"userName":"gh_123"}"#), Some(&o)).unwrap_err();
    assert!(e.message.contains("mp_"), "{}", e.message);
}

#[test]
fn launch_options() {
    let r =
        read_launch_options(&j(r#"{"scene":1069,"query":{"order":"42","appParameter":"back","n":7,"x":{}},"path":"pages/pay/pay"}"#), None)
            .unwrap();
    assert!(r.from_app);
    assert_eq!(
        r.to_json().to_text(),
        r#"{"fromApp":true,"scene":1069,"query":{"order":"42","appParameter":"back","n":"7"},"path":"pages/pay/pay","appParameter":"back"}"#
    );
    let r = read_launch_options(&j(r#"{"scene":"1069","query":{"back":"x"}}"#), Some(&j(r#"{"appParameterKey":"back"}"#))).unwrap();
    assert_eq!((r.from_app, r.app_parameter.as_deref()), (true, Some("x")));
    let r = read_launch_options(&j(r#"{"scene":1001}"#), None).unwrap();
    assert_eq!(r.to_json().to_text(), r#"{"fromApp":false,"scene":1001,"query":{}}"#);
    assert!(!read_launch_options(&j("{}"), None).unwrap().from_app);
    assert_eq!(field(read_launch_options(&j(r#"{"scene":"x"}"#), None)), "options.scene");
    assert_eq!(field(read_launch_options(&j(r#"{"scene":1.5}"#), None)), "options.scene");
    assert_eq!(field(read_launch_options(&j(r#"{"query":[]}"#), None)), "options.query");
    assert_eq!(field(read_launch_options(&j("null"), None)), "options");
    assert_eq!(field(read_launch_options(&j("{}"), Some(&j(r#"{"appParameterKey":""}"#)))), "appParameterKey");
}

#[test]
fn launch_app_button_attributes() {
    assert_eq!(
        launch_app_button(&Json::str(r#"{"order":"42"}"#)).unwrap().to_text(),
        r#"{"open-type":"launchApp","app-parameter":"{\"order\":\"42\"}","binderror":"onLaunchAppError"}"#
    );
    for bad in [Json::str(""), Json::Str("x".repeat(1025)), Json::str("a\nb"), Json::str("é"), Json::Num(1.0), Json::Null] {
        assert_eq!(field(launch_app_button(&bad)), "appParameter");
    }
    assert!(launch_app_button(&Json::Str("x".repeat(1024))).is_ok());
}
