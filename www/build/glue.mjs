// Every text rewrite of wasm-bindgen's generated glue (the `*_bg.js` it
// writes beside each module), in one place: `www/build/short-names.mjs`
// runs them, and nothing else in the build edits the glue's text.
//
// Each rewrite reads the glue of the wasm-bindgen in Cargo.lock
// (0.2.130) by its exact shape. When that shape changes, the rewrite does
// not guess: it stops the build with a GlueShapeError naming itself, the
// shape it expected and what it found, so that a new wasm-bindgen is read
// anew here rather than shipped half rewritten. A rewrite whose subject is
// absent from a glue (no string passed in, no import that may throw) has
// nothing to do and leaves the glue as it is.
//
// The rewrites, in the order they run:
//
//   strings         before the module is rewritten: strings passed in by
//                   wasm-bindgen's encode-once branch only
//   export-names    the module's exports as the glue reaches them, renamed
//   import-names    the glue's imports (and hashed exports), renamed
//   unused-imports  the imports the module does not import, left out
//   snippets        the module's inline JavaScript written into the glue
//   lazy-text       the encoder and decoder made at first use, not at import
//   handle-error    the imports that may throw, each one function
//   casts           the number cast and the drop as the glue's helpers
//   one-view        a string read through the byte view's helper; the drop
//                   written inside takeObject, its one caller
//   byte-view       the byte view made in one test, its offsets not divided
//   numbers         a number argument converted once, by the call
//   bindings        every export as one object (`--bindings`)

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** A glue of another shape than a rewrite reads: the build stops. */
export class GlueShapeError extends Error {
  constructor(file, rewrite, found) {
    super(
      `${file}: glue rewrite "${rewrite.name}" expected ${rewrite.expects}; ${found}. ` +
        `wasm-bindgen's glue changed shape: read it anew in www/build/glue.mjs`,
    );
    this.name = "GlueShapeError";
    this.rewrite = rewrite.name;
  }
}

const escape = (name) => name.replace(/\$/g, "\\$");

/** The glue's reads of the module's export `field`: `wasm.field`, a whole name. */
export const member = (field, flags) => new RegExp(`\\bwasm\\.${escape(field)}(?![\\w$])`, flags);

/**
 * The rewrites. `apply(js, ctx, fail)` answers the new text; `fail(found)`
 * stops the build. `ctx`: `file` (the glue's path, for messages and for
 * its snippets), `wasm` (the module's path), `imports` (old name to short
 * name: the imports and the hashed exports), `exports` (old name to short
 * name: the other exports the glue reaches), `bindings` (the flag).
 */
