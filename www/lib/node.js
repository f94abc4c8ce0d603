// paybridge for Node: the full module, ready as soon as it is imported.
import { readFileSync } from "node:fs";
import { withRuns } from "./flows.js";
import * as fullBg from "./paybridge_full_bg.js";
import { perform } from "./perform.js";
import { link, modules } from "./shared.js";

export * from "./api.js";
export { __debugCounts, __wasmMemoryBytes } from "./shared.js";

if (!modules.full) {
  const module = new WebAssembly.Module(readFileSync(new URL("./paybridge_full_bg.wasm", import.meta.url)));
  modules.full = link(withRuns(fullBg), new WebAssembly.Instance(module, { bg: fullBg }).exports);
  modules.pay = modules.full;
}

/** Already loaded in Node; kept for the same code on every platform. */
export function ready() {
  return Promise.resolve();
}

export function pay(payment, options) {
  return perform(fullBg, payment, options);
}

export function cardnetPay(callback, options) {
  return modules.full.bg.cardnetPay(callback, options);
}
