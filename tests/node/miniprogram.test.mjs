// paybridge/miniprogram as a mini-program runs it: the built pkg/miniprogram.cjs
// evaluated in a node:vm context whose global has no window, document,
// fetch, TextEncoder, TextDecoder and no WebAssembly; the .wasm loaded
// through a stand-in for the runtime's WebAssembly object that takes only
// paths inside a fake code package; then the same suite again on the
// JavaScript build (pkg/paybridge.wasm.cjs), with WebAssembly absent
// altogether. Wallet APIs are fakes that succeed, cancel (both styles) and
// fail.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, normalize, sep } from "node:path";
import { brotliCompressSync, brotliDecompressSync } from "node:zlib";
import { execFileSync } from "node:child_process";
import vm from "node:vm";
import { createRequire } from "node:module";

const pkg = new URL("../../pkg/", import.meta.url);
const pkgFile = (f) => new URL(f, pkg).pathname;
const vectors = (f) => JSON.parse(readFileSync(new URL(`../vectors/${f}`, import.meta.url), "utf8"));

const BROWSER_GLOBALS = ["window", "document", "fetch", "location", "navigator", "TextEncoder", "TextDecoder"];

/** A global like a mini-program's logic layer: timers, and nothing of a browser. */
function miniProgramContext({ webAssembly }) {
  const ctx = vm.createContext({ setTimeout, clearTimeout });
  vm.runInContext("delete globalThis.WebAssembly", ctx);
  for (const name of BROWSER_GLOBALS) assert.equal(vm.runInContext(`typeof ${name}`, ctx), "undefined", name);
  assert.equal(vm.runInContext("typeof WebAssembly", ctx), "undefined");
  if (webAssembly) ctx.runtimeWebAssembly = webAssembly;
  return ctx;
}

/** Evaluates a CommonJS file inside the context, as the runtime's module loader does. */
function requireIn(ctx, file, require = () => assert.fail(`${file} requires nothing`)) {
  const code = readFileSync(file, "utf8");
  const wrapper = vm.runInContext(`(function (exports, module, require) {${code}\n})`, ctx, { filename: file });
  const module = { exports: {} };
  wrapper(module.exports, module, require);
  return module.exports;
}

/**
 * pkg/miniprogram.cjs inside the context: the module under Node's
 * conditions, which requires the JavaScript build (what a plain ready()
 * runs in Node) and nothing else.
 */
function requireEntry(ctx) {
  return requireIn(ctx, pkgFile("miniprogram.cjs"), (path) => {
    assert.equal(path, "./paybridge.wasm.cjs", "miniprogram.cjs requires its JavaScript build only");
    return requireIn(ctx, pkgFile("paybridge.wasm.cjs"));
  });
}

/** A code package holding the .wasm, plain and brotli-compressed. */
function codePackage() {
  const root = mkdtempSync(join(tmpdir(), "paybridge-mp-"));
  const dir = join(root, "lib", "paybridge");
  mkdirSync(dir, { recursive: true });
  copyFileSync(pkgFile("paybridge_mini_bg.wasm"), join(dir, "paybridge_mini_bg.wasm"));
  // Where the mini-program npm build puts it (package.json "miniprogram").
  mkdirSync(join(root, "miniprogram_npm", "paybridge"), { recursive: true });
  copyFileSync(pkgFile("miniprogram/paybridge_mini_bg.wasm.br"), join(root, "miniprogram_npm", "paybridge", "paybridge_mini_bg.wasm.br"));
  writeFileSync(join(dir, "paybridge_mini_bg.wasm.br"), brotliCompressSync(readFileSync(pkgFile("paybridge_mini_bg.wasm"))));
  return root;
}

/**
 * The runtime's WebAssembly object: instantiate(path, imports) with a path
 * inside the code package only (a leading / is the package root); bytes,
 * modules, URLs, `..` and paths outside the package are refused. Compiles
 * with the real WebAssembly behind the scenes.
 */
function runtimeWebAssembly(root) {
  const paths = [];
  return {
    paths,
    instantiate(path, imports) {
      return new Promise((resolve) => {
        if (typeof path !== "string") throw new TypeError("instantiate() takes a path inside the code package, not bytes or a module");
        paths.push(path);
        if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path) || path.startsWith("//")) throw new TypeError(`not a package path: ${path}`);
        if (path.includes("\\") || path.split("/").includes("..")) throw new TypeError(`not a package path: ${path}`);
        if (!/\.wasm(\.br)?$/.test(path)) throw new TypeError(`not a .wasm or .wasm.br file: ${path}`);
        const file = normalize(join(root, path));
        if (!file.startsWith(root + sep)) throw new TypeError(`outside the code package: ${path}`);
        let bytes = readFileSync(file); // throws for a file the package does not hold
        if (path.endsWith(".br")) bytes = brotliDecompressSync(bytes);
        resolve(WebAssembly.instantiate(bytes, imports));
      });
    },
  };
}

const W2_INFO = { timeStamp: "1700000000", nonceStr: "n0nce", package: "prepay_id=wx1", signType: "RSA", paySign: "c2ln" };
const wallet2Payment = { pay_channel: "wallet2_lite", pay_info: W2_INFO, order: "42" };
const wallet1Payment = { pay_channel: "wallet1_lite", pay_info: { tradeNO: "T2024" } };

/** A fake requestPayment that answers with `script` (a list of [callback, result]) a tick later. */
function wallet2Api(script) {
  const seen = [];
  return {
    seen,
    requestPayment(req) {
      seen.push(req);
      setTimeout(() => {
        for (const [cb, res] of script) req[cb](res);
      }, 1);
    },
  };
}

function wallet1Api(cb, res) {
  const seen = [];
  return {
    seen,
    tradePay(req) {
      seen.push(req);
      setTimeout(() => req[cb](res), 1);
    },
  };
}

