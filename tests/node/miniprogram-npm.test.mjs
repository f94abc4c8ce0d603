// paybridge installed into a wallet2 mini-program project the way its
// developers install libraries: the packed tarball (`npm pack`) as a
// dependency, `npm install`, then the developer tools' "Build npm", whose
// builder ships on npm as miniprogram-ci (`packNpm`). The built copy in
// miniprogram_npm/paybridge/ is then loaded as the runtime loads it: its
// index.js through a CommonJS loader confined to the code package, in a
// node:vm global with no window, fetch, TextEncoder or TextDecoder; the
// .wasm through a WebAssembly object whose instantiate() takes a path in
// the code package; and again with no WebAssembly at all (the JavaScript
// build beside it). It pays through fake wallet1 and wallet2 APIs, with
// no path named by the page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { brotliDecompressSync } from "node:zlib";
import { wallet2WebAssembly } from "../tools/miniprogram-runtime.mjs";

const pkgDir = fileURLToPath(new URL("../../pkg/", import.meta.url));
const requireTool = createRequire(new URL("../package.json", import.meta.url));

let root; // scratch directory
let project; // the mini-program project
let warnings;

const BROWSER_GLOBALS = ["window", "document", "fetch", "location", "navigator", "TextEncoder", "TextDecoder"];

function write(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

before(async () => {
  root = mkdtempSync(join(tmpdir(), "paybridge-mp-npm-"));
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", root], { cwd: pkgDir, encoding: "utf8" }).trim().split("\n").pop();
  project = join(root, "project");
  write(join(project, "package.json"), JSON.stringify({ name: "mp-scratch", version: "1.0.0", private: true, dependencies: { paybridge: `file:../${packed}` } }));
  write(join(project, "project.config.json"), JSON.stringify({ appid: "wx0000000000000000", compileType: "miniprogram", setting: {}, packOptions: { ignore: [] } }));
  write(join(project, "app.json"), JSON.stringify({ pages: ["pages/pay/pay"] }));
  write(join(project, "app.js"), "App({});\n");
  write(join(project, "pages/pay/pay.js"), 'const paybridge = require("paybridge");\nPage({ pay(payment) { return paybridge.pay(payment, { api: wallet2 }); } });\n');
  write(join(project, "pages/pay/pay.json"), "{}");
  write(join(project, "pages/pay/pay.wxml"), "<view>pay</view>");
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], { cwd: project, stdio: ["ignore", "ignore", "inherit"] });
  // packNpm needs a key (upload's); it is not used to build.
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  write(join(root, "key.pem"), privateKey.export({ type: "pkcs1", format: "pem" }));
  const ci = requireTool("miniprogram-ci");
  const mp = new ci.Project({ appid: "wx0000000000000000", type: "miniProgram", projectPath: project, privateKeyPath: join(root, "key.pem"), ignores: ["node_modules/**/*"] });
  warnings = await ci.packNpm(mp, { reporter: () => {} });
});

