//! The mini-program side of the flows, besides paying (which `pay()` does):
//!
//! - [`wallet1_mini_auth_request`]: the request a wallet1 mini-program
//!   passes to its `getAuthCode` API (scopes `auth_user`, `auth_base`, ...);
//!   the server-side code exchanges are in [`crate::authorize::exchange`];
//! - [`wallet2_launch_request`]: what a native app passes to the wallet2 SDK
//!   to open the paying mini-program (original id, page path with query,
//!   release / test / preview);
//! - [`read_launch_options`]: what the launch page learns from its launch
//!   options (scene [`APP_SCENE`] is a launch from an app);
//! - [`launch_app_button`]: the attributes of the button that returns to
//!   the app.
//!
//! Pure: every input is a [`Json`] value, every answer one too. Bad input is
//! `invalid_options`, blamed on the field.

use crate::error::bad_option as bad;
use crate::error::{cat, Result};
use crate::json::json_obj;
use crate::json::Json;
use crate::prelude::*;
use crate::profile::{Field, Profile};

/// The launch scene of a mini-program opened from a native app (service
/// document, wallet2 app payment, step 3).
pub const APP_SCENE: u32 = 1069;

/// The longest `path` (with its query) of a launch request.
pub const MAX_PATH: usize = 1024;

/// The longest `app-parameter` the return-to-app button carries.
pub const MAX_APP_PARAMETER: usize = 1024;

/// The query key whose value [`read_launch_options`] reports as
/// `appParameter` unless the caller names another.
pub const APP_PARAMETER_KEY: &str = "appParameter";

/// The page method the return-to-app button calls when the app cannot be
/// opened (`binderror`).
pub const LAUNCH_ERROR_HANDLER: &str = "onLaunchAppError";

fn object<'a>(v: &'a Json, field: &str) -> Result<&'a Json> {
    if v.as_obj().is_some() {
        Ok(v)
    } else {
        Err(bad(field, &cat!("must be an object, not ", v.kind())))
    }
}

/// `wallet1MiniAuthRequest({ scopes })`: `{ scopes: [...] }`, the object to
/// give the wallet1 mini-program's `getAuthCode` (with its own `success` and
/// `fail`). `scopes` is an array of scope names or one string of names
/// separated by commas: `auth_user` (explicit), `auth_base` (silent), or
/// another `auth_*` scope of the provider.
pub fn wallet1_mini_auth_request(params: &Json) -> Result<Json> {
    let p = object(params, "params")?;
    let joined = crate::authorize::build::wallet1_scopes(p)?;
    let scopes = joined.split(',').map(Json::str).collect();
    Ok(json_obj! { "scopes" => Json::Arr(crate::json::list(scopes)) })
}

/// Which version of a mini-program a native app opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MiniProgramType {
    Release = 0,
    Test = 1,
    Preview = 2,
}

impl MiniProgramType {
    pub fn name(self) -> &'static str {
        match self {
            MiniProgramType::Release => "release",
            MiniProgramType::Test => "test",
            MiniProgramType::Preview => "preview",
        }
    }

    /// `0`, `1`, `2` or `"release"`, `"test"`, `"preview"`.
    pub fn from_json(v: &Json) -> Option<MiniProgramType> {
        use MiniProgramType::*;
        match v {
            Json::Num(n) if *n == 0.0 => Some(Release),
            Json::Num(n) if *n == 1.0 => Some(Test),
            Json::Num(n) if *n == 2.0 => Some(Preview),
            Json::Str(s) => [Release, Test, Preview].into_iter().find(|t| t.name() == s),
            _ => None,
        }
    }
}

/// The request a native app passes to the wallet2 SDK to open a
/// mini-program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchRequest {
    /// The mini-program's original id.
    pub user_name: String,
    /// The page, with the query appended (`pages/pay/index?order=42`).
    pub path: Option<String>,
    pub kind: MiniProgramType,
}

impl LaunchRequest {
    /// `{ userName, path?, type }` (`type` as the SDK's number).
    pub fn to_json(&self) -> Json {
        let mut m = Vec::new();
        Json::put(&mut m, "userName", Json::Str(self.user_name.clone()));
        if let Some(p) = &self.path {
            Json::put(&mut m, "path", Json::Str(p.clone()));
        }
        Json::put(&mut m, "type", Json::Num(self.kind as u8 as f64));
        Json::Obj(crate::json::list(m))
    }
}

