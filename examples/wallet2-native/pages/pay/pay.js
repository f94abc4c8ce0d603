// After Build npm, require("paybridge") is miniprogram_npm/paybridge/index.js,
// with the .wasm.br and the JavaScript build beside it.
const { ready, pay } = require("paybridge");

// Loads the module at launch: the .wasm.br through the runtime's
// WebAssembly object, which the profile names once; the JavaScript build
// where the runtime has none.
ready({ profile: { wallet2: { webAssemblyGlobal: "WXWebAssembly" } } });

// The order as the merchant's server answers it (here a fixed one).
async function order() {
  return {
    pay_channel: "wallet2_lite",
    pay_info: { timeStamp: "1700000000", nonceStr: "n0nce", package: "prepay_id=wx1", signType: "RSA", paySign: "c2ln" },
  };
}

Page({
  data: { status: "" },
  async onPay() {
    try {
      const result = await pay(await order(), { api: wx });
      this.setData({ status: result.status });
    } catch (e) {
      this.setData({ status: `error ${e.code}` });
    }
  },
});
