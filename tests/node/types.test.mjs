// The package's TypeScript types: a correct usage file type-checks with
// `tsc --noEmit --strict`, and every marked line of a wrong one is rejected.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("../types/", import.meta.url));
const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
// No @types package is included by itself (--typeRoots names a folder that
// does not exist): the usage files see the package's types and the DOM's,
// not whatever a test tool brought into tests/node_modules/@types.
const base = ["--noEmit", "--strict", "--target", "ES2022", "--lib", "ES2022,DOM", "--module", "NodeNext", "--moduleResolution", "NodeNext", "--typeRoots", "./no-type-roots"];

function check(file) {
  try {
    execFileSync(process.execPath, [tsc, ...base, file], { cwd: dir, encoding: "utf8" });
    return "";
  } catch (e) {
    return e.stdout;
  }
}

test("a correct usage type-checks", () => {
  assert.equal(check("usage.ts"), "");
});

test("every wrong usage is rejected, on its own line", () => {
  const out = check("wrong.ts");
  const lines = readFileSync(new URL("../types/wrong.ts", import.meta.url), "utf8").split("\n");
  const marked = lines.map((l, i) => (l.includes("// WRONG") ? i + 1 : 0)).filter(Boolean);
  assert.ok(marked.length >= 6);
  for (const n of marked) assert.match(out, new RegExp(`wrong\\.ts\\(${n},`), `line ${n} was accepted: ${lines[n - 1]}`);
});
