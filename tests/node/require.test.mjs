// `require("paybridge")` in Node: the CommonJS entry (node.cjs), and the
// same module as `import("paybridge")` in the same process: one wasm
// instance, one PayError class, one payment at a time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

const payment = {
  pay_channel: "wallet2_lite",
  pay_info: { timeStamp: "1764196800", nonceStr: "n", package: "prepay_id=P1", signType: "HMAC-SHA256", paySign: "s" },
};

test("require gives a CommonJS module that is ready and plans", async () => {
  const pb = require("paybridge");
  assert.match(require.resolve("paybridge"), /node\.cjs$/);
  await pb.ready();
  assert.equal(pb.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }).kind, "wallet1_trade_pay");
  assert.throws(() => pb.planAction({ pay_channel: "nope" }), (e) => e instanceof pb.PayError && e.code === "unsupported_channel");
});

test("import and require share one module: the same exports, classes and loaded instance", async () => {
  const cjs = require("paybridge");
  const esm = await import("paybridge");
  const names = (m) => Object.keys(m).filter((k) => k !== "default" && k !== "module.exports").sort();
  assert.deepEqual(names(esm), names(cjs));
  for (const k of names(esm)) assert.equal(esm[k], cjs[k], k);
  assert.equal(esm.__modules.full.exports.memory, cjs.__modules.full.exports.memory);
});

test("a payment started through require makes one through import busy, and it pays", async () => {
  const cjs = require("paybridge");
  const esm = await import("paybridge");
  let answer;
  const api = { requestPayment: (o) => (answer = o) };
  const first = cjs.pay(payment, { api });
  await assert.rejects(esm.pay(payment, { api }), (e) => e instanceof cjs.PayError && e.code === "busy");
  while (!answer) await new Promise((r) => setTimeout(r, 1));
  answer.success({ errMsg: "requestPayment:ok" });
  const r = await first;
  assert.equal(r.status, "succeeded");
  assert.equal(r.channel, "wallet2_lite");
});
