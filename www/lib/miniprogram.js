// paybridge/miniprogram: the module for mini-program pages, bundled into
// miniprogram.cjs (CommonJS, what mini-program tooling consumes) and
// miniprogram.mjs. Mini-program runtimes are not browsers: no fetch, no
// location, often no TextEncoder/TextDecoder, and WebAssembly (when there
// is any) is an object of the runtime's own whose instantiate() takes a
// path inside the code package. So ready() takes that object and that
// path; where there is none, it runs the JavaScript build of the same
// module (paybridge.wasm.cjs, made from the .wasm by wasm2js).

// Built with globals.js injected (Makefile): `globalThis`, `TextEncoder`
// and `TextDecoder` here and in the glue are that module's, so that the
// module loads where the runtime has none of them.
import { bindings as wasmBindings } from "./paybridge_mini_bg.js";
import { perform } from "./perform.js";
import { PayError, countsOf, link, modules } from "./shared.js";

export { PayError, __wasmMemoryBytes } from "./shared.js";

// The bindings in use: wasm-bindgen's glue of the .wasm, or the JS build's own.
let bindings = null;
let loading = null;

function notReady(message, field, cause) {
  return new PayError(message, "not_ready", field, undefined, cause);
}

function badOption(field, message) {
  return new PayError(`${field} ${message}`, "invalid_options", field);
}

/**
 * The mini-program runtime's WebAssembly object, whose instantiate() takes
 * a path in the code package: the profile's `wallet2.webAssemblyGlobal`
 * (src/profile/defaults.rs; a test keeps the two equal). `ready()` with no
 * `WebAssembly` loads through it where the runtime has it, else through
 * the standard one, else runs the JavaScript build.
 */
export const WASM_GLOBAL = "Wallet2WebAssembly";

/** What `value` is, for a message: `undefined`, `a function`, `an object with no bindings`, ... */
function kindOf(value) {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== "object") return `a ${typeof value}`;
  return "an object that is not that module";
}

/**
 * The JS build: the module paybridge/paybridge.wasm.cjs (a namespace import,
 * `import * as wasmJs`, or a `require()`), or the mini-program folder's
 * `paybridge.wasm.js`, or a function that returns either (in the ES module
 * build for Node alone, PAYBRIDGE_ESM, also a promise of it, an
 * `import()`: then the answer is a promise too).
 * Anything else, `undefined` included (the default import of a CommonJS
 * module some bundlers give), is named for what it is.
 */
function wasmJsBuild(src) {
  const failed = (e) => notReady(`the paybridge JavaScript build could not be loaded: ${(e && e.message) || e}`, "wasmJs", e);
  let m = src;
  if (typeof src === "function") {
    try {
      m = src();
    } catch (e) {
      throw failed(e);
    }
    // Only the ES module build for Node (miniprogram-node.js, PAYBRIDGE_ESM,
    // Makefile) imports its build; every other build's answer is the module.
    if (PAYBRIDGE_ESM && m && typeof m.then === "function") {
      return m.then(
        (x) => buildOf(x, src),
        (e) => {
          throw failed(e);
        },
      );
    }
  }
  return buildOf(m, src);
}

/** {@link wasmJsBuild}'s module `m` (given as `src`) as bindings and exports. */
function buildOf(m, src) {
  // The mini-program folder's JavaScript build (miniprogram/paybridge.wasm.js)
  // is the translated module alone, which links with this module's own
  // glue (its imports and exports are named as this module's, Makefile).
  if (m && typeof m.instantiate === "function") return { bindings: wasmBindings, wasmExports: m.instantiate({ bg: wasmBindings }) };
  const build = m && m.default && m.default.bindings ? m.default : m;
  if (!build || typeof build !== "object" || !build.bindings || typeof build.bindings.__wbg_set_wasm !== "function" || !build.wasmExports) {
    const got = typeof src === "function" ? `a function that returned ${kindOf(m)}` : kindOf(src);
    throw badOption(
      "wasmJs",
      `is not the paybridge JavaScript build module but ${got}: pass the module paybridge/paybridge.wasm.cjs itself (import * as wasmJs from "paybridge/paybridge.wasm.cjs", not a default import), or a function that returns it`,
    );
  }
  return build;
}

/**
 * The name of the runtime's WebAssembly global: `options.profile`'s
 * `wallet2.webAssemblyGlobal` (the same field as the profile of pay()),
 * else the default profile's, {@link WASM_GLOBAL}.
 */
function globalName(profile) {
  if (profile === undefined) return WASM_GLOBAL;
  if (profile === null || typeof profile !== "object") throw badOption("profile", "must be an object (a partial profile, as pay() takes)");
  const w2 = profile.wallet2;
  const name = w2 && typeof w2 === "object" ? w2.webAssemblyGlobal : undefined;
  if (name === undefined) return WASM_GLOBAL;
  if (typeof name !== "string" || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) {
    throw badOption("profile.wallet2.webAssemblyGlobal", "must be the name of the runtime's WebAssembly global (an identifier)");
  }
  return name;
}

