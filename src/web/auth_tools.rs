//! The synchronous helpers of the authentication API, for pages and for a
//! merchant's Node server: field validation, envelope and notification
//! decoding, the threshold rule, the sandbox's sign input, and
//! `NotificationLog` for handling each notification once.

use super::auth::{whole, DEFAULT_REQUEST_TIMEOUT_MS};
use super::convert::{from_js, set, to_js};
use super::env::Text;
use super::error::to_js as err;
use super::runs::{Flow, Hooks};
use super::table::begin;
use crate::error::{cat, Code, PayError, Problem};
use crate::json::Json;
use crate::perform::NoticeRun;
use crate::prelude::*;
use crate::verify::fields::{validate, Kind};
use crate::verify::notify::MAX_SEQ_ID_LEN;
use crate::verify::{decode_envelope, parse_notification, parse_score, passes_threshold, sign_input, Seen, SeenSeqIds, DEFAULT_THRESHOLD};
use js_sys::{Array, Function, Object};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn problems_js(problems: &[Problem]) -> JsValue {
    let a = Array::new();
    for p in problems {
        let o = Object::new();
        set(&o, "field", &JsValue::from_str(&p.field));
        set(&o, "code", &JsValue::from_str(p.code));
        set(&o, "message", &JsValue::from_str(&p.message));
        a.push(&o);
    }
    a.into()
}

/// `validateCardCheck(fields, { strict }?) -> Array<{ field, code, message }>`.
#[wasm_bindgen(js_name = validateCardCheck, skip_typescript)]
pub fn validate_card_check_js(fields: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    validate_js(&fields, Kind::CardCheck, &options)
}

/// The problems of `fields`: a function or Symbol value is a `type`
/// problem of its field (not "missing"), beside what the validator finds,
/// strictly unless `options.strict` is `false` (as `AuthClient`'s).
fn validate_js(fields: &JsValue, kind: Kind, options: &JsValue) -> Result<JsValue, JsValue> {
    let strict = super::auth::strict_option(options).map_err(|e| err(&e))?;
    let validate = |f: &Json| validate(kind, f, strict);
    match super::auth::check_fields(fields, &validate) {
        Ok(f) => Ok(problems_js(&validate(&f))),
        Err(e) if !e.details.is_empty() => Ok(problems_js(&e.details)),
        Err(e) => Err(err(&e)),
    }
}

/// `validateNameCheck(fields, { strict }?) -> Array<{ field, code, message }>`.
#[wasm_bindgen(js_name = validateNameCheck, skip_typescript)]
pub fn validate_name_check_js(fields: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    validate_js(&fields, Kind::NameCheck, &options)
}

/// `decodeEnvelope(body, status = 200) -> { returnCode, data, dataText, signature? }`.
#[wasm_bindgen(js_name = decodeEnvelope, skip_typescript)]
pub fn decode_envelope_js(body: JsValue, status: JsValue) -> Result<JsValue, JsValue> {
    let text = body.text().ok_or_else(|| {
        err(&PayError::field(Code::InvalidResponse, "body", "body must be the answer's text (a string), as the service sent it"))
    })?;
    let status = whole(&status, "status", 100, 599).map_err(|e| err(&e))?.unwrap_or(200);
    let e = decode_envelope(status as u16, &text).map_err(|e| err(&e))?;
    let o = Object::new();
    set(&o, "returnCode", &JsValue::from_str(&e.return_code));
    set(&o, "data", &to_js(&e.data));
    set(&o, "dataText", &JsValue::from_str(&e.data_text));
    if let Some(s) = &e.signature {
        set(&o, "signature", &JsValue::from_str(s));
    }
    Ok(o.into())
}

fn notification(body: &JsValue) -> Result<crate::verify::Notification, PayError> {
    parse_notification(&from_js(body, Code::InvalidResponse, "notification")?)
}

/// `parseNotification(body) -> { outcome, sign, signInput }`: form text,
/// JSON text or an object; `sign` is still to be checked over `signInput`.
#[wasm_bindgen(js_name = parseNotification, skip_typescript)]
pub fn parse_notification_js(body: JsValue) -> Result<JsValue, JsValue> {
    let n = notification(&body).map_err(|e| err(&e))?;
    let o = Object::new();
    set(&o, "outcome", &to_js(&n.outcome.to_json()));
    set(&o, "sign", &JsValue::from_str(&n.sign));
    set(&o, "signInput", &JsValue::from_str(&n.sign_input));
    Ok(o.into())
}

