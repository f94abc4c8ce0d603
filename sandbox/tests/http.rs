//! The sandbox server over real HTTP on 127.0.0.1: payments for every
//! channel, the simulated cashiers and bridges, the authorization round
//! trips and code exchanges, and refusals of bad input.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use paybridge::action::{plan, Options};
use paybridge::payment::Payment;
use paybridge::runtime::{Host, Runtime};
use paybridge_sandbox::{self as sandbox, Config, ManualClock};
use serde_json::{json, Value};
use support::Res;
use tokio::net::TcpListener;
use url::Url;

mod support;

const START_MS: u64 = 1_800_000_000_000;
const SECRET: &str = "sandbox-secret";

struct Sandbox {
    addr: SocketAddr,
    clock: Arc<ManualClock>,
}

/// `www/` and `pkg/` with one file each, in a directory of its own.
fn static_dirs() -> (PathBuf, PathBuf) {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("sandbox-{}-{}", std::process::id(), sandbox::sign::random_hex(4)));
    let (www, pkg) = (root.join("www"), root.join("pkg"));
    std::fs::create_dir_all(&www).unwrap();
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(www.join("index.html"), "<h1>demo pages</h1>").unwrap();
    std::fs::write(pkg.join("paybridge.js"), "export const x = 1;").unwrap();
    std::fs::write(pkg.join("paybridge.mjs"), "export const y = 2;").unwrap();
    std::fs::write(pkg.join("paybridge_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    (www, pkg)
}

async fn start() -> Sandbox {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let clock = Arc::new(ManualClock::new(START_MS));
    let (www, pkg) = static_dirs();
    let config = Config { www, pkg, clock: clock.clone(), ..Config::default() };
    tokio::spawn(sandbox::serve(listener, config, std::future::pending()));
    Sandbox { addr, clock }
}

fn query(u: &Url, name: &str) -> Option<String> {
    u.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned())
}

/// The part of an absolute sandbox URL after the authority.
fn path_of(u: &str) -> String {
    let u = Url::parse(u).unwrap();
    match u.query() {
        Some(q) => format!("{}?{q}", u.path()),
        None => u.path().to_string(),
    }
}

impl Sandbox {
    fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// One HTTP/1.1 request on its own connection.
    async fn send(&self, method: &str, path: &str, content_type: Option<&str>, body: &str) -> Res {
        let headers: Vec<(&str, &str)> = content_type.map(|t| ("Content-Type", t)).into_iter().collect();
        support::send(self.addr, method, path, &headers, body).await
    }

    async fn get(&self, path: &str) -> Res {
        self.send("GET", path, None, "").await
    }

    async fn post_json(&self, path: &str, body: &Value) -> Res {
        self.send("POST", path, Some("application/json"), &body.to_string()).await
    }

    async fn post_form(&self, path: &str, fields: &[(&str, &str)]) -> Res {
        let body = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(fields).finish();
        self.send("POST", path, Some("application/x-www-form-urlencoded"), &body).await
    }

    /// A cashier's button: the POST answers 303 to the cashier's own page
    /// (post, then redirect: Back never posts again), which is fetched.
    async fn press(&self, path: &str, fields: &[(&str, &str)]) -> Res {
        let r = self.post_form(path, fields).await;
        assert_eq!(r.status, 303, "{}", r.body);
        let to = r.header("location").expect("a Location header").to_string();
        assert!(to.starts_with(path), "{to}");
        let shown = self.get(&to).await;
        assert_eq!(shown.status, 200, "{}", shown.body);
        shown
    }

    async fn create(&self, order: Value) -> Value {
        let r = self.post_json("/merchant/payments", &order).await;
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    }

    async fn status(&self, id: &str) -> String {
        let r = self.get(&format!("/merchant/payments/{id}")).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["id"], id);
        r.json()["status"].as_str().unwrap().to_string()
    }

    /// A cardnet `userAuthCode` from the authorization page's Allow button.
    async fn cardnet_code(&self) -> String {
        let back = "https://shop.example/cardnet/back";
        let r = self.post_form("/sim/cardnet/authorize", &[("version", "1.0.0"), ("redirectUrl", back), ("decision", "allow")]).await;
        let to = r.location();
        assert_eq!(query(&to, "respCode").as_deref(), Some("00"));
        query(&to, "userAuthCode").unwrap()
    }
}

