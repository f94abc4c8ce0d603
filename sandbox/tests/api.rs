//! The sandbox's aggregated authentication API over real HTTP on 127.0.0.1:
//! every return code, signed answers checked with the crate's rule, result
//! queries by `seq_id` and by `order_id`, notifications (pending, notified,
//! retried until acknowledged, given up), the merchant receiver, and the
//! crate's own client against the sandbox. The load test is in
//! `load.rs`.

use std::collections::VecDeque;
use std::time::Duration;

use paybridge::json::Json;
use paybridge::verify::request::{common_params, query_params, Request, CARD_CHECK_PATH, CHECK_RESULT_PATH};
use paybridge::verify::{
    decode_envelope, parse_notification, parse_score, passes_threshold, sign_input, Call, Config as ClientConfig, Event, Operation,
    Outcome, State as Verdict, Step, Wait,
};
use support::api::*;
use support::Res;

mod support;

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
    let r = api.card("r-fields", &[("acct_no", "4111-1111"), ("source_channel", "5"), ("mer_bg_url", "ftp://x")]).await;
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
    let mut p = pairs(&[
        ("seq_id", seq_id.as_str()),
        ("order_id", "own-1"),
        ("return_code", "10200"),
        ("resp_code", "00"),
        ("resp_info", "consistent"),
        ("full_name", "张三"),
    ]);
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
    drive_with(api, op, fields, lose_first_answer, &|| {}).await
}

