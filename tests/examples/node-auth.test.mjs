// examples/node-auth: the authentication client on a Node back end, from
// the packed tarball, against the sandbox's authentication API (the
// sandbox binary, started here on 127.0.0.1 and stopped).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
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

test("examples/node-auth: signed checks answered and verified, the result query, a wrong key refused", async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ["check.mjs"], {
    cwd: dir,
    env: { ...process.env, SANDBOX_URL: sandbox.url },
  });
  const lines = Object.fromEntries(stdout.trim().split("\n").map((l) => JSON.parse(l)).map((o) => [o.what, o]));
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
});