/// The module's own planner accepts the payment in the runtime its channel
/// pays in (http loopback allowed, as for the sandbox).
fn plans(payment: &Value, host: Host) -> String {
    let p = Payment::from_text(&payment.to_string()).unwrap();
    let opts = Options::from_json(Some(
        &paybridge::json::parse(r#"{"insecureLoopback":true}"#, paybridge::Code::InvalidOptions, "options").unwrap(),
    ))
    .unwrap();
    let rt = Runtime { host, mobile: true };
    plan(&p, &opts, rt).unwrap_or_else(|e| panic!("{e:?} for {payment}")).action.kind().to_string()
}

#[tokio::test]
async fn creates_a_payment_for_every_channel() {
    let sb = start().await;
    let cashier = format!("{}/sim/wallet1/cashier?", sb.base());
    for ch in ["wallet1", "wallet1_wap"] {
        let p = sb.create(json!({ "channel": ch, "amount": 250 })).await;
        assert_eq!(p["pay_channel"], ch);
        assert_eq!(p["amount"], 250);
        assert!(p["id"].as_str().unwrap().starts_with("pay_"));
        assert!(p["created"].as_u64().unwrap() >= START_MS / 1000);
        let info = p["pay_info"].as_str().unwrap();
        assert!(info.starts_with(&cashier), "{info}");
        for part in ["&amount=250&", "%2B", "%20", "&sign="] {
            assert!(info.contains(part), "{info} lacks {part}");
        }
        let u = Url::parse(info).unwrap();
        assert_eq!(query(&u, "subject").as_deref(), Some("Sandbox tea + cake"));
        assert!(p.get("expend").is_none());
    }
    assert_eq!(plans(&sb.create(json!({"channel": "wallet1"})).await, Host::Browser), "open_url");
    assert_eq!(plans(&sb.create(json!({"channel": "wallet1_wap"})).await, Host::Wallet1), "redirect");

    for ch in ["wallet1_lite", "wallet1_pub"] {
        let p = sb.create(json!({ "channel": ch, "buyer_id": "w1u1", "user_id": "w1u1" })).await;
        let info = p["pay_info"].as_object().unwrap();
        assert_eq!(info.len(), 1);
        assert!(info["tradeNO"].as_str().unwrap().starts_with('T'));
        assert_eq!(p["user_id"], "w1u1");
    }
    let lite = sb.create(json!({"channel": "wallet1_lite"})).await;
    assert_eq!(plans(&lite, Host::Wallet1MiniProgram), "wallet1_trade_pay");
    assert_eq!(plans(&sb.create(json!({"channel": "wallet1_pub"})).await, Host::Wallet1), "wallet1_trade_pay");

    for (ch, keys) in [
        ("wallet2_lite", &["timeStamp", "nonceStr", "package", "signType", "paySign"][..]),
        ("wallet2_pub", &["timeStamp", "nonceStr", "package", "signType", "paySign", "appId"][..]),
    ] {
        let p = sb.create(json!({ "channel": ch, "open_id": "w2o1" })).await;
        let info = p["pay_info"].as_object().unwrap();
        let mut got: Vec<&str> = info.keys().map(String::as_str).collect();
        let mut want = keys.to_vec();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{ch}");
        assert!(info["package"].as_str().unwrap().starts_with("prepay_id=T"));
        assert_eq!(info["signType"], "HMAC-SHA256");
        assert_eq!(info["timeStamp"], (START_MS / 1000).to_string());
        assert_eq!(p["open_id"], "w2o1");
        // paySign follows the sandbox's declared rule (appId included).
        let app_id = info.get("appId").and_then(Value::as_str).unwrap_or("wallet2-sandbox-app");
        let s = |k: &str| info[k].as_str().unwrap();
        assert_eq!(
            s("paySign"),
            sandbox::sign::sign(
                SECRET,
                [
                    ("appId", app_id),
                    ("timeStamp", s("timeStamp")),
                    ("nonceStr", s("nonceStr")),
                    ("package", s("package")),
                    ("signType", s("signType")),
                ]
            )
        );
    }
    assert_eq!(plans(&sb.create(json!({"channel": "wallet2_lite"})).await, Host::Wallet2MiniProgram), "wallet2_request_payment");
    assert_eq!(plans(&sb.create(json!({"channel": "wallet2_pub"})).await, Host::Wallet2), "wallet2_bridge_pay");

    let code = sb.cardnet_code().await;
    let p = sb.create(json!({ "channel": "cardnet", "user_auth_code": code })).await;
    let pay_url = p["expend"]["pay_url"].as_str().unwrap();
    assert!(pay_url.starts_with(&format!("{}/sim/cardnet/pay?trade=T", sb.base())), "{pay_url}");
    assert!(p["pay_info"].is_null());
    assert_eq!(plans(&p, Host::Browser), "redirect");
}

#[tokio::test]
async fn the_wallet1_cashier_marks_the_payment_paid() {
    let sb = start().await;
    let p = sb.create(json!({ "channel": "wallet1_wap", "amount": 1234, "subject": "Green tea & cake" })).await;
    let id = p["id"].as_str().unwrap();
    let link = path_of(p["pay_info"].as_str().unwrap());
    assert_eq!(sb.status(id).await, "created");

    let page = sb.get(&link).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.header("content-type").unwrap().starts_with("text/html"));
    assert!(page.body.contains("Pay 12.34"), "{}", page.body);
    assert!(page.body.contains("Green tea &amp; cake"));
    // No favicon request to fail, and a way back to the demo pages.
    assert!(page.body.contains(r#"<link rel="icon" href="data:,">"#) && page.body.contains(r#"<a href="/">the demo pages</a>"#));

    // The link decoded once too often no longer matches its signature.
    let mangled = link.replace("%2B", "+").replace("%26", "&");
    let bad = sb.get(&link.replace("%26", "%2526")).await;
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("signature does not match"), "{}", bad.body);
    assert_eq!(sb.get(&mangled).await.status, 400);

    let u = Url::parse(p["pay_info"].as_str().unwrap()).unwrap();
    let mut fields: Vec<(String, String)> = u.query_pairs().into_owned().collect();
    fields.push(("action".into(), "cancel".into()));
    let f: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = sb.press("/sim/wallet1/cashier", &f).await;
    assert!(r.body.contains("Payment cancelled") && !r.body.contains("nothing was charged"), "{}", r.body);
    assert_eq!(sb.status(id).await, "created");

    let mut f = f.clone();
    f.pop();
    f.push(("action", "pay"));
    let r = sb.press("/sim/wallet1/cashier", &f).await;
    assert!(r.body.contains("Payment successful"));
    assert_eq!(sb.status(id).await, "paid");
    assert!(sb.get(&link).await.body.contains("Already paid"));
    // Cancel (or pay) pressed in another tab once paid: the page says so,
    // never "nothing was charged".
    for action in ["cancel", "pay"] {
        let mut f = f.clone();
        f.pop();
        f.push(("action", action));
        let r = sb.press("/sim/wallet1/cashier", &f).await;
        assert!(r.body.contains("Already paid") && !r.body.contains("nothing was charged"), "{}", r.body);
        assert_eq!(sb.status(id).await, "paid");
    }

    let mut f = f.clone();
    f.pop();
    f.push(("action", "steal"));
    assert_eq!(sb.post_form("/sim/wallet1/cashier", &f).await.status, 400);
}

#[tokio::test]
async fn a_cancel_shown_again_after_the_merchant_closed_the_payment_says_closed() {
    let sb = start().await;
    let p = sb.create(json!({ "channel": "wallet1_wap" })).await;
    let id = p["id"].as_str().unwrap().to_string();
    let u = Url::parse(p["pay_info"].as_str().unwrap()).unwrap();
    let mut fields: Vec<(String, String)> = u.query_pairs().into_owned().collect();
    fields.push(("action".into(), "cancel".into()));
    let f: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = sb.post_form("/sim/wallet1/cashier", &f).await;
    let shown = r.header("location").expect("a Location header").to_string();
    assert!(sb.get(&shown).await.body.contains("stays open until the merchant closes it"));
    // Unpaid past its lifetime: the merchant closed it.
    sb.clock.advance(Duration::from_secs(121));
    assert_eq!(sb.status(&id).await, "closed");
    let again = sb.get(&shown).await.body;
    assert!(again.contains("closed this payment unpaid") && !again.contains("stays open"), "{again}");
}

#[tokio::test]
async fn the_cardnet_round_trip_and_its_five_minutes() {
    let sb = start().await;
    let page = sb.get("/sim/cardnet/authorize?version=1.0.0&redirectUrl=https%3A%2F%2Fshop.example%2Fback%3Fo%3D1").await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("name=\"decision\" value=\"allow\""));
    assert!(page.body.contains("https://shop.example/back?o=1"));

    let deny = sb
        .post_form(
            "/sim/cardnet/authorize",
            &[("version", "1.0.0"), ("redirectUrl", "https://shop.example/back?o=1"), ("decision", "deny")],
        )
        .await
        .location();
    assert_eq!(deny.as_str(), "https://shop.example/back?o=1&respCode=34");

    let code = sb.cardnet_code().await;
    let p = sb.create(json!({ "channel": "cardnet", "user_auth_code": code, "return_url": "https://shop.example/done" })).await;
    let pay = path_of(p["expend"]["pay_url"].as_str().unwrap());
    let page = sb.get(&pay).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let u = Url::parse(p["expend"]["pay_url"].as_str().unwrap()).unwrap();
    let mut f: Vec<(String, String)> = u.query_pairs().into_owned().collect();
    f.push(("action".into(), "pay".into()));
    let f: Vec<(&str, &str)> = f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = sb.press("/sim/cardnet/pay", &f).await;
    assert!(r.body.contains("Payment successful"));
    // The way back names the payment, so that another tab finds it.
    let back = format!("href=\"https://shop.example/done?payment={}\"", p["id"].as_str().unwrap());
    assert!(r.body.contains(&back), "{}", r.body);
    assert_eq!(sb.status(p["id"].as_str().unwrap()).await, "paid");

    // A cardnet payment needs a code this sandbox issued, under 5 minutes old.
    let r = sb.post_json("/merchant/payments", &json!({ "channel": "cardnet", "user_auth_code": "made-up" })).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["field"], "user_auth_code");
    let code = sb.cardnet_code().await;
    sb.clock.advance(Duration::from_secs(5 * 60 - 1));
    sb.create(json!({ "channel": "cardnet", "user_auth_code": code })).await;
    let code = sb.cardnet_code().await;
    sb.clock.advance(Duration::from_secs(5 * 60));
    let r = sb.post_json("/merchant/payments", &json!({ "channel": "cardnet", "user_auth_code": code })).await;
    assert_eq!(r.status, 400);
    assert!(r.json()["message"].as_str().unwrap().contains("expired"), "{}", r.body);
    assert_eq!(r.json()["code"], "auth_expired");
    let r = sb.post_json("/merchant/payments", &json!({ "channel": "cardnet" })).await;
    assert_eq!(r.status, 400);

    for bad in [
        "/sim/cardnet/authorize?version=2.0&redirectUrl=https%3A%2F%2Fshop.example%2F",
        "/sim/cardnet/authorize?version=1.0.0",
        "/sim/cardnet/authorize?version=1.0.0&redirectUrl=javascript%3Aalert(1)",
    ] {
        assert_eq!(sb.get(bad).await.status, 400, "{bad}");
    }
}