async function rejectsWith(promise, code, field, check) {
  await assert.rejects(promise, (e) => {
    assert.equal(e.name, "PayError");
    assert.equal(e.code, code, e.message);
    if (field) assert.equal(e.field, field, e.message);
    check?.(e);
    return true;
  });
}

function throwsWith(fn, code, field) {
  assert.throws(fn, (e) => {
    assert.equal(e.name, "PayError");
    assert.equal(e.code, code, e.message);
    if (field) assert.equal(e.field, field, e.message);
    return true;
  });
}

/** The names and `import.meta` the code of `text` (a module) reads or writes: its tokens, not its strings (the
 * JavaScript build's data segment is text, in which the module's messages name `document`). */
function codeNames(text, pattern) {
  const acorn = createRequire(new URL("../package.json", import.meta.url))("acorn");
  const hits = [];
  const last = [];
  for (const t of acorn.tokenizer(text, { ecmaVersion: "latest", sourceType: "module" })) {
    if (t.type.label === "name" && pattern.test(t.value)) hits.push(t.value);
    if (t.value === "meta" && last[1]?.type.label === "." && last[0]?.type.label === "import") hits.push("import.meta");
    last.push(t);
    if (last.length > 2) last.shift();
  }
  return hits.length ? hits : null;
}

test("the bundles never mention window, document, fetch or import.meta", () => {
  for (const f of ["miniprogram.cjs", "miniprogram.mjs", "miniprogram-bundle.cjs", "paybridge.wasm.cjs", "miniprogram/paybridge.wasm.js"]) {
    const text = readFileSync(pkgFile(f), "utf8");
    assert.ok(text.length > 1000, f);
    const hits = codeNames(text, /^(window|document|fetch)$/);
    assert.equal(hits, null, `${f} mentions ${hits}`);
  }
  // The JavaScript build is JavaScript only.
  for (const f of ["paybridge.wasm.cjs", "miniprogram/paybridge.wasm.js"]) assert.equal(codeNames(readFileSync(pkgFile(f), "utf8"), /^WebAssembly$/), null);
  // The exports map names them and their types.
  const manifest = JSON.parse(readFileSync(pkgFile("package.json"), "utf8"));
  assert.deepEqual(manifest.exports["./miniprogram"].node.require, { types: "./miniprogram.d.cts", default: "./miniprogram.cjs" });
  assert.deepEqual(manifest.exports["./miniprogram"].node.import, { types: "./miniprogram.d.ts", default: "./miniprogram.mjs" });
  // Bundlers (every other condition) get the ES5 face with the JavaScript build.
  assert.equal(manifest.exports["./miniprogram"].default, "./miniprogram-bundle.cjs");
  assert.equal(manifest.exports["./paybridge.wasm.cjs"].default, "./paybridge.wasm.cjs");
  assert.equal(manifest.miniprogram, "miniprogram");
});

test("the JavaScript build loads through the package's exports as CommonJS, from require and from import", async () => {
  const fixture = new URL("./fixtures/require-wasmjs.cjs", import.meta.url).pathname;
  const out = JSON.parse(execFileSync(process.execPath, [fixture], { encoding: "utf8" }));
  assert.deepEqual(out, { same: true, members: ["bindings", "wasmExports"], status: "succeeded" });
  const imported = await import("paybridge/paybridge.wasm.cjs");
  assert.deepEqual(Object.keys(imported.default).sort(), ["bindings", "wasmExports"]);
});

test("the stand-in TextEncoder and TextDecoder agree with the platform's", () => {
  const ctx = miniProgramContext({ webAssembly: null });
  requireEntry(ctx);
  const { TextEncoder: E, TextDecoder: D } = ctx;
  assert.equal(typeof E, "function");
  assert.notEqual(E, globalThis.TextEncoder);
  const enc = new E();
  const ref = new TextEncoder();
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const tricky = [0xc2, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0x80, 0xbf, 0xa0, 0x9f, 0x90, 0x8f, 0xbb, 0xff];
  for (let t = 0; t < 5000; t++) {
    const len = Math.floor(rnd() * 10);
    const bytes = new Uint8Array(len).map(() => (rnd() < 0.5 ? Math.floor(rnd() * 256) : tricky[Math.floor(rnd() * tricky.length)]));
    for (const ignoreBOM of [false, true]) {
      assert.equal(new D("utf-8", { ignoreBOM }).decode(bytes), new TextDecoder("utf-8", { ignoreBOM }).decode(bytes), `${bytes}`);
    }
    let s = "";
    for (let i = 0; i < len; i++) s += String.fromCharCode(rnd() < 0.3 ? 0xd800 + Math.floor(rnd() * 0x800) : Math.floor(rnd() * 0x10000));
    assert.deepEqual([...enc.encode(s)], [...ref.encode(s)]);
    const room = Math.floor(rnd() * 12);
    const a = new Uint8Array(room);
    const b = new Uint8Array(room);
    assert.deepEqual({ ...enc.encodeInto(s, a) }, ref.encodeInto(s, b));
    assert.deepEqual([...a], [...b]);
  }
  assert.throws(() => new D("utf-8", { fatal: true }).decode(new Uint8Array([0xff])), (e) => e.name === "TypeError");
  assert.throws(() => new D("latin1"), (e) => e.name === "RangeError");
});

test("the runtime stand-in takes package paths only", async () => {
  const W = runtimeWebAssembly(codePackage());
  const imports = {};
  for (const bad of [readFileSync(pkgFile("paybridge_mini_bg.wasm")), "https://cdn.example/paybridge_mini_bg.wasm", "lib/../lib/paybridge/paybridge_mini_bg.wasm", pkgFile("paybridge_mini_bg.wasm"), "lib\\paybridge\\paybridge_mini_bg.wasm", "lib/paybridge/paybridge_bg.js"]) {
    await assert.rejects(W.instantiate(bad, imports), (e) => e instanceof TypeError || e.code === "ENOENT", String(bad).slice(0, 40));
  }
});

