// Carries the payment module's `.wasm` inside the browser entry, so that a
// page reaches the wallet call after one request instead of two in a row
// (`make pkg`). The bytes are compressed to a raw deflate stream by zopfli
// (the best deflate encoder there is, smaller than zlib's level 9
// here) and written as one base64 string, because served gzipped it costs
// little more than the stream it encodes and much less than the `.wasm`
// written as Latin-1 characters (tests/bench/README.md).
// The entry decodes the string with the platform's base64 codec and
// inflates it with `DecompressionStream("deflate-raw")`, or with fflate
// (`inflate.js`, fetched only then) in a runtime that has none.
//
//   node www/build/embed.mjs entry.js module.wasm
//
// With --node, it carries the full module inside Node's entry instead
// (pkg/node.cjs), so that a back end bundled for Node (esbuild, webpack,
// ncc) takes it along: a `.wasm` read from beside the entry is left behind
// by every bundler, and the bundled app would stop at launch. There the
// bytes are brotli's (Node's own zlib has the decoder), as one base64
// string written where the placeholder stood; the entry decodes it once,
// when it is loaded.
//
//   node www/build/embed.mjs --node pkg/node.cjs module.wasm
//
// The entry holds the placeholder name PAYBRIDGE_EMBEDDED_WASM exactly once
// (a global the minifiers leave as it is); it is replaced in place.

import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { brotliCompressSync, brotliDecompressSync, constants, inflateRawSync } from "node:zlib";

// zopfli is a build tool of the project's, installed with the others in tests/.
const { deflateAsync } = createRequire(new URL("../../tests/package.json", import.meta.url))("@gfx/zopfli");

const node = process.argv[2] === "--node";
const [entry, wasmFile] = process.argv.slice(node ? 3 : 2);
if (!wasmFile) {
  console.error("usage: embed.mjs [--node] entry.js module.wasm");
  process.exit(2);
}

const PLACEHOLDER = /\bPAYBRIDGE_EMBEDDED_WASM\b/g;
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

if (node) {
  const packed = brotliCompressSync(wasm, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: wasm.length },
  });
  if (!brotliDecompressSync(packed).equals(wasm)) {
    console.error(`${wasmFile}: the compressed stream does not decompress to the module`);
    process.exit(1);
  }
  writeFileSync(entry, js.replace(PLACEHOLDER, () => JSON.stringify(packed.toString("base64"))));
  process.exit(0);
}

const stream = Buffer.from(await deflateAsync(wasm, { numiterations: 15 }));
if (!inflateRawSync(stream).equals(wasm)) {
  console.error(`${wasmFile}: the compressed stream does not inflate to the module`);
  process.exit(1);
}

const NAME = "paybridgeWasm$";
if (js.includes(NAME)) {
  console.error(`${entry}: the name ${NAME} is taken`);
  process.exit(1);
}
// The string is the entry's first statement, a declaration of its own: the
// minifier writes a constant used once where it is used, in the middle of
// the code, and gzip then codes the code on both sides of it with the
// string's Huffman codes (tests/bench/README.md: fewer bytes with GNU
// gzip -9, and more so with zlib's level 9, what most servers run). The use is
// written in parentheses: an expression wherever the literal stood, even
// right after `return` with no space.
const code = js.replace(PLACEHOLDER, () => `(${NAME})`);
writeFileSync(entry, `var ${NAME}="${stream.toString("base64")}";` + code, "utf8");
