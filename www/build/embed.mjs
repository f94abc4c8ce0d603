// Carries the payment module's `.wasm` inside the browser entry, so that a
// page reaches the wallet call after one request instead of two in a row
// (`make pkg`). The bytes are written as one template literal of Latin-1
// characters (byte n is U+00nn, UTF-8 in the file): gzipped, that costs
// about 1.5 KB more than the `.wasm` itself, where base64 costs about 11 KB
// more. The entry turns the text back into bytes with `charCodeAt`.
//
//   node www/build/embed.mjs entry.js module.wasm
//
// The entry holds the placeholder string "PAYBRIDGE_EMBEDDED_WASM" exactly
// once; it is replaced in place.

import { readFileSync, writeFileSync } from "node:fs";

const [entry, wasmFile] = process.argv.slice(2);
if (!wasmFile) {
  console.error("usage: embed.mjs entry.js module.wasm");
  process.exit(2);
}

const PLACEHOLDER = /(["'`])PAYBRIDGE_EMBEDDED_WASM\1/g;
const js = readFileSync(entry, "utf8");
const found = js.match(PLACEHOLDER) ?? [];
if (found.length !== 1) {
  console.error(`${entry}: expected the placeholder once, found it ${found.length} times`);
  process.exit(1);
}

/** The bytes as the text of a template literal whose cooked value has one
 * character per byte. Only what a template literal gives a meaning to is
 * escaped: the backslash, the backtick, `$` (it could open `${`), and CR
 * (a raw CR reads as LF). */
export function literal(bytes) {
  let out = "`";
  for (const b of bytes) {
    if (b === 0x5c) out += "\\\\";
    else if (b === 0x60) out += "\\`";
    else if (b === 0x24) out += "\\$";
    else if (b === 0x0d) out += "\\r";
    else out += String.fromCharCode(b);
  }
  return out + "`";
}

const wasm = readFileSync(wasmFile);
if (wasm.readUInt32LE(0) !== 0x6d736100) {
  console.error(`${wasmFile} is not a WebAssembly module`);
  process.exit(1);
}
writeFileSync(entry, js.replace(PLACEHOLDER, () => literal(wasm)), "utf8");
