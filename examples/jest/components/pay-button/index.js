// A wallet2 mini-program component: a button that pays the payment object
// it is given. `require("paybridge")` is the package's mini-program module
// (after the developer tools' "Build npm", and under Jest's jsdom
// environment alike); pay() loads it on first use and finds the
// mini-program's API by the profile's name for it.
const { pay } = require("paybridge");

Component({
  properties: {
    payment: { type: Object, value: null },
  },
  data: { status: "", code: "" },
  methods: {
    onPay() {
      this.setData({ status: "paying", code: "" });
      return pay(this.data.payment).then(
        (result) => this.setData({ status: result.status, code: result.code || "" }),
        (e) => this.setData({ status: "error", code: e.code || String(e) }),
      );
    },
  },
});
