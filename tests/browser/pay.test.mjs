// pay() in real headless Chromium, through the built package (pkg/index.js
// loaded as a plain module script), with fake wallet bridges injected under
// the profile's names.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { useBrowser, openHarness, onClock, wallet1Pub, wallet2Pub } from "../tools/harness.mjs";

const ctx = useBrowser();

/** A fresh page on the harness, with listener bookkeeping installed first. */
const harness = () => openHarness(ctx, { listeners: true });

test("wallet1 bridge present before pay(): tradePay with tradeNO, result mapped", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const seen = [];
    const profile = pb.defaultProfile();
    window[profile.wallet1.bridge] = { call: (name, params, cb) => { seen.push([name, params]); cb({ resultCode: "9000", memo: "ok" }); } };
    const result = await pb.pay(p, { onEvent: record });
    const said = events.filter((e) => e.type === "bridge_ready" || e.type === "called").map((e) => [e.type, e.detail]);
    return { result, seen, events: events.map((e) => e.type), said, bridge: profile.wallet1.bridge };
  }, wallet1Pub);
  // One member as the detail (Encode::said; the full module's runs write it
  // alike through Out::said's default: tests/node/authorize.test.mjs).
  assert.deepEqual(r.said, [["bridge_ready", { bridge: r.bridge }], ["called", { method: "tradePay" }]]);
  assert.deepEqual(r.seen, [["tradePay", { tradeNO: "T100" }]]);
  assert.equal(r.result.status, "succeeded");
  assert.equal(r.result.code, "9000");
  assert.equal(r.result.verified, false);
  assert.equal(r.result.channel, "wallet1_pub");
  assert.deepEqual(r.result.raw, { resultCode: "9000", memo: "ok" });
  assert.deepEqual(r.events, ["planned", "waiting", "bridge_ready", "called", "callback", "result"]);
  await page.close();
});

test("bridge arriving 200 ms later with its ready event: called in the same turn as the event", async () => {
  const page = await harness();
  const at = await onClock(page);
  await page.evaluate((p) => {
    const profile = pb.defaultProfile();
    let calledAt = null;
    let calledDuringDispatch = false;
    let dispatching = false;
    const t0 = performance.now();
    setTimeout(() => {
      window[profile.wallet2.bridge] = {
        invoke: (method, params, cb) => {
          calledAt = performance.now();
          calledDuringDispatch = dispatching;
          setTimeout(() => cb({ err_msg: `${method}:ok` }), 10);
        },
      };
      dispatching = true;
      document.dispatchEvent(new Event(profile.wallet2.readyEvent));
      dispatching = false;
    }, 200);
    pb.pay(p, { runtime: { host: "wallet2", mobile: true } }).then((result) => {
      window.done = { result, waited: calledAt - t0, calledDuringDispatch, live: liveListeners(), counts: debugCounts(pb) };
    });
  }, wallet2Pub);
  assert.equal(await at(209), undefined, "the wallet answers 10 ms after the call");
  const r = await at(210);
  assert.equal(r.result.status, "succeeded");
  assert.equal(r.result.code, "getBrandPayRequest:ok");
  assert.equal(r.waited, 200, "called as the ready event fired");
  assert.equal(r.calledDuringDispatch, true, "the wallet call happens inside the ready-event dispatch");
  assert.deepEqual(r.counts, { listeners: 0, waiters: 0, retained: 0 });
  assert.deepEqual(r.live, {});
  await page.close();
});

test("bridge arriving without an event before the time-out: found by the last look", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    setTimeout(() => {
      window[profile.wallet1.bridge] = { call: (n, params, cb) => cb({ resultCode: "6001" }) };
    }, 300);
    const t0 = performance.now();
    const result = await pb.pay(p, { runtime: { host: "wallet1", mobile: true }, timeoutMs: 800 });
    return { result, took: performance.now() - t0, live: liveListeners() };
  }, wallet1Pub);
  assert.equal(r.result.status, "cancelled");
  assert.ok(r.took >= 790, `took ${r.took}`);
  assert.deepEqual(r.live, {});
  await page.close();
});

test("bridge never arriving: bridge_timeout at timeoutMs on the test's clock, nothing left behind", async () => {
  const page = await harness();
  const at = await onClock(page);
  await page.evaluate((p) => {
    const t0 = performance.now();
    pb.pay(p, { runtime: { host: "wallet1", mobile: true }, timeoutMs: 500, onEvent: record }).then(
      () => (window.done = { ok: true }),
      (e) => (window.done = { code: e.code, name: e.name, isPayError: e instanceof pb.PayError, took: performance.now() - t0, events: events.map((e) => e.type), live: liveListeners(), counts: debugCounts(pb) }),
    );
  }, wallet1Pub);
  assert.equal(await at(499), undefined, "still waiting 1 ms before timeoutMs");
  const r = await at(500);
  assert.equal(r.code, "bridge_timeout");
  assert.ok(r.isPayError);
  assert.equal(r.took, 500);
  assert.ok(r.events.includes("timeout"));
  assert.deepEqual(r.live, {});
  assert.equal(r.counts.listeners, 0);
  assert.equal(r.counts.waiters, 0);
  await page.close();
});
test("concurrent waiters share one listener and all resolve", async () => {
  const page = await harness();
  const r = await page.evaluate(async () => {
    const profile = pb.defaultProfile();
    const waits = [1, 2, 3].map(() => pb.waitForBridge(profile.wallet1.bridge, profile.wallet1.readyEvent, { timeoutMs: 2000 }));
    const during = { live: liveListeners(), counts: debugCounts(pb) };
    window[profile.wallet1.bridge] = { id: "b" };
    document.dispatchEvent(new Event(profile.wallet1.readyEvent));
    const got = await Promise.all(waits);
    await new Promise((r) => setTimeout(r, 0));
    return { during, ids: got.map((b) => b.id), after: liveListeners(), counts: debugCounts(pb) };
  });
  assert.deepEqual(r.during.live, { Wallet1JSBridgeReady: 1 });
  assert.equal(r.during.counts.waiters, 3);
  assert.deepEqual(r.ids, ["b", "b", "b"]);
  assert.deepEqual(r.after, {});
  assert.equal(r.counts.waiters, 0);
  await page.close();
});

