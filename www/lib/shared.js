// Shared by every entry of the package: the PayError class, the load state,
// and the glue between wasm-bindgen's generated bindings and an instance.
// The decisions (planning, waiting, calling, mapping) are all in the wasm.

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

/** Hands a wasm instance to the generated bindings and starts it. */
export function link(bg, exports) {
  bg.__wbg_set_wasm(exports);
  if (typeof exports.__wbindgen_start === "function") exports.__wbindgen_start();
  bg.__setErrorClass(PayError);
  instanceExports = exports;
}

export function isReady() {
  return instanceExports !== null;
}

/** `fn`, throwing PayError `not_ready` until the module is loaded. */
export function guard(name, fn) {
  return (...args) => {
    if (instanceExports === null) throw new PayError(`${name}() was called before ready() resolved`, "not_ready");
    return fn(...args);
  };
}

/**
 * `cls` (a class of the wasm), whose construction throws PayError
 * `not_ready` until the module is loaded. A Proxy keeps `instanceof`,
 * statics and the prototype of the class itself.
 */
export function guardClass(name, cls) {
  return new Proxy(cls, {
    construct(target, args, newTarget) {
      if (instanceExports === null) throw new PayError(`new ${name}() was called before ready() resolved`, "not_ready");
      return Reflect.construct(target, args, newTarget);
    },
  });
}

/** Bytes of the module's linear memory (0 before loading): for leak tests. */
export function __wasmMemoryBytes() {
  return instanceExports ? instanceExports.memory.buffer.byteLength : 0;
}
