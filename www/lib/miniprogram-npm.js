// The mini-program folder's index.js (pkg/miniprogram/): the module a
// mini-program page requires, on either platform.
//
// - wallet1: the compiler takes packages straight from node_modules, by
//   plain file resolution and untranspiled, so `require("paybridge/miniprogram")`
//   (or `require("paybridge")`, package.json "main") reaches this file, and
//   it and what it requires are ES5 (www/build/es5.mjs). Its page logic has
//   no WebAssembly: ready() runs the JavaScript build beside this file.
// - wallet2: the developer tools' "Build npm" copies this folder whole
//   (package.json "miniprogram") to miniprogram_npm/paybridge/, so
//   `require("paybridge")` is this file and the `.wasm.br` sits at
//   WASM_PATH, where ready() loads it through the runtime's WebAssembly.
//
// The same module as `paybridge/miniprogram` otherwise; ready() only fills
// in those places.
import { ready as readyFrom, pay as payFrom } from "./miniprogram.js";

export * from "./miniprogram.js";

/** Whether ready() was called (pay() calls it with the defaults otherwise). */
let started = false;

/** Where wallet2's npm build puts the `.wasm.br`, inside the code package. */
export const WASM_PATH = "/miniprogram_npm/paybridge/paybridge_mini_bg.wasm.br";

/**
 * `ready()` of `paybridge/miniprogram`, with the npm build's places as
 * defaults: the `.wasm.br` at {@link WASM_PATH} through the runtime's
 * WebAssembly object (`options.WebAssembly`, or the global that
 * `options.profile.wallet2.webAssemblyGlobal` names, else the default
 * profile's, else the standard one), and the
 * JavaScript build beside this file where there is none or it cannot load
 * that path. `wasmPath` and `wasmJs` still override either; given only
 * `wasmJs`, the JavaScript build is used, as before.
 */
export function ready(options) {
  started = true;
  if (options !== undefined && (options === null || typeof options !== "object")) return readyFrom(options);
  const o = Object.assign({}, options);
  const noBuild = !("wasmJs" in o);
  if (o.wasmPath === undefined && noBuild) o.wasmPath = WASM_PATH;
  // A static require, run only when needed: the runtime's module loader
  // finds the file beside this one. It holds the translated module alone,
  // which ready() links with this module's glue (Makefile).
  if (noBuild) o.wasmJs = () => require("./paybridge.wasm.js");
  return readyFrom(o);
}

/** `pay()` of `paybridge/miniprogram`; a first call before any ready() loads the module with the defaults. */
export function pay(payment, options) {
  if (!started) ready().catch(() => {});
  return payFrom(payment, options);
}
