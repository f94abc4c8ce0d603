// examples/node-auth: the authentication client on a Node back end, from
// the packed tarball, against the sandbox's authentication API (the
// sandbox binary, started here on 127.0.0.1 and stopped).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { install } from "../tools/examples.mjs";
import { sandboxBinary, startSandbox, stopSandbox } from "../tools/sandbox.mjs";

let sandbox;
let dir;

before(
  async () => {
    const installed = install("node-auth");
    dir = installed.dir;
    console.log(`examples/node-auth install: ${JSON.stringify(installed.times)} ms`);
    sandbox = await startSandbox(sandboxBinary());
  },
  { timeout: 15 * 60_000 },
);

after(() => stopSandbox(sandbox?.child));

/** Runs `file` (in `cwd`) against the sandbox; its JSON lines by step. */
async function run(cwd, file) {
  const { stdout } = await promisify(execFile)(process.execPath, [file], {
    cwd,
    env: { ...process.env, SANDBOX_URL: sandbox.url },
  });
  return Object.fromEntries(stdout.trim().split("\n").map((l) => JSON.parse(l)).map((o) => [o.what, o]));
}

function assertAnswers(lines) {
  assert.deepEqual(Object.keys(lines), ["validate", "cardCheck", "nameCheck", "checkResult", "wrongKey"]);
  assert.deepEqual(lines.validate.problems.map((p) => [p.field, p.code]), [["acct_no", "luhn"]]);
  assert.equal(lines.cardCheck.state, "consistent");
  assert.equal(lines.cardCheck.respCode, "00");
  assert.equal(lines.nameCheck.state, "inconsistent");
  assert.equal(lines.nameCheck.respCode, "01");
  assert.equal(lines.checkResult.state, "consistent");
  assert.equal(lines.checkResult.orderId, lines.cardCheck.orderId);
  assert.equal(lines.wrongKey.state, "call_failed");
  assert.equal(lines.wrongKey.returnCode, "90102");
}

test("examples/node-auth: signed checks answered and verified, the result query, a wrong key refused", async () => {
  assertAnswers(await run(dir, "check.mjs"));
});

test("examples/node-auth bundled by esbuild: the one file runs alone, in a folder with nothing else", async () => {
  rmSync(join(dir, "dist"), { recursive: true, force: true });
  await promisify(execFile)("npm", ["run", "--silent", "bundle"], { cwd: dir });
  // A serverless function's folder: the bundle and nothing beside it (no
  // node_modules, no .wasm file).
  const alone = mkdtempSync(join(tmpdir(), "paybridge-node-bundle-"));
  try {
    copyFileSync(join(dir, "dist/check.mjs"), join(alone, "check.mjs"));
    assert.deepEqual(readdirSync(join(dir, "dist")), ["check.mjs"]);
    assert.equal(existsSync(join(alone, "node_modules")), false);
    assertAnswers(await run(alone, "check.mjs"));
  } finally {
    rmSync(alone, { recursive: true, force: true });
  }
});
