//! The sandbox's aggregated authentication API over real HTTP on 127.0.0.1:
//! every return code, signed answers checked with the crate's rule, result
//! queries by `seq_id` and by `order_id`, notifications (pending, notified,
//! retried until acknowledged, given up), the merchant receiver, the crate's
//! own client against the sandbox, and a load test.
#![cfg(feature = "sandbox")]

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use paybridge::json::Json;
use paybridge::sandbox::{self, Config, ManualClock};
use paybridge::verify::request::{common_params, query_params, Request, CARD_CHECK_PATH, CHECK_RESULT_PATH, NAME_CHECK_PATH};
use paybridge::verify::{
    decode_envelope, hmac_sha256_hex, parse_notification, parse_score, passes_threshold, sign_input, Call, Config as ClientConfig, Event,
    Operation, Outcome, State as Verdict, Step, Wait,
};
use serde_json::Value;
use support::Res;
use tokio::net::TcpListener;

mod support;

const START_MS: u64 = 1_800_000_000_000;
const SECRET: &str = "sandbox-secret";
const TOKEN: &str = "sandbox-app-token-0000000000000000000000";
const DATE: &str = "20270115";
const ENV: &str = "test";

/// ID-card numbers (valid check digits) whose first digit is the index.
const IDS: [&str; 10] = [
    "010105194912310026",
    "11010519491231002X",
    "210105194912310023",
    "310105194912310027",
    "410105194912310020",
    "510105194912310024",
    "610105194912310028",
    "710105194912310021",
    "810105194912310025",
    "910105194912310029",
];
/// Card numbers (valid Luhn digits) whose last digit is the index.
const CARDS: [&str; 10] = [
    "4111111111111160",
    "4111111111111111",
    "4111111111111152",
    "4111111111111103",
    "4111111111111194",
    "4111111111111145",
    "4111111111111186",
    "4111111111111137",
    "4111111111111178",
    "4111111111111129",
];

/// The `resp_code` the mock gives for a deciding digit.
fn expected_resp(digit: usize) -> &'static str {
    match digit {
        1..=7 => "00",
        8 | 9 => "01",
        _ => "99",
    }
}

fn sandbox_sign(text: &str) -> String {
    hmac_sha256_hex(SECRET.as_bytes(), text.as_bytes())
}

fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// `params` with their `sign` (the sandbox rule) appended.
fn signed(mut params: Vec<(String, String)>) -> Vec<(String, String)> {
    let sign = sandbox_sign(&sign_input(&params));
    params.push(("sign".into(), sign));
    params
}

/// The parameters of a check: the common ones then `fields`, signed.
fn check(order_id: &str, fields: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut p = common_params(DATE, order_id, TOKEN);
    p.extend(pairs(fields));
    signed(p)
}

fn card_fields<'a>(digit: usize) -> Vec<(&'a str, &'a str)> {
    vec![("full_name", "张三"), ("acct_no", CARDS[1]), ("id_number", IDS[digit]), ("source_channel", "1")]
}

struct Api {
    addr: SocketAddr,
}

async fn start_with(tune: impl FnOnce(&mut Config)) -> Api {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut config = Config {
        clock: Arc::new(ManualClock::new(START_MS)),
        // The clock does not move: no limit unless a test sets one.
        rate_limit: 0,
        notify_delay: Duration::from_millis(300),
        notify_retry: Duration::from_millis(50),
        ..Config::default()
    };
    tune(&mut config);
    tokio::spawn(sandbox::serve(listener, config, std::future::pending()));
    Api { addr }
}

async fn start() -> Api {
    start_with(|_| {}).await
}

impl Api {
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Sends a request built by the crate (`Request::post`/`Request::get`).
    async fn request(&self, r: &Request) -> Res {
        let path = match &r.url_query {
            Some(q) => format!("{}?{q}", r.path),
            None => r.path.to_string(),
        };
        let headers: Vec<(&str, &str)> = r.headers.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        support::send(self.addr, r.method, &path, &headers, r.body.as_deref().unwrap_or("")).await
    }

    async fn post(&self, path: &'static str, params: Vec<(String, String)>) -> Res {
        self.request(&Request::post(path, ENV, params)).await
    }

    async fn card(&self, order_id: &str, fields: &[(&str, &str)]) -> Res {
        self.post(CARD_CHECK_PATH, check(order_id, fields)).await
    }

