// A payment page for a mini-program, to copy into your own: it loads
// paybridge, asks your server for a payment, pays it through the
// mini-program's payment API, shows the result, and, when an app opened
// the mini-program (the wallet2 app flow), offers the button back to the
// app. Install paybridge with npm and run the developer tools' "Build npm"
// (../README.md); nothing else is copied or named.
//
// Settings: the names below are placeholders. Put the real global names of
// your runtime (the same names as profile.wallet1/wallet2.miniProgramGlobal)
// and your server's address.
const SETTINGS = {
  // The runtime's API object (tradePay / requestPayment, request, login):
  // its global name, or, where the page logic has no global object
  // (wallet1), the object itself as `api`.
  apiGlobal: "wallet2",
  api: null,
  // The runtime's WebAssembly object, where it has one under another name
  // than WebAssembly.
  webAssemblyGlobal: "Wallet2WebAssembly",
  // Your merchant server (the sandbox's merchant API has this shape).
  server: "https://shop.example.com",
  channel: "wallet2_lite",
};

const paybridge = require("paybridge");

// The runtime's global object, where its page logic may reach one: a
// wallet1 page logic has none (unless the project turns globalObjectMode
// on), so there give the API object itself as SETTINGS.api.
const root = typeof globalThis === "object" && globalThis ? globalThis : {};

const api = SETTINGS.api || root[SETTINGS.apiGlobal];

// Loaded once for the whole mini-program; pay() awaits it. The .wasm is
// where the npm build put it; where the runtime has no WebAssembly, the
// JavaScript build beside it is loaded instead.
const loaded = paybridge.ready({ WebAssembly: root[SETTINGS.webAssemblyGlobal] });

/** The runtime's request API as a promise: POST or GET JSON to your server. */
function call(method, path, data) {
  return new Promise((resolve, reject) => {
    api.request({
      url: SETTINGS.server + path,
      method,
      data,
      header: { "content-type": "application/json" },
      success: (res) => (res.statusCode === 200 ? resolve(res.data) : reject(new Error(`HTTP ${res.statusCode}`))),
      fail: (err) => reject(new Error(err.errMsg || "the request failed")),
    });
  });
}

Page({
  data: {
    ready: false,
    busy: false,
    result: null,
    error: "",
    log: "",
    // The return-to-app button's attributes; hidden unless an app opened us.
    back: null,
  },

  onLoad(options) {
    loaded.then(
      () => {
        const launch = paybridge.readLaunchOptions(options);
        this.launch = launch;
        this.setData({ ready: true, back: launch.fromApp ? paybridge.launchAppButton(launch.appParameter || "paid") : null });
      },
      (e) => this.setData({ error: `${e.code}: ${e.message}` }),
    );
  },

  async onPay() {
    if (this.data.busy) return;
    this.setData({ busy: true, result: null, error: "", log: "" });
    try {
      // The open_id comes from your login exchange (wallet2SessionRequest on your server).
      const payment = await call("POST", "/merchant/payments", {
        channel: SETTINGS.channel,
        open_id: getApp().globalData.openId,
        order: this.launch && this.launch.query.order,
      });
      const result = await paybridge.pay(payment, {
        api,
        onEvent: (e) => this.setData({ log: `${this.data.log}${Math.round(e.at)} ms  ${e.type}\n` }),
        // The wallet's answer is a hint; your server says whether it was
        // paid, whatever the wallet said (a payment the wallet called failed
        // may have reached it). Not paid yet: the wallet's cancel or failure
        // stands, and a wallet's success the server has not seen is pending.
        confirm: async (p, hint) => {
          const order = await call("GET", `/merchant/payments/${encodeURIComponent(p.id)}`);
          return order.status === "paid" ? "succeeded" : hint.status === "succeeded" ? "pending" : hint.status;
        },
      });
      this.setData({ result });
      if (this.data.back && result.status === "succeeded") {
        // Tell the app how it went when the user taps the button back.
        this.setData({ back: paybridge.launchAppButton(`status=${result.status}&payment=${encodeURIComponent(payment.id)}`) });
      }
    } catch (e) {
      this.setData({ error: e instanceof paybridge.PayError ? `${e.code}: ${e.message}` : String((e && e.message) || e) });
    } finally {
      this.setData({ busy: false });
    }
  },

  // The app could not be opened (not installed, or the scheme is wrong).
  onLaunchAppError(e) {
    this.setData({ error: `could not return to the app: ${(e.detail && e.detail.errMsg) || "unknown error"}` });
  },
});
