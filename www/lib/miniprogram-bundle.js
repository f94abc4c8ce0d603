// paybridge/miniprogram as bundlers resolve it (package.json "exports",
// every condition but Node's): pkg/miniprogram-bundle.cjs. Mini-program
// frameworks (Taro, uni-app) bundle a page's code with its packages into
// the code package; no bundler emits a .wasm the runtime could load from a
// path, so the module comes in the bundle: the JavaScript build, required
// here at the top, where every bundler follows a require, and what ready()
// loads unless told otherwise. ES5 (www/build/es5.mjs), as is the build it
// requires (the mini-program folder's), so that a wallet1 build needs no
// transpiling of this package.
//
// The same module as `paybridge/miniprogram` otherwise; ready() only fills
// in the JavaScript build.
import { ready as readyFrom, pay as payFrom } from "./miniprogram.js";
import { bindings } from "./paybridge_mini_bg.js";

export * from "./miniprogram.js";

// The translated module alone, which links with this module's glue
// (Makefile); instantiated by the first ready() that runs it.
const translated = require("./miniprogram/paybridge.wasm.js");

/** Whether ready() was called (pay() calls it with the defaults otherwise). */
let started = false;

/**
 * `ready()` of `paybridge/miniprogram`, with the JavaScript build in this
 * bundle as its module; `wasmPath` (with the runtime's WebAssembly) or
 * `wasmJs` still name another.
 */
export function ready(options) {
  started = true;
  if (options !== undefined && (options === null || typeof options !== "object")) return readyFrom(options);
  const o = Object.assign({}, options);
  if (o.wasmPath === undefined && !("wasmJs" in o)) o.wasmJs = () => ({ bindings, wasmExports: translated.instantiate({ bg: bindings }) });
  return readyFrom(o);
}

/** `pay()` of `paybridge/miniprogram`; a first call before any ready() loads the module with the defaults. */
export function pay(payment, options) {
  if (!started) ready().catch(() => {});
  return payFrom(payment, options);
}
