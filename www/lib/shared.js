// Shared by every entry of the package: the PayError class and the glue
// between wasm-bindgen's generated bindings and a loaded instance. The
// decisions (planning, waiting, calling, mapping) are all in the wasm.

/** Every failure of the module: `code`, a message naming the field, `field`. */
export class PayError extends Error {
  constructor(message, code, field, details, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "PayError";
    this.code = code;
    if (field !== undefined) this.field = field;
    if (details !== undefined) this.details = details;
  }
}

let instanceExports = null;

/** Bytes of the module's linear memory (0 before loading): for leak tests. */
export function __wasmMemoryBytes() {
  return instanceExports ? instanceExports.memory.buffer.byteLength : 0;
}

/** Hands a wasm instance to the generated bindings and starts it. */
export function link(bg, exports) {
  instanceExports = exports;
  bg.__wbg_set_wasm(exports);
  if (typeof exports.__wbindgen_start === "function") exports.__wbindgen_start();
  bg.__setErrorClass(PayError);
}

/** The exports, each throwing `not_ready` until `isReady()` is true. */
export function api(bg, isReady) {
  const guard = (name) => (...args) => {
    if (!isReady()) throw new PayError(`${name}() was called before ready() resolved`, "not_ready");
    return bg[name](...args);
  };
  const out = {};
  for (const name of SYNC) out[name] = guard(name);
  return out;
}

// The synchronous exports, guarded by `api`.
export const SYNC = [
  "planAction",
  "defaultProfile",
  "detectRuntime",
  "waitForBridge",
];
