// The package as its users install it: the packed tarball (`npm pack` of
// pkg/) installed into a scratch project, whose one page script is built
// with Vite, webpack 5, Rollup (with @rollup/plugin-node-resolve and
// @web/rollup-plugin-import-meta-assets, the plugins a Rollup user adds)
// and esbuild, each with no configuration beyond what its README names.
// Each built page is loaded in Chromium and pays through a fake bridge,
// then loads the full module with ready() and plans. Beside the bundlers:
// Node 20 with `import` and `require` (one module either way), and `tsc` with moduleResolution
// `bundler` and `node16`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../tools/server.mjs";
import { launch } from "../tools/chromium.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WORK = join(ROOT, "tests/artifacts/packaging");
const APP = join(WORK, "app");
const OUT = join(WORK, "out");
const tool = createRequire(join(ROOT, "tests/package.json"));

let server;
let browser;
const built = {};

/** The page script every bundler builds: pay, then ready() and plan. */
const MAIN = `import { pay, ready, planAction, PayError } from "paybridge";

window.app = async () => {
  window.Wallet1JSBridge = { call: (name, params, cb) => setTimeout(() => cb({ resultCode: "9000" }), 0) };
  const payment = { pay_channel: "wallet1_pub", pay_info: { tradeNO: "T1" } };
  const paid = (await pay(payment)).status;
  let early = null;
  try {
    planAction(payment);
  } catch (e) {
    early = e instanceof PayError ? e.code : String(e);
  }
  await ready();
  return { paid, early, planned: planAction(payment).kind };
};
window.built = true;
`;

const HTML = (script) => `<!doctype html><meta charset="utf-8"><title>built</title><script type="module" src="${script}"></script>`;

function write(file, text) {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
}

before(
  async () => {
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(APP, { recursive: true });
    const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", WORK], { cwd: join(ROOT, "pkg"), encoding: "utf8" }).trim().split("\n").pop();
    write(join(APP, "package.json"), JSON.stringify({ name: "scratch-app", private: true, type: "module", dependencies: { paybridge: `file:../${tarball}` } }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], { cwd: APP, stdio: ["ignore", "ignore", "inherit"] });
    write(join(APP, "src/main.js"), MAIN);
    write(join(APP, "index.html"), HTML("/src/main.js"));

    // Vite: the project as it is (base "./": the test serves the build
    // from a folder, not from the site's root).
    const vite = await import(tool.resolve("vite"));
    await vite.build({ root: APP, base: "./", configFile: false, logLevel: "warn", build: { outDir: join(OUT, "vite"), emptyOutDir: true } });
    built.vite = "vite/index.html";

    // webpack 5: an entry and an output, nothing else.
    const webpack = tool("webpack");
    await new Promise((resolve, reject) =>
      webpack({ mode: "production", context: APP, entry: "./src/main.js", output: { path: join(OUT, "webpack"), filename: "main.js" } }, (err, stats) => {
        if (err || stats.hasErrors()) reject(err ?? new Error(stats.toString("errors-only")));
        else resolve();
      }),
    );
    write(join(OUT, "webpack/index.html"), HTML("main.js"));
    built.webpack = "webpack/index.html";

    // Rollup with the plugins its users add for a package from npm that
    // loads assets through new URL(..., import.meta.url).
    const { rollup } = await import(tool.resolve("rollup"));
    const { nodeResolve } = await import(tool.resolve("@rollup/plugin-node-resolve"));
    const { importMetaAssets } = await import(tool.resolve("@web/rollup-plugin-import-meta-assets"));
    const bundle = await rollup({ input: join(APP, "src/main.js"), plugins: [nodeResolve({ browser: true }), importMetaAssets()], onwarn: () => {} });
    await bundle.write({ dir: join(OUT, "rollup"), format: "es" });
    write(join(OUT, "rollup/index.html"), HTML("main.js"));
    built.rollup = "rollup/index.html";

    // esbuild: bundled with code splitting; the full module's .wasm is
    // deployed beside the bundle (esbuild copies no asset by itself).
    const esbuild = await import(tool.resolve("esbuild"));
    await esbuild.build({
      absWorkingDir: APP,
      entryPoints: ["src/main.js"],
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      outdir: join(OUT, "esbuild"),
      logLevel: "warning",
    });
    copyFileSync(join(APP, "node_modules/paybridge/paybridge_full_bg.wasm"), join(OUT, "esbuild/paybridge_full_bg.wasm"));
    write(join(OUT, "esbuild/index.html"), HTML("main.js"));
    built.esbuild = "esbuild/index.html";

    server = await serve();
    browser = await launch();
  },
  { timeout: 10 * 60_000 },
);

