//! The hostile-input corpus of `tests/vectors/hostile*.json` against the
//! core, every kind (the Node and browser tests run the same files through
//! the built package): each case fails with its code and field, and
//! nothing panics.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::from_serde;
use paybridge::authorize;
use paybridge::error::{Code, PayError};
use paybridge::json::Json;
use paybridge::runtime::{Host, Runtime};
use paybridge::verify::{decode_envelope, parse_notification};
use paybridge::{plan, Options, Payment};
use std::collections::BTreeMap;

/// Every case of every `hostile*.json`, with its kind (`payment` when the
/// case names none).
fn corpus() -> Vec<(String, Json)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.starts_with("hostile") && name.ends_with(".json")) {
            continue;
        }
        let Json::Arr(items) = from_serde(serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()) else {
            panic!("{name} is not a list")
        };
        for c in items {
            let kind = c.get("kind").and_then(Json::as_str).unwrap_or("payment").to_string();
            out.push((kind, c));
        }
    }
    out
}

fn s<'a>(c: &'a Json, k: &str) -> Option<&'a str> {
    c.get(k).and_then(Json::as_str)
}

fn plan_case(payment: &Json, options: Option<&Json>) -> Result<Json, PayError> {
    let opts = Options::from_json(options)?;
    let payment = Payment::from_json(payment.clone())?;
    let rt = opts.runtime.unwrap_or(Runtime { host: Host::Browser, mobile: false });
    Ok(plan(&payment, &opts, rt)?.to_json())
}

/// The options of a `url` case: its `allowedHosts` and `insecureLoopback`.
fn url_options(c: &Json) -> Json {
    let mut m = Vec::new();
    if let Some(h) = c.get("allowedHosts") {
        m.push(("allowedHosts".to_string(), h.clone()));
    }
    if let Some(b) = c.get("insecureLoopback") {
        m.push(("insecureLoopback".to_string(), b.clone()));
    }
    Json::Obj(m)
}

type Outcome = Result<Json, PayError>;

/// What each case gives, once per entry point it goes through, with the
/// field the error must name there.
fn run<'a>(kind: &str, c: &'a Json) -> Vec<(&'static str, Option<&'a str>, Outcome)> {
    let field = s(c, "field");
    match kind {
        "payment" | "options" => vec![("planAction", field, plan_case(c.get("payment").unwrap(), c.get("options")))],
        "url" => {
            let url = Json::str(s(c, "url").unwrap());
            let o = url_options(c);
            let mut out = vec![
                (
                    "planAction cardnet",
                    Some("expend.pay_url"),
                    plan_case(
                        &Json::obj(vec![("pay_channel", Json::str("cardnet")), ("expend", Json::obj(vec![("pay_url", url.clone())]))]),
                        Some(&o),
                    ),
                ),
                (
                    "planAction wallet1",
                    Some("pay_info"),
                    plan_case(&Json::obj(vec![("pay_channel", Json::str("wallet1")), ("pay_info", url.clone())]), Some(&o)),
                ),
            ];
            if c.get("allowedHosts").is_none() {
                out.push((
                    "cardnetAuthUrl",
                    Some("redirectUrl"),
                    authorize::cardnet_auth_url(&Json::obj(vec![("redirectUrl", url)]), None).map(Json::Str),
                ));
            }
            out
        }
        "callback" => {
            let r = authorize::parse_auth_callback(s(c, "url").unwrap(), s(c, "expectedState"), 1_700_000_000_000.0);
            vec![("parseAuthCallback", field, r.map(|cb| cb.to_json()))]
        }
        "auth_url" => {
            let (p, o) = (c.get("params").unwrap(), c.get("options"));
            let r = match s(c, "builder").unwrap() {
                "wallet1AuthUrl" => authorize::wallet1_auth_url(p, o),
                "wallet2AuthUrl" => authorize::wallet2_auth_url(p, o),
                "cardnetAuthUrl" => authorize::cardnet_auth_url(p, o),
                b => panic!("unknown builder {b}"),
            };
            vec![("builder", field, r.map(Json::Str))]
        }
        "envelope" => {
            let status = match c.get("status") {
                Some(Json::Num(n)) => *n as u16,
                _ => 200,
            };
            vec![("decodeEnvelope", field, decode_envelope(status, s(c, "body").unwrap()).map(|e| e.data))]
        }
        "notification" => vec![("parseNotification", field, parse_notification(c.get("body").unwrap()).map(|n| n.outcome.to_json()))],
        k => panic!("unknown kind {k}"),
    }
}

#[test]
fn every_hostile_case_fails_with_its_code_and_field() {
    let cases = corpus();
    let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
    let mut wrong = Vec::new();
    for (kind, c) in &cases {
        *by_kind.entry(kind.clone()).or_default() += 1;
        let name = s(c, "name").unwrap();
        let want_code = s(c, "code").unwrap();
        for (via, field, r) in run(kind, c) {
            match r {
                Ok(v) => wrong.push(format!("{name} ({via}): accepted, gave {}", v.to_text())),
                Err(e) => {
                    let field_ok = field.is_none_or(|f| e.field.as_deref() == Some(f));
                    if e.code.as_str() != want_code || !field_ok || e.message.is_empty() {
                        wrong.push(format!("{name} ({via}): {} {:?}: {}", e.code.as_str(), e.field, e.message));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{} cases went wrong:\n{}", wrong.len(), wrong.join("\n"));
    assert!(cases.len() >= 300, "{} cases: {by_kind:?}", cases.len());
    for kind in ["payment", "options", "url", "callback", "auth_url", "envelope", "notification"] {
        assert!(by_kind.get(kind).is_some_and(|n| *n >= 20), "too few {kind} cases: {by_kind:?}");
    }
}

#[test]
fn names_are_unique() {
    let mut seen = std::collections::HashSet::new();
    for (_, c) in corpus() {
        assert!(seen.insert(s(&c, "name").unwrap().to_string()), "{:?} twice", s(&c, "name"));
    }
}

#[test]
fn a_url_case_is_blamed_on_the_field_it_came_in() {
    let e = plan_case(
        &Json::obj(vec![("pay_channel", Json::str("cardnet")), ("expend", Json::obj(vec![("pay_url", Json::str("javascript:x"))]))]),
        None,
    )
    .unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (Code::UnsafeUrl, Some("expend.pay_url")));
}