test("a payment and waitForBridge waiting on one ready event share its listener; each ends on it; a bad name rejects", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    const paid = pb.pay(p, { runtime: { host: "wallet1", mobile: true } });
    const waited = pb.waitForBridge(profile.wallet1.bridge, profile.wallet1.readyEvent, { timeoutMs: 2000 });
    const during = liveListeners();
    const calls = [];
    window[profile.wallet1.bridge] = { call: (n, params, cb) => { calls.push(params.tradeNO); cb({ resultCode: "9000" }); } };
    document.dispatchEvent(new Event(profile.wallet1.readyEvent));
    const [result, bridge] = await Promise.all([paid, waited]);
    const bad = await pb.waitForBridge("no spaces allowed", "E").then(() => "resolved", (e) => [e instanceof pb.PayError, e.code, e.field]);
    return { during, status: result.status, same: bridge === window[profile.wallet1.bridge], calls, after: liveListeners(), counts: debugCounts(pb), bad };
  }, wallet1Pub);
  assert.deepEqual(r.during, { Wallet1JSBridgeReady: 1 });
  assert.equal(r.status, "succeeded");
  assert.equal(r.same, true);
  assert.deepEqual(r.calls, ["T100"]);
  assert.deepEqual(r.after, {});
  assert.deepEqual(r.counts, { listeners: 0, waiters: 0, retained: 0 });
  assert.deepEqual(r.bad, [true, "invalid_options", "name"]);
  await page.close();
});

test("every wallet1 result code maps through the profile", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    const out = {};
    for (const code of ["9000", "8000", "6004", "6001", "6002", "4000", "1234", "7777"]) {
      window[profile.wallet1.bridge] = { call: (n, params, cb) => cb({ resultCode: code }) };
      const res = await pb.pay(p, { profile: { wallet1: { resultCodes: { 7777: "pending" } } } });
      out[code] = [res.status, res.code];
    }
    return out;
  }, wallet1Pub);
  assert.deepEqual(r, {
    9000: ["succeeded", "9000"],
    8000: ["pending", "8000"],
    6004: ["pending", "6004"],
    6001: ["cancelled", "6001"],
    6002: ["failed", "6002"],
    4000: ["failed", "4000"],
    1234: ["failed", "1234"],
    7777: ["pending", "7777"],
  });
  await page.close();
});

test("every wallet2 err_msg maps: :ok, :cancel, anything else", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    const out = {};
    for (const msg of ["getBrandPayRequest:ok", "getBrandPayRequest:cancel", "getBrandPayRequest:fail", "system:access_denied", ""]) {
      window[profile.wallet2.bridge] = { invoke: (m, params, cb) => cb({ err_msg: msg }) };
      const res = await pb.pay(p);
      out[msg || "empty"] = res.status;
    }
    return out;
  }, wallet2Pub);
  assert.deepEqual(r, {
    "getBrandPayRequest:ok": "succeeded",
    "getBrandPayRequest:cancel": "cancelled",
    "getBrandPayRequest:fail": "failed",
    "system:access_denied": "failed",
    empty: "failed",
  });
  await page.close();
});

test("a callback that fires twice changes nothing after the first", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    let late;
    window[profile.wallet1.bridge] = {
      call: (n, params, cb) => {
        cb({ resultCode: "6001" });
        cb({ resultCode: "9000" });
        late = cb;
      },
    };
    const result = await pb.pay(p, { onEvent: record });
    late({ resultCode: "9000" }); // after the payment ended: a no-op, not an exception
    return { result, events: events.map((e) => e.type) };
  }, wallet1Pub);
  assert.equal(r.result.status, "cancelled");
  assert.equal(r.events.filter((t) => t === "callback").length, 1);
  assert.ok(r.events.includes("callback_ignored"));
  await page.close();
});

test("a second pay() while one is in flight rejects with busy", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    let finish;
    window[profile.wallet1.bridge] = { call: (n, params, cb) => { finish = () => cb({ resultCode: "9000" }); } };
    const first = pb.pay(p);
    await new Promise((r) => setTimeout(r, 20));
    let second;
    try {
      await pb.pay(p);
    } catch (e) {
      second = e.code;
    }
    finish();
    const a = await first;
    const third = await (async () => { window[profile.wallet1.bridge].call = (n, params, cb) => cb({ resultCode: "9000" }); return (await pb.pay(p)).status; })();
    return { second, first: a.status, third };
  }, wallet1Pub);
  assert.deepEqual(r, { second: "busy", first: "succeeded", third: "succeeded" });
  await page.close();
});

test("pay() and cardnetPay() share one in-flight guard, though the page runs them in two modules", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    let finish;
    window[profile.wallet1.bridge] = { call: (n, params, cb) => { finish = () => cb({ resultCode: "9000" }); } };
    const callback = "https://shop.example/cn/cb?respCode=00&userAuthCode=u1";
    let ordered = 0;
    // Were the guard not shared, the order would be placed and its pay_url
    // refused by allowedHosts: no navigation either way.
    const order = () => { ordered++; return { pay_channel: "cardnet", expend: { pay_url: "https://cashier.example/pay" } }; };
    const first = pb.pay(p);
    await new Promise((r) => setTimeout(r, 20));
    const during = await pb.cardnetPay(callback, { order, allowedHosts: ["elsewhere.example"] }).then((x) => x.status, (e) => e.code);
    finish();
    const paid = (await first).status;
    // The other way round: an order that never answers keeps cardnetPay in
    // flight until confirmTimeoutMs.
    const pending = pb.cardnetPay(callback, { order: () => new Promise(() => {}), confirmTimeoutMs: 300 }).then((x) => x.status, (e) => e.code);
    await new Promise((r) => setTimeout(r, 20));
    const second = await pb.pay(p).then((x) => x.status, (e) => e.code);
    const ended = await pending;
    window[profile.wallet1.bridge].call = (n, params, cb) => cb({ resultCode: "9000" });
    const after = (await pb.pay(p)).status;
    return { during, ordered, paid, second, ended, after };
  }, wallet1Pub);
  assert.deepEqual(r, { during: "busy", ordered: 0, paid: "succeeded", second: "busy", ended: "transport", after: "succeeded" });
  await page.close();
});

