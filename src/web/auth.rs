//! `AuthClient`: the aggregated authentication client (typed in
//! `www/lib/index.d.ts`; the README, "Node back end").
//!
//! The constructor checks every option (throwing `invalid_options` naming
//! the first bad one), and fails closed: a `baseUrl` that is not loopback
//! needs a `verify` hook or `verify: false` ([`check_verify`]). Each method
//! decodes its argument and starts one [`Call`] of the core as a run
//! ([`VerifyRun`], in [`super::runs`]), answering `[run, ...commands]` for
//! the shim's driver; the package's `AuthClient` (`www/lib/flows.js`) wraps
//! this class so that its methods answer promises and never throw.

use super::convert::from_js;
use super::env;
use super::env::Text;
use super::error::to_js as err;
use super::runs::{Client, Flow};
use super::table::begin;
use super::transport::Transport;
use crate::error::{bad_option, cat, u64_str, Code, PayError};
use crate::json::Json;
use crate::perform::verify::MAX_TIMER_MS;
use crate::perform::VerifyRun;
use crate::prelude::*;
use crate::verify::config::{check_base_url, check_path, check_verify, is_loopback, Paths, VerifyOption};
use crate::verify::fields::{validate, Kind};
use crate::verify::{Call, Config, Operation, Wait};
use alloc::rc::Rc;
use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The default of `timeoutMs`: how long one request may take.
pub const DEFAULT_REQUEST_TIMEOUT_MS: u32 = 15_000;
/// `new AuthClient({ baseUrl, appToken, env, sign, verify?, transport?, retry?, timeoutMs?, paths?, encrypt?, strict? })`.
#[wasm_bindgen(skip_typescript)]
pub struct AuthClient {
    inner: Rc<Client>,
}

/// An optional whole number from `min` to `max` under `field` (`undefined`
/// is `None`); `invalid_options` naming `field` otherwise.
pub fn whole(v: &JsValue, field: &str, min: u32, max: u32) -> Result<Option<u32>, PayError> {
    if v.is_undefined() {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if crate::json::whole(n).is_some_and(|w| w >= min as u64 && w <= max as u64) => Ok(Some(n as u32)),
        _ => Err(bad_option(field, &cat!("must be a whole number from ", &u64_str(min as u64), " to ", &u64_str(max as u64)))),
    }
}

/// An optional function under `field` (`undefined` and `null` are `None`).
fn hook(options: &JsValue, field: &str) -> Result<Option<Function>, PayError> {
    let v = env::get(options, field);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.dyn_into::<Function>().map(Some).map_err(|_| bad_option(field, "must be a function"))
}

/// `verify`: a function, `false`, or absent (`undefined`, `null`).
fn verify_option(options: &JsValue) -> Result<(VerifyOption, Option<Function>), PayError> {
    let v = env::get(options, "verify");
    if v.is_undefined() || v.is_null() {
        return Ok((VerifyOption::Absent, None));
    }
    if v.as_bool() == Some(false) {
        return Ok((VerifyOption::Off, None));
    }
    match v.dyn_into::<Function>() {
        Ok(f) => Ok((VerifyOption::Hook, Some(f))),
        Err(_) => Err(bad_option("verify", "must be a function (data, signature) => boolean, or false to accept answers unchecked")),
    }
}

/// The members of `paths`, each checked; the defaults for those not given.
fn paths_option(options: &JsValue) -> Result<Paths, PayError> {
    const NAMES: [&str; 3] = ["cardCheck", "nameCheck", "checkResult"];
    let v = env::get(options, "paths");
    let mut paths = Paths::default();
    if v.is_undefined() || v.is_null() {
        return Ok(paths);
    }
    if !env::is_object(&v) || v.is_function() {
        return Err(bad_option("paths", "must be an object { cardCheck?, nameCheck?, checkResult? }"));
    }
    if let Ok(keys) = js_sys::Reflect::own_keys(&v) {
        for k in keys.iter() {
            let name = k.text().unwrap_or_default();
            if !NAMES.contains(&name.as_str()) {
                let field = cat!("paths.", crate::safe_url::clip(&name));
                return Err(bad_option(&field, "is not one of cardCheck, nameCheck, checkResult"));
            }
        }
    }
    for (name, slot) in NAMES.into_iter().zip([&mut paths.card_check, &mut paths.name_check, &mut paths.check_result]) {
        let p = env::get(&v, name);
        if p.is_undefined() || p.is_null() {
            continue;
        }
        let text =
            p.text().ok_or_else(|| bad_option(&cat!("paths.", name), "must be a string, an absolute path such as /api/v4/checkresult"))?;
        *slot = check_path(name, &text)?;
    }
    Ok(paths)
}

