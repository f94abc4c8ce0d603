// Nothing is left behind by payments that end badly: after 1,000 pay()
// calls that time out (no bridge, timeoutMs: 1) and 1,000 that fail (a
// throwing bridge), no document listener, no timer and no waiter remains,
// the module retains no wallet callback (a late one is refused by the
// run's end: src/security.rs), and wasm memory is the same after 1,000
// more of each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser } from "../tools/harness.mjs";

const ctx = useBrowser();

test("1,000 timed-out and 1,000 failed payments leave no listener, timer or closure, and memory stays flat", async () => {
  const page = await ctx.browser.newPage();
  await page.addInitScript(() => {
    // Live document listeners by type, and live timers, counted from the
    // first script on.
    const listeners = new Map();
    const add = EventTarget.prototype.addEventListener;
    const remove = EventTarget.prototype.removeEventListener;
    EventTarget.prototype.addEventListener = function (type, fn, opts) {
      if (this === document) listeners.set(type, (listeners.get(type) ?? 0) + 1);
      return add.call(this, type, fn, opts);
    };
    EventTarget.prototype.removeEventListener = function (type, fn, opts) {
      if (this === document) listeners.set(type, (listeners.get(type) ?? 0) - 1);
      return remove.call(this, type, fn, opts);
    };
    const timers = new Set();
    const set = window.setTimeout;
    const clear = window.clearTimeout;
    let made = 0;
    window.setTimeout = function (fn, ms, ...args) {
      const id = set.call(window, (...a) => {
        timers.delete(id);
        return typeof fn === "function" ? fn(...a) : undefined;
      }, ms, ...args);
      timers.add(id);
      made++;
      return id;
    };
    window.clearTimeout = function (id) {
      timers.delete(id);
      return clear.call(window, id);
    };
    window.live = () => ({
      listeners: Object.fromEntries([...listeners].filter(([, n]) => n !== 0)),
      timers: timers.size,
      made,
    });
  });
  await page.goto(`${ctx.server.url}/tests/browser/pages/harness.html`);
  await page.waitForFunction(() => window.loaded);
  const r = await page.evaluate(async () => {
    const profile = pb.defaultProfile();
    const payment = { pay_channel: "wallet1_pub", pay_info: { tradeNO: "T100" } };
    const codes = {};
    const count = (code) => (codes[code] = (codes[code] ?? 0) + 1);
    const timeouts = async (n) => {
      delete window[profile.wallet1.bridge];
      for (let i = 0; i < n; i++) {
        try {
          await pb.pay(payment, { runtime: { host: "wallet1" }, timeoutMs: 1, onEvent: () => {} });
          count("paid");
        } catch (e) {
          count(e.code);
        }
      }
    };
    const failures = async (n) => {
      window[profile.wallet1.bridge] = { call: () => { throw new Error("bridge broke"); } };
      for (let i = 0; i < n; i++) {
        try {
          await pb.pay(payment, { onEvent: () => {} });
          count("paid");
        } catch (e) {
          count(e.code);
        }
      }
    };
    // Let the timers of the last payment fire or clear before counting.
    const settle = () => new Promise((r) => setTimeout(r, 50));
    await timeouts(1000);
    await failures(1000);
    await settle();
    const first = { live: live(), debug: debugCounts(pb), memory: wasmMemoryBytes(pb) };
    await timeouts(1000);
    await failures(1000);
    await settle();
    const second = { live: live(), debug: debugCounts(pb), memory: wasmMemoryBytes(pb) };
    return { codes, first, second };
  });
  assert.deepEqual(r.codes, { bridge_timeout: 2000, bridge_error: 2000 });
  for (const at of [r.first, r.second]) {
    assert.deepEqual(at.live.listeners, {}, "document listeners left");
    assert.equal(at.live.timers, 0, "timers left");
    assert.deepEqual(at.debug, { listeners: 0, waiters: 0, retained: 0 });
  }
  assert.ok(r.second.live.made - r.first.live.made >= 1000, "the timed-out payments used timers");
  assert.equal(r.second.memory, r.first.memory, `wasm memory grew from ${r.first.memory} to ${r.second.memory} bytes`);
  console.log(`wasm memory ${r.first.memory} bytes after 2,000 payments, ${r.second.memory} after 4,000; timers made ${r.second.live.made}`);
  await page.close();
});

test("the payment module's heap is taken back when the next payment starts: large inputs, and a wallet that calls back 20,000 times, leave its memory flat", async () => {
  const page = await ctx.browser.newPage();
  await page.goto(`${ctx.server.url}/tests/browser/pages/blank.html`);
  const r = await page.evaluate(async () => {
    const mod = await import("/pkg/index.js");
    const big = "x".repeat(200_000);
    const payment = {
      pay_channel: "wallet1_pub",
      pay_info: { tradeNO: "T100" },
      note: big,
      lines: Array.from({ length: 2000 }, (_, i) => ({ i, sku: `sku-${i}` })),
    };
    const answer = { resultCode: "9000", memo: big, errorMessage: big.slice(0, 50_000) };
    const statuses = {};
    const round = async (n) => {
      window.Wallet1JSBridge = { call: (op, params, cb) => cb(answer) };
      for (let i = 0; i < n; i++) {
        const res = await mod.pay(payment, { onEvent: () => {}, allowedHosts: ["*.example.com"] });
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    };
    await round(20);
    const first = wasmMemoryBytes(mod);
    await round(200);
    const second = wasmMemoryBytes(mod);
    // A wallet that calls back 20,000 times while it is called, each time
    // with a 250 KB answer: the first counts and is read, the others are
    // reported as callback_ignored and not read (5 GB if they were).
    let ignored = 0;
    window.Wallet1JSBridge = {
      call: (op, params, cb) => {
        for (let i = 0; i < 20_000; i++) cb(answer);
      },
    };
    const spam = await mod.pay(payment, { onEvent: (e) => (ignored += e.type === "callback_ignored") });
    const third = wasmMemoryBytes(mod);
    await round(20);
    const fourth = wasmMemoryBytes(mod);
    return { statuses, first, second, third, fourth, ignored, spam: [spam.status, spam.code], counts: debugCounts(mod) };
  });
  assert.deepEqual(r.statuses, { succeeded: 240 });
  assert.deepEqual(r.spam, ["succeeded", "9000"]);
  assert.equal(r.ignored, 19_999);
  assert.equal(r.second, r.first, `wasm memory grew from ${r.first} to ${r.second} bytes over 200 payments`);
  assert.ok(r.third - r.first <= 1 << 20, `the wallet's 20,000 callbacks grew wasm memory from ${r.first} to ${r.third} bytes`);
  assert.equal(r.fourth, r.third);
  assert.deepEqual(r.counts, { listeners: 0, waiters: 0, retained: 0 });
  console.log(`payment module memory ${r.first} bytes after 20 payments of 0.2 MB, ${r.second} after 220, ${r.fourth} after 20,000 callbacks and 20 more`);
  await page.close();
});
