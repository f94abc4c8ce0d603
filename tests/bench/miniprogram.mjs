// One wallet1 mini-program payment in this process, for `make bench`:
//
//   node --jitless tests/bench/miniprogram.mjs ours|peer
//
// Prints one line of JSON: the milliseconds from the first `require` of the
// module to the wallet's `tradePay` call, and the files that require
// reached with their raw bytes (what wallet1's compiler puts in a code
// package). bench.mjs runs it in fresh processes, alternating the modules.
//
// The page's logic layer is a node:vm global with timers and nothing of a
// browser (no window, fetch, TextEncoder or WebAssembly, as in wallet1's
// runtime), a fake API object `my` whose `tradePay` notes the time and
// answers success, and a CommonJS loader confined to the module's folder,
// each file read and compiled when first required (as the runtime's loader
// does). ours: pkg/miniprogram/index.js, `pay(payment, { api: my })`;
// peer: pingpp-js's distributed file (dist/pingpp.js, the one file its
// README has a mini-program copy), `createPayment(charge, cb)` on its
// `alipay_lite` channel, which calls the global `my.tradePay`.
import { readFileSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const ENTRY = {
  ours: join(ROOT, "pkg/miniprogram/index.js"),
  peer: join(ROOT, "tests/node_modules/pingpp-js/dist/pingpp.js"),
};
const TRADE_NO = "2023112122001456781400012345";

/** Runs one payment; resolves with { ms, files, result, calls }. */
export function payOnce(module) {
  const entry = ENTRY[module];
  if (!entry) throw new Error(`no module ${module}: ours or peer`);
  const folder = dirname(entry) + sep;
  let paidAt = null;
  const calls = [];
  let settle;
  const done = new Promise((resolve) => (settle = resolve));
  const my = {
    tradePay(req) {
      if (paidAt === null) paidAt = performance.now();
      calls.push({ tradeNO: req.tradeNO });
      setTimeout(() => {
        const res = { resultCode: "9000" };
        req.success?.(res);
        req.complete?.(res);
      }, 0);
    },
  };
  const ctx = vm.createContext({ setTimeout, clearTimeout, console, my });
  vm.runInContext("delete globalThis.WebAssembly", ctx);
  const files = [];
  const cache = new Map();
  const load = (file) => {
    if (!cache.has(file)) {
      const module = { exports: {} };
      cache.set(file, module);
      const code = readFileSync(file);
      files.push({ file: relative(ROOT, file), raw: code.length });
      const wrapper = vm.runInContext(`(function (exports, module, require) {${code.toString("utf8")}\n})`, ctx, { filename: file });
      wrapper(module.exports, module, (name) => {
        const next = normalize(join(dirname(file), name));
        if (!name.startsWith("./") || !next.startsWith(folder)) throw new Error(`the code package has no module ${name}`);
        return load(next.endsWith(".js") ? next : `${next}.js`);
      });
    }
    return cache.get(file).exports;
  };

  const t0 = performance.now();
  const pb = load(entry);
  if (module === "ours") {
    pb.pay({ pay_channel: "wallet1_lite", pay_info: { tradeNO: TRADE_NO } }, { api: my }).then(
      (r) => settle(r.status),
      (e) => settle(`error ${e.code}: ${e.message}`),
    );
  } else {
    const charge = { id: "ch_bench", object: "charge", app: "app_bench", livemode: true, channel: "alipay_lite", credential: { object: "credential", alipay_lite: TRADE_NO } };
    pb.createPayment(charge, (result, err) => settle(result === "success" ? result : `${result} ${JSON.stringify(err)}`));
  }
  const timeout = new Promise((resolve) => setTimeout(() => resolve("no result in 10 s"), 10_000).unref());
  return Promise.race([done, timeout]).then((result) => ({ ms: paidAt === null ? null : paidAt - t0, files, result, calls }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await payOnce(process.argv[2]);
  console.log(JSON.stringify({ ...r, jitless: process.execArgv.includes("--jitless") }));
}