/**
 * The suite both builds must pass, in one fresh context each; `readyOptions`
 * says how that build is loaded. Its tests run in order: the first two
 * cover the time before ready() and load the module.
 */
function suite(name, { webAssembly, readyOptions }) {
  describe(name, () => {
    let ctx;
    let mp;
    before(() => {
      ctx = miniProgramContext({ webAssembly });
      mp = requireEntry(ctx);
    });

    test("before ready(): not_ready, from calls", async () => {
      throwsWith(() => mp.planAction(wallet2Payment), "not_ready");
      throwsWith(() => mp.wallet2LaunchRequest({ userName: "gh_abc" }), "not_ready");
      throwsWith(() => mp.__debugCounts(), "not_ready");
      assert.equal(mp.__wasmMemoryBytes(), 0);
    });

    test("ready() refuses what it cannot load, then loads", async () => {
      await rejectsWith(mp.ready(null), "invalid_options", "options");
      await rejectsWith(mp.ready({ WebAssembly: {} }), "invalid_options", "WebAssembly");
      if (webAssembly) {
        await rejectsWith(mp.ready({ WebAssembly: webAssembly }), "invalid_options", "wasmPath");
        await rejectsWith(mp.ready({ WebAssembly: webAssembly, wasmPath: "lib/../../paybridge_mini_bg.wasm" }), "not_ready", "wasmPath");
        await rejectsWith(mp.ready({ WebAssembly: webAssembly, wasmPath: "missing/paybridge_mini_bg.wasm" }), "not_ready", "wasmPath");
      } else {
        // No WebAssembly: a .wasm path alone names nothing this runtime runs.
        await rejectsWith(mp.ready({ wasmPath: "lib/paybridge/paybridge_mini_bg.wasm" }), "not_ready", "wasmJs");
        await rejectsWith(mp.ready({ wasmJs: {} }), "invalid_options", "wasmJs");
        // A require that throws (the file left out of the package), and a
        // module that does not link: not_ready, with the cause.
        const missing = new Error("module 'paybridge.wasm.cjs' is not defined");
        await rejectsWith(mp.ready({ wasmJs: () => { throw missing; } }), "not_ready", "wasmJs", (e) => assert.equal(e.cause, missing));
        await rejectsWith(mp.ready({ wasmJs: { bindings: { __wbg_set_wasm() {} }, wasmExports: {} } }), "not_ready", "wasmJs");
      }
      const first = mp.ready(readyOptions(ctx));
      assert.equal(mp.ready(), first, "a second call returns the same promise");
      await first;
      await mp.ready({ wasmPath: "ignored.wasm" });
      assert.ok(mp.__wasmMemoryBytes() > 0);
      if (webAssembly) assert.equal(webAssembly.paths.at(-1), "/lib/paybridge/paybridge_mini_bg.wasm");
    });

    test("planning and the helpers work, errors are the entry's PayError", () => {
      const a = mp.planAction(wallet2Payment);
      assert.equal(a.kind, "wallet2_request_payment");
      assert.equal(JSON.stringify(a.params), JSON.stringify(W2_INFO));
      // An api object names the mini-program: wallet1_lite pays through it.
      assert.equal(mp.planAction(wallet1Payment, { api: { tradePay() {} } }).via, "mini_program");
      throwsWith(() => mp.planAction(wallet1Payment), "wrong_runtime", "miniProgram");
      try {
        mp.planAction({ pay_channel: "nope" });
        assert.fail("no error");
      } catch (e) {
        assert.ok(e instanceof mp.PayError);
        assert.ok(e instanceof vm.runInContext("Error", ctx));
        assert.equal(e.code, "unsupported_channel");
      }
      assert.equal(
        JSON.stringify(mp.wallet2LaunchRequest({ userName: "gh_d43f693ca31f", path: "pages/pay/pay", query: { order: "A 42" }, type: "test" })),
        '{"userName":"gh_d43f693ca31f","path":"pages/pay/pay?order=A%2042","type":1}',
      );
      throwsWith(() => mp.wallet2LaunchRequest({ userName: "wx_123" }), "invalid_options", "userName");
      assert.equal(
        JSON.stringify(mp.readLaunchOptions({ scene: 1069, query: { order: "42", appParameter: "paid" }, path: "pages/pay/pay" })),
        '{"fromApp":true,"scene":1069,"query":{"order":"42","appParameter":"paid"},"path":"pages/pay/pay","appParameter":"paid"}',
      );
      assert.equal(mp.readLaunchOptions({ scene: 1001, query: {} }).fromApp, false);
      assert.equal(
        JSON.stringify(mp.launchAppButton("order=42")),
        '{"open-type":"launchApp","app-parameter":"order=42","binderror":"onLaunchAppError"}',
      );
      throwsWith(() => mp.launchAppButton("x".repeat(1025)), "invalid_options", "appParameter");
      throwsWith(() => mp.launchAppButton("a\u0000b"), "invalid_options", "appParameter");
      assert.equal(JSON.stringify(mp.wallet1MiniAuthRequest({ scopes: ["auth_user", "auth_base"] })), '{"scopes":["auth_user","auth_base"]}');
      throwsWith(() => mp.wallet1MiniAuthRequest({ scopes: "user" }), "invalid_options", "scopes");
    });

    test("the golden plans and the hostile vectors give the same answers as the host", () => {
      for (const c of vectors("plan.json")) assert.equal(JSON.stringify(mp.planAction(c.payment, c.options)), JSON.stringify(c.expect), c.name);
      for (const c of vectors("hostile.json")) throwsWith(() => mp.planAction(c.payment, c.options), c.code, c.field);
    });

    test("wallet2 requestPayment: success", async () => {
      const ok = { errMsg: "requestPayment:ok" };
      const api = wallet2Api([["success", ok], ["complete", ok]]);
      const r = await mp.pay(wallet2Payment, { api });
      assert.equal(r.status, "succeeded");
      assert.equal(r.code, "requestPayment:ok");
      assert.equal(r.channel, "wallet2_lite");
      assert.equal(r.verified, false);
      assert.equal(r.raw, ok);
      const req = api.seen[0];
      for (const [k, v] of Object.entries(W2_INFO)) assert.equal(req[k], v, k);
      for (const cb of ["success", "fail", "complete"]) assert.equal(typeof req[cb], "function", cb);
    });

    test("wallet2 requestPayment: cancel through fail", async () => {
      const cancel = { errMsg: "requestPayment:fail cancel" };
      const r = await mp.pay(wallet2Payment, { api: wallet2Api([["fail", cancel], ["complete", cancel]]) });
      assert.equal(r.status, "cancelled");
      assert.equal(r.code, "requestPayment:fail cancel");
      assert.equal(r.raw, cancel);
    });

    test("wallet2 requestPayment: the older complete-only cancel", async () => {
      const cancel = { errMsg: "requestPayment:cancel" };
      const r = await mp.pay(wallet2Payment, { api: wallet2Api([["complete", cancel]]) });
      assert.equal(r.status, "cancelled");
      assert.equal(r.code, "requestPayment:cancel");
      assert.equal(r.raw, cancel);
    });

    test("wallet2 requestPayment: failure, and a second callback changes nothing", async () => {
      const fail = { errMsg: "requestPayment:fail (signature mismatch)" };
      const late = { errMsg: "requestPayment:ok" };
      const r = await mp.pay(wallet2Payment, { api: wallet2Api([["fail", fail], ["success", late], ["complete", fail]]) });
      assert.equal(r.status, "failed");
      assert.equal(r.code, "requestPayment:fail (signature mismatch)");
      assert.equal(r.raw, fail);
    });

    test("wallet1 tradePay: success, cancel and failure", async () => {
      for (const [cb, res, status, code] of [
        ["success", { resultCode: "9000" }, "succeeded", "9000"],
        ["success", { resultCode: "6001" }, "cancelled", "6001"],
        ["success", { resultCode: "8000" }, "pending", "8000"],
        ["fail", { error: 6001, errorMessage: "user cancel" }, "cancelled", "6001"],
        ["fail", { error: 4000, errorMessage: "system busy" }, "failed", "4000"],
        // A resultCode in fail maps as in success; a fail is never a
        // success, and one naming the paid code is the merchant's to say.
        ["fail", { resultCode: "6001" }, "cancelled", "6001"],
        ["fail", { resultCode: "9000" }, "pending", "9000"],
        // The error code through the same table: a result still unknown
        // or processing may yet be paid.
        ["fail", { error: 6004, errorMessage: "result unknown" }, "pending", "6004"],
        ["fail", { error: 8000 }, "pending", "8000"],
        ["fail", { error: 99 }, "cancelled", "99"],
      ]) {
        const api = wallet1Api(cb, res);
        const r = await mp.pay(wallet1Payment, { api });
        assert.equal(r.status, status, JSON.stringify(res));
        assert.equal(r.code, code);
        assert.equal(r.channel, "wallet1_lite");
        assert.equal(r.raw, res);
        assert.equal(api.seen[0].tradeNO, "T2024");
      }
    });

    test("no api given and none found by the profile's names: wrong_runtime that says to pass api or name the global, never a browser", async () => {
      const fits = (e) => {
        assert.match(e.message, /pay\(payment, \{ api \}\)/);
        assert.match(e.message, /profile\.wallet1\.miniProgramGlobal/);
        assert.doesNotMatch(e.message, /browser/);
      };
      await rejectsWith(mp.pay(wallet2Payment), "wrong_runtime", "api", fits);
      await rejectsWith(mp.pay(wallet1Payment), "wrong_runtime", "api", fits);
      await rejectsWith(mp.pay(wallet1Payment, {}), "wrong_runtime", "api", fits);
      await rejectsWith(mp.pay(wallet2Payment, { api: undefined }), "wrong_runtime", "api", fits);
      // An api named, even as null or by a getter that throws: the core's own words.
      const own = (e) => assert.doesNotMatch(e.message, /found no mini-program API/);
      await rejectsWith(mp.pay(wallet2Payment, { api: {} }), "wrong_runtime", "api", own);
      await rejectsWith(mp.pay(wallet2Payment, { api: null }), "wrong_runtime", "api", own);
      const throwing = Object.defineProperty({}, "api", { enumerable: true, get: () => { throw new Error("no api here"); } });
      await rejectsWith(mp.pay(wallet2Payment, throwing), "wrong_runtime", "api", own);
      // A runtime stated by the caller keeps the planner's answer.
      await rejectsWith(mp.pay(wallet1Payment, { runtime: { host: "browser" } }), "wrong_runtime", "miniProgram");
    });

    test("a second pay() while one is in flight: busy", async () => {
      let answer;
      const api = { requestPayment: (req) => (answer = req) };
      const first = mp.pay(wallet2Payment, { api });
      await rejectsWith(mp.pay(wallet2Payment, { api: wallet2Api([]) }), "busy");
      await new Promise((r) => setTimeout(r, 5));
      answer.success({ errMsg: "requestPayment:ok" });
      assert.equal((await first).status, "succeeded");
      // And the module takes payments again.
      const ok = { errMsg: "requestPayment:ok" };
      assert.equal((await mp.pay(wallet2Payment, { api: wallet2Api([["success", ok]]) })).status, "succeeded");
    });

    test("an API that never answers: pending after callbackTimeoutMs, not a wait for ever, and the module takes payments again", async () => {
      let req;
      const silent = { requestPayment: (r) => (req = r) };
      await rejectsWith(mp.pay(wallet2Payment, { api: silent, callbackTimeoutMs: 0 }), "invalid_options", "callbackTimeoutMs");
      const t0 = Date.now();
      const r = await Promise.race([
        mp.pay(wallet2Payment, { api: silent, callbackTimeoutMs: 150 }),
        new Promise((_, no) => setTimeout(() => no(new Error("pay() still pending after 3 s")), 3000)),
      ]);
      assert.equal(r.status, "pending");
      assert.match(r.message, /callbackTimeoutMs/);
      assert.ok(Date.now() - t0 >= 140, `${Date.now() - t0} ms`);
      // The answer that comes after the time-out changes nothing and throws nothing.
      req.success({ errMsg: "requestPayment:ok" });
      const ok = { errMsg: "requestPayment:ok" };
      assert.equal((await mp.pay(wallet2Payment, { api: wallet2Api([["success", ok]]) })).status, "succeeded");
      // Nothing held once the payments are over (the leak tests' hook).
      assert.deepEqual({ ...mp.__debugCounts() }, { listeners: 0, waiters: 0, retained: 0 });
    });

    test("a throwing api is a PayError with the thrown value as cause", async () => {
      const boom = new Error("no payment permission");
      const api = {
        requestPayment() {
          throw boom;
        },
      };
      await assert.rejects(mp.pay(wallet2Payment, { api }), (e) => e.code === "bridge_error" && e.cause === boom && /no payment permission/.test(e.message));
    });

    test("the api option is the runtime's object, not data: cycles, throwing getters and size do not matter", async () => {
      const ok = { errMsg: "requestPayment:ok" };
      const api = wallet2Api([["success", ok]]);
      api.self = api;
      Object.defineProperty(api, "env", { enumerable: true, get() { throw new Error("not in this runtime"); } });
      api.big = new Array(25000).fill(0);
      assert.equal((await mp.pay(wallet2Payment, { api })).status, "succeeded");
      assert.equal(mp.planAction(wallet2Payment, { api }).kind, "wallet2_request_payment");
    });

    test("nested arrays padded to the value limit are refused before they fill the heap; pay() is not left busy", async () => {
      let nested = ["x"];
      for (let i = 0; i < 56; i++) {
        const level = new Array(20000).fill(null);
        level[0] = nested;
        nested = level;
      }
      const hostile = { ...wallet2Payment, extra: nested };
      const before = mp.__wasmMemoryBytes();
      throwsWith(() => mp.planAction(hostile), "invalid_payment", "payment");
      await rejectsWith(mp.pay(hostile, { api: wallet2Api([]) }), "invalid_payment", "payment");
      assert.ok(mp.__wasmMemoryBytes() <= before + (4 << 20), `memory grew from ${before} to ${mp.__wasmMemoryBytes()}`);
      const ok = { errMsg: "requestPayment:ok" };
      assert.equal((await mp.pay(wallet2Payment, { api: wallet2Api([["success", ok]]) })).status, "succeeded");
    });

    test("memory stays flat over many plans and large inputs", () => {
      const p = { pay_channel: "wallet1_lite", pay_info: { tradeNO: "T" } };
      const api = { tradePay() {} };
      for (let i = 0; i < 500; i++) mp.planAction(p, { api });
      const before = mp.__wasmMemoryBytes();
      for (let i = 0; i < 3000; i++) mp.planAction(p, { api });
      // Near the input limits: a string of almost 1 MiB (non-ASCII), many values.
      const big = { ...p, note: "é".repeat(1000000), list: new Array(15000).fill("x") };
      assert.equal(mp.planAction(big, { api }).tradeNO, "T");
      // JSON text of almost 1 MiB holding as many values, or keys, as fit:
      // refused by the value limit (20000), cleanly, as object input is.
      const head = '{"pay_channel":"wallet1_lite","pay_info":{"tradeNO":"T"},"a":';
      const arrays = `${head}[${new Array(340000).fill("[]").join(",")}]}`;
      const keys = `${head}{${Array.from({ length: 116000 }, (_, i) => `"${i.toString(36).padStart(4, "0")}":0`).join(",")}}}`;
      for (const text of [arrays, keys]) {
        assert.ok(text.length > 1000000 && text.length < 1 << 20, `${text.length}`);
        assert.throws(() => mp.planAction(text, { api }), (e) => e.code === "invalid_payment" && e.field === "payment");
      }
      // Just under the limit, it plans.
      const under = `${head}[${new Array(19000).fill("[]").join(",")}]}`;
      assert.equal(mp.planAction(under, { api }).tradeNO, "T");
      for (let i = 0; i < 3000; i++) mp.planAction(p, { api });
      if (!webAssembly) assert.equal(mp.__wasmMemoryBytes(), before, "the JS build's memory never grows");
      else assert.ok(mp.__wasmMemoryBytes() <= before + (16 << 20));
    });
  });
}

