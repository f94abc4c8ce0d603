// paybridge/miniprogram under Node's conditions (package.json "exports":
// pkg/miniprogram.cjs for `require`, miniprogram.mjs for `import`): Node
// itself, and the node environment of a mini-program page's unit tests
// (Jest, Vitest). Node has no mini-program WebAssembly object that loads a
// path inside a code package, so a ready() that names no module runs the
// JavaScript build, as API.md says of a plain ready() (the runtime's
// WebAssembly object named in the profile, else the JavaScript build):
// the mini-program folder's translated module, which links with this
// module's glue and is instantiated only by the ready() that runs it.
//
// The same module as `paybridge/miniprogram` otherwise; ready() only fills
// in the JavaScript build.
import { ready as readyFrom, pay as payFrom } from "./miniprogram.js";

export * from "./miniprogram.js";

// The JavaScript build, loaded by the first plain ready(), not at the top:
// a ready() that names a module never loads it. The CommonJS build
// requires it (Jest's node environment runs CommonJS without dynamic
// import()); the ES module build imports it (ready() takes the promise),
// so that the file still loads where there is no `require` (a page that
// imports it as the mini-program module, as `make demo` does, naming its
// WebAssembly).
const translated = PAYBRIDGE_ESM ? () => import("./miniprogram/paybridge.wasm.js") : () => require("./miniprogram/paybridge.wasm.js");

/** Whether ready() was called (pay() calls it with the defaults otherwise). */
let started = false;

/**
 * `ready()` of `paybridge/miniprogram`; one that names no module (no
 * `wasmJs`, `wasmPath` or `WebAssembly`) loads the JavaScript build beside
 * this file. Any of those still goes as given.
 */
export function ready(options) {
  started = true;
  if (options !== undefined && (options === null || typeof options !== "object")) return readyFrom(options);
  const o = Object.assign({}, options);
  if (!("wasmJs" in o) && o.wasmPath === undefined && o.WebAssembly === undefined) o.wasmJs = translated;
  return readyFrom(o);
}

/** `pay()` of `paybridge/miniprogram`; a first call before any ready() loads the module with the defaults. */
export function pay(payment, options) {
  if (!started) ready().catch(() => {});
  return payFrom(payment, options);
}