test("a throwing bridge reaches the caller as a PayError that keeps the cause", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    const boom = new TypeError("bridge exploded");
    window[profile.wallet2.bridge] = { invoke: () => { throw boom; } };
    try {
      await pb.pay(p);
    } catch (e) {
      return { code: e.code, causeSame: e.cause === boom, message: e.message, isPayError: e instanceof pb.PayError };
    }
  }, wallet2Pub);
  assert.equal(r.code, "bridge_error");
  assert.ok(r.causeSame);
  assert.ok(r.isPayError);
  assert.match(r.message, /bridge exploded/);
  await page.close();
});

test("a bridge without its method is a bridge_error, not a hang", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    window[pb.defaultProfile().wallet1.bridge] = {};
    try { await pb.pay(p); } catch (e) { return e.code; }
  }, wallet1Pub);
  assert.equal(r, "bridge_error");
  await page.close();
});

test("the browser's payment module sends mini-program channels to paybridge/miniprogram, calling nothing", async () => {
  const page = await harness();
  const r = await page.evaluate(async (w2) => {
    const calls = [];
    const api = { requestPayment: (req) => calls.push(req), tradePay: (req) => calls.push(req) };
    const out = [];
    for (const payment of [
      { pay_channel: "wallet2_lite", pay_info: { timeStamp: w2.timeStamp, nonceStr: w2.nonceStr, package: w2.package, signType: w2.signType, paySign: w2.paySign } },
      { pay_channel: "wallet1_lite", pay_info: { tradeNO: "T100" } },
    ]) {
      try { await pb.pay(payment, { api }); out.push("paid"); } catch (e) { out.push([e.code, e.field, /paybridge\/miniprogram/.test(e.message)]); }
    }
    return { out, calls: calls.length };
  }, wallet2Pub.pay_info);
  assert.deepEqual(r.out, [["wrong_runtime", "api", true], ["wrong_runtime", "api", true]]);
  assert.equal(r.calls, 0);
  await page.close();
});

test("wrong_runtime at once outside the wallet with no bridge", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const t0 = performance.now();
    const events = [];
    try { await pb.pay(p, { timeoutMs: 10000, onEvent: (e) => events.push(e.type) }); } catch (e) {
      return { code: e.code, field: e.field, took: performance.now() - t0, live: liveListeners(), events };
    }
  }, wallet2Pub);
  assert.equal(r.code, "wrong_runtime");
  // At once: no wait for the bridge (which would last timeoutMs).
  assert.deepEqual(r.events, ["planned"]);
  assert.ok(r.took < 5000, `took ${r.took}`);
  assert.deepEqual(r.live, {});
  await page.close();
});

test("a confirm that never answers: confirm_failed at confirmTimeoutMs on the test's clock, the wallet's answer kept", async () => {
  const page = await harness();
  // The full module, which awaits confirm, loaded before the clock stops.
  await page.evaluate(() => pb.ready());
  const at = await onClock(page);
  await page.evaluate((p) => {
    window[pb.defaultProfile().wallet1.bridge] = { call: (n, params, cb) => cb({ resultCode: "8000" }) };
    const t0 = performance.now();
    pb.pay(p, { confirm: () => new Promise(() => {}), confirmTimeoutMs: 300 }).then(
      () => (window.done = { ok: true }),
      (e) => (window.done = { code: e.code, took: performance.now() - t0, result: e.result && [e.result.status, e.result.verified, e.result.code] }),
    );
  }, wallet1Pub);
  assert.equal(await at(299), undefined, "still awaiting confirm 1 ms before confirmTimeoutMs");
  const r = await at(300);
  assert.deepEqual(r, { code: "confirm_failed", took: 300, result: ["pending", false, "8000"] });
  await page.close();
});

test("confirm turns the hint into a verified status; a throwing or silent confirm is a PayError", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    window[profile.wallet1.bridge] = { call: (n, params, cb) => cb({ resultCode: "8000" }) };
    const ok = await pb.pay(p, { confirm: async (payment, hint) => (hint.status === "pending" && payment.pay_info.tradeNO === "T100" ? "succeeded" : "failed") });
    const boom = new Error("server down");
    let thrown, bad;
    // Each failure keeps the wallet's answer, unverified, as the error's result.
    const kept = (e) => e.result && [e.result.status, e.result.verified, e.result.code, e.result.raw?.resultCode];
    try { await pb.pay(p, { confirm: () => { throw boom; } }); } catch (e) { thrown = { code: e.code, cause: e.cause === boom, result: kept(e) }; }
    try { await pb.pay(p, { confirm: async () => "maybe" }); } catch (e) { bad = [e.code, kept(e)]; }
    // A promise whose own then() throws: the hook failed, as a PayError, and
    // the in-flight flag is released.
    const odd = new Error("then broke");
    let thenThrew;
    const hostile = () => { const q = Promise.resolve("succeeded"); q.then = () => { throw odd; }; return q; };
    try { await pb.pay(p, { confirm: hostile }); } catch (e) { thenThrew = { pe: e instanceof pb.PayError, code: e.code, cause: e.cause === odd, result: kept(e) }; }
    const after = (await pb.pay(p)).status;
    return { ok: [ok.status, ok.verified, ok.code], thrown, bad, thenThrew, after };
  }, wallet1Pub);
  const pending = ["pending", false, "8000", "8000"];
  assert.deepEqual(r.ok, ["succeeded", true, "8000"]);
  assert.deepEqual(r.thrown, { code: "confirm_failed", cause: true, result: pending });
  assert.deepEqual(r.bad, ["confirm_failed", pending]);
  assert.deepEqual(r.thenThrew, { pe: true, code: "confirm_failed", cause: true, result: pending });
  assert.equal(r.after, "pending");
  await page.close();
});