suite("through the runtime's WebAssembly, from a package path", {
  webAssembly: runtimeWebAssembly(codePackage()),
  readyOptions: (ctx) => ({ WebAssembly: ctx.runtimeWebAssembly, wasmPath: "/lib/paybridge/paybridge_mini_bg.wasm" }),
});

suite("the JavaScript build, with no WebAssembly at all", {
  webAssembly: null,
  readyOptions: (ctx) => ({ wasmJs: () => requireIn(ctx, pkgFile("paybridge.wasm.cjs")) }),
});

test("the JavaScript build pays in a process where WebAssembly does not exist (node --jitless)", () => {
  const script = new URL("./fixtures/no-webassembly.mjs", import.meta.url).pathname;
  const out = JSON.parse(execFileSync(process.execPath, ["--jitless", "--no-warnings", script], { encoding: "utf8" }));
  assert.equal(out.webAssembly, "undefined");
  assert.deepEqual(out.result, { status: "cancelled", code: "requestPayment:fail cancel", raw: { errMsg: "requestPayment:fail cancel" } });
  assert.ok(out.plans >= 20);
  assert.equal(out.plansMatching, out.plans);
  assert.equal(out.withoutApi, "wrong_runtime");
});

test("two entries over the one translated module (the folder and the bundle, as Jest's jsdom environment loads both): each instance keeps its own memory", async () => {
  const ctx = miniProgramContext({ webAssembly: null });
  // One module cache, as a runtime's loader has: both entries get the same
  // translated module object, and each instantiates it.
  let translated = null;
  const shared = (path) => {
    assert.match(path, /^\.\/(miniprogram\/)?paybridge\.wasm\.js$/);
    return (translated ??= requireIn(ctx, pkgFile("miniprogram/paybridge.wasm.js")));
  };
  const folder = requireIn(ctx, pkgFile("miniprogram/index.js"), shared);
  await folder.ready();
  const before = JSON.stringify(folder.planAction(wallet2Payment));
  const bundle = requireIn(ctx, pkgFile("miniprogram-bundle.cjs"), shared);
  await bundle.ready();
  // The first still plans the same (its data and its copies in its own memory), and pays.
  for (let i = 0; i < 3; i++) assert.equal(JSON.stringify(folder.planAction(wallet2Payment)), before);
  const ok = { errMsg: "requestPayment:ok" };
  assert.equal((await folder.pay(wallet2Payment, { api: wallet2Api([["success", ok]]) })).status, "succeeded");
  assert.equal((await bundle.pay(wallet2Payment, { api: wallet2Api([["success", ok]]) })).status, "succeeded");
});

