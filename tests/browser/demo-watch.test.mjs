// The demo pages keep telling the truth until the merchant's word is final
// (issue rows: a payment that lands after the page asked, a reload while
// the order's answer is on its way, a card-network code that expired at
// the merchant, a wallet that never answers, saved sandbox credentials
// that break a code exchange). The page's back-off is shortened by the
// page's own query (watch_ms, watch_max_ms, callback_ms: flow.js TIMING);
// the sandbox's clock is moved by POST /sim/clock. Same pkg/ as
// demo.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { closePage, resultShows, sandboxSuite, statusIs, watchErrors } from "../tools/sandbox.mjs";

const suite = sandboxSuite();

/** The bound within which a late payment must be said paid (the back-off below asks at least every 1 s). */
const BOUND_MS = 6000;
/** The page's query that shortens the demo's timings (`callback_ms`: the wallet's answer awaited). */
const fast = (callbackMs = 1500) => `watch_ms=300&watch_max_ms=1000&callback_ms=${callbackMs}`;

/** A page (a context of its own) that records its orders' answers and its loads. */
async function open(path) {
  const context = await suite.browser.newContext({ viewport: { width: 412, height: 915 } });
  const page = watchErrors(await context.newPage());
  page.payments = [];
  page.loads = 0;
  page.on("load", () => page.loads++);
  page.on("response", async (r) => {
    if (r.request().method() === "POST" && new URL(r.url()).pathname === "/merchant/payments" && r.ok()) {
      page.payments.push(await r.json().catch(() => null));
    }
  });
  await page.goto(`${suite.base}${path}`);
  return page;
}

/** The last payment object an order of `page` answered (its body is read asynchronously: waited for). */
async function lastPayment(page) {
  for (let i = 0; i < 50 && !page.payments.length; i++) await page.waitForTimeout(100);
  return page.payments.at(-1);
}

async function done(page, shot) {
  const context = page.context();
  await closePage(page, shot);
  await context.close();
}

const post = (path) => fetch(`${suite.base}${path}`, { method: "POST" });
const serverSays = async (id) => (await (await fetch(`${suite.base}/merchant/payments/${id}`)).json()).status;

/** Waits for the headline `key` of `section` (paid, not_paid, closed, open); the payment id it names. */
async function headline(page, section, key, timeout = 12000) {
  const box = await resultShows(page, section, "headline", key, timeout);
  return box.locator('[data-field="payment"]').textContent();
}


/** Records the time from `act()` until `section` says paid; fails past BOUND_MS. */
async function saysPaidWithin(page, section, act) {
  const loads = page.loads;
  const t0 = Date.now();
  await act();
  await headline(page, section, "paid", BOUND_MS);
  const took = Date.now() - t0;
  assert.ok(took <= BOUND_MS, `said paid ${took} ms after the payment`);
  assert.equal(page.loads, loads, "no reload");
  return took;
}

async function authorize(page) {
  await page.click("#authorize");
  await page.waitForURL(/\/sim\/wallet[12]\/authorize\?/);
  await page.click("button[value=allow]");
  await page.waitForURL(/\/demo\/(life|official)\.html/);
}

test("H5, wallet1 web: Back from the cashier says not paid yet; the wallet's payment 3 s later is said paid, no reload", async () => {
  const page = await open(`/demo/h5.html?${fast()}`);
  await page.check("input[name=wap-fallback][value=web]");
  await page.click("#wap-pay");
  await page.waitForURL(/\/sim\/wallet1\/cashier\?/);
  const trade = new URL(page.url()).searchParams.get("trade");
  await page.goBack();
  await page.waitForURL(/\/demo\/h5\.html/);
  const id = await headline(page, "#wallet1_wap", "not_paid");
  const box = page.locator("#wallet1_wap [data-role=result]");
  assert.match(await box.textContent(), /Not paid yet/);
  assert.doesNotMatch(await box.textContent(), /nothing was charged/);
  await page.waitForTimeout(3000);
  await saysPaidWithin(page, "#wallet1_wap", () => post(`/sim/pay/${trade}`));
  assert.equal(await serverSays(id), "paid");
  await done(page);
});

for (const [path, section, wallet] of [
  ["/demo/life.html", "#life", "wallet1"],
  ["/demo/official.html", "#official", "wallet2"],
]) {
  test(`${path}: a reload while the bridge is paying, then the payment lands: paid with no reload`, async () => {
    const page = await open(`${path}?bridge_mode=silent&${fast(60000)}`);
    await authorize(page);
    await page.locator(`${section} [data-role=log] li[data-kind="called"]`).waitFor();
    await page.reload();
    const id = await headline(page, section, "not_paid");
    const payment = await lastPayment(page);
    assert.equal(payment.id, id);
    const ref = wallet === "wallet1" ? payment.pay_info.tradeNO : payment.pay_info.package.slice("prepay_id=".length);
    await saysPaidWithin(page, section, () => post(`/sim/pay/${ref}`));
    await done(page);
  });
}

