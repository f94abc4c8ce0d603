// Wallets and pages that misbehave, in headless Chromium through the built
// package (beyond tests/browser/pay.test.mjs, which covers a callback that
// fires twice, a throwing bridge, a bridge without its method, a throwing
// or silent confirm, a second pay() in flight, and a page hidden and shown
// again with no callback).
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser, openHarness, onClock, wallet1Pub, wallet2Pub } from "../tools/harness.mjs";

const ctx = useBrowser();

const harness = (context = ctx.browser) => openHarness(ctx, { context });


test("a callback with a garbage argument gives failed, never a trap or a hang", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    const throwing = { get resultCode() { throw new Error("getter"); } };
    const garbage = { null: null, undefined: undefined, number: 42, string: "9000", symbol: Symbol("x"), bigint: 10n, fn: () => 1, array: ["9000"], throwing, proxy: new Proxy({}, { get() { throw new Error("trap"); }, ownKeys() { throw new Error("trap"); } }) };
    const out = {};
    for (const [name, arg] of Object.entries(garbage)) {
      window[profile.wallet1.bridge] = { call: (n, params, cb) => cb(arg) };
      try {
        const res = await Promise.race([pb.pay(p), new Promise((_, no) => setTimeout(() => no(new Error("hang")), 2000))]);
        out[name] = res.status;
      } catch (e) {
        out[name] = `${e.name}: ${e.code ?? e.message}`;
      }
    }
    return out;
  }, wallet1Pub);
  assert.deepEqual(r, Object.fromEntries(Object.keys(r).map((k) => [k, "failed"])));
});

test("a Proxy whose traps throw, as payment, options or answer, is a PayError and leaves the module working", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    const proxy = new Proxy({}, { get() { throw new Error("get"); }, ownKeys() { throw new Error("ownKeys"); } });
    const { proxy: revoked, revoke } = Proxy.revocable([], {});
    revoke();
    const list = new Proxy([1, 2], { get(t, k) { if (k === "length") throw new Error("length"); return t[k]; } });
    const out = [];
    const attempt = async (what, f) => {
      try {
        const v = await Promise.race([f(), new Promise((_, no) => setTimeout(() => no(new Error("hang")), 2000))]);
        out.push([what, v?.status ?? v?.kind ?? "value"]);
      } catch (e) {
        out.push([what, e instanceof pb.PayError ? e.code : `${e.name}: ${e.message}`]);
      }
    };
    await attempt("planAction proxy payment", () => pb.planAction(proxy));
    await attempt("planAction revoked payment", () => pb.planAction(revoked));
    await attempt("planAction proxy options", () => pb.planAction(p, proxy));
    await attempt("planAction list proxy", () => pb.planAction({ ...p, extra: list }));
    await attempt("pay proxy payment", () => pb.pay(proxy));
    await attempt("pay revoked options", () => pb.pay(p, revoked));
    for (const answer of [proxy, revoked, list]) {
      window[profile.wallet1.bridge] = { call: (n, params, cb) => cb(answer) };
      await attempt("pay proxy answer", () => pb.pay(p));
    }
    window[profile.wallet1.bridge] = { call: (n, params, cb) => cb({ resultCode: "9000" }) };
    await attempt("pay afterwards", () => pb.pay(p));
    return { out, counts: debugCounts(pb) };
  }, wallet1Pub);
  assert.deepEqual(r.out, [
    ["planAction proxy payment", "invalid_payment"],
    ["planAction revoked payment", "invalid_payment"],
    ["planAction proxy options", "invalid_options"],
    ["planAction list proxy", "invalid_payment"],
    ["pay proxy payment", "invalid_payment"],
    ["pay revoked options", "invalid_options"],
    ["pay proxy answer", "failed"],
    ["pay proxy answer", "failed"],
    ["pay proxy answer", "failed"],
    ["pay afterwards", "succeeded"],
  ]);
  assert.deepEqual({ listeners: r.counts.listeners, waiters: r.counts.waiters }, { listeners: 0, waiters: 0 });
});

