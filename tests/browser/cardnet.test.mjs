// cardnetPay on a real page in Debian's Chromium: the harness page is opened
// as the card network's callback (respCode, userAuthCode and the state in
// its query), the merchant's order goes to a route of the test server, and
// the cashier (https://cashier.cardnet.example/...) is intercepted and
// fulfilled with a small page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serve } from "../tools/server.mjs";
import { launch } from "../tools/chromium.mjs";

const STATE = "st-ABC_123.xyz~";
const CASHIER = "https://cashier.cardnet.example/pay?order=A1&sig=x%2By";
const CASHIER_HOST = "https://cashier.cardnet.example/";

let server;
let browser;
const orders = []; // userAuthCode received by the merchant's order route

before(async () => {
  server = await serve({
    routes: {
      // The merchant's server: orders with the card-network code and answers
      // the payment whose expend.pay_url the page goes to.
      "/api/order": (req, res) => {
        const q = new URL(req.url, "http://x").searchParams;
        orders.push(q.get("userAuthCode"));
        const payUrl = q.get("payUrl") ?? CASHIER;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ pay_channel: "cardnet", order_no: "A1", expend: { pay_url: payUrl } }));
      },
    },
  });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A page opened as the card network's callback; `cashierHits` counts
 * requests that reached the cashier. With `hold`, the cashier answers only
 * once that promise settles (or after 5 s): until then the navigation does
 * not commit and the page that pays stays alive. */
