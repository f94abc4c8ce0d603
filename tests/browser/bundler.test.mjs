// The package through a bundler: esbuild bundles a page script that imports
// "paybridge"; the bundle must take the browser build (not the Node one),
// split the full module's glue into a chunk of its own, and run in
// Chromium with the .wasm files beside it, as a user would deploy it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { serve } from "../tools/server.mjs";
import { launch } from "../tools/chromium.mjs";

const tests = fileURLToPath(new URL("../", import.meta.url));
const out = `${tests}artifacts/bundle/`;
let server, browser;

before(async () => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    absWorkingDir: tests,
    entryPoints: ["browser/pages/bundled-app.js"],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    outdir: out,
    logLevel: "warning",
  });
  for (const f of ["paybridge_bg.wasm", "paybridge_full_bg.wasm"]) copyFileSync(`${tests}../pkg/${f}`, `${out}${f}`);
  writeFileSync(`${out}index.html`, '<!doctype html><meta charset="utf-8"><title>bundled</title><script type="module" src="bundled-app.js"></script>');
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("esbuild takes the browser build and splits off the full module", () => {
  const files = readdirSync(out).filter((f) => f.endsWith(".js"));
  const text = files.map((f) => readFileSync(out + f, "utf8")).join("\n");
  assert.doesNotMatch(text, /node:fs|readFileSync/, "the Node entry was bundled");
  assert.ok(files.length >= 2, `one chunk for the full module's glue: ${files}`);
});

test("the bundled page loads, plans, pays and builds an authorization URL", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${server.url}/tests/artifacts/bundle/index.html`);
  await page.waitForFunction(() => typeof window.app === "function");
  const r = await page.evaluate(() => window.app());
  assert.deepEqual(r, { planned: "wallet1_trade_pay", paid: "succeeded", auth: true });
  assert.deepEqual(errors, []);
  await page.close();
});