test("a rejecting confirm is confirm_failed with the rejection as cause; one answering after its timeout is ignored, without errors", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    window[profile.wallet1.bridge] = { call: (n, params, cb) => cb({ resultCode: "8000" }) };
    const errors = [];
    addEventListener("error", (e) => errors.push(String(e.message)));
    addEventListener("unhandledrejection", (e) => errors.push(String(e.reason)));
    const down = new Error("server down");
    let rejected, late;
    try { await pb.pay(p, { confirm: async () => { throw down; } }); } catch (e) { rejected = { code: e.code, field: e.field, cause: e.cause === down }; }
    let answer;
    const answered = new Promise((r) => (answer = r));
    try { await pb.pay(p, { confirm: () => answered, confirmTimeoutMs: 100 }); } catch (e) { late = { code: e.code, message: e.message }; }
    // The hook answers after its payment has ended; then another payment runs.
    answer("succeeded");
    await new Promise((r) => setTimeout(r, 50));
    const next = await pb.pay(p, { confirm: () => "failed" });
    return { rejected, late, next: [next.status, next.verified], errors };
  }, wallet1Pub);
  assert.deepEqual(r.rejected, { code: "confirm_failed", field: "confirm", cause: true });
  assert.equal(r.late.code, "confirm_failed");
  assert.match(r.late.message, /did not answer within 100 ms/);
  assert.deepEqual(r.next, ["failed", true]);
  assert.deepEqual(r.errors, []);
  await page.close();
});

test("a throwing onEvent never breaks a payment", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    window[pb.defaultProfile().wallet1.bridge] = { call: (n, params, cb) => cb({ resultCode: "9000" }) };
    return (await pb.pay(p, { onEvent: () => { throw new Error("logger broke"); } })).status;
  }, wallet1Pub);
  assert.equal(r, "succeeded");
  await page.close();
});

test("a bridge that never calls back: pending at callbackTimeoutMs on the test's clock, and the next payment is not busy", async () => {
  const page = await harness();
  const at = await onClock(page);
  await page.evaluate((p) => {
    const profile = pb.defaultProfile();
    window[profile.wallet1.bridge] = { call: (n, params, cb) => { window.late = cb; } };
    const t0 = performance.now();
    pb.pay(p, { callbackTimeoutMs: 200 }).then((first) => (window.done = { first: first.status, took: performance.now() - t0 }));
  }, wallet1Pub);
  assert.equal(await at(199), undefined, "still waiting for the wallet 1 ms before callbackTimeoutMs");
  const r = await at(200);
  assert.deepEqual(r, { first: "pending", took: 200 });
  const next = await page.evaluate(async (p) => {
    window.late({ resultCode: "9000" }); // after the payment ended: a no-op
    window[pb.defaultProfile().wallet1.bridge].call = (n, params, cb) => cb({ resultCode: "9000" });
    return (await pb.pay(p)).status;
  }, wallet1Pub);
  assert.equal(next, "succeeded");
  await page.close();
});
test("no callback: hidden then visible again gives pending, not a hang", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    let state = "visible";
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
    window[pb.defaultProfile().wallet1.bridge] = { call: () => {} };
    const result = pb.pay(p);
    await new Promise((r) => setTimeout(r, 50));
    state = "hidden";
    document.dispatchEvent(new Event("visibilitychange"));
    await new Promise((r) => setTimeout(r, 100));
    state = "visible";
    document.dispatchEvent(new Event("visibilitychange"));
    const t0 = performance.now();
    const res = await result;
    return { status: res.status, after: performance.now() - t0, live: liveListeners() };
  }, wallet1Pub);
  assert.equal(r.status, "pending");
  assert.ok(r.after >= 1400 && r.after < 4500, `after ${r.after}`);
  assert.deepEqual(r.live, {});
  await page.close();
});

