//! Simulated wallets: the cashier pages behind wallet1 pay_info URLs and
//! card-network pay links, the injected JS bridges, and the endpoint those
//! bridges report a payment to.
//!
//! - `GET /sim/wallet1/cashier?trade&amount&subject&sign`, `POST` the same
//!   fields plus `action=pay|cancel`: wallet1's cashier.
//! - `GET /sim/cardnet/pay?trade&amount&sign`, `POST` likewise: the card
//!   network's.
//! - `POST /sim/pay/{ref}` with `{ wallet, params }`: a bridge paid `ref`
//!   (a `tradeNO` or a `prepay_id`).
//! - `GET /sim/bridge.js?wallet&mode&delay_ms&code`: the bridge script.
//! - `GET /sim/miniprogram.js?wallet&mode&code&app_id`: a mini-program API
//!   (`tradePay`/`getAuthCode`, `requestPayment`/`login`) for a browser page
//!   standing in for a mini-program page.
//! - `POST /sim/clock?advance_ms=N`: the sandbox's clock moved ahead.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use super::http::{Params, Problem};
use super::merchant::{money, PayStatus, Payment};
use super::pages::{escape, hidden, page};
use super::{lock, sign, AppState, Sandbox};
use paybridge::payment::Channel;
use paybridge::profile::Field;

const BRIDGE_JS: &str = include_str!("bridge.js");
const MINI_PROGRAM_JS: &str = include_str!("miniprogram.js");

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/sim/wallet1/cashier", get(wallet1_show).post(wallet1_act))
        .route("/sim/cardnet/pay", get(cardnet_show).post(cardnet_act))
        .route("/sim/pay/{reference}", post(bridge_paid))
        .route("/sim/clock", post(super::http::clock_ahead))
        .route("/sim/bridge.js", get(bridge_js))
        .route("/sim/miniprogram.js", get(mini_program_js))
}

#[derive(Clone, Copy)]
enum Cashier {
    Wallet1,
    Cardnet,
}

impl Cashier {
    fn path(self) -> &'static str {
        match self {
            Cashier::Wallet1 => "/sim/wallet1/cashier",
            Cashier::Cardnet => "/sim/cardnet/pay",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Cashier::Wallet1 => "wallet1 cashier",
            Cashier::Cardnet => "Card network: pay",
        }
    }

    fn serves(self, c: Channel) -> bool {
        match self {
            Cashier::Wallet1 => matches!(c, Channel::Wallet1 | Channel::Wallet1Wap),
            Cashier::Cardnet => c == Channel::Cardnet,
        }
    }

    /// The payment a cashier link names, once its signature is checked.
    fn load(self, s: &Sandbox, p: &Params) -> Result<Payment, Problem> {
        let trade = p.required("trade")?;
        let given = p.required("sign")?;
        // `action` is the button pressed; `outcome` what the page after it
        // shows (post, then redirect): neither is part of the signed link.
        let fields = p.pairs().filter(|(k, _)| *k != "action" && *k != "outcome");
        if !sign::same(given, &sign::sign(&s.config.secret, fields)) {
            return Err(Problem::bad(
                "sign",
                "This payment link was changed on its way here: its signature does not match. \
                 A pay_info URL must be opened exactly as given (percent-encoded once, never decoded or encoded again).",
            ));
        }
        let mut payments = lock(&s.payments);
        let pay = payments
            .by_trade(trade, s.now_ms())
            .ok_or_else(|| Problem::not_found(format!("No payment {trade} (the sandbox forgets payments when it restarts).")))?;
        if !self.serves(pay.channel) {
            return Err(Problem::bad("trade", format!("Payment {trade} is a {} payment, not one for this cashier.", pay.channel.name())));
        }
        Ok(pay.clone())
    }
}

fn summary(p: &Payment) -> String {
    format!(
        "<dl><dt>Order</dt><dd><code>{}</code></dd><dt>Subject</dt><dd>{}</dd><dt>Amount</dt><dd>{}</dd></dl>",
        escape(&p.id),
        escape(&p.subject),
        money(p.amount)
    )
}