test("the wallet never answers (bridge and mini-program): pending after the demo's callbackTimeoutMs, and still asking", async () => {
  const page = await open(`/demo/life.html?bridge_mode=silent&${fast()}`);
  await authorize(page);
  await statusIs(page, "#life", "pending", 8000);
  const id = await headline(page, "#life", "not_paid");
  const payment = await lastPayment(page);
  await saysPaidWithin(page, "#life", () => post(`/sim/pay/${payment.pay_info.tradeNO}`));
  assert.equal(await serverSays(id), "paid");
  await done(page);

  const mini = await open(`/demo/miniprogram.html?${fast()}`);
  await mini.check("input[name=wallet][value=wallet2]");
  await mini.check("input[name=mode][value=silent]");
  await mini.click("#pay");
  await statusIs(mini, "#mini", "pending", 8000);
  await headline(mini, "#mini", "not_paid");
  await done(mini);
});

test("closed only when the merchant says so: then 'nothing was charged'", async () => {
  const page = await open(`/demo/h5.html?${fast()}`);
  await page.check("input[name=wap-fallback][value=web]");
  await page.click("#wap-pay");
  await page.waitForURL(/\/sim\/wallet1\/cashier\?/);
  await page.goBack();
  await page.waitForURL(/\/demo\/h5\.html/);
  const id = await headline(page, "#wallet1_wap", "not_paid");
  // The merchant's lifetime for an unpaid payment passes (120 s in the demo).
  await post("/sim/clock?advance_ms=121000");
  await headline(page, "#wallet1_wap", "closed", BOUND_MS);
  assert.equal(await serverSays(id), "closed");
  assert.match(await page.locator("#wallet1_wap [data-role=result]").textContent(), /nothing was charged/);
  await done(page);
});

test("H5, wallet1 and card network: a reload with the order's answer held back shows the payment the merchant created", async () => {
  for (const [section, start] of [
    ["#wallet1", (page) => page.locator("#wallet1-pay").dispatchEvent("click")],
    [
      "#cardnet",
      async (page) => {
        await page.click("#cardnet-pay");
        await page.waitForURL(/\/sim\/cardnet\/authorize/);
        await page.click("button[value=allow]");
      },
    ],
  ]) {
    const page = await open(`/demo/h5.html?${fast()}`);
    let created;
    let reached;
    const held = new Promise((r) => (reached = r));
    // The merchant creates the payment; its answer never reaches the page.
    let holding = true;
    await page.route("**/merchant/payments", async (route) => {
      if (!holding) return route.continue();
      holding = false;
      created = await (await route.fetch()).json();
      reached();
      await new Promise(() => {});
    });
    await start(page);
    await held;
    await page.reload();
    const id = await headline(page, section, "not_paid");
    assert.equal(id, created.id, "the payment the merchant created");
    const text = await page.locator(`${section} [data-role=result]`).textContent();
    assert.doesNotMatch(text, /authorization|before anything was ordered/);
    assert.match(await page.locator(`${section} [data-role=log]`).textContent(), /Idempotency-Key/);
    await done(page);
  }
});

test("H5, card network: a code the merchant finds expired (its clock, 5 min 10 s after Allow) is auth_expired with Start over", async () => {
  const page = await open(`/demo/h5.html?${fast()}`);
  await page.click("#cardnet-pay");
  await page.waitForURL(/\/sim\/cardnet\/authorize/);
  // The order waits while the card network's clock passes 5 min 10 s since Allow.
  let callback;
  page.on("framenavigated", (f) => f === page.mainFrame() && /respCode=00/.test(f.url()) && (callback = f.url()));
  await page.route("**/merchant/payments", async (route) => {
    await post("/sim/clock?advance_ms=310000");
    await route.continue();
  });
  await page.click("button[value=allow]");
  const box = await statusIs(page, "#cardnet", "auth_expired");
  assert.match(await box.textContent(), /expired/);
  assert.equal(await box.locator('a[data-action="start-over"]').textContent(), "Start over");
  assert.equal(page.payments.length, 0, "nothing was ordered");
  // The same callback in a second tab (no state kept there): refused, with Start over.
  await done(page);
  const second = await open(`/demo/h5.html?${fast()}`);
  await second.goto(callback);
  const refused = second.locator("#cardnet [data-role=result][data-status]");
  await refused.waitFor();
  assert.equal(await refused.locator('a[data-action="start-over"]').count(), 1);
  await done(second);
});

test("a wrong secret saved in the verification page's box: the official-account exchange names it and offers to reset it", async () => {
  const page = await open("/demo/official.html?bridge_mode=succeed");
  await page.evaluate(() => localStorage.setItem("paybridge-demo:credentials", JSON.stringify({ secret: "not-the-sandbox-secret" })));
  await authorize(page);
  const box = page.locator("#official [data-role=result][data-status]");
  await box.waitFor();
  assert.match(await box.textContent(), /sandbox credentials box/);
  const reset = box.locator('button[data-action="reset-credentials"]');
  await Promise.all([page.waitForEvent("load"), reset.click()]);
  assert.equal(await page.evaluate(() => localStorage.getItem("paybridge-demo:credentials")), null);
  await authorize(page);
  await headline(page, "#official", "paid");
  await done(page);
});
