// Compresses a file with brotli at its best setting (`make pkg`): the
// mini-program folder's `.wasm.br`, which both mini-program runtimes'
// WebAssembly objects load from a path in the code package, and which
// takes about a third of the code package's bytes the `.wasm` would.
//
//   node www/build/brotli.mjs in out

import { readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

const [input, output] = process.argv.slice(2);
if (!output) {
  console.error("usage: brotli.mjs in out");
  process.exit(2);
}
const bytes = readFileSync(input);
writeFileSync(
  output,
  brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  }),
);