export const REWRITES = [
  {
    // Strings from JavaScript are written into the module's memory by
    // wasm-bindgen's own branch for a module without `realloc`: encoded
    // once, copied once. The other branch (ASCII copied by hand, then the
    // rest re-allocated and encoded into place, and `encodeInto`
    // polyfilled for it) saves one short-lived array a string; the strings
    // a payment reads are a few short fields, and the branch costs the
    // browser entry bytes (tests/bench/README.md).
    name: "strings",
    phase: "before",
    expects:
      "`function passStringToWasm0(arg, malloc, realloc) {` opening with `if (realloc === undefined) {`, " +
      "called as `passStringToWasm0(arg, wasm.malloc, wasm.realloc)`, `encodeInto` used by the other branch only",
    apply(js, ctx, fail) {
      if (!js.includes("passStringToWasm0")) return js;
      const full = /^function passStringToWasm0\(arg, malloc, realloc\) \{\n {4}if \(realloc === undefined\) \{\n([\s\S]*?)\n {4}\}\n[\s\S]*?\n\}\n/m;
      if (!full.test(js)) fail("passStringToWasm0 has another body");
      js = js.replace(full, (_, body) => `function passStringToWasm0(arg, malloc) {\n${body.replace(/^ {4}/gm, "")}\n}\n`);
      const calls = /passStringToWasm0\(([\w$.]+), (wasm\.[\w$]+), wasm\.[\w$]+\)/g;
      js = js.replace(calls, (_, arg, malloc) => `passStringToWasm0(${arg}, ${malloc})`);
      if (/passStringToWasm0\([^)]*,[^)]*,/.test(js)) fail("a call of passStringToWasm0 has another form");
      const polyfill = /^if \(!\('encodeInto' in cachedTextEncoder\)\) \{\n[\s\S]*?\n\}\n/m;
      js = js.replace(polyfill, "");
      if (js.includes("encodeInto")) fail("encodeInto is still used");
      return js;
    },
  },
  {
    // The other exports the glue reaches as `wasm.NAME` (`__payStart`,
    // `__wbindgen_export4`, ...) under the names short-names.mjs gave
    // them in the module.
    name: "export-names",
    phase: "after",
    expects: "every export reached as `wasm.NAME`, NAME a whole identifier",
    apply(js, ctx, fail) {
      for (const [old, to] of ctx.exports) js = js.replace(member(old, "g"), () => `wasm.${to}`);
      if (/\bwasm\.__/.test(js)) fail("an export is reached in another form");
      return js;
    },
  },
  {
    name: "import-names",
    phase: "after",
    expects: "each import of the module (and each hashed export) named in the glue as a whole identifier",
    apply(js, ctx, fail) {
      for (const [old, short] of ctx.imports) {
        const whole = new RegExp(`(?<![\\w$])${escape(old)}(?![\\w$])`, "g");
        if (!whole.test(js)) fail(`${old} is not in it`);
        js = js.replace(whole, () => short);
      }
      return js;
    },
  },
  {
    // An import the glue offers and the module does not import
    // (wasm-bindgen writes its `throw` for every module; the optimizer
    // may have dropped the module's last use of it) is left out:
    // exported, it would stay in every bundle. Every import the module has
    // is renamed above, so a hashed name still here is one it does not
    // have.
    name: "unused-imports",
    phase: "after",
    expects: "each import as `export function __wbg_NAME_HASH(args) {`, its body, and `}` alone on a line",
    apply(js, ctx, fail) {
      js = js.replace(/^export function (__wbg_\w+_[0-9a-f]{16})\(.*\) \{\n[\s\S]*?\n\}\n/gm, (whole, fn) => {
        if (ctx.imports.has(fn)) fail(`${fn} is imported by ${ctx.wasm} but was not renamed`);
        // One function, not the ones after it (a body of another form than
        // wasm-bindgen's plain one would end elsewhere).
        if (/\nexport /.test(whole)) fail(`${fn} has a body of another form`);
        return "";
      });
      if (/^export function __wbg_\w+_[0-9a-f]{16}\b/m.test(js)) fail("an import is offered in another form");
      return js;
    },
  },
  {
    // The module's own JavaScript (wasm-bindgen's `inline_js` snippets,
    // which the glue imports from a folder beside it) is written into the
    // glue: the glue is then one file wherever it goes (bundled into an
    // entry, or copied to pkg/ as the full module's is).
    name: "snippets",
    phase: "after",
    expects: "`import { a, b } from './snippets/...';` on a line of its own, each name an `export function` of the snippet",
    apply(js, ctx, fail) {
      js = js.replace(/^import \{ ([\w$, ]+) \} from '(\.\/snippets\/[^']+)';\n/gm, (_, names, path) => {
        const code = readFileSync(new URL(path, pathToFileURL(ctx.file)), "utf8");
        for (const n of names.split(", ")) {
          if (!new RegExp(`^export function ${escape(n)}\\b`, "m").test(code)) fail(`${path} does not export function ${n}`);
        }
        return code.replace(/^export function /gm, "function ") + "\n";
      });
      if (/from ["']\.\/snippets\//.test(js)) fail("a snippet is imported in another form");
      return js;
    },
  },
  {
    // Nothing runs at import that a mini-program runtime lacks: the
    // encoder and the decoder are made at their first use, not when the
    // glue is evaluated, so that a bundle a mini-program framework makes of
    // the browser entry (the root import in a Taro or uni-app build; no
    // TextEncoder there) loads, and its pay() fails as a PayError. The
    // decoder's byte count starts at wasm-bindgen's own limit, so its first
    // use makes one.
    name: "lazy-text",
    phase: "after",
    expects:
      "`const E=new TextEncoder;` with `function textInto(s,a){return E.encodeInto(s,a).written}` (the strings rewrite's), and " +
      "`let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });` `cachedTextDecoder.decode();` before " +
      "`let numBytesDecoded = 0;`, after `const MAX_SAFARI_DECODE_BYTES`",
    apply(js, ctx, fail) {
      const encoder = "const E=new TextEncoder;\nfunction textInto(s,a){return E.encodeInto(s,a).written}";
      if (js.includes("new TextEncoder")) {
        if (!js.includes(encoder)) fail("a TextEncoder is made in another form");
        js = js.replace(encoder, "let E;\nfunction textInto(s,a){return(E=E||new TextEncoder).encodeInto(s,a).written}");
      }
      const decoder = "let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });\ncachedTextDecoder.decode();\n";
      if (js.includes("new TextDecoder")) {
        const count = "let numBytesDecoded = 0;";
        if (!js.includes(decoder) || !js.includes(count) || js.indexOf("const MAX_SAFARI_DECODE_BYTES") > js.indexOf(count)) {
          fail("a TextDecoder is made in another form");
        }
        js = js.replace(decoder, "let cachedTextDecoder;\n").replace(count, "let numBytesDecoded = MAX_SAFARI_DECODE_BYTES;");
      }
      return js;
    },
  },
  {
    // An import that may throw is wasm-bindgen's `function $1() { return
    // handleError(function (arg0, ...) { ... }, arguments); }`: written as
    // the function itself, its body in a `try` whose `catch` stores the
    // thrown value as handleError does (`caught`): no inner function and
    // no `arguments` for each.
    name: "handle-error",
    phase: "after",
    expects:
      "`export function $N() { return handleError(function (args) {` ... `}, arguments); }` and " +
      "`function handleError(f, args) { try { return f.apply(this, args); } catch (e) { wasm.X(addHeapObject(e)); } }`",
    apply(js, ctx, fail) {
      const handled = /^export function (\$\d+)\(\) \{ return handleError\(function \(([\w, ]*)\) \{\n([\s\S]*?)\n\}, arguments\); \}$/gm;
      if (!handled.test(js)) {
        if (js.includes("handleError(function")) fail("handleError is called in another form");
        return js;
      }
      const helper = /^function handleError\(f, args\) \{\n {4}try \{\n {8}return f\.apply\(this, args\);\n {4}\} catch \(e\) \{\n {8}(wasm\.[\w$]+)\(addHeapObject\(e\)\);\n {4}\}\n\}\n/m;
      const store = js.match(helper);
      if (!store) fail("handleError has another body");
      js = js.replace(handled, (_, fn, args, body) => `export function ${fn}(${args}) { try {\n${body}\n} catch (e) { caught(e); } }`);
      js = js.replace(helper, `function caught(e) {\n    ${store[1]}(addHeapObject(e));\n}\n`);
      if (js.includes("handleError")) fail("handleError is called in another form");
      return js;
    },
  },
  {
    // The casts wasm-bindgen writes as imports (a number made a
    // JavaScript value) and its drop are the glue's own helpers under the
    // import's name.
    name: "casts",
    phase: "after",
    expects:
      "the cast `export function $N(arg0) {` with `// Cast intrinsic for \\`F64 -> Externref\\`.`, " +
      "`const ret = arg0;`, `return addHeapObject(ret);`, and the drop `export function $N(arg0) { takeObject(arg0); }`",
    apply(js, ctx, fail) {
      js = js.replace(
        /^export function (\$\d+)\(arg0\) \{\n {4}\/\/ Cast intrinsic for `F64 -> Externref`\.\n {4}const ret = arg0;\n {4}return addHeapObject\(ret\);\n\}$/gm,
        (_, fn) => `export const ${fn} = addHeapObject;`,
      );
      if (js.includes("Cast intrinsic for `F64 -> Externref`")) fail("the number cast has another body");
      js = js.replace(/^export function (\$\d+)\(arg0\) \{\n {4}takeObject\(arg0\);\n\}$/gm, (_, fn) => `export const ${fn} = takeObject;`);
      const drop = ctx.imports.get("__wbindgen_object_drop_ref");
      if (drop && !js.includes(`export const ${drop} = takeObject;`)) fail("the drop has another body");
      return js;
    },
  },
  {
    // wasm-bindgen writes the view of `len` bytes at `ptr` twice: in
    // getArrayU8FromWasm0 and again inside getStringFromWasm0. Where the
    // glue has both, the string is read through the first. Its dropObject
    // has one caller, takeObject, which does the drop itself.
    name: "one-view",
    phase: "after",
    expects:
      "`function getStringFromWasm0(ptr, len) {` `ptr = ptr >>> 0;` `return decodeText(getUint8ArrayMemory0().subarray(ptr, ptr + len));`, " +
      "`function dropObject(idx) {` `if (idx < 1028) return;` `heap[idx] = heap_next;` `heap_next = idx;`, called only by " +
      "`function takeObject(idx) {` `const ret = getObject(idx);` `dropObject(idx);` `return ret;`",
    apply(js, ctx, fail) {
      const string =
        "function getStringFromWasm0(ptr, len) {\n    ptr = ptr >>> 0;\n    return decodeText(getUint8ArrayMemory0().subarray(ptr, ptr + len));\n}";
      if (js.includes("function getStringFromWasm0") && js.includes("function getArrayU8FromWasm0")) {
        if (!js.includes(string)) fail("getStringFromWasm0 has another body");
        js = js.replace(string, "function getStringFromWasm0(ptr, len) {\n    return decodeText(getArrayU8FromWasm0(ptr, len));\n}");
      }
      const drop = "function dropObject(idx) {\n    if (idx < 1028) return;\n    heap[idx] = heap_next;\n    heap_next = idx;\n}\n";
      const take = "function takeObject(idx) {\n    const ret = getObject(idx);\n    dropObject(idx);\n    return ret;\n}";
      if (js.includes("dropObject")) {
        if (!js.includes(drop) || !js.includes(take) || js.split("dropObject(").length !== 3) fail("dropObject has another body or other callers");
        js = js
          .replace(drop, "")
          .replace(take, "function takeObject(idx) {\n    const ret = getObject(idx);\n    if (idx >= 1028) {\n        heap[idx] = heap_next;\n        heap_next = idx;\n    }\n    return ret;\n}");
      }
      return js;
    },
  },
  {
    // The byte view over the module's memory is made anew when there is
    // none yet or when the memory grew (the old view then has no bytes):
    // one test of the view's length, which is undefined without a view.
    // Its offsets are bytes, so wasm-bindgen's division by the element
    // size (`ptr / 1`) is left out.
    name: "byte-view",
    phase: "after",
    expects:
      "`if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {` and " +
      "`return getUint8ArrayMemory0().subarray(ptr / 1, ptr / 1 + len);` in getArrayU8FromWasm0",
    apply(js, ctx, fail) {
      const made = "if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {";
      if (js.includes("cachedUint8ArrayMemory0")) {
        if (js.split(made).length !== 2) fail("the byte view is made in another form");
        js = js.replace(made, "if (!cachedUint8ArrayMemory0?.byteLength) {");
      }
      const view = "return getUint8ArrayMemory0().subarray(ptr / 1, ptr / 1 + len);";
      if (js.includes("function getArrayU8FromWasm0")) {
        if (js.split(view).length !== 2) fail("getArrayU8FromWasm0 has another body");
        js = js.replace(view, "return getUint8ArrayMemory0().subarray(ptr, ptr + len);");
      }
      return js;
    },
  },
  {
    // wasm-bindgen converts an export's number argument before the call
    // (`const val1 = +id;`), and the call converts it again, as it
    // converts every argument to its parameter's type (ToNumber, then
    // ToInt32 for an i32): the argument is passed as it is and converted
    // once, by the call. The exports that take numbers are the entries'
    // own (`__step`, `__confirmStart`), given numbers by the shim and the
    // core.
    name: "numbers",
    phase: "after",
    expects: "`const valN = +NAME;` lines opening a function, each valN then used once, in the call on the line after them",
    apply(js, ctx, fail) {
      js = js.replace(/^((?: {4}const val\d+ = \+[\w$]+;\n)+)( {4}.*\bwasm\.[\w$]+\(.*\);)$/gm, (_, vals, call) => {
        for (const [, val, name] of vals.matchAll(/const (val\d+) = \+([\w$]+);/g)) {
          const whole = new RegExp(`\\b${val}\\b`, "g");
          if ((call.match(whole) ?? []).length !== 1) fail(`${val} is not used once in \`${call.trim()}\``);
          call = call.replace(whole, name);
        }
        return call;
      });
      if (/^ {4}const val\d+ = \+/m.test(js)) fail("a number argument is converted in another form");
      return js;
    },
  },
  {
    // With --bindings (the glues bundled into an entry), every export of
    // the glue also as one plain object, which the entry hands to the
    // module as its imports and calls the exports through. A bundler
    // writes an `import * as` used as a value as an object of getters, one
    // arrow function a name, which gzips larger (tests/bench/README.md).
    name: "bindings",
    phase: "after",
    expects: "exports written `export function NAME`, `export class NAME` or `export const NAME`",
    apply(js, ctx, fail) {
      if (!ctx.bindings) return js;
      // An export that is another name of a helper (`export const $0 =
      // takeObject;`) is written as that helper's name in the object, so
      // that a bundle needs no variable for the other name.
      const names = [...js.matchAll(/^export (?:function|class|const) ([\w$]+)(?: = ([\w$]+);$)?/gm)].map((m) => (m[2] ? `${m[1]}: ${m[2]}` : m[1]));
      if (names.length === 0) fail("it exports nothing");
      return js + `\n/** Every export above, as one object (www/build/short-names.mjs). */\nexport const bindings = { ${names.join(", ")} };\n`;
    },
  },
];

/** `js` through every rewrite of `phase` ("before" the module is rewritten, or "after"). */
export function rewriteGlue(js, phase, ctx) {
  for (const rewrite of REWRITES) {
    if (rewrite.phase !== phase) continue;
    js = rewrite.apply(js, ctx, (found) => {
      throw new GlueShapeError(ctx.file, rewrite, found);
    });
  }
  return js;
}
