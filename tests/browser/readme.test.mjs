// The README's page examples, copied from README.md (and the payment
// objects from docs/pages.md) as they are written, and run in Debian's
// Chromium with the built package (pkg/, make pkg) as "paybridge" (an
// import map). The H5 page, its return page and the card network's
// callback page run against the sandbox (make demo's server), each with
// the one-line change its `make demo:` comment states and nothing else;
// the other blocks run in a page of https://shop.example whose merchant
// endpoints the test answers (playwright routes). What a block leaves
// undefined (`payment`, `showStartOver`, ...) the test page defines
// before it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, sandboxSuite } from "../tools/sandbox.mjs";

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const PAGES = readFileSync(join(ROOT, "docs/pages.md"), "utf8");
const BLOCKS = [...(README + PAGES).matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

/** The one js block (README, docs/pages.md) that contains `marker`. */
function block(marker) {
  const found = BLOCKS.filter((b) => b.includes(marker));
  assert.equal(found.length, 1, `one js block holds ${marker}`);
  return found[0];
}

/**
 * `code` as the README says to run it against `make demo`: each line whose
 * comment ends `make demo: X` becomes X (indented as the line was).
 */
function forDemo(code) {
  const lines = code.split("\n").map((l) => {
    const m = /^(\s*).*?\/\/.*?\bmake demo: (.*)$/.exec(l);
    return m ? m[1] + m[2] : l;
  });
  return lines.join("\n");
}

const SHOP = "https://shop.example";
const TYPES = { js: "text/javascript", mjs: "text/javascript", wasm: "application/wasm", json: "application/json" };
const IMPORTS = `<script type="importmap">{"imports":{"paybridge":"/pkg/index.js"}}</script>`;

const suite = sandboxSuite();

/** A page of the sandbox at `path` that runs `prelude` (a classic script), then `code` as a module. */
function demoPage(prelude, code) {
  return `<!doctype html><meta charset="utf-8"><title>README example</title>${IMPORTS}<script>${prelude}</script><script type="module">\n${code}\n</script>`;
}

/**
 * A page whose `path` on shop.example runs `prelude` (a classic script: the
 * names the example leaves to the reader) then `code` as a module. Every
 * request is answered here: /pkg/ from pkg/, `routes` by path, other hosts
 * by `elsewhere`.
 */
async function shopPage({ path, prelude = "", code, routes = {}, elsewhere = {}, userAgent }) {
  const context = await suite.browser.newContext(userAgent ? { userAgent } : {});
  const page = await context.newPage();
  page.errors = [];
  page.logs = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  page.on("console", (m) => page.logs.push(m.text()));
  const html = `<!doctype html><meta charset="utf-8"><title>README example</title>${IMPORTS}<script>${prelude}</script><script type="module">\n${code}\n</script>`;
  await context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.origin === SHOP && url.pathname === new URL(path, SHOP).pathname) {
      return route.fulfill({ contentType: "text/html", body: html });
    }
    if (url.origin === SHOP && url.pathname.startsWith("/pkg/")) {
      const file = join(ROOT, "pkg", url.pathname.slice(5));
      if (!existsSync(file)) return route.fulfill({ status: 404, body: "" });
      return route.fulfill({ contentType: TYPES[file.split(".").pop()] ?? "application/octet-stream", body: readFileSync(file) });
    }
    const own = url.origin === SHOP ? routes[url.pathname] : elsewhere[url.host];
    if (own) return own(route, url);
    return route.fulfill({ status: 404, body: "" });
  });
  page.ctx = context;
  return page;
}

/** A page in a context of its own, on the sandbox, with `pages` (path -> html) answered by the test. */
async function sandboxPage(pages) {
  const context = await suite.browser.newContext();
  for (const [path, html] of Object.entries(pages)) {
    await context.route((u) => u.origin === suite.base && u.pathname === path, (route) => route.fulfill({ contentType: "text/html", body: html }));
  }
  const page = await context.newPage();
  page.errors = [];
  page.logs = [];
  page.loads = 0;
  page.on("pageerror", (e) => page.errors.push(e.message));
  page.on("console", (m) => page.logs.push(m.text()));
  page.on("load", () => page.loads++);
  page.ctx = context;
  return page;
}

