// paybridge in a wallet1 mini-program, under wallet1's own rules, which
// its compiler and runtime apply and which nothing else here would catch:
//
// - packages come straight from node_modules: `npm install` of the packed
//   tarball, no "Build npm" step, and the compiler resolves a specifier by
//   plain file resolution (a file, or a folder's package.json "main" or
//   index.js), not through package.json "exports";
// - node_modules are not transpiled unless the project opts in, and the
//   uploader minifies as ES5: every file the page reaches must parse as an
//   ES5 script;
// - the page logic has no `globalThis` or `global` (unless the project
//   turns its global object on), no `window`, `self`, `document`,
//   `location`, `navigator`, `fetch`, `TextEncoder`, `TextDecoder` or
//   `process`, and no WebAssembly (only workers have one); code from
//   strings (`eval`, `new Function`) is refused.
//
// The compiler itself downloads from the provider at first use, so the
// rules are emulated: a resolver that ignores "exports", acorn at
// ecmaVersion 5 on every file reached, and a node:vm context with code
// generation from strings (and WebAssembly compiling) off, each module
// evaluated with the names above shadowed as undefined, as the runtime's
// module wrapper does. The page then pays every trade-pay result code
// through a fake `api`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { resolveFile } from "../tools/miniprogram-runtime.mjs";

const pkgDir = fileURLToPath(new URL("../../pkg/", import.meta.url));
const acorn = createRequire(new URL("../package.json", import.meta.url))("acorn");

/** The names a wallet1 page logic does not have; each module sees them undefined. */
const ABSENT = [
  "globalThis",
  "global",
  "window",
  "self",
  "WebAssembly",
  "TextEncoder",
  "TextDecoder",
  "fetch",
  "document",
  "location",
  "navigator",
  "process",
];

/** The specifier the README gives wallet1 pages. */
const SPECIFIER = "paybridge/miniprogram";

let root;
let project;

