// The .wasm files of the package as the build rewrites them
// (www/build/short-names.mjs): each holds one data segment, and the memory a
// rewritten module starts with is byte for byte the memory of the module
// before, overlapping segments included.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import { leb, readLeb, sections, sleb } from "../../www/build/wasm.mjs";

const pkg = new URL("../../pkg/", import.meta.url);
const script = fileURLToPath(new URL("../../www/build/short-names.mjs", import.meta.url));

const dataSegments = (wasm) => readLeb([...sections(wasm)].find((s) => s.id === 11).body, 0)[0];

/** The memory of `wasm` once instantiated; no import may run meanwhile. */
function memoryOf(wasm) {
  const module = new WebAssembly.Module(wasm);
  const imports = {};
  for (const i of WebAssembly.Module.imports(module)) {
    (imports[i.module] ??= {})[i.name] = () => {
      throw new Error(`${i.module}.${i.name} called while instantiating`);
    };
  }
  return new Uint8Array(new WebAssembly.Instance(module, imports).exports.memory.buffer);
}

const section = (id, body) => Buffer.concat([Buffer.from([id]), leb(body.length), body]);
const segment = (offset, bytes) => Buffer.concat([Buffer.from([0, 0x41]), sleb(offset), Buffer.from([0x0b]), leb(bytes.length), Buffer.from(bytes)]);

/** A module of one memory page and these active segments. */
function moduleOf(segments) {
  return Buffer.concat([
    Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
    section(5, Buffer.from([1, 0, 1])),
    section(7, Buffer.concat([leb(1), leb(6), Buffer.from("memory"), Buffer.from([2, 0])])),
    section(12, leb(segments.length)), // the data count
    section(11, Buffer.concat([leb(segments.length), ...segments])),
  ]);
}

/** `wasm` (and its glue `js`) through the build's rewrite; the module, or with `glue` both. */
function rewritten(wasm, js = "export function f() {}\n", glue = false) {
  const dir = mkdtempSync(join(tmpdir(), "paybridge-wasm-"));
  try {
    writeFileSync(join(dir, "m_bg.wasm"), wasm);
    writeFileSync(join(dir, "m_bg.js"), js);
    execFileSync(process.execPath, [script, ...["m_bg.wasm", "m_bg.js", "out.wasm", "out.js"].map((f) => join(dir, f))]);
    const out = readFileSync(join(dir, "out.wasm"));
    return glue ? { wasm: out, js: readFileSync(join(dir, "out.js"), "utf8") } : out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the build makes a module's data segments one, and its memory starts the same", () => {
  // A gap between the first two segments, and a third that overlaps the
  // first, whose bytes memory then holds.
  const wasm = moduleOf([segment(3, [1, 2, 3, 4, 5]), segment(40, [9, 9]), segment(5, [7, 7, 7, 7])]);
  const out = rewritten(wasm);
  assert.equal(dataSegments(wasm), 3);
  assert.equal(dataSegments(out), 1);
  const before = memoryOf(wasm);
  assert.deepEqual([...before.subarray(0, 12)], [0, 0, 0, 1, 2, 7, 7, 7, 7, 0, 0, 0]);
  assert.deepEqual(memoryOf(out), before);
});

test("segments far apart stay apart: the zeros between them would be in a mini-program's package", () => {
  const wasm = moduleOf([segment(3, [1, 2]), segment(8000, [3, 4])]);
  const out = rewritten(wasm);
  assert.equal(dataSegments(out), 2);
  assert.deepEqual(memoryOf(out), memoryOf(wasm));
});

test("every .wasm of the package holds one data segment and instantiates without its glue running", () => {
  for (const f of ["paybridge_bg.wasm", "paybridge_mini_bg.wasm", "paybridge_full_bg.wasm", "miniprogram/paybridge_mini_bg.wasm.br"]) {
    let wasm = readFileSync(new URL(f, pkg));
    if (f.endsWith(".br")) wasm = brotliDecompressSync(wasm);
    assert.equal(dataSegments(wasm), 1, f);
    assert.ok(memoryOf(wasm).byteLength > 0, f);
  }
});

test("the glue keeps the imports the module has, renamed, and leaves out the ones it does not have", () => {
  const str = (t) => Buffer.concat([leb(Buffer.byteLength(t)), Buffer.from(t)]);
  const used = "__wbg_get_0123456789abcdef";
  const unused = "__wbg___wbindgen_throw_fedcba9876543210";
  // A module that imports `used` from its glue (a function of no arguments).
  const wasm = Buffer.concat([
    Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
    section(1, Buffer.from([1, 0x60, 0, 0])),
    section(2, Buffer.concat([leb(1), str("./m_bg.js"), str(used), Buffer.from([0, 0])])),
  ]);
  const js = [
    `export function ${used}() {\n    return 1;\n}`,
    `export function ${unused}(arg0, arg1) {\n    throw new Error(String(arg0 + arg1));\n}`,
    "export function __wbg_set_wasm(val) {\n    wasm = val;\n}",
    "",
  ].join("\n");
  const out = rewritten(wasm, js, true);
  assert.deepEqual(WebAssembly.Module.imports(new WebAssembly.Module(out.wasm)), [{ module: "bg", name: "$0", kind: "function" }]);
  assert.match(out.js, /^export function \$0\(\) \{\n {4}return 1;\n\}$/m);
  assert.ok(!out.js.includes("__wbindgen_throw"), out.js);
  assert.match(out.js, /^export function __wbg_set_wasm\(val\)/m);
  // And in the package: no glue bundled into an entry offers what its module does not import.
  for (const f of ["index.js", "miniprogram.mjs"]) assert.ok(!readFileSync(new URL(f, pkg), "utf8").includes("__wbindgen_throw"), f);
});

