//! The synchronous exports: planning, the profile, runtime detection.

#[cfg(feature = "web-tools")]
use super::convert::from_js_opt;
#[cfg(feature = "web-tools")]
use super::convert::to_js;
use super::convert::{from_js, options_from_js};
use super::env;
#[cfg(feature = "web-tools")]
use super::env::Text;
#[cfg(feature = "web-tools")]
use super::error::to_js as err;
use crate::action::{plan_on, Options, Plan};
use crate::error::{Code, PayError};
use crate::payment::Payment;
use crate::prelude::*;
use crate::profile::{Field, Profile};
#[cfg(feature = "web-tools")]
use crate::runtime::detect;
use crate::runtime::{api_host, detect_host, Host, Probe};
use wasm_bindgen::prelude::*;

/// Decodes a payment (object or JSON text).
pub fn payment_from(v: &JsValue) -> Result<Payment, PayError> {
    Payment::from_json_lean(from_js(v, Code::InvalidPayment, "payment")?)
}

/// Decodes options (functions in them are the edge's and are skipped).
pub fn options_from(v: &JsValue) -> Result<Options, PayError> {
    Options::from_json(options_from_js(v)?.as_ref())
}

/// What this environment looks like, as the profile names it: `present`
/// answers whether a global of that name is an object; `api` is the `api`
/// option of `pay()` (a mini-program's API object), if any.
pub fn probe(profile: &Profile, user_agent: Option<String>, present: impl Fn(&str) -> bool, api: &JsValue) -> Probe {
    Probe {
        user_agent: user_agent.unwrap_or_else(env::user_agent),
        has_document: present("document"),
        wallet1_global: present(profile.get(Field::W1MiniProgramGlobal)),
        wallet2_global: present(profile.get(Field::W2MiniProgramGlobal)),
        // A value that is no object has no methods (`env::get` asks).
        api: api_host(env::has_method(api, "tradePay"), env::has_method(api, "requestPayment")),
    }
}

/// The host of the runtime, all a payment reads of it: `options.runtime`'s,
/// or detected from this page's globals and `options.api`.
pub fn host_for(opts: &Options, options: &JsValue) -> Host {
    match opts.runtime {
        Some(r) => r.host,
        None => detect_host(&probe(&opts.profile, None, env::has_global, &env::get(options, "api")), &opts.profile),
    }
}

/// Plans a payment: decode, then the pure planner (the plan carries what
/// the run needs of the payment).
pub fn plan_js(payment: &JsValue, options: &JsValue) -> Result<(Options, Host, Plan), PayError> {
    let opts = options_from(options)?;
    let payment = payment_from(payment)?;
    let host = host_for(&opts, options);
    let p = plan_on(&payment, &opts, host)?;
    Ok((opts, host, p))
}

/// `planAction(payment, options?) -> Action`.
#[cfg(feature = "web-tools")]
#[wasm_bindgen(js_name = planAction, skip_typescript)]
pub fn plan_action(payment: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    plan_js(&payment, &options).map(|(_, _, p)| to_js(&p.to_json())).map_err(|e| err(&e))
}

/// `__explain(payment, options, error) -> PayError`: the words of an input
/// error that the browser's payment module refused unworded
/// (`crate::error::WORDED`; the shim asks when `pay()` gets the command `Explain`).
/// This module runs the same checks on the same input and answers its own
/// error when that has the same code and field, else `error` as it is (the
/// input changed in between, or the two builds disagree).
#[cfg(feature = "web-extra")]
#[wasm_bindgen(js_name = __explain, skip_typescript)]
pub fn explain(payment: JsValue, options: JsValue, error: JsValue) -> JsValue {
    match plan_js(&payment, &options) {
        Err(e) if env::get(&error, "code").text().as_deref() == Some(e.code.as_str()) && env::get(&error, "field").text() == e.field => {
            err(&e)
        }
        _ => error,
    }
}

/// `defaultProfile() -> Profile`.
#[cfg(feature = "web-tools")]
#[wasm_bindgen(js_name = defaultProfile, skip_typescript)]
pub fn default_profile() -> JsValue {
    to_js(&Profile::default().to_json())
}

/// `detectRuntime({ userAgent?, globals?, profile? }?) -> Runtime`.
#[cfg(feature = "web-tools")]
#[wasm_bindgen(js_name = detectRuntime, skip_typescript)]
pub fn detect_runtime(input: JsValue) -> Result<JsValue, JsValue> {
    let ua = env::get(&input, "userAgent");
    if !ua.is_undefined() && ua.text().is_none() {
        return Err(err(&PayError::field(Code::InvalidOptions, "userAgent", "userAgent must be a string")));
    }
    let globals = env::get(&input, "globals");
    if !globals.is_undefined() && !env::is_object(&globals) {
        return Err(err(&PayError::field(Code::InvalidOptions, "globals", "globals must be an object of global names")));
    }
    let profile = from_js_opt(&env::get(&input, "profile"), Code::InvalidOptions, "profile")
        .and_then(|p| Profile::from_patch(p.as_ref()))
        .map_err(|e| err(&e))?;
    // The globals given (an object, as checked above), else this page's.
    let g: JsValue = if globals.is_undefined() { env::global().into() } else { globals };
    let present = |name: &str| env::is_object(&env::get(&g, name));
    Ok(to_js(&detect(&probe(&profile, ua.text(), present, &JsValue::UNDEFINED), &profile).to_json()))
}
