//! The properties the fuzz targets check, one function a target.
//!
//! Each function takes the raw input of its target and panics when a
//! property fails (a panic in the wasm build is a trap that breaks the
//! page, so "no panic on any input" is the first property of all). The
//! same functions run on the host over the saved crashes and the seed
//! inputs (`tests/fuzz_regressions.rs` includes this file), so a crash
//! found once stays a test.
//!
//! Inputs that hold several texts separate them with a NUL byte (`\0`):
//! the seed corpora (`tests/fuzz/seed.mjs`) are written that way from the
//! vectors.

use paybridge::action::{mini_program_url, scheme_url, Action, Via};
use paybridge::authorize::{self, AuthCallback, Provider};
use paybridge::error::{Code, PayError};
use paybridge::json::{self, Json};
use paybridge::payment::Channel;
use paybridge::profile::Field;
use paybridge::runtime::{detect, Host, Probe, Runtime};
use paybridge::safe_url::{self, UrlPolicy};
use paybridge::verify::{decode_envelope, parse_notification, Outcome};
use paybridge::{plan as plan_payment, Options, Payment};
use percent_encoding::percent_decode_str;
use url::Url;

/// The input as text, split on NUL into at most `n` parts (missing parts
/// are empty). Input that is not UTF-8 is skipped: every entry point of the
/// module takes `&str` (the wasm edge gets UTF-16 text from JavaScript and
/// converts it), so such bytes never reach the core.
fn parts(data: &[u8], n: usize) -> Option<Vec<&str>> {
    let s = std::str::from_utf8(data).ok()?;
    let mut v: Vec<&str> = s.splitn(n, '\0').collect();
    v.resize(n, "");
    Some(v)
}

/// What every error must carry: a known code and a message; a field, when
/// named, that is not empty.
fn check_error(e: &PayError, allowed: &[Code]) {
    assert!(allowed.contains(&e.code), "unexpected code {:?}: {}", e.code, e.message);
    assert!(!e.message.is_empty(), "an error without a message: {e:?}");
    if let Some(f) = &e.field {
        assert!(!f.is_empty(), "an empty field name: {e:?}");
    }
}

/// A URL the strict check accepted, read by the `url` crate (the WHATWG
/// reader): it parses, is https (or http to the loopback when the policy
/// allows it), has the host the check reported and no user info.
pub fn assert_opens_as_checked(url: &str, host: &str, policy: &UrlPolicy) {
    let u = Url::parse(url).unwrap_or_else(|e| panic!("accepted {url:?}, which the url crate cannot parse: {e}"));
    let loopback = host == "127.0.0.1" || host == "localhost";
    match u.scheme() {
        "https" => {}
        "http" => assert!(policy.insecure_loopback && loopback, "accepted plain http {url:?}"),
        other => panic!("accepted {url:?} with scheme {other}"),
    }
    assert_eq!(u.host_str(), Some(host), "{url:?}: the check saw host {host}, the url crate {:?}", u.host_str());
    assert!(u.username().is_empty() && u.password().is_none(), "accepted user info in {url:?}");
    assert!(!u.cannot_be_a_base(), "{url:?}");
    if let Some(rules) = &policy.allowed_hosts {
        assert!(rules.iter().any(|r| r.matches(host)), "{url:?}: host {host} is not in allowedHosts");
    }
}

/// `safe_url::check` on its own: `flags \0 allowedHosts (comma-separated) \0 url`.
/// Flag bit 0 turns on `insecureLoopback`; a non-empty host list is
/// `allowedHosts`.
pub fn safe_url(data: &[u8]) {
    let Some(p) = parts(data, 3) else { return };
    let (flags, hosts, url) = (p[0], p[1], p[2]);
    let mut policy = UrlPolicy { allowed_hosts: None, insecure_loopback: flags.bytes().next().is_some_and(|b| b & 1 == 1) };
    if !hosts.is_empty() {
        let names: Vec<String> = hosts.split(',').map(str::to_string).collect();
        match safe_url::parse_allowed_hosts(&names, "allowedHosts") {
            Ok(rules) => policy.allowed_hosts = Some(rules),
            Err(e) => {
                check_error(&e, &[Code::InvalidOptions]);
                return;
            }
        }
    }
    match checked_host(url, &policy) {
        Ok(host) => {
            assert_eq!(host, host.to_ascii_lowercase());
            assert_opens_as_checked(url, &host, &policy);
            // Loosening the policy never refuses what a stricter one took.
            let open = UrlPolicy { allowed_hosts: None, insecure_loopback: true };
            assert!(safe_url::check(url, &open, "url").is_ok());
        }
        Err(e) => {
            check_error(&e, &[Code::UnsafeUrl]);
            assert_eq!(e.field.as_deref(), Some("url"));
        }
    }
    // The scheme URL built around any accepted URL decodes back to it.
    if safe_url::check(url, &UrlPolicy::default(), "url").is_ok() {
        let profile = paybridge::Profile::default();
        let wrapped = scheme_url(&profile, url);
        assert_eq!(qrcode_of(&wrapped), url);
    }
}

