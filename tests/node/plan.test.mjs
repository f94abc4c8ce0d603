// The built package in Node 20: `import("paybridge")` through its exports
// map, the shared vectors, and the error class.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const pb = await import("paybridge");
const vectors = (f) => JSON.parse(readFileSync(new URL(`../vectors/${f}`, import.meta.url), "utf8"));

test("the node entry is ready at once", async () => {
  await pb.ready();
  assert.equal(typeof pb.planAction, "function");
  const manifest = JSON.parse(readFileSync(new URL("../../pkg/package.json", import.meta.url)));
  assert.equal(manifest.exports["."].node.default, "./node.mjs");
  assert.equal(manifest.exports["."].node.require.default, "./node.cjs");
  assert.equal(manifest.exports["."].default, "./index.js");
  assert.ok(manifest.exports["./miniprogram"]);
});

test("golden actions for every channel and option", () => {
  const cases = vectors("plan.json");
  assert.ok(cases.length >= 20);
  for (const c of cases) {
    assert.deepEqual(pb.planAction(c.payment, c.options), c.expect, c.name);
  }
});

test("the qrcode decodes back to pay_info byte for byte", () => {
  for (const c of vectors("plan.json").filter((c) => c.expect.kind === "open_url")) {
    const q = c.expect.url.slice(c.expect.url.indexOf("qrcode=") + 7);
    assert.equal(decodeURIComponent(q), c.payment.pay_info, c.name);
    assert.equal(new URL(c.expect.url).searchParams.get("qrcode"), c.payment.pay_info, c.name);
  }
});

test("hostile payments and options each give their PayError", () => {
  const cases = vectors("hostile.json");
  assert.ok(cases.length >= 100);
  for (const c of cases) {
    assert.throws(
      () => pb.planAction(c.payment, c.options),
      (e) => {
        assert.ok(e instanceof pb.PayError, `${c.name}: not a PayError: ${e}`);
        assert.ok(e instanceof Error);
        assert.equal(e.name, "PayError");
        assert.equal(e.code, c.code, `${c.name}: ${e.message}`);
        if (c.field) assert.equal(e.field, c.field, `${c.name}: ${e.message}`);
        assert.ok(e.message.length > 10);
        return true;
      },
      c.name,
    );
  }
});

test("values JSON cannot carry and hostile objects are refused, not trapped", () => {
  const cyclic = { pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } };
  cyclic.self = cyclic;
  const throwing = { pay_channel: "wallet1_pub", get pay_info() { throw new Error("boom"); } };
  const huge = { pay_channel: "wallet1", pay_info: "https://pay.example.com/", blob: "x".repeat(2 << 20) };
  const many = { pay_channel: "wallet1", pay_info: "https://pay.example.com/", list: new Array(50000).fill(1) };
  for (const [name, p] of [["cycle", cyclic], ["getter", throwing], ["huge", huge], ["many", many], ["bigint", { pay_channel: 1n }], ["symbol", Symbol("x")]]) {
    assert.throws(() => pb.planAction(p), (e) => e instanceof pb.PayError && e.code === "invalid_payment", name);
  }
  // The module still works afterwards.
  assert.equal(pb.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }).kind, "wallet1_trade_pay");
});

test("the error message names the field", () => {
  const w2 = { appId: "a", timeStamp: "1", nonceStr: "n", package: "p", signType: "RSA" };
  try {
    pb.planAction({ pay_channel: "wallet2_pub", pay_info: w2 });
    assert.fail("no error");
  } catch (e) {
    assert.equal(e.message, "pay_info.paySign is missing (wallet2_pub needs appId, timeStamp, nonceStr, package, signType, paySign)");
    assert.equal(e.field, "pay_info.paySign");
  }
});

