//! The authorization helpers across the boundary: the address builders,
//! the callback reader, the state source, the server-side code exchanges,
//! and `cardnetPay`, the card-network flow as one call on the page.
//!
//! Each synchronous export decodes its arguments, calls
//! [`crate::authorize`], and encodes the answer; every failure is a
//! `PayError`. The clock (`now`, default `Date.now()`) and the random
//! source (`crypto.getRandomValues`) are read here and handed to the core.

use super::busy::claim;
use super::convert::{from_js, from_js_opt, to_js};
use super::env;
use super::env::Text;
use super::error::to_js as err;
use super::exports::{host_for, options_from};
use super::runs::{Flow, Hooks};
use super::table::begin;
use crate::authorize::once::{self, Record};
use crate::authorize::{self as auth, AuthCallback};
use crate::error::{bad_option as bad, Code, PayError, Result};
use crate::json::Json;
use crate::perform::CardnetRun;
use crate::prelude::*;
use wasm_bindgen::prelude::*;

/// What an export gives JavaScript: a value, or a thrown `PayError`.
type Js = core::result::Result<JsValue, JsValue>;

type Core = dyn Fn(&Json, Option<&Json>) -> Result<Json>;

/// `f(params, options)`: the parameters object and the options decoded,
/// the answer encoded.
fn with_params(params: &JsValue, options: &JsValue, f: &Core) -> Js {
    let run = || {
        let p = from_js(params, Code::InvalidOptions, "params")?;
        let o = from_js_opt(options, Code::InvalidOptions, "options")?;
        f(&p, o.as_ref())
    };
    run().map(|j| to_js(&j)).map_err(|e| err(&e))
}

/// `wallet1AuthUrl({ appId, redirectUri, scopes, state }, options?) -> string`.
#[wasm_bindgen(js_name = wallet1AuthUrl, skip_typescript)]
pub fn wallet1_auth_url(params: JsValue, options: JsValue) -> Js {
    with_params(&params, &options, &|p, o| auth::wallet1_auth_url(p, o).map(Json::Str))
}

/// `wallet2AuthUrl({ appId, redirectUri, scope, state }, options?) -> string`.
#[wasm_bindgen(js_name = wallet2AuthUrl, skip_typescript)]
pub fn wallet2_auth_url(params: JsValue, options: JsValue) -> Js {
    with_params(&params, &options, &|p, o| auth::wallet2_auth_url(p, o).map(Json::Str))
}

/// `cardnetAuthUrl({ redirectUrl }, options?) -> string`.
#[wasm_bindgen(js_name = cardnetAuthUrl, skip_typescript)]
pub fn cardnet_auth_url(params: JsValue, options: JsValue) -> Js {
    with_params(&params, &options, &|p, o| auth::cardnet_auth_url(p, o).map(Json::Str))
}

/// `wallet1PageUrl(pageUrl, params?, options?) -> string`: the scheme URL
/// that opens a life-account page in wallet1, `params` appended to the page.
#[wasm_bindgen(js_name = wallet1PageUrl, skip_typescript)]
pub fn wallet1_page_url(page_url: JsValue, params: JsValue, options: JsValue) -> Js {
    let run = || {
        let page = from_js(&page_url, Code::UnsafeUrl, "pageUrl")?;
        let p = from_js_opt(&params, Code::InvalidOptions, "params")?;
        let o = from_js_opt(&options, Code::InvalidOptions, "options")?;
        auth::wallet1_page_url(&page, p.as_ref(), o.as_ref())
    };
    run().map(|u| JsValue::from_str(&u)).map_err(|e| err(&e))
}

/// `wallet1TokenRequest({ appId, code }, options?) -> ExchangeRequest` (server side).
#[wasm_bindgen(js_name = wallet1TokenRequest, skip_typescript)]
pub fn wallet1_token_request(params: JsValue, options: JsValue) -> Js {
    with_params(&params, &options, &|p, o| auth::wallet1_token_request(p, o).map(|r| r.to_json()))
}