after(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The built folder, as the npm build left it. */
const built = () => join(project, "miniprogram_npm", "paybridge");

/** A global like a mini-program's logic layer: timers, and nothing of a browser. */
function runtimeGlobal(webAssembly) {
  const ctx = vm.createContext({ setTimeout, clearTimeout });
  vm.runInContext("delete globalThis.WebAssembly", ctx);
  for (const name of BROWSER_GLOBALS) assert.equal(vm.runInContext(`typeof ${name}`, ctx), "undefined", name);
  if (webAssembly) ctx.WebAssembly = webAssembly;
  return ctx;
}

/**
 * The runtime's module loader: CommonJS files of the code package only,
 * relative to the requiring file, each evaluated once in the context.
 */
function loader(ctx) {
  const cache = new Map();
  const requested = [];
  const load = (file) => {
    if (!cache.has(file)) {
      const module = { exports: {} };
      cache.set(file, module);
      const code = readFileSync(file, "utf8");
      const wrapper = vm.runInContext(`(function (exports, module, require) {${code}\n})`, ctx, { filename: file });
      wrapper(module.exports, module, (name) => {
        requested.push(name);
        if (!name.startsWith("./")) throw new Error(`the code package has no module ${name}`);
        const next = normalize(join(dirname(file), name));
        if (!next.startsWith(project + sep) || !existsSync(next)) throw new Error(`the code package has no module ${name}`);
        return load(next);
      });
    }
    return cache.get(file).exports;
  };
  return { load, requested };
}

/** The runtime's WebAssembly object, loading from the project. */
const runtimeWebAssembly = () => wallet2WebAssembly(project);

const W2_INFO = { timeStamp: "1700000000", nonceStr: "n0nce", package: "prepay_id=wx1", signType: "RSA", paySign: "c2ln" };

function wallet2Api() {
  const seen = [];
  return { seen, requestPayment: (req) => (seen.push(req), setTimeout(() => req.success({ errMsg: "requestPayment:ok" }), 1)) };
}

function wallet1Api() {
  const seen = [];
  return { seen, tradePay: (req) => (seen.push(req), setTimeout(() => req.success({ resultCode: "9000" }), 1)) };
}

async function paysBoth(pb) {
  const w2 = wallet2Api();
  const r2 = await pb.pay({ pay_channel: "wallet2_lite", pay_info: W2_INFO }, { api: w2 });
  assert.equal(r2.status, "succeeded");
  assert.equal(w2.seen.length, 1);
  assert.equal(w2.seen[0].paySign, W2_INFO.paySign);
  const w1 = wallet1Api();
  const r1 = await pb.pay({ pay_channel: "wallet1_lite", pay_info: { tradeNO: "T2024" } }, { api: w1 });
  assert.equal(r1.status, "succeeded");
  assert.equal(w1.seen[0].tradeNO, "T2024");
}

test("the mini-program npm build takes the package with no warning and copies its folder whole", () => {
  assert.deepEqual(warnings, []);
  const files = readdirSync(built()).sort();
  assert.deepEqual(files, ["index.js", "package.json", "paybridge.wasm.js", "paybridge_mini_bg.wasm.br"]);
  assert.deepEqual(brotliDecompressSync(readFileSync(join(built(), "paybridge_mini_bg.wasm.br"))), readFileSync(join(pkgDir, "paybridge_mini_bg.wasm")));
  assert.doesNotMatch(readFileSync(join(built(), "index.js"), "utf8"), /import\.meta|\bimport\(/);
});

test("require('paybridge') is the mini-program module: ready() finds the .wasm where the npm build put it", async () => {
  const W = runtimeWebAssembly();
  const ctx = runtimeGlobal();
  const { load, requested } = loader(ctx);
  const pb = load(join(built(), "index.js"));
  assert.equal(typeof pb.planAction, "function");
  await pb.ready({ WebAssembly: W });
  assert.deepEqual(W.paths, ["/miniprogram_npm/paybridge/paybridge_mini_bg.wasm.br"]);
  assert.deepEqual(requested, [], "the JavaScript build is not loaded where the .wasm loads");
  await paysBoth(pb);
});

test("pay() with no ready() at all loads through the runtime's global WebAssembly", async () => {
  const W = runtimeWebAssembly();
  const ctx = runtimeGlobal(W);
  const { load, requested } = loader(ctx);
  const pb = load(join(built(), "index.js"));
  await paysBoth(pb);
  assert.deepEqual(W.paths, ["/miniprogram_npm/paybridge/paybridge_mini_bg.wasm.br"]);
  assert.deepEqual(requested, []);
});

test("ready() with no options loads through the runtime's WebAssembly the profile names, before the standard one", async () => {
  const named = runtimeWebAssembly();
  const standard = runtimeWebAssembly();
  const ctx = runtimeGlobal(standard);
  const { load, requested } = loader(ctx);
  const pb = load(join(built(), "index.js"));
  ctx[pb.WASM_GLOBAL] = named;
  await pb.ready();
  assert.deepEqual(named.paths, ["/miniprogram_npm/paybridge/paybridge_mini_bg.wasm.br"]);
  assert.deepEqual(standard.paths, []);
  assert.deepEqual(requested, []);
  assert.equal(pb.defaultProfile().wallet2.webAssemblyGlobal, pb.WASM_GLOBAL);
  await paysBoth(pb);
});

test("with no WebAssembly, the JavaScript build beside index.js is used, named by no one", async () => {
  const ctx = runtimeGlobal();
  const { load, requested } = loader(ctx);
  const pb = load(join(built(), "index.js"));
  await pb.ready();
  assert.deepEqual(requested, ["./paybridge.wasm.js"]);
  await paysBoth(pb);
});

test("a project that keeps the JavaScript build elsewhere passes it as wasmJs (the folder's own file, required from there)", async () => {
  const ctx = runtimeGlobal();
  const { load, requested } = loader(ctx);
  const pb = load(join(built(), "index.js"));
  // Copied to another folder of the code package, as such a project would.
  const elsewhere = join(project, "vendor", "paybridge.wasm.js");
  mkdirSync(dirname(elsewhere), { recursive: true });
  copyFileSync(join(built(), "paybridge.wasm.js"), elsewhere);
  await pb.ready({ wasmJs: () => load(elsewhere) });
  assert.deepEqual(requested, [], "nothing required beside index.js");
  await paysBoth(pb);
});

test("a WebAssembly that cannot load the path (a standard one, taking bytes) gives way to the JavaScript build", async () => {
  const ctx = runtimeGlobal();
  const { load, requested } = loader(ctx);
  const pb = load(join(built(), "index.js"));
  await pb.ready({ WebAssembly: { instantiate: (bytes) => WebAssembly.instantiate(bytes) } });
  assert.deepEqual(requested, ["./paybridge.wasm.js"]);
  await paysBoth(pb);
});

test("an explicit wasmPath still wins, and a wrong one is not_ready naming it when there is nothing to fall back on", async () => {
  const W = runtimeWebAssembly();
  const ctx = runtimeGlobal();
  const { load } = loader(ctx);
  const pb = load(join(built(), "index.js"));
  await assert.rejects(pb.ready({ WebAssembly: W, wasmPath: "/nowhere/paybridge_mini_bg.wasm", wasmJs: () => { throw new Error("no build here"); } }), (e) => {
    assert.equal(e.name, "PayError");
    assert.equal(e.code, "not_ready");
    assert.equal(e.field, "wasmJs");
    return true;
  });
  assert.deepEqual(W.paths, ["/nowhere/paybridge_mini_bg.wasm"]);
  await pb.ready({ WebAssembly: W });
  await paysBoth(pb);
});