test("defaultProfile holds every provider name and merges deeply", () => {
  const p = pb.defaultProfile();
  assert.equal(p.wallet1.scheme, "wallet1");
  for (const k of ["bridge", "readyEvent", "uaToken", "resultCodes"]) assert.ok(p.wallet1[k], k);
  for (const k of ["bridge", "readyEvent", "payMethod", "uaToken", "authorizeUrl", "redirectFragment"]) assert.ok(p.wallet2[k], k);
  assert.ok(p.cardnet.authUrl);
  assert.deepEqual(p.channelAliases, {});
  assert.equal(p.wallet1.resultCodes["9000"], "succeeded");
  const a = pb.planAction(
    { pay_channel: "wallet1", pay_info: "https://pay.example.com/x" },
    { profile: { wallet1: { scheme: "otherwallet" } } },
  );
  assert.ok(a.url.startsWith("otherwallet://platformapi/startapp?saId=10000007&qrcode="));
});

test("detectRuntime reads user agents and mini-program globals", () => {
  const p = pb.defaultProfile();
  assert.deepEqual(pb.detectRuntime({ userAgent: `Mozilla/5.0 (iPhone) Mobile ${p.wallet2.uaToken}/8.0`, globals: { document: {} } }), { host: "wallet2", mobile: true });
  assert.deepEqual(pb.detectRuntime({ userAgent: `Mozilla/5.0 (Linux; Android 14) ${p.wallet1.uaToken}/10`, globals: { document: {} } }), { host: "wallet1", mobile: true });
  assert.deepEqual(pb.detectRuntime({ userAgent: "", globals: { [p.wallet1.miniProgramGlobal]: { tradePay() {} } } }), { host: "wallet1_mini_program", mobile: true });
  assert.deepEqual(pb.detectRuntime({ userAgent: "", globals: { [p.wallet2.miniProgramGlobal]: {} } }), { host: "wallet2_mini_program", mobile: true });
  assert.deepEqual(pb.detectRuntime({ userAgent: "Mozilla/5.0 (X11; Linux x86_64)", globals: { document: {} } }), { host: "browser", mobile: false });
  assert.throws(() => pb.detectRuntime({ userAgent: 5 }), (e) => e.code === "invalid_options" && e.field === "userAgent");
});

test("pay in Node without a wallet reports wrong_runtime, never hangs", async () => {
  await assert.rejects(pb.pay({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }), (e) => e instanceof pb.PayError && e.code === "wrong_runtime");
  await assert.rejects(pb.pay({ pay_channel: "wallet2_lite", pay_info: { timeStamp: "1", nonceStr: "n", package: "p", signType: "RSA", paySign: "s" } }), (e) => e.code === "wrong_runtime" && e.field === "api");
  // Node is no mini-program: the planner's and the call's own words, not the
  // mini-program module's "found no mini-program API".
  await assert.rejects(pb.pay({ pay_channel: "wallet1_lite", pay_info: { tradeNO: "T" } }), (e) => e.field === "miniProgram" && /options\.miniProgram/.test(e.message));
  await assert.rejects(pb.pay({ pay_channel: "wallet2_lite", pay_info: { timeStamp: "1", nonceStr: "n", package: "p", signType: "RSA", paySign: "s" } }), (e) => !/found no mini-program API/.test(e.message));
  await assert.rejects(pb.pay({ pay_channel: "nope" }), (e) => e.code === "unsupported_channel");
});

test("10,000 plans keep wasm memory flat", () => {
  const p = { pay_channel: "wallet2_pub", pay_info: { appId: "a", timeStamp: "1", nonceStr: "n", package: "p", signType: "RSA", paySign: "s" } };
  for (let i = 0; i < 1000; i++) pb.planAction(p);
  const mem = () => pb.__wasmMemoryBytes();
  const before = mem();
  for (let i = 0; i < 10000; i++) pb.planAction(p);
  for (let i = 0; i < 1000; i++) assert.throws(() => pb.planAction({ pay_channel: "wallet1", pay_info: "javascript:x" }));
  assert.equal(mem(), before);
});
