// Shared by every entry of the package: the PayError class, the loaded
// modules, and the glue between wasm-bindgen's generated bindings and an
// instance. The decisions (planning, waiting, calling, mapping) are all in
// the wasm.

import { COUNTS_LISTENERS, COUNTS_RETAINED, COUNTS_WAITERS, FEED_COUNTS } from "./protocol.js";

/** Every failure of the module: `code`, a message naming the field, `field`. */
export class PayError extends Error {
  constructor(message, code, field, details, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "PayError";
    this.code = code;
    if (field !== undefined) this.field = field;
    if (details !== undefined) this.details = details;
  }
}

/**
 * The loaded modules, each `{ bg, exports }`: `pay` serves payments (the
 * small module a paying page downloads), `full` everything else
 * (authorization and verification). In Node both are the full module.
 */
export const modules = { pay: null, full: null };

/**
 * State every module linked here shares, read and written by the modules
 * themselves: the one-payment-at-a-time flag (a page's payment and full
 * modules are two instances, and `pay()` and `cardnetPay()` must each see
 * the other's payment).
 */
export const state = { busy: false };

/**
 * Hands a wasm instance to its generated bindings (no module has a start
 * function; www/build/short-names.mjs stops the build on one), giving it
 * the `PayError` class, the shared state and `globalThis` (through which
 * the module reaches every platform object).
 */
export function link(bg, exports) {
  bg.__wbg_set_wasm(exports);
  bg.__setErrorClass(PayError, state, globalThis);
  return { bg, exports };
}

function notReady(name) {
  return new PayError(`${name}() was called before ready() resolved`, "not_ready");
}

/** The full module's export `name`, throwing `not_ready` until it is loaded. */
export function guard(name) {
  return (...args) => loaded(name).bg[name](...args);
}

/** The full module, loaded; `name`'s `not_ready` error until it is. */
export function loaded(name) {
  if (modules.full === null) throw notReady(name);
  return modules.full;
}

/** The full module's class `name`: `new` throws `not_ready` until it is loaded. */
export function guardClass(name) {
  const real = () => loaded(`new ${name}`).bg[name];
  return Object.defineProperties(
    function (...args) {
      return Reflect.construct(real(), args);
    },
    { name: { value: name }, [Symbol.hasInstance]: { value: (x) => modules.full !== null && x instanceof real() } },
  );
}

/** What the module whose bindings are `bg` holds on to right now: `{
 * listeners, waiters, retained }` (the query FEED_COUNTS of `__step`,
 * src/web/table.rs, each value where the wire declares it: COUNTS_*). */
export function countsOf(bg) {
  const c = bg.__step(0, FEED_COUNTS);
  return { listeners: c[COUNTS_LISTENERS], waiters: c[COUNTS_WAITERS], retained: c[COUNTS_RETAINED] };
}

/**
 * What the loaded modules hold on to right now, summed: `{ listeners,
 * waiters, retained }` (for leak tests, from Node's entry; a page's entry
 * exports the modules instead, index.js `__modules`;
 * `retained`: callbacks handed to JavaScript still live, none between
 * payments). `pay()` waits in the payment module, `waitForBridge()` in the
 * full one.
 */
export function __debugCounts() {
  const mods = [...new Set([modules.pay, modules.full])].filter(Boolean);
  if (mods.length === 0) throw notReady("__debugCounts");
  const sum = { listeners: 0, waiters: 0, retained: 0 };
  for (const m of mods) {
    const c = countsOf(m.bg);
    for (const k in sum) sum[k] += c[k];
  }
  return sum;
}

/** Bytes of a module's linear memory (0 before loading): for leak tests. */
export function __wasmMemoryBytes(which = "pay") {
  const m = modules[which];
  return m ? m.exports.memory.buffer.byteLength : 0;
}
