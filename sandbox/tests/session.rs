//! The sandbox's merchant session, `/sim` and its callback page, and the
//! cashiers' way back, over real HTTP on 127.0.0.1.

use std::net::SocketAddr;
use std::path::PathBuf;

use paybridge_sandbox::{self as sandbox, Config};
use serde_json::{json, Value};
use support::Res;
use tokio::net::TcpListener;

mod support;

async fn start() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("session-{}", sandbox::sign::random_hex(4)));
    std::fs::create_dir_all(&dir).unwrap();
    let config = Config { www: dir.clone(), pkg: dir, ..Config::default() };
    tokio::spawn(sandbox::serve(listener, config, std::future::pending()));
    addr
}

/// The `name=value` part of a response's Set-Cookie.
fn cookie(r: &Res) -> String {
    let set = r.header("set-cookie").expect("a Set-Cookie header");
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax") && set.contains("Path=/"), "{set}");
    set.split(';').next().unwrap().to_string()
}

async fn session(addr: SocketAddr, method: &str, cookie: Option<&str>, body: Option<&Value>) -> Res {
    let mut headers = vec![];
    if let Some(c) = cookie {
        headers.push(("Cookie", c));
    }
    if body.is_some() {
        headers.push(("Content-Type", "application/json"));
    }
    let text = body.map(Value::to_string).unwrap_or_default();
    support::send(addr, method, "/merchant/session", &headers, &text).await
}

#[tokio::test]
async fn the_session_keeps_the_user_for_its_cookie_only() {
    let addr = start().await;
    let first = session(addr, "GET", None, None).await;
    assert_eq!(first.status, 200);
    assert_eq!(first.json(), json!({ "wallet1_user_id": null, "wallet2_openid": null }));
    let tab = cookie(&first);

    let set = session(addr, "POST", Some(&tab), Some(&json!({ "wallet1_user_id": "w1u0001" }))).await;
    assert_eq!(set.status, 200, "{}", set.body);
    assert!(set.header("set-cookie").is_none(), "a known session keeps its cookie");
    // Another tab of the same browser sends the same cookie.
    let other_tab = session(addr, "GET", Some(&format!("other=1; {tab}")), None).await;
    assert_eq!(other_tab.json()["wallet1_user_id"], "w1u0001");
    // Another browser (no cookie, or an unknown one) has a session of its own.
    for c in [None, Some("paybridge_merchant_session=forged")] {
        let r = session(addr, "GET", c, None).await;
        assert_eq!(r.json()["wallet1_user_id"], Value::Null);
        assert_ne!(cookie(&r), tab);
    }
    // null forgets; unknown members and bad values are refused.
    let forgot = session(addr, "POST", Some(&tab), Some(&json!({ "wallet1_user_id": null, "wallet2_openid": "w2o9" }))).await;
    assert_eq!(forgot.json(), json!({ "wallet1_user_id": null, "wallet2_openid": "w2o9" }));
    for bad in [json!({ "role": "admin" }), json!({ "wallet2_openid": "a b" }), json!(["w1u"])] {
        assert_eq!(session(addr, "POST", Some(&tab), Some(&bad)).await.status, 400, "{bad}");
    }
    assert_eq!(session(addr, "GET", Some(&tab), None).await.json()["wallet2_openid"], "w2o9");
}

#[tokio::test]
async fn sim_names_this_sandbox_and_its_links_come_back_to_it() {
    let addr = start().await;
    let r = support::send(addr, "GET", "/sim", &[], "").await;
    assert_eq!(r.status, 200);
    assert!(r.body.contains(&format!("mer_bg_url=http://{addr}/merchant/notify")), "{}", r.body);
    assert!(!r.body.contains("PORT") && !r.body.contains("shop.example"));
    assert!(r.body.contains("SANDBOX_APP_TOKEN"));
    assert!(!r.body.contains("simulated provider page"), "/sim is the sandbox's own page");

    let back = support::send(addr, "GET", "/sim/callback?respCode=00&userAuthCode=abc%3Cx%3E", &[], "").await;
    assert_eq!(back.status, 200);
    assert!(back.body.contains("<dt>respCode</dt><dd><code>00</code></dd>"), "{}", back.body);
    assert!(back.body.contains("abc&lt;x&gt;"), "escaped");
    assert_eq!(support::send(addr, "GET", "/favicon.ico", &[], "").await.status, 204);
}

#[tokio::test]
async fn a_cashier_offers_the_way_back_before_any_button() {
    let addr = start().await;
    let order = json!({ "channel": "wallet1_wap", "return_url": "http://127.0.0.1:1/demo/h5.html?back=wallet1_wap" });
    let r = support::send(addr, "POST", "/merchant/payments", &[("Content-Type", "application/json")], &order.to_string()).await;
    let payment = r.json();
    let cashier = url::Url::parse(payment["pay_info"].as_str().unwrap()).unwrap();
    let page = support::send(addr, "GET", &format!("{}?{}", cashier.path(), cashier.query().unwrap()), &[], "").await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("value=\"pay\""), "the form is there");
    let id = payment["id"].as_str().unwrap();
    assert!(page.body.contains(&format!("back=wallet1_wap&amp;payment={id}\">Return to the merchant</a>")), "{}", page.body);
}