test("the exports the glue reaches get short names in both files; the ones it never reaches are left out", () => {
  const str = (t) => Buffer.concat([leb(Buffer.byteLength(t)), Buffer.from(t)]);
  const exp = (n, kind, index) => Buffer.concat([str(n), Buffer.from([kind, index])]);
  // Two functions of no arguments, a memory, and four exports.
  const wasm = Buffer.concat([
    Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
    section(1, Buffer.from([1, 0x60, 0, 0])),
    section(3, Buffer.from([2, 0, 0])),
    section(5, Buffer.from([1, 0, 1])),
    section(7, Buffer.concat([leb(4), exp("memory", 2, 0), exp("__payStep", 0, 0), exp("__wbindgen_export2", 0, 1), exp("__wbindgen_export", 0, 1)])),
    section(10, Buffer.from([2, 2, 0, 0x0b, 2, 0, 0x0b])),
  ]);
  const js = [
    "export function __payStep() {\n    return wasm.__payStep();\n}",
    "export function text() {\n    return wasm.__wbindgen_export(wasm.memory);\n}",
    "export function __wbg_set_wasm(val) {\n    wasm = val;\n}",
    "",
  ].join("\n");
  const out = rewritten(wasm, js, true);
  const names = WebAssembly.Module.exports(new WebAssembly.Module(out.wasm)).map((e) => e.name);
  assert.deepEqual(names, ["memory", "_0", "_1"]);
  assert.match(out.js, /^export function __payStep\(\) \{\n {4}return wasm\._0\(\);/m);
  assert.match(out.js, /wasm\._1\(wasm\.memory\)/);
  assert.ok(!out.js.includes("wasm.__"), out.js);
});

test("the carried module's string is the entry's first statement, wherever the minifier left its one use", async () => {
  const dir = mkdtempSync(join(tmpdir(), "paybridge-embed-"));
  try {
    const wasm = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    writeFileSync(join(dir, "m.wasm"), wasm);
    writeFileSync(join(dir, "entry.mjs"), "const a=1;export function carried(){return PAYBRIDGE_EMBEDDED_WASM}export const b=a;\n");
    const embed = fileURLToPath(new URL("../../www/build/embed.mjs", import.meta.url));
    execFileSync(process.execPath, [embed, join(dir, "entry.mjs"), join(dir, "m.wasm")]);
    const out = readFileSync(join(dir, "entry.mjs"), "utf8");
    assert.match(out, /^var paybridgeWasm\$="[A-Za-z0-9+/=]+";const a=1;/);
    const { carried, b } = await import(join(dir, "entry.mjs"));
    assert.equal(b, 1);
    const { inflateRawSync } = await import("node:zlib");
    assert.deepEqual(inflateRawSync(Buffer.from(carried(), "base64")), wasm);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // And the package's entry: the string first, then the code.
  const entry = readFileSync(new URL("index.js", pkg), "utf8");
  assert.match(entry.slice(0, 40), /^var paybridgeWasm\$="[A-Za-z0-9+/]{20}/);
  assert.equal(entry.split("paybridgeWasm$").length, 3, "declared once and used once");
});

test("the browser entry leaves out the mini-program API call (command 7); the mini-program bundles keep it", () => {
  const read = (f) => readFileSync(new URL(f, pkg), "utf8");
  const entry = read("index.js");
  assert.ok(!entry.includes("PAYBRIDGE_BROWSER"), "the name is defined away by the bundler");
  assert.ok(!/\.success=/.test(entry), "no success callback is set up in the entry");
  for (const f of ["miniprogram.mjs", "miniprogram.cjs", "miniprogram/index.js"]) assert.match(read(f), /\.success=/, f);
});

test("an unimported import of another form than a plain body stops the build instead of taking the functions after it", () => {
  const wasm = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
  const js = [
    "export function __wbg_get_0123456789abcdef() { return handleError(function (arg0) {",
    "    return arg0;",
    "}, arguments); }",
    "export function kept() {",
    "    return 1;",
    "}",
    "",
  ].join("\n");
  assert.throws(() => rewritten(wasm, js, true), /glue rewrite "unused-imports" expected .*; __wbg_get_0123456789abcdef has a body of another form/);
});