/// `userName`: the profile's `originalIdPrefix` (`gh_` by default), then 1
/// to 64 ASCII letters and digits.
fn original_id<'a>(p: &'a Json, profile: &Profile) -> Result<&'a str> {
    let prefix = profile.get(Field::W2OriginalIdPrefix);
    let rule = || {
        bad(
            "userName",
            &cat!(
                "must be the mini-program's original id: ",
                prefix,
                " followed by letters and digits (profile.wallet2.originalIdPrefix sets the prefix)"
            ),
        )
    };
    let v = match p.given("userName") {
        None => return Err(bad("userName", "is missing (the mini-program's original id)")),
        Some(Json::Str(s)) => s.as_str(),
        Some(other) => return Err(bad("userName", &cat!("must be a string, not ", other.kind()))),
    };
    let rest = v.strip_prefix(prefix).ok_or_else(rule)?;
    if rest.is_empty() || rest.len() > 64 || !crate::error::word(rest.as_bytes(), b"") {
        return Err(rule());
    }
    Ok(v)
}

/// A page path: segments of letters, digits, `_`, `-` and `.` separated by
/// `/` (one leading `/` allowed), no empty, `.` or `..` segment.
fn page_path(v: &str) -> bool {
    let body = v.strip_prefix('/').unwrap_or(v);
    !body.is_empty()
        && body.split('/').all(|seg| !seg.is_empty() && seg != "." && seg != ".." && crate::error::word(seg.as_bytes(), b"_-."))
}

/// A query value as text: strings as they are, whole numbers in decimal,
/// booleans as `true` / `false`. (Fractions are refused rather than
/// formatted: float formatting would bring its machinery into the wasm
/// build.)
fn scalar_text(v: &Json) -> Option<String> {
    match v {
        Json::Str(s) => Some(s.clone()),
        Json::Num(n) => {
            let w = crate::json::whole(if *n < 0.0 { -n } else { *n })?;
            let mut t = String::new();
            if *n < 0.0 {
                t.push('-');
            }
            crate::error::push_u64(&mut t, w);
            Some(t)
        }
        Json::Bool(b) => Some(String::from(if *b { "true" } else { "false" })),
        _ => None,
    }
}

/// `wallet2LaunchRequest({ userName, path?, query?, type? }, options?)`.
///
/// `query` is an object of strings, whole numbers and booleans, appended to
/// `path` as `?key=value&...` with every key and value percent-encoded;
/// `type` is `0` / `"release"` (the default), `1` / `"test"` or `2` /
/// `"preview"`.
pub fn wallet2_launch_request(params: &Json, options: Option<&Json>) -> Result<LaunchRequest> {
    let profile = match options {
        None | Some(Json::Null) => Profile::default(),
        Some(o) => Profile::from_patch(object(o, "options")?.get("profile"))?,
    };
    let p = object(params, "params")?;
    let user_name = original_id(p, &profile)?.to_string();
    let mut path = match p.given("path") {
        None => None,
        Some(Json::Str(s)) if page_path(s) => Some(s.clone()),
        Some(Json::Str(_)) => {
            return Err(bad(
                "path",
                "must be a page path such as pages/pay/index (letters, digits, _ - . between /; the query goes in query)",
            ))
        }
        Some(other) => return Err(bad("path", &cat!("must be a string, not ", other.kind()))),
    };
    match p.given("query") {
        None => {}
        Some(Json::Obj(pairs)) => {
            let Some(base) = path.as_mut() else {
                return Err(bad("query", "needs a path: the page that reads the query"));
            };
            for (i, (k, v)) in pairs.iter().enumerate() {
                let field = cat!("query.", k);
                if k.is_empty() || k.len() > 64 {
                    return Err(bad("query", "has a key that is empty or longer than 64 characters"));
                }
                let text = scalar_text(v).ok_or_else(|| bad(&field, "must be a string, a whole number or a boolean"))?;
                base.push(if i == 0 { '?' } else { '&' });
                crate::encode::push_component(base, k);
                base.push('=');
                crate::encode::push_component(base, &text);
            }
        }
        Some(other) => return Err(bad("query", &cat!("must be an object of strings, whole numbers and booleans, not ", other.kind()))),
    }
    if path.as_ref().is_some_and(|s| s.len() > MAX_PATH) {
        return Err(bad("path", "is too long: with its query it must stay within 1024 characters"));
    }
    let kind = match p.given("type") {
        None => MiniProgramType::Release,
        Some(v) => {
            MiniProgramType::from_json(v).ok_or_else(|| bad("type", "must be 0 (release), 1 (test) or 2 (preview), or that name"))?
        }
    };
    Ok(LaunchRequest { user_name, path, kind })
}

