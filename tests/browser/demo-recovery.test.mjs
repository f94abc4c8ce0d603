// The demo pages after the interruptions people cause: a reload while the
// page waits, a reload during wallet1's app-to-cashier fallback, Back from
// each cashier, Return from a cashier before paying, Back to an old
// consent page, a second tab, a reload while the card network's order is
// in flight. Each test ends on what the merchant's server says of the
// payment, the result box's headline (paid / not paid), read beside the
// server's own answer; none may leave a "waiting" or "going to" state
// standing. Same sandbox and pkg/ as demo.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { closePage, resultShows, sandboxSuite, statusIs, watchErrors } from "../tools/sandbox.mjs";

const suite = sandboxSuite();

/** A fresh page in `context` (default: a context of its own) that records script errors and the orders it sends. */
async function open(path, context) {
  const page = watchErrors(context ? await context.newPage() : await suite.browser.newPage({ viewport: { width: 412, height: 915 } }));
  page.orders = [];
  page.on("request", (r) => r.method() === "POST" && new URL(r.url()).pathname === "/merchant/payments" && page.orders.push(r.url()));
  await page.goto(`${suite.base}${path}`);
  return page;
}

const done = closePage;

async function serverSays(id) {
  return (await (await fetch(`${suite.base}/merchant/payments/${id}`)).json()).status;
}

/**
 * Waits for `section`'s headline to be `key` (paid, not_paid, open) and
 * checks it against the merchant's server itself; returns the payment id.
 */
async function headlineIs(page, section, key, timeout = 12000) {
  const box = await resultShows(page, section, "headline", key, timeout);
  const words = { paid: "Paid", not_paid: "Not paid yet", open: "Still open" }[key];
  assert.equal(await box.locator(".headline strong").textContent(), words);
  const id = await box.locator('[data-field="payment"]').textContent();
  const server = await serverSays(id);
  assert.equal(server, key === "paid" ? "paid" : "created", `the server has ${id} as ${server}`);
  // Paid or not paid is the server's answer, shown beside it; still open is the page's own wait.
  if (key !== "open") await page.locator(`${section} [data-merchant="${server}"]`).waitFor({ timeout: 2000 });
  return id;
}


/** Nothing on the result box says the page is still going somewhere or waiting. */
async function nothingStale(page, section) {
  const text = await page.locator(`${section} [data-role=result]`).textContent();
  assert.doesNotMatch(text, /navigating to the payment page|Still open|gone to|waiting for/, text);
}

/** Authorizes on life.html or official.html and lands back on it (it orders and pays at once). */
async function authorize(page) {
  await page.click("#authorize");
  await page.waitForURL(/\/sim\/wallet[12]\/authorize\?/);
  await page.click("button[value=allow]");
  await page.waitForURL(/\/demo\/(life|official)\.html/);
}

for (const [path, section, mode] of [
  ["/demo/life.html", "#life", "never"],
  ["/demo/life.html", "#life", "late"],
  ["/demo/official.html", "#official", "never"],
]) {
  test(`${path}?bridge_mode=${mode}: a reload while the page waits for the bridge ends on the merchant's "not paid"`, async () => {
    const page = await open(`${path}?bridge_mode=${mode}`);
    // A late bridge at 4 s, not the page's 2 s, still before its 5 s
    // time-out: the reload below lands while the page waits, however
    // slow the steps between.
    if (mode === "late") {
      await page.route(/\/sim\/bridge\.js\?/, (r) => {
        const u = new URL(r.request().url());
        u.searchParams.set("delay_ms", "4000");
        return r.continue({ url: u.href });
      });
    }
    await authorize(page);
    await page.locator(`${section} [data-role=log] li[data-kind="waiting"]`).waitFor();
    await headlineIs(page, section, "open", 3000);
    await page.reload();
    const id = await headlineIs(page, section, "not_paid");
    await nothingStale(page, section);
    assert.match(await page.locator(`${section} [data-role=log]`).textContent(), /that ended with the earlier page/);
    // Past the old wait's time-out (5 s) and a late bridge's arrival (4 s): nothing changes.
    await page.waitForTimeout(5500);
    assert.equal(await page.locator(`${section} [data-role=result]`).getAttribute("data-headline"), "not_paid");
    assert.equal(await serverSays(id), "created");
    await done(page, mode === "never" ? `reload-${section.slice(1)}-waiting` : undefined);
  });
}