test("in Node, pay() before any ready() loads the JavaScript build, as a bundler's build does; one whose load failed starts it again", async () => {
  const ctx = miniProgramContext({ webAssembly: null });
  ctx.process = { versions: { node: process.versions.node } };
  let missing = true;
  const mp = requireIn(ctx, pkgFile("miniprogram.cjs"), (path) => {
    assert.equal(path, "./paybridge.wasm.cjs");
    if (missing) throw new Error("Cannot find module './paybridge.wasm.cjs'");
    return requireIn(ctx, pkgFile("paybridge.wasm.cjs"));
  });
  const ok = { errMsg: "requestPayment:ok" };
  // The build left out of the package: the load's own error, and again.
  await rejectsWith(mp.pay(wallet2Payment, { api: wallet2Api([["success", ok]]) }), "not_ready", "wasmJs", (e) => assert.match(e.message, /Cannot find module/));
  await rejectsWith(mp.pay(wallet2Payment, { api: wallet2Api([["success", ok]]) }), "not_ready", "wasmJs", (e) => assert.match(e.message, /Cannot find module/));
  missing = false;
  assert.equal((await mp.pay(wallet2Payment, { api: wallet2Api([["success", ok]]) })).status, "succeeded");
  // Outside Node (a page importing the module) a plain ready() names what is missing.
  const page = requireEntry(miniProgramContext({ webAssembly: null }));
  await rejectsWith(page.ready(), "not_ready", "wasmJs");
});