function write(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

before(() => {
  root = mkdtempSync(join(tmpdir(), "paybridge-w1-"));
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", root], { cwd: pkgDir, encoding: "utf8" }).trim().split("\n").pop();
  project = join(root, "project");
  write(join(project, "package.json"), JSON.stringify({ name: "w1-scratch", version: "1.0.0", private: true, dependencies: { paybridge: `file:../${packed}` } }));
  // No compileOptions: neither `transpile` nor `globalObjectMode` is turned on.
  write(join(project, "mini.project.json"), JSON.stringify({ format: 2 }));
  write(join(project, "app.json"), JSON.stringify({ pages: ["pages/pay/pay"] }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], { cwd: project, stdio: ["ignore", "ignore", "inherit"] });
});

after(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/**
 * wallet1's resolution: a relative path from the requiring file, or a
 * package from the project's node_modules; package.json "exports" is never
 * read. Nothing outside the project resolves.
 */
function resolve(specifier, from) {
  const target = specifier.startsWith("./") || specifier.startsWith("../") ? normalize(join(dirname(from), specifier)) : join(project, "node_modules", specifier);
  const file = resolveFile(target);
  if (!file || !file.startsWith(project + sep)) throw new Error(`wallet1 cannot resolve ${specifier} from ${relative(project, from)}`);
  return file;
}

/** The page logic's global: timers and the language, and nothing else; no code from strings. */
function pageLogicContext() {
  const ctx = vm.createContext({ setTimeout, clearTimeout, console }, { codeGeneration: { strings: false, wasm: false } });
  vm.runInContext("delete globalThis.WebAssembly", ctx);
  assert.throws(() => vm.runInContext("eval('1')", ctx), /EvalError|Code generation from strings disallowed/);
  assert.throws(() => vm.runInContext("new Function('return 1')", ctx), /EvalError|Code generation from strings disallowed/);
  return ctx;
}

/**
 * The runtime's CommonJS loader: each file parsed as an ES5 script first
 * (what the uploader's minifier takes), then evaluated once, wrapped in a
 * function whose parameters shadow every absent name.
 */
function loader(ctx) {
  const cache = new Map();
  const reached = [];
  const requested = [];
  const load = (file) => {
    if (!cache.has(file)) {
      const code = readFileSync(file, "utf8");
      reached.push(relative(project, file));
      acorn.parse(code, { ecmaVersion: 5, sourceType: "script" });
      assert.doesNotMatch(code, /\bimport\.meta\b|\bimport\(/, file);
      const module = { exports: {} };
      cache.set(file, module);
      const wrapper = vm.runInContext(`(function (exports, module, require, ${ABSENT.join(", ")}) {${code}\n})`, ctx, { filename: file });
      wrapper.call(module.exports, module.exports, module, (name) => {
        requested.push(name);
        return load(resolve(name, file));
      });
    }
    return cache.get(file).exports;
  };
  return { load, reached, requested, require: (specifier) => load(resolve(specifier, join(project, "pages", "pay", "pay.js"))) };
}

/** A wallet1-like API object: tradePay answers `success({ resultCode, ... })` a moment later. */
function wallet1Api(answer) {
  const seen = [];
  return {
    seen,
    tradePay(req) {
      seen.push({ tradeNO: req.tradeNO });
      setTimeout(() => req.success(answer), 1);
    },
  };
}

test("the README's specifier resolves without exports, to the folder's CommonJS module", () => {
  const file = resolve(SPECIFIER, join(project, "app.js"));
  assert.equal(relative(project, file), join("node_modules", "paybridge", "miniprogram", "index.js"));
  // Bare `paybridge` to a resolver that ignores exports is package.json
  // "main": the same module.
  assert.equal(resolve("paybridge", join(project, "app.js")), file);
});

test("every file the module reaches parses as ES5 and loads with no global object, encoder, fetch or WebAssembly", async () => {
  const ctx = pageLogicContext();
  const { require, reached, requested } = loader(ctx);
  const pb = require(SPECIFIER);
  assert.equal(typeof pb.ready, "function");
  assert.equal(typeof pb.pay, "function");
  // ready() with no options: no WebAssembly here, so the JavaScript build.
  await pb.ready();
  assert.deepEqual(requested, ["./paybridge.wasm.js"]);
  assert.deepEqual(reached.sort(), [join("node_modules", "paybridge", "miniprogram", "index.js"), join("node_modules", "paybridge", "miniprogram", "paybridge.wasm.js")]);
  // The context's own global object was left alone.
  assert.equal(vm.runInContext("typeof TextEncoder", ctx), "undefined");
  // The default profile names the runtime WebAssembly object the module looks for.
  assert.equal(pb.defaultProfile().wallet2.webAssemblyGlobal, pb.WASM_GLOBAL);
});

const CODES = [
  ["9000", "succeeded"],
  ["6001", "cancelled"],
  ["8000", "pending"],
  ["6004", "pending"],
  ["4000", "failed"],
  ["6002", "failed"],
  ["4", "failed"],
  ["99", "cancelled"],
];

test("pay(payment, { api }) maps every trade-pay result code through the profile", async () => {
  const ctx = pageLogicContext();
  const { require } = loader(ctx);
  const pb = require(SPECIFIER);
  for (const [code, status] of CODES) {
    const api = wallet1Api({ resultCode: code, memo: `wallet says ${code}` });
    const events = [];
    const r = await pb.pay({ pay_channel: "wallet1_lite", pay_info: { tradeNO: `T${code}` } }, { api, onEvent: (e) => events.push(e.type) });
    assert.equal(r.status, status, `resultCode ${code}`);
    assert.equal(r.code, code);
    assert.equal(r.channel, "wallet1_lite");
    assert.equal(r.verified, false, "a wallet's answer is a hint until the merchant's server confirms");
    // The wallet's own answer, its reason with it, is kept.
    assert.equal(r.raw.memo, `wallet says ${code}`);
    assert.deepEqual(api.seen, [{ tradeNO: `T${code}` }]);
    assert.deepEqual(events, ["planned", "called", "callback", "result"]);
  }
  // pay() with no `api`, where no global object shows the runtime's API:
  // nothing to call, a PayError and not a crash.
  // The module says how to hand the API over (perform::no_api).
  await assert.rejects(pb.pay({ pay_channel: "wallet1_lite", pay_info: { tradeNO: "T1" } }), (e) => {
    assert.equal(e.name, "PayError");
    assert.equal(e.code, "wrong_runtime");
    assert.equal(e.field, "api");
    assert.match(e.message, /^pay\(\) found no mini-program API: pass the runtime's API object as pay\(payment, \{ api \}\)/);
    return true;
  });
});

test("pay() before any ready() loads the JavaScript build by itself", async () => {
  const ctx = pageLogicContext();
  const { require, requested } = loader(ctx);
  const pb = require(SPECIFIER);
  const r = await pb.pay({ pay_channel: "wallet1_lite", pay_info: { tradeNO: "T9" } }, { api: wallet1Api({ resultCode: "9000" }) });
  assert.equal(r.status, "succeeded");
  assert.deepEqual(requested, ["./paybridge.wasm.js"]);
});
