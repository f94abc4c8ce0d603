// The global names the mini-program builds use, injected in place of the
// free names (esbuild --inject, Makefile): every `globalThis`,
// `TextEncoder` and `TextDecoder` of the mini-program module, the
// JavaScript build and their wasm-bindgen glue reads the bindings below
// instead. A wallet1 page logic has no `globalThis` or `global` (unless the
// project turns its global object on), and neither `TextEncoder` nor
// `TextDecoder`; reading a missing name would throw there, so each is
// asked with `typeof` once, here.
//
// What must stay true: no code of those builds names a global object
// directly (tests/node/miniprogram-es5.test.mjs loads them with every such
// name undefined), and the platform's own encoder and decoder are used
// wherever they exist.
import { TextEncoder as Utf8Encoder, TextDecoder as Utf8Decoder } from "./textcoding.js";

/**
 * The global object where the runtime lets code reach it, else an empty
 * object: platform objects are then only those a caller passes (the
 * mini-program `api`, `ready({ WebAssembly })`).
 */
const root = typeof globalThis == "object" && globalThis ? globalThis : {};

const Encoder = typeof TextEncoder == "function" ? TextEncoder : Utf8Encoder;
const Decoder = typeof TextDecoder == "function" ? TextDecoder : Utf8Decoder;

// Where the global object is reachable and lacks them, the stand-ins are
// put there too, as before, for code of the page that expects them; the
// platform's own are never replaced.
if (typeof root.TextEncoder != "function") root.TextEncoder = Encoder;
if (typeof root.TextDecoder != "function") root.TextDecoder = Decoder;

export { root as globalThis, Encoder as TextEncoder, Decoder as TextDecoder };