/// `safe_url::check`, and the host it read (lowercased) where it passed: a
/// URL that passes is opened as given, so the check hands back no copy.
fn checked_host(url: &str, policy: &UrlPolicy) -> Result<String, PayError> {
    safe_url::check(url, policy, "url")?;
    Ok(safe_url::check_shape(url, policy.insecure_loopback).expect("a URL that passed the check has its shape"))
}

/// The `qrcode` value of a scheme URL, percent-decoded.
fn qrcode_of(scheme_url: &str) -> String {
    let q = &scheme_url[scheme_url.find("&qrcode=").expect("a qrcode parameter") + 8..];
    assert!(!q.contains(['&', '#', '?', '+', ' ']), "the qrcode value is not fully encoded: {q}");
    percent_decode_str(q).decode_utf8().expect("UTF-8").into_owned()
}

/// `Payment::from_text` and `plan` with arbitrary options text:
/// `payment \0 options`. The runtime is `options.runtime`, else a desktop
/// browser. The payment text also serves as a user agent for detection.
pub fn plan(data: &[u8]) {
    let Some(p) = parts(data, 2) else { return };
    let (payment_text, options_text) = (p[0], p[1]);
    let options = if options_text.is_empty() {
        None
    } else {
        // Options text that is not JSON is handed over as a string, which
        // must be refused as options.
        Some(json::parse(options_text, Code::InvalidOptions, "options").unwrap_or_else(|_| Json::Str(options_text.into())))
    };
    let opts = match Options::from_json(options.as_ref()) {
        Ok(o) => o,
        Err(e) => return check_error(&e, &[Code::InvalidOptions]),
    };
    let probe = Probe { user_agent: payment_text.into(), has_document: true, ..Probe::default() };
    let detected = detect(&probe, &opts.profile);
    assert_eq!(detect(&probe, &opts.profile), detected);
    let payment = match Payment::from_text(payment_text) {
        Ok(p) => p,
        Err(e) => return check_error(&e, &[Code::InvalidPayment]),
    };
    assert_eq!(Payment::from_json(Json::Str(payment_text.into())).as_ref(), Ok(&payment));
    let runtime = opts.runtime.unwrap_or(Runtime { host: Host::Browser, mobile: false });
    let planned = plan_payment(&payment, &opts, runtime);
    assert_eq!(planned, plan_payment(&payment, &opts, runtime), "planning is pure");
    let planned = match planned {
        Ok(p) => p,
        Err(e) => {
            return check_error(&e, &[Code::InvalidPayment, Code::UnsupportedChannel, Code::UnsafeUrl, Code::WrongRuntime]);
        }
    };
    assert_eq!(opts.profile.resolve_channel(&payment.pay_channel), Some(planned.channel));
    let checked = |url: &str| {
        let host = checked_host(url, &opts.policy).unwrap_or_else(|e| panic!("planned an unchecked URL {url:?}: {e}"));
        assert_opens_as_checked(url, &host, &opts.policy);
    };
    let profile = &opts.profile;
    match &planned.action {
        Action::OpenUrl { url, fallback_url } => {
            checked(fallback_url);
            assert_eq!(*url, scheme_url(profile, fallback_url));
            assert_eq!(qrcode_of(url), *fallback_url, "the qrcode decodes back to pay_info");
            let u = Url::parse(url).expect("the scheme URL parses");
            assert_eq!(u.scheme(), profile.get(Field::W1Scheme));
            assert_eq!(u.query_pairs().find(|(k, _)| k == "qrcode").map(|(_, v)| v.into_owned()).as_deref(), Some(fallback_url.as_str()));
        }
        Action::Redirect { url } => {
            if planned.channel == Channel::Wallet1Wap && url.starts_with(&[profile.get(Field::W1Scheme), "://"].concat()) {
                let info = qrcode_of(url);
                checked(&info);
                assert_eq!(*url, scheme_url(profile, &info));
            } else {
                checked(url);
            }
        }
        Action::OpenMiniProgram { url } => {
            let target = opts.mini_program.as_ref().expect("a mini-program target");
            assert_eq!(*url, mini_program_url(profile, target));
            let u = Url::parse(url).expect("the mini-program URL parses");
            assert_eq!(u.scheme(), profile.get(Field::W1Scheme));
            let page = u.query_pairs().find(|(k, _)| k == "page").map(|(_, v)| v.into_owned());
            assert_eq!(page, target.page);
        }
        Action::Wallet1TradePay { trade_no, via } => {
            assert!(!trade_no.is_empty() && trade_no.len() <= 4096 && !trade_no.chars().any(char::is_control));
            assert_eq!(*via == Via::MiniProgram, planned.channel == Channel::Wallet1Lite);
        }
        Action::Wallet2BridgePay { params } | Action::Wallet2RequestPayment { params } => {
            let want: &[&str] = if matches!(planned.action, Action::Wallet2BridgePay { .. }) {
                &["appId", "timeStamp", "nonceStr", "package", "signType", "paySign"]
            } else {
                &["timeStamp", "nonceStr", "package", "signType", "paySign"]
            };
            assert_eq!(params.iter().map(|(k, _)| *k).collect::<Vec<_>>(), want);
            for (_, v) in params {
                assert!(!v.is_empty() && v.len() <= 4096 && !v.chars().any(char::is_control));
            }
        }
    }
    let j = planned.to_json();
    assert_eq!(json::parse(&j.to_text(), Code::InvalidPayment, "action").as_ref(), Ok(&j));
}

