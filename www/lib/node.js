// paybridge for Node: the module is ready as soon as it is imported.
import { readFileSync } from "node:fs";
import * as bg from "./paybridge_bg.js";
import { PayError, link } from "./shared.js";

export * from "./api.js";

const module = new WebAssembly.Module(readFileSync(new URL("./paybridge_bg.wasm", import.meta.url)));
link(bg, new WebAssembly.Instance(module, { "./paybridge_bg.js": bg }).exports);

/** Already loaded in Node; kept for the same code on every platform. */
export function ready() {
  return Promise.resolve();
}

export async function pay(payment, options) {
  return bg.pay(payment, options);
}

export async function cardnetPay(callback, options) {
  return bg.cardnetPay(callback, options);
}