/** Waits until the page's main frame is at a URL matching `re` (a wallet1:// attempt aborts waitForURL). */
function reaches(page, re, timeout = 10000) {
  return page.waitForEvent("framenavigated", { predicate: (f) => f === page.mainFrame() && re.test(f.url()), timeout });
}

/** A card-network code from the sandbox's Allow button, its callback to `redirectUrl`. */
async function cardnetCallback(redirectUrl) {
  const body = new URLSearchParams({ version: "1.0.0", redirectUrl, decision: "allow" });
  const r = await fetch(`${suite.base}/sim/cardnet/authorize`, { method: "POST", body, redirect: "manual" });
  return r.headers.get("location");
}

const post = (path) => fetch(`${suite.base}${path}`, { method: "POST" });

test("README, the H5 page and the page the cashier returns to, against make demo: not paid yet until the wallet's late payment, then paid, no reload", async () => {
  const h5 = forDemo(block('allowedHosts: ["*.wallet1.example"]'));
  assert.match(h5, /allowedHosts: \["127\.0\.0\.1"\], insecureLoopback: true,/);
  const page = await sandboxPage({
    "/readme/h5.html": demoPage("", h5),
    "/paid.html": demoPage("", forDemo(block("watchPayment(ask"))),
  });
  const schemes = [];
  page.on("request", (r) => r.url().startsWith("wallet1:") && schemes.push(r.url()));
  const cashier = reaches(page, /\/sim\/wallet1\/cashier\?/);
  await page.goto(`${suite.base}/readme/h5.html`);
  await cashier;
  await page.waitForLoadState();
  assert.equal(schemes.length, 1, "the app's address first, then pay_info after fallbackAfterMs");
  const trade = new URL(page.url()).searchParams.get("trade");
  // Back to the merchant without paying: the return page asks, and keeps asking.
  const back = reaches(page, /\/paid\.html\?payment=/);
  await page.locator("text=Return to the merchant").dispatchEvent("click");
  await back;
  await page.waitForFunction(() => document.body?.textContent === "not_paid_yet", null, { timeout: 10000 });
  const id = new URL(page.url()).searchParams.get("payment");
  const loads = page.loads;
  // The wallet's payment reaches the merchant 3 s later.
  await page.waitForTimeout(3000);
  const t0 = Date.now();
  await post(`/sim/pay/${trade}`);
  // The next ask of watchPayment's back-off (about 0, 2, 6, 14 s): within 12 s.
  await page.waitForFunction(() => document.body?.textContent === "paid", null, { timeout: 16000 });
  assert.ok(Date.now() - t0 <= 16000);
  assert.equal(page.loads, loads, "no reload");
  assert.equal((await (await fetch(`${suite.base}/merchant/payments/${id}`)).json()).status, "paid");
  assert.deepEqual(page.errors, []);
  await page.ctx.close();
});

test("README, the payment objects: each plans the action the channel table names", async () => {
  const code = block("const payments = {");
  const page = await shopPage({
    path: "/objects.html",
    // After the example: every object planned where its channel pays.
    code:
      code +
      `
const where = { wallet1_lite: "wallet1_mini_program", wallet1_pub: "wallet1", wallet2_lite: "wallet2_mini_program", wallet2_pub: "wallet2" };
window.planned = Object.fromEntries(Object.entries(payments).map(([c, p]) => [c, planAction(p, { runtime: { host: where[c] ?? "browser", mobile: true } }).kind]));`,
  });
  await page.goto(`${SHOP}/objects.html`);
  await page.waitForFunction(() => window.planned, null, { timeout: 10000 });
  assert.deepEqual(await page.evaluate(() => window.planned), {
    wallet1: "open_url",
    wallet1_wap: "redirect",
    wallet1_lite: "wallet1_trade_pay",
    wallet1_pub: "wallet1_trade_pay",
    wallet2_lite: "wallet2_request_payment",
    wallet2_pub: "wallet2_bridge_pay",
    cardnet: "redirect",
  });
  // The block's own console.log is what its comment says.
  const logged = page.logs.find((l) => l.includes("redirect"));
  assert.ok(logged, page.logs.join("\n"));
  assert.deepEqual(page.errors, []);
  await page.ctx.close();
});