#[tokio::test]
async fn bridge_script_uses_the_profile_names() {
    let sb = start().await;
    let r = sb.get("/sim/bridge.js?wallet=wallet1&mode=late&delay_ms=250&code=8000").await;
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").unwrap().starts_with("text/javascript"));
    assert_eq!(r.header("cache-control"), Some("no-store"));
    for part in [
        "\"bridge\":\"Wallet1JSBridge\"",
        "\"readyEvent\":\"Wallet1JSBridgeReady\"",
        "\"method\":\"tradePay\"",
        "\"mode\":\"late\"",
        "\"delayMs\":250",
        "\"code\":\"8000\"",
        "\"succeed\":\"9000\"",
        "\"cancel\":\"6001\"",
        "\"fail\":\"4000\"",
        "document.dispatchEvent(new Event(cfg.readyEvent))",
        "bridge.call = function (name, params, cb)",
        "/sim/pay/",
    ] {
        assert!(r.body.contains(part), "wallet1 bridge lacks {part}");
    }
    let r = sb.get("/sim/bridge.js?wallet=wallet2").await;
    assert_eq!(r.status, 200);
    for part in [
        "\"bridge\":\"Wallet2JSBridge\"",
        "\"readyEvent\":\"Wallet2JSBridgeReady\"",
        "\"method\":\"getBrandPayRequest\"",
        "\"mode\":\"succeed\"",
        "\"succeed\":\"getBrandPayRequest:ok\"",
        "\"cancel\":\"getBrandPayRequest:cancel\"",
        "\"fail\":\"getBrandPayRequest:fail\"",
        "bridge.invoke = function (name, params, cb)",
    ] {
        assert!(r.body.contains(part), "wallet2 bridge lacks {part}");
    }
    assert!(!r.body.contains("/*CONFIG*/"));
    let r = sb.get("/sim/miniprogram.js?wallet=wallet1&mode=cancel&app_id=2021001").await;
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").unwrap().starts_with("text/javascript"));
    for part in
        ["\"global\":\"wallet1\"", "\"mode\":\"cancel\"", "\"appId\":\"2021001\"", "api.tradePay = function (opts)", "api.getAuthCode"]
    {
        assert!(r.body.contains(part), "wallet1 mini-program API lacks {part}");
    }
    let r = sb.get("/sim/miniprogram.js?wallet=wallet2").await;
    for part in [
        "\"global\":\"wallet2\"",
        "\"succeed\":\"requestPayment:ok\"",
        "\"cancel\":\"requestPayment:fail cancel\"",
        "api.requestPayment = function (opts)",
        "api.login",
    ] {
        assert!(r.body.contains(part), "wallet2 mini-program API lacks {part}");
    }
    for bad in ["/sim/miniprogram.js?wallet=wallet2&mode=late", "/sim/miniprogram.js?wallet=wallet1&app_id=%3Cx%3E", "/sim/miniprogram.js"]
    {
        assert_eq!(sb.get(bad).await.status, 400, "{bad}");
    }
    for bad in [
        "/sim/bridge.js",
        "/sim/bridge.js?wallet=wallet3",
        "/sim/bridge.js?wallet=wallet1&mode=sometimes",
        "/sim/bridge.js?wallet=wallet1&delay_ms=-1",
        "/sim/bridge.js?wallet=wallet1&code=%3C%2Fscript%3E",
    ] {
        let r = sb.get(bad).await;
        assert_eq!(r.status, 400, "{bad}");
        assert_eq!(r.json()["error"], "invalid_request");
    }
}

