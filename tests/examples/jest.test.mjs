// examples/jest: Jest 29 with its default configuration, from the packed
// tarball: the node environment pays through `require("paybridge")` (the
// Node module) and through `require("paybridge/miniprogram")` after a plain
// ready() (a Taro or uni-app page's code), and a wallet2 component test
// (jsdom, miniprogram-simulate) pays through the mini-program module the
// component requires.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { install } from "../tools/examples.mjs";

test("examples/jest: jest passes every test of the three files", { timeout: 10 * 60_000 }, () => {
  const { dir, times } = install("jest");
  console.log(`examples/jest install: ${JSON.stringify(times)} ms`);
  const report = join(dir, "node_modules/.jest-report.json");
  rmSync(report, { force: true });
  try {
    execFileSync(process.execPath, ["node_modules/jest/bin/jest.js", "--ci", "--testTimeout=30000", "--json", `--outputFile=${report}`], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (e) {
    assert.fail(`jest failed:\n${e.stdout}${e.stderr}`);
  }
  const r = JSON.parse(readFileSync(report, "utf8"));
  const byFile = Object.fromEntries(r.testResults.map((f) => [f.name.slice(dir.length + 1), f.assertionResults.map((a) => a.status)]));
  assert.deepEqual(Object.keys(byFile).sort(), ["miniprogram-page.test.js", "pay-button.test.js", "pay.test.js"]);
  assert.equal(byFile["pay.test.js"].length, 11);
  assert.equal(byFile["miniprogram-page.test.js"].length, 5);
  assert.equal(byFile["pay-button.test.js"].length, 4);
  for (const [file, statuses] of Object.entries(byFile)) assert.ok(statuses.every((s) => s === "passed"), `${file}: ${statuses}`);
});