/** `route` answered with `body` once `ready()` settles (at most 5 s later). */
async function held(route, ready, body) {
  await Promise.race([ready(), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  return route.fulfill({ contentType: "text/html", body });
}

async function until(cond, ms) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Runs pay() on a page that is about to navigate; results come back through an exposed function.
 * `reports.done` settles once the result (or error) is in. A binding call from a page whose
 * navigation has committed can be dropped, so the tests' routes hold their answer until then
 * (`held`). */
async function payAndNavigate(page, payment, options) {
  const reports = [];
  let done;
  reports.done = new Promise((resolve) => (done = resolve));
  await page.exposeFunction("report", (x) => {
    reports.push(x);
    if ("result" in x || "error" in x) done();
  });
  await page.evaluate(
    ([p, o]) => {
      pb.pay(p, { ...o, onEvent: (e) => report({ event: e.type, detail: e.detail }) }).then(
        (r) => report({ result: r }),
        (e) => report({ error: e.code, field: e.field }),
      );
    },
    [payment, options],
  );
  return reports;
}

test("redirect: cardnet navigates to expend.pay_url and reports redirected", async () => {
  const page = await harness();
  const payUrl = "https://cashier.cardnet.example/pay?order=O1&token=a%2Fb";
  let reports;
  await page.route("https://cashier.cardnet.example/**", (route) => held(route, () => reports.done, "<title>cardnet cashier</title>"));
  reports = await payAndNavigate(page, { pay_channel: "cardnet", expend: { pay_url: payUrl } }, {});
  await page.waitForURL(payUrl);
  assert.equal(await page.title(), "cardnet cashier");
  assert.ok(reports.some((x) => x.event === "navigating" && x.detail.url === payUrl));
  assert.ok(reports.some((x) => x.result?.status === "redirected"));
  await page.close();
});

test("allowedHosts refuses a navigation: unsafe_url, no request made", async () => {
  const page = await harness();
  const requested = [];
  page.on("request", (req) => requested.push(req.url()));
  const before = page.url();
  const r = await page.evaluate(async () => {
    try {
      await pb.pay({ pay_channel: "cardnet", expend: { pay_url: "https://evil.example/pay" } }, { allowedHosts: ["*.cardnet.example"] });
    } catch (e) {
      return { code: e.code, field: e.field };
    }
  });
  assert.deepEqual(r, { code: "unsafe_url", field: "expend.pay_url" });
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(page.url(), before);
  assert.ok(!requested.some((u) => u.includes("evil.example")));
  await page.close();
});

test("open_url: opens the wallet scheme URL; with fallbackAfterMs a visible page goes to the web cashier", async () => {
  const page = await harness();
  const payInfo = "https://pay.example.com/cashier?trade=T1&sign=a%2Bb";
  let reports;
  await page.route("https://pay.example.com/**", (route) => held(route, () => reports.done, "<title>web cashier</title>"));
  reports = await payAndNavigate(page, { pay_channel: "wallet1", pay_info: payInfo }, { fallbackAfterMs: 400 });
  // The scheme navigation is aborted by the browser (no app handles it);
  // the fallback then loads the web cashier.
  await until(() => page.url() === payInfo, 5000);
  const nav = reports.filter((x) => x.event === "navigating").map((x) => x.detail.url);
  assert.equal(nav.length, 2);
  assert.ok(nav[0].startsWith("wallet1://platformapi/startapp?saId=10000007&qrcode="));
  assert.equal(new URL(nav[0]).searchParams.get("qrcode"), payInfo);
  assert.equal(nav[1], payInfo);
  await page.close();
});

test("open_url with fallbackAfterMs: a blur or pagehide of the window (the app took over) keeps the page where it is", async () => {
  const page = await harness();
  const before = page.url();
  for (const ev of ["blur", "pagehide"]) {
    const r = await page.evaluate(async (ev) => {
      events.length = 0;
      const p = pb.pay({ pay_channel: "wallet1", pay_info: "https://pay.example.com/c?x=1" }, { onEvent: record, fallbackAfterMs: 300 });
      setTimeout(() => window.dispatchEvent(new Event(ev)), 50);
      const res = await p;
      return { status: res.status, nav: events.filter((e) => e.type === "navigating").length };
    }, ev);
    assert.deepEqual(r, { status: "opened", nav: 1 }, ev);
  }
  assert.equal(page.url(), before);
  await page.close();
});

test("open_url without the fallback option resolves opened and stays", async () => {
  const page = await harness();
  const before = page.url();
  const r = await page.evaluate(async () => {
    const res = await pb.pay({ pay_channel: "wallet1", pay_info: "https://pay.example.com/c?x=1" }, { onEvent: record });
    return { status: res.status, nav: events.filter((e) => e.type === "navigating").map((e) => e.detail.url) };
  });
  assert.equal(r.status, "opened");
  assert.equal(r.nav.length, 1);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(page.url(), before);
  await page.close();
});

test("calls before ready() throw not_ready; pay() waits for it by itself", async () => {
  const page = await ctx.browser.newPage();
  await page.goto(`${ctx.server.url}/tests/browser/pages/blank.html`);
  const r = await page.evaluate(async () => {
    const mod = await import(`/pkg/index.js?fresh=${Math.random()}`);
    let early;
    try { mod.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }); } catch (e) { early = [e.code, e instanceof mod.PayError]; }
    let err;
    // A payment the module performs (no bridge on this page: wrong_runtime)
    // loads the payment module only; planning is in the full one. (A bad
    // input would have the full module word its error: the test below.)
    try { await mod.pay({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }); } catch (e) { err = e.code; }
    let afterPay;
    try { mod.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }); } catch (e) { afterPay = e.code; }
    await mod.ready();
    const after = mod.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }).kind;
    return { early, err, afterPay, after };
  });
  assert.deepEqual(r, { early: ["not_ready", true], err: "wrong_runtime", afterPay: "not_ready", after: "wallet1_trade_pay" });
  await page.close();
});

test("pay() with bad input rejects with the full module's words; where that module cannot load, with the code, the field and a short message naming both", async () => {
  const bad = [
    [{ pay_channel: "nope" }, undefined],
    [{ pay_channel: "wallet2_pub", pay_info: { appId: "wx1", timeStamp: "1", nonceStr: "n", package: "p", signType: "RSA" } }, undefined],
    [{ pay_channel: "cardnet", expend: { pay_url: "http://pay.example/x" } }, undefined],
    [{ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }, { profile: { wallet1: { bridge: "no such" } } }],
    ['{"pay_channel": ', undefined],
  ];
  const run = async (blockFull) => {
    const page = await ctx.browser.newPage();
    if (blockFull) await page.route(/paybridge_full_bg\.(wasm|js)$/, (r) => r.abort());
    await page.goto(`${ctx.server.url}/tests/browser/pages/blank.html`);
    const out = await page.evaluate(async (bad) => {
      const mod = await import("/pkg/index.js");
      const got = [];
      for (const [payment, options] of bad) {
        try {
          await mod.pay(payment, options);
          got.push("paid");
        } catch (e) {
          got.push({ pe: e instanceof mod.PayError, code: e.code, field: e.field, message: e.message });
        }
      }
      let planned = null;
      try {
        await mod.ready();
        planned = [];
        for (const [payment, options] of bad) {
          try {
            mod.planAction(payment, options);
          } catch (e) {
            planned.push({ pe: true, code: e.code, field: e.field, message: e.message });
          }
        }
      } catch (e) {
        planned = e.code;
      }
      return { got, planned, nav: location.pathname };
    }, bad);
    await page.close();
    return out;
  };
  // The full module words each error exactly as planAction() does.
  const loaded = await run(false);
  assert.equal(loaded.got.length, bad.length);
  assert.deepEqual(loaded.got, loaded.planned);
  assert.deepEqual(loaded.got.map((e) => [e.code, e.field]), [
    ["unsupported_channel", "pay_channel"],
    ["invalid_payment", "pay_info.paySign"],
    ["unsafe_url", "expend.pay_url"],
    ["invalid_options", "profile.wallet1.bridge"],
    ["invalid_payment", "payment"],
  ]);
  for (const e of loaded.got) assert.ok(e.message.startsWith(e.field) || e.message.includes(e.field), e.message);
  assert.match(loaded.got[0].message, /is not a channel this module knows/);
  // Without the full module: the same codes and fields, a message naming
  // both, and still no navigation.
  const blocked = await run(true);
  assert.equal(blocked.planned, "not_ready");
  assert.equal(blocked.nav, "/tests/browser/pages/blank.html");
  assert.deepEqual(
    blocked.got.map((e) => [e.pe, e.code, e.field]),
    loaded.got.map((e) => [true, e.code, e.field]),
  );
  for (const e of blocked.got) assert.equal(e.message, `${e.field} is not valid (${e.code})`);
});