test("H5, wallet1 by scan: a reload during the 2 s fallback ends on not paid, and the page stays", async () => {
  const page = await open("/demo/h5.html");
  const schemes = [];
  page.on("request", (r) => r.url().startsWith("wallet1:") && schemes.push(r.url()));
  await page.click("#wallet1-pay");
  await page.locator('#wallet1 [data-role=log] li[data-kind="navigating"]').waitFor();
  await page.reload();
  await headlineIs(page, "#wallet1", "not_paid");
  await nothingStale(page, "#wallet1");
  await page.waitForTimeout(2500);
  assert.match(page.url(), /\/demo\/h5\.html$/, "the old page's fallback went with it");
  assert.equal(schemes.length, 1);
  await done(page);
});

/** Starts `start` on h5.html and waits until the page is on a cashier whose URL matches `cashier`. */
async function toCashier(page, start, cashier) {
  // Not waitForURL: an aborted wallet1:// navigation would end its wait.
  const reached = page.waitForEvent("framenavigated", { predicate: (f) => f === page.mainFrame() && cashier.test(f.url()), timeout: 10000 });
  await start();
  await reached;
  await page.waitForLoadState();
}

const CASHIERS = {
  // Headless Chromium's prompt for wallet1:// holds the tab's real input
  // from then on: clicks in that tab are dispatched in the page.
  "wallet1 by scan (the fallback)": ["#wallet1", async (page) => page.locator("#wallet1-pay").dispatchEvent("click"), /\/sim\/wallet1\/cashier\?/],
  "wallet1 web": [
    "#wallet1_wap",
    async (page) => {
      await page.check("input[name=wap-fallback][value=web]");
      await page.click("#wap-pay");
    },
    /\/sim\/wallet1\/cashier\?/,
  ],
  "card network": [
    "#cardnet",
    async (page) => {
      await page.click("#cardnet-pay");
      await page.waitForURL(/\/sim\/cardnet\/authorize/);
      await page.click("button[value=allow]");
    },
    /\/sim\/cardnet\/pay\?/,
  ],
};

for (const [name, [section, start, cashier]] of Object.entries(CASHIERS)) {
  test(`H5, ${name}: Back from the cashier ends on not paid, with no stale navigation`, async () => {
    const page = await open("/demo/h5.html");
    await toCashier(page, () => start(page), cashier);
    await page.goBack();
    await page.waitForURL(/\/demo\/h5\.html/);
    await headlineIs(page, section, "not_paid");
    await nothingStale(page, section);
    await done(page);
  });

  test(`H5, ${name}: Return to the merchant before paying ends on not paid; after paying, on paid`, async () => {
    const page = await open("/demo/h5.html");
    await toCashier(page, () => start(page), cashier);
    await page.locator("text=Return to the merchant").dispatchEvent("click");
    await page.waitForURL(/\/demo\/h5\.html/);
    await headlineIs(page, section, "not_paid");
    await nothingStale(page, section);

    await toCashier(page, () => start(page), cashier);
    await page.locator("button[value=pay]").dispatchEvent("click");
    await page.locator("#result").waitFor();
    await page.locator("text=Return to the merchant").dispatchEvent("click");
    await page.waitForURL(/\/demo\/h5\.html/);
    await headlineIs(page, section, "paid");
    await nothingStale(page, section);
    await done(page, section === "#cardnet" ? "return-paid-cardnet" : undefined);
  });
}

test("H5, wallet1 web with appFallback app: no app opens; the page, still there, ends on not paid", async () => {
  const page = await open("/demo/h5.html");
  await page.check("input[name=wap-fallback][value=app]");
  await page.click("#wap-pay");
  await headlineIs(page, "#wallet1_wap", "not_paid", 8000);
  await nothingStale(page, "#wallet1_wap");
  assert.match(await page.locator("#wallet1_wap [data-role=log]").textContent(), /still here/);
  await done(page);
});

test("H5, card network: Back to the old consent page and Allow again is auth_used with Start over; nothing is ordered again", async () => {
  const page = await open("/demo/h5.html");
  await toCashier(page, () => CASHIERS["card network"][1](page), /\/sim\/cardnet\/pay\?/);
  await page.click("button[value=pay]");
  await page.click("text=Return to the merchant");
  await page.waitForURL(/\/demo\/h5\.html/);
  const id = await headlineIs(page, "#cardnet", "paid");
  assert.equal(page.orders.length, 1);
  // Back through the cashier's pages to the consent page.
  while (!/\/sim\/cardnet\/authorize/.test(page.url())) await page.goBack();
  await page.click("button[value=allow]");
  await page.waitForURL(/\/demo\/h5\.html/);
  const box = await statusIs(page, "#cardnet", "auth_used");
  assert.equal(page.orders.length, 1, "nothing was ordered again");
  assert.equal(await serverSays(id), "paid");
  const link = box.locator('a[data-action="start-over"]');
  assert.equal(await link.textContent(), "Start over");
  assert.doesNotMatch(await box.textContent(), /expectedState is null/);
  await Promise.all([page.waitForEvent("load"), link.click()]);
  assert.equal(await page.locator("#cardnet [data-role=result]").textContent(), "No result yet.");
  await done(page);
});

