// examples/wallet1-native: a native wallet1 mini-program. wallet1's
// compiler takes packages straight from node_modules, by plain file
// resolution and untranspiled, so there is no build step: the project as
// installed is the code package. It runs in the emulated wallet1 logic
// layer (tests/tools/miniprogram-runtime.mjs: no globalThis, WebAssembly,
// TextEncoder or document), every file parsed as ES5 first; the test taps
// Pay for each tradePay result code and reads the status the page shows.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { install } from "../tools/examples.mjs";
import { WALLET1_CODES, launch, tapHandler, until } from "../tools/miniprogram-runtime.mjs";

let dir;

before(() => {
  ({ dir } = install("wallet1-native"));
});

test("the page launches, loads the JavaScript build, and maps every tradePay result code", async () => {
  let next;
  const { page, api, requested, reached, errors } = await launch({ dir, kind: "wallet1", es5: true, answer: () => next });
  // Which module loaded: the JavaScript build beside the package's index.js.
  assert.deepEqual(requested, ["paybridge/miniprogram", "./paybridge.wasm.js"]);
  assert.ok(reached.includes(join("node_modules", "paybridge", "miniprogram", "paybridge.wasm.js")));
  const handler = tapHandler(readFileSync(join(dir, "pages/pay/pay.axml"), "utf8"), "pay");
  for (const [code, status] of WALLET1_CODES) {
    next = ["success", { resultCode: code }];
    page.setData({ status: "" });
    page[handler]({ type: "tap", target: { id: "pay" }, currentTarget: { id: "pay" } });
    assert.equal(await until(() => page.data.status, 20000, `the status for ${code}`), status, `resultCode ${code}`);
  }
  assert.equal(api.seen.length, WALLET1_CODES.length);
  assert.equal(api.seen[0].tradeNO, "T2026");
  assert.deepEqual(errors, []);
});