test("an input that changes before the full module words its error keeps the error the payment module gave", async () => {
  const page = await ctx.browser.newPage();
  await page.goto(`${ctx.server.url}/tests/browser/pages/blank.html`);
  const r = await page.evaluate(async () => {
    const mod = await import("/pkg/index.js");
    // pay_channel reads "nope" the first time, a channel afterwards: the full
    // module's own error (pay_info.tradeNO) is not the one it is asked to word.
    let reads = 0;
    const payment = { get pay_channel() { return reads++ === 0 ? "nope" : "wallet1_pub"; } };
    try {
      await mod.pay(payment);
      return "paid";
    } catch (e) {
      return [e instanceof mod.PayError, e.code, e.field, e.message, reads > 1];
    }
  });
  assert.deepEqual(r, [true, "unsupported_channel", "pay_channel", "pay_channel is not valid (unsupported_channel)", true]);
  await page.close();
});

test("ready({ wasm }) takes a URL, bytes or a compiled module; a bad one is not_ready", async () => {
  const out = [];
  for (const kind of ["url", "bytes", "module", "missing"]) {
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.server.url}/tests/browser/pages/blank.html`);
    out.push(
      await page.evaluate(async (kind) => {
        const mod = await import("/pkg/index.js");
        const bytes = () => fetch("/pkg/paybridge_bg.wasm").then((r) => r.arrayBuffer());
        const src = { url: "/pkg/paybridge_bg.wasm", bytes: await bytes(), module: await WebAssembly.compile(await bytes()), missing: "/missing.wasm" }[kind];
        try {
          await mod.ready({ wasm: src });
          await mod.ready();
          return mod.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }).kind;
        } catch (e) {
          return e.code;
        }
      }, kind),
    );
    await page.close();
  }
  assert.deepEqual(out, ["wallet1_trade_pay", "wallet1_trade_pay", "wallet1_trade_pay", "not_ready"]);
});

test("ready({ wasmFull }) loads the full module from where the page serves it (a CDN): a URL, bytes or a compiled module", async () => {
  const out = {};
  for (const kind of ["url", "bytes", "module", "none"]) {
    const page = await ctx.browser.newPage();
    // The package's own location is gone: only the "CDN" address answers.
    const asked = [];
    await page.route((url) => url.pathname === "/pkg/paybridge_full_bg.wasm", (route) => {
      const url = new URL(route.request().url());
      asked.push(url.search);
      return url.search ? route.continue() : route.abort();
    });
    await page.goto(`${ctx.server.url}/tests/browser/pages/blank.html`);
    const r = await page.evaluate(async (kind) => {
      const mod = await import("/pkg/index.js");
      const cdn = "/pkg/paybridge_full_bg.wasm?cdn=1";
      const bytes = () => fetch(cdn).then((r) => r.arrayBuffer());
      const src = { url: new URL(cdn, location.href), bytes: kind === "bytes" && (await bytes()), module: kind === "module" && (await WebAssembly.compile(await bytes())) }[kind];
      try {
        await mod.ready(src === undefined ? undefined : { wasmFull: src });
        return mod.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }).kind;
      } catch (e) {
        return e.code;
      }
    }, kind);
    out[kind] = [r, asked.includes(""), asked.includes("?cdn=1")];
    await page.close();
  }
  assert.deepEqual(out, {
    url: ["wallet1_trade_pay", false, true],
    bytes: ["wallet1_trade_pay", false, true],
    module: ["wallet1_trade_pay", false, true],
    // Without it, the package's own location is asked, and here it is gone.
    none: ["not_ready", true, false],
  });
});

test("a paybridgeWasm global (the early-compile snippet of older versions) is ignored: pay() uses the module the entry carries", async () => {
  const out = {};
  for (const kind of ["the payment module, compiled", "compiling", "rejected", "other module", "resolves to a string", "number"]) {
    const page = await ctx.browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${ctx.server.url}/tests/browser/pages/blank.html`);
    out[kind] = await page.evaluate(async (kind) => {
      const empty = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
      const rejected = Promise.reject(new Error("compile failed"));
      rejected.catch(() => {});
      const compiled = kind.startsWith("the payment") ? await WebAssembly.compileStreaming(fetch("/pkg/paybridge_bg.wasm")) : null;
      self.paybridgeWasm = {
        "the payment module, compiled": compiled,
        compiling: new Promise(() => {}),
        rejected,
        "other module": new WebAssembly.Module(empty),
        "resolves to a string": Promise.resolve("x"),
        number: 42,
      }[kind];
      const mod = await import("/pkg/index.js");
      window.Wallet1JSBridge = { call: (n, p, cb) => cb({ resultCode: "9000" }) };
      const status = (await mod.pay({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } })).status;
      const downloads = performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname === "/pkg/paybridge_bg.wasm").length;
      return { status, downloads };
    }, kind);
    out[kind].errors = errors;
    await page.close();
  }
  for (const [kind, r] of Object.entries(out)) {
    // The page's own download of the module, where it made one; none by the entry.
    assert.deepEqual(r, { status: "succeeded", downloads: kind.startsWith("the payment") ? 1 : 0, errors: [] }, kind);
  }
});