async function callbackPage(query, { hold = null } = {}) {
  const page = await browser.newPage();
  const cashierHits = [];
  await page.route(`${CASHIER_HOST}**`, async (route) => {
    cashierHits.push(route.request().url());
    if (hold) await Promise.race([hold, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    return route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>cashier</title><h1>Card network cashier</h1>" });
  });
  const url = `${server.url}/tests/browser/pages/harness.html?${query}`;
  await page.goto(url);
  await page.evaluate(() => window.loaded);
  return { page, url, cashierHits };
}

/** Runs cardnetPay in the page with `order` built from `orderSrc` (a
 * function body, run in the page) and answers the rejection's fields. */
async function payFails(page, { orderSrc, options = {}, kept = null, from = null }) {
  return page.evaluate(
    async ({ orderSrc, options, kept, from }) => {
      const order = new Function("userAuthCode", orderSrc);
      const cb = kept ? { ...window.pb.parseAuthCallback(from ?? location.href), ...kept } : location.href;
      try {
        await window.pb.cardnetPay(cb, { ...options, order });
        return { resolved: true };
      } catch (e) {
        return {
          isPayError: e instanceof window.pb.PayError,
          code: e.code,
          field: e.field,
          respCode: e.respCode,
          message: e.message,
          cause: e.cause ? { name: e.cause.name, message: e.cause.message } : null,
        };
      }
    },
    { orderSrc, options, kept, from },
  );
}

/** The callback page's address once cardnetPay has taken the callback: its parameters gone. */
const taken = () => `${server.url}/tests/browser/pages/harness.html`;

const FRESH = `state=${encodeURIComponent(STATE)}&respCode=00&userAuthCode=uac%2B1`;

test("a fresh callback orders with its code and lands on expend.pay_url", async () => {
  // The result comes through a binding, sent as the page navigates away. A
  // binding call from a page whose navigation has committed can be dropped,
  // so the cashier answers only once the result is in.
  let reported;
  const report = new Promise((resolve) => (reported = resolve));
  const { page, cashierHits } = await callbackPage(FRESH, { hold: report });
  await page.exposeFunction("report", (r) => reported(r));
  orders.length = 0;
  await Promise.all([
    page.waitForURL(CASHIER),
    page.evaluate(
      (state) => {
        const events = [];
        window.pb
          .cardnetPay(location.href, {
            expectedState: state,
            allowedHosts: ["*.cardnet.example"],
            order: (code) => fetch(`/api/order?userAuthCode=${encodeURIComponent(code)}`).then((r) => r.json()),
            onEvent: (e) => events.push(e.type),
          })
          .then((r) => window.report({ ...r, events }), (e) => window.report({ error: e.code, message: e.message }));
      },
      STATE,
    ),
  ]);
  assert.equal(page.url(), CASHIER);
  assert.equal(await page.textContent("h1"), "Card network cashier");
  assert.deepEqual(orders, ["uac+1"], "the merchant got the decoded userAuthCode");
  assert.deepEqual(cashierHits, [CASHIER]);
  const { message, ...rest } = await Promise.race([report, new Promise((_, reject) => setTimeout(() => reject(new Error("no result reported in 5 s")), 5000).unref())]);
  assert.equal(typeof message, "string");
  assert.deepEqual(rest, {
    status: "redirected",
    channel: "cardnet",
    verified: false,
    raw: { pay_channel: "cardnet", order_no: "A1", expend: { pay_url: CASHIER } },
    events: ["callback", "called", "planned", "navigating", "result"],
  });
  await page.close();
});

test("a stale callback rejects auth_expired; no order, no navigation", async () => {
  const { page, url, cashierHits } = await callbackPage(FRESH);
  // The page kept the callback and comes back to it 5 minutes later.
  const r = await payFails(page, { orderSrc: "window.ordered = true; return {};", kept: { receivedAt: Date.now() - 300_000 } });
  assert.equal(r.isPayError, true);
  assert.equal(r.code, "auth_expired", r.message);
  assert.equal(r.field, "userAuthCode");
  assert.match(r.message, /valid for 5 minutes/);
  assert.equal(await page.evaluate(() => window.ordered), undefined, "order was not called");
  assert.equal(page.url(), url);
  assert.deepEqual(cashierHits, []);
  // One millisecond inside the five minutes it still goes (the boundary is exact).
  const now = Date.now();
  const ok = await page.evaluate(
    async ({ now }) => {
      const cb = { ...window.pb.parseAuthCallback(location.href), receivedAt: now - 299_999 };
      return window.pb.isUserAuthCodeFresh(cb, now) && !window.pb.isUserAuthCodeFresh({ ...cb, receivedAt: now - 300_000 }, now);
    },
    { now },
  );
  assert.equal(ok, true);
  await page.close();
});

test("respCode 34 rejects auth_failed", async () => {
  const { page, url, cashierHits } = await callbackPage("respCode=34&userAuthCode=u1");
  const r = await payFails(page, { orderSrc: "window.ordered = true; return {};" });
  assert.equal(r.code, "auth_failed", r.message);
  assert.equal(r.field, "respCode");
  assert.equal(r.respCode, "34", "the provider's code is a property: a page branches without reading the message");
  assert.match(r.message, /respCode is 34/);
  assert.equal(await page.evaluate(() => window.ordered), undefined);
  assert.equal(page.url(), url);
  assert.deepEqual(cashierHits, []);
  await page.close();
});

test("a state that differs rejects auth_failed on state", async () => {
  const { page, url } = await callbackPage(FRESH);
  const r = await payFails(page, { orderSrc: "window.ordered = true; return {};", options: { expectedState: "another-state" } });
  assert.equal(r.code, "auth_failed", r.message);
  assert.equal(r.field, "state");
  assert.equal(await page.evaluate(() => window.ordered), undefined);
  assert.equal(page.url(), url);
  await page.close();
});

test("an order that throws rejects transport and keeps the cause", async () => {
  const { page, url, cashierHits } = await callbackPage(FRESH);
  const r = await payFails(page, { orderSrc: 'throw new TypeError("merchant server unreachable");' });
  assert.equal(r.isPayError, true);
  assert.equal(r.code, "transport", r.message);
  assert.equal(r.field, "order");
  assert.deepEqual(r.cause, { name: "TypeError", message: "merchant server unreachable" });
  assert.match(r.message, /merchant server unreachable/);
  // The code went to order: it is used, whatever order did with it (the
  // merchant's server may have ordered before failing), so it is not sent
  // again; a new callback's code is.
  const again = await payFails(page, { orderSrc: "window.ordered = true; return {};" });
  assert.equal(again.code, "auth_used", again.message);
  assert.equal(await page.evaluate(() => window.ordered), undefined);
  const rejected = await payFails(page, { orderSrc: 'return Promise.reject(new RangeError("HTTP 502"));', from: url, kept: { userAuthCode: "uac-2" } });
  assert.equal(rejected.code, "transport");
  assert.deepEqual(rejected.cause, { name: "RangeError", message: "HTTP 502" });
  assert.equal(page.url(), taken(), "the page stayed; the callback's parameters left the address bar before order was called");
  assert.deepEqual(cashierHits, []);
  await page.close();
});

test("an order that never answers rejects transport after confirmTimeoutMs and frees the next payment", async () => {
  const { page, url, cashierHits } = await callbackPage(FRESH);
  const t0 = Date.now();
  const r = await payFails(page, { orderSrc: "return new Promise(() => {});", options: { confirmTimeoutMs: 300 } });
  const took = Date.now() - t0;
  assert.equal(r.code, "transport", r.message);
  assert.equal(r.field, "order");
  assert.match(r.message, /did not answer within 300 ms/);
  assert.ok(took < 2000, `took ${took} ms`);
  // The in-flight guard (shared by the full module's payments) was
  // released: the next cardnetPay reaches its order, not `busy`.
  const next = await payFails(page, { orderSrc: 'throw new Error("second order reached");', from: url, kept: { userAuthCode: "uac-2" } });
  assert.equal(next.code, "transport", next.message);
  assert.match(next.message, /second order reached/);
  assert.equal(page.url(), taken());
  assert.deepEqual(cashierHits, []);
  await page.close();
});

test("an order giving a javascript: pay_url rejects unsafe_url and stays", async () => {
  const { page, url, cashierHits } = await callbackPage(FRESH);
  const r = await payFails(page, {
    orderSrc: 'return { pay_channel: "cardnet", expend: { pay_url: "javascript:window.hijacked=1" } };',
  });
  assert.equal(r.code, "unsafe_url", r.message);
  assert.equal(r.field, "expend.pay_url");
  await new Promise((res) => setTimeout(res, 100));
  assert.equal(await page.evaluate(() => window.hijacked), undefined, "the script URL never ran");
  assert.equal(page.url(), taken());
  assert.deepEqual(cashierHits, []);
  await page.close();
});

test("allowedHosts refusing the pay_url host rejects unsafe_url and stays", async () => {
  const { page, url, cashierHits } = await callbackPage(FRESH);
  orders.length = 0;
  const r = await page.evaluate(async () => {
    try {
      await window.pb.cardnetPay(location.href, {
        allowedHosts: ["pay.bank.example", "*.cashier.example"],
        order: (code) => fetch(`/api/order?userAuthCode=${encodeURIComponent(code)}`).then((r) => r.json()),
      });
      return { resolved: true };
    } catch (e) {
      return { code: e.code, field: e.field, message: e.message };
    }
  });
  assert.equal(r.code, "unsafe_url", r.message);
  assert.equal(r.field, "expend.pay_url");
  assert.match(r.message, /cashier\.cardnet\.example.*allowedHosts/);
  assert.deepEqual(orders, ["uac+1"]);
  await new Promise((res) => setTimeout(res, 100));
  assert.equal(page.url(), taken());
  assert.deepEqual(cashierHits, []);
  await page.close();
});

/** cardnetPay on the page as the README's callback page runs it; answers the result or the error's fields. */
function payOnPage(page, state) {
  return page.evaluate(async (state) => {
    try {
      const r = await window.pb.cardnetPay(location.href, {
        expectedState: state,
        allowedHosts: ["*.cardnet.example"],
        order: (code) => fetch(`/api/order?userAuthCode=${encodeURIComponent(code)}`).then((r) => r.json()),
      });
      return { status: r.status };
    } catch (e) {
      return { code: e.code, field: e.field, message: e.message };
    }
  }, state);
}

test("a callback orders once per tab: Back, reload, Forward and the old address never order again", async () => {
  const { page, url, cashierHits } = await callbackPage(`order=42&${FRESH}`);
  orders.length = 0;
  await Promise.all([page.waitForURL(CASHIER), payOnPage(page, STATE).catch(() => null)]);
  assert.deepEqual(orders, ["uac+1"]);
  assert.deepEqual(cashierHits, [CASHIER]);

  // Back from the cashier: the callback page's entry no longer holds the code.
  await page.goBack();
  await page.evaluate(() => window.loaded);
  const cleaned = page.url();
  assert.equal(cleaned, `${server.url}/tests/browser/pages/harness.html?order=42`, "the callback's parameters left the address bar, the page's own stayed");
  const back = await payOnPage(page, STATE);
  assert.equal(back.code, "auth_used", back.message);
  assert.equal(back.field, "userAuthCode");

  // Reload.
  await page.reload();
  await page.evaluate(() => window.loaded);
  const reloaded = await payOnPage(page, STATE);
  assert.equal(reloaded.code, "auth_used", reloaded.message);

  // Forward to the cashier and Back again.
  await page.goForward();
  assert.equal(page.url(), CASHIER);
  await page.goBack();
  await page.evaluate(() => window.loaded);
  assert.equal((await payOnPage(page, STATE)).code, "auth_used");

  // The old address with the code, opened again in this tab.
  await page.goto(url);
  await page.evaluate(() => window.loaded);
  const again = await payOnPage(page, STATE);
  assert.equal(again.code, "auth_used", again.message);
  assert.equal(again.field, "userAuthCode");
  assert.match(again.message, /already used in this tab/);

  assert.deepEqual(orders, ["uac+1"], "the merchant was asked to order once");
  assert.deepEqual(cashierHits, [CASHIER, CASHIER], "the cashier was reached by the one payment (and Forward)");
  await page.close();
});

test("a kept callback object whose code the tab took is auth_used too; another tab may still use it", async () => {
  const { page } = await callbackPage(FRESH);
  orders.length = 0;
  const kept = await page.evaluate(() => window.pb.parseAuthCallback(location.href));
  await Promise.all([page.waitForURL(CASHIER), payOnPage(page, STATE).catch(() => null)]);
  await page.goBack();
  await page.evaluate(() => window.loaded);
  const r = await page.evaluate(async (kept) => {
    try {
      await window.pb.cardnetPay(kept, { order: () => ({}) });
      return { resolved: true };
    } catch (e) {
      return { code: e.code, field: e.field };
    }
  }, kept);
  assert.deepEqual(r, { code: "auth_used", field: "userAuthCode" });
  assert.deepEqual(orders, ["uac+1"]);
  await page.close();
  // A page cannot know about other tabs: the merchant's server must be idempotent (README).
  const other = await callbackPage(FRESH);
  await Promise.all([other.page.waitForURL(CASHIER), payOnPage(other.page, STATE).catch(() => null)]);
  assert.deepEqual(orders, ["uac+1", "uac+1"]);
  await other.page.close();
});

test("takeAuthCallback reads, cleans the address bar and remembers; a reload is auth_used; parseAuthCallback stays pure", async () => {
  const page = await browser.newPage();
  const url = `${server.url}/tests/browser/pages/harness.html?tab=pay&code=c%2B1&state=${encodeURIComponent(STATE)}#/order?id=7`;
  await page.goto(url);
  await page.evaluate(() => window.loaded);
  const first = await page.evaluate((state) => {
    const pure = [window.pb.parseAuthCallback(location.href).code, window.pb.parseAuthCallback(location.href).code];
    const cb = window.pb.takeAuthCallback(undefined, { expectedState: state });
    return { pure, provider: cb.provider, code: cb.code, href: location.href };
  }, STATE);
  assert.deepEqual(first, { pure: ["c+1", "c+1"], provider: "wallet2", code: "c+1", href: `${server.url}/tests/browser/pages/harness.html?tab=pay#/order?id=7` });
  await page.reload();
  await page.evaluate(() => window.loaded);
  const second = await page.evaluate((state) => {
    try {
      window.pb.takeAuthCallback(undefined, { expectedState: state });
      return { taken: true };
    } catch (e) {
      return { code: e.code, field: e.field };
    }
  }, STATE);
  assert.deepEqual(second, { code: "auth_used", field: "code" });
  // The old address, taken again: the same code is refused.
  const third = await page.evaluate((url) => {
    try {
      window.pb.takeAuthCallback(url);
      return { taken: true };
    } catch (e) {
      return { code: e.code, field: e.field };
    }
  }, url);
  assert.deepEqual(third, { code: "auth_used", field: "code" });
  await page.close();
});