/// `wallet2OauthTokenRequest({ appId, secret, code }, options?) -> ExchangeRequest` (server side).
#[wasm_bindgen(js_name = wallet2OauthTokenRequest, skip_typescript)]
pub fn wallet2_oauth_token_request(params: JsValue, options: JsValue) -> Js {
    with_params(&params, &options, &|p, o| auth::wallet2_oauth_token_request(p, o).map(|r| r.to_json()))
}

/// `wallet2SessionRequest({ appId, secret, jsCode }, options?) -> ExchangeRequest` (server side).
#[wasm_bindgen(js_name = wallet2SessionRequest, skip_typescript)]
pub fn wallet2_session_request(params: JsValue, options: JsValue) -> Js {
    with_params(&params, &options, &|p, o| auth::wallet2_session_request(p, o).map(|r| r.to_json()))
}

/// A provider's answer: an object, or its JSON text as the server read it.
fn answer_from(v: &JsValue) -> Result<Json> {
    match v.text() {
        Some(text) => crate::json_text::parse(&text, Code::InvalidResponse, "answer"),
        None => from_js(v, Code::InvalidResponse, "answer"),
    }
}

/// `readWallet1Token(answer) -> { userId, accessToken }` (server side).
#[wasm_bindgen(js_name = readWallet1Token, skip_typescript)]
pub fn read_wallet1_token(answer: JsValue) -> Js {
    answer_from(&answer).and_then(|a| auth::read_wallet1_token(&a)).map(|t| to_js(&t.to_json())).map_err(|e| err(&e))
}

/// `readWallet2Openid(answer) -> string` (server side).
#[wasm_bindgen(js_name = readWallet2Openid, skip_typescript)]
pub fn read_wallet2_openid(answer: JsValue) -> Js {
    answer_from(&answer).and_then(|a| auth::read_wallet2_openid(&a)).map(|s| JsValue::from_str(&s)).map_err(|e| err(&e))
}

/// `now`: absent means `Date.now()`; otherwise ms since the epoch.
fn now_arg(v: &JsValue) -> Result<f64> {
    if v.is_undefined() || v.is_null() {
        return Ok(env::wall_ms());
    }
    match v.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 => Ok(n),
        _ => Err(bad("now", "must be a time in ms since the epoch (Date.now())")),
    }
}

/// The options object of `parseAuthCallback` and `cardnetPay`: absent, or
/// an object; its `expectedState` (a string when given) and `now`.
fn callback_options(options: &JsValue) -> Result<(Option<String>, f64)> {
    if !options.is_undefined() && !options.is_null() && !env::is_object(options) {
        return Err(bad("options", "must be an object { expectedState?, now? }"));
    }
    let st = env::get(options, "expectedState");
    // `null` is what storage answers for a state it does not hold (another
    // tab, cleared storage): refused, never read as "no check".
    if st.is_null() {
        return Err(bad(
            "expectedState",
            "is null: the state this page stored is gone (another tab, or cleared storage), so the callback cannot be checked; authorize again",
        ));
    }
    let expected = if st.is_undefined() {
        None
    } else {
        Some(st.text().ok_or_else(|| bad("expectedState", "must be the state string this page sent"))?)
    };
    Ok((expected, now_arg(&env::get(options, "now"))?))
}

/// The callback address: a string (`location.href`, a request path), or an
/// object with an `href` string (a `URL`, `location`).
fn url_text(v: &JsValue) -> Option<String> {
    v.text().or_else(|| env::get(v, "href").text())
}

/// `parseAuthCallback(url, { expectedState?, now? }?) -> AuthCallback`.
#[wasm_bindgen(js_name = parseAuthCallback, skip_typescript)]
pub fn parse_auth_callback(url: JsValue, options: JsValue) -> Js {
    let run = || {
        let (expected, now) = callback_options(&options)?;
        let url = url_text(&url).ok_or_else(|| bad("url", "must be the callback address (location.href), a string or a URL"))?;
        auth::parse_auth_callback(&url, expected.as_deref(), now)
    };
    run().map(|cb| to_js(&cb.to_json())).map_err(|e| err(&e))
}

