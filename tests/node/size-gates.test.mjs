// `make size`'s gates (tests/tools/size.mjs): every shipped module has a
// budget, and the run fails when a module is over it or a file of it is
// missing, not only when the browser entry grows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUDGETS } from "../tools/size.mjs";

const PKG = fileURLToPath(new URL("../../pkg/", import.meta.url));
const SIZE = fileURLToPath(new URL("../tools/size.mjs", import.meta.url));
const run = (dir) => spawnSync(process.execPath, [SIZE], { env: { ...process.env, SIZE_PKG: dir }, encoding: "utf8" });

function copy() {
  const dir = mkdtempSync(join(tmpdir(), "paybridge-size-"));
  cpSync(PKG, dir, { recursive: true, dereference: true });
  return dir;
}

test("size gates: the built package passes every budget", () => {
  const r = run(PKG);
  assert.equal(r.status, 0, r.stderr);
  for (const b of BUDGETS) assert.match(r.stdout, new RegExp(`budget  ${b.name.replace(/[()]/g, "\\$&")}: \\d+ of ${b.budget}`));
});

test("size gates: each module's missing file fails the run, naming it", () => {
  for (const b of BUDGETS) {
    const dir = copy();
    try {
      rmSync(join(dir, b.files[0]));
      const r = run(dir);
      assert.equal(r.status, 1, `${b.name} without ${b.files[0]}`);
      assert.match(r.stderr, new RegExp(`missing pkg/${b.files[0].replace(/\./g, "\\.")}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test("size gates: a module over its budget fails the run", () => {
  for (const b of BUDGETS) {
    const dir = copy();
    try {
      // Incompressible bytes appended to the module's largest file
      // (xorshift32: gzip finds no repeats in them).
      const f = join(dir, b.files[0]);
      const noise = Buffer.alloc(b.budget + 1);
      let x = 2463534242;
      for (let i = 0; i < noise.length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        noise[i] = x >>> 24;
      }
      writeFileSync(f, Buffer.concat([readFileSync(f), noise]));
      const r = run(dir);
      assert.equal(r.status, 1, `${b.name} with ${b.budget + 1} bytes more`);
      assert.match(r.stderr, new RegExp(`over its budget of ${b.budget}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
