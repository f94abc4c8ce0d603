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
async function payFails(page, { orderSrc, options = {}, kept = null }) {
  return page.evaluate(
    async ({ orderSrc, options, kept }) => {
      const order = new Function("userAuthCode", orderSrc);
      const cb = kept ? { ...window.pb.parseAuthCallback(location.href), ...kept } : location.href;
      try {
        await window.pb.cardnetPay(cb, { ...options, order });
        return { resolved: true };
      } catch (e) {
        return {
          isPayError: e instanceof window.pb.PayError,
          code: e.code,
          field: e.field,
          message: e.message,
          cause: e.cause ? { name: e.cause.name, message: e.cause.message } : null,
        };
      }
    },
    { orderSrc, options, kept },
  );
}

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
  const rejected = await payFails(page, { orderSrc: 'return Promise.reject(new RangeError("HTTP 502"));' });
  assert.equal(rejected.code, "transport");
  assert.deepEqual(rejected.cause, { name: "RangeError", message: "HTTP 502" });
  assert.equal(page.url(), url);
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
  const next = await payFails(page, { orderSrc: 'throw new Error("second order reached");' });
  assert.equal(next.code, "transport", next.message);
  assert.match(next.message, /second order reached/);
  assert.equal(page.url(), url);
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
  assert.equal(page.url(), url);
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
  assert.equal(page.url(), url);
  assert.deepEqual(cashierHits, []);
  await page.close();
});