/// `takeAuthCallback(url?, { expectedState?, now? }?) -> AuthCallback`: reads
/// the callback as `parseAuthCallback` does (`url` defaults to
/// `location.href`), refuses one this tab already took (`auth_used`),
/// removes its parameters from the address bar and remembers it as taken.
#[wasm_bindgen(js_name = takeAuthCallback, skip_typescript)]
pub fn take_auth_callback(url: JsValue, options: JsValue) -> Js {
    let run = || {
        let (expected, now) = callback_options(&options)?;
        let url = if url.is_undefined() {
            here().ok_or_else(|| {
                PayError::field(Code::WrongRuntime, "url", "url is missing and this runtime has no location: pass the callback address")
            })?
        } else {
            url_text(&url).ok_or_else(|| bad("url", "must be the callback address (location.href), a string or a URL"))?
        };
        let cb = take(&url, expected.as_deref(), now)?;
        mark_taken(&cb);
        Ok(cb)
    };
    run().map(|cb| to_js(&cb.to_json())).map_err(|e| err(&e))
}

/// `location.href`, where there is a location.
fn here() -> Option<String> {
    env::get(&env::global_get("location"), "href").text()
}

/// The tab's record of taken callbacks, from `sessionStorage`: empty where
/// there is none or it cannot be read (a sandboxed frame, a private mode).
fn record() -> Record {
    let store = env::global_get("sessionStorage");
    let key = JsValue::from_str(Record::STORAGE_KEY);
    let text = env::method(&store, "getItem").and_then(|f| f.call1(&store, &key).ok()).and_then(|v| v.text());
    Record::parse(text.as_deref())
}

/// Stores the record; a storage that refuses (full, disabled) keeps
/// nothing, and the address bar is still cleaned.
fn keep(rec: &Record) {
    let store = env::global_get("sessionStorage");
    if let Some(f) = env::method(&store, "setItem") {
        let _ = f.call2(&store, &JsValue::from_str(Record::STORAGE_KEY), &JsValue::from_str(&rec.text()));
    }
}

/// The callback at `url`, checked as `parseAuthCallback` checks it, unless
/// this tab took its code already, or `url` is the address a page kept
/// after taking one (a reload or Back to it): then `auth_used`.
fn take(url: &str, expected: Option<&str>, now: f64) -> Result<AuthCallback> {
    let rec = record();
    match auth::parse_auth_callback(url, None, now) {
        Ok(cb) => {
            if once::fingerprint(&cb).is_some_and(|f| rec.has(&f)) {
                return Err(once::used(cb.provider));
            }
            if let Some(want) = expected {
                cb.expect_state(want)?;
            }
            Ok(cb)
        }
        Err(e) => match once::page_taken(&rec, url) {
            Some(p) => Err(once::used(p)),
            // Not a callback this tab took: the error parseAuthCallback
            // gives, in its order (the state first).
            None => auth::parse_auth_callback(url, expected, now).and(Err(e)),
        },
    }
}

/// Refuses a kept callback object whose code this tab took already.
fn not_taken(cb: &AuthCallback) -> Result<()> {
    match once::fingerprint(cb) {
        Some(f) if record().has(&f) => Err(once::used(cb.provider)),
        _ => Ok(()),
    }
}

/// Remembers `cb` as taken for the tab and, when the page's address
/// carries it, takes its parameters out of the address bar
/// (`history.replaceState`), so that Back, reload and Forward land on an
/// address without the code.
fn mark_taken(cb: &AuthCallback) {
    let mut rec = record();
    let Some(fp) = once::fingerprint(cb) else { return };
    rec.add(fp.clone());
    if let Some(url) = here() {
        let shown = auth::parse_auth_callback(&url, None, 0.0).ok();
        if shown.as_ref().and_then(once::fingerprint).as_deref() == Some(fp.as_str()) {
            let cleaned = once::without_callback(&url, cb.provider);
            let history = env::global_get("history");
            if let Some(f) = env::method(&history, "replaceState") {
                let _ = f.call3(&history, &env::get(&history, "state"), &JsValue::from_str(""), &JsValue::from_str(&cleaned));
            }
            rec.add(once::page_entry(cb.provider, &here().unwrap_or(cleaned)));
        }
    }
    keep(&rec);
}

