// The full module for the browser entry, which imports this file when it
// first needs that module (ready(), a payment with `confirm`, a bad input
// to word): the module's glue, bundled in by `make pkg`, and the loading
// of a module from a URL, bytes or a compiled module, which only ready()
// needs. Not on the way to the wallet: the entry carries what `pay()` needs.
// It carries no driver of its own: the runs go through the entry's (`load`).
import { withRuns } from "./flows.js";
import { bindings as bg } from "./paybridge_full_bg.js";

/** `src` (a URL, bytes or a WebAssembly.Module) instantiated with `imports`. */
export async function instantiate(src, imports) {
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

/**
 * The module's file beside this one, which bundlers emit and rewrite the
 * URL of (`new URL(..., import.meta.url)`). Not in a Taro mini-program
 * build, which its DefinePlugin tells apart (ENABLE_INNER_HTML defined,
 * process.env.TARO_PLATFORM "mini"): webpack leaves the branch out when it
 * builds, and with it the startup code that reads `document.baseURI` for
 * such a URL and would stop the app at launch (no document there). There,
 * and where nothing is given, `ready()` fails as a PayError.
 */
const beside = () =>
  typeof ENABLE_INNER_HTML != "undefined" && process.env.TARO_PLATFORM == "mini" ? undefined : new URL("./paybridge_full_bg.wasm", import.meta.url);

/** The full module from `src`, or from its file beside this one:
 * `[bindings, instance]`, the bindings with the module's runs (flows.js),
 * driven by the entry's `drive` (perform.js, with its `onEventOf`). */
export async function load(src, drive, onEventOf) {
  return [withRuns(bg, drive, onEventOf), await instantiate(src ?? beside(), { bg })];
}
