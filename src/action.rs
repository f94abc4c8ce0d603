//! The planner: a payment and options in, the one action for its channel out.
//!
//! Pure: the same payment, options and runtime always give the same action,
//! and every URL in an action has passed [`safe_url::check`].

use crate::error::{bad_option as bad, cat, refuse, words, Code, Result};
use crate::json::Json;
use crate::payment::{Channel, Payment};
use crate::prelude::*;
use crate::profile::{Field, Profile};
use crate::runtime::{Host, Runtime};
use crate::safe_url::{self, UrlPolicy};

/// The constant `saId` of the wallet1 scheme URL, written once (a macro for `concat!` too).
macro_rules! sa_id {
    () => {
        "10000007"
    };
}
pub const SA_ID: &str = sa_id!();

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppFallback {
    /// Open the wallet app through its scheme (the default).
    App,
    /// Load `pay_info` itself, which covers a phone without the app.
    Web,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MiniProgramTarget {
    pub app_id: String,
    pub page: Option<String>,
}

/// The options of `planAction` and `pay` that the core reads (the hooks are
/// the edge's).
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub runtime: Option<Runtime>,
    pub profile: Profile,
    pub policy: UrlPolicy,
    pub app_fallback: AppFallback,
    pub mini_program: Option<MiniProgramTarget>,
    /// Bridge-ready wait, in ms.
    pub timeout_ms: u32,
    /// After an `open_url`, go to `fallbackUrl` when the page is still
    /// visible this long (opt-in).
    pub fallback_after_ms: Option<u32>,
    /// How long `confirm` may take before the payment reports
    /// `confirm_failed`.
    pub confirm_timeout_ms: u32,
    /// How long after asking the wallet to pay its answer is awaited; then
    /// the payment is `pending` (ask the server), not a wait for ever.
    pub callback_timeout_ms: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            runtime: None,
            profile: Profile::default(),
            policy: UrlPolicy::default(),
            app_fallback: AppFallback::App,
            mini_program: None,
            timeout_ms: 10_000,
            fallback_after_ms: None,
            confirm_timeout_ms: 15_000,
            callback_timeout_ms: 600_000,
        }
    }
}

/// The options that are waits in milliseconds, in the order they are read.
const WAITS: [&str; 4] = ["timeoutMs", "fallbackAfterMs", "confirmTimeoutMs", "callbackTimeoutMs"];

/// A whole number of milliseconds from 1 to 600000.
fn millis(v: &Json, field: &str) -> Result<u32> {
    match v {
        Json::Num(n) if crate::json::whole(*n).is_some_and(|w| (1..=600_000).contains(&w)) => Ok(*n as u32),
        _ => Err(bad(field, "must be a whole number of milliseconds from 1 to 600000")),
    }
}

impl Options {
    /// Reads the options object; absent and `null` mean the defaults.
    /// Members the core does not read (`onEvent`, `confirm`, `api`, ...) are
    /// left to the edge.
    pub fn from_json(v: Option<&Json>) -> Result<Options> {
        let mut o = Options::default();
        match v {
            None | Some(Json::Null) => {}
            Some(v) => o.read(v)?,
        }
        Ok(o)
    }

