// The payment module, carried in the browser entry: `make pkg` replaces the
// placeholder with the base64 of its deflate stream (www/build/embed.mjs),
// so that `pay()` needs no second request. embed.mjs writes the string as
// the entry's first statement: the base64 between two parts of the code
// would put them farther apart than gzip's window reaches, and its Huffman
// codes would be shared with more of the code (more gzipped bytes at the
// end of the bundle, and more again in the middle, where the minifier
// would put a constant used once; tests/bench/README.md).
// The placeholder is a name, not a string: a minifier cannot fold what it
// does not know (a string's `.length`, for one).
export const EMBEDDED = PAYBRIDGE_EMBEDDED_WASM;