/// What the launch page reads from its launch options.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchInfo {
    pub scene: Option<u32>,
    pub from_app: bool,
    pub query: Vec<(String, String)>,
    pub path: Option<String>,
    pub app_parameter: Option<String>,
}

impl LaunchInfo {
    /// `{ fromApp, scene?, query, path?, appParameter? }`.
    pub fn to_json(&self) -> Json {
        let mut m = Vec::new();
        Json::put(&mut m, "fromApp", Json::Bool(self.from_app));
        if let Some(s) = self.scene {
            Json::put(&mut m, "scene", Json::Num(s as f64));
        }
        Json::put(
            &mut m,
            "query",
            Json::Obj(crate::json::list(self.query.iter().map(|(k, v)| (k.clone(), Json::Str(v.clone()))).collect())),
        );
        if let Some(p) = &self.path {
            Json::put(&mut m, "path", Json::Str(p.clone()));
        }
        if let Some(a) = &self.app_parameter {
            Json::put(&mut m, "appParameter", Json::Str(a.clone()));
        }
        Json::Obj(crate::json::list(m))
    }
}

/// The scene number given as `v` (`None`: no scene, absent or `null`).
fn scene(v: Option<&Json>) -> Result<Option<u32>> {
    let n = match v {
        None => return Ok(None),
        Some(Json::Num(n)) => *n,
        Some(Json::Str(s)) if !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.bytes().fold(0.0, |n, b| n * 10.0 + (b - b'0') as f64)
        }
        Some(_) => return Err(bad("options.scene", "must be the scene number")),
    };
    if crate::json::whole(n).is_some_and(|w| w <= 999_999_999) {
        Ok(Some(n as u32))
    } else {
        Err(bad("options.scene", "must be the scene number"))
    }
}

/// `readLaunchOptions(options, { appParameterKey? }?)`: `fromApp` when
/// the scene is [`APP_SCENE`]; the query's values as text (values that are
/// not strings, whole numbers or booleans are left out); `appParameter`, the
/// query value the app passed under `appParameterKey` (`appParameter` by
/// default) for the page to hand back with the return-to-app button.
pub fn read_launch_options(options: &Json, params: Option<&Json>) -> Result<LaunchInfo> {
    let o = object(options, "options")?;
    let key = match params {
        None | Some(Json::Null) => APP_PARAMETER_KEY,
        Some(p) => match object(p, "params")?.given("appParameterKey") {
            None => APP_PARAMETER_KEY,
            Some(Json::Str(s)) if !s.is_empty() && s.len() <= 64 => s.as_str(),
            Some(_) => return Err(bad("appParameterKey", "must be a query key of 1 to 64 characters")),
        },
    };
    let scene = scene(o.given("scene"))?;
    let query: Vec<(String, String)> = match o.given("query") {
        None => Vec::new(),
        Some(Json::Obj(pairs)) => pairs.iter().filter_map(|(k, v)| Some((k.clone(), scalar_text(v)?))).collect(),
        Some(other) => return Err(bad("options.query", &cat!("must be an object, not ", other.kind()))),
    };
    let path = o.get("path").and_then(Json::as_str).map(str::to_string);
    let app_parameter = query.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    Ok(LaunchInfo { scene, from_app: scene == Some(APP_SCENE), query, path, app_parameter })
}

/// `launchAppButton(appParameter)`: the attributes of the button that
/// returns to the app, `{ "open-type": "launchApp", "app-parameter",
/// binderror: "onLaunchAppError" }`. `appParameter` is 1 to 1024 printable
/// ASCII characters (encode anything else, e.g. percent-encode it).
pub fn launch_app_button(app_parameter: &Json) -> Result<Json> {
    let v = match app_parameter {
        Json::Str(s) => s,
        other => return Err(bad("appParameter", &cat!("must be a string, not ", other.kind()))),
    };
    if v.is_empty() || v.len() > MAX_APP_PARAMETER {
        return Err(bad("appParameter", "must be 1 to 1024 characters"));
    }
    if !v.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Err(bad("appParameter", "may hold only printable ASCII characters (percent-encode anything else)"));
    }
    Ok(json_obj! {
        "open-type" => Json::str("launchApp"),
        "app-parameter" => Json::Str(v.clone()),
        "binderror" => Json::str(LAUNCH_ERROR_HANDLER),
    })
}

#[cfg(test)]
mod tests;
