// paybridge for browsers and bundlers. `ready()` loads the .wasm next to
// this file (or the one given as `ready({ wasm })`); `pay()` awaits it by
// itself, other calls throw PayError `not_ready` until it has resolved.
import * as bg from "./paybridge_bg.js";
import { PayError, link, isReady } from "./shared.js";

export * from "./api.js";

let loading = null;
let loaded = false;

async function instantiate(src) {
  const imports = { "./paybridge_bg.js": bg };
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

/** Loads the WebAssembly once; later calls return the same promise. */
export function ready(options) {
  // The generated bindings serve one instance: once linked (by any copy of
  // this entry), loading again would break them.
  if (!loading && isReady()) loading = Promise.resolve();
  if (!loading) {
    const src = options?.wasm ?? new URL("./paybridge_bg.wasm", import.meta.url);
    loading = instantiate(src).then(
      (instance) => {
        link(bg, instance.exports);
        loaded = true;
      },
      (e) => {
        loading = null;
        throw new PayError(`the paybridge WebAssembly could not be loaded: ${e?.message ?? e}`, "not_ready", "wasm", undefined, e);
      },
    );
  }
  return loading;
}

/**
 * `fn(...args)` once the module is loaded. When it is loaded already the
 * call happens now, not a turn later: a second payment started while one
 * is in flight (a double tap, an onEvent handler) must meet the in-flight
 * guard before the first one can finish, or it would pay again.
 */
function whenReady(fn, args) {
  if (isReady()) {
    try {
      return fn(...args);
    } catch (e) {
      return Promise.reject(e);
    }
  }
  return ready().then(() => fn(...args));
}

/** Plans, waits, performs and reports a payment. */
export function pay(payment, options) {
  return whenReady(bg.pay, [payment, options]);
}

/** The card-network flow: read the callback, order with its code, go to `expend.pay_url`. */
export function cardnetPay(callback, options) {
  return whenReady(bg.cardnetPay, [callback, options]);
}
