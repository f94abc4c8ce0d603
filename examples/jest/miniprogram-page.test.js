// A mini-program page's code (a Taro or uni-app page imports
// `paybridge/miniprogram`) under Jest 29's default node environment: Node's
// conditions give the mini-program module's Node build, where a plain
// ready(), as the page calls it, runs the JavaScript build. A stand-in of
// wallet2's requestPayment answers.
const { ready, pay, PayError } = require("paybridge/miniprogram");

const payment = {
  id: "pay_2",
  pay_channel: "wallet2_lite",
  pay_info: { timeStamp: "1700000000", nonceStr: "n0nce", package: "prepay_id=wx1", signType: "RSA", paySign: "c2ln" },
};

/** wallet2's requestPayment, calling `callback` with `res`, as the runtime does. */
function wallet2Api(callback, res, calls = []) {
  return {
    requestPayment(options) {
      calls.push(options.package);
      setTimeout(() => options[callback](res), 0);
    },
  };
}

test("a plain ready(), as the page calls it, loads the module", async () => {
  await expect(ready()).resolves.toBeUndefined();
});

test.each([
  ["success", { errMsg: "requestPayment:ok" }, "succeeded"],
  ["fail", { errMsg: "requestPayment:fail cancel" }, "cancelled"],
  ["fail", { errMsg: "requestPayment:fail system error" }, "failed"],
])("requestPayment's %s with %j: pay() resolves %s", async (callback, res, status) => {
  const calls = [];
  const result = await pay(payment, { api: wallet2Api(callback, res, calls) });
  expect(calls).toEqual(["prepay_id=wx1"]);
  expect(result).toMatchObject({ status, channel: "wallet2_lite", code: res.errMsg, verified: false });
});

test("no api: a PayError that says to pass it", async () => {
  const refused = pay(payment);
  await expect(refused).rejects.toBeInstanceOf(PayError);
  await expect(refused).rejects.toMatchObject({ code: "wrong_runtime", message: expect.stringContaining("pay(payment, { api })") });
});
