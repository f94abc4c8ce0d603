//! Reaching the wallet: the bridge-ready wait for a payment (its rules in
//! [`super::wait`]) and the calls to the bridge and to the mini-program
//! API.

use super::wait::{self, Looked};
use super::{ApiCall, Cmd, Detail, Out, Phase, Run, World, API_CALLS};
use crate::action::{Action, Options};
use crate::error::{cat, Code, PayError};
use crate::event::EventType;
use crate::json::Json;
use crate::prelude::*;
use crate::profile::Field;
use crate::runtime::Host;

pub(super) fn event_names(o: &Options, wallet: Host) -> (&str, &str) {
    let p = &o.profile;
    match wallet {
        Host::Wallet1 => (p.get(Field::W1Bridge), p.get(Field::W1ReadyEvent)),
        _ => (p.get(Field::W2Bridge), p.get(Field::W2ReadyEvent)),
    }
}

impl<V: Clone> Run<V> {
    /// Rule 1: listen first, then look.
    pub(super) fn wait(&mut self, w: &impl World, out: &mut impl Out<V>) {
        let wallet = self.wallet();
        let (bridge, event) = event_names(&self.opts, wallet);
        if self.host != wallet && !w.has_global(bridge) {
            let msg = cat!(
                self.channel,
                " pays through the ",
                wallet.as_str(),
                " app's JS bridge (",
                bridge,
                "), which is not on this page, and the runtime is ",
                self.host.as_str(),
                "; open this page inside the ",
                wallet.as_str(),
                " app"
            );
            return self.fail(PayError::field(Code::WrongRuntime, "pay_channel", msg), None, out);
        }
        let mut detail = Vec::new();
        Json::put_str(&mut detail, "bridge", bridge);
        Json::put_str(&mut detail, "event", event);
        out.emit(EventType::WAITING, Detail::Json(Json::Obj(crate::json::list(detail))));
        self.phase = Phase::Waiting;
        let looked = wait::begin(bridge, event, self.opts.timeout_ms, w, out);
        self.waited(looked, w, out);
    }

    /// The ready event fired, or the time-out came: then the last look.
    pub(super) fn look(&mut self, timed_out: bool, w: &impl World, out: &mut impl Out<V>) {
        let (bridge, event) = event_names(&self.opts, self.wallet());
        let looked = wait::look(bridge, event, timed_out, w, out);
        self.waited(looked, w, out);
    }

    #[inline(always)]
    fn waited(&mut self, looked: Looked, w: &impl World, out: &mut impl Out<V>) {
        let bridge = event_names(&self.opts, self.wallet()).0;
        let e = match looked {
            Looked::Waiting => return,
            Looked::Ready => return self.ready(w, out),
            Looked::TimedOut => {
                out.emit(EventType::TIMEOUT, Detail::None);
                wait::timeout_error(bridge, self.opts.timeout_ms)
            }
            Looked::NoDocument => wait::no_document_error(bridge),
        };
        self.fail(e, None, out)
    }

    /// The bridge is there: call it.
    fn ready(&mut self, w: &impl World, out: &mut impl Out<V>) {
        let wallet = self.wallet();
        let bridge = event_names(&self.opts, wallet).0;
        out.said(EventType::BRIDGE_READY, "bridge", bridge);
        let method = if wallet == Host::Wallet1 { "call" } else { "invoke" };
        if !w.has_method(bridge, method) {
            let msg = cat!("the wallet bridge ", bridge, " has no ", method, " method");
            return self.fail(PayError::new(Code::BridgeError, msg), None, out);
        }
        let op = self.op();
        out.said(EventType::CALLED, "method", op);
        out.call_bridge(bridge, method, op, self.params());
        self.phase = Phase::Calling;
    }

    /// What the wallet is called with, through its bridge or its
    /// mini-program API: wallet2's signed parameters, or wallet1's trade
    /// number.
    fn params(&self) -> Json {
        match &self.action {
            Action::Wallet2BridgePay { params } | Action::Wallet2RequestPayment { params } => Json::str_obj(params),
            Action::Wallet1TradePay { trade_no, .. } => {
                let mut m = Vec::new();
                Json::put_str(&mut m, "tradeNO", trade_no);
                Json::Obj(crate::json::list(m))
            }
            _ => Json::Null,
        }
    }

    /// Calls the mini-program API (`options.api`, else the global the
    /// profile names): `tradePay` (wallet1) or `requestPayment` (wallet2).
    pub(super) fn call_api(&mut self, w: &impl World, out: &mut impl Out<V>) {
        let p = &self.opts.profile;
        let (global, method, complete) = match self.action {
            Action::Wallet2RequestPayment { .. } => (p.get(Field::W2MiniProgramGlobal), "requestPayment", true),
            _ => (p.get(Field::W1MiniProgramGlobal), "tradePay", false),
        };
        // The browser's payment module never calls a mini-program API (the
        // page has none): known when it is built, so that none of the code
        // after this refusal is in it.
        let why = if !API_CALLS {
            "which a browser page does not have: pay from the mini-program page with paybridge/miniprogram and { api }"
        } else if !w.api_has(global, method) {
            "and none was given: call pay() from a mini-program page with { api } (its global API object)"
        } else {
            ""
        };
        if !why.is_empty() {
            let msg = cat!(self.channel, " pays through the mini-program API's ", method, "(), ", why);
            return self.fail(no_api(PayError::field(Code::WrongRuntime, "api", msg), w), None, out);
        }
        let global = global.to_string();
        let params = self.params();
        out.said(EventType::CALLED, "method", method);
        out.push(Cmd::CallApi(Box::new(ApiCall { global, method, params, complete })));
        self.phase = Phase::Calling;
    }
}

/// A payment refused for want of a mini-program API (`wrong_runtime` on
/// `miniProgram`, the planner's, or on `api`, the call's) in the
/// mini-program module, whose caller named neither `options.api` nor
/// `options.runtime`: the page is a mini-program whose API global the
/// module cannot see, so the refusal says how to hand the API over. Any
/// other refusal, and every refusal in the other builds, as it is.
pub fn no_api(e: PayError, w: &impl World) -> PayError {
    if crate::MINI_PROGRAM_MODULE
        && e.code == Code::WrongRuntime
        && matches!(e.field.as_deref(), Some("miniProgram" | "api"))
        && w.unnamed()
    {
        return PayError::field(
            Code::WrongRuntime,
            "api",
            "pay() found no mini-program API: pass the runtime's API object as pay(payment, { api }), or name its global in the profile (profile.wallet1.miniProgramGlobal, profile.wallet2.miniProgramGlobal) where the page can reach the global object",
        );
    }
    e
}
