// paybridge sandbox: a simulated wallet JS bridge, served by /sim/bridge.js.
// The page's own address may override the script's settings:
// ?bridge_mode=succeed|cancel|fail|late|never|silent&bridge_delay_ms=N&bridge_code=X
(function () {
  "use strict";
  var cfg = /*CONFIG*/;
  var here = new URLSearchParams(location.search);
  var mode = here.get("bridge_mode") || cfg.mode;
  var delayMs = Number(here.get("bridge_delay_ms") || cfg.delayMs);
  var code = here.get("bridge_code") || cfg.code;
  var script = document.currentScript;
  var origin = script && script.src ? new URL(script.src).origin : location.origin;
  var tag = "[sandbox " + cfg.bridge + "]";
  if (cfg.modes.indexOf(mode) < 0) {
    console.warn(tag, "unknown mode " + mode + "; using succeed");
    mode = "succeed";
  }
  if (!(delayMs >= 0)) delayMs = cfg.delayMs;

  // Answers the page's callback the way the wallet does: later, once.
  function reply(cb, value, memo) {
    var r = cfg.wallet === "wallet1" ? { resultCode: value } : { err_msg: value };
    if (memo) r[cfg.wallet === "wallet1" ? "memo" : "err_desc"] = memo;
    console.info(tag, "answers", r);
    setTimeout(function () {
      if (typeof cb === "function") cb(r);
    }, 0);
  }

  // Pays `ref` on the sandbox when the mode succeeds, then answers.
  function pay(ref, params, cb) {
    // silent: the wallet takes the call and never answers.
    if (mode === "silent") return console.info(tag, "will never answer");
    var outcome = mode === "cancel" || mode === "fail" ? mode : "succeed";
    var value = code || cfg.results[outcome];
    if (outcome !== "succeed") return reply(cb, value);
    fetch(origin + "/sim/pay/" + encodeURIComponent(ref), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ wallet: cfg.wallet, params: params }),
    })
      .then(function (res) {
        return res.json().then(function (body) {
          if (res.ok) reply(cb, value);
          else reply(cb, cfg.results.fail, body.message || "HTTP " + res.status);
        });
      })
      .catch(function (e) {
        reply(cb, cfg.results.fail, "the sandbox did not answer: " + e);
      });
  }

  var bridge = {};
  if (cfg.wallet === "wallet1") {
    bridge.call = function (name, params, cb) {
      console.info(tag, "call", name, params);
      if (name !== cfg.method) return reply(cb, cfg.results.fail, "unknown call " + name);
      var trade = params && params.tradeNO;
      if (typeof trade !== "string" || !trade) {
        return reply(cb, cfg.results.fail, "tradeNO is missing");
      }
      pay(trade, params, cb);
    };
  } else {
    bridge.invoke = function (name, params, cb) {
      console.info(tag, "invoke", name, params);
      if (name !== cfg.method) return reply(cb, name + ":fail", "unknown call " + name);
      var m = params && typeof params.package === "string" && /^prepay_id=(.+)$/.exec(params.package);
      if (!m) return reply(cb, cfg.results.fail, "package must be prepay_id=...");
      pay(m[1], params, cb);
    };
  }

  function arrive() {
    window[cfg.bridge] = bridge;
    console.info(tag, "ready (mode " + mode + ")");
    document.dispatchEvent(new Event(cfg.readyEvent));
  }
  if (mode === "never") console.info(tag, "will never arrive");
  else if (mode === "late") {
    // Late counts from the payment: the bridge arrives delayMs after the
    // page first listens for its ready event (pay() listens, then looks),
    // however long the page was open before.
    var listen = document.addEventListener;
    var waiting = false;
    document.addEventListener = function (type) {
      if (type === cfg.readyEvent && !waiting) {
        waiting = true;
        console.info(tag, "the page waits: arriving in " + delayMs + " ms");
        setTimeout(arrive, delayMs);
      }
      return listen.apply(this, arguments);
    };
  } else arrive();
})();