/// The authorization address builders: `which \0 params \0 options`, the
/// first byte of `which` choosing wallet1, wallet2 or the card network.
/// An address that is built passes the strict check, keeps the profile's
/// host, and carries the redirect address and state back unchanged.
pub fn auth_url(data: &[u8]) {
    let Some(p) = parts(data, 3) else { return };
    let which = p[0].bytes().next().unwrap_or(0) % 3;
    let Ok(params) = json::parse(p[1], Code::InvalidOptions, "params") else { return };
    let options = if p[2].is_empty() { None } else { json::parse(p[2], Code::InvalidOptions, "options").ok() };
    let built = match which {
        0 => authorize::wallet1_auth_url(&params, options.as_ref()),
        1 => authorize::wallet2_auth_url(&params, options.as_ref()),
        _ => authorize::cardnet_auth_url(&params, options.as_ref()),
    };
    let url = match built {
        Ok(u) => u,
        Err(e) => return check_error(&e, &[Code::InvalidOptions, Code::UnsafeUrl]),
    };
    let host = checked_host(&url, &UrlPolicy::default()).unwrap_or_else(|e| panic!("built an unchecked address {url:?}: {e}"));
    assert_opens_as_checked(&url, &host, &UrlPolicy::default());
    let o = authorize::AuthOptions::from_json(options.as_ref()).expect("options that built an address");
    let base = match which {
        0 => o.profile.get(Field::W1AuthUrl),
        1 => o.profile.get(Field::W2AuthorizeUrl),
        _ => o.profile.get(Field::CardnetAuthUrl),
    };
    assert_eq!(Url::parse(base).unwrap().host_str(), Some(host.as_str()), "the address left the provider's host");
    let u = Url::parse(&url).unwrap();
    let get = |k: &str| u.query_pairs().filter(|(n, _)| n == k).map(|(_, v)| v.into_owned()).collect::<Vec<_>>();
    let redirect_key = if which == 2 { ("redirectUrl", "redirectUrl") } else { ("redirect_uri", "redirectUri") };
    let given = params.get(redirect_key.1).and_then(Json::as_str).expect("a redirect address");
    assert_eq!(get(redirect_key.0), [given], "the redirect address comes back unchanged");
    if which != 2 {
        let state = params.get("state").and_then(Json::as_str).expect("a state");
        assert_eq!(get("state"), [state]);
    }
}