/// `__noticeStart(body, verify) -> [run, ...commands]`:
/// `verifyNotification`, whose promise the shim's driver settles
/// (`www/lib/flows.js`). Parses the notification, asks `verify(signInput,
/// sign)` ([`NoticeRun`]), and resolves with the outcome or rejects
/// `bad_signature`. Fails closed as `AuthClient` does: without a `verify`
/// function it is `invalid_options` naming `verify`, unless `verify` is
/// `false`, which accepts the notification unchecked, knowingly. A bad
/// argument throws its `PayError`, which rejects the promise.
#[wasm_bindgen(js_name = __noticeStart, skip_typescript)]
pub fn notice_start(body: JsValue, verify: JsValue) -> Result<Array, JsValue> {
    let unchecked = verify.as_bool() == Some(false);
    let verify = verify.dyn_into::<Function>().ok();
    if !unchecked && verify.is_none() {
        return Err(err(&PayError::field(
            Code::InvalidOptions,
            "verify",
            "verify must be a function (signInput, sign) => boolean, or a Promise of it; or false to accept the notification unchecked",
        )));
    }
    let n = notification(&body).map_err(|e| err(&e))?;
    let hooks = match &verify {
        Some(f) => Hooks::Verify(f),
        None => Hooks::None,
    };
    let checked = verify.is_some();
    Ok(begin(hooks, |w| Flow::Notice(NoticeRun::start(n, checked, DEFAULT_REQUEST_TIMEOUT_MS, w), verify.clone())))
}

/// `passesThreshold(score, threshold = 60) -> boolean`: true when the score
/// is greater. A score may be a number or `mp_ssim` text; a missing score
/// (`undefined`, `null`) does not pass.
#[wasm_bindgen(js_name = passesThreshold, skip_typescript)]
pub fn passes_threshold_js(score: JsValue, threshold: JsValue) -> Result<bool, JsValue> {
    let threshold = if threshold.is_undefined() {
        DEFAULT_THRESHOLD
    } else {
        threshold.as_f64().ok_or_else(|| {
            err(&PayError::field(Code::InvalidOptions, "threshold", "threshold must be a number (the service's example is 60)"))
        })?
    };
    let score = if score.is_undefined() || score.is_null() {
        return Ok(false);
    } else if let Some(n) = score.as_f64() {
        n
    } else if let Some(s) = score.text() {
        match parse_score(&s) {
            Some(n) => n,
            None => return Ok(false),
        }
    } else {
        return Err(err(&PayError::field(Code::InvalidOptions, "score", "score must be a number or mp_ssim text")));
    };
    Ok(passes_threshold(score, threshold))
}

/// `signInput(params) -> string`: the sandbox's canonical sign string of an
/// object of string parameters (`sign` and empty values left out, sorted by
/// name, `name=value` joined with `&`).
#[wasm_bindgen(js_name = signInput, skip_typescript)]
pub fn sign_input_js(params: JsValue) -> Result<String, JsValue> {
    let p = from_js(&params, Code::InvalidOptions, "params").map_err(|e| err(&e))?;
    let Some(members) = p.as_obj() else {
        return Err(err(&PayError::field(Code::InvalidOptions, "params", "params must be an object of string parameters")));
    };
    let mut pairs = Vec::new();
    for (k, v) in members {
        match v {
            Json::Str(s) => pairs.push((k.clone(), s.clone())),
            Json::Null => {}
            other => {
                let field = cat!("params.", k);
                let message = cat!(&field, " must be a string, not ", other.kind());
                return Err(err(&PayError::field(Code::InvalidOptions, &field, message)));
            }
        }
    }
    Ok(sign_input(&pairs))
}

/// `new NotificationLog(capacity = 1024)`: remembers the most recent
/// `seq_id`s so that a notification delivered twice is acted on once.
#[wasm_bindgen(skip_typescript)]
pub struct NotificationLog {
    seen: SeenSeqIds,
}

/// The largest `capacity` (lookups scan the list).
const MAX_CAPACITY: u32 = 100_000;

fn seq_id_arg(v: &JsValue) -> Result<String, JsValue> {
    match v.text() {
        Some(s) if !s.is_empty() && s.len() <= MAX_SEQ_ID_LEN => Ok(s),
        _ => Err(err(&PayError::field(
            Code::InvalidOptions,
            "seqId",
            "seqId must be a notification's seq_id: a non-empty string of at most 256 bytes",
        ))),
    }
}

#[wasm_bindgen(js_class = NotificationLog)]
impl NotificationLog {
    #[wasm_bindgen(constructor, skip_typescript)]
    pub fn new(capacity: JsValue) -> Result<NotificationLog, JsValue> {
        let n = whole(&capacity, "capacity", 1, MAX_CAPACITY).map_err(|e| err(&e))?;
        Ok(NotificationLog { seen: SeenSeqIds::new(n.map(|n| n as usize).unwrap_or(SeenSeqIds::DEFAULT_CAPACITY)) })
    }

    /// `seen(seqId) -> "first" | "duplicate"`; remembers it.
    #[wasm_bindgen(skip_typescript)]
    pub fn seen(&mut self, seq_id: JsValue) -> Result<JsValue, JsValue> {
        let s = seq_id_arg(&seq_id)?;
        Ok(JsValue::from_str(match self.seen.note(&s) {
            Seen::First => "first",
            Seen::Duplicate => "duplicate",
        }))
    }

    /// `forget(seqId) -> boolean`: lets a redelivery through again (when
    /// handling it failed).
    #[wasm_bindgen(skip_typescript)]
    pub fn forget(&mut self, seq_id: JsValue) -> Result<bool, JsValue> {
        Ok(self.seen.forget(&seq_id_arg(&seq_id)?))
    }

    /// How many `seq_id`s are remembered.
    #[wasm_bindgen(getter, skip_typescript)]
    pub fn size(&self) -> u32 {
        self.seen.len() as u32
    }
}
