// paybridge for Node: the full module, ready as soon as it is loaded.
// Bundled as CommonJS, pkg/node.cjs (what `require("paybridge")` gives
// in Node and under Jest's node environment); `import("paybridge")` gives
// node.mjs, which re-exports this same file, so one process has one copy
// of the module whichever way it is loaded (one wasm instance, one
// `PayError` class, one payment at a time). The module's bytes are in the
// file itself, so a back end bundled for Node runs with nothing beside it.
import { withRuns } from "./flows.js";
import { bindings as fullBg } from "./paybridge_full_bg.js";
import { drive, onEventOf, perform } from "./perform.js";
import { link, modules } from "./shared.js";

export * from "./api.js";
export { __debugCounts, __wasmMemoryBytes } from "./shared.js";
/** The loaded modules, as a page's entry exports them (for tests). */
export { modules as __modules } from "./shared.js";

if (!modules.full) {
  // The full module carried in this file (www/build/embed.mjs --node writes
  // its bytes in place of the name below), not read from beside it: a
  // bundler that packs a Node back end (esbuild, webpack, ncc) takes it
  // along, where it would leave a separate .wasm behind.
  // Node's zlib through `process.getBuiltinModule` (Node 20.16 and later),
  // not `require`: in an ES module bundle of a back end (esbuild's
  // `format: "esm"`) a `require` throws when called. Before 20.16 this
  // CommonJS file's own `require` loads it (an ES module bundle then needs
  // one of its own, from `createRequire`).
  const zlib = typeof process.getBuiltinModule === "function" ? process.getBuiltinModule("node:zlib") : require("node:zlib");
  const bytes = zlib.brotliDecompressSync(Buffer.from(PAYBRIDGE_EMBEDDED_WASM, "base64"));
  const module = new WebAssembly.Module(bytes);
  modules.full = link(withRuns(fullBg, drive, onEventOf), new WebAssembly.Instance(module, { bg: fullBg }).exports);
  modules.pay = modules.full;
}

/** Already loaded in Node; kept for the same code on every platform. */
export function ready() {
  return Promise.resolve();
}

export function pay(payment, options) {
  return perform(fullBg, payment, options);
}

export function cardnetPay(callback, options) {
  return modules.full.bg.cardnetPay(callback, options);
}
