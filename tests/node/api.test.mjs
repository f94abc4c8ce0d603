// www/lib/api.js binds the guarded functions by position from one string
// of names: the two lists must be the same names in the same order, and
// each export must reach the full module's function of its own name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const source = readFileSync(new URL("../../www/lib/api.js", import.meta.url), "utf8");

test("api.js: the guarded classes are bound in the order of their names", () => {
  const m = source.match(/export const \[([^\]]*)\] = "([^"]*)"\.split\(","\)\.map\(guardClass\);/);
  assert.ok(m, "api.js binds its guarded classes in the form this test reads");
  assert.deepEqual(m[1].split(",").map((s) => s.trim()), m[2].split(","));
});

test("api.js: the bound names and the string of names are one list, in alphabetical order", () => {
  const m = source.match(/export const \[([^\]]*)\] = \(([^)]*)\)\.split\(","\)\.map\(guard\);/);
  assert.ok(m, "api.js binds its guarded functions in the form this test reads");
  const bound = m[1].split(",").map((s) => s.trim()).filter(Boolean);
  const named = [...m[2].matchAll(/"([^"]*)"/g)].map((x) => x[1]).join("").split(",");
  assert.deepEqual(bound, named);
  assert.deepEqual(bound, [...bound].sort());
  assert.equal(new Set(bound).size, bound.length);
});

test("api.js: each guarded export calls the full module's function of its own name", async () => {
  const api = await import("paybridge");
  const modules = api.__modules;
  const m = source.match(/export const \[([^\]]*)\] = \(([^)]*)\)\.split\(","\)\.map\(guard\);/);
  const bound = m[1].split(",").map((s) => s.trim()).filter(Boolean);
  const real = modules.full.bg;
  try {
    const called = [];
    modules.full.bg = new Proxy(real, { get: (t, k) => (bound.includes(k) ? () => called.push(k) : t[k]) });
    for (const name of bound) api[name]();
    assert.deepEqual(called, bound);
  } finally {
    modules.full.bg = real;
  }
});