test("a callback whose answer is huge or cyclic still reports the wallet's code", async () => {
  const page = await harness();
  const r = await page.evaluate(async ([p1, p2]) => {
    const profile = pb.defaultProfile();
    const huge = { resultCode: "9000", blob: Object.fromEntries(Array.from({ length: 30000 }, (_, i) => [`k${i}`, i])) };
    const cyclic = { resultCode: "6001" };
    cyclic.self = cyclic;
    const deep = { err_msg: "getBrandPayRequest:ok" };
    let d = deep;
    for (let i = 0; i < 200; i++) d = d.next = {};
    const out = [];
    for (const arg of [huge, cyclic]) {
      window[profile.wallet1.bridge] = { call: (n, params, cb) => cb(arg) };
      const res = await pb.pay(p1);
      out.push([res.status, res.code, res.raw === arg]);
    }
    window[profile.wallet2.bridge] = { invoke: (m, params, cb) => cb(deep) };
    const res = await pb.pay(p2);
    out.push([res.status, res.code, res.raw === deep]);
    return out;
  }, [wallet1Pub, wallet2Pub]);
  assert.deepEqual(r, [
    ["succeeded", "9000", true],
    ["cancelled", "6001", true],
    ["succeeded", "getBrandPayRequest:ok", true],
  ]);
});

test("a bridge that calls back inside call() and then throws: the wallet's answer counts", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    window[profile.wallet1.bridge] = {
      call: (n, params, cb) => {
        cb({ resultCode: "9000" });
        throw new Error("bridge bookkeeping failed after the callback");
      },
    };
    try {
      const res = await pb.pay(p, { onEvent: record });
      return { status: res.status, code: res.code, events: events.map((e) => e.type) };
    } catch (e) {
      return { error: e.code, message: e.message };
    }
  }, wallet1Pub);
  assert.equal(r.status, "succeeded", JSON.stringify(r));
  assert.equal(r.code, "9000");
  assert.ok(r.events.includes("callback"));
});

test("the ready event fired twice calls the wallet once", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    let calls = 0;
    const paying = pb.pay(p, { runtime: { host: "wallet1", mobile: true } });
    await new Promise((r) => setTimeout(r, 50));
    window[profile.wallet1.bridge] = { call: (n, params, cb) => { calls++; setTimeout(() => cb({ resultCode: "9000" }), 20); } };
    document.dispatchEvent(new Event(profile.wallet1.readyEvent));
    document.dispatchEvent(new Event(profile.wallet1.readyEvent));
    const res = await paying;
    document.dispatchEvent(new Event(profile.wallet1.readyEvent));
    await new Promise((r) => setTimeout(r, 50));
    return { status: res.status, calls, counts: debugCounts(pb) };
  }, wallet1Pub);
  assert.equal(r.status, "succeeded");
  assert.equal(r.calls, 1);
  assert.equal(r.counts.listeners, 0);
  assert.equal(r.counts.waiters, 0);
});

test("a ready event with no bridge behind it keeps waiting; the bridge present at the call is the one called", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    const name = profile.wallet1.bridge;
    const used = [];
    const paying = pb.pay(p, { runtime: { host: "wallet1", mobile: true }, timeoutMs: 3000 });
    await new Promise((r) => setTimeout(r, 30));
    // The event fires while the global is missing: nothing to call yet.
    document.dispatchEvent(new Event(profile.wallet1.readyEvent));
    await new Promise((r) => setTimeout(r, 30));
    // A page script swaps the bridge during the next event's dispatch,
    // before the module's listener runs: the current object is called.
    window[name] = { call: () => used.push("old") };
    const swap = () => { window[name] = { call: (n, params, cb) => { used.push("new"); cb({ resultCode: "6001" }); } }; };
    document.addEventListener(profile.wallet1.readyEvent, swap, { capture: true, once: true });
    document.dispatchEvent(new Event(profile.wallet1.readyEvent));
    const res = await paying;
    return { status: res.status, used };
  }, wallet1Pub);
  assert.deepEqual(r, { status: "cancelled", used: ["new"] });
});

