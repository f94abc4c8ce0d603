// paybridge/miniprogram under Node's conditions (package.json "exports":
// pkg/miniprogram.cjs for `require`, miniprogram.mjs for `import`): Node
// itself, and the node environment of a mini-program page's unit tests
// (Jest, Vitest). Node has no mini-program WebAssembly object that loads a
// path inside a code package, so in Node a ready() that names no module
// runs the JavaScript build, as API.md says of a plain ready() (the
// runtime's WebAssembly object named in the profile, else the JavaScript
// build): paybridge.wasm.cjs, the module `ready({ wasmJs })` takes, one
// instance a process, which both forms of this entry share.
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
const build = PAYBRIDGE_ESM ? () => import("./paybridge.wasm.cjs") : () => require("./paybridge.wasm.cjs");

// Whether this is Node (or a test runner in it), not a page that imports
// this file: a page's plain ready() stays `wasmPath is missing`.
const node = typeof process == "object" && process !== null && typeof process.versions == "object" && !!process.versions.node;

/** Whether a load was started that has not failed (pay() starts one otherwise). */
let started = false;

/**
 * `ready()` of `paybridge/miniprogram`; in Node, one that names no module
 * (no `wasmJs`, `wasmPath` or `WebAssembly`) loads the JavaScript build.
 * Any of those still goes as given.
 */
export function ready(options) {
  started = true;
  if (options !== undefined && (options === null || typeof options !== "object")) return readyFrom(options);
  const o = Object.assign({}, options);
  if (node && !("wasmJs" in o) && o.wasmPath === undefined && o.WebAssembly === undefined) o.wasmJs = build;
  const loading = readyFrom(o);
  // A load that failed is started again by the next pay(), as the first.
  loading.catch(() => {
    started = false;
  });
  return loading;
}

/** `pay()` of `paybridge/miniprogram`; a call with no load started (or after one failed) loads the module with the defaults. */
export function pay(payment, options) {
  if (!started) ready().catch(() => {});
  return payFrom(payment, options);
}
