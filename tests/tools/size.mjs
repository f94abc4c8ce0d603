// `make size`: gzip -9 sizes of what each entry makes a page download.
// Prints a table and, with --json, the same figures as JSON. Every shipped
// module has a budget (BUDGETS); `make test` runs this last and fails when
// a module is over its budget or one of its files is missing.
import { readFileSync, existsSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";

// SIZE_PKG names another folder (tests/node/size-gates.test.mjs).
const pkg = process.env.SIZE_PKG ? pathToFileURL(process.env.SIZE_PKG.replace(/\/?$/, "/")) : new URL("../../pkg/", import.meta.url);
/** `gzip -9 -n` where there is a gzip (as `make bench` counts), else zlib's level 9 (about 0.1 KB more). */
function gzip9(buf) {
  const r = spawnSync("gzip", ["-9", "-n", "-c"], { input: buf, maxBuffer: 1 << 28 });
  return r.status === 0 ? r.stdout.length : gzipSync(buf, { level: 9 }).length;
}
const gz = (f) => (existsSync(new URL(f, pkg)) ? gzip9(readFileSync(new URL(f, pkg))) : null);
const raw = (f) => (existsSync(new URL(f, pkg)) ? statSync(new URL(f, pkg)).size : 0);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** What a page may download before the wallet's pay call, gzip -9 (README, "Size and speed"). */
export const BROWSER_BUDGET = 15_300;

/**
 * Each shipped module's budget: the files it is made of (under pkg/), how
 * they are counted (gzip -9, or raw bytes as a mini-program code package
 * counts them) and the most it may weigh. Measured with rustc 1.95.0 (the
 * toolchain is not pinned: rustup can install no other release here), so
 * a new compiler may move them.
 */
export const BUDGETS = [
  { name: "browser entry, what pay() loads", files: ["index.js"], count: "gzip", budget: BROWSER_BUDGET },
  { name: "full module (ready())", files: ["paybridge_full_bg.wasm", "full.js"], count: "gzip", budget: 85_500 },
  { name: "mini-program subpath", files: ["paybridge_mini_bg.wasm", "miniprogram.mjs"], count: "gzip", budget: 29_750 },
  {
    name: "mini-program folder, wallet2 code package",
    files: ["miniprogram/index.js", "miniprogram/package.json", "miniprogram/paybridge.wasm.js", "miniprogram/paybridge_mini_bg.wasm.br"],
    count: "raw",
    budget: 129_900,
  },
  {
    name: "mini-program folder, wallet1 code package",
    files: ["miniprogram/index.js", "miniprogram/paybridge.wasm.js"],
    count: "raw",
    budget: 107_900,
  },
  { name: "no-WebAssembly JS build", files: ["paybridge.wasm.cjs"], count: "gzip", budget: 34_150 },
];

/** Each budget's figure, or the files it misses. */
export function checkBudgets() {
  return BUDGETS.map((b) => {
    const missing = b.files.filter((f) => !existsSync(new URL(f, pkg)));
    const size = missing.length ? null : sum(b.files.map((f) => (b.count == "raw" ? raw(f) : gz(f))));
    return { ...b, missing, size, over: size !== null && size > b.budget };
  });
}

export function sizes() {
  // The browser entry is one bundled file: the shim, the payment module's
  // glue and the payment module itself (www/build/embed.mjs). The `.wasm`
  // beside it is for pages that host it elsewhere (ready({ wasm })).
  const entry = gz("index.js");
  const out = {
    browser: { total: entry, wasmAlone: gz("paybridge_bg.wasm") },
  };
  // The full module, which ready() loads beside the payment module (the
  // authorization and verification exports): its .wasm, and full.js (its
  // glue and its loading).
  const fullWasm = gz("paybridge_full_bg.wasm");
  const fullGlue = gz("full.js");
  if (fullWasm !== null) out.full = { wasm: fullWasm, glue: fullGlue, total: fullWasm + fullGlue };
  const mp = gz("miniprogram.mjs");
  const mpWasm = gz("paybridge_mini_bg.wasm");
  if (mp !== null) out.miniprogram = { wasm: mpWasm, bundle: mp, total: mpWasm + mp };
  // The mini-program folder (pkg/miniprogram/): the same module as ES5
  // CommonJS, the JavaScript build and the .wasm.br. What it adds to a code
  // package is counted in raw bytes, as the platforms count a package:
  // wallet2's npm build copies the folder whole; wallet1's compiler takes
  // the files a page reaches (index.js and the JavaScript build: its page
  // logic has no WebAssembly).
  const npmEntry = gz("miniprogram/index.js");
  if (npmEntry !== null) {
    const folder = ["index.js", "package.json", "paybridge.wasm.js", "paybridge_mini_bg.wasm.br"];
    const reached = ["index.js", "paybridge.wasm.js"];
    out.miniprogramNpm = {
      wasm: gz("miniprogram/paybridge_mini_bg.wasm.br"),
      bundle: npmEntry,
      wallet2Raw: sum(folder.map((f) => raw(`miniprogram/${f}`))),
      wallet1Raw: sum(reached.map((f) => raw(`miniprogram/${f}`))),
    };
  }
  const wasmJs = gz("paybridge.wasm.cjs");
  if (wasmJs !== null) out.wasm2js = { bundle: wasmJs };
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = sizes();
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(s));
  } else {
    const kb = (n) => (n / 1000).toFixed(1).padStart(6) + " KB";
    console.log("gzip -9 sizes (1 KB = 1000 bytes)");
    console.log(`browser, pay()  one file, the .wasm inside   total ${kb(s.browser.total)}  (the .wasm alone ${kb(s.browser.wasmAlone).trim()})`);
    if (s.full) console.log(`full module     wasm ${kb(s.full.wasm)}  js ${kb(s.full.glue)}  total ${kb(s.full.total)}  (loaded by ready(), not by pay())`);
    if (s.miniprogram) console.log(`mini-program    wasm ${kb(s.miniprogram.wasm)}  bundle ${kb(s.miniprogram.bundle)}  total ${kb(s.miniprogram.total)}`);
    if (s.miniprogramNpm) {
      const m = s.miniprogramNpm;
      console.log(`mini-program folder  wasm.br ${kb(m.wasm)}  index.js ${kb(m.bundle)}  total ${kb(m.wasm + m.bundle)}`);
      console.log(`  code package, raw bytes: wallet2 (the folder) ${m.wallet2Raw}, wallet1 (the files a page reaches) ${m.wallet1Raw}`);
    }
    if (s.wasm2js) console.log(`no-WebAssembly  JS build ${kb(s.wasm2js.bundle)}`);
  }
  // The budgets are part of `make test` (make size runs last).
  let failed = false;
  for (const b of checkBudgets()) {
    if (b.missing.length) console.error(`${b.name}: missing ${b.missing.map((f) => `pkg/${f}`).join(", ")}`);
    else if (b.over) console.error(`${b.name}: ${b.size} bytes (${b.count}), over its budget of ${b.budget}`);
    if (!process.argv.includes("--json")) console.log(`budget  ${b.name}: ${b.size ?? "missing"} of ${b.budget} (${b.count})`);
    failed ||= b.missing.length > 0 || b.over;
  }
  if (failed) process.exit(1);
}
