// The payment module, carried in the browser entry: `make pkg` replaces the
// placeholder with the base64 of its zlib stream (www/build/embed.mjs), so
// that `pay()` needs no second request. index.js imports this module
// first, so that the bundle starts with it: 30 KB of base64 between two
// parts of the code would hide each from the other in gzip's 32 KB window,
// and its Huffman codes would be shared with more of the code (0.1 KB more
// gzipped at the end of the bundle, 0.3 KB in the middle).
export const EMBEDDED = "PAYBRIDGE_EMBEDDED_WASM";
