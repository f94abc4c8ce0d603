// Carries the payment module's `.wasm` inside the browser entry, so that a
// page reaches the wallet call after one request instead of two in a row
// (`make pkg`). The bytes are compressed to a raw deflate stream by zopfli
// (the best deflate encoder there is; about 6% smaller than zlib's level 9
// here) and written as one string, six bits a character, in an alphabet of
// the entry's own: the 64 characters its code uses most. Served gzipped, the
// string and the code around it then share their Huffman codes: 0.3 KB less
// with GNU gzip -9 and 0.2 KB with zlib's level 9 than standard base64's
// letters and digits, which minified code seldom uses (tests/bench/README.md).
// The alphabet is the string's first 64 characters; the entry decodes the
// rest with it (index.js, `embedded`) and inflates it with the platform's
// `DecompressionStream("deflate-raw")`, or with fflate (`inflate.js`, fetched
// only then) in a runtime that has none.
//
//   node www/build/embed.mjs entry.js module.wasm
//
// The entry holds the placeholder name PAYBRIDGE_EMBEDDED_WASM exactly once
// (a global the minifiers leave as it is); it is replaced in place.

import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { inflateRawSync } from "node:zlib";

// zopfli is a build tool of the project's, installed with the others in tests/.
const { deflateAsync } = createRequire(new URL("../../tests/package.json", import.meta.url))("@gfx/zopfli");

const [entry, wasmFile] = process.argv.slice(2);
if (!wasmFile) {
  console.error("usage: embed.mjs entry.js module.wasm");
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
// string's Huffman codes (tests/bench/README.md: -70 B with GNU gzip -9,
// -272 B with zlib's level 9, what most servers run). The use is
// written in parentheses: an expression wherever the literal stood, even
// right after `return` with no space.
const code = js.replace(PLACEHOLDER, () => `(${NAME})`);

// The alphabet: the code's most used characters, most used first (ties in
// code-point order), among those a double-quoted literal holds as they are
// (no quote, backslash or line end) and printable ASCII. Not `<`: the
// string can then never hold `</script` or `<!--`, should a page inline the
// entry in its HTML.
const uses = new Map();
for (let i = 32; i < 127; i++) if (!`"\\<`.includes(String.fromCharCode(i))) uses.set(String.fromCharCode(i), 0);
for (const c of code) if (uses.has(c)) uses.set(c, uses.get(c) + 1);
const alphabet = [...uses].sort((a, b) => b[1] - a[1]).slice(0, 64).map(([c]) => c).join("");

/** The stream, six bits a character, the first bit the high one; the last
 * character's bits past the stream are zero. */
function encode(bytes) {
  let out = "";
  let bits = 0;
  let n = 0;
  for (const b of bytes) {
    bits = (bits << 8) | b;
    n += 8;
    while (n >= 6) out += alphabet[(bits >> (n -= 6)) & 63];
    bits &= (1 << n) - 1;
  }
  return n ? out + alphabet[(bits << (6 - n)) & 63] : out;
}

/** The entry's decoding (index.js, `embedded`), to check the string here. */
function decode(s) {
  const t = new Uint8Array(128);
  for (let i = 0; i < 64; i++) t[s.charCodeAt(i)] = i;
  const z = new Uint8Array(((s.length - 64) * 3) >> 2);
  for (let i = 64, j = 0, b = 0, n = 0; i < s.length; i++) {
    b = (b << 6) | t[s.charCodeAt(i)];
    n += 6;
    if (n > 7) z[j++] = b >> (n -= 8);
  }
  return z;
}

const carried = alphabet + encode(stream);
if (!Buffer.from(decode(carried)).equals(stream)) {
  console.error(`${wasmFile}: the carried string does not decode to the stream`);
  process.exit(1);
}
writeFileSync(entry, `var ${NAME}="${carried}";` + code, "utf8");