    /// Reads the members of the options object `v` over these options.
    /// The refusal is the one value returned (no copy of the options on
    /// each path that ends in one).
    fn read(&mut self, v: &Json) -> Result<()> {
        if v.as_obj().is_none() {
            return Err(bad("options", &words!("must be an object, not ", v.kind())));
        }
        // Read before the profile: it also lets the profile's provider
        // addresses be loopback http, as for the authorization helpers.
        if let Some(b) = v.given("insecureLoopback") {
            self.policy.insecure_loopback = matches!(b, Json::Bool(true));
            if !matches!(b, Json::Bool(_)) {
                return Err(bad("insecureLoopback", "must be true or false"));
            }
        }
        if let Some(p) = v.given("profile") {
            self.profile.merge_with(p, "profile", self.policy.insecure_loopback)?;
        }
        if let Some(r) = v.given("runtime") {
            self.runtime = Some(Runtime::from_json(r)?);
        }
        if let Some(h) = v.given("allowedHosts") {
            self.policy.allowed_hosts = Some(safe_url::allowed_hosts_from_json(h)?);
        }
        if let Some(a) = v.given("appFallback") {
            self.app_fallback = match a.as_str() {
                Some("app") => AppFallback::App,
                Some("web") => AppFallback::Web,
                _ => return Err(bad("appFallback", "must be \"web\" or \"app\"")),
            };
        }
        if let Some(m) = v.given("miniProgram") {
            if m.as_obj().is_none() {
                return Err(bad("miniProgram", "must be an object { appId, page? }"));
            }
            let app_id = match m.given("appId") {
                Some(Json::Str(s)) if !s.is_empty() && s.len() <= 64 && crate::error::word(s.as_bytes(), b"_") => own(s),
                _ => return Err(bad("miniProgram.appId", "must be the mini-program's id (letters, digits and _, at most 64)")),
            };
            let page = match m.given("page") {
                None => None,
                Some(Json::Str(s)) if !s.is_empty() && s.len() <= 1024 && !crate::error::has_control(s) => Some(own(s)),
                _ => return Err(bad("miniProgram.page", "must be a page path of 1 to 1024 printable characters")),
            };
            self.mini_program = Some(MiniProgramTarget { app_id, page });
        }
        // The four waits in the order of `WAITS` (the first bad one is the
        // one refused); `fallbackAfterMs` stays unset unless given, and a
        // wait that is read is never 0.
        let mut ms = [self.timeout_ms, 0, self.confirm_timeout_ms, self.callback_timeout_ms];
        for (key, slot) in WAITS.iter().zip(ms.iter_mut()) {
            if let Some(t) = v.given(key) {
                *slot = millis(t, key)?;
            }
        }
        let fallback;
        [self.timeout_ms, fallback, self.confirm_timeout_ms, self.callback_timeout_ms] = ms;
        if fallback > 0 {
            self.fallback_after_ms = Some(fallback);
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    Bridge,
    MiniProgram,
}

/// What a payment does. Its variant is a tag byte of its own (`repr(u8)`),
/// as a run's commands' ([`crate::perform::Cmd`]): the planner makes it and
/// the run matches it at most of its steps.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Action {
    OpenUrl { url: String, fallback_url: String },
    Redirect { url: String },
    OpenMiniProgram { url: String },
    Wallet1TradePay { trade_no: String, via: Via },
    Wallet2BridgePay { params: Vec<(&'static str, String)> },
    Wallet2RequestPayment { params: Vec<(&'static str, String)> },
}

impl Action {
    /// Each variant's kind, in the order of the variants: a table, not a
    /// match of strings, which the compiler merged into `Plan::to_json`'s
    /// match on the action, one copy of the member written for each arm.
    const KINDS: [&'static str; 6] =
        ["open_url", "redirect", "open_mini_program", "wallet1_trade_pay", "wallet2_bridge_pay", "wallet2_request_payment"];

    /// The action's `kind`, as JavaScript sees it.
    pub fn kind(&self) -> &'static str {
        let i = match self {
            Action::OpenUrl { .. } => 0,
            Action::Redirect { .. } => 1,
            Action::OpenMiniProgram { .. } => 2,
            Action::Wallet1TradePay { .. } => 3,
            Action::Wallet2BridgePay { .. } => 4,
            Action::Wallet2RequestPayment { .. } => 5,
        };
        Action::KINDS[i]
    }
}

/// An action with the channel it was planned for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub channel: Channel,
    pub action: Action,
}

impl Plan {
    /// The action as JavaScript sees it: `kind` first, then its fields, then
    /// `channel`.
    pub fn to_json(&self) -> Json {
        let mut m = Vec::new();
        Json::put_str(&mut m, "kind", self.action.kind());
        match &self.action {
            Action::OpenUrl { url, fallback_url } => {
                Json::put_str(&mut m, "url", url);
                Json::put_str(&mut m, "fallbackUrl", fallback_url);
            }
            Action::Redirect { url } | Action::OpenMiniProgram { url } => Json::put_str(&mut m, "url", url),
            Action::Wallet1TradePay { trade_no, via } => {
                Json::put_str(&mut m, "tradeNO", trade_no);
                let via = match via {
                    Via::Bridge => "bridge",
                    Via::MiniProgram => "mini_program",
                };
                Json::put_str(&mut m, "via", via);
            }
            Action::Wallet2BridgePay { params: p } | Action::Wallet2RequestPayment { params: p } => {
                Json::put(&mut m, "params", Json::str_obj(p))
            }
        }
        Json::put_str(&mut m, "channel", self.channel.name());
        Json::Obj(crate::json::list(m))
    }
}

/// `<scheme>://platformapi/startapp?<query>`: the wallet1 app opened by its scheme.
fn startapp(profile: &Profile, query: &str) -> String {
    cat!(profile.get(Field::W1Scheme), "://platformapi/startapp?", query)
}

/// `<scheme>://platformapi/startapp?saId=10000007&qrcode=<pay_info>`.
pub fn scheme_url(profile: &Profile, pay_info: &str) -> String {
    let mut u = startapp(profile, concat!("saId=", sa_id!(), "&qrcode="));
    crate::encode::push_component(&mut u, pay_info);
    u
}

/// `<scheme>://platformapi/startapp?appId=<appId>&page=<page>`.
pub fn mini_program_url(profile: &Profile, target: &MiniProgramTarget) -> String {
    let mut u = startapp(profile, "appId=");
    u.push_str(&target.app_id);
    if let Some(page) = &target.page {
        u.push_str("&page=");
        crate::encode::push_component(&mut u, page);
    }
    u
}

/// Plans the action for `payment` in `runtime`.
pub fn plan(payment: &Payment, opts: &Options, runtime: Runtime) -> Result<Plan> {
    plan_on(payment, opts, runtime.host)
}

/// [`plan`] on `host`, all the planner reads of the runtime.
pub fn plan_on(payment: &Payment, opts: &Options, host: Host) -> Result<Plan> {
    let profile = &opts.profile;
    let channel = profile.resolve_channel(&payment.pay_channel).ok_or_else(|| {
        refuse(
            Code::UnsupportedChannel,
            "pay_channel",
            words!(
                "pay_channel ",
                safe_url::clip(&payment.pay_channel),
                " is not a channel this module knows (wallet1, wallet1_wap, wallet1_lite, wallet1_pub, wallet2_lite, wallet2_pub, cardnet, or an alias in profile.channelAliases)"
            ),
        )
    })?;
    let action = match channel {
        // `pay_info` loaded itself (`appFallback: "web"`, or the web
        // channel inside the wallet's app), else opened through the app's
        // scheme: the scan channel falls back to it.
        Channel::Wallet1 | Channel::Wallet1Wap => {
            let info = safe_url::checked(payment.pay_info_url(channel)?, &opts.policy, "pay_info")?;
            if opts.app_fallback == AppFallback::Web || (channel == Channel::Wallet1Wap && host == Host::Wallet1) {
                Action::Redirect { url: info }
            } else {
                let url = scheme_url(profile, &info);
                if channel == Channel::Wallet1 {
                    Action::OpenUrl { url, fallback_url: info }
                } else {
                    Action::Redirect { url }
                }
            }
        }
        // The trade number paid through the bridge (wallet1_pub), through
        // the mini-program's API inside it, else the mini-program opened.
        Channel::Wallet1Pub | Channel::Wallet1Lite => {
            let trade_no = payment.trade_no(channel)?;
            if channel == Channel::Wallet1Pub {
                Action::Wallet1TradePay { trade_no, via: Via::Bridge }
            } else if host == Host::Wallet1MiniProgram {
                Action::Wallet1TradePay { trade_no, via: Via::MiniProgram }
            } else if let Some(target) = &opts.mini_program {
                Action::OpenMiniProgram { url: mini_program_url(profile, target) }
            } else {
                return Err(refuse(
                    Code::WrongRuntime,
                    "miniProgram",
                    words!(
                        "wallet1_lite pays inside the wallet1 mini-program; this runtime is ",
                        host.as_str(),
                        ", so give options.miniProgram { appId, page } to open the mini-program"
                    ),
                ));
            }
        }
        // The official-account form (through the bridge) signs with the
        // `appId` first; the mini-program's API takes the rest.
        Channel::Wallet2Pub | Channel::Wallet2Lite => {
            let bridge = channel == Channel::Wallet2Pub;
            let params = payment.wallet2_params(channel, bridge)?;
            if bridge {
                Action::Wallet2BridgePay { params }
            } else {
                Action::Wallet2RequestPayment { params }
            }
        }
        Channel::Cardnet => Action::Redirect { url: safe_url::checked(payment.expend_pay_url(channel)?, &opts.policy, "expend.pay_url")? },
    };
    Ok(Plan { channel, action })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheme_url_round_trips() {
        let info = "https://pay.example/c?a=1&b=x%2By+z#f/?=%E4";
        let u = scheme_url(&Profile::default(), info);
        assert!(u.starts_with("wallet1://platformapi/startapp?saId=10000007&qrcode=https%3A%2F%2Fpay.example%2Fc%3Fa%3D1%26b%3Dx%252By%2Bz%23f%2F%3F%3D%25E4"), "{u}");
        let q = &u[u.find("qrcode=").unwrap() + 7..];
        assert_eq!(crate::encode::percent_decode(q, false).unwrap(), info);
    }

    #[test]
    fn wallet1_lite_needs_the_mini_program_outside() {
        let p = Payment::from_text(r#"{"pay_channel":"wallet1_lite","pay_info":{"tradeNO":"T"}}"#).unwrap();
        let e = plan_on(&p, &Options::default(), Host::Browser).unwrap_err();
        assert_eq!(e.code, Code::WrongRuntime);
        let o = Options {
            mini_program: Some(MiniProgramTarget { app_id: "2021000".into(), page: Some("pages/pay/index?order=1&x=y".into()) }),
            ..Options::default()
        };
        let a = plan_on(&p, &o, Host::Browser).unwrap().action;
        assert_eq!(
            a,
            Action::OpenMiniProgram {
                url: "wallet1://platformapi/startapp?appId=2021000&page=pages%2Fpay%2Findex%3Forder%3D1%26x%3Dy".into()
            }
        );
        let a = plan_on(&p, &o, Host::Wallet1MiniProgram).unwrap().action;
        assert_eq!(a, Action::Wallet1TradePay { trade_no: "T".into(), via: Via::MiniProgram });
    }

    #[test]
    fn insecure_loopback_also_admits_loopback_provider_addresses_wherever_it_sits() {
        let opts = |text: &str| Options::from_json(Some(&crate::json::parse(text, Code::InvalidOptions, "options").unwrap()));
        let profile = r#""profile":{"cardnet":{"authUrl":"http://127.0.0.1:8080/sim/cardnet/authorize"}}"#;
        for text in [cat!("{", profile, r#","insecureLoopback":true}"#), cat!(r#"{"insecureLoopback":true,"#, profile, "}")] {
            let o = opts(&text).unwrap();
            assert_eq!(o.profile.get(Field::CardnetAuthUrl), "http://127.0.0.1:8080/sim/cardnet/authorize");
        }
        let e = opts(&cat!("{", profile, "}")).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (Code::InvalidOptions, Some("profile.cardnet.authUrl")));
        let e = opts(r#"{"profile":{"cardnet":{"authUrl":"http://c.example/a"}},"insecureLoopback":true}"#).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("profile.cardnet.authUrl"));
    }

    #[test]
    fn the_waits_are_read_in_their_order_and_fallback_stays_unset_unless_given() {
        let opts = |text: &str| Options::from_json(Some(&crate::json::parse(text, Code::InvalidOptions, "options").unwrap()));
        let o = opts(r#"{"timeoutMs":5,"confirmTimeoutMs":7,"callbackTimeoutMs":8}"#).unwrap();
        assert_eq!((o.timeout_ms, o.fallback_after_ms, o.confirm_timeout_ms, o.callback_timeout_ms), (5, None, 7, 8));
        let o = opts(r#"{"fallbackAfterMs":600000,"fallbackAfterMs":1}"#).unwrap();
        assert_eq!((o.timeout_ms, o.fallback_after_ms), (10_000, Some(1)));
        assert_eq!(opts(r#"{"fallbackAfterMs":null}"#).unwrap().fallback_after_ms, None);
        // Several bad: the first in the order of the options is refused,
        // whatever the order of the members.
        let e = opts(r#"{"callbackTimeoutMs":0,"confirmTimeoutMs":-1,"fallbackAfterMs":1.5}"#).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("fallbackAfterMs"));
        assert_eq!(e.message, "fallbackAfterMs must be a whole number of milliseconds from 1 to 600000");
        let e = opts(r#"{"callbackTimeoutMs":600001,"confirmTimeoutMs":"5"}"#).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("confirmTimeoutMs"));
    }
}
