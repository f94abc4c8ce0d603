//! A client of the sandbox's authentication API and a merchant's
//! notification endpoint, for the tests of the API and its load test.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use paybridge::json::Json;
use paybridge::verify::request::{common_params, query_params, Request, CARD_CHECK_PATH, CHECK_RESULT_PATH, NAME_CHECK_PATH};
use paybridge::verify::{decode_envelope, hmac_sha256_hex, parse_notification, sign_input};
use paybridge_sandbox::{self as sandbox, Config, ManualClock};
use serde_json::Value;
use tokio::net::TcpListener;

use super::Res;

pub const START_MS: u64 = 1_800_000_000_000;
pub const SECRET: &str = "sandbox-secret";
pub const TOKEN: &str = "sandbox-app-token-0000000000000000000000";
pub const DATE: &str = "20270115";
pub const ENV: &str = "test";

/// ID-card numbers (valid check digits) whose first digit is the index.
pub const IDS: [&str; 10] = [
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
pub const CARDS: [&str; 10] = [
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
pub fn expected_resp(digit: usize) -> &'static str {
    match digit {
        1..=7 => "00",
        8 | 9 => "01",
        _ => "99",
    }
}

pub fn sandbox_sign(text: &str) -> String {
    hmac_sha256_hex(SECRET.as_bytes(), text.as_bytes())
}

pub fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// `params` with their `sign` (the sandbox rule) appended.
pub fn signed(mut params: Vec<(String, String)>) -> Vec<(String, String)> {
    let sign = sandbox_sign(&sign_input(&params));
    params.push(("sign".into(), sign));
    params
}

/// The parameters of a check: the common ones then `fields`, signed.
pub fn check(order_id: &str, fields: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut p = common_params(DATE, order_id, TOKEN);
    p.extend(pairs(fields));
    signed(p)
}

pub fn card_fields<'a>(digit: usize) -> Vec<(&'a str, &'a str)> {
    vec![("full_name", "张三"), ("acct_no", CARDS[1]), ("id_number", IDS[digit]), ("source_channel", "1")]
}

pub struct Api {
    pub addr: SocketAddr,
}

pub async fn start_with(tune: impl FnOnce(&mut Config)) -> Api {
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

pub async fn start() -> Api {
    start_with(|_| {}).await
}

impl Api {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Sends a request built by the crate (`Request::post`/`Request::get`).
    pub async fn request(&self, r: &Request) -> Res {
        let path = match &r.url_query {
            Some(q) => format!("{}?{q}", r.path),
            None => r.path.to_string(),
        };
        let headers: Vec<(&str, &str)> = r.headers.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        super::send(self.addr, r.method, &path, &headers, r.body.as_deref().unwrap_or("")).await
    }

    pub async fn post(&self, path: &'static str, params: Vec<(String, String)>) -> Res {
        self.request(&Request::post(path, ENV, params)).await
    }

    pub async fn card(&self, order_id: &str, fields: &[(&str, &str)]) -> Res {
        self.post(CARD_CHECK_PATH, check(order_id, fields)).await
    }

    pub async fn name(&self, order_id: &str, fields: &[(&str, &str)]) -> Res {
        self.post(NAME_CHECK_PATH, check(order_id, fields)).await
    }

    /// `checkresult` by `seq_id` (when non-empty) with `order_id` in the
    /// common parameters.
    pub async fn query(&self, order_id: &str, seq_id: &str) -> Res {
        self.request(&Request::get(CHECK_RESULT_PATH, ENV, signed(query_params(DATE, order_id, TOKEN, seq_id)))).await
    }

    pub async fn get(&self, path: &str) -> Res {
        super::send(self.addr, "GET", path, &[], "").await
    }

    /// The sandbox's record of what it notified.
    pub async fn deliveries(&self) -> Vec<Value> {
        self.get("/sim/deliveries").await.json()["deliveries"].as_array().unwrap().clone()
    }
}

/// The `data` of a signed answer, its signature checked with the crate's
/// envelope decoder and the sandbox rule.
pub fn data(r: &Res) -> Value {
    let e = decode_envelope(r.status, &r.body).unwrap_or_else(|e| panic!("{e}: {}", r.body));
    let signature = e.signature.unwrap_or_else(|| panic!("unsigned: {}", r.body));
    assert_eq!(signature, sandbox_sign(&e.data_text), "signature over the data text");
    assert_eq!(r.header("content-type"), Some("application/json; charset=utf-8"));
    serde_json::from_str(&e.data_text).unwrap()
}

/// The `return_code` of a signed answer, with its status.
pub fn code(r: &Res) -> (u16, String) {
    (r.status, data(r)["return_code"].as_str().unwrap().to_string())
}

/// Polls `done` every 10 ms for up to `within`.
pub async fn eventually<F: std::future::Future<Output = bool>>(within: Duration, mut done: impl FnMut() -> F) -> bool {
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
pub struct Merchant {
    pub script: VecDeque<u16>,
    /// First POSTs of these order_ids are answered 500.
    pub fail_first: Vec<String>,
    pub bodies: Vec<String>,
    pub acknowledged: HashMap<String, usize>,
    pub posts: HashMap<String, usize>,
}

pub type Shared = Arc<Mutex<Merchant>>;

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
pub async fn merchant(m: Merchant) -> (String, Shared) {
    let shared: Shared = Arc::new(Mutex::new(m));
    let app = axum::Router::new().route("/notify", axum::routing::post(merchant_notify)).with_state(shared.clone());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/notify", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, shared)
}
