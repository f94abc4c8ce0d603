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

/** Plans, waits, performs and reports a payment. */
export async function pay(payment, options) {
  await ready();
  return bg.pay(payment, options);
}

/** The card-network flow: read the callback, order with its code, go to `expend.pay_url`. */
export async function cardnetPay(callback, options) {
  await ready();
  return bg.cardnetPay(callback, options);
}
