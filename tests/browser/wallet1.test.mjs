// wallet1's life-account flow on a real page in Debian's Chromium: step 1,
// the scheme URL that opens the page in the app (`wallet1PageUrl`, the page
// URL checked as every URL opened), and the authorization callback of
// step 2, whose `auth_code` is single use: taken once, it is `auth_used`
// after a reload, Back or the old address in the same tab.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serve } from "../tools/server.mjs";
import { launch } from "../tools/chromium.mjs";

const STATE = "st-ABC_123.xyz~";
let server;
let browser;

before(async () => {
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function harness(query = "") {
  const page = await browser.newPage();
  const url = `${server.url}/tests/browser/pages/harness.html${query}`;
  await page.goto(url);
  await page.evaluate(() => window.loaded);
  return { page, url };
}

test("wallet1PageUrl: the page URL with its business parameters is the qrcode of the scheme URL; an unsafe page URL is refused", async () => {
  const { page } = await harness();
  const r = await page.evaluate(() => {
    const url = window.pb.wallet1PageUrl("https://shop.example/life?from=app#top", { orderId: "A 1&2", amount: 12.5 }, { allowedHosts: ["shop.example"] });
    const u = new URL(url);
    const refused = (page, options) => {
      try {
        window.pb.wallet1PageUrl(page, { a: "1" }, options);
        return null;
      } catch (e) {
        return [e instanceof window.pb.PayError, e.code, e.field];
      }
    };
    return {
      protocol: u.protocol,
      saId: u.searchParams.get("saId"),
      qrcode: u.searchParams.get("qrcode"),
      keys: [...u.searchParams.keys()],
      http: refused("http://shop.example/life"),
      js: refused("javascript:alert(1)"),
      host: refused("https://evil.example/life", { allowedHosts: ["shop.example"] }),
    };
  });
  assert.equal(r.protocol, "wallet1:");
  assert.equal(r.saId, "10000007");
  assert.deepEqual(r.keys, ["saId", "qrcode"], "the page's own parameters stay inside qrcode");
  assert.equal(r.qrcode, "https://shop.example/life?from=app&orderId=A%201%262&amount=12.5#top");
  assert.equal(new URL(r.qrcode).searchParams.get("orderId"), "A 1&2");
  for (const k of ["http", "js", "host"]) assert.deepEqual(r[k], [true, "unsafe_url", "pageUrl"], k);
  await page.close();
});

test("wallet1's auth_code is taken once: a reload, Back or the old address in the tab is auth_used", async () => {
  const query = `?auth_code=ac%2B1&app_id=2021000000000001&scope=auth_base&state=${encodeURIComponent(STATE)}`;
  const { page, url } = await harness(query);
  const take = (arg) =>
    page.evaluate(
      ({ state, arg }) => {
        try {
          const cb = window.pb.takeAuthCallback(arg ?? undefined, { expectedState: state });
          return { provider: cb.provider, code: cb.code, appId: cb.appId, href: location.href };
        } catch (e) {
          return { code: e.code, field: e.field };
        }
      },
      { state: STATE, arg },
    );
  const first = await take();
  assert.equal(first.provider, "wallet1");
  assert.equal(first.code, "ac+1");
  assert.ok(!first.href.includes("auth_code"), `the code left the address bar: ${first.href}`);
  await page.reload();
  await page.evaluate(() => window.loaded);
  assert.deepEqual(await take(), { code: "auth_used", field: "auth_code" }, "reload");
  assert.deepEqual(await take(url), { code: "auth_used", field: "auth_code" }, "the old address");
  await page.goto(url);
  await page.evaluate(() => window.loaded);
  assert.deepEqual(await take(), { code: "auth_used", field: "auth_code" }, "the callback address opened again in the tab");
  // Another tab has storage of its own: only the tab that took it refuses it.
  const other = await harness(query);
  const fresh = await other.page.evaluate((state) => window.pb.takeAuthCallback(undefined, { expectedState: state }).code, STATE);
  assert.equal(fresh, "ac+1");
  await other.page.close();
  await page.close();
});