test("pay() downloads the entry alone, one request with the payment module inside; ready() adds the full one", async () => {
  const page = await ctx.browser.newPage();
  const fetched = [];
  page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
  await page.goto(`${ctx.server.url}/tests/browser/pages/blank.html`);
  const r = await page.evaluate(async () => {
    const mod = await import("/pkg/index.js");
    window.Wallet1JSBridge = { call: (n, p, cb) => cb({ resultCode: "9000" }) };
    const paid = (await mod.pay({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } })).status;
    let before;
    try { mod.wallet1AuthUrl({ appId: "a1", redirectUri: "https://m.example/cb", scopes: ["auth_base"], state: "state-0123456789" }); } catch (e) { before = e.code; }
    let classBefore;
    try { new mod.AuthClient({}); } catch (e) { classBefore = e.code; }
    let planBefore;
    try { mod.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }); } catch (e) { planBefore = e.code; }
    const during = performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname);
    await mod.ready();
    const planned = mod.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }).kind;
    const url = mod.wallet1AuthUrl({ appId: "a1", redirectUri: "https://m.example/cb", scopes: ["auth_base"], state: "state-0123456789" });
    const client = new mod.AuthClient({ baseUrl: "https://auth.example", appToken: "a".repeat(40), env: "test", sign: () => "s", verify: () => true });
    return { paid, before, classBefore, planBefore, planned, during, url, isClient: client instanceof mod.AuthClient };
  });
  assert.equal(r.paid, "succeeded");
  assert.equal(r.before, "not_ready");
  assert.equal(r.classBefore, "not_ready");
  assert.equal(r.planBefore, "not_ready");
  assert.equal(r.planned, "wallet1_trade_pay");
  assert.deepEqual(r.during.filter((p) => p.startsWith("/pkg/")), ["/pkg/index.js"], `pay() fetched ${r.during}`);
  assert.ok(r.url.includes("app_id=a1"));
  assert.ok(r.isClient);
  assert.ok(fetched.includes("/pkg/paybridge_full_bg.wasm"));
  await page.close();
});

test("the carried payment module reads the same with the platform's codecs and without them (older runtimes)", async () => {
  const wasm = readFileSync(new URL("../../pkg/paybridge_bg.wasm", import.meta.url));
  // What each runtime lacks: nothing; the base64 codec; DecompressionStream
  // as well (fflate's inflater is fetched for it, and only then). And a
  // DecompressionStream that gives the module in pieces of 1000 bytes.
  for (const lacks of [[], ["fromBase64"], ["fromBase64", "DecompressionStream"], ["one chunk"]]) {
    const page = await ctx.browser.newPage();
    const fetched = [];
    page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
    await page.addInitScript((lacks) => {
      if (lacks.includes("fromBase64")) delete Uint8Array.fromBase64;
      if (lacks.includes("DecompressionStream")) delete globalThis.DecompressionStream;
      if (lacks.includes("one chunk")) {
        const Real = DecompressionStream;
        globalThis.DecompressionStream = function (format) {
          const d = new Real(format);
          const split = new TransformStream({
            transform(c, out) {
              for (let i = 0; i < c.length; i += 1000) out.enqueue(c.slice(i, i + 1000));
            },
          });
          d.readable.pipeTo(split.writable);
          return { writable: d.writable, readable: split.readable };
        };
      }
    }, lacks);
    await page.goto(`${ctx.server.url}/tests/browser/pages/blank.html`);
    const r = await page.evaluate(async () => {
      const has = [typeof Uint8Array.fromBase64, typeof DecompressionStream];
      // What the entry compiled: the module's own bytes, seen through the
      // compiler the page has (the carried copy must be byte for byte the
      // published .wasm).
      const seen = [];
      const Module = WebAssembly.Module;
      WebAssembly.Module = function (bytes) {
        seen.push(Array.from(bytes));
        return new Module(bytes);
      };
      const mod = await import("/pkg/index.js");
      window.Wallet1JSBridge = { call: (n, p, cb) => cb({ resultCode: "9000" }) };
      const paid = (await mod.pay({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } })).status;
      return { has, paid, seen };
    });
    const name = lacks.join(" and ") || "nothing";
    assert.deepEqual(r.has, [lacks.includes("fromBase64") ? "undefined" : "function", lacks.includes("DecompressionStream") ? "undefined" : "function"], name);
    assert.equal(r.paid, "succeeded", name);
    assert.equal(r.seen.length, 1, `${name}: compiled once, from the carried bytes`);
    assert.ok(Buffer.from(r.seen[0]).equals(wasm), `lacking ${name}: the carried bytes differ from pkg/paybridge_bg.wasm`);
    const expected = lacks.includes("DecompressionStream") ? ["/pkg/index.js", "/pkg/inflate.js"] : ["/pkg/index.js"];
    assert.deepEqual(fetched.filter((p) => p.startsWith("/pkg/")), expected, name);
    await page.close();
  }
});

test("a carried module that does not inflate rejects pay() with not_ready, and the next pay() tries again", async () => {
  const page = await ctx.browser.newPage();
  await page.addInitScript(() => {
    const Real = globalThis.DecompressionStream;
    let fail = true;
    globalThis.failInflate = (v) => (fail = v);
    globalThis.DecompressionStream = class extends Real {
      constructor(format) {
        super(format);
        if (fail) throw new TypeError("inflate refused");
      }
    };
  });
  await page.goto(`${ctx.server.url}/tests/browser/pages/blank.html`);
  const r = await page.evaluate(async () => {
    const mod = await import("/pkg/index.js");
    let called = 0;
    window.Wallet1JSBridge = { call: (n, p, cb) => (called++, cb({ resultCode: "9000" })) };
    const payment = { pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } };
    const first = await mod.pay(payment).then(
      (v) => v.status,
      (e) => [e instanceof mod.PayError, e.code, e.field, e.message, e.cause?.message],
    );
    const calledBefore = called;
    failInflate(false);
    const second = (await mod.pay(payment)).status;
    return { first, calledBefore, second, called };
  });
  assert.deepEqual(r.first.slice(0, 3), [true, "not_ready", "wasm"]);
  assert.match(r.first[3], /could not be loaded: inflate refused/);
  assert.equal(r.first[4], "inflate refused");
  assert.deepEqual([r.calledBefore, r.second, r.called], [0, "succeeded", 1]);
  await page.close();
});