/// The way back to the merchant: its `return_url` with the payment's id
/// added (`payment=`), as cashiers name the order they come back from, so
/// that the page finds its payment even in another tab.
fn back_link(p: &Payment) -> String {
    match &p.return_url {
        Some(u) => {
            let sep = if u.contains('?') { '&' } else { '?' };
            let (base, frag) = u.split_once('#').map_or((u.as_str(), None), |(b, f)| (b, Some(f)));
            let id: String = url::form_urlencoded::byte_serialize(p.id.as_bytes()).collect();
            let mut href = format!("{base}{sep}payment={id}");
            if let Some(f) = frag {
                href.push('#');
                href.push_str(f);
            }
            format!("<p><a href=\"{}\">Return to the merchant</a></p>", escape(&href))
        }
        None => "<p>You can close this page and go back to the merchant.</p>".to_string(),
    }
}

fn show(s: &Sandbox, cashier: Cashier, query: Option<&str>) -> Response {
    let p = Params::from_query(query);
    let pay = match cashier.load(s, &p) {
        Ok(pay) => pay,
        Err(e) => return e.html(),
    };
    // After a button: the outcome page the POST redirected to.
    let outcome = match p.get("outcome") {
        Some("paid") => Some(("ok", "Payment successful.")),
        Some("already") => Some(("ok", "Already paid: nothing changed.")),
        // Cancelled here, the payment is still open: it may yet be paid (in
        // another tab, say) until the merchant closes it, so the page
        // says so and never "nothing was charged". Shown again once paid
        // or closed, the page says that instead (below).
        Some("cancelled") if pay.status == PayStatus::Created => Some((
            "error",
            "Payment cancelled here. The payment stays open until the merchant closes it; the merchant's page says whether it was paid.",
        )),
        Some("closed") => Some(("error", "The merchant closed this payment unpaid; nothing was charged.")),
        _ => None,
    };
    let body = if let Some((class, words)) = outcome {
        format!("<div class=\"box\">{}<p class=\"{class}\" id=\"result\">{words}</p>{}</div>", summary(&pay), back_link(&pay))
    } else if pay.status == PayStatus::Paid {
        format!("<div class=\"box\">{}<p class=\"ok\">Already paid.</p>{}</div>", summary(&pay), back_link(&pay))
    } else if pay.status == PayStatus::Closed {
        let words = "The merchant closed this payment unpaid; nothing was charged.";
        format!("<div class=\"box\">{}<p class=\"error\">{words}</p>{}</div>", summary(&pay), back_link(&pay))
    } else {
        let fields: Vec<(&str, &str)> = p.pairs().collect();
        // The way back is there from the start: leaving without a button
        // changes nothing, and the merchant's page asks whether it was paid.
        format!(
            "<div class=\"box\">{}<form method=\"post\" action=\"{}\">{}\
<button class=\"primary\" name=\"action\" value=\"pay\">Pay {}</button>\
<button name=\"action\" value=\"cancel\">Cancel</button></form>{}</div>",
            summary(&pay),
            cashier.path(),
            hidden(&fields),
            money(pay.amount),
            back_link(&pay)
        )
    };
    page(cashier.title(), &body).into_response()
}

/// A button pressed: acts, then redirects (303) to the cashier's own link
/// with the outcome, so that Back and reload show that page again and
/// never post the form a second time.
fn act(s: &Sandbox, cashier: Cashier, body: &Bytes) -> Response {
    let p = Params::parse(&String::from_utf8_lossy(body));
    let run = || -> Result<Response, Problem> {
        let pay = cashier.load(s, &p)?;
        let outcome = match p.get("action") {
            // Paid already (in another tab, say): neither button changes that.
            Some("pay" | "cancel") if pay.status == PayStatus::Paid => "already",
            // Closed unpaid by the merchant: nothing can pay it now.
            Some("pay" | "cancel") if pay.status == PayStatus::Closed => "closed",
            Some("pay") => {
                mark_paid(s, &pay.trade);
                "paid"
            }
            Some("cancel") => "cancelled",
            _ => return Err(Problem::bad("action", "action must be pay or cancel")),
        };
        let mut link = url::form_urlencoded::Serializer::new(String::new());
        for (k, v) in p.pairs().filter(|(k, _)| *k != "action" && *k != "outcome") {
            link.append_pair(k, v);
        }
        link.append_pair("outcome", outcome);
        let to = format!("{}?{}", cashier.path(), link.finish());
        Ok(axum::response::Redirect::to(&to).into_response())
    };
    run().unwrap_or_else(Problem::html)
}