test("README, the official-account page: authorize, back with the code, order, pay through the bridge; a reload is auth_used", async () => {
  const objects = block("const payments = {");
  const wallet2 = new Function(`return ${/wallet2_pub: (\{ id: "pay_6"[\s\S]*?\} \}),\n/.exec(objects)[1]}`)();
  const orders = [];
  // The names the example leaves to the reader: the wallet's globals (here
  // a bridge that arrives 300 ms after the page asks), the app, confirm.
  // confirm: the README's own, from the H5 example, as written.
  const CONFIRM = /confirm: (async \(payment, result\) => \{[\s\S]*?\n  \}),\n/.exec(block('allowedHosts: ["*.wallet1.example"]'))[1];
  const prelude = `
    var BRIDGE_GLOBAL = "ShopWalletBridge", READY_EVENT = "ShopWalletBridgeReady", PAY_METHOD = "pay", UA_TOKEN = "ShopWallet";
    var appId = "wx0123456789abcdef";
    var confirm = (payment, result) => { window.confirmed = result; return (${CONFIRM})(payment, result).then((s) => (window.mapped = s)); };
    var showStartOver = () => { document.title = "start over"; };
    setTimeout(() => {
      window[BRIDGE_GLOBAL] = { invoke: (name, params, cb) => { window.invoked = { name, params }; setTimeout(() => cb({ err_msg: name + ":ok" }), 0); } };
      document.dispatchEvent(new Event(READY_EVENT));
    }, 300);`;
  const page = await shopPage({
    path: "/start",
    prelude,
    code: block("// 1. Authorize"),
    elsewhere: {
      // The wallet's authorization page: straight back with a code and the state.
      "open.wallet2.example": (route, url) => {
        const back = `${url.searchParams.get("redirect_uri")}?code=C0001&state=${encodeURIComponent(url.searchParams.get("state"))}`;
        return route.fulfill({ contentType: "text/html", body: `<script>location.replace(${JSON.stringify(back)})</script>` });
      },
    },
    userAgent: "Mozilla/5.0 (Linux; Android 14) Mobile ShopWallet/8.0",
  });
  // The second page of the example, at its callback address.
  const second = `<!doctype html><meta charset="utf-8"><script type="importmap">{"imports":{"paybridge":"/pkg/index.js"}}</script>
    <script>${prelude}</script><script type="module">\n${block("// 2. On https://shop.example/cb")}\n</script>`;
  await page.ctx.route(`${SHOP}/cb?*`, (route) => route.fulfill({ contentType: "text/html", body: second }));
  await page.ctx.route(`${SHOP}/cb`, (route) => route.fulfill({ contentType: "text/html", body: second }));
  await page.ctx.route(`${SHOP}/orders`, async (route) => {
    orders.push(route.request().postData());
    await route.fulfill({ contentType: "application/json", body: JSON.stringify(wallet2) });
  });
  await page.ctx.route(`${SHOP}/merchant/payments/pay_6`, (route) =>
    route.fulfill({ contentType: "application/json", body: JSON.stringify({ id: "pay_6", pay_channel: "wallet2_pub", status: "paid" }) }),
  );
  await page.goto(`${SHOP}/start`);
  await page.waitForURL(`${SHOP}/cb`, { timeout: 10000 });
  await page.waitForFunction(() => window.confirmed, null, { timeout: 10000 });
  assert.deepEqual(orders, ["C0001"]);
  assert.deepEqual(await page.evaluate(() => window.invoked), { name: "pay", params: wallet2.pay_info });
  assert.equal(await page.evaluate(() => window.confirmed.code), "pay:ok", "confirm saw the wallet's answer");
  assert.equal(await page.evaluate(() => window.mapped), "succeeded", "the README's confirm maps the server's paid to succeeded");
  assert.equal(page.url(), `${SHOP}/cb`, "the callback left the address bar");
  await page.reload();
  await page.waitForFunction(() => document.title === "start over", null, { timeout: 10000 });
  assert.deepEqual(orders, ["C0001"], "nothing ordered again");
  assert.deepEqual(page.errors, []);
  await page.ctx.close();
});

