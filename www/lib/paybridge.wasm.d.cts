// Types of paybridge/paybridge.wasm.cjs: the JavaScript build of the
// module, a CommonJS file, for ready({ wasmJs }) of paybridge/miniprogram. Its
// members are opaque: only the mini-program entry uses them.

/** The glue the entry links and calls. */
export declare const bindings: object;
/** The translated module's exports. */
export declare const wasmExports: object;