test("a standard WebAssembly, which takes bytes rather than a package path: ready() falls back to the JavaScript build it was given", async () => {
  const ctx = miniProgramContext({ webAssembly: null });
  ctx.WebAssembly = WebAssembly;
  const mp = requireEntry(ctx);
  await mp.ready({ wasmPath: "/lib/paybridge/paybridge_mini_bg.wasm", wasmJs: () => requireIn(ctx, pkgFile("paybridge.wasm.cjs")) });
  assert.equal(mp.planAction(wallet2Payment).kind, "wallet2_request_payment");
});

test("a .wasm.br path loads too", async () => {
  const W = runtimeWebAssembly(codePackage());
  const ctx = miniProgramContext({ webAssembly: W });
  const mp = requireEntry(ctx);
  await mp.ready({ WebAssembly: W, wasmPath: "lib/paybridge/paybridge_mini_bg.wasm.br" });
  assert.equal(mp.planAction(wallet2Payment).kind, "wallet2_request_payment");
});

test("ready({ profile }) names the runtime's WebAssembly global once: the .wasm loads through it, not through the default name or the standard one", async () => {
  const named = runtimeWebAssembly(codePackage());
  const other = runtimeWebAssembly(codePackage());
  const ctx = miniProgramContext({ webAssembly: null });
  ctx.RuntimeWasm = named;
  ctx[WASM_GLOBAL_NAME] = other;
  ctx.WebAssembly = other;
  const mp = requireEntry(ctx);
  await rejectsWith(mp.ready({ wasmPath: "/lib/paybridge/paybridge_mini_bg.wasm", profile: { wallet2: { webAssemblyGlobal: "not a name" } } }), "invalid_options", "profile.wallet2.webAssemblyGlobal");
  await rejectsWith(mp.ready({ profile: 7 }), "invalid_options", "profile");
  await mp.ready({ wasmPath: "/lib/paybridge/paybridge_mini_bg.wasm.br", profile: { wallet2: { webAssemblyGlobal: "RuntimeWasm" } } });
  assert.deepEqual(named.paths, ["/lib/paybridge/paybridge_mini_bg.wasm.br"]);
  assert.deepEqual(other.paths, []);
  const api = wallet2Api([["success", { errMsg: "requestPayment:ok" }]]);
  assert.equal((await mp.pay(wallet2Payment, { api })).status, "succeeded");
});

const WASM_GLOBAL_NAME = "Wallet2WebAssembly";

