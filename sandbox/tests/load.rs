//! The load test of the sandbox's authentication API: at least 2,000
//! requests on 127.0.0.1, 50 at a time, every answer checked, every
//! notification acknowledged exactly once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use paybridge::json::Json;
use paybridge::verify::parse_notification;
use support::api::*;

mod support;

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