/// `isUserAuthCodeFresh(cb, now?) -> boolean`: false for anything but a
/// card-network callback object less than five minutes old.
#[wasm_bindgen(js_name = isUserAuthCodeFresh, skip_typescript)]
pub fn is_user_auth_code_fresh(cb: JsValue, now: JsValue) -> core::result::Result<bool, JsValue> {
    let now = now_arg(&now).map_err(|e| err(&e))?;
    Ok(from_js(&cb, Code::InvalidOptions, "callback").is_ok_and(|cb| auth::is_user_auth_code_fresh_json(&cb, now)))
}

/// `newState() -> string`: 22 characters from `crypto.getRandomValues`.
/// A runtime without it gets an error, never a weaker source.
#[wasm_bindgen(js_name = newState, skip_typescript)]
pub fn new_state() -> core::result::Result<String, JsValue> {
    env::random16().map(|r| auth::new_state(&r)).ok_or_else(|| {
        err(&PayError::field(
            Code::WrongRuntime,
            "crypto",
            "crypto.getRandomValues is missing from this runtime, and a state must be unguessable: newState() uses no weaker source",
        ))
    })
}

/// `__cardnetStart(callback, { order, expectedState?, now?, ...PayOptions })
/// -> [run, ...commands]`: `cardnetPay`, whose promise the shim's driver
/// settles (`www/lib/flows.js`), as a run of [`CardnetRun`], fed by
/// `__step`.
///
/// The card-network flow on the page: read the callback (`callback` is the
/// address, or the object `parseAuthCallback` gave and the page kept),
/// decide (card network, `respCode` 00, code less than five minutes old),
/// ask the merchant's `order(userAuthCode, { userAuthCode, expiresAt })`
/// for the payment, plan it (it must be a `cardnet` payment: a redirect to
/// its checked `expend.pay_url`), and go. Everything the caller gave, and
/// the runtime, is checked before `order` is called, so neither a bad
/// option nor a page that cannot navigate leaves an order behind; a bad
/// one throws its `PayError`, which rejects the promise.
#[wasm_bindgen(js_name = __cardnetStart, skip_typescript)]
pub fn cardnet_start(callback: JsValue, options: JsValue) -> Js {
    let Some(slot) = claim() else {
        // Refused before it starts: run 0, kept nowhere, and the core's
        // command that ends it.
        let out = js_sys::Array::of1(&JsValue::from_f64(0.0));
        crate::perform::busy("cardnetPay", &mut super::protocol::Encode(&out, &JsValue::UNDEFINED, &options));
        return Ok(out.into());
    };
    let e = |e: PayError| err(&e);
    let opts = options_from(&options).map_err(e)?;
    if !env::can_navigate() {
        let m = "cardnetPay() ends by navigating the page to expend.pay_url, and this runtime has no location: call it from a web page";
        return Err(err(&PayError::new(Code::WrongRuntime, m)));
    }
    if !env::has_method(&options, "order") {
        return Err(err(&bad("order", "must be a function (userAuthCode) => payment: the merchant's call that orders with the code")));
    }
    let (expected, now) = callback_options(&options).map_err(e)?;
    let cb = callback_from(&callback, expected.as_deref(), now).map_err(e)?;
    let host = host_for(&opts, &JsValue::UNDEFINED);
    let o = options.clone();
    Ok(begin(Hooks::Order(&options), |w| {
        let run = CardnetRun::start(&cb, now, opts, host, w);
        // Taken before the merchant orders with it (the shim calls `order`
        // after this answer): Back, reload or Forward to this page never
        // order again.
        if !run.over() {
            mark_taken(&cb);
        }
        Flow::Cardnet(Box::new(run), o, slot)
    })
    .into())
}

/// The callback to pay with: read from its address, or the kept object.
fn callback_from(v: &JsValue, expected: Option<&str>, now: f64) -> Result<AuthCallback> {
    if let Some(url) = url_text(v) {
        return take(&url, expected, now);
    }
    if !env::is_object(v) {
        return Err(bad("callback", "must be the callback address (location.href) or the object parseAuthCallback gave"));
    }
    let cb = AuthCallback::from_json(&from_js(v, Code::InvalidOptions, "callback")?)?;
    not_taken(&cb)?;
    if let Some(want) = expected {
        cb.expect_state(want)?;
    }
    Ok(cb)
}
