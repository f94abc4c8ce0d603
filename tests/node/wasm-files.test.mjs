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

/** `wasm` through the build's rewrite. */
function rewritten(wasm) {
  const dir = mkdtempSync(join(tmpdir(), "paybridge-wasm-"));
  try {
    writeFileSync(join(dir, "m_bg.wasm"), wasm);
    writeFileSync(join(dir, "m_bg.js"), "export function f() {}\n");
    execFileSync(process.execPath, [script, ...["m_bg.wasm", "m_bg.js", "out.wasm", "out.js"].map((f) => join(dir, f))]);
    return readFileSync(join(dir, "out.wasm"));
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
  for (const f of ["paybridge_bg.wasm", "paybridge_mini_bg.wasm", "paybridge_full_bg.wasm", "miniprogram_dist/paybridge_mini_bg.wasm"]) {
    const wasm = readFileSync(new URL(f, pkg));
    assert.equal(dataSegments(wasm), 1, f);
    assert.ok(memoryOf(wasm).byteLength > 0, f);
  }
});
