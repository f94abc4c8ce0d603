// paybridge for browsers and bundlers.
//
// Two modules: the payment module (`paybridge_bg.wasm`, small: `pay` and
// what it needs) and the full module (`paybridge_full_bg.wasm`: also
// planning, detection, the authorization helpers and the authentication
// client). `pay()` loads only the payment module, so a page that pays
// downloads only that; `ready()` loads both, after which every synchronous
// export works.
import * as payBg from "./paybridge_bg.js";
import { PayError, link, modules } from "./shared.js";

export * from "./api.js";

async function instantiate(src, bg, name) {
  const imports = { [name]: bg };
  if (src instanceof WebAssembly.Module) return WebAssembly.instantiate(src, imports);
  if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) {
    return (await WebAssembly.instantiate(src, imports)).instance;
  }
  const response = fetch(src);
  if (typeof WebAssembly.instantiateStreaming === "function") {
    try {
      return (await WebAssembly.instantiateStreaming(response, imports)).instance;
    } catch (e) {
      // A server that does not send application/wasm: read the bytes instead.
      if (!(e instanceof TypeError)) throw e;
    }
  }
  const bytes = await (await response).arrayBuffer();
  return (await WebAssembly.instantiate(bytes, imports)).instance;
}

function failed(e) {
  return new PayError(`the paybridge WebAssembly could not be loaded: ${e?.message ?? e}`, "not_ready", "wasm", undefined, e);
}

let payLoading = null;
let fullLoading = null;

/**
 * A page may compile the payment module before this entry runs (README, "In
 * a page"): its inline script leaves the promise of that compilation in
 * `globalThis.paybridgeWasm`, replaced by the `WebAssembly.Module` once
 * compiled. Anything else there is ignored; a compilation that failed, or a
 * module that does not link, gives way to the package's own `.wasm`.
 */
function early() {
  const v = typeof WebAssembly == "object" ? globalThis.paybridgeWasm : undefined;
  return v instanceof WebAssembly.Module || typeof v?.then == "function" ? v : undefined;
}

// The generated bindings serve one instance each: once a module is linked
// (by any copy of this entry), it is never loaded again.
function loadPay(src) {
  if (!payLoading && modules.pay) payLoading = Promise.resolve();
  if (!payLoading) {
    const go = (s) =>
      instantiate(s, payBg, "./paybridge_bg.js").then((instance) => {
        if (!modules.pay) modules.pay = link(payBg, instance.exports);
      });
    const pre = src === undefined ? early() : undefined;
    if (pre instanceof WebAssembly.Module) {
      // Compiled already: linked now, so that a pay() called in this turn
      // reaches the wallet in it, before the page's first frame. An older
      // Chromium refuses to instantiate more than 4 KB synchronously on its
      // main thread: then as below.
      try {
        modules.pay = link(payBg, new WebAssembly.Instance(pre, { "./paybridge_bg.js": payBg }).exports);
        return (payLoading = Promise.resolve());
      } catch {
        // not linked: modules.pay stays null
      }
    }
    const own = () => go(new URL("./paybridge_bg.wasm", import.meta.url));
    let from;
    if (src !== undefined) from = go(src);
    else if (!pre) from = own();
    // A module, or the promise of one; the package's own .wasm otherwise.
    else from = Promise.resolve(pre).then((m) => (m instanceof WebAssembly.Module ? go(m) : Promise.reject())).catch(own);
    payLoading = from.catch((e) => {
      payLoading = null;
      throw failed(e);
    });
  }
  return payLoading;
}

function loadFull(src) {
  if (!fullLoading && modules.full) fullLoading = Promise.resolve();
  if (!fullLoading) {
    fullLoading = import("./paybridge_full_bg.js")
      .then(async (fullBg) => {
        const instance = await instantiate(src ?? new URL("./paybridge_full_bg.wasm", import.meta.url), fullBg, "./paybridge_full_bg.js");
        if (!modules.full) modules.full = link(fullBg, instance.exports);
      })
      .catch((e) => {
        fullLoading = null;
        throw e instanceof PayError ? e : failed(e);
      });
  }
  return fullLoading;
}

/**
 * Loads both modules once; later calls return the same promise.
 * `options.wasm` (URL, bytes or WebAssembly.Module) replaces the payment
 * module's location, `options.wasmFull` the full module's.
 */
export function ready(options) {
  return Promise.all([loadPay(options?.wasm), loadFull(options?.wasmFull)]).then(() => undefined);
}

/**
 * `name(...args)` of module `which` once it is loaded. When it is loaded
 * already the call happens now, not a turn later: a second payment started
 * while one is in flight (a double tap, an onEvent handler) must meet the
 * in-flight guard before the first one can finish, or it would pay again.
 */
function whenLoaded(which, load, name, args) {
  const m = modules[which];
  if (m !== null) {
    try {
      return m.bg[name](...args);
    } catch (e) {
      return Promise.reject(e);
    }
  }
  return load().then(() => modules[which].bg[name](...args));
}

/** Plans, waits, performs and reports a payment (loads the payment module only). */
export function pay(payment, options) {
  // A module the page compiled early is linked here, and the call below
  // happens in this turn.
  if (!payLoading) loadPay();
  return whenLoaded("pay", loadPay, "pay", [payment, options]);
}

/** The card-network flow: read the callback, order with its code, go to `expend.pay_url`. */
export function cardnetPay(callback, options) {
  return whenLoaded("full", loadFull, "cardnetPay", [callback, options]);
}