test("life account: Back to the old consent page after paying and Allow again is auth_used; nothing is ordered again", async () => {
  const page = await open("/demo/life.html?bridge_mode=succeed");
  await authorize(page);
  await headlineIs(page, "#life", "paid");
  assert.equal(page.orders.length, 1);
  await page.goBack();
  await page.waitForURL(/\/sim\/wallet1\/authorize/);
  await page.click("button[value=allow]");
  await page.waitForURL(/\/demo\/life\.html/);
  await statusIs(page, "#life", "auth_used");
  assert.equal(await page.locator('#life [data-role=result] a[data-action="start-over"]').textContent(), "Start over");
  assert.equal(page.orders.length, 1, "nothing was ordered again");
  await done(page);
});

test("a second tab knows the user through the merchant's session and pays; Start over forgets it in both", async () => {
  const context = await suite.browser.newContext({ viewport: { width: 412, height: 915 } });
  const first = await open("/demo/life.html?bridge_mode=succeed", context);
  await authorize(first);
  await headlineIs(first, "#life", "paid");
  const user = await first.locator("#user").textContent();

  const second = await open("/demo/life.html?bridge_mode=succeed", context);
  await second.locator("#user", { hasText: user }).waitFor({ timeout: 5000 });
  await second.click("#pay");
  await headlineIs(second, "#life", "paid");
  assert.match(await second.locator("#life [data-role=log]").textContent(), new RegExp(`created for wallet1 user ${user}`));

  await Promise.all([second.waitForEvent("load"), second.click("#reset")]);
  await first.click("#pay");
  await statusIs(first, "#life", "no_user");
  await done(second);
  await done(first);
  await context.close();
});

test("H5, card network: a reload while the order is in flight finds the payment by its key; nothing is ordered twice", async () => {
  const page = await open("/demo/h5.html");
  // The order is held back 4 s: the page is reloaded meanwhile.
  await page.route("**/merchant/payments", async (route) => {
    await new Promise((r) => setTimeout(r, 4000));
    await route.continue().catch(() => {});
  });
  await page.click("#cardnet-pay");
  await page.waitForURL(/\/sim\/cardnet\/authorize/);
  await page.click("button[value=allow]");
  await page.waitForURL(/\/demo\/h5\.html/);
  await page.locator("#cardnet [data-role=log] li", { hasText: "back from the card network" }).waitFor();
  await page.reload();
  await page.unroute("**/merchant/payments");
  const id = await headlineIs(page, "#cardnet", "not_paid");
  assert.match(await page.locator("#cardnet [data-role=log]").textContent(), new RegExp(`payment ${id}, the one it created for this order`));
  assert.doesNotMatch(await page.locator("#cardnet [data-role=result]").textContent(), /authorization's code/);
  await done(page);
});

test("honest words: a cancel or a failure heads with Not paid; the wallet's answer is named as the wallet's and verified is explained", async () => {
  const page = await open("/demo/life.html?bridge_mode=cancel");
  await authorize(page);
  await statusIs(page, "#life", "cancelled");
  await headlineIs(page, "#life", "not_paid");
  const box = page.locator("#life [data-role=result]");
  assert.equal(await box.locator('dd[data-field="verified"]').textContent(), "true");
  assert.equal(await box.locator('dd[data-field="code"]').textContent(), "6001");
  assert.equal(await box.locator('dt:has(+ dd[data-field="code"])').textContent(), "the wallet's own answer");
  const text = await box.textContent();
  assert.doesNotMatch(text, /confirmed by the merchant's server/, "a cancel is not shown as confirmed");
  assert.match(text, /verified true: .*answered not paid/);
  await done(page);

  const mini = await open("/demo/miniprogram.html");
  for (const [wallet, mode, status] of [["wallet2", "fail", "failed"], ["wallet1", "cancel", "cancelled"]]) {
    await mini.check(`input[name=wallet][value=${wallet}]`);
    await mini.check(`input[name=mode][value=${mode}]`);
    await mini.click("#pay");
    await statusIs(mini, "#mini", status);
    await headlineIs(mini, "#mini", "not_paid");
    assert.doesNotMatch(await mini.locator("#mini [data-role=result]").textContent(), /confirmed by the merchant's server/);
  }
  // The record's choice is what the radios show after a reload.
  await mini.reload();
  await headlineIs(mini, "#mini", "not_paid");
  assert.equal(await mini.locator("input[name=wallet]:checked").getAttribute("value"), "wallet1");
  assert.equal(await mini.locator("input[name=mode]:checked").getAttribute("value"), "cancel");
  await done(mini);
});
