// Carries the full module's `.wasm` inside Node's entry (pkg/node.cjs), so
// that a back end bundled for Node (esbuild, webpack, ncc) takes it along:
// a `.wasm` read from beside the entry is left behind by every bundler, and
// the bundled app would stop at launch. Brotli (Node's own zlib has the
// decoder), written as one base64 string; the entry decodes it once, when
// it is loaded (about 1 ms).
//
//   node www/build/embed-node.mjs pkg/node.cjs module.wasm
//
// The entry holds the placeholder name PAYBRIDGE_NODE_WASM exactly once; it
// is replaced in place.

import { readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";

const [entry, wasmFile] = process.argv.slice(2);
if (!wasmFile) {
  console.error("usage: embed-node.mjs entry.cjs module.wasm");
  process.exit(2);
}
const PLACEHOLDER = /\bPAYBRIDGE_NODE_WASM\b/g;
const js = readFileSync(entry, "utf8");
const found = js.match(PLACEHOLDER) ?? [];
if (found.length !== 1) {
  console.error(`${entry}: expected the placeholder once, found it ${found.length} times`);
  process.exit(1);
}
const wasm = readFileSync(wasmFile);
if (wasm.readUInt32LE(0) !== 0x6d736100) {
  console.error(`${wasmFile} is not a WebAssembly module`);
  process.exit(1);
}
const packed = brotliCompressSync(wasm, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: wasm.length },
});
if (!brotliDecompressSync(packed).equals(wasm)) {
  console.error(`${wasmFile}: the compressed stream does not decompress to the module`);
  process.exit(1);
}
writeFileSync(entry, js.replace(PLACEHOLDER, JSON.stringify(packed.toString("base64"))));
