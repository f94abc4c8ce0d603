// The payment module, carried in the browser entry: `make pkg` replaces the
// placeholder with the base64 of its deflate stream (www/build/embed.mjs),
// so that `pay()` needs no second request. embed.mjs writes the string as
// the entry's first statement: 21 KB of base64 between two parts of the
// code would hide each from the other in gzip's 32 KB window, and its
// Huffman codes would be shared with more of the code (0.1 KB more gzipped
// at the end of the bundle, 0.3 KB in the middle, where the minifier would
// put a constant used once).
// The placeholder is a name, not a string: a minifier cannot fold what it
// does not know (a string's `.length`, for one).
export const EMBEDDED = PAYBRIDGE_EMBEDDED_WASM;
