// paybridge sandbox: a simulated mini-program API, served by
// /sim/miniprogram.js, so that a browser page can stand in for a
// mini-program page. The page's own address may override the script's
// settings: ?mp_mode=succeed|cancel|fail|silent&mp_code=X
(function () {
  "use strict";
  var cfg = /*CONFIG*/;
  var here = new URLSearchParams(location.search);
  var mode = here.get("mp_mode") || cfg.mode;
  var code = here.get("mp_code") || cfg.code;
  var script = document.currentScript;
  var origin = script && script.src ? new URL(script.src).origin : location.origin;
  var tag = "[sandbox " + cfg.global + "]";
  if (["succeed", "cancel", "fail", "silent"].indexOf(mode) < 0) {
    console.warn(tag, "unknown mode " + mode + "; using succeed");
    mode = "succeed";
  }

  function later(fn, arg) {
    setTimeout(function () {
      if (typeof fn === "function") fn(arg);
    }, 0);
  }

  // Settles a mini-program call: success or fail, then complete.
  function settle(opts, ok, res) {
    console.info(tag, ok ? "success" : "fail", res);
    later(ok ? opts.success : opts.fail, res);
    later(opts.complete, res);
  }

  function post(path) {
    return fetch(origin + path, { method: "POST" }).then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) throw new Error(body.message || "HTTP " + r.status);
        return body;
      });
    });
  }

  // Pays `ref` on the sandbox with the page's params, as the bridges do.
  function pay(ref, params) {
    return fetch(origin + "/sim/pay/" + encodeURIComponent(ref), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ wallet: cfg.wallet, params: params }),
    }).then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) throw new Error(body.message || "HTTP " + r.status);
      });
    });
  }

  // The fields of `opts` that are data, not callbacks.
  function data(opts) {
    var out = {};
    for (var k in opts) if (typeof opts[k] !== "function") out[k] = opts[k];
    return out;
  }

  var api = {};
  if (cfg.wallet === "wallet1") {
    // tradePay answers through success with a resultCode, whatever it is.
    api.tradePay = function (opts) {
      opts = opts || {};
      console.info(tag, "tradePay", data(opts));
      var value = code || cfg.results[mode];
      if (typeof opts.tradeNO !== "string" || !opts.tradeNO) {
        return settle(opts, false, { error: 2, errorMessage: "tradeNO is missing" });
      }
      // silent: the wallet takes the call and never answers.
      if (mode === "silent") return console.info(tag, "will never answer");
      if (mode !== "succeed") return settle(opts, true, { resultCode: value });
      pay(opts.tradeNO, { tradeNO: opts.tradeNO }).then(
        function () { settle(opts, true, { resultCode: value }); },
        function (e) { settle(opts, true, { resultCode: cfg.results.fail, memo: String(e.message || e) }); }
      );
    };
    api.getAuthCode = function (opts) {
      opts = opts || {};
      var scopes = [].concat(opts.scopes || "auth_base").join(",");
      post("/sim/wallet1/auth_code?app_id=" + encodeURIComponent(cfg.appId) + "&scopes=" + encodeURIComponent(scopes)).then(
        function (b) { settle(opts, true, { authCode: b.authCode }); },
        function (e) { settle(opts, false, { error: 11, errorMessage: String(e.message || e) }); }
      );
    };
  } else {
    // requestPayment: success with requestPayment:ok, else fail.
    api.requestPayment = function (opts) {
      opts = opts || {};
      var params = data(opts);
      console.info(tag, "requestPayment", params);
      var m = typeof params.package === "string" && /^prepay_id=(.+)$/.exec(params.package);
      if (!m) return settle(opts, false, { errMsg: "requestPayment:fail package must be prepay_id=..." });
      if (mode === "silent") return console.info(tag, "will never answer");
      if (mode === "cancel") return settle(opts, false, { errMsg: code || cfg.results.cancel });
      if (mode === "fail") return settle(opts, false, { errMsg: code || cfg.results.fail });
      pay(m[1], params).then(
        function () { settle(opts, true, { errMsg: code || cfg.results.succeed }); },
        function (e) { settle(opts, false, { errMsg: cfg.results.fail + " " + (e.message || e) }); }
      );
    };
    api.login = function (opts) {
      opts = opts || {};
      post("/sim/wallet2/login?appid=" + encodeURIComponent(cfg.appId)).then(
        function (b) { settle(opts, true, { code: b.code, errMsg: "login:ok" }); },
        function (e) { settle(opts, false, { errMsg: "login:fail " + (e.message || e) }); }
      );
    };
  }
  globalThis[cfg.global] = api;
  console.info(tag, "ready (mode " + mode + ")");
})();
