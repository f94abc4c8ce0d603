// The demo pages of www/ end to end, in Debian's Chromium, against the real
// sandbox: each flow driven as a person would (buttons, authorization
// pages, cashiers), asserting what the person sees. The sandbox binary is
// built (a no-op when `make sandbox-bin` ran) and started on an ephemeral
// port; pkg/ must have been built (`make pkg`). A screenshot of each page
// goes to tests/artifacts/screenshots/ for a person to look at.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { SHOTS, closePage, sandboxSuite, watchErrors } from "../tools/sandbox.mjs";

const suite = sandboxSuite();

/** A fresh page (its own sessionStorage) that fails the test on a script error. */
async function open(path) {
  const page = watchErrors(await suite.browser.newPage({ viewport: { width: 1280, height: 900 } }));
  await page.goto(`${suite.base}${path}`);
  return page;
}

const done = closePage;

/** The status pill a person reads in `section`'s result box, once it is `status`. */
async function resultIs(page, section, status, timeout = 15000) {
  const box = page.locator(`${section} [data-role=result]`);
  await page.locator(`${section} [data-role=result][data-status="${status}"]`).waitFor({ timeout }).catch(async (e) => {
    throw new Error(`${section}: expected ${status}, the page shows: ${await box.textContent()}`, { cause: e });
  });
  assert.equal(await box.locator(".status").first().textContent(), status);
  return box;
}

/** A field of the result box (`merchant says` is the pill). */
async function field(page, section, name) {
  return page.locator(`${section} [data-role=result] [data-field="${name}"]`).textContent();
}

async function merchantSays(page, section, status) {
  await page.locator(`${section} [data-merchant="${status}"]`).waitFor({ timeout: 10000 });
  assert.equal(await page.locator(`${section} [data-merchant]`).textContent(), `merchant: ${status}`);
}

/** The kinds of the log's entries (`page`, `planned`, `waiting`, ...). */
async function logKinds(page, section) {
  return page.locator(`${section} [data-role=log] li`).evaluateAll((lis) => lis.map((li) => li.dataset.kind));
}

async function plannedKind(page, section) {
  return JSON.parse(await page.locator(`${section} [data-role=plan] pre`).textContent()).kind;
}

async function paidOnServer(id) {
  return (await (await fetch(`${suite.base}/merchant/payments/${id}`)).json()).status;
}