/// `parseAuthCallback`: `url \0 expectedState \0 now` (`now` in decimal ms;
/// empty means a fixed time). A callback that is read carries its
/// provider's code, the expected state when one was given, and survives
/// the round trip through the object the page keeps.
pub fn auth_callback(data: &[u8]) {
    let Some(p) = parts(data, 3) else { return };
    let expected = if p[1].is_empty() { None } else { Some(p[1]) };
    let now = if p[2].is_empty() { 1_700_000_000_000.0 } else { p[2].parse::<f64>().unwrap_or(-1.0) };
    let cb = match authorize::parse_auth_callback(p[0], expected, now) {
        Ok(cb) => cb,
        Err(e) => return check_error(&e, &[Code::AuthFailed, Code::InvalidOptions]),
    };
    assert!(now.is_finite() && now >= 0.0);
    // Whole milliseconds, rounded down (beyond 2^53 every f64 is whole).
    assert!(cb.received_at <= now && now - cb.received_at < 1.0, "{} from {now}", cb.received_at);
    if let Some(want) = expected {
        assert_eq!(cb.state.as_deref(), Some(want), "a callback was read with a state other than the one sent");
        assert_eq!(cb.expect_state(want), Ok(()));
    }
    let text_ok = |v: &Option<String>| v.as_deref().is_none_or(|s| !s.is_empty() && !s.chars().any(char::is_control));
    for v in [&cb.code, &cb.state, &cb.resp_code, &cb.user_auth_code, &cb.app_id, &cb.scope] {
        assert!(text_ok(v), "{cb:?}");
    }
    match cb.provider {
        Provider::Wallet1 | Provider::Wallet2 => assert!(cb.code.is_some() && cb.resp_code.is_none() && cb.user_auth_code.is_none()),
        Provider::Cardnet => {
            assert_eq!(cb.resp_code.as_deref(), Some("00"));
            assert!(cb.user_auth_code.is_some() && cb.code.is_none());
        }
    }
    let j = cb.to_json();
    assert_eq!(AuthCallback::from_json(&j).as_ref(), Ok(&cb));
    let back = json::parse(&j.to_text(), Code::InvalidOptions, "callback").expect("the callback reads back");
    assert!(close(&back, &j), "{j:?} vs {back:?}");
    let fresh = authorize::is_user_auth_code_fresh_json(&j, now);
    assert_eq!(fresh, cb.provider == Provider::Cardnet);
}

/// `decodeEnvelope`: two bytes of HTTP status, then the body.
pub fn envelope(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let status = u16::from_le_bytes([data[0], data[1]]);
    let Ok(body) = std::str::from_utf8(&data[2..]) else { return };
    let env = match decode_envelope(status, body) {
        Ok(e) => e,
        Err(e) => return check_error(&e, &[Code::InvalidResponse]),
    };
    assert!(env.data.as_obj().is_some());
    assert!(!env.return_code.is_empty());
    assert!(env.signature.as_deref().is_none_or(|s| !s.is_empty()));
    // `signature` signs `data_text`, which reads back as `data`.
    assert_eq!(json::parse(&env.data_text, Code::InvalidResponse, "data").as_ref(), Ok(&env.data));
    let o = Outcome::from_data(&env.data, paybridge::verify::Interface::CheckResult, &env.return_code, "o", "20240101", true);
    if let Some(s) = o.score {
        assert!((0.0..=100.0).contains(&s), "score {s}");
    }
    let j = o.to_json();
    let back = json::parse(&j.to_text(), Code::InvalidResponse, "outcome").expect("the outcome reads back");
    assert!(close(&back, &j), "{j:?} vs {back:?}");
}