test("a carried module whose stream fails part-way rejects pay() with not_ready, with no unhandled rejection, and the next pay() tries again", async () => {
  const page = await ctx.browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.addInitScript(() => {
    // The stream is created and written as always, and fails on the data:
    // it reads a zlib header the carried raw deflate stream does not have.
    const Real = globalThis.DecompressionStream;
    let fail = true;
    globalThis.failInflate = (v) => (fail = v);
    globalThis.unhandled = [];
    addEventListener("unhandledrejection", (e) => unhandled.push(String(e.reason)));
    globalThis.DecompressionStream = class extends Real {
      constructor(format) {
        super(fail ? "deflate" : format);
      }
    };
  });
  await page.goto(`${ctx.server.url}/tests/browser/pages/blank.html`);
  const r = await page.evaluate(async () => {
    const mod = await import("/pkg/index.js");
    let called = 0;
    window.Wallet1JSBridge = { call: (n, p, cb) => (called++, cb({ resultCode: "9000" })) };
    const payment = { pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } };
    const first = await mod.pay(payment).then(
      (v) => v.status,
      (e) => [e instanceof mod.PayError, e.code, e.field, /could not be loaded/.test(e.message), e.cause instanceof TypeError],
    );
    // Settled rejections are reported after a task: wait two.
    await new Promise((r) => setTimeout(r, 20));
    const unhandledThen = [...unhandled];
    const calledBefore = called;
    failInflate(false);
    const second = (await mod.pay(payment)).status;
    return { first, unhandledThen, calledBefore, second, called };
  });
  assert.deepEqual(r.first, [true, "not_ready", "wasm", true, true]);
  assert.deepEqual(r.unhandledThen, []);
  assert.deepEqual(errors, []);
  assert.deepEqual([r.calledBefore, r.second, r.called], [0, "succeeded", 1]);
  await page.close();
});

test("confirm runs in the full module, fetched once the wallet is called; where it cannot be, pay() is confirm_failed with the wallet's result", async () => {
  const page = await ctx.browser.newPage();
  // Each request for the full module: whether the wallet had been called
  // when it was made, and whether it is served.
  const asked = [];
  let serve = true;
  await page.route("**/paybridge_full_bg.*", async (route) => {
    asked.push([new URL(route.request().url()).pathname.split("/").pop(), await page.evaluate(() => window.calls.length)]);
    return serve ? route.continue() : route.abort();
  });
  await page.goto(`${ctx.server.url}/tests/browser/pages/blank.html`);
  const pay = (tradeNO, confirm, late) =>
    page.evaluate(
      async ([tradeNO, confirm, late]) => {
        const mod = (window.mod ??= await import("/pkg/index.js"));
        window.calls ??= [];
        window.Wallet1JSBridge = {
          call: (n, p, cb) => {
            window.calls.push(p.tradeNO);
            // an answer during the call, or one after it has returned
            if (late) setTimeout(() => cb({ resultCode: "9000" }), 50);
            else cb({ resultCode: "9000" });
          },
        };
        const seen = [];
        const events = [];
        const options = { onEvent: (e) => events.push(e.type) };
        // A second payment while confirm is awaited is busy.
        const busy = [];
        if (confirm === "ok")
          options.confirm = async (payment, hint) => {
            busy.push(await mod.pay({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "X" } }).then(() => "paid", (e) => e.code));
            seen.push([payment.pay_info.tradeNO, hint.status, hint.verified, hint.raw.resultCode]);
            return "succeeded";
          };
        if (confirm === "down") options.confirm = async () => { throw new Error("server down"); };
        try {
          const r = await mod.pay({ pay_channel: "wallet1_pub", pay_info: { tradeNO } }, options);
          return { ok: [r.status, r.verified, r.code, r.message], seen, events, busy };
        } catch (e) {
          return {
            failed: { isPayError: e instanceof mod.PayError, code: e.code, field: e.field, message: e.message, cause: e.cause?.message ?? String(e.cause), result: [e.result?.status, e.result?.verified, e.result?.code, e.result?.raw?.resultCode] },
            seen,
            events,
          };
        }
      },
      [tradeNO, confirm, late],
    );

  serve = false;
  const down = await pay("T1", "ok", true);
  assert.deepEqual(down.seen, [], "confirm is not called");
  assert.equal(down.failed.isPayError, true);
  assert.deepEqual([down.failed.code, down.failed.field], ["confirm_failed", "confirm"]);
  assert.match(down.failed.message, /confirm hook was not called/);
  assert.ok(down.failed.cause && down.failed.cause !== "undefined", "the load's error is the cause");
  assert.deepEqual(down.failed.result, ["succeeded", false, "9000", "9000"], "the wallet's answer is not lost");
  assert.deepEqual(asked.map((a) => a[1]), asked.map(() => 1), `the full module was asked for after the wallet's call only: ${JSON.stringify(asked)}`);
  assert.ok(asked.length > 0);

  // The payment slot is free again; a payment without confirm needs nothing more.
  asked.length = 0;
  const plain = await pay("T2", null, false);
  assert.deepEqual(plain.ok.slice(0, 3), ["succeeded", false, "9000"]);
  assert.deepEqual(asked, [], "no confirm, no full module");

  // Served now: the same page confirms, with an answer during the call and
  // with one after it.
  serve = true;
  const during = await pay("T3", "ok", false);
  assert.deepEqual(during.ok, ["succeeded", true, "9000", "confirmed by the merchant's server"]);
  assert.deepEqual(during.seen, [["T3", "succeeded", false, "9000"]]);
  assert.deepEqual(during.busy, ["busy"]);
  assert.deepEqual(during.events.slice(-3), ["called", "callback", "result"]);
  assert.ok(asked.length > 0 && asked.every((a) => a[1] === 3), JSON.stringify(asked));
  const after = await pay("T4", "ok", true);
  assert.deepEqual(after.ok.slice(0, 2), ["succeeded", true]);
  const failing = await pay("T5", "down", true);
  assert.deepEqual([failing.failed.code, failing.failed.field, failing.failed.cause], ["confirm_failed", "confirm", "server down"]);
  assert.deepEqual(failing.failed.result, ["succeeded", false, "9000", "9000"]);
  const counts = await page.evaluate(() => debugCounts(window.mod));
  assert.deepEqual(counts, { listeners: 0, waiters: 0, retained: 0 });
  await page.close();
});