#[tokio::test]
async fn a_bridge_payment_is_checked_against_pay_info() {
    let sb = start().await;
    let w1 = sb.create(json!({"channel": "wallet1_pub"})).await;
    let trade = w1["pay_info"]["tradeNO"].as_str().unwrap();
    let r = sb.post_json(&format!("/sim/pay/{trade}"), &json!({"wallet": "wallet2", "params": {"tradeNO": trade}})).await;
    assert_eq!(r.status, 400);
    assert_eq!(sb.status(w1["id"].as_str().unwrap()).await, "created");
    let r = sb.post_json(&format!("/sim/pay/{trade}"), &json!({"wallet": "wallet1", "params": {"tradeNO": trade}})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["status"], "paid");
    assert_eq!(sb.status(w1["id"].as_str().unwrap()).await, "paid");

    let w2 = sb.create(json!({"channel": "wallet2_pub"})).await;
    let id = w2["id"].as_str().unwrap();
    let mut params = w2["pay_info"].clone();
    let prepay = params["package"].as_str().unwrap().trim_start_matches("prepay_id=").to_string();
    params["paySign"] = json!("0000");
    let r = sb.post_json(&format!("/sim/pay/{prepay}"), &json!({"wallet": "wallet2", "params": params})).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["field"], "params.paySign");
    params["paySign"] = w2["pay_info"]["paySign"].clone();
    params.as_object_mut().unwrap().remove("appId");
    let r = sb.post_json(&format!("/sim/pay/{prepay}"), &json!({"wallet": "wallet2", "params": params})).await;
    assert_eq!(r.json()["field"], "params.appId");
    assert_eq!(sb.status(id).await, "created");
    let r = sb.post_json(&format!("/sim/pay/{prepay}"), &json!({"wallet": "wallet2", "params": w2["pay_info"]})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(sb.status(id).await, "paid");

    assert_eq!(sb.post_json("/sim/pay/Tnope", &json!({})).await.status, 404);
    let cashier = sb.create(json!({"channel": "wallet1"})).await;
    let t = query(&Url::parse(cashier["pay_info"].as_str().unwrap()).unwrap(), "trade").unwrap();
    let r = sb.post_json(&format!("/sim/pay/{t}"), &json!({"wallet": "wallet1", "params": {"tradeNO": t}})).await;
    assert_eq!(r.status, 400);
}

