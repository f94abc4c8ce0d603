import { spawn } from "node:child_process";
import { launch } from "../tools/chromium.mjs";
const child = spawn(process.execPath, ["tests/bench/bench.mjs", "--serve"], { stdio: ["pipe", "pipe", "inherit"] });
const origin = await new Promise((r) => child.stdout.on("data", (d) => r(String(d).trim())));
const browser = await launch();
const N = +process.env.N || 12;
const UA = { wallet2: " MicroMessenger/8.0.50", wallet1: " AlipayClient/10.5.36" };
const base = (await (await browser.newContext()).newPage()).evaluate(() => navigator.userAgent);
const baseUa = await base;
function setup() {
  const t = (window.__t = {});
  const ins = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async function (...a) { t.instStart = performance.now(); const r = await ins.apply(this, a); t.instEnd = performance.now(); return r; };
  const bridge = { invoke(op, p, cb) { if (!t.pay) t.pay = performance.now(); setTimeout(() => cb({ err_msg: "get_brand_wcpay_request:ok" }), 0); } };
  window.WeixinJSBridge = bridge;
  window.__bench = { flow: "wallet2", payment: { appId: "wx1", timeStamp: "1", nonceStr: "n", package: "prepay_id=1", signType: "RSA", paySign: "s" }, calls: [], payAt: null, result: null };
  document.addEventListener("DOMContentLoaded", () => (t.dcl = performance.now()));
}
const rows = { ours: [], peer: [] };
for (let i = 0; i < N; i++) for (const m of ["ours", "peer"]) {
  const ctx = await browser.newContext({ userAgent: baseUa + UA.wallet2 });
  const page = await ctx.newPage();
  await page.addInitScript(setup);
  await page.goto(`${origin}/tests/bench/pages/${m}.html?flow=wallet2`);
  await page.waitForFunction(() => window.__t.pay, null, { timeout: 10000 }).catch(() => {});
  const r = await page.evaluate(() => ({ ...window.__t, res: performance.getEntriesByType("resource").map((e) => [new URL(e.name).pathname.split("/").pop(), Math.round(e.startTime), Math.round(e.responseEnd)]), nav: performance.getEntriesByType("navigation")[0].responseEnd }));
  rows[m].push(r);
  await ctx.close();
}
const med = (a) => { a = a.filter((x) => x != null).sort((x, y) => x - y); return a.length ? Math.round(a[a.length >> 1] * 10) / 10 : null; };
for (const m of ["ours", "peer"]) {
  const R = rows[m];
  console.log(m, "navEnd", med(R.map((r) => r.nav)), "instStart", med(R.map((r) => r.instStart)), "instEnd", med(R.map((r) => r.instEnd)), "dcl", med(R.map((r) => r.dcl)), "pay", med(R.map((r) => r.pay)));
  console.log("  res", JSON.stringify(R[R.length - 1].res));
}
await browser.close();
child.stdin.end();