test("index page links to every demo page and the sandbox", async () => {
  const page = await open("/");
  assert.equal(await page.locator("h1").textContent(), "paybridge demo");
  const links = await page.locator("main .card h2 a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.deepEqual(links, ["/demo/h5.html", "/demo/life.html", "/demo/official.html", "/demo/miniprogram.html", "/demo/verify.html", "/sim"]);
  for (const href of links) {
    const res = await fetch(`${suite.base}${href}`);
    assert.equal(res.status, 200, href);
  }
  await done(page, "index");
});

test("H5, wallet1 by scan: the app's scheme address, then the cashier after 2 s; paid", async () => {
  const page = await open("/demo/h5.html");
  const schemes = [];
  page.on("request", (r) => r.url().startsWith("wallet1:") && schemes.push(r.url()));
  // Not waitForURL: the aborted wallet1:// navigation would end its wait.
  const reached = page.waitForEvent("framenavigated", {
    predicate: (f) => f === page.mainFrame() && /\/sim\/wallet1\/cashier\?/.test(f.url()),
    timeout: 10000,
  });
  await page.click("#wallet1-pay");
  await reached;
  await page.waitForLoadState();
  const cashier = page.url();
  assert.equal(schemes.length, 1, "the page tried the wallet1 app first");
  const scheme = new URL(schemes[0]);
  assert.equal(scheme.searchParams.get("saId"), "10000007");
  assert.equal(scheme.searchParams.get("qrcode"), cashier, "qrcode is pay_info, which the fallback opened");
  // Headless Chromium keeps its external-protocol prompt for wallet1:// open
  // in this tab and holds the tab's real input from then on, so the clicks
  // below are dispatched in the page.
  assert.equal(await page.locator("h1").textContent(), "wallet1 cashier");
  await page.locator("button[value=pay]").dispatchEvent("click");
  await page.locator("#result").waitFor();
  assert.equal(await page.locator("#result").textContent(), "Payment successful.");
  await page.locator("text=Return to the merchant").dispatchEvent("click");
  await page.waitForURL(/\/demo\/h5\.html/);
  await merchantSays(page, "#wallet1", "paid");
  await resultIs(page, "#wallet1", "redirected");
  assert.equal(await plannedKind(page, "#wallet1"), "open_url");
  const kinds = await logKinds(page, "#wallet1");
  assert.deepEqual(kinds.filter((k) => k !== "page"), ["planned", "navigating", "navigating", "result"]);
  assert.equal(await paidOnServer(await field(page, "#wallet1", "payment")), "paid");
  await done(page, "h5-wallet1");
});

test("H5, wallet1 web: appFallback web goes to the cashier; a cancelled payment stays unpaid", async () => {
  const page = await open("/demo/h5.html");
  await page.check("input[name=wap-fallback][value=web]");
  await page.click("#wap-pay");
  await page.waitForURL(/\/sim\/wallet1\/cashier\?/, { timeout: 10000 });
  await page.click("button[value=cancel]");
  // The payment is still open (it may yet be paid): never "nothing was charged".
  assert.match(await page.locator("#result").textContent(), /^Payment cancelled here\. The payment stays open until the merchant closes it/);
  assert.doesNotMatch(await page.locator("#result").textContent(), /nothing was charged/);
  await page.click("text=Return to the merchant");
  await page.waitForURL(/\/demo\/h5\.html/);
  await merchantSays(page, "#wallet1_wap", "created");
  await resultIs(page, "#wallet1_wap", "redirected");
  assert.equal(await plannedKind(page, "#wallet1_wap"), "redirect");

  // Again, paid this time.
  await page.click("#wap-pay");
  await page.waitForURL(/\/sim\/wallet1\/cashier\?/, { timeout: 10000 });
  await page.click("button[value=pay]");
  await page.click("text=Return to the merchant");
  await merchantSays(page, "#wallet1_wap", "paid");
  await done(page);
});

test("H5, wallet1 web with appFallback app: a redirect to the app's scheme address", async () => {
  const page = await open("/demo/h5.html");
  const schemes = [];
  page.on("request", (r) => r.url().startsWith("wallet1:") && schemes.push(r.url()));
  // The request's event may come after the page shows "redirected".
  const scheme = page.waitForRequest((r) => r.url().startsWith("wallet1:"), { timeout: 10000 });
  await page.check("input[name=wap-fallback][value=app]");
  await page.click("#wap-pay");
  await resultIs(page, "#wallet1_wap", "redirected");
  await scheme;
  const plan = JSON.parse(await page.locator("#wallet1_wap [data-role=plan] pre").textContent());
  assert.match(plan.url, /^wallet1:\/\/platformapi\/startapp\?saId=10000007&qrcode=http%3A%2F%2F127\.0\.0\.1/);
  assert.deepEqual(schemes, [plan.url]);
  await done(page);
});

test("H5, card network: authorize, callback, order with the userAuthCode, the card network's pay page, paid", async () => {
  const page = await open("/demo/h5.html");
  await page.click("#cardnet-pay");
  await page.waitForURL(/\/sim\/cardnet\/authorize\?version=1\.0\.0&redirectUrl=/);
  assert.equal(await page.locator("h1").textContent(), "Card network: authorize");
  await page.click("button[value=allow]");
  await page.waitForURL(/\/sim\/cardnet\/pay\?trade=/, { timeout: 10000 });
  assert.equal(await page.locator("h1").textContent(), "Card network: pay");
  await page.click("button[value=pay]");
  assert.equal(await page.locator("#result").textContent(), "Payment successful.");
  await page.click("text=Return to the merchant");
  await page.waitForURL(/\/demo\/h5\.html/);
  await merchantSays(page, "#cardnet", "paid");
  await resultIs(page, "#cardnet", "redirected");
  assert.equal(await field(page, "#cardnet", "channel"), "cardnet");
  assert.equal(await plannedKind(page, "#cardnet"), "redirect");
  const kinds = await logKinds(page, "#cardnet");
  for (const k of ["callback", "called", "planned", "navigating", "result"]) assert.ok(kinds.includes(k), `${k} in ${kinds}`);
  assert.ok(!page.url().includes("userAuthCode"), "the callback's code left the address bar");
  await done(page, "h5");
});

test("H5, card network: a denied authorization shows auth_failed and orders nothing", async () => {
  const page = await open("/demo/h5.html");
  await page.click("#cardnet-pay");
  await page.waitForURL(/\/sim\/cardnet\/authorize/);
  await page.click("button[value=deny]");
  await page.waitForURL(/\/demo\/h5\.html/);
  await resultIs(page, "#cardnet", "auth_failed");
  assert.match(await field(page, "#cardnet", "message"), /respCode/);
  assert.equal(await page.locator("#cardnet [data-role=plan] pre").count(), 0, "nothing was planned");
  await done(page);
});

/** Authorizes on a bridge page (`life` or `official`) and lands back on it. */
async function authorize(page, title) {
  await page.click("#authorize");
  await page.waitForURL(/\/sim\/wallet[12]\/authorize\?/);
  assert.equal(await page.locator("h1").textContent(), title);
  await page.click("button[value=allow]");
  await page.waitForURL(/\/demo\/(life|official)\.html/);
}

/** Picks a bridge mode (the page reloads with it), then orders and pays again. */
async function payInMode(page, mode) {
  await Promise.all([page.waitForURL(new RegExp(`bridge_mode=${mode}$`)), page.check(`input[name=bridge_mode][value=${mode}]`)]);
  await page.click("#pay");
}

test("life account (wallet1_pub): authorize, exchange, order, pay through the bridge in every mode", async () => {
  const page = await open("/demo/life.html?bridge_mode=succeed");
  await authorize(page, "Authorize with wallet1");
  await resultIs(page, "#life", "succeeded");
  await merchantSays(page, "#life", "paid");
  assert.equal(await field(page, "#life", "verified"), "true");
  assert.equal(await field(page, "#life", "code"), "9000");
  assert.equal(await plannedKind(page, "#life"), "wallet1_trade_pay");
  const user = await page.locator("#user").textContent();
  assert.match(user, /^w1u[0-9a-f]+$/);
  const log = await page.locator("#life [data-role=log]").textContent();
  assert.match(log, /back from wallet1 with auth_code/);
  assert.match(log, new RegExp(`wallet1 user_id ${user}`));
  assert.deepEqual((await logKinds(page, "#life")).filter((k) => k !== "page"), ["planned", "waiting", "bridge_ready", "called", "callback", "result"]);
  assert.ok(!page.url().includes("auth_code"), "the single-use code left the address bar");
  await page.screenshot({ path: join(SHOTS, "life.png"), fullPage: true });

  await payInMode(page, "cancel");
  await resultIs(page, "#life", "cancelled");
  assert.equal(await field(page, "#life", "code"), "6001");
  await merchantSays(page, "#life", "created");

  await payInMode(page, "fail");
  await resultIs(page, "#life", "failed");
  assert.equal(await field(page, "#life", "code"), "4000");

  // The bridge never comes: bridge_timeout after the page's 5 s.
  await payInMode(page, "never");
  await resultIs(page, "#life", "bridge_timeout", 20000);
  assert.ok((await logKinds(page, "#life")).includes("timeout"));
  await page.screenshot({ path: join(SHOTS, "life-never.png"), fullPage: true });

  // The bridge comes 2 s after the page loaded: waited for, then paid.
  await payInMode(page, "late");
  await resultIs(page, "#life", "succeeded");
  const kinds = await logKinds(page, "#life");
  assert.ok(kinds.indexOf("waiting") < kinds.indexOf("bridge_ready"), kinds.join());
  await done(page);
});

test("official account (wallet2_pub): authorize, exchange for the openid, order, pay; cancel and fail", async () => {
  const page = await open("/demo/official.html?bridge_mode=succeed");
  await authorize(page, "Authorize with wallet2");
  await resultIs(page, "#official", "succeeded");
  await merchantSays(page, "#official", "paid");
  assert.equal(await field(page, "#official", "code"), "getBrandPayRequest:ok");
  assert.equal(await plannedKind(page, "#official"), "wallet2_bridge_pay");
  assert.match(await page.locator("#user").textContent(), /^w2o[0-9a-f]+$/);
  assert.doesNotMatch(await page.locator("#official [data-role=log]").textContent(), /sandbox-secret/, "the secret is not shown");
  await page.screenshot({ path: join(SHOTS, "official.png"), fullPage: true });

  await payInMode(page, "cancel");
  await resultIs(page, "#official", "cancelled");
  assert.equal(await field(page, "#official", "code"), "getBrandPayRequest:cancel");
  await merchantSays(page, "#official", "created");

  await payInMode(page, "fail");
  await resultIs(page, "#official", "failed");
  await done(page);
});

test("mini-program: wallet1_lite and wallet2_lite succeed, cancel in both styles, fail", async () => {
  const page = await open("/demo/miniprogram.html");
  const cases = [
    ["wallet1", "succeed", "succeeded", "9000", "paid", "wallet1_trade_pay"],
    ["wallet1", "cancel", "cancelled", "6001", "created", "wallet1_trade_pay"],
    ["wallet1", "fail", "failed", "4000", "created", "wallet1_trade_pay"],
    ["wallet2", "succeed", "succeeded", "requestPayment:ok", "paid", "wallet2_request_payment"],
    ["wallet2", "cancel", "cancelled", "requestPayment:fail cancel", "created", "wallet2_request_payment"],
    ["wallet2", "fail", "failed", "requestPayment:fail", "created", "wallet2_request_payment"],
  ];
  for (const [wallet, mode, status, code, merchant, kind] of cases) {
    await page.check(`input[name=wallet][value=${wallet}]`);
    await page.check(`input[name=mode][value=${mode}]`);
    await page.click("#pay");
    await page.locator("#pay:enabled").waitFor();
    await resultIs(page, "#mini", status);
    assert.equal(await field(page, "#mini", "code"), code, `${wallet} ${mode}`);
    assert.equal(await field(page, "#mini", "channel"), `${wallet}_lite`);
    await merchantSays(page, "#mini", merchant);
    assert.equal(await plannedKind(page, "#mini"), kind);
    if (wallet === "wallet2" && mode === "succeed") await page.screenshot({ path: join(SHOTS, "miniprogram.png"), fullPage: true });
  }
  const log = await page.locator("#mini [data-role=log]").textContent();
  assert.match(log, /merchant server: exchanged it for open_id w2o/);
  await page.click("#launch-run");
  const launch = JSON.parse(await page.locator("#launch [data-role=plan] pre").textContent());
  assert.equal(launch["readLaunchOptions (in the mini-program)"].fromApp, true);
  assert.equal(launch["launchAppButton (back to the app)"]["open-type"], "launchApp");
  await done(page);
});

test("verification: field messages before sending; card checks with 4 and 2 factors; an ID check", async () => {
  const page = await open("/demo/verify.html");
  const sent = [];
  page.on("request", (r) => r.url().includes("/api/v1/") && sent.push(r.url()));

  // Mistakes: every field says what is wrong, and nothing is sent.
  await page.click("[data-sample=mistakes]");
  const problem = (f) => page.locator(`#card-form [data-problem-for="${f}"]`).textContent();
  await page.locator('#card-form [data-problem-for="acct_no"]:not(:empty)').waitFor();
  assert.equal(await problem("full_name"), "full_name is required");
  assert.match(await problem("acct_no"), /acct_no must be the account number's digits only/);
  assert.match(await problem("id_number"), /id_number must be 18 characters \(got 17\)/);
  assert.equal(await problem("mobile_no"), "mobile_no must be 11 digits");
  assert.match(await problem("valid_date"), /valid_date must be mmyy/);
  assert.match(await problem("cvv2"), /cvv2 is required for a credit card/);
  assert.equal(await page.locator("#card-acct_no").getAttribute("aria-invalid"), "true");
  await page.click("#card-send");
  await resultIs(page, "#card", "invalid_request");
  assert.deepEqual(sent, [], "nothing was sent");
  await page.screenshot({ path: join(SHOTS, "verify-problems.png"), fullPage: true });
  // Fixing a field clears its message as the person types.
  await page.fill("#card-full_name", "Li Hua");
  await page.locator(`#card-form [data-problem-for="full_name"]:empty`).waitFor({ state: "attached" });

  // Four factors, synchronous: consistent.
  await page.click("[data-sample=consistent]");
  await page.click("#card-send");
  await resultIs(page, "#card", "consistent");
  assert.equal(await field(page, "#card", "return_code"), "10200");
  assert.equal(await field(page, "#card", "resp_code"), "00");
  assert.match(await page.locator("#card [data-role=log]").textContent(), /sign: HMAC-SHA256 over signInput\(params\)/);

  // Two factors: decided by the card number's last digit (8: inconsistent).
  await page.click("[data-sample=inconsistent]");
  await page.selectOption("#card-factors", "2");
  await page.click("#card-send");
  await resultIs(page, "#card", "inconsistent");
  const request = JSON.parse(await page.locator("#card [data-role=plan] pre").textContent());
  assert.deepEqual(Object.keys(request.fields).sort(), ["acct_no", "card_type", "full_name", "source_channel"]);

  // ID check: the default ID is consistent; the inconsistent sample (8...) is not.
  await page.click("#name-send");
  await resultIs(page, "#name", "consistent");
  assert.equal(await field(page, "#name", "return_code"), "10400");
  await page.click("#name-form [data-sample=inconsistent]");
  await page.click("#name-send");
  await resultIs(page, "#name", "inconsistent");
  assert.equal(await field(page, "#name", "return_code"), "10400");
  await done(page);
});

test("a forged authorization callback, opened in a tab that started no authorization, is refused: nothing exchanged, ordered or paid", async () => {
  for (const [path, section] of [
    ["/demo/life.html?bridge_mode=succeed&auth_code=forged-code&state=abcdefgh", "#life"],
    ["/demo/official.html?bridge_mode=succeed&code=forged-code&state=abcdefgh", "#official"],
    ["/demo/h5.html?respCode=00&userAuthCode=forged-code&state=abcdefgh", "#cardnet"],
  ]) {
    const page = await open(path);
    const sent = [];
    page.on("request", (r) => /\/(merchant|sim|api)\//.test(new URL(r.url()).pathname) && sent.push(r.url()));
    await resultIs(page, section, "invalid_options");
    assert.match(await field(page, section, "message"), /expectedState is null/);
    assert.deepEqual(sent, [], `${path}: nothing sent`);
    assert.match(page.url(), /\/demo\/(life|official|h5)\.html/, "no navigation");
    await done(page);
  }
});

test("verification: a malformed app_token in the credentials is the flow's error; the buttons stay usable", async () => {
  const page = await open("/demo/verify.html");
  await page.locator("#credentials summary").click();
  await page.fill("#cred-app_token", "short");
  await page.locator("#cred-app_token").dispatchEvent("change");
  await page.click("[data-sample=consistent]");
  await page.click("#card-send");
  await resultIs(page, "#card", "invalid_options");
  assert.match(await field(page, "#card", "message"), /appToken/);
  assert.equal(await page.locator("#card-send").isDisabled(), false);
  await page.click("#name-send");
  await resultIs(page, "#name", "invalid_options");
  assert.equal(await page.locator("#name-send").isDisabled(), false);
  await done(page);
});

test("Back to a page restores no form state its script did not set: the bridge mode and the verification layout match the page", async () => {
  const page = await open("/demo/life.html?bridge_mode=succeed");
  await Promise.all([page.waitForURL(/bridge_mode=fail$/), page.check("input[name=bridge_mode][value=fail]")]);
  await page.goBack();
  await page.waitForURL(/bridge_mode=succeed$/);
  await page.waitForLoadState("load");
  assert.equal(await page.locator("input[name=bridge_mode]:checked").getAttribute("value"), "succeed");
  await done(page);

  const verify = await open("/demo/verify.html");
  await verify.selectOption("#card-factors", "2");
  await verify.selectOption("#card-card_type", "C");
  await verify.goto(`${suite.base}/`);
  await verify.goBack();
  await verify.waitForLoadState("load");
  const factors = await verify.locator("#card-factors").inputValue();
  const idShown = await verify.locator("#card-id_number").isVisible();
  assert.equal(idShown, factors !== "2", `factors ${factors}, id_number ${idShown ? "shown" : "hidden"}`);
  await done(verify);
});

test("verification: an asynchronous card check shows pending, then the notification arriving", async () => {
  const page = await open("/demo/verify.html");
  await page.click("[data-sample=consistent]");
  await page.check("#card-async");
  await page.click("#card-send");
  const pending = await resultIs(page, "#card", "pending");
  assert.match(await pending.textContent(), /waiting for the notification/);
  assert.equal(await field(page, "#card", "return_code"), "10201");
  const seqId = await field(page, "#card", "seq_id");
  await resultIs(page, "#card", "consistent");
  assert.match(await page.locator("#card [data-role=result]").textContent(), /by notification/);
  assert.equal(await field(page, "#card", "seq_id"), seqId);
  await page.locator("#card-send:enabled").waitFor();
  const log = await page.locator("#card [data-role=log]").textContent();
  assert.match(log, /10201: pending; the result will be sent to http:\/\/127\.0\.0\.1:\d+\/merchant\/notify/);
  assert.match(log, /notification received by the merchant/);
  assert.match(log, /checkresult agrees: consistent \(20000\)/);
  // The merchant's receiver has it, once.
  const inbox = await (await fetch(`${suite.base}/merchant/notifications`)).json();
  assert.equal(inbox.notifications.filter((n) => n.outcome.seqId === seqId).length, 1);
  await done(page, "verify");
});

/** performance.now() of each pay() event in `section`'s log, by kind (the first of each). */
async function eventTimes(page, section) {
  return page.locator(`${section} [data-role=log] li.event`).evaluateAll((lis) => {
    const out = {};
    for (const li of lis) {
      const m = /= (\d+) ms/.exec(li.querySelector("time")?.title ?? "");
      if (m && !(li.dataset.kind in out)) out[li.dataset.kind] = Number(m[1]);
    }
    return out;
  });
}

test("life account: late (2 s) counts from the pay call; Start over while a wallet never answers leaves no late time-out in the new flow", async () => {
  const page = await open("/demo/life.html?bridge_mode=succeed");
  await authorize(page, "Authorize with wallet1");
  await resultIs(page, "#life", "succeeded");
  // The page stays open 3 s before paying: a bridge counting from the page's
  // load would be there already; counting from the pay call, it is waited for.
  await Promise.all([page.waitForURL(/bridge_mode=late$/), page.check("input[name=bridge_mode][value=late]")]);
  await page.waitForTimeout(3000);
  await page.click("#pay");
  await resultIs(page, "#life", "succeeded");
  const at = await eventTimes(page, "#life");
  assert.ok(at.bridge_ready - at.waiting >= 1800, `the bridge came ${at.bridge_ready - at.waiting} ms after the wait began: ${JSON.stringify(at)}`);

  await payInMode(page, "never");
  await page.locator('#life [data-role=log] li[data-kind="waiting"]').waitFor();
  await Promise.all([page.waitForEvent("load"), page.click("#reset")]);
  assert.match(page.url(), /bridge_mode=never$/);
  // Past the abandoned payment's 5 s time-out: nothing came into the new flow.
  await page.waitForTimeout(6000);
  assert.deepEqual(await logKinds(page, "#life"), []);
  assert.equal(await page.locator("#life [data-role=result]").textContent(), "No result yet.");
  assert.equal(await page.locator("#user").textContent(), "none yet: authorize first");
  await done(page);
});

test("H5: the cashier's result page comes by redirect after the POST (reload and Back post nothing); Return to the merchant in another tab finds the payment", async () => {
  const page = await open("/demo/h5.html");
  await page.check("input[name=wap-fallback][value=web]");
  await page.click("#wap-pay");
  await page.waitForURL(/\/sim\/wallet1\/cashier\?/, { timeout: 10000 });
  const posts = [];
  page.on("request", (r) => r.method() === "POST" && r.url().includes("/sim/") && posts.push(r.url()));
  await page.click("button[value=pay]");
  await page.locator("#result").waitFor();
  assert.match(page.url(), /\/sim\/wallet1\/cashier\?.*outcome=paid/, "the result page is a page of its own");
  assert.equal(await page.locator("#result").textContent(), "Payment successful.");
  await page.reload();
  assert.equal(await page.locator("#result").textContent(), "Payment successful.");
  await page.goBack();
  await page.goForward();
  assert.equal(posts.length, 1, `the form was posted once: ${posts}`);

  // The way back, opened in another tab (its own sessionStorage: no record).
  const href = await page.locator("text=Return to the merchant").getAttribute("href");
  const back = new URL(href);
  assert.ok(back.searchParams.get("payment"), href);
  const other = await open(back.pathname + back.search);
  await merchantSays(other, "#wallet1_wap", "paid");
  assert.equal(await field(other, "#wallet1_wap", "payment"), back.searchParams.get("payment"));
  assert.ok(!other.url().includes("payment="), "the page took its parameters out of the address bar");
  await done(other);
  await done(page);
});

test("/demo/ leads to the demo index", async () => {
  for (const path of ["/demo/", "/demo"]) {
    const res = await fetch(`${suite.base}${path}`);
    assert.equal(res.status, 200, path);
    assert.equal(new URL(res.url).pathname, "/", path);
    assert.match(await res.text(), /paybridge demo/);
  }
});

test("verification: a check pending when the page is reloaded is waited for again", async () => {
  const page = await open("/demo/verify.html");
  await page.click("[data-sample=consistent]");
  await page.check("#card-async");
  await page.click("#card-send");
  await resultIs(page, "#card", "pending");
  const seqId = await field(page, "#card", "seq_id");
  await page.reload();
  await resultIs(page, "#card", "consistent");
  assert.equal(await field(page, "#card", "seq_id"), seqId);
  const log = await page.locator("#card [data-role=log]").textContent();
  assert.match(log, new RegExp(`the page was reloaded while ${seqId} was pending`));
  assert.match(log, /checkresult agrees: consistent \(20000\)/);
  await page.locator("#card-send:enabled").waitFor();
  // Done: a second reload has nothing to wait for.
  await page.reload();
  await resultIs(page, "#card", "consistent");
  assert.equal((await page.locator("#card [data-role=log]").textContent()).match(/was reloaded while/g)?.length, 1);
  await done(page);
});
