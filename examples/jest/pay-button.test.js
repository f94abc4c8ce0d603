/**
 * A component test in Jest 29's jsdom environment with miniprogram-simulate
 * (the wallet2 component test tool): the component's `require("paybridge")`
 * resolves, by the package's exports for Jest's jsdom conditions (browser,
 * require), to the mini-program folder's CommonJS module, as after "Build
 * npm". A tap pays through a stand-in of the mini-program's API, under the
 * profile's default name for its global, answering success, cancel or
 * failure.
 *
 * @jest-environment jsdom
 */
const path = require("path");
const simulate = require("miniprogram-simulate");

const payment = {
  id: "pay_5",
  pay_channel: "wallet2_lite",
  pay_info: { timeStamp: "1764196800", nonceStr: "5K8264ILTKCH16CQ", package: "prepay_id=wx26000000000005", signType: "HMAC-SHA256", paySign: "6c1f0a9e" },
};

/** The mini-program API's requestPayment, answering through `answer`. */
function installApi(answer) {
  const calls = [];
  globalThis.wallet2 = {
    requestPayment(options) {
      calls.push(options.package);
      setTimeout(() => answer(options), 0);
    },
  };
  return calls;
}

afterEach(() => {
  delete globalThis.wallet2;
});

// Loaded once: the simulator runs the component's file through the test's
// own module registry, which keeps it.
let id;
beforeAll(() => {
  id = simulate.load(path.join(__dirname, "components/pay-button/index"), { compiler: "simulate" });
});

function render() {
  const comp = simulate.render(id, { payment });
  comp.attach(document.createElement("parent-wrapper"));
  return comp;
}

async function tapAndWait(comp) {
  comp.querySelector("#pay").dispatchEvent("tap");
  for (let i = 0; i < 500 && ["", "paying"].includes(comp.data.status); i++) await simulate.sleep(10);
  return comp.data;
}

test.each([
  ["success", "succeeded", (o) => o.success({ errMsg: "requestPayment:ok" })],
  ["fail with cancel", "cancelled", (o) => o.fail({ errMsg: "requestPayment:fail cancel" })],
  ["fail", "failed", (o) => o.fail({ errMsg: "requestPayment:fail no money" })],
])("a tap pays; the wallet answers %s: the component shows %s", async (_, status, answer) => {
  const calls = installApi(answer);
  const comp = render();
  const data = await tapAndWait(comp);
  expect(calls).toEqual(["prepay_id=wx26000000000005"]);
  expect(data.status).toBe(status);
  expect(comp.querySelector("#status").dom.textContent).toBe(status);
});

test("the component's paybridge is the mini-program folder's CommonJS module", () => {
  expect(require.resolve("paybridge")).toMatch(/node_modules[\\/]paybridge[\\/]miniprogram[\\/]index\.js$/);
});