#[tokio::test]
async fn wallet1_authorization_and_single_use_codes() {
    let sb = start().await;
    let page = sb
        .get("/sim/wallet1/authorize?app_id=2021001&scope=auth_base,auth_user&redirect_uri=https%3A%2F%2Fshop.example%2Fw1%23top&state=s%2B1")
        .await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("2021001") && page.body.contains("auth_base,auth_user"));
    let to = sb
        .post_form(
            "/sim/wallet1/authorize",
            &[
                ("app_id", "2021001"),
                ("scope", "auth_base"),
                ("redirect_uri", "https://shop.example/w1#top"),
                ("state", "s+1"),
                ("decision", "allow"),
            ],
        )
        .await
        .location();
    assert_eq!(to.path(), "/w1");
    assert_eq!(to.fragment(), Some("top"));
    assert_eq!(query(&to, "state").as_deref(), Some("s+1"));
    let code = query(&to, "auth_code").unwrap();

    let swap = |code: String| {
        let sb = &sb;
        async move { sb.post_form("/sim/wallet1/token", &[("grant_type", "authorization_code"), ("code", &code)]).await }
    };
    let r = swap(code.clone()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let user = r.json()["user_id"].as_str().unwrap().to_string();
    assert!(user.starts_with("w1u"));
    assert!(r.json()["access_token"].as_str().unwrap().len() > 10);
    let again = swap(code).await;
    assert_eq!(again.status, 400);
    assert!(again.json()["message"].as_str().unwrap().contains("already used"));
    assert_eq!(swap("made-up".into()).await.status, 400);

    // The mini-program's getAuthCode gives a code for the same user.
    let r = sb.send("POST", "/sim/wallet1/auth_code?app_id=2021001&scopes=auth_base", None, "").await;
    let code = r.json()["authCode"].as_str().unwrap().to_string();
    assert_eq!(swap(code).await.json()["user_id"], user.as_str());
    // Codes live one day.
    let r = sb.send("POST", "/sim/wallet1/auth_code?app_id=2021001&scopes=auth_base", None, "").await;
    let code = r.json()["authCode"].as_str().unwrap().to_string();
    sb.clock.advance(Duration::from_secs(24 * 3600));
    assert!(swap(code).await.json()["message"].as_str().unwrap().contains("expired"));

    let r = sb.post_form("/sim/wallet1/token", &[("grant_type", "refresh_token"), ("code", "x")]).await;
    assert_eq!((r.status, r.json()["field"].as_str()), (400, Some("grant_type")));
    let deny = sb
        .post_form(
            "/sim/wallet1/authorize",
            &[("app_id", "a"), ("scope", "auth_base"), ("redirect_uri", "https://shop.example/"), ("state", "z"), ("decision", "deny")],
        )
        .await
        .location();
    assert_eq!(deny.as_str(), "https://shop.example/?state=z");
    for bad in [
        "/sim/wallet1/authorize?scope=auth_base&redirect_uri=https%3A%2F%2Fshop.example%2F",
        "/sim/wallet1/authorize?app_id=a&redirect_uri=https%3A%2F%2Fshop.example%2F",
        "/sim/wallet1/authorize?app_id=a&scope=auth_base",
        "/sim/wallet1/authorize?app_id=a&scope=auth_base&redirect_uri=javascript%3Aalert(1)",
        "/sim/wallet1/authorize?app_id=a&scope=auth_base&redirect_uri=%2Flocal",
        "/sim/wallet1/authorize?app_id=a&scope=%3Cb%3E&redirect_uri=https%3A%2F%2Fshop.example%2F",
    ] {
        let r = sb.get(bad).await;
        assert_eq!(r.status, 400, "{bad}");
        assert!(r.header("content-type").unwrap().starts_with("text/html"));
    }
}

