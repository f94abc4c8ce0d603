// examples/wallet2-native: a native wallet2 mini-program, installed with
// npm and built with the developer tools' "Build npm" (miniprogram-ci's
// packNpm, pinned in the example), which copies the package's
// "miniprogram" folder to miniprogram_npm/paybridge/. It runs in the
// emulated wallet2 logic layer (tests/tools/miniprogram-runtime.mjs: its
// own WebAssembly object, no standard one, no document or TextEncoder);
// the test taps Pay for each requestPayment answer and reads the status
// the page shows, once with the runtime's WebAssembly (the .wasm.br loads
// through it) and once on a runtime without one (the JavaScript build).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { install } from "../tools/examples.mjs";
import { WALLET2_ANSWERS, launch, tapHandler, until } from "../tools/miniprogram-runtime.mjs";

let dir;

before(() => {
  ({ dir } = install("wallet2-native", { tools: "tools" }));
  rmSync(join(dir, "miniprogram_npm"), { recursive: true, force: true });
  execFileSync(process.execPath, ["tools/build-npm.mjs"], { cwd: dir, stdio: ["ignore", "inherit", "inherit"] });
});

async function paysEveryAnswer(run) {
  const { page, api, errors } = run;
  const handler = tapHandler(readFileSync(join(dir, "pages/pay/pay.wxml"), "utf8"), "pay");
  for (const [, , status] of WALLET2_ANSWERS) {
    page.setData({ status: "" });
    page[handler]({ type: "tap", target: { id: "pay" }, currentTarget: { id: "pay" } });
    assert.equal(await until(() => page.data.status, 20000, `the status ${status}`), status);
  }
  assert.equal(api.seen.length, WALLET2_ANSWERS.length);
  assert.equal(api.seen[0].paySign, "c2ln");
  assert.deepEqual(errors, []);
}

const answers = () => {
  let i = 0;
  return () => WALLET2_ANSWERS[i++ % WALLET2_ANSWERS.length];
};

test("Build npm copies the package's mini-program folder whole", () => {
  assert.deepEqual(readdirSync(join(dir, "miniprogram_npm", "paybridge")).sort(), ["index.js", "package.json", "paybridge.wasm.js", "paybridge_mini_bg.wasm.br"]);
});

test("with the runtime's WebAssembly, named once by ready({ profile }): the .wasm.br is instantiated, the JavaScript build never loaded; every answer maps", async () => {
  const run = await launch({ dir, kind: "wallet2", npmDir: "miniprogram_npm", answer: answers() });
  await until(() => run.wasm.paths.length, 20000, "the .wasm.br");
  assert.deepEqual(run.wasm.paths, ["/miniprogram_npm/paybridge/paybridge_mini_bg.wasm.br"]);
  await paysEveryAnswer(run);
  assert.deepEqual(run.requested, ["paybridge"], "nothing but the package's index.js is required");
});

test("on a runtime with no WebAssembly: the JavaScript build beside index.js; every answer maps", async () => {
  const run = await launch({ dir, kind: "wallet2", npmDir: "miniprogram_npm", webAssembly: false, answer: answers() });
  await paysEveryAnswer(run);
  assert.deepEqual(run.requested, ["paybridge", "./paybridge.wasm.js"]);
});