    async fn name(&self, order_id: &str, fields: &[(&str, &str)]) -> Res {
        self.post(NAME_CHECK_PATH, check(order_id, fields)).await
    }

    /// `checkresult` by `seq_id` (when non-empty) with `order_id` in the
    /// common parameters.
    async fn query(&self, order_id: &str, seq_id: &str) -> Res {
        self.request(&Request::get(CHECK_RESULT_PATH, ENV, signed(query_params(DATE, order_id, TOKEN, seq_id)))).await
    }

    async fn get(&self, path: &str) -> Res {
        support::send(self.addr, "GET", path, &[], "").await
    }

    /// The sandbox's record of what it notified.
    async fn deliveries(&self) -> Vec<Value> {
        self.get("/sim/deliveries").await.json()["deliveries"].as_array().unwrap().clone()
    }
}

/// The `data` of a signed answer, its signature checked with the crate's
/// envelope decoder and the sandbox rule.
fn data(r: &Res) -> Value {
    let e = decode_envelope(r.status, &r.body).unwrap_or_else(|e| panic!("{e}: {}", r.body));
    let signature = e.signature.unwrap_or_else(|| panic!("unsigned: {}", r.body));
    assert_eq!(signature, sandbox_sign(&e.data_text), "signature over the data text");
    assert_eq!(r.header("content-type"), Some("application/json; charset=utf-8"));
    serde_json::from_str(&e.data_text).unwrap()
}

/// The `return_code` of a signed answer, with its status.
fn code(r: &Res) -> (u16, String) {
    (r.status, data(r)["return_code"].as_str().unwrap().to_string())
}

