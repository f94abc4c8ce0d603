// paybridge under Jest 29's default configuration (the node environment):
// `require("paybridge")` is the package's CommonJS Node module, loaded and
// ready. A mini-program payment is paid through a stand-in of the
// mini-program's API, answering each of wallet1's result codes.
const { ready, pay, planAction, PayError } = require("paybridge");

const payment = { id: "pay_1", pay_channel: "wallet1_lite", pay_info: { tradeNO: "2026112622001400003" } };

/** wallet1's tradePay, answering `resultCode` through `success`, as the runtime does. */
function wallet1Api(resultCode, calls = []) {
  return {
    tradePay(options) {
      calls.push(options.tradeNO);
      setTimeout(() => options.success({ resultCode }), 0);
    },
  };
}

test("the Node module is ready and plans", async () => {
  await ready();
  const cardnet = { id: "pay_7", pay_channel: "cardnet", expend: { pay_url: "https://pay.cardnet.example/h5?trade=T1007" } };
  expect(planAction(cardnet)).toMatchObject({ kind: "redirect", url: "https://pay.cardnet.example/h5?trade=T1007" });
});

test.each([
  ["9000", "succeeded"],
  ["8000", "pending"],
  ["6004", "pending"],
  ["6001", "cancelled"],
  ["99", "cancelled"],
  ["4000", "failed"],
  ["6002", "failed"],
  ["4", "failed"],
])("wallet1 answers %s: pay() resolves %s", async (code, status) => {
  const calls = [];
  const result = await pay(payment, { api: wallet1Api(code, calls) });
  expect(calls).toEqual(["2026112622001400003"]);
  expect(result).toMatchObject({ status, channel: "wallet1_lite", code, verified: false });
});

test("confirm: the merchant's answer is the result", async () => {
  const confirm = jest.fn(async () => "succeeded");
  const result = await pay(payment, { api: wallet1Api("8000"), confirm });
  expect(result).toMatchObject({ status: "succeeded", verified: true, code: "8000" });
  expect(confirm).toHaveBeenCalledTimes(1);
});

test("bad input is a PayError naming the field", async () => {
  const bad = { ...payment, pay_info: {} };
  await expect(pay(bad, { api: wallet1Api("9000") })).rejects.toMatchObject({ code: "invalid_payment", field: "pay_info.tradeNO" });
  await expect(pay(bad, { api: wallet1Api("9000") })).rejects.toBeInstanceOf(PayError);
});
