// wallet1 takes packages straight from node_modules, untranspiled: this
// file and paybridge's are ES5.
var paybridge = require("paybridge/miniprogram");

// Loads the module at launch: wallet1's page logic has no WebAssembly, so
// the JavaScript build beside the package's index.js.
paybridge.ready();

// The order as the merchant's server answers it (here a fixed one).
function order() {
  return Promise.resolve({ pay_channel: "wallet1_lite", pay_info: { tradeNO: "T2026" } });
}

Page({
  data: { status: "" },
  onPay: function () {
    var page = this;
    return order()
      .then(function (payment) {
        return paybridge.pay(payment, { api: my });
      })
      .then(
        function (result) {
          page.setData({ status: result.status });
        },
        function (e) {
          page.setData({ status: "error " + e.code });
        }
      );
  },
});
