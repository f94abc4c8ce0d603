//! Planning throughput on the host: every vector of `tests/vectors/plan.json`
//! read, planned and written back as an action, in a plain `Instant` loop
//! (what `planAction` does between reading its arguments and returning).
//! Run by `make bench` through `cargo bench --bench plan`; prints one line
//! of JSON: `{"vectors":N,"rounds":[plans per second, ...]}`.

use paybridge::error::Code;
use paybridge::json::{self, Json};
use paybridge::runtime::{Host, Runtime};
use paybridge::{plan, Options, Payment};
use std::hint::black_box;
use std::time::{Duration, Instant};

const ROUNDS: usize = 5;
const ROUND: Duration = Duration::from_millis(400);

fn plan_one(payment: &Json, options: Option<&Json>) -> Json {
    let opts = Options::from_json(options).expect("options of a plan vector");
    let payment = Payment::from_json(payment.clone()).expect("payment of a plan vector");
    let runtime = opts.runtime.unwrap_or(Runtime { host: Host::Browser, mobile: false });
    plan(&payment, &opts, runtime).expect("a plan vector plans").to_json()
}

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/plan.json");
    let text = std::fs::read_to_string(path).expect("tests/vectors/plan.json");
    let cases: Vec<(Json, Option<Json>)> = match json::parse(&text, Code::InvalidPayment, "plan.json").expect("plan.json parses") {
        Json::Arr(items) => items.into_iter().map(|c| (c.get("payment").cloned().expect("payment"), c.get("options").cloned())).collect(),
        _ => panic!("plan.json is not a list"),
    };
    // Warm-up, and a check that every vector still plans.
    for _ in 0..200 {
        for (p, o) in &cases {
            black_box(plan_one(black_box(p), black_box(o.as_ref())));
        }
    }
    let mut rounds = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let start = Instant::now();
        let mut planned: u64 = 0;
        while start.elapsed() < ROUND {
            for (p, o) in &cases {
                black_box(plan_one(black_box(p), black_box(o.as_ref())));
            }
            planned += cases.len() as u64;
        }
        rounds.push(planned as f64 / start.elapsed().as_secs_f64());
    }
    let list: Vec<String> = rounds.iter().map(|r| format!("{r:.0}")).collect();
    println!("{{\"vectors\":{},\"rounds\":[{}]}}", cases.len(), list.join(","));
}
