// www/build/wasm2js.mjs, the step that makes binaryen's wasm2js output the
// JavaScript build's module: on a small module translated by the same
// wasm2js and flags as `make pkg`, the data segments (every byte value)
// land in memory as the module wrote them, the exports work through
// `instantiate({ bg })`, each instance has its own memory, long numbers
// are written once, and output of another shape stops the step.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = join(ROOT, "tests/node_modules/.bin");
const STEP = join(ROOT, "www/build/wasm2js.mjs");
const require = createRequire(import.meta.url);

// Bytes 0 to 255 at 1024, text with quotes, a backslash and a digit after
// a zero at 2048; a function that reads a byte, one that calls the import,
// one that repeats a long number.
const BYTES = Array.from({ length: 256 }, (_, i) => `\\${i.toString(16).padStart(2, "0")}`).join("");
const TEXT = 'say \\"hi\\" \\\\ then\\000';
const WAT = `(module
  (import "bg" "$0" (func $add (param i32) (result i32)))
  (memory (export "memory") 2)
  (data (i32.const 1024) "${BYTES}")
  (data (i32.const 2048) "${TEXT}")
  (func (export "_0") (param i32) (result i32) (i32.load8_u (local.get 0)))
  (func (export "_1") (param i32) (result i32) (call $add (local.get 0)))
  (func (export "_2") (param i32) (result i32)
    (select (i32.const -2147483643)
      (select (i32.const -2147483643) (i32.const -2147483644) (i32.eq (local.get 0) (i32.const -2147483643)))
      (i32.eq (local.get 0) (i32.const -2147483644))))
  (func (export "_3") (param i32 i32) (i32.store8 (local.get 0) (local.get 1))))
`;

function build(dir) {
  writeFileSync(join(dir, "m.wat"), WAT);
  execFileSync(join(BIN, "wasm-as"), [join(dir, "m.wat"), "-o", join(dir, "m.wasm")]);
  execFileSync(join(BIN, "wasm2js"), ["--enable-bulk-memory-opt", "-Oz", join(dir, "m.wasm"), "-o", join(dir, "m.js")]);
  return spawnSync(process.execPath, [STEP, join(dir, "m.js"), join(dir, "m.cjs")], { encoding: "utf8" });
}

test("the translation instantiates with its glue as `bg`, its data segments byte for byte, an instance's memory its own", () => {
  const dir = mkdtempSync(join(tmpdir(), "paybridge-wasm2js-"));
  try {
    const r = build(dir);
    assert.equal(r.status, 0, r.stderr);
    const text = readFileSync(join(dir, "m.cjs"), "utf8");
    assert.doesNotMatch(text, /base64|^\s*(import|export)\b/m);
    const m = require(join(dir, "m.cjs"));
    assert.deepEqual(Object.keys(m), ["instantiate"]);
    const a = m.instantiate({ bg: { $0: (x) => x + 1 } });
    const b = m.instantiate({ bg: { $0: (x) => x + 2 } });
    const bytes = new Uint8Array(a.memory.buffer);
    assert.deepEqual([...bytes.subarray(1024, 1280)], Array.from({ length: 256 }, (_, i) => i));
    assert.equal(Buffer.from(bytes.subarray(2048, 2063)).toString("latin1"), 'say "hi" \\ then');
    assert.deepEqual([...bytes.subarray(2063, 2066)], [0, 0x30, 0], "a zero before a digit stays a zero");
    assert.equal(a._0(1024 + 200), 200);
    assert.equal(a._1(41), 42);
    assert.equal(b._1(41), 43);
    assert.equal(a._2(-2147483643), -2147483643);
    assert.equal(a._2(-2147483644), -2147483643);
    assert.equal(a._2(5), -2147483644);
    a._3(1024, 99);
    assert.equal(a._0(1024), 99);
    assert.equal(b._0(1024), 0, "the other instance's memory is untouched");
    assert.deepEqual(Object.keys(a.memory), ["buffer"], "the memory is its buffer, no grow()");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--eager writes instantiate as a parenthesized function, the same module, in printable text", () => {
  const dir = mkdtempSync(join(tmpdir(), "paybridge-wasm2js-"));
  try {
    assert.equal(build(dir).status, 0);
    // Minified as `make pkg` does: terser writes the module function as
    // `exports.instantiate`'s value.
    execFileSync(join(BIN, "esbuild"), ["--minify", "--target=es5", "--format=cjs", "--log-level=warning", join(dir, "m.cjs"), `--outfile=${join(dir, "min.js")}`]);
    execFileSync(join(BIN, "terser"), ["--compress", "passes=2", "--mangle", "--toplevel", "--ecma", "5", join(dir, "min.js"), "--output", join(dir, "t.js")]);
    execFileSync(process.execPath, [STEP, "--eager", join(dir, "t.js"), join(dir, "eager.js")]);
    const text = readFileSync(join(dir, "eager.js"), "utf8");
    assert.match(text, /exports\.instantiate=\(function\(/);
    // Printable text: the data's control characters escaped in their
    // string literals (the minifier writes them raw), every byte intact.
    assert.match(readFileSync(join(dir, "t.js"), "utf8"), /[\x01-\x08]/, "the minified input has raw control characters");
    assert.doesNotMatch(text, /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/);
    const m = require(join(dir, "eager.js"));
    const a = m.instantiate({ bg: { $0: (x) => x * 2 } });
    assert.equal(a._1(21), 42);
    assert.deepEqual([...new Uint8Array(a.memory.buffer).subarray(1024, 1280)], Array.from({ length: 256 }, (_, i) => i));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("output of another shape stops the step, naming what it expected", () => {
  const dir = mkdtempSync(join(tmpdir(), "paybridge-wasm2js-"));
  try {
    assert.equal(build(dir).status, 0);
    const js = readFileSync(join(dir, "m.js"), "utf8");
    const cases = [
      [js.replace("import * as bg from 'bg';", "import * as env from 'env';"), /the first line/],
      [js.replace(/var retasmFunc = asmFunc\(/, "var instance = asmFunc("), /retasmFunc/],
      [js.replace(/base64DecodeToExistingUint8Array\(bufferView, /, "decode(bufferView, "), /base64DecodeToExistingUint8Array/],
    ];
    for (const [text, message] of cases) {
      writeFileSync(join(dir, "bad.js"), text);
      const r = spawnSync(process.execPath, [STEP, join(dir, "bad.js"), join(dir, "bad.cjs")], { encoding: "utf8" });
      assert.equal(r.status, 1, text.slice(0, 80));
      assert.match(r.stderr, /another shape than www\/build\/wasm2js\.mjs reads/);
      assert.match(r.stderr, message);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every JavaScript file of the package is printable text (no raw control characters)", () => {
  const files = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (/\.(c|m)?js$/.test(e.name)) files.push(join(d, e.name));
    }
  };
  walk(join(ROOT, "pkg"));
  assert.ok(files.some((f) => f.endsWith(join("miniprogram", "paybridge.wasm.js"))), "the JavaScript build is there");
  for (const f of files) assert.doesNotMatch(readFileSync(f, "latin1"), /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/, f);
});