fn text_option(options: &JsValue, field: &str, what: &str) -> Result<String, PayError> {
    env::get(options, field).text().ok_or_else(|| bad_option(field, &cat!("must be a string (", what, ")")))
}

fn read_options(options: &JsValue) -> Result<Client, PayError> {
    if !env::is_object(options) || options.is_function() {
        return Err(PayError::field(
            Code::InvalidOptions,
            "options",
            "options must be an object: new AuthClient({ baseUrl, appToken, env, sign })",
        ));
    }
    let base_url = check_base_url(&text_option(options, "baseUrl", "the service's address, such as https://auth.example.com")?)?;
    let app_token = text_option(options, "appToken", "the 40-character app_token the authentication system assigned")?;
    let env_name = text_option(options, "env", "the value of the env header")?;
    let sign = hook(options, "sign")?
        .ok_or_else(|| bad_option("sign", "is required: a function (params) => signature, or a Promise of it, that signs each request"))?;
    let (verify_given, verify) = verify_option(options)?;
    let loopback = is_loopback(&base_url);
    check_verify(loopback, verify_given)?;
    let paths = paths_option(options)?;
    let strict = strict_option(options)?;
    let encrypt = hook(options, "encrypt")?;
    let custom = hook(options, "transport")?;
    let retry = env::get(options, "retry");
    let (attempts, base_delay_ms) = if retry.is_undefined() || retry.is_null() {
        (None, None)
    } else if env::is_object(&retry) && !retry.is_function() {
        (
            whole(&env::get(&retry, "attempts"), "retry.attempts", 1, Config::MAX_ATTEMPTS)?,
            whole(&env::get(&retry, "baseDelayMs"), "retry.baseDelayMs", 0, Config::MAX_BASE_DELAY_MS)?,
        )
    } else {
        return Err(bad_option("retry", "must be an object { attempts?, baseDelayMs? }"));
    };
    let timeout_ms = whole(&env::get(options, "timeoutMs"), "timeoutMs", 1, MAX_TIMER_MS)?.unwrap_or(DEFAULT_REQUEST_TIMEOUT_MS);
    let config = Config::new(
        &app_token,
        &env_name,
        attempts.unwrap_or(Config::DEFAULT_ATTEMPTS),
        base_delay_ms.unwrap_or(Config::DEFAULT_BASE_DELAY_MS),
    )?
    .with_paths(paths)
    .with_strict(strict)
    .at_loopback(loopback);
    Ok(Client { config, sign, verify, encrypt, transport: Transport { base_url, custom, timeout_ms } })
}

#[wasm_bindgen(js_class = AuthClient)]
impl AuthClient {
    #[wasm_bindgen(constructor, skip_typescript)]
    pub fn new(options: JsValue) -> Result<AuthClient, JsValue> {
        read_options(&options).map(|inner| AuthClient { inner: Rc::new(inner) }).map_err(|e| err(&e))
    }

    /// `cardCheck(fields) -> [run, ...commands]`: POST /api/v1/trade/cardcheck.
    #[wasm_bindgen(js_name = cardCheck, skip_typescript)]
    pub fn card_check(&self, fields: JsValue) -> Result<Array, JsValue> {
        self.start(Operation::CardCheck, self.fields(&fields, Kind::CardCheck))
    }

    /// `nameCheck(fields) -> [run, ...commands]`: POST /api/v1/trade/namecheck.
    #[wasm_bindgen(js_name = nameCheck, skip_typescript)]
    pub fn name_check(&self, fields: JsValue) -> Result<Array, JsValue> {
        self.start(Operation::NameCheck, self.fields(&fields, Kind::NameCheck))
    }

    /// `checkResult({ seqId } | { orderId, orderDate? }) -> [run, ...commands]`:
    /// one GET /api/v1/checkresult.
    #[wasm_bindgen(js_name = checkResult, skip_typescript)]
    pub fn check_result(&self, query: JsValue) -> Result<Array, JsValue> {
        self.start(Operation::CheckResult, from_js(&query, Code::InvalidRequest, "query"))
    }

    /// `awaitResult(ref, { intervalMs?, timeoutMs? }?) -> [run, ...commands]`:
    /// queries until the result is no longer pending or the time is up.
    #[wasm_bindgen(js_name = awaitResult, skip_typescript)]
    pub fn await_result(&self, query: JsValue, options: JsValue) -> Result<Array, JsValue> {
        let wait = wait_options(&options).map_err(|e| err(&e))?;
        self.start(Operation::AwaitResult(wait), from_js(&query, Code::InvalidRequest, "query"))
    }
}