function packagePath(path) {
  if (typeof path !== "string" || !/\.wasm(\.br)?$/.test(path)) {
    throw badOption("wasmPath", "must be the path of paybridge_mini_bg.wasm (or .wasm.br) inside the code package");
  }
  return path;
}

// Written with promises, not async functions: the mini-program folder's
// build lowers this file to ES5, where an async function costs a state
// machine and its helpers (1.7 KB of that folder's index.js, 0.7 KB
// gzipped; tests/bench/README.md).
function load(options) {
  return new Promise((resolve) => resolve(start(options)));
}

/** What load() does; a throw here is its rejection. */
function start(options) {
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw badOption("options", "must be an object { wasmPath?, WebAssembly?, wasmJs?, profile? }");
  }
  const o = options || {};
  // Given but undefined is not left out: the caller meant to pass a module.
  if ("wasmJs" in o && o.wasmJs === undefined) wasmJsBuild(undefined);
  const given = o.WebAssembly;
  if (given !== undefined && (given === null || typeof given.instantiate !== "function")) {
    throw badOption("WebAssembly", "must be the runtime's WebAssembly object (with instantiate(path, imports))");
  }
  const name = globalName(o.profile);
  const runtime = given || globalThis[name] || globalThis.WebAssembly;
  const hasWasm = Boolean(runtime) && typeof runtime.instantiate === "function";
  if (hasWasm && (o.wasmPath !== undefined || o.wasmJs === undefined)) {
    if (o.wasmPath === undefined) {
      throw badOption("wasmPath", "is missing: ready({ wasmPath }) names paybridge_mini_bg.wasm inside the code package");
    }
    const path = packagePath(o.wasmPath);
    // A WebAssembly that takes bytes rather than a path in the code package
    // (a standard one) cannot load it: the JavaScript build, when given.
    const failed = (e) => {
      const failure = e instanceof PayError ? e : notReady(`the paybridge WebAssembly could not be loaded from ${path}: ${(e && e.message) || e}`, "wasmPath", e);
      if (o.wasmJs === undefined) throw failure;
      return jsBuild(o);
    };
    let answer;
    try {
      answer = runtime.instantiate(path, { bg: wasmBindings });
    } catch (e) {
      return failed(e);
    }
    return Promise.resolve(answer).then((got) => {
      const instance = got && got.instance ? got.instance : got;
      if (!instance || !instance.exports) return failed(notReady("the runtime's WebAssembly.instantiate() gave no instance", "WebAssembly"));
      let mod;
      try {
        mod = linked(wasmBindings, instance.exports, "WebAssembly");
      } catch (e) {
        return failed(e);
      }
      modules.pay = mod;
      bindings = wasmBindings;
    }, failed);
  }
  return jsBuild(o);
}

/** Links the JavaScript build `o.wasmJs`; `not_ready` where none was given. */
function jsBuild(o) {
  if (o.wasmJs === undefined) {
    throw notReady(
      "this runtime has no WebAssembly: pass its WebAssembly object as ready({ WebAssembly, wasmPath }), or the JavaScript build as ready({ wasmJs }), the module paybridge/paybridge.wasm.cjs",
      "wasmJs",
    );
  }
  const use = (build) => {
    modules.pay = linked(build.bindings, build.wasmExports, "wasmJs");
    bindings = build.bindings;
  };
  const build = wasmJsBuild(o.wasmJs);
  if (PAYBRIDGE_ESM && typeof build.then === "function") return build.then(use);
  use(build);
}

/** `link`, with a module that does not link (another module's exports) as `not_ready`. */
function linked(bg, exports, field) {
  try {
    return link(bg, exports);
  } catch (e) {
    throw notReady(`the paybridge module did not link: ${(e && e.message) || e}`, field, e);
  }
}

/**
 * Loads the module once: through the runtime's WebAssembly from a path in
 * the code package, or, where there is no WebAssembly, the JS build.
 * Later calls return the same promise; a failed load may be retried.
 */
export function ready(options) {
  if (!loading && modules.pay !== null) loading = Promise.resolve();
  if (!loading) {
    loading = load(options).catch((e) => {
      loading = null;
      throw e;
    });
  }
  return loading;
}

/** The module's bindings; `name`'s `not_ready` error until it is loaded. */
function current(name) {
  if (bindings === null) throw notReady(`${name}() was called before ready() resolved`);
  return bindings;
}

function bound(name) {
  return (...args) => current(name)[name](...args);
}

export const planAction = bound("planAction");
export const defaultProfile = bound("defaultProfile");
export const detectRuntime = bound("detectRuntime");
export const wallet1MiniAuthRequest = bound("wallet1MiniAuthRequest");
export const wallet2LaunchRequest = bound("wallet2LaunchRequest");
export const readLaunchOptions = bound("readLaunchOptions");
export const launchAppButton = bound("launchAppButton");
export const __debugCounts = () => countsOf(current("__debugCounts"));

/** Plans and performs a payment through `options.api` (the mini-program's API object). */
export function pay(payment, options) {
  if (!loading) return Promise.reject(notReady("pay() was called before ready({ wasmPath }) (or ready({ wasmJs })) was called"));
  return loading.then(() => perform(bindings, payment, options));
}
