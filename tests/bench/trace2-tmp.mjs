import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { launch } from "../tools/chromium.mjs";
const child = spawn(process.execPath, ["tests/bench/bench.mjs", "--serve"], { stdio: ["pipe", "pipe", "inherit"] });
const origin = await new Promise((r) => child.stdout.on("data", (d) => r(String(d).trim())));
const browser = await launch();
const m = process.env.M || "ours";
function setup() {
  const t = (window.__t = {});
  window.WeixinJSBridge = { invoke(op, p, cb) { if (!t.pay) { t.pay = performance.now(); console.timeStamp("PAYCALL"); } setTimeout(() => cb({ err_msg: "get_brand_wcpay_request:ok" }), 0); } };
  window.__bench = { flow: "wallet2", payment: { appId: "wx1", timeStamp: "1", nonceStr: "n", package: "prepay_id=1", signType: "RSA", paySign: "s" }, calls: [], payAt: null, result: null };
}
for (let i = 0; i < 4; i++) {
  const ctx = await browser.newContext({ userAgent: "Mozilla/5.0 (Linux; Android 10) Chrome/156 Mobile MicroMessenger/8.0.50" });
  const page = await ctx.newPage();
  await page.addInitScript(setup);
  let cdp;
  if (i === 3) {
    cdp = await ctx.newCDPSession(page);
    await cdp.send("Tracing.start", { categories: "devtools.timeline,v8,v8.wasm,blink,loading,disabled-by-default-devtools.timeline", transferMode: "ReturnAsStream" });
  }
  await page.goto(`${origin}/tests/bench/pages/${m}.html?flow=wallet2`);
  await page.waitForFunction(() => window.__t.pay, null, { timeout: 10000 }).catch(() => {});
  console.log(i, await page.evaluate(() => window.__t.pay));
  if (cdp) {
    const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
    await cdp.send("Tracing.end");
    const { stream } = await done;
    let data = "";
    for (;;) { const c = await cdp.send("IO.read", { handle: stream }); data += c.data; if (c.eof) break; }
    writeFileSync(`/tmp/tr/${m}.json`, data);
  }
  await ctx.close();
}
await browser.close();
child.stdin.end();
