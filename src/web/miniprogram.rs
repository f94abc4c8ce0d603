//! The mini-program helpers as exports: decode, call the core
//! ([`crate::miniprogram`]), encode. Exported by the main entry and by
//! `paybridge/miniprogram` alike.

use super::convert::{from_js, from_js_opt, to_js};
use super::error::to_js as err;
use crate::error::Code;
use crate::miniprogram as core;
use wasm_bindgen::prelude::*;

/// `wallet1MiniAuthRequest({ scopes }) -> { scopes }`.
#[wasm_bindgen(js_name = wallet1MiniAuthRequest, skip_typescript)]
pub fn wallet1_mini_auth_request(params: JsValue) -> Result<JsValue, JsValue> {
    from_js(&params, Code::InvalidOptions, "params")
        .and_then(|p| core::wallet1_mini_auth_request(&p))
        .map(|r| to_js(&r))
        .map_err(|e| err(&e))
}

/// `wallet2LaunchRequest({ userName, path?, query?, type? }, options?) -> { userName, path?, type }`.
#[wasm_bindgen(js_name = wallet2LaunchRequest, skip_typescript)]
pub fn wallet2_launch_request(params: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let run = || {
        let p = from_js(&params, Code::InvalidOptions, "params")?;
        let o = from_js_opt(&options, Code::InvalidOptions, "options")?;
        core::wallet2_launch_request(&p, o.as_ref())
    };
    run().map(|r| to_js(&r.to_json())).map_err(|e| err(&e))
}

/// `readLaunchOptions(options, { appParameterKey? }?) -> { fromApp, scene?, query, path?, appParameter? }`.
#[wasm_bindgen(js_name = readLaunchOptions, skip_typescript)]
pub fn read_launch_options(options: JsValue, params: JsValue) -> Result<JsValue, JsValue> {
    let run = || {
        let o = from_js(&options, Code::InvalidOptions, "options")?;
        let p = from_js_opt(&params, Code::InvalidOptions, "params")?;
        core::read_launch_options(&o, p.as_ref())
    };
    run().map(|r| to_js(&r.to_json())).map_err(|e| err(&e))
}

/// `launchAppButton(appParameter) -> { "open-type", "app-parameter", binderror }`.
#[wasm_bindgen(js_name = launchAppButton, skip_typescript)]
pub fn launch_app_button(app_parameter: JsValue) -> Result<JsValue, JsValue> {
    from_js(&app_parameter, Code::InvalidOptions, "appParameter")
        .and_then(|v| core::launch_app_button(&v))
        .map(|r| to_js(&r))
        .map_err(|e| err(&e))
}
