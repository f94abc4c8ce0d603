// The text rewrites of wasm-bindgen's generated glue live in one place,
// www/build/glue.mjs, and stop the build, naming the rewrite and the shape
// it expected, on a glue of another shape (a new wasm-bindgen) instead of
// shipping it half rewritten.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GlueShapeError, REWRITES, rewriteGlue } from "../../www/build/glue.mjs";

const build = new URL("../../www/build/", import.meta.url);
const script = fileURLToPath(new URL("short-names.mjs", build));
const EMPTY_MODULE = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/** short-names.mjs on an empty module and the glue `js`: its exit status, its stderr, and whether it wrote the glue. */
function shortNames(js) {
  const dir = mkdtempSync(join(tmpdir(), "paybridge-glue-"));
  try {
    writeFileSync(join(dir, "m_bg.wasm"), EMPTY_MODULE);
    writeFileSync(join(dir, "m_bg.js"), js);
    const args = ["m_bg.wasm", "m_bg.js", "out.wasm", "out.js"].map((f) => join(dir, f));
    const run = spawnSync(process.execPath, [script, ...args, "--bindings"], { encoding: "utf8" });
    return { status: run.status, stderr: run.stderr, wrote: existsSync(join(dir, "out.js")) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ctx = (more = {}) => ({ file: "m_bg.js", wasm: "m_bg.wasm", imports: new Map(), exports: new Map(), bindings: false, ...more });

test("a glue whose string passing has another shape stops the build with the rewrite's name and the shape it expected", () => {
  // wasm-bindgen's string helper as another version might write it.
  const js = [
    "function passStringToWasm0(arg, malloc, realloc) {",
    "    if (typeof realloc === 'undefined') {",
    "        const buf = cachedTextEncoder.encode(arg);",
    "        return malloc(buf.length, 1);",
    "    }",
    "    return realloc(arg);",
    "}",
    "export function f(s) {",
    "    return passStringToWasm0(s, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);",
    "}",
    "",
  ].join("\n");
  const run = shortNames(js);
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, /m_bg\.js: glue rewrite "strings" expected `function passStringToWasm0\(arg, malloc, realloc\) \{` opening with `if \(realloc === undefined\) \{`/);
  assert.match(run.stderr, /passStringToWasm0 has another body\. wasm-bindgen's glue changed shape: read it anew in www\/build\/glue\.mjs/);
  assert.doesNotMatch(run.stderr, /\n\s+at /, "a build error, not a stack trace");
  assert.equal(run.wrote, false, "no half-rewritten glue is written");
});

test("a glue of today's shape goes through every rewrite", () => {
  const js = [
    "export function f() {",
    "    return 1;",
    "}",
    "export function __wbg_set_wasm(val) {",
    "    wasm = val;",
    "}",
    "",
  ].join("\n");
  const run = shortNames(js);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.wrote, true);
});

test("each rewrite that finds its subject in another shape throws, naming itself", () => {
  const shapes = {
    // The helper that stores a thrown value, with another body.
    "handle-error": [
      "export function $0() { return handleError(function (arg0) {\n    return arg0;\n}, arguments); }",
      "function handleError(f, args) {\n    try {\n        return f(...args);\n    } catch (e) {\n        wasm.x(e);\n    }\n}",
      "",
    ].join("\n"),
    // The number cast, written another way.
    casts: "export function $0(arg0) {\n    // Cast intrinsic for `F64 -> Externref`.\n    return addHeapObject(arg0);\n}\n",
    // A snippet imported under another quote.
    snippets: 'import { a } from "./snippets/x/inline0.js";\n',
    // An export reached by a computed name.
    "export-names": "export function f() {\n    return wasm.__payStep();\n}\n",
    // The drop with a check of another bound.
    "one-view": "function dropObject(idx) {\n    if (idx < 132) return;\n    heap[idx] = heap_next;\n    heap_next = idx;\n}\n",
    // The byte view made after a test of another form.
    "byte-view": "if (cachedUint8ArrayMemory0 == null || cachedUint8ArrayMemory0.byteLength === 0) {\n}\n",
    // A converted number used twice.
    numbers: "export function f(id) {\n    const val1 = +id;\n    const ret = wasm.x(val1, val1);\n    return ret;\n}\n",
  };
  for (const [name, js] of Object.entries(shapes)) {
    const phase = REWRITES.find((r) => r.name === name).phase;
    assert.throws(
      () => rewriteGlue(js, phase, ctx()),
      (e) => e instanceof GlueShapeError && e.rewrite === name && e.message.includes(`glue rewrite "${name}" expected`),
      name,
    );
  }
  // The drop, when the module imports it, must become the glue's helper.
  const drop = "export function $0(arg0) {\n    const x = takeObject(arg0);\n}\n";
  const imports = new Map([["__wbindgen_object_drop_ref", "$0"]]);
  assert.throws(() => rewriteGlue(drop, "after", ctx({ imports })), (e) => e.rewrite === "import-names");
  assert.throws(
    () => rewriteGlue(drop.replace("$0", "__wbindgen_object_drop_ref"), "after", ctx({ imports })),
    (e) => e.rewrite === "casts" && /the drop has another body/.test(e.message),
  );
});

test("every rewrite is named and says what it expects; no other build step edits the glue's text", () => {
  const names = REWRITES.map((r) => r.name);
  assert.equal(new Set(names).size, names.length);
  for (const r of REWRITES) {
    assert.match(r.name, /^[a-z-]+$/);
    assert.ok(r.expects.length > 20, r.name);
    assert.ok(["before", "after"].includes(r.phase), r.name);
  }
  // The build's scripts that are handed a glue (`*_bg.js`): short-names.mjs
  // alone (for each module, and for the JavaScript build, named as the
  // mini-program module), and it leaves the text to glue.mjs.
  const makefile = readFileSync(new URL("../../Makefile", import.meta.url), "utf8");
  const given = [...makefile.matchAll(/node www\/build\/([\w-]+\.mjs)([^\n]*)/g)].filter((m) => /_bg\.js\b/.test(m[2])).map((m) => m[1]);
  assert.deepEqual([...new Set(given)], ["short-names.mjs"]);
  assert.doesNotMatch(readFileSync(script, "utf8"), /\.replace(All)?\(/, "short-names.mjs edits the glue's text itself");
});

test("one-view: a string is read through the byte view's helper, and takeObject drops what it takes itself", () => {
  const js = [
    "function dropObject(idx) {\n    if (idx < 1028) return;\n    heap[idx] = heap_next;\n    heap_next = idx;\n}\n",
    "function getArrayU8FromWasm0(ptr, len) {\n    ptr = ptr >>> 0;\n    return getUint8ArrayMemory0().subarray(ptr / 1, ptr / 1 + len);\n}\n",
    "function getStringFromWasm0(ptr, len) {\n    ptr = ptr >>> 0;\n    return decodeText(getUint8ArrayMemory0().subarray(ptr, ptr + len));\n}\n",
    "function takeObject(idx) {\n    const ret = getObject(idx);\n    dropObject(idx);\n    return ret;\n}\n",
  ].join("\n");
  const out = REWRITES.find((r) => r.name === "one-view").apply(js, ctx(), (found) => assert.fail(found));
  assert.doesNotMatch(out, /dropObject/);
  assert.match(out, /function getStringFromWasm0\(ptr, len\) \{\n {4}return decodeText\(getArrayU8FromWasm0\(ptr, len\)\);\n\}/);
  // The same behaviour: a handle below the fixed ones stays, one above is freed.
  const run = new Function(`let heap = [0, 1], heap_next = 7; const getObject = (i) => heap[i];\n${out}\nheap[2000] = "x"; const a = takeObject(2000); const b = takeObject(1);\nreturn [a, b, heap[2000], heap_next, heap[1]];`);
  assert.deepEqual(run(), ["x", 1, 7, 2000, 1]);
});

test("byte-view and numbers: the view made in one test, a number argument converted by the call alone", () => {
  const js = [
    "let cachedUint8ArrayMemory0 = null;",
    "function getUint8ArrayMemory0() {\n    if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {\n" +
      "        cachedUint8ArrayMemory0 = new Uint8Array(wasm.memory.buffer);\n    }\n    return cachedUint8ArrayMemory0;\n}",
    "function getArrayU8FromWasm0(ptr, len) {\n    ptr = ptr >>> 0;\n    return getUint8ArrayMemory0().subarray(ptr / 1, ptr / 1 + len);\n}",
    "export function __step(id, kind, v) {\n    const val1 = +id;\n    const val2 = +kind;\n    const ret = wasm._2(val1, val2, v);\n    return ret;\n}",
    "",
  ].join("\n");
  const out = rewriteGlue(js, "after", ctx());
  assert.match(out, /^ {4}const ret = wasm\._2\(id, kind, v\);$/m);
  assert.doesNotMatch(out, /val\d|\/ 1/);
  // The same behaviour: bytes read at an offset, and a new view once the
  // memory grew (the old buffer detached).
  const run = new Function(
    "wasm",
    `${out.replace(/^export /gm, "")}\nconst a = [...getArrayU8FromWasm0(1, 2)];\n` +
      "const old = wasm.memory.buffer; wasm.memory.buffer = new Uint8Array([9, 8, 7, 6]).buffer; structuredClone(old, { transfer: [old] });\n" +
      "return [a, [...getArrayU8FromWasm0(2, 2)], __step(1, 2, 3)];",
  );
  assert.deepEqual(run({ memory: { buffer: new Uint8Array([1, 2, 3, 4]).buffer }, _2: (...a) => a }), [[2, 3], [7, 6], [1, 2, 3]]);
});