async fn wallet1_show(State(s): State<AppState>, RawQuery(q): RawQuery) -> Response {
    show(&s, Cashier::Wallet1, q.as_deref())
}

async fn wallet1_act(State(s): State<AppState>, body: Bytes) -> Response {
    act(&s, Cashier::Wallet1, &body)
}

async fn cardnet_show(State(s): State<AppState>, RawQuery(q): RawQuery) -> Response {
    show(&s, Cashier::Cardnet, q.as_deref())
}

async fn cardnet_act(State(s): State<AppState>, body: Bytes) -> Response {
    act(&s, Cashier::Cardnet, &body)
}

/// Marks the payment with wallet-side reference `trade` paid.
fn mark_paid(s: &Sandbox, trade: &str) -> Option<String> {
    let mut payments = lock(&s.payments);
    let p = payments.by_trade(trade, s.now_ms())?;
    if p.status == PayStatus::Closed {
        return None;
    }
    p.status = PayStatus::Paid;
    Some(p.id.clone())
}

/// The fields a bridge must pass for a payment: those of its pay_info,
/// unchanged.
fn check_bridge_params(pay: &Payment, wallet: &str, params: &Value) -> Result<(), Problem> {
    let family = match pay.channel {
        Channel::Wallet1Pub | Channel::Wallet1Lite => "wallet1",
        Channel::Wallet2Pub | Channel::Wallet2Lite => "wallet2",
        other => return Err(Problem::bad("reference", format!("payment {} is a {} payment, which no bridge pays", pay.id, other.name()))),
    };
    if wallet != family {
        return Err(Problem::bad(
            "wallet",
            format!("payment {} is a {} payment, not one for the {wallet} bridge", pay.id, pay.channel.name()),
        ));
    }
    let expected = pay.object["pay_info"].as_object().cloned().unwrap_or_default();
    for (name, want) in &expected {
        match params.get(name) {
            None | Some(Value::Null) => return Err(Problem::bad(&format!("params.{name}"), format!("params.{name} is missing"))),
            Some(got) if got != want => {
                return Err(Problem::bad(&format!("params.{name}"), format!("params.{name} differs from the payment's pay_info.{name}")))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// `POST /sim/pay/{ref}`: a simulated bridge paid. With a JSON body
/// `{ wallet, params }` the params are checked against the payment's
/// pay_info; with none the payment is simply marked paid.
async fn bridge_paid(State(s): State<AppState>, Path(reference): Path<String>, body: Bytes) -> Response {
    let run = || -> Result<Response, Problem> {
        let pay = lock(&s.payments)
            .by_trade(&reference, s.now_ms())
            .cloned()
            .ok_or_else(|| Problem::not_found(format!("no payment {reference}")))?;
        if pay.status == PayStatus::Closed {
            let m = format!("payment {} was closed unpaid (the payment lifetime passed): nothing can pay it now", pay.id);
            return Err(Problem { status: axum::http::StatusCode::CONFLICT, error: "closed", field: None, message: m });
        }
        if !body.is_empty() {
            let v: Value = serde_json::from_slice(&body).map_err(|e| Problem::bad("body", format!("the body is not JSON text ({e})")))?;
            let wallet = v["wallet"].as_str().ok_or_else(|| Problem::bad("wallet", "wallet is missing (wallet1 or wallet2)"))?;
            check_bridge_params(&pay, wallet, &v["params"])?;
        }
        mark_paid(&s, &reference);
        Ok(Json(json!({ "id": pay.id, "status": PayStatus::Paid.name() })).into_response())
    };
    run().unwrap_or_else(Problem::json)
}

/// `never`: the bridge never arrives; `silent`: it takes the call and never answers.
const MODES: [&str; 6] = ["succeed", "cancel", "fail", "late", "never", "silent"];

/// `GET /sim/bridge.js`: the bridge under the profile's default names.
async fn bridge_js(State(s): State<AppState>, RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    let run = || -> Result<Response, Problem> {
        let wallet = p.required("wallet")?;
        let mode = p.get("mode").unwrap_or("succeed");
        if !MODES.contains(&mode) {
            return Err(Problem::bad("mode", "mode must be succeed, cancel, fail, late, never or silent"));
        }
        let delay_ms: u32 = match p.get("delay_ms") {
            None => 1000,
            Some(d) => d
                .parse()
                .ok()
                .filter(|n| *n <= 600_000)
                .ok_or_else(|| Problem::bad("delay_ms", "delay_ms must be a whole number of milliseconds up to 600000"))?,
        };
        let code = p.get("code").unwrap_or("");
        let code_ok = code.len() <= 64 && code.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b':' | b'.' | b'-' | b' '));
        if !code_ok {
            return Err(Problem::bad("code", "code must be up to 64 letters, digits, spaces, _ : . -"));
        }
        let cfg = match wallet {
            "wallet1" => {
                let p = &s.profile;
                json!({
                    "wallet": "wallet1", "bridge": p.get(Field::W1Bridge), "readyEvent": p.get(Field::W1ReadyEvent),
                    "method": "tradePay",
                    "results": { "succeed": "9000", "cancel": "6001", "fail": "4000" },
                })
            }
            "wallet2" => {
                let p = &s.profile;
                let m = p.get(Field::W2PayMethod);
                json!({
                    "wallet": "wallet2", "bridge": p.get(Field::W2Bridge), "readyEvent": p.get(Field::W2ReadyEvent),
                    "method": m,
                    "results": { "succeed": format!("{m}:ok"), "cancel": format!("{m}:cancel"), "fail": format!("{m}:fail") },
                })
            }
            _ => return Err(Problem::bad("wallet", "wallet must be wallet1 or wallet2")),
        };
        let mut cfg = cfg;
        cfg["mode"] = json!(mode);
        cfg["modes"] = json!(MODES);
        cfg["delayMs"] = json!(delay_ms);
        cfg["code"] = json!(code);
        Ok(script(BRIDGE_JS, &cfg))
    };
    run().unwrap_or_else(Problem::json)
}

/// The `code` parameter: the wallet's answer to give instead of the mode's.
fn answer_code(p: &Params) -> Result<&str, Problem> {
    let code = p.get("code").unwrap_or("");
    let ok = code.len() <= 64 && code.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b':' | b'.' | b'-' | b' '));
    if ok {
        Ok(code)
    } else {
        Err(Problem::bad("code", "code must be up to 64 letters, digits, spaces, _ : . -"))
    }
}