test("a bridge replaced by a non-object before the ready event ends in bridge_timeout, not a call on null", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    const paying = pb.pay(p, { runtime: { host: "wallet2", mobile: true }, timeoutMs: 300 });
    window[profile.wallet2.bridge] = 42;
    document.dispatchEvent(new Event(profile.wallet2.readyEvent));
    try { await paying; return "paid"; } catch (e) { return { code: e.code, counts: debugCounts(pb) }; }
  }, wallet2Pub);
  assert.equal(r.code, "bridge_timeout");
  assert.equal(r.counts.listeners, 0);
});

test("a bridge whose method is a throwing getter or a Proxy is a bridge_error", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    const out = [];
    for (const b of [{ get call() { throw new Error("getter"); } }, new Proxy({}, { get() { throw new Error("proxy"); } }), { call: "not a function" }]) {
      window[profile.wallet1.bridge] = b;
      try { await pb.pay(p); out.push("paid"); } catch (e) { out.push(e.code); }
    }
    return out;
  }, wallet1Pub);
  assert.deepEqual(r, ["bridge_error", "bridge_error", "bridge_error"]);
});

test("onEvent that calls pay() again gets busy, and the first payment goes on", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    window[profile.wallet1.bridge] = { call: (n, params, cb) => setTimeout(() => cb({ resultCode: "9000" }), 20) };
    const inner = [];
    const onEvent = (e) => {
      if (e.type === "planned" || e.type === "called" || e.type === "callback") {
        inner.push(pb.pay(p).then((r) => `paid ${r.status}`, (err) => `${e.type}: ${err.code}`));
      }
    };
    const outer = await Promise.race([pb.pay(p, { onEvent }), new Promise((_, no) => setTimeout(() => no(new Error("deadlock")), 3000))]);
    return { outer: outer.status, inner: await Promise.all(inner), again: (await pb.pay(p)).status };
  }, wallet1Pub);
  assert.equal(r.outer, "succeeded");
  assert.deepEqual(r.inner, ["planned: busy", "called: busy", "callback: busy"]);
  assert.equal(r.again, "succeeded");
});

test("onEvent that calls pay() on the result event still gets busy: the payment ends after it", async () => {
  const page = await harness();
  const r = await page.evaluate(async (p) => {
    const profile = pb.defaultProfile();
    window[profile.wallet1.bridge] = { call: (n, params, cb) => cb({ resultCode: "9000" }) };
    let inner;
    const outer = await pb.pay(p, { onEvent: (e) => { if (e.type === "result") inner = pb.pay(p).then((r) => r.status, (err) => err.code); } });
    return { outer: outer.status, inner: await inner };
  }, wallet1Pub);
  assert.deepEqual(r, { outer: "succeeded", inner: "busy" });
});

test("two tabs paying at once in the same browser context are independent", async () => {
  const context = await ctx.browser.newContext();
  const [a, b] = await Promise.all([harness(context), harness(context)]);
  // One clock for the context, both tabs on it (Playwright's clock is the
  // context's).
  const at = await onClock(a);
  const payIn = (page, code, delay) =>
    page.evaluate(
      ([p, code, delay]) => {
        const profile = pb.defaultProfile();
        window[profile.wallet1.bridge] = { call: (n, params, cb) => setTimeout(() => cb({ resultCode: code }), delay) };
        const t0 = performance.now();
        pb.pay(p).then(
          (res) => (window.done = { status: res.status, code: res.code, took: performance.now() - t0 }),
          (e) => (window.done = { error: e.code }),
        );
      },
      [wallet1Pub, code, delay],
    );
  await payIn(a, "9000", 400);
  await payIn(b, "6001", 300);
  // Tab b's wallet answers while tab a's payment is still in flight: b
  // ends then, a still waits, and ends when its own wallet answers.
  assert.equal(await at(300), undefined);
  assert.deepEqual(await b.evaluate(() => window.done), { status: "cancelled", code: "6001", took: 300 });
  assert.deepEqual(await at(400), { status: "succeeded", code: "9000", took: 400 });
  await context.close();
});