/// [`drive`], calling `tick` at each pause the client asks for (a test's
/// manual clock moves on).
async fn drive_with(api: &Api, op: Operation, fields: Json, lose_first_answer: bool, tick: &dyn Fn()) -> (Outcome, Vec<String>) {
    let config = ClientConfig::new(TOKEN, ENV, 3, 20).unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as f64;
    // Fresh random bytes a call, as a real client draws them: two calls in
    // one millisecond with the same bytes would have the same order_id, and
    // a lost answer's query by order_id would find the other call's record.
    static CALLS: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);
    let random = [CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed); 16];
    let mut call = Call::new(&config, op, fields, true, now, random);
    let mut event = Event::Start;
    let mut paths = Vec::new();
    let mut lose = lose_first_answer;
    loop {
        event = match call.next(event) {
            Step::NeedEncrypt(fields) => {
                Event::Encrypted(fields.iter().map(|(k, v)| paybridge_sandbox::sign::encrypt(SECRET, k, v).unwrap()).collect())
            }
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
                tick();
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

#[tokio::test]
async fn the_v4_result_query_form_answers_as_the_v1_form() {
    let api = start().await;
    let r = api.card("v4-1", &card_fields(8)).await;
    let seq = data(&r)["seq_id"].as_str().unwrap().to_string();
    let q = signed(query_params(DATE, "v4-1", TOKEN, &seq));
    let v1 = api.request(&Request::get(CHECK_RESULT_PATH, ENV, q.clone())).await;
    let v4 = api.request(&Request::get(paybridge::verify::request::V4_CHECK_RESULT_PATH, ENV, q)).await;
    assert_eq!(code(&v4), (200, "20000".into()), "{}", v4.body);
    assert_eq!(data(&v4)["resp_code"], "01");
    assert_eq!(data(&v4)["seq_id"], data(&v1)["seq_id"]);
    // Refusals too: a bad sign is 90102 on either form.
    let mut bad = query_params(DATE, "v4-1", TOKEN, &seq);
    bad.push(("sign".into(), "0".repeat(64)));
    let r = api.request(&Request::get(paybridge::verify::request::V4_CHECK_RESULT_PATH, ENV, bad)).await;
    assert_eq!((r.status, r.json()["return_code"].as_str()), (400, Some("90102")), "{}", r.body);
    // Only the result query has a v4 form.
    let r = api.post("/api/v4/trade/cardcheck", check("v4-2", &card_fields(1))).await;
    assert!(matches!(r.status, 404 | 405), "{} {}", r.status, r.body);
}

#[tokio::test]
async fn cvv2_in_the_sandboxs_encrypted_form_or_as_typed() {
    use paybridge_sandbox::sign::encrypt;
    let api = start().await;
    let credit = |cvv2: &str| {
        let mut f: Vec<(String, String)> = card_fields(2).into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        f.extend([("card_type".into(), "C".into()), ("valid_date".into(), "1229".into()), ("cvv2".into(), cvv2.to_string())]);
        f
    };
    let send = |order: &'static str, fields: Vec<(String, String)>| {
        let mut p = common_params(DATE, order, TOKEN);
        p.extend(fields);
        api.post(CARD_CHECK_PATH, signed(p))
    };
    let encrypted = encrypt(SECRET, "cvv2", "123").unwrap();
    let r = send("enc-1", credit(&encrypted)).await;
    assert_eq!(code(&r), (200, "10200".into()), "{}", r.body);
    let r = send("enc-2", credit("123")).await;
    assert_eq!(code(&r), (200, "10200".into()), "a cvv2 as typed is taken as before: {}", r.body);
    for bad in ["sbx1:zz", "sbx1:", &format!("sbx1:{}", "00".repeat(33))] {
        let r = send("enc-3", credit(bad)).await;
        assert_eq!(code(&r), (400, "90101".into()), "{bad}");
        assert!(data(&r)["return_message"].as_str().unwrap().starts_with("cvv2 is not in the sandbox's encrypted form"), "{}", r.body);
    }
    // An encryption under another secret does not decrypt to text the same way,
    // and the sign covers the encrypted value as sent.
    let other = encrypt("another-secret", "cvv2", "123").unwrap();
    assert_ne!(other, encrypted);
}

/// 90105 under both readings of the document, which does not say whether
/// the service recorded the check: the crate's client asks `checkresult`
/// by `order_id` before sending it again, and ends with the result either
/// way, never with a 90104 and no result.
#[tokio::test]
async fn the_crates_client_after_90105_under_both_readings() {
    for record_first in [false, true] {
        let clock = std::sync::Arc::new(paybridge_sandbox::ManualClock::new(START_MS));
        let c = clock.clone();
        let api = start_with(move |config| {
            config.rate_limit = 2;
            config.record_before_limit = record_first;
            config.clock = c;
        })
        .await;
        for i in 0..2 {
            assert_eq!(code(&api.card(&format!("fill-{i}"), &card_fields(1)).await).1, "10200");
        }
        let (o, paths) =
            drive_with(&api, Operation::CardCheck, fields_json(&card_fields(8)), false, &|| clock.advance(Duration::from_secs(1))).await;
        assert_eq!(o.state, Verdict::Inconsistent, "record_first {record_first}");
        if record_first {
            assert_eq!(paths, [CARD_CHECK_PATH, CHECK_RESULT_PATH], "found by order_id, not sent again");
            assert_eq!(o.return_code, "20000");
        } else {
            assert_eq!(paths, [CARD_CHECK_PATH, CHECK_RESULT_PATH, CARD_CHECK_PATH], "not recorded: sent again");
            assert_eq!(o.return_code, "10200");
        }
    }
}

/// "Joint-debugging environment mock for cardcheck: the result depends only
/// on the ID number; an ID number starting with 1-7 yields consistent,
/// starting with 8-9 yields inconsistent." The sandbox checks the
/// document's formats, not the client's Luhn digit or check digit.
#[tokio::test]
async fn the_mock_decides_on_the_id_numbers_first_digit_alone() {
    let api = start().await;
    let f = [("full_name", "A"), ("acct_no", "6222021234567890123"), ("id_number", "800000000000000000"), ("source_channel", "0")];
    let r = api.card("mock-8", &f).await;
    assert_eq!(code(&r), (200, "10200".into()), "{}", r.body);
    assert_eq!(data(&r)["resp_code"], "01");
    let r = api
        .card(
            "mock-1",
            &[("full_name", "A"), ("acct_no", "6222021234567890123"), ("id_number", "100000000000000000"), ("source_channel", "0")],
        )
        .await;
    assert_eq!(data(&r)["resp_code"], "00");
    let r = api.name("mock-n", &[("full_name", "A"), ("id_number", "900000000000000000"), ("source_channel", "0")]).await;
    assert_eq!((code(&r).1.as_str(), data(&r)["resp_code"].as_str()), ("10400", Some("01")));
    // Its formats still hold: 18 characters.
    assert_eq!(
        code(&api.name("mock-short", &[("full_name", "A"), ("id_number", "90000000000000000"), ("source_channel", "0")]).await).1,
        "90101"
    );
    // A notification address the sandbox does not post to is said so in
    // the answer itself.
    let mut f = card_fields(3);
    f.push(("mer_bg_url", "https://merchant.example/notify"));
    let r = api.card("mock-away", &f).await;
    assert_eq!(code(&r).1, "10201");
    let m = data(&r)["return_message"].as_str().unwrap().to_string();
    assert!(m.contains("not notified") && m.contains("loopback"), "{m}");
}