/// `template` with its settings in place of `/*CONFIG*/`.
fn script(template: &str, cfg: &Value) -> Response {
    // JSON text is a JavaScript expression; `<` is escaped so that the text
    // stays inert even if pasted into an inline script.
    let text = cfg.to_string().replace('<', "\\u003c");
    let js = template.replace("/*CONFIG*/", &text);
    ([(CONTENT_TYPE, "text/javascript; charset=utf-8")], js).into_response()
}

/// `GET /sim/miniprogram.js`: the mini-program API under the profile's
/// global names, answering as the mode says.
async fn mini_program_js(State(s): State<AppState>, RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    let run = || -> Result<Response, Problem> {
        let wallet = p.required("wallet")?;
        let mode = p.get("mode").unwrap_or("succeed");
        if !["succeed", "cancel", "fail", "silent"].contains(&mode) {
            return Err(Problem::bad("mode", "mode must be succeed, cancel, fail or silent"));
        }
        let code = answer_code(&p)?;
        let app_id = p.get("app_id").unwrap_or("sandbox-mini-program");
        let app_ok = !app_id.is_empty()
            && app_id.len() <= 64
            && app_id.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'));
        if !app_ok {
            return Err(Problem::bad("app_id", "app_id must be up to 64 letters, digits, _ - ."));
        }
        let mut cfg = match wallet {
            "wallet1" => json!({
                "wallet": "wallet1",
                "global": s.profile.get(Field::W1MiniProgramGlobal),
                "results": { "succeed": "9000", "cancel": "6001", "fail": "4000" },
            }),
            "wallet2" => json!({
                "wallet": "wallet2",
                "global": s.profile.get(Field::W2MiniProgramGlobal),
                "results": {
                    "succeed": "requestPayment:ok",
                    "cancel": "requestPayment:fail cancel",
                    "fail": "requestPayment:fail",
                },
            }),
            _ => return Err(Problem::bad("wallet", "wallet must be wallet1 or wallet2")),
        };
        cfg["mode"] = json!(mode);
        cfg["code"] = json!(code);
        cfg["appId"] = json!(app_id);
        Ok(script(MINI_PROGRAM_JS, &cfg))
    };
    run().unwrap_or_else(Problem::json)
}