test("README, the card network's callback page, against make demo: orders once and goes to the pay page; Back is auth_used; a code the merchant finds expired is auth_expired", async () => {
  const prelude = `
    var shown = (what, detail) => { document.title = what; console.log(what, detail ?? ""); };
    var showStartOver = () => shown("start over");
    var showRefused = (code) => shown("refused", code);
    var showError = (e) => shown("error", e.code);`;
  const code = forDemo(block("await cardnetPay(location.href, {"));
  assert.match(code, /allowedHosts: \["127\.0\.0\.1"\], insecureLoopback: true,/);
  const page = await sandboxPage({ "/readme/cb": demoPage(prelude, code), "/readme/start": "<p>the page that sent the customer to authorize</p>" });
  const orders = [];
  page.on("request", (r) => r.method() === "POST" && r.url().endsWith("/merchant/payments") && orders.push(r.url()));
  const STATE = "st-0123456789abcdef";
  // The page that started the authorization kept its state; the card network came back with a fresh code.
  await page.goto(`${suite.base}/readme/start`);
  await page.evaluate((s) => sessionStorage.setItem("cardnet-state", s), STATE);
  const callback = await cardnetCallback(`${suite.base}/readme/cb?state=${STATE}`);
  const pay = reaches(page, /\/sim\/cardnet\/pay\?/);
  await page.goto(callback);
  await pay;
  // The cashier's page loaded before Back: a Back while its navigation
  // still commits finds no page to go back from.
  await page.waitForLoadState("load");
  await page.goBack();
  await page.waitForFunction(() => document.title === "start over", null, { timeout: 10000 });
  assert.equal(orders.length, 1, "Back orders nothing: the module refuses it first");

  // 5 min 10 s after Allow by the card network's (the sandbox's) clock: the merchant refuses, the page says start over.
  const stale = await cardnetCallback(`${suite.base}/readme/cb?state=${STATE}`);
  await post("/sim/clock?advance_ms=310000");
  await page.goto(`${suite.base}/readme/start`);
  await page.evaluate((s) => sessionStorage.setItem("cardnet-state", s), STATE);
  const refused = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/merchant/payments"));
  await page.goto(stale);
  const answer = await refused;
  assert.equal(answer.status(), 400);
  assert.equal((await answer.json()).code, "auth_expired");
  await page.waitForFunction(() => document.title === "start over", null, { timeout: 10000 });
  assert.equal(orders.length, 2);
  assert.match(page.url(), /\/readme\/cb/, "the page did not move");
  assert.deepEqual(page.errors, []);
  await page.ctx.close();
});

test("README, the Node back end, against make demo: a card check with the sandbox's app_token and secret", () => {
  const code = forDemo(block("new AuthClient({"));
  assert.match(code, /baseUrl: "http:\/\/127\.0\.0\.1:8080",\n/);
  assert.match(code, /verify: false,\n/);
  // The sandbox of this test listens on a port of its own (PORT=... make demo moves it too).
  const file = join(ROOT, "tests", `.readme-node-${process.pid}.mjs`);
  writeFileSync(file, `${code.replace("http://127.0.0.1:8080", suite.base)}\nconsole.log(JSON.stringify({ state: outcome.state }));\n`);
  try {
    const env = { PATH: process.env.PATH, APP_TOKEN: "sandbox-app-token-0000000000000000000000", SECRET: "sandbox-secret" };
    const r = spawnSync(process.execPath, [file], { encoding: "utf8", env, timeout: 60000 });
    assert.equal(r.status, 0, r.stderr);
    const { state } = JSON.parse(r.stdout.trim().split("\n").at(-1));
    assert.ok(["consistent", "inconsistent", "exception"].includes(state), r.stdout);
  } finally {
    rmSync(file, { force: true });
  }
});
