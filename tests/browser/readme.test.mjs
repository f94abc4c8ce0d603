// The README's page examples, copied from README.md as they are written and
// run in a page of https://shop.example, in Debian's Chromium, with the
// built package (pkg/, make pkg) as "paybridge" (an import map). The page,
// the merchant's /orders endpoints, the wallet1 cashier and the card
// network's pay page are answered by the test (playwright routes): no
// network. What a block leaves undefined (`payment`, `showStartOver`, ...)
// the test page defines before it; nothing in a block is changed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "../tools/chromium.mjs";
import { ROOT } from "../tools/sandbox.mjs";

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const BLOCKS = [...README.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

/** The README's one js block that contains `marker`. */
function block(marker) {
  const found = BLOCKS.filter((b) => b.includes(marker));
  assert.equal(found.length, 1, `one README js block holds ${marker}`);
  return found[0];
}

const SHOP = "https://shop.example";
const TYPES = { js: "text/javascript", mjs: "text/javascript", wasm: "application/wasm", json: "application/json" };

let browser;

before(async () => {
  assert.ok(existsSync(join(ROOT, "pkg/index.js")), "pkg/ is missing: run make pkg first");
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

/**
 * A page whose `path` on shop.example runs `prelude` (a classic script: the
 * names the example leaves to the reader) then `code` as a module. Every
 * request is answered here: /pkg/ from pkg/, `routes` by path, other hosts
 * by `elsewhere`.
 */
async function shopPage({ path, prelude = "", code, routes = {}, elsewhere = {}, userAgent }) {
  const context = await browser.newContext(userAgent ? { userAgent } : {});
  const page = await context.newPage();
  page.errors = [];
  page.logs = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  page.on("console", (m) => page.logs.push(m.text()));
  const html =
    `<!doctype html><meta charset="utf-8"><title>README example</title>` +
    `<script type="importmap">{"imports":{"paybridge":"/pkg/index.js"}}</script>` +
    `<script>${prelude}</script><script type="module">\n${code}\n</script>`;
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

/** Waits until the page's main frame is at a URL matching `re` (a wallet1:// attempt aborts waitForURL). */
function reaches(page, re, timeout = 10000) {
  return page.waitForEvent("framenavigated", { predicate: (f) => f === page.mainFrame() && re.test(f.url()), timeout });
}

const cashier = (route) => route.fulfill({ contentType: "text/html", body: "<h1>cashier</h1>" });

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

test("README, the H5 page: the wallet1 payment opens the app's address, then the cashier", async () => {
  const objects = block("const payments = {");
  const wallet1 = /wallet1: (\{ id: "pay_1".*\}),\n/.exec(objects)[1];
  const page = await shopPage({
    path: "/h5.html",
    prelude: `var payment = ${wallet1};`,
    code: block('allowedHosts: ["*.wallet1.example"]'),
    elsewhere: { "cashier.wallet1.example": cashier },
  });
  const schemes = [];
  page.on("request", (r) => r.url().startsWith("wallet1:") && schemes.push(r.url()));
  const reached = reaches(page, /^https:\/\/cashier\.wallet1\.example\/pay\?trade=T1001&sign=8f2a$/);
  await page.goto(`${SHOP}/h5.html`);
  await reached;
  assert.equal(schemes.length, 1);
  assert.equal(new URL(schemes[0]).searchParams.get("qrcode"), "https://cashier.wallet1.example/pay?trade=T1001&sign=8f2a");
  assert.ok(page.logs.some((l) => l.startsWith("planned")), page.logs.join("\n"));
  assert.deepEqual(page.errors, []);
  await page.ctx.close();
});

test("README, the card network's callback page: orders once and goes to the pay page; Back to it is auth_used", async () => {
  const objects = block("const payments = {");
  const cardnet = /cardnet: (\{ id: "pay_7".*\}),\n/.exec(objects)[1];
  const orders = [];
  const page = await shopPage({
    path: "/cb",
    prelude: `
      var shown = (what, detail) => { document.title = what; console.log(what, detail ?? ""); };
      var showStartOver = () => shown("start over");
      var showRefused = (code) => shown("refused", code);
      var showError = (e) => shown("error", e.code);`,
    code: block("await cardnetPay(location.href, {"),
    routes: {
      "/start": (route) => route.fulfill({ contentType: "text/html", body: "<p>the page that sent the customer to authorize</p>" }),
      "/orders": async (route) => {
        orders.push(route.request().postData());
        await route.fulfill({ contentType: "application/json", body: JSON.stringify(new Function(`return ${cardnet}`)()) });
      },
    },
    elsewhere: { "pay.cardnet.example": cashier },
  });
  // The page that started the authorization kept its state; the card network came back with a fresh code.
  await page.goto(`${SHOP}/start`);
  await page.evaluate(() => sessionStorage.setItem("cardnet-state", "st-0123456789abcdef"));
  const code = `UAC${Date.now()}`;
  const reached = reaches(page, /^https:\/\/pay\.cardnet\.example\/h5\?trade=T1007$/);
  await page.goto(`${SHOP}/cb?respCode=00&userAuthCode=${code}&state=st-0123456789abcdef`);
  await reached;
  await page.waitForLoadState();
  assert.equal(await page.locator("h1").textContent(), "cashier");
  assert.deepEqual(orders, [code]);
  await page.goBack();
  await page.waitForFunction(() => document.title === "start over", null, { timeout: 10000 });
  assert.deepEqual(orders, [code], "nothing ordered again");
  assert.deepEqual(page.errors, []);
  await page.ctx.close();
});

test("README, the official-account page: authorize, back with the code, order, pay through the bridge; a reload is auth_used", async () => {
  const objects = block("const payments = {");
  const wallet2 = new Function(`return ${/wallet2_pub: (\{ id: "pay_6"[\s\S]*?\} \}),\n/.exec(objects)[1]}`)();
  const orders = [];
  // The names the example leaves to the reader: the wallet's globals (here
  // a bridge that arrives 300 ms after the page asks), the app, confirm.
  const prelude = `
    var BRIDGE_GLOBAL = "ShopWalletBridge", READY_EVENT = "ShopWalletBridgeReady", PAY_METHOD = "pay", UA_TOKEN = "ShopWallet";
    var appId = "wx0123456789abcdef";
    var confirm = async (payment, result) => { window.confirmed = result; return (await fetch("/orders/" + payment.id + "/status")).text(); };
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
  await page.ctx.route(`${SHOP}/orders/pay_6/status`, (route) => route.fulfill({ contentType: "text/plain", body: "succeeded" }));
  await page.goto(`${SHOP}/start`);
  await page.waitForURL(`${SHOP}/cb`, { timeout: 10000 });
  await page.waitForFunction(() => window.confirmed, null, { timeout: 10000 });
  assert.deepEqual(orders, ["C0001"]);
  assert.deepEqual(await page.evaluate(() => window.invoked), { name: "pay", params: wallet2.pay_info });
  assert.equal(await page.evaluate(() => window.confirmed.code), "pay:ok", "confirm saw the wallet's answer");
  assert.equal(page.url(), `${SHOP}/cb`, "the callback left the address bar");
  await page.reload();
  await page.waitForFunction(() => document.title === "start over", null, { timeout: 10000 });
  assert.deepEqual(orders, ["C0001"], "nothing ordered again");
  assert.deepEqual(page.errors, []);
  await page.ctx.close();
});