test("a wasmJs that is not the JavaScript build module says what it is: given as undefined (a default import), an object, a function's answer", async () => {
  const ctx = miniProgramContext({ webAssembly: null });
  const mp = requireEntry(ctx);
  assert.equal(mp.WASM_GLOBAL, WASM_GLOBAL_NAME);
  const says = (what) => (e) => {
    assert.match(e.message, /is not the paybridge JavaScript build module/);
    assert.match(e.message, what);
    assert.match(e.message, /import \* as wasmJs from "paybridge\/paybridge\.wasm\.cjs"/);
  };
  await rejectsWith(mp.ready({ wasmJs: undefined }), "invalid_options", "wasmJs", says(/but undefined/));
  await rejectsWith(mp.ready({ wasmJs: { default: undefined } }), "invalid_options", "wasmJs", says(/but an object that is not that module/));
  await rejectsWith(mp.ready({ wasmJs: () => undefined }), "invalid_options", "wasmJs", says(/a function that returned undefined/));
  await rejectsWith(mp.ready({ wasmJs: "paybridge.wasm.cjs" }), "invalid_options", "wasmJs", says(/but a string/));
});

/** Loads pkg/miniprogram-bundle.cjs as a bundler's output would run it: its one require, the folder's JavaScript build. */
function bundleFace(ctx) {
  const requested = [];
  const mp = requireIn(ctx, pkgFile("miniprogram-bundle.cjs"), (name) => {
    requested.push(name);
    assert.equal(name, "./miniprogram/paybridge.wasm.js");
    return requireIn(ctx, pkgFile("miniprogram/paybridge.wasm.js"));
  });
  return { mp, requested };
}

test("what bundlers resolve (miniprogram-bundle.cjs) is ES5, needs nothing of a browser, and a plain ready() runs the JavaScript build it requires", async () => {
  const acorn = createRequire(new URL("../package.json", import.meta.url))("acorn");
  for (const f of ["miniprogram-bundle.cjs", "miniprogram/paybridge.wasm.js"]) acorn.parse(readFileSync(pkgFile(f), "utf8"), { ecmaVersion: 5, sourceType: "script" });
  // A runtime WebAssembly is there, but no .wasm in the bundle: the JavaScript build.
  const W = runtimeWebAssembly(codePackage());
  const ctx = miniProgramContext({ webAssembly: null });
  ctx[WASM_GLOBAL_NAME] = W;
  const { mp, requested } = bundleFace(ctx);
  assert.deepEqual(requested, ["./miniprogram/paybridge.wasm.js"], "the build is required when the module is, where a bundler follows it");
  assert.equal(mp.__wasmMemoryBytes(), 0);
  await mp.ready();
  assert.deepEqual(W.paths, []);
  assert.ok(mp.__wasmMemoryBytes() > 0);
  const w1 = wallet1Api("success", { resultCode: "6001" });
  assert.equal((await mp.pay(wallet1Payment, { api: w1 })).status, "cancelled");
  const w2 = wallet2Api([["success", { errMsg: "requestPayment:ok" }]]);
  assert.equal((await mp.pay(wallet2Payment, { api: w2 })).status, "succeeded");
});

test("the bundlers' face: pay() before any ready() loads the JavaScript build; an explicit wasmPath still loads the .wasm", async () => {
  const first = bundleFace(miniProgramContext({ webAssembly: null })).mp;
  const w1 = wallet1Api("success", { resultCode: "9000" });
  assert.equal((await first.pay(wallet1Payment, { api: w1 })).status, "succeeded");
  const W = runtimeWebAssembly(codePackage());
  const second = bundleFace(miniProgramContext({ webAssembly: null })).mp;
  await second.ready({ WebAssembly: W, wasmPath: "/lib/paybridge/paybridge_mini_bg.wasm" });
  assert.deepEqual(W.paths, ["/lib/paybridge/paybridge_mini_bg.wasm"]);
});

test("the ES module entry loads in Node; the main entry exports the helpers too", async () => {
  const mp = await import("paybridge/miniprogram");
  assert.equal(typeof mp.ready, "function");
  throwsWith(() => mp.planAction(wallet2Payment), "not_ready");
  // Node's WebAssembly.instantiate() takes bytes, not a path: a clear not_ready.
  await rejectsWith(mp.ready({ wasmPath: "lib/paybridge_mini_bg.wasm" }), "not_ready", "wasmPath");
  const main = await import("paybridge");
  for (const f of ["wallet1MiniAuthRequest", "wallet2LaunchRequest", "readLaunchOptions", "launchAppButton"]) {
    assert.equal(typeof main[f], "function", `the main entry exports ${f}`);
    assert.equal(typeof mp[f], "function", `the mini-program entry exports ${f}`);
  }
  assert.equal(JSON.stringify(main.wallet2LaunchRequest({ userName: "gh_1a2b", type: 2 })), '{"userName":"gh_1a2b","type":2}');
  assert.equal(main.readLaunchOptions({ scene: "1069" }).fromApp, true);
});

test("under Node's conditions a plain ready() runs the JavaScript build (API.md: the runtime's WebAssembly named in the profile, else the JavaScript build), from require and from import", async () => {
  const require = createRequire(import.meta.url);
  const cjs = require("paybridge/miniprogram");
  const esm = await import("paybridge/miniprogram");
  for (const mp of [cjs, esm]) {
    const first = mp.ready();
    assert.equal(mp.ready(), first, "a second call returns the same promise");
    await first;
    const ok = { errMsg: "requestPayment:ok" };
    const r = await mp.pay(wallet2Payment, { api: wallet2Api([["success", ok]]) });
    assert.equal(r.status, "succeeded");
    assert.equal(mp.planAction(wallet2Payment).kind, "wallet2_request_payment");
  }
  // Both forms run the one JavaScript build of the process: the first still
  // plans and pays after the second loaded.
  assert.equal(JSON.stringify(cjs.planAction(wallet2Payment).params), JSON.stringify(W2_INFO));
  const ok = { errMsg: "requestPayment:ok" };
  assert.equal((await cjs.pay(wallet2Payment, { api: wallet2Api([["success", ok]]) })).status, "succeeded");
});