/// The members of `fields` whose value no request can carry (a function or
/// a Symbol, which a JSON reading would leave out and so call "missing"):
/// each a `type` problem naming the field.
pub fn unsendable(fields: &JsValue) -> Vec<crate::error::Problem> {
    let mut out = Vec::new();
    if !fields.is_object() {
        return out;
    }
    let Ok(keys) = js_sys::Reflect::own_keys(fields) else { return out };
    for k in keys.iter() {
        let Some(name) = k.text() else { continue };
        let v = env::get(fields, &name);
        let kind = if v.is_function() {
            "a function"
        } else if v.is_symbol() {
            "a Symbol"
        } else {
            continue;
        };
        let message = cat!(crate::safe_url::clip(&name), " must be a string, not ", kind);
        out.push(crate::error::Problem { field: name, code: "type", message });
    }
    out
}

/// The fields of a check, read from JavaScript; a function or Symbol among
/// them is `invalid_request` naming it, with every other problem
/// `validate` finds (but "missing" for that same field).
pub fn check_fields(fields: &JsValue, validate: &dyn Fn(&Json) -> Vec<crate::error::Problem>) -> Result<Json, PayError> {
    let read = from_js(fields, Code::InvalidRequest, "fields")?;
    let mut odd = unsendable(fields);
    if odd.is_empty() {
        return Ok(read);
    }
    let mut rest = validate(&read);
    rest.retain(|p| !odd.iter().any(|o| o.field == p.field));
    odd.extend(rest);
    Err(crate::verify::invalid_request(odd))
}

fn wait_options(options: &JsValue) -> Result<Wait, PayError> {
    if options.is_undefined() || options.is_null() {
        return Ok(Wait::default());
    }
    if !env::is_object(options) || options.is_function() {
        return Err(bad_option("options", "of awaitResult must be an object { intervalMs?, timeoutMs? }"));
    }
    let interval = whole(&env::get(options, "intervalMs"), "intervalMs", 1, MAX_TIMER_MS)?;
    let timeout = whole(&env::get(options, "timeoutMs"), "timeoutMs", 0, MAX_TIMER_MS)?;
    Wait::new(interval.unwrap_or(Wait::DEFAULT_INTERVAL_MS), timeout.unwrap_or(Wait::DEFAULT_TIMEOUT_MS))
}

/// `strict` of the options: `true` unless it is `false`; `invalid_options`
/// when it is given and not a boolean.
pub fn strict_option(options: &JsValue) -> Result<bool, PayError> {
    let v = if env::is_object(options) { env::get(options, "strict") } else { JsValue::UNDEFINED };
    match v.as_bool() {
        Some(b) => Ok(b),
        None if v.is_undefined() || v.is_null() => Ok(true),
        None => Err(bad_option("strict", "must be true or false (false: only the document's formats are checked)")),
    }
}

impl AuthClient {
    /// The fields of a check, as [`check_fields`] reads them for this
    /// client's `strict`.
    fn fields(&self, fields: &JsValue, kind: Kind) -> Result<Json, PayError> {
        let strict = self.inner.config.strict;
        check_fields(fields, &|f: &Json| validate(kind, f, strict))
    }

    /// Starts one call of `op`: its run, fed by `__step`.
    fn start(&self, op: Operation, fields: Result<Json, PayError>) -> Result<Array, JsValue> {
        let fields = fields.map_err(|e| err(&e))?;
        let inner = self.inner.clone();
        let random = env::random16().unwrap_or_else(weak_random);
        let call = Call::new(&inner.config, op, fields, inner.verify.is_some(), env::wall_ms(), random).encrypting(inner.encrypt.is_some());
        let (ms, custom) = (inner.transport.timeout_ms, inner.transport.custom.is_some());
        let request = Rc::new(core::cell::Cell::new(None));
        Ok(begin(super::runs::Hooks::Client(&self.inner, &request), |w| {
            let run = VerifyRun::start(call, ms, custom, &*inner, w);
            Flow::Verify(Box::new(run), inner.clone(), request.clone())
        }))
    }
}

/// Random bytes where the runtime has no `crypto.getRandomValues`: only the
/// uniqueness of a generated `order_id` rests on them, which its time stamp
/// to the millisecond already carries most of.
fn weak_random() -> [u8; 16] {
    let mut out = [0u8; 16];
    for b in out.iter_mut() {
        *b = (js_sys::Math::random() * 256.0) as u8;
    }
    out
}
