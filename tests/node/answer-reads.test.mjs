// A wallet's answer is read member by member, as the mapping of that answer
// needs them: a member the mapping does not come to is not read at all (no
// getter of it runs). The answers are Proxies that record each read, fed to
// pay() through a mini-program API in Node (the full module).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as pb from "paybridge";

/** The answer `o`, recording each member read into `reads`. */
const recorded = (o, reads) =>
  new Proxy(o, {
    get(t, k, r) {
      if (typeof k === "string") reads.push(k);
      return Reflect.get(t, k, r);
    },
  });

const wallet1 = { pay_channel: "wallet1_lite", pay_info: { tradeNO: "T2024" } };
const wallet2 = { pay_channel: "wallet2_lite", pay_info: { timeStamp: "1", nonceStr: "n", package: "prepay_id=1", signType: "RSA", paySign: "s" } };
const every = { resultCode: "9000", err_msg: "x", errMsg: "y", error: 1, errorMessage: "m" };

async function payWith(payment, method, callback, answer) {
  const reads = [];
  const api = {
    [method](req) {
      setTimeout(() => {
        req[callback](recorded(answer, reads));
        req.complete?.(answer);
      }, 1);
    },
  };
  const r = await pb.pay(payment, { api });
  return { status: r.status, code: r.code, reads };
}

test("wallet1's success: only resultCode is read", async () => {
  assert.deepEqual(await payWith(wallet1, "tradePay", "success", every), { status: "succeeded", code: "9000", reads: ["resultCode"] });
});

test("wallet1's fail with a resultCode: only resultCode is read", async () => {
  const r = await payWith(wallet1, "tradePay", "fail", { resultCode: "6001", error: 1, errorMessage: "user cancel" });
  assert.deepEqual(r, { status: "cancelled", code: "6001", reads: ["resultCode"] });
});

test("wallet1's fail without one: resultCode, then error through the profile's table; errorMessage only for a code the table does not list", async () => {
  const r = await payWith(wallet1, "tradePay", "fail", { error: 6001, errorMessage: "user cancel" });
  assert.deepEqual(r, { status: "cancelled", code: "6001", reads: ["resultCode", "error"] });
  const unknown = await payWith(wallet1, "tradePay", "fail", { error: 6004, errorMessage: "m" });
  assert.deepEqual(unknown, { status: "pending", code: "6004", reads: ["resultCode", "error"] });
  const unlisted = await payWith(wallet1, "tradePay", "fail", { error: 11, errorMessage: "user cancel" });
  assert.deepEqual(unlisted, { status: "cancelled", code: "11", reads: ["resultCode", "error", "errorMessage"] });
});

test("wallet2's requestPayment success: only errMsg is read", async () => {
  const r = await payWith(wallet2, "requestPayment", "success", { ...every, errMsg: "requestPayment:ok" });
  assert.deepEqual(r, { status: "succeeded", code: "requestPayment:ok", reads: ["errMsg"] });
});