test("the types compile under strict TypeScript and reject a wrong use", () => {
  const dir = new URL("./fixtures/", import.meta.url).pathname;
  const tsc = new URL("../node_modules/.bin/tsc", import.meta.url).pathname;
  const args = ["--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", "--lib", "es2022,dom", "--typeRoots", join(dir, "no-type-roots")];
  const files = ["miniprogram-types.ts", "miniprogram-types-wrong.ts"].map((f) => join(dir, f));
  let out = "";
  try {
    execFileSync(tsc, [...args, ...files], { stdio: "pipe" });
  } catch (e) {
    out = String(e.stdout);
  }
  const errors = out.split("\n").filter((l) => /error TS\d+/.test(l));
  // The page as written compiles; each of the three mistakes is caught.
  assert.deepEqual(errors.filter((l) => !l.includes("miniprogram-types-wrong.ts")), [], out);
  assert.equal(errors.length, 3, out);
});

/**
 * The example page (www/miniprogram/pay/pay.js) in a mini-program context:
 * Page() and getApp() as the runtime gives them, the package as the
 * mini-program npm build installs it (`require("paybridge")` is the
 * `miniprogram` folder's index.js, the JavaScript build beside it), a
 * merchant server and a wallet behind the api's request() and
 * requestPayment().
 */
async function runExamplePage({ webAssembly, wallet = { errMsg: "requestPayment:ok" }, merchant = "paid" }) {
  const ctx = miniProgramContext({ webAssembly });
  const files = {
    paybridge: pkgFile("miniprogram/index.js"),
    "./paybridge.wasm.js": pkgFile("miniprogram/paybridge.wasm.js"),
  };
  const loadedFiles = [];
  const cache = {};
  const require = (path) => {
    assert.ok(files[path], `the page requires ${path}`);
    loadedFiles.push(path);
    return (cache[path] ??= requireIn(ctx, files[path], require));
  };
  const payment = { id: "pay_42", pay_channel: "wallet2_lite", pay_info: W2_INFO };
  const server = [];
  ctx.wallet2 = {
    request(req) {
      server.push(`${req.method} ${req.url} ${JSON.stringify(req.data ?? null)}`);
      const data = req.method === "POST" ? payment : { id: "pay_42", status: merchant };
      setTimeout(() => req.success({ statusCode: 200, data }), 1);
    },
    requestPayment(req) {
      setTimeout(() => (wallet.errMsg.endsWith(":ok") ? req.success(wallet) : req.fail(wallet)), 1);
    },
  };
  if (webAssembly) ctx.Wallet2WebAssembly = webAssembly;
  let definition = null;
  ctx.Page = (d) => (definition = d);
  ctx.getApp = () => ({ globalData: { openId: "o-123" } });
  requireIn(ctx, new URL("../../www/miniprogram/pay/pay.js", import.meta.url).pathname, require);
  const page = Object.assign(Object.create(definition), { data: { ...definition.data } });
  page.setData = (d) => Object.assign(page.data, d);
  page.onLoad({ scene: 1069, query: { order: "42", appParameter: "from-app" } });
  for (let i = 0; i < 100 && !page.data.ready && !page.data.error; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(page.data.error, "");
  assert.equal(page.data.ready, true);
  assert.equal(page.data.back["app-parameter"], "from-app");
  await page.onPay();
  return { page, server, loadedFiles };
}

test("the example page asks the server whatever the wallet said: a failure the server has as paid shows paid", async () => {
  for (const [merchant, status] of [["paid", "succeeded"], ["created", "failed"]]) {
    const { page, server } = await runExamplePage({ webAssembly: null, wallet: { errMsg: "requestPayment:fail system error" }, merchant });
    assert.equal(page.data.result.status, status, merchant);
    assert.equal(page.data.result.verified, true);
    assert.equal(page.data.result.code, "requestPayment:fail system error", "the wallet's own code stays");
    assert.equal(server.at(-1), "GET https://shop.example.com/merchant/payments/pay_42 null", "the server was asked");
  }
});

for (const [name, webAssembly] of [
  ["through the runtime's WebAssembly", runtimeWebAssembly(codePackage())],
  ["on the JavaScript build", null],
]) {
  test(`the example page pays and shows the result, ${name}`, async () => {
    const { page, server, loadedFiles } = await runExamplePage({ webAssembly });
    assert.equal(page.data.error, "");
    assert.equal(page.data.result.status, "succeeded");
    assert.equal(page.data.result.verified, true);
    assert.equal(page.data.result.code, "requestPayment:ok");
    assert.equal(page.data.busy, false);
    assert.match(page.data.log, /planned\n.*called\n.*callback\n.*result\n$/s);
    assert.deepEqual(server, [
      'POST https://shop.example.com/merchant/payments {"channel":"wallet2_lite","open_id":"o-123","order":"42"}',
      "GET https://shop.example.com/merchant/payments/pay_42 null",
    ]);
    // The button back to the app now tells it how the payment went.
    assert.equal(page.data.back["open-type"], "launchApp");
    assert.equal(page.data.back["app-parameter"], "status=succeeded&payment=pay_42");
    // The JavaScript build is loaded only where there is no WebAssembly.
    assert.equal(loadedFiles.includes("./paybridge.wasm.js"), !webAssembly);
    if (webAssembly) assert.equal(webAssembly.paths.at(-1), "/miniprogram_npm/paybridge/paybridge_mini_bg.wasm.br");
  });
}