/// Polls `done` every 10 ms for up to `within`.
async fn eventually<F: std::future::Future<Output = bool>>(within: Duration, mut done: impl FnMut() -> F) -> bool {
    let end = Instant::now() + within;
    while Instant::now() < end {
        if done().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

/// A merchant's notification endpoint for the tests: answers each POST
/// with the next status of `script` (200 once it is empty), keeps every
/// body, and counts the acknowledged ones per `seq_id`.
#[derive(Default)]
struct Merchant {
    script: VecDeque<u16>,
    /// First POSTs of these order_ids are answered 500.
    fail_first: Vec<String>,
    bodies: Vec<String>,
    acknowledged: HashMap<String, usize>,
    posts: HashMap<String, usize>,
}

type Shared = Arc<Mutex<Merchant>>;

async fn merchant_notify(State(m): State<Shared>, body: Bytes) -> StatusCode {
    let text = String::from_utf8(body.to_vec()).unwrap();
    let n = parse_notification(&Json::Str(text.clone())).unwrap();
    assert_eq!(n.sign, sandbox_sign(&n.sign_input), "the notification's sign verifies");
    let seq_id = n.outcome.seq_id.clone().unwrap();
    let mut m = m.lock().unwrap();
    m.bodies.push(text);
    let posts = {
        let p = m.posts.entry(seq_id.clone()).or_default();
        *p += 1;
        *p
    };
    let status = if posts == 1 && m.fail_first.contains(&n.outcome.order_id) { 500 } else { m.script.pop_front().unwrap_or(200) };
    if (200..300).contains(&status) {
        *m.acknowledged.entry(seq_id).or_default() += 1;
    }
    StatusCode::from_u16(status).unwrap()
}

/// Starts a merchant; its notification URL and state.
async fn merchant(m: Merchant) -> (String, Shared) {
    let shared: Shared = Arc::new(Mutex::new(m));
    let app = axum::Router::new().route("/notify", axum::routing::post(merchant_notify)).with_state(shared.clone());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/notify", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, shared)
}

#[tokio::test]
async fn synchronous_checks_follow_the_mock_rule() {
    let api = start().await;
    for digit in 0..10 {
        let order = format!("sync-card-{digit}");
        let r = api.card(&order, &card_fields(digit)).await;
        assert_eq!(code(&r), (200, "10200".into()), "{}", r.body);
        let d = data(&r);
        assert_eq!(d["resp_code"], expected_resp(digit), "id_number starting with {digit}");
        assert_eq!(d["order_id"], order.as_str());
        assert_eq!(d["order_date"], DATE);
        assert_eq!(d["service_date"], "20270115");
        assert!(d["seq_id"].as_str().unwrap().starts_with('S'));
        assert!(!d["resp_info"].as_str().unwrap().is_empty());

        let r = api.name(&format!("sync-name-{digit}"), &[("full_name", "李四"), ("id_number", IDS[digit]), ("source_channel", "0")]).await;
        assert_eq!(code(&r), (200, "10400".into()));
        assert_eq!(data(&r)["resp_code"], expected_resp(digit));

        // Two factors (no id_number): the last digit of acct_no decides.
        let r = api.card(&format!("two-{digit}"), &[("full_name", "A"), ("acct_no", CARDS[digit]), ("source_channel", "2")]).await;
        assert_eq!(code(&r), (200, "10200".into()));
        assert_eq!(data(&r)["resp_code"], expected_resp(digit), "acct_no ending in {digit}");
    }
    let keys: Vec<String> = data(&api.card("keys", &card_fields(1)).await).as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["return_code", "return_message", "service_date", "seq_id", "order_date", "order_id", "resp_code", "resp_info"]);
}

#[tokio::test]
async fn result_queries_by_seq_id_and_by_order_id() {
    let api = start().await;
    let mut fields = card_fields(3);
    fields.push(("authorization_info", "auth-77"));
    let first = data(&api.card("q-1", &fields).await);
    let seq_id = first["seq_id"].as_str().unwrap();

    // By seq_id, with an order_id of the query's own: data names the
    // verification's order.
    let r = api.query("query-own-order", seq_id).await;
    assert_eq!(code(&r), (200, "20000".into()));
    let d = data(&r);
    assert_eq!(d["seq_id"], seq_id);
    assert_eq!(d["order_id"], "q-1");
    assert_eq!(d["resp_code"], "00");
    assert_eq!(d["full_name"], "张三");
    assert_eq!(d["id_number"], "310105********0027");
    assert_eq!(d["authorization_info"], "auth-77");
    assert_eq!(d["encrypt_method"], "none");
    let score = parse_score(d["mp_ssim"].as_str().unwrap()).unwrap();
    assert!(passes_threshold(score, 60.0), "{score}");
    let files = d["file_list"].as_array().unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(files[0]["file_type"], "00");
    assert!(files[0]["file_id"].as_str().is_some_and(|f| !f.is_empty()));
    let similar = d["face_identify_list"].as_array().unwrap();
    assert_eq!(similar[0]["personName"], "张三");
    for key in ["personId", "fileId", "personName", "score"] {
        assert!(similar[0][key].is_string(), "{key}");
    }

    // By order_id (seq_id empty): the same record.
    assert_eq!(data(&api.query("q-1", "").await), d);
    // Asked again, the record does not change (the score is stable).
    assert_eq!(data(&api.query("q-1", "").await)["mp_ssim"], d["mp_ssim"]);

    // An inconsistent namecheck: a score under the threshold, no similar user.
    let n = data(&api.name("q-2", &[("full_name", "B"), ("id_number", IDS[9]), ("source_channel", "0")]).await);
    let d = data(&api.query("q-2", n["seq_id"].as_str().unwrap()).await);
    assert_eq!(d["resp_code"], "01");
    assert!(!passes_threshold(parse_score(d["mp_ssim"].as_str().unwrap()).unwrap(), 60.0));
    assert_eq!(d["face_identify_list"], serde_json::json!([]));

    // Unknown: 20011, signed, HTTP 400.
    for (order, seq) in [("q-1", "S-nope"), ("nope", "")] {
        let r = api.query(order, seq).await;
        assert_eq!(code(&r), (400, "20011".into()), "{order} {seq}");
        assert_eq!(data(&r)["order_id"], order);
    }
}

#[tokio::test]
async fn every_refusal_code() {
    let api = start_with(|c| c.rate_limit = 4).await;
    let refused = |r: &Res, want: &str| {
        assert_eq!(code(r), (400, want.to_string()), "{}", r.body);
        data(r)["return_message"].as_str().unwrap().to_string()
    };

    // 90101: the env header is required.
    let mut req = Request::post(CARD_CHECK_PATH, ENV, check("r-env", &card_fields(1)));
    req.headers.retain(|(k, _)| k != "env");
    let m = refused(&api.request(&req).await, "90101");
    assert!(m.contains("env header"), "{m}");

    // 90101: the crate's field validation, every problem named.
    let r = api.card("r-fields", &[("acct_no", "4111111111111112"), ("source_channel", "5"), ("mer_bg_url", "ftp://x")]).await;
    let m = refused(&r, "90101");
    for field in ["full_name", "acct_no", "source_channel", "mer_bg_url"] {
        assert!(m.contains(field), "{field} in {m}");
    }
    assert_eq!(data(&r)["order_id"], "r-fields");
    assert!(data(&r).get("seq_id").is_none());
    let m = refused(&api.name("r-name", &[("full_name", "A"), ("source_channel", "0")]).await, "90101");
    assert!(m.contains("id_number is required"), "{m}");
    // ... and the common parameters.
    let mut p = common_params(DATE, "r-common", TOKEN);
    p.retain(|(k, _)| k != "order_date");
    p.extend(pairs(&card_fields(1)));
    let m = refused(&api.post(CARD_CHECK_PATH, signed(p)).await, "90101");
    assert!(m.contains("order_date is required"), "{m}");
    // Text that is not UTF-8 once decoded.
    let r = support::send(api.addr, "POST", CARD_CHECK_PATH, &[("env", ENV)], "full_name=%FF").await;
    refused(&r, "90101");

    // 90102: a bad sign.
    let mut p = check("r-sign", &card_fields(1));
    p.last_mut().unwrap().1 = sandbox_sign("something else");
    let m = refused(&api.post(CARD_CHECK_PATH, p).await, "90102");
    assert!(m.contains("HMAC-SHA256"), "{m}");

    // 90103: another app_token.
    let mut p = common_params(DATE, "r-token", "another-app-token-000000000000000000000");
    p.extend(pairs(&card_fields(1)));
    refused(&api.post(CARD_CHECK_PATH, signed(p)).await, "90103");

    // 90105: the fifth call in this second (the clock does not move).
    let mut seen = Vec::new();
    for i in 0..2 {
        let r = api.card(&format!("r-rate-{i}"), &card_fields(1)).await;
        seen.push(code(&r).1);
    }
    // Calls so far this second: r-sign (1), two checks (3); the 90103 one
    // is another token's. The next passes, the one after is refused.
    assert_eq!(seen, ["10200", "10200"]);
    assert_eq!(code(&api.card("r-rate-2", &card_fields(1)).await).1, "10200");
    let m = refused(&api.card("r-rate-3", &card_fields(1)).await, "90105");
    assert!(m.contains("more than 4 calls"), "{m}");
    // Result queries count too (and are refused without the envelope).
    let r = api.query("r-rate-2", "").await;
    assert_eq!((r.status, r.json()["return_code"].as_str()), (400, Some("90105")));
}

#[tokio::test]
async fn a_repeated_order_id_is_refused_across_both_checks() {
    let api = start().await;
    assert_eq!(code(&api.card("dup-1", &card_fields(2)).await).1, "10200");
    let r = api.card("dup-1", &card_fields(8)).await;
    assert_eq!(code(&r), (400, "90104".into()));
    assert!(data(&r)["return_message"].as_str().unwrap().contains("dup-1"));
    let r = api.name("dup-1", &[("full_name", "A"), ("id_number", IDS[1]), ("source_channel", "0")]).await;
    assert_eq!(code(&r), (400, "90104".into()));
    // The first one stands.
    assert_eq!(data(&api.query("dup-1", "").await)["resp_code"], "00");
    // Queries repeat their order_id freely.
    for _ in 0..3 {
        assert_eq!(code(&api.query("dup-1", "").await).1, "20000");
    }
}

#[tokio::test]
async fn result_query_refusals_have_no_envelope() {
    let api = start().await;
    // Neither seq_id nor order_id: the failure sample, top-level fields,
    // unsigned, HTTP 400.
    let r = api
        .request(&Request::get(CHECK_RESULT_PATH, ENV, signed(pairs(&[("order_date", DATE), ("app_token", TOKEN), ("seq_id", "")]))))
        .await;
    assert_eq!(r.status, 400);
    let body = r.json();
    assert_eq!(body["return_code"], "90101");
    assert!(body["return_message"].as_str().unwrap().contains("order_id is required"));
    assert!(body.get("data").is_none() && body.get("signature").is_none(), "{body}");
    let e = decode_envelope(r.status, &r.body).unwrap();
    assert_eq!((e.return_code.as_str(), e.signature), ("90101", None));

    let mut p = signed(query_params(DATE, "x", TOKEN, "S1"));
    p.last_mut().unwrap().1 = "0".repeat(64);
    let r = api.request(&Request::get(CHECK_RESULT_PATH, ENV, p)).await;
    assert_eq!((r.status, r.json()["return_code"].as_str()), (400, Some("90102")));
    let r = support::send(api.addr, "GET", &format!("{CHECK_RESULT_PATH}?order_id=x"), &[], "").await;
    assert_eq!(r.json()["return_code"], "90101", "no env header");
}

#[tokio::test]
async fn asynchronous_check_is_pending_then_notified() {
    let api = start().await;
    let (url, shop) = merchant(Merchant::default()).await;
    let mut fields = card_fields(8);
    fields.push(("mer_bg_url", url.as_str()));
    let r = api.card("async-1", &fields).await;
    assert_eq!(code(&r), (200, "10201".into()));
    let d = data(&r);
    assert!(d.get("resp_code").is_none(), "no result yet: {d}");
    let seq_id = d["seq_id"].as_str().unwrap().to_string();

    for (order, seq) in [("async-1", ""), ("any", seq_id.as_str())] {
        let r = api.query(order, seq).await;
        assert_eq!(code(&r), (200, "20012".into()));
        assert_eq!(data(&r)["seq_id"], seq_id.as_str());
    }

    assert!(eventually(Duration::from_secs(5), || async { !shop.lock().unwrap().bodies.is_empty() }).await, "notified");
    let body = shop.lock().unwrap().bodies[0].clone();
    let n = parse_notification(&Json::Str(body)).unwrap();
    let o = n.accept(true).unwrap();
    assert_eq!(o.state, Verdict::Inconsistent);
    assert_eq!((o.seq_id.as_deref(), o.order_id.as_str(), o.return_code.as_str()), (Some(seq_id.as_str()), "async-1", "10200"));
    let record = o.record.unwrap();
    for key in ["resp_info", "mp_ssim", "full_name", "id_number", "file_list", "face_identify_list"] {
        assert!(record.get(key).is_some(), "{key}");
    }

    let after = data(&api.query("async-1", "").await);
    assert_eq!(after["return_code"], "20000");
    assert_eq!(after["resp_code"], "01");
    assert_eq!(after["mp_ssim"].as_str(), record.get("mp_ssim").and_then(Json::as_str));

    let deliveries = api.deliveries().await;
    assert_eq!(deliveries.len(), 1);
    assert_eq!(deliveries[0]["seq_id"], seq_id.as_str());
    assert_eq!(deliveries[0]["attempts"], 1);
    assert_eq!(deliveries[0]["acknowledged"], true);
}

#[tokio::test]
async fn a_notification_is_sent_again_until_acknowledged() {
    let api = start_with(|c| c.notify_delay = Duration::from_millis(20)).await;
    let (url, shop) = merchant(Merchant { script: VecDeque::from([500, 500, 200]), ..Merchant::default() }).await;
    let mut fields = card_fields(1);
    fields.push(("mer_bg_url", url.as_str()));
    let seq_id = data(&api.card("retry-1", &fields).await)["seq_id"].as_str().unwrap().to_string();

    let acked = || async { api.deliveries().await.first().is_some_and(|d| d["acknowledged"] == true) };
    assert!(eventually(Duration::from_secs(5), acked).await);
    // Longer than the next back-off would be: nothing more is sent.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let d = &api.deliveries().await[0];
    assert_eq!(d["attempts"], 3);
    assert_eq!(d["statuses"], serde_json::json!(["500", "500", "200"]));
    assert_eq!(d["gave_up"], false);
    let shop = shop.lock().unwrap();
    assert_eq!(shop.posts[&seq_id], 3);
    assert_eq!(shop.acknowledged[&seq_id], 1);
    assert_eq!(shop.bodies.iter().filter(|b| **b == shop.bodies[0]).count(), 3, "the same notification each time");
}

#[tokio::test]
async fn delivery_gives_up_but_the_result_stays_queryable() {
    let api = start_with(|c| {
        c.notify_delay = Duration::from_millis(20);
        c.notify_attempts = 2;
    })
    .await;
    let (url, shop) = merchant(Merchant { script: VecDeque::from([503; 10]), ..Merchant::default() }).await;
    let mut fields = card_fields(4);
    fields.push(("mer_bg_url", url.as_str()));
    assert_eq!(code(&api.card("give-up", &fields).await).1, "10201");
    // A mer_bg_url the sandbox does not post to: accepted all the same.
    let mut elsewhere = card_fields(5);
    elsewhere.push(("mer_bg_url", "https://shop.example/notify"));
    assert_eq!(code(&api.card("elsewhere", &elsewhere).await).1, "10201");

    let done = || async { api.deliveries().await.iter().filter(|d| d["gave_up"] == true).count() == 2 };
    assert!(eventually(Duration::from_secs(5), done).await, "{:?}", api.deliveries().await);
    let all = api.deliveries().await;
    let by_order = |o: &str| all.iter().find(|d| d["order_id"] == o).unwrap().clone();
    assert_eq!(by_order("give-up")["statuses"], serde_json::json!(["503", "503"]));
    assert_eq!(shop.lock().unwrap().bodies.len(), 2);
    let not_sent = by_order("elsewhere");
    assert_eq!(not_sent["attempts"], 0);
    assert!(not_sent["not_sent"].as_str().unwrap().starts_with("mer_bg_url uses https://"), "{not_sent}");
    for order in ["give-up", "elsewhere"] {
        assert_eq!(code(&api.query(order, "").await).1, "20000", "{order}");
    }
}

#[tokio::test]
async fn the_sandbox_receives_its_own_notifications() {
    let api = start_with(|c| c.notify_delay = Duration::from_millis(20)).await;
    let url = api.url("/merchant/notify");
    let mut fields = card_fields(6);
    fields.push(("mer_bg_url", url.as_str()));
    let seq_id = data(&api.card("own-1", &fields).await)["seq_id"].as_str().unwrap().to_string();
    let listed = || async { api.get("/merchant/notifications").await.json()["notifications"].as_array().is_some_and(|l| !l.is_empty()) };
    assert!(eventually(Duration::from_secs(5), listed).await);
    let list = api.get("/merchant/notifications").await.json();
    let o = &list["notifications"][0]["outcome"];
    assert_eq!(o["state"], "consistent");
    assert_eq!(o["seqId"], seq_id.as_str());
    assert_eq!(o["orderId"], "own-1");
    assert!(o["score"].as_f64().unwrap() > 60.0);
    assert_eq!(list["duplicates"], 0);

    // The same notification again: acknowledged, counted, not listed twice.
    let mut p = pairs(&[("seq_id", seq_id.as_str()), ("order_id", "own-1"), ("return_code", "10200"), ("resp_code", "00")]);
    let form = |p: &Vec<(String, String)>| paybridge::verify::form::encode_form(p);
    let again = signed(p.clone());
    let ct = [("content-type", "application/x-www-form-urlencoded")];
    let r = support::send(api.addr, "POST", "/merchant/notify", &ct, &form(&again)).await;
    assert_eq!((r.status, r.body.as_str()), (200, "success"));
    let list = api.get("/merchant/notifications").await.json();
    assert_eq!(list["notifications"].as_array().unwrap().len(), 1);
    assert_eq!(list["duplicates"], 1);

    // Forged or broken: 400 with the reason, nothing recorded.
    p.push(("sign".into(), sandbox_sign("forged")));
    let r = support::send(api.addr, "POST", "/merchant/notify", &ct, &form(&p)).await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("sign"), "{}", r.body);
    let r = support::send(api.addr, "POST", "/merchant/notify", &ct, "order_id=o&return_code=10200&sign=x").await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("seq_id"), "{}", r.body);
    assert_eq!(api.get("/merchant/notifications").await.json()["notifications"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_request_whose_answer_was_lost_is_found_by_order_id() {
    let api = start().await;
    let req = Request::post(CARD_CHECK_PATH, ENV, check("lost-1", &card_fields(7)));
    let raw = format!(
        "POST {CARD_CHECK_PATH} HTTP/1.1\r\nHost: {}\r\nenv: {ENV}\r\ncontent-type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{}",
        api.addr,
        req.body.as_ref().unwrap().len(),
        req.body.as_ref().unwrap()
    );
    {
        use tokio::io::AsyncWriteExt;
        let mut s = tokio::net::TcpStream::connect(api.addr).await.unwrap();
        s.write_all(raw.as_bytes()).await.unwrap();
        // Gone before any answer is read.
    }
    let found = || async { code(&api.query("lost-1", "").await).1 == "20000" };
    assert!(eventually(Duration::from_secs(5), found).await, "the request counts");
    assert_eq!(data(&api.query("lost-1", "").await)["resp_code"], "00");
    assert_eq!(code(&api.card("lost-1", &card_fields(7)).await).1, "90104", "sending it again is refused");
}

/// Drives the crate's own client ([`Call`]) against the sandbox: signs and
/// verifies with the sandbox rule; `lose_first_answer` reports the first
/// answer as lost (the request did reach the sandbox).
async fn drive(api: &Api, op: Operation, fields: Json, lose_first_answer: bool) -> (Outcome, Vec<String>) {
    let config = ClientConfig::new(TOKEN, ENV, 3, 20).unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as f64;
    let mut call = Call::new(&config, op, fields, true, now, [9; 16]);
    let mut event = Event::Start;
    let mut paths = Vec::new();
    let mut lose = lose_first_answer;
    loop {
        event = match call.next(event) {
            Step::NeedSign(params) => Event::Signed(sandbox_sign(&sign_input(&params))),
            Step::Send(req) => {
                paths.push(req.path.to_string());
                let r = api.request(&req).await;
                if std::mem::take(&mut lose) {
                    Event::NoAnswer
                } else {
                    Event::Response { status: r.status, body: r.body }
                }
            }
            Step::NeedVerify { data, signature } => Event::Verified(sandbox_sign(&data) == signature),
            Step::Sleep(ms) => {
                tokio::time::sleep(Duration::from_millis(ms as u64)).await;
                Event::Slept
            }
            Step::Done(r) => return (r.unwrap_or_else(|e| panic!("{e}")), paths),
        }
    }
}

fn fields_json(f: &[(&str, &str)]) -> Json {
    Json::Obj(f.iter().map(|(k, v)| (k.to_string(), Json::str(v))).collect())
}

#[tokio::test]
async fn the_crates_client_against_the_sandbox() {
    let api = start_with(|c| c.notify_delay = Duration::from_millis(100)).await;
    let (o, _) =
        drive(&api, Operation::NameCheck, fields_json(&[("full_name", "A"), ("id_number", IDS[2]), ("source_channel", "0")]), false).await;
    assert_eq!((o.state, o.return_code.as_str()), (Verdict::Consistent, "10400"));

    // The answer is lost: the client asks for the result by order_id
    // rather than sending the check again, and gets it.
    let (o, paths) = drive(&api, Operation::CardCheck, fields_json(&card_fields(9)), true).await;
    assert_eq!(paths, [CARD_CHECK_PATH, CHECK_RESULT_PATH]);
    assert_eq!((o.state, o.return_code.as_str()), (Verdict::Inconsistent, "20000"));
    assert!(o.score.is_some_and(|s| s < 60.0));

    // Asynchronous: pending, then awaited until the result is ready.
    let (url, _shop) = merchant(Merchant::default()).await;
    let mut f = card_fields(5);
    f.push(("mer_bg_url", url.as_str()));
    let (pending, _) = drive(&api, Operation::CardCheck, fields_json(&f), false).await;
    assert_eq!((pending.state, pending.return_code.as_str()), (Verdict::Pending, "10201"));
    let query = Json::obj(vec![("seqId", Json::Str(pending.seq_id.clone().unwrap()))]);
    let (o, paths) = drive(&api, Operation::AwaitResult(Wait::new(20, 5_000).unwrap()), query, false).await;
    assert_eq!((o.state, o.return_code.as_str()), (Verdict::Consistent, "20000"));
    assert_eq!(o.order_id, pending.order_id, "the answer names the verification's order");
    assert!(paths.len() >= 2, "polled while pending: {paths:?}");
}

/// At least 2,000 requests, 50 at a time, of every kind; every answer is
/// checked, and every asynchronous result is acknowledged exactly once by a
/// merchant that refuses the first delivery of one order in ten.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_test() {
    const REQUESTS: usize = 2_400;
    const AT_ONCE: usize = 50;
    let api = Arc::new(
        start_with(|c| {
            c.rate_limit = 0;
            c.notify_delay = Duration::from_millis(50);
            c.notify_retry = Duration::from_millis(20);
        })
        .await,
    );
    let fail_first: Vec<String> = (0..REQUESTS).filter(|i| i % 4 == 1 && i % 10 == 3).map(|i| format!("L{i:05}")).collect();
    let (url, shop) = merchant(Merchant { fail_first: fail_first.clone(), ..Merchant::default() }).await;
    let url = Arc::new(url);
    let next = Arc::new(AtomicUsize::new(0));
    let async_seq_ids = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();

    let mut workers = Vec::new();
    for _ in 0..AT_ONCE {
        let (api, url, next, async_seq_ids) = (api.clone(), url.clone(), next.clone(), async_seq_ids.clone());
        workers.push(tokio::spawn(async move {
            // This worker's last synchronous verification: (order, seq_id, resp_code).
            let mut last: Option<(String, String, &str)> = None;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= REQUESTS {
                    return;
                }
                let order = format!("L{i:05}");
                let digit = i % 10;
                match i % 4 {
                    0 => {
                        let d = data(&api.card(&order, &card_fields(digit)).await);
                        assert_eq!((d["return_code"].as_str(), d["resp_code"].as_str()), (Some("10200"), Some(expected_resp(digit))));
                        assert_eq!(d["order_id"], order.as_str());
                        last = Some((order, d["seq_id"].as_str().unwrap().into(), expected_resp(digit)));
                    }
                    1 => {
                        let mut f = card_fields(digit);
                        f.push(("mer_bg_url", url.as_str()));
                        let d = data(&api.card(&order, &f).await);
                        assert_eq!(d["return_code"], "10201");
                        async_seq_ids.lock().unwrap().push((d["seq_id"].as_str().unwrap().to_string(), expected_resp(digit)));
                    }
                    2 => {
                        let r = api.name(&order, &[("full_name", "王五"), ("id_number", IDS[digit]), ("source_channel", "2")]).await;
                        let d = data(&r);
                        assert_eq!((d["return_code"].as_str(), d["resp_code"].as_str()), (Some("10400"), Some(expected_resp(digit))));
                        last = Some((order, d["seq_id"].as_str().unwrap().into(), expected_resp(digit)));
                    }
                    _ => {
                        let Some((o, seq_id, resp)) = &last else {
                            let r = api.query(&order, "").await;
                            assert_eq!(code(&r), (400, "20011".into()));
                            continue;
                        };
                        let by_seq = i % 8 == 3;
                        let d = data(&api.query(if by_seq { "query-order" } else { o }, if by_seq { seq_id } else { "" }).await);
                        assert_eq!((d["return_code"].as_str(), d["resp_code"].as_str()), (Some("20000"), Some(*resp)));
                        assert_eq!((d["seq_id"].as_str(), d["order_id"].as_str()), (Some(seq_id.as_str()), Some(o.as_str())));
                    }
                }
            }
        }));
    }
    for w in workers {
        w.await.unwrap();
    }
    let answered = started.elapsed();

    let expected: Vec<(String, &str)> = async_seq_ids.lock().unwrap().clone();
    assert_eq!(expected.len(), REQUESTS / 4);
    let all_acknowledged = || async { shop.lock().unwrap().acknowledged.len() == expected.len() };
    assert!(eventually(Duration::from_secs(20), all_acknowledged).await, "every notification acknowledged");
    let delivered = started.elapsed();
    // Longer than a retry would take: nothing more arrives.
    tokio::time::sleep(Duration::from_millis(300)).await;
    {
        let shop = shop.lock().unwrap();
        for (seq_id, _) in &expected {
            assert_eq!(shop.acknowledged.get(seq_id), Some(&1), "{seq_id} acknowledged once");
        }
        let refused_once = shop.posts.values().filter(|&&n| n == 2).count();
        assert_eq!(refused_once, fail_first.len(), "each refused delivery was sent once more");
        assert!(shop.posts.values().all(|&n| n <= 2));
        assert_eq!(shop.bodies.len(), expected.len() + fail_first.len());
        // Every notification carries the result the mock gives.
        let by_seq: HashMap<&str, &str> = expected.iter().map(|(s, r)| (s.as_str(), *r)).collect();
        for body in &shop.bodies {
            let o = parse_notification(&Json::Str(body.clone())).unwrap().outcome;
            assert_eq!(o.resp_code.as_deref(), Some(by_seq[o.seq_id.as_deref().unwrap()]));
        }
    }
    let deliveries = api.deliveries().await;
    assert_eq!(deliveries.len(), expected.len());
    assert!(deliveries.iter().all(|d| d["acknowledged"] == true && d["gave_up"] == false));

    let per_second = REQUESTS as f64 / answered.as_secs_f64();
    eprintln!(
        "load test: {REQUESTS} requests, {AT_ONCE} at once, answered in {:.2} s ({per_second:.0} requests/s); {} notifications acknowledged after {:.2} s",
        answered.as_secs_f64(),
        expected.len(),
        delivered.as_secs_f64()
    );
    assert!(delivered < Duration::from_secs(30), "the load test took {delivered:?}");
}
