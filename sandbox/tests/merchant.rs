//! The sandbox's merchant over real HTTP, with a clock the test controls:
//! final states (`created` ends `paid` or `closed`), idempotent orders,
//! the card network's code used once with its refusals' codes, and CORS.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use paybridge_sandbox::{self as sandbox, Config, ManualClock};
use serde_json::{json, Value};
use support::Res;
use tokio::net::TcpListener;

mod support;

const LIFETIME: Duration = Duration::from_secs(60);

struct Sandbox {
    addr: SocketAddr,
    clock: Arc<ManualClock>,
}

async fn start() -> Sandbox {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let clock = Arc::new(ManualClock::new(1_800_000_000_000));
    let config = Config { clock: clock.clone(), payment_lifetime: LIFETIME, ..Config::default() };
    tokio::spawn(sandbox::serve(listener, config, std::future::pending()));
    Sandbox { addr, clock }
}

impl Sandbox {
    async fn send(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Res {
        support::send(self.addr, method, path, headers, body).await
    }

    async fn order(&self, order: Value, key: Option<&str>) -> Res {
        let mut headers = vec![("Content-Type", "application/json")];
        if let Some(k) = key {
            headers.push(("Idempotency-Key", k));
        }
        self.send("POST", "/merchant/payments", &headers, &order.to_string()).await
    }

    async fn status(&self, id: &str) -> String {
        let r = self.send("GET", &format!("/merchant/payments/{id}"), &[], "").await;
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()["status"].as_str().unwrap().to_string()
    }

    async fn cardnet_code(&self) -> String {
        let body = "version=1.0.0&redirectUrl=https%3A%2F%2Fshop.example%2Fback&decision=allow";
        let r = self.send("POST", "/sim/cardnet/authorize", &[("Content-Type", "application/x-www-form-urlencoded")], body).await;
        let to = url::Url::parse(r.header("location").unwrap()).unwrap();
        to.query_pairs().find(|(k, _)| k == "userAuthCode").unwrap().1.into_owned()
    }
}

#[tokio::test]
async fn an_unpaid_payment_is_closed_after_its_lifetime_and_then_paid_by_nothing() {
    let sb = start().await;
    let p = sb.order(json!({ "channel": "wallet1_pub" }), None).await.json();
    let (id, trade) = (p["id"].as_str().unwrap(), p["pay_info"]["tradeNO"].as_str().unwrap());
    sb.clock.advance(LIFETIME - Duration::from_millis(1));
    assert_eq!(sb.status(id).await, "created");
    sb.clock.advance(Duration::from_millis(1));
    assert_eq!(sb.status(id).await, "closed");
    let r = sb.send("POST", &format!("/sim/pay/{trade}"), &[], "").await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(sb.status(id).await, "closed");

    // Paid within its lifetime: paid for good.
    let p = sb.order(json!({ "channel": "wallet1_pub" }), None).await.json();
    let trade = p["pay_info"]["tradeNO"].as_str().unwrap();
    assert_eq!(sb.send("POST", &format!("/sim/pay/{trade}"), &[], "").await.status, 200);
    sb.clock.advance(LIFETIME * 2);
    assert_eq!(sb.status(p["id"].as_str().unwrap()).await, "paid");
}

#[tokio::test]
async fn the_same_idempotency_key_answers_the_same_payment_with_its_status_now() {
    let sb = start().await;
    let first = sb.order(json!({ "channel": "wallet2_pub", "open_id": "o1" }), Some("key-1")).await.json();
    let again = sb.order(json!({ "channel": "wallet2_pub", "open_id": "o1" }), Some("key-1")).await.json();
    assert_eq!(first["id"], again["id"]);
    assert_eq!(first["pay_info"], again["pay_info"]);
    let other = sb.order(json!({ "channel": "wallet2_pub", "open_id": "o1" }), Some("key-2")).await.json();
    assert_ne!(first["id"], other["id"]);
    sb.clock.advance(LIFETIME);
    assert_eq!(sb.order(json!({ "channel": "wallet2_pub" }), Some("key-1")).await.json()["status"], "closed");
    // The key with another channel: a conflict, naming the header.
    let r = sb.order(json!({ "channel": "wallet1" }), Some("key-1")).await;
    assert_eq!(r.status, 409);
    assert_eq!(r.json()["field"], "Idempotency-Key");
    let r = sb.order(json!({ "channel": "wallet1" }), Some("bad key\u{7f}")).await;
    assert_eq!(r.status, 400);
}

#[tokio::test]
async fn a_cardnet_code_orders_once_and_its_refusals_carry_auth_used_and_auth_expired() {
    let sb = start().await;
    let code = sb.cardnet_code().await;
    let order = json!({ "channel": "cardnet", "user_auth_code": code });
    let p = sb.order(order.clone(), Some("reload-key")).await.json();
    // A reload with the same key: the same payment, though the code is used.
    assert_eq!(sb.order(order.clone(), Some("reload-key")).await.json()["id"], p["id"]);
    // Another tab (another key), or no key: the code was used.
    for key in [Some("second-tab"), None] {
        let r = sb.order(order.clone(), key).await;
        assert_eq!(r.status, 400);
        assert_eq!((r.json()["code"].as_str(), r.json()["field"].as_str()), (Some("auth_used"), Some("user_auth_code")));
    }
    // 5 minutes after Allow, by the card network's own clock.
    let code = sb.cardnet_code().await;
    sb.clock.advance(Duration::from_secs(5 * 60 + 10));
    let r = sb.order(json!({ "channel": "cardnet", "user_auth_code": code }), None).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["code"], "auth_expired");
    assert!(r.json()["message"].as_str().unwrap().contains("expired"));
}

#[tokio::test]
async fn the_merchant_api_answers_another_origin() {
    let sb = start().await;
    let pre = sb
        .send(
            "OPTIONS",
            "/merchant/payments",
            &[
                ("Origin", "http://localhost:5173"),
                ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type"),
            ],
            "",
        )
        .await;
    assert_eq!(pre.status, 204);
    assert_eq!(pre.header("access-control-allow-origin"), Some("*"));
    assert!(pre.header("access-control-allow-headers").unwrap().contains("content-type"));
    assert!(pre.header("access-control-allow-methods").unwrap().contains("POST"));
    let r = sb.order(json!({ "channel": "wallet1" }), None).await;
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    let s = sb.send("GET", &format!("/merchant/payments/{}", r.json()["id"].as_str().unwrap()), &[("Origin", "http://x.test")], "").await;
    assert_eq!(s.header("access-control-allow-origin"), Some("*"));
}

#[tokio::test]
async fn sim_clock_moves_the_sandbox_ahead() {
    let sb = start().await;
    let p = sb.order(json!({ "channel": "wallet1_pub" }), None).await.json();
    let path = format!("/sim/clock?advance_ms={}", LIFETIME.as_millis());
    let r = sb.send("POST", &path, &[], "").await;
    assert_eq!(r.json()["ahead_ms"], LIFETIME.as_millis() as u64);
    assert_eq!(sb.status(p["id"].as_str().unwrap()).await, "closed");
    assert_eq!(sb.send("POST", "/sim/clock?advance_ms=-1", &[], "").await.status, 400);
}
