// The JavaScript build of paybridge, bundled into paybridge.wasm.cjs
// (CommonJS): binaryen's wasm2js translation of a second build of the crate
// (MVP features only, so wasm-bindgen keeps JavaScript values in a heap
// array rather than an externref table), with the glue it links with: the
// mini-program module's own (the build names the translation's imports and
// exports as that module's, Makefile). For runtimes with no WebAssembly: a
// mini-program page passes this module to ready({ wasmJs }) of
// paybridge/miniprogram. It is translated, not rewritten: the same Rust
// code, the same results.

// Built with globals.js injected, as the mini-program module is.
import { bindings as glue } from "./paybridge_mini_bg.js";
import { instantiate } from "./translated.cjs";

/** The glue that the entry links (`__wbg_set_wasm`) and calls. */
export const bindings = glue;
/** The translated module's exports, as a WebAssembly instance's would be. */
export const wasmExports = instantiate({ bg: glue });
