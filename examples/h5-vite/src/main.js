// An H5 page (a mobile browser) paying a wallet1_wap payment: the merchant
// (here the sandbox's, behind the dev server's proxy) creates the payment
// object, pay() takes the browser to the wallet's web cashier, and the
// cashier's "Return to the merchant" link brings the browser back here
// with `?payment=<id>`, when the page asks the merchant whether it was paid.
// The wallet's word is a hint; the merchant's status is the answer.
import { pay, planAction, ready, PayError } from "paybridge";

// Where pay() may navigate. The sandbox's cashier is on 127.0.0.1 over
// http, which only `insecureLoopback` lets through: in production, your
// cashiers' https hosts (["*.wallet1.example"]) and no insecureLoopback.
const options = {
  allowedHosts: ["127.0.0.1"],
  insecureLoopback: true,
  appFallback: "web", // the web cashier, not the app's scheme
  onEvent: (e) => log(`${e.type} ${e.detail ? JSON.stringify(e.detail) : ""}`),
};

const button = document.querySelector("#pay");
const status = document.querySelector("#status");

function log(line) {
  console.info(line);
  document.querySelector("#log").textContent += `${line}\n`;
}

function show(word) {
  status.textContent = word;
  status.dataset.status = word;
}

/** The merchant's own status of payment `id`: "created" or "paid". */
async function merchantStatus(id) {
  const res = await fetch(`/merchant/payments/${encodeURIComponent(id)}`);
  if (!res.ok) throw new Error(`the merchant answered HTTP ${res.status}`);
  return (await res.json()).status;
}

button.addEventListener("click", async () => {
  button.disabled = true;
  try {
    const res = await fetch("/merchant/payments", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ channel: "wallet1_wap", return_url: location.origin + location.pathname }),
    });
    if (!res.ok) throw new Error(`the merchant answered HTTP ${res.status}`);
    const payment = await res.json();
    log(`plan ${JSON.stringify(planAction(payment, options))}`);
    const result = await pay(payment, options); // "redirected": the browser is going to the cashier
    log(`pay() ${result.status}`);
  } catch (e) {
    show(e instanceof PayError ? `error ${e.code}` : "error");
    log(String(e));
    button.disabled = false;
  }
});

// planAction is synchronous: ready() loads the module it needs first.
await ready();
const back = new URLSearchParams(location.search).get("payment");
if (back) {
  const word = await merchantStatus(back);
  show(word === "paid" ? "paid" : "not paid");
  log(`merchant ${back}: ${word}`);
}
button.disabled = false;
document.body.dataset.ready = "true";