#[tokio::test]
async fn wallet2_authorization_and_exchanges() {
    let sb = start().await;
    let page = sb
        .get("/sim/wallet2/authorize?appid=w2app&redirect_uri=https%3A%2F%2Fshop.example%2Fw2&response_type=code&scope=snsapi_base&state=st&connect_redirect=1")
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let allow = [
        ("appid", "w2app"),
        ("redirect_uri", "https://shop.example/w2"),
        ("response_type", "code"),
        ("scope", "snsapi_base"),
        ("state", "st"),
        ("decision", "allow"),
    ];
    let to = sb.post_form("/sim/wallet2/authorize", &allow).await.location();
    assert_eq!(query(&to, "state").as_deref(), Some("st"));
    let code = query(&to, "code").unwrap();

    let token = |code: &str, secret: &str| {
        format!("/sim/wallet2/oauth2/access_token?appid=w2app&secret={secret}&code={code}&grant_type=authorization_code")
    };
    let r = sb.get(&token(&code, "wrong")).await;
    assert_eq!((r.status, r.json()["errcode"].as_u64()), (400, Some(40125)));
    let r = sb.get(&token(&code, SECRET)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let openid = r.json()["openid"].as_str().unwrap().to_string();
    assert!(openid.starts_with("w2o"));
    assert!(r.json()["access_token"].is_string());
    let r = sb.get(&token(&code, SECRET)).await;
    assert_eq!(r.json()["errcode"], 40163);
    assert_eq!(sb.get(&token("made-up", SECRET)).await.json()["errcode"], 40029);
    let r = sb.get("/sim/wallet2/oauth2/access_token?appid=w2app&secret=sandbox-secret&code=x").await;
    assert_eq!(r.json()["errcode"], 40002);
    assert_eq!(sb.get("/sim/wallet2/oauth2/access_token?secret=s&code=x").await.json()["errcode"], 41002);

    // Mini-program login code -> session, same openid for the same appid.
    let r = sb.send("POST", "/sim/wallet2/login?appid=w2app", None, "").await;
    let js_code = r.json()["code"].as_str().unwrap().to_string();
    let session =
        |c: &str| format!("/sim/wallet2/jscode2session?appid=w2app&secret=sandbox-secret&js_code={c}&grant_type=authorization_code");
    let r = sb.get(&session(&js_code)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["openid"], openid.as_str());
    assert!(r.json()["session_key"].is_string());
    assert_eq!(sb.get(&session(&js_code)).await.json()["errcode"], 40163);
    // A web code is not a login code.
    let to = sb.post_form("/sim/wallet2/authorize", &allow).await.location();
    let web_code = query(&to, "code").unwrap();
    assert_eq!(sb.get(&session(&web_code)).await.json()["errcode"], 40029);
    // wallet2 codes live five minutes.
    sb.clock.advance(Duration::from_secs(5 * 60));
    assert_eq!(sb.get(&token(&web_code, SECRET)).await.json()["errcode"], 40029);

    let deny = sb
        .post_form(
            "/sim/wallet2/authorize",
            &[
                ("appid", "w2app"),
                ("redirect_uri", "https://shop.example/w2"),
                ("response_type", "code"),
                ("scope", "snsapi_base"),
                ("decision", "deny"),
            ],
        )
        .await
        .location();
    assert_eq!(deny.as_str(), "https://shop.example/w2?state=");
    for bad in [
        "/sim/wallet2/authorize?appid=a&redirect_uri=https%3A%2F%2Fs.example%2F&response_type=token&scope=x",
        "/sim/wallet2/authorize?appid=a&redirect_uri=data%3Atext%2Fhtml%2Chi&response_type=code&scope=x",
        "/sim/wallet2/authorize?redirect_uri=https%3A%2F%2Fs.example%2F&response_type=code&scope=x",
    ] {
        assert_eq!(sb.get(bad).await.status, 400, "{bad}");
    }
    assert_eq!(sb.send("POST", "/sim/wallet2/login", None, "").await.status, 400);
}

#[tokio::test]
async fn bad_merchant_input_is_refused() {
    let sb = start().await;
    for (body, field) in [
        ("not json", "body"),
        ("[1,2]", "body"),
        ("{}", "channel"),
        (r#"{"channel":"wallet9"}"#, "channel"),
        (r#"{"channel":7}"#, "channel"),
        (r#"{"channel":"wallet1","amount":0}"#, "amount"),
        (r#"{"channel":"wallet1","amount":1.5}"#, "amount"),
        (r#"{"channel":"wallet1","amount":"100"}"#, "amount"),
        (r#"{"channel":"wallet1","subject":""}"#, "subject"),
        (r#"{"channel":"wallet1","subject":"a\u0000b"}"#, "subject"),
        (r#"{"channel":"wallet1","return_url":"javascript:alert(1)"}"#, "return_url"),
        (r#"{"channel":"wallet2_pub","open_id":5}"#, "open_id"),
    ] {
        let r = sb.send("POST", "/merchant/payments", Some("application/json"), body).await;
        assert_eq!(r.status, 400, "{body}");
        assert_eq!(r.json()["error"], "invalid_request");
        assert_eq!(r.json()["field"], field, "{body}");
    }
    let r = sb.get("/merchant/payments/pay_nope").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["error"], "not_found");
    let r = sb.get("/sim/wallet1/cashier?trade=Tnope").await;
    assert_eq!(r.status, 400);
}

#[tokio::test]
async fn serves_the_pages_and_the_package() {
    let sb = start().await;
    let r = sb.get("/").await;
    assert_eq!(r.status, 200);
    assert!(r.body.contains("demo pages"));
    assert_eq!(r.header("cache-control"), Some("no-store"));
    for (path, ty) in [
        ("/pkg/paybridge_bg.wasm", "application/wasm"),
        ("/pkg/paybridge.js", "text/javascript"),
        ("/pkg/paybridge.mjs", "text/javascript"),
    ] {
        let r = sb.get(path).await;
        assert_eq!(r.status, 200, "{path}");
        assert!(r.header("content-type").unwrap().starts_with(ty), "{path}: {:?}", r.header("content-type"));
        assert_eq!(r.header("cache-control"), Some("no-store"));
    }
    let r = sb.get("/sim").await;
    assert_eq!(r.status, 200);
    assert!(r.body.contains("/sim/bridge.js?wallet=wallet1"));
    assert!(r.body.contains("href=\"/merchant/notifications\""), "the API and its receiver are described");
    assert_eq!(sb.get("/pkg/missing.js").await.status, 404);
    assert_eq!(sb.get("/pkg/../Cargo.toml").await.status, 404);
}

#[tokio::test]
async fn demo_folder_leads_to_the_demo_index() {
    let sb = start().await;
    for path in ["/demo", "/demo/"] {
        let r = sb.get(path).await;
        assert_eq!(r.status, 303, "{path}: {}", r.body);
        assert_eq!(r.header("location"), Some("/"), "{path}");
    }
}
