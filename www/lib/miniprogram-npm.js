// paybridge as a mini-program project installs it: `npm install paybridge`,
// then the developer tools' "Build npm" (package.json's `miniprogram`
// field names the folder `miniprogram_dist/`, which the build copies whole
// to `miniprogram_npm/paybridge/`). This is that folder's `index.js`, so
// `require("paybridge")` in a page is the mini-program module, and the
// `.wasm` and the JavaScript build sit beside it at known places: ready()
// needs neither named. Bundled as CommonJS (the builder's parser takes
// nothing newer), the same module as `paybridge/miniprogram`.
import { ready as readyFrom, pay as payFrom } from "./miniprogram.js";

export * from "./miniprogram.js";

/** Whether ready() was called (pay() calls it with the defaults otherwise). */
let started = false;

/** Where the npm build puts the `.wasm`, inside the code package. */
export const WASM_PATH = "/miniprogram_npm/paybridge/paybridge_mini_bg.wasm";

/**
 * `ready()` of `paybridge/miniprogram`, with the npm build's places as
 * defaults: the `.wasm` at {@link WASM_PATH} through the runtime's
 * WebAssembly object (`options.WebAssembly`, or the global one), and the
 * JavaScript build beside this file where there is none or it cannot load
 * that path. `wasmPath` and `wasmJs` still override either; given only
 * `wasmJs`, the JavaScript build is used, as before.
 */
export function ready(options) {
  started = true;
  if (options !== undefined && (options === null || typeof options !== "object")) return readyFrom(options);
  const o = Object.assign({}, options);
  if (o.wasmPath === undefined && o.wasmJs === undefined) o.wasmPath = WASM_PATH;
  // A static require, run only when needed: the runtime's module loader
  // finds the file beside this one.
  if (o.wasmJs === undefined) o.wasmJs = () => require("./paybridge.wasm.js");
  return readyFrom(o);
}

/** `pay()` of `paybridge/miniprogram`; a first call before any ready() loads the module with the defaults. */
export function pay(payment, options) {
  if (!started) ready().catch(() => {});
  return payFrom(payment, options);
}
