// `make size`: gzip -9 sizes of what each entry makes a page download.
// Prints a table and, with --json, the same figures as JSON.
import { readFileSync, existsSync } from "node:fs";
import { gzipSync } from "node:zlib";

const pkg = new URL("../../pkg/", import.meta.url);
const gz = (f) => (existsSync(new URL(f, pkg)) ? gzipSync(readFileSync(new URL(f, pkg)), { level: 9 }).length : null);

export function sizes() {
  const wasm = gz("paybridge_bg.wasm");
  const glue = gz("paybridge_bg.js");
  const shim = gz("index.js") + gz("shared.js") + gz("api.js");
  const out = {
    browser: { wasm, glue, shim, total: wasm + glue + shim },
  };
  // The full module, which ready() loads beside the payment module (the
  // authorization and verification exports).
  const fullWasm = gz("paybridge_full_bg.wasm");
  const fullGlue = gz("paybridge_full_bg.js");
  if (fullWasm !== null) out.full = { wasm: fullWasm, glue: fullGlue, total: fullWasm + fullGlue };
  const mp = gz("miniprogram.mjs");
  if (mp !== null) out.miniprogram = { wasm, bundle: mp, total: wasm + mp };
  const js = gz("paybridge.wasm.js");
  if (js !== null) out.wasm2js = { bundle: js };
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = sizes();
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(s));
  } else {
    const kb = (n) => (n / 1000).toFixed(1).padStart(6) + " KB";
    console.log("gzip -9 sizes (1 KB = 1000 bytes)");
    console.log(`browser, pay()  wasm ${kb(s.browser.wasm)}  glue ${kb(s.browser.glue)}  shim ${kb(s.browser.shim)}  total ${kb(s.browser.total)}`);
    if (s.full) console.log(`full module     wasm ${kb(s.full.wasm)}  glue ${kb(s.full.glue)}                  total ${kb(s.full.total)}  (loaded by ready(), not by pay())`);
    if (s.miniprogram) console.log(`mini-program    wasm ${kb(s.miniprogram.wasm)}  bundle ${kb(s.miniprogram.bundle)}  total ${kb(s.miniprogram.total)}`);
    if (s.wasm2js) console.log(`no-WebAssembly  JS build ${kb(s.wasm2js.bundle)}`);
  }
}