after(async () => {
  await browser?.close();
  await server?.close();
});

for (const name of ["vite", "webpack", "rollup", "esbuild"]) {
  test(`${name}: the built page pays through the bridge, then ready() loads the full module`, async () => {
    assert.ok(built[name], `${name} did not build`);
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.url}/tests/artifacts/packaging/out/${built[name]}`);
    await page.waitForFunction(() => window.built === true, null, { timeout: 10_000 });
    const r = await page.evaluate(() => window.app());
    assert.deepEqual(r, { paid: "succeeded", early: "not_ready", planned: "wallet1_trade_pay" });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("the built pages carry the payment module in their entry chunk: nothing is fetched before the pay call but scripts", () => {
  for (const name of ["vite", "webpack", "rollup", "esbuild"]) {
    const dir = join(OUT, name);
    const files = readdirSync(dir, { recursive: true }).map(String);
    assert.ok(files.some((f) => f.endsWith(".wasm")), `${name}: the full module's .wasm is in the output: ${files}`);
    assert.ok(!files.some((f) => /paybridge_bg[^/]*\.wasm$/.test(f)), `${name}: the payment module is not a separate asset: ${files}`);
  }
});

test("Node 20: import and require of the installed package", () => {
  const run = (args) => execFileSync(process.execPath, args, { cwd: APP, encoding: "utf8" }).trim();
  const planned = run([
    "--input-type=module",
    "-e",
    'const pb = await import("paybridge"); console.log(pb.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }).kind);',
  ]);
  assert.equal(planned, "wallet1_trade_pay");
  const mini = run(["--input-type=commonjs", "-e", 'const mp = require("paybridge/miniprogram"); console.log(typeof mp.ready, typeof mp.pay);']);
  assert.equal(mini, "function function");
  const wasmJs = run(["--input-type=commonjs", "-e", 'const b = require("paybridge/paybridge.wasm.cjs"); console.log(typeof b.bindings, typeof b.wasmExports);']);
  assert.equal(wasmJs, "object object");
  // The root from CommonJS: node.cjs, the module import() gives too.
  const root = run([
    "--input-type=module",
    "-e",
    'import { createRequire } from "node:module"; const m = createRequire(process.cwd() + "/")("paybridge"); const e = await import("paybridge"); ' +
      'console.log(typeof m.planAction, m.PayError === e.PayError, m.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }).kind);',
  ]);
  assert.equal(root, "function true wallet1_trade_pay");
});

test("tsc: the types resolve with moduleResolution bundler and node16 (from ES modules and from CommonJS)", () => {
  write(
    join(APP, "ts/usage.ts"),
    `import { pay, ready, planAction, PayError, type PayResult } from "paybridge";
import { ready as mpReady, pay as mpPay } from "paybridge/miniprogram";
export async function go(): Promise<PayResult["status"]> {
  await ready();
  const a = planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } });
  if (a.kind === "wallet1_trade_pay") console.log(a.tradeNO);
  try {
    return (await pay({ pay_channel: "cardnet", expend: { pay_url: "https://p.example/" } })).status;
  } catch (e) {
    if (e instanceof PayError) return "failed";
    throw e;
  }
}
export const mini = [mpReady, mpPay];
`,
  );
  // From CommonJS (a .cts file under node16): require's types, index.d.cts.
  write(
    join(APP, "ts/usage-cjs.cts"),
    `import pb = require("paybridge");
export async function kind(): Promise<string> {
  await pb.ready();
  try {
    return pb.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }).kind;
  } catch (e) {
    return e instanceof pb.PayError ? e.code : "other";
  }
}
`,
  );
  const tsc = tool.resolve("typescript/bin/tsc");
  const common = ["--noEmit", "--strict", "--target", "es2022", "--lib", "es2022,dom", "--typeRoots", "./no-type-roots", "ts/usage.ts"];
  for (const [module, resolution, files] of [["esnext", "bundler", []], ["node16", "node16", ["ts/usage-cjs.cts"]]]) {
    try {
      execFileSync(process.execPath, [tsc, "--module", module, "--moduleResolution", resolution, ...common, ...files], { cwd: APP, encoding: "utf8" });
    } catch (e) {
      assert.fail(`tsc --moduleResolution ${resolution}:\n${e.stdout}${e.stderr}`);
    }
  }
});
