// What the browser tests share: one static server and one Chromium for a
// test file, the harness page (the built package loaded as a plain module
// script), the listener bookkeeping, and the payments most tests pay.
import { before, after } from "node:test";
import { serve } from "./server.mjs";
import { launch } from "./chromium.mjs";

/** Starts the server and the browser before the file's tests and stops them after. */
export function useBrowser() {
  const ctx = { server: null, browser: null };
  before(async () => {
    ctx.server = await serve();
    ctx.browser = await launch();
  });
  after(async () => {
    await ctx.browser?.close();
    await ctx.server?.close();
  });
  return ctx;
}

/** Installed before any page script: live document listeners by type (`liveListeners()`). */
export function countListeners() {
  const live = new Map();
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    if (this === document) live.set(type, (live.get(type) ?? 0) + 1);
    return add.call(this, type, fn, opts);
  };
  EventTarget.prototype.removeEventListener = function (type, fn, opts) {
    if (this === document) live.set(type, (live.get(type) ?? 0) - 1);
    return remove.call(this, type, fn, opts);
  };
  window.liveListeners = () => Object.fromEntries([...live].filter(([, n]) => n !== 0));
}

/** A fresh page on the harness (`window.pb` is the package), with the listener count when asked. */
export async function openHarness(ctx, { context = ctx.browser, listeners = false } = {}) {
  const page = await context.newPage();
  if (listeners) await page.addInitScript(countListeners);
  await page.goto(`${ctx.server.url}/tests/browser/pages/harness.html`);
  await page.waitForFunction(() => window.loaded);
  return page;
}

export const W2 = { appId: "wxapp", timeStamp: "1700000000", nonceStr: "n", package: "prepay_id=1", signType: "RSA", paySign: "sig" };
export const wallet1Pub = { pay_channel: "wallet1_pub", pay_info: { tradeNO: "T100" } };
export const wallet2Pub = { pay_channel: "wallet2_pub", pay_info: W2 };

/**
 * Puts `page` on the test's clock (Playwright's page.clock, which is its
 * context's: every page of the context is on it; the page's
 * timers, Date and performance.now are fake from here on) and answers
 * `at(ms)`: moves that clock, paused, to `ms` after this call and answers what the
 * page has stored in `window.done` by then. Time-outs are tested with it,
 * exactly, instead of against the wall clock.
 */
export async function onClock(page) {
  // Installed, then paused: no time passes in the page but what at() runs.
  const start = Date.UTC(2026, 0, 1);
  await page.clock.install({ time: start });
  await page.clock.pauseAt(start + 1000);
  let now = 0;
  return async (ms) => {
    await page.clock.runFor(ms - now);
    now = ms;
    return page.evaluate(() => window.done);
  };
}