/// `parseNotification`: the input as form text (or JSON text), and, when it
/// is JSON text of an object, that object too.
pub fn notification(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let n = match parse_notification(&Json::Str(text.into())) {
        Ok(n) => n,
        Err(e) => return check_error(&e, &[Code::InvalidResponse]),
    };
    let o = &n.outcome;
    let seq = o.seq_id.as_deref().expect("a seq_id");
    assert!(!seq.is_empty() && seq.len() <= 256);
    assert!(!o.order_id.is_empty() && !o.return_code.is_empty() && !n.sign.is_empty());
    let record = o.record.as_ref().expect("a record");
    assert!(record.get("sign").is_none(), "sign stays out of the record");
    assert!(!n.sign_input.split('&').any(|kv| kv.starts_with("sign=")) || n.sign_input.contains("&sign="), "sign is not signed");
    if let Some(s) = o.score {
        assert!((0.0..=100.0).contains(&s), "score {s}");
    }
    // The same fields as an object (what a server that decoded the form
    // passes) give the same notification.
    if !text.trim_start().starts_with('{') {
        let pairs = paybridge::verify::form::decode_form(text, "notification").expect("decoded once already");
        let obj = Json::Obj(pairs.into_iter().map(|(k, v)| (k, Json::Str(v))).collect());
        assert_eq!(parse_notification(&obj).as_ref(), Ok(&n));
    }
    assert_eq!(n.clone().accept(false).unwrap_err().code, Code::BadSignature);
    assert_eq!(n.clone().accept(true).as_ref(), Ok(o));
}

/// `json::parse` against serde_json: the same texts are accepted (within
/// the module's depth limit), the same values come out (numbers within a
/// few units in the last place), and `to_text` reads back as the value.
pub fn json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let ours = json::parse(text, Code::InvalidResponse, "body");
    if let Err(e) = &ours {
        check_error(e, &[Code::InvalidResponse]);
    }
    if let Ok(v) = &ours {
        let back = json::parse(&v.to_text(), Code::InvalidResponse, "body").expect("to_text reads back");
        assert!(close(&back, v), "to_text does not read back as the value: {v:?} vs {back:?}");
    }
    let theirs: Result<serde_json::Value, _> = serde_json::from_str(text);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => assert!(same_value(a, b), "{text:?}: {a:?} vs {b:?}"),
        (Err(e), Ok(b)) => assert!(deeper_than(b, json::MAX_DEPTH), "{text:?} refused ({}) but is JSON", e.message),
        // serde_json refuses numbers beyond f64 and nests 128 deep; the
        // module reads the former (JSON.parse does too) and stops at 64.
        (Ok(_), Err(e)) => assert!(e.to_string().contains("out of range"), "{text:?} accepted but is not JSON: {e}"),
        (Err(_), Err(_)) => {}
    }
}

/// Numbers agree when equal or within 1e-12 of each other (relative):
/// serde_json, without its `float_roundtrip` feature, may read a number of
/// more than 15 significant digits a little off the nearest double, where
/// the module's parser rounds correctly.
fn near(x: f64, y: f64) -> bool {
    x == y || ((x - y) / y).abs() < 1e-12 || (x.abs() < 1e-300 && y.abs() < 1e-300)
}

/// Equal values, numbers compared with [`near`].
fn close(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Num(x), Json::Num(y)) => near(*x, *y),
        (Json::Arr(x), Json::Arr(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| close(a, b)),
        (Json::Obj(x), Json::Obj(y)) => x.len() == y.len() && x.iter().zip(y).all(|((k, a), (l, b))| k == l && close(a, b)),
        _ => a == b,
    }
}

fn same_value(a: &Json, b: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (a, b) {
        (Json::Null, V::Null) => true,
        (Json::Bool(x), V::Bool(y)) => x == y,
        (Json::Num(x), V::Number(y)) => near(*x, y.as_f64().unwrap()),
        (Json::Str(x), V::String(y)) => x == y,
        (Json::Arr(x), V::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b)),
        // serde_json keeps the last of a repeated key (as `Json::get` does).
        (Json::Obj(x), V::Object(y)) => {
            x.iter().all(|(k, _)| y.contains_key(k)) && y.iter().all(|(k, v)| a.get(k).is_some_and(|a| same_value(a, v)))
        }
        _ => false,
    }
}

/// True when some value lies more than `limit` containers deep.
fn deeper_than(v: &serde_json::Value, limit: usize) -> bool {
    let below = |x: &serde_json::Value| limit == 0 || deeper_than(x, limit - 1);
    match v {
        serde_json::Value::Array(a) => a.iter().any(below),
        serde_json::Value::Object(m) => m.values().any(below),
        _ => false,
    }
}
