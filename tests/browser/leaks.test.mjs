// Nothing is left behind by payments that end badly: after 1,000 pay()
// calls that time out (no bridge, timeoutMs: 1) and 1,000 that fail (a
// throwing bridge), no document listener, no timer and no waiter remains,
// the module retains at most its ring of 32 retired wallet callbacks, and
// wasm memory is the same after 1,000 more of each.
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
    const first = { live: live(), debug: pb.__debugCounts(), memory: pb.__wasmMemoryBytes() };
    await timeouts(1000);
    await failures(1000);
    await settle();
    const second = { live: live(), debug: pb.__debugCounts(), memory: pb.__wasmMemoryBytes() };
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
