// What the demo pages share: the package, the sandbox's addresses, the
// merchant API and its session, the authorization states, and (from
// flow.js) the Flow that shows a flow's planned action, its events as they
// happen and its result under the merchant's status.
import * as pb from "/pkg/index.js";
import { Flow, keep, merchantStatus, orderWithKey, recoverAll, stillHere, el, clock, TIMING } from "/demo/flow.js";

export { pb, Flow, keep, merchantStatus, recoverAll, stillHere, clock, TIMING };

export const ORIGIN = location.origin;

/** Both modules: planAction and the authorization and verification helpers need them loaded. */
export const loaded = pb.ready();

/** The profile addresses of the sandbox's simulated providers. */
export const SANDBOX_PROFILE = {
  wallet1: { authUrl: `${ORIGIN}/sim/wallet1/authorize`, tokenUrl: `${ORIGIN}/sim/wallet1/token` },
  wallet2: {
    authorizeUrl: `${ORIGIN}/sim/wallet2/authorize`,
    oauthTokenUrl: `${ORIGIN}/sim/wallet2/oauth2/access_token`,
    sessionUrl: `${ORIGIN}/sim/wallet2/jscode2session`,
  },
  cardnet: { authUrl: `${ORIGIN}/sim/cardnet/authorize` },
};

/** Options of the authorization helpers against the sandbox (http://127.0.0.1). */
export const AUTH_OPTIONS = { profile: SANDBOX_PROFILE, insecureLoopback: true };

/**
 * The sandbox's app_token and secret (its defaults, or what the
 * verification page's credentials box keeps in localStorage when the
 * sandbox runs with SANDBOX_APP_TOKEN / SANDBOX_SECRET). Only a server may
 * hold a real secret.
 */
export function credentials() {
  const defaults = { appToken: "sandbox-app-token-0000000000000000000000", secret: "sandbox-secret" };
  try {
    const kept = JSON.parse(localStorage.getItem("paybridge-demo:credentials") ?? "{}");
    return { appToken: kept.appToken || defaults.appToken, secret: kept.secret || defaults.secret };
  } catch {
    return defaults;
  }
}

export function setCredentials({ appToken, secret }) {
  localStorage.setItem("paybridge-demo:credentials", JSON.stringify({ appToken, secret }));
}

/** Whether the verification page's credentials box holds saved values. */
function credentialsSaved() {
  try {
    const kept = JSON.parse(localStorage.getItem("paybridge-demo:credentials") ?? "{}");
    return Boolean(kept.appToken || kept.secret);
  } catch {
    return false;
  }
}

/**
 * A failed call made with the saved sandbox credentials (the wallet2 code
 * exchanges use the saved secret): thrown again, naming the box it came
 * from and offering to reset it (Flow.fail's `resetCredentials`).
 */
export function savedCredentials(e) {
  if (!credentialsSaved()) throw e;
  const message =
    `${e?.message ?? e} — this used the secret saved in the verification page's sandbox credentials box ` +
    "(localStorage paybridge-demo:credentials); if the sandbox runs with its default secret, reset it";
  throw Object.assign(new Error(message, { cause: e }), { code: e?.code ?? "exchange_failed", field: e?.field, resetCredentials: true });
}
/** The sandbox's wallet1 application id and wallet2 official-account appid. */
export const WALLET1_APP_ID = "sandbox-app";
export const WALLET2_APP_ID = "wallet2-sandbox-app";

// ------------------------------------------------------------ merchant API

async function json(res, what) {
  let body;
  try {
    body = await res.json();
  } catch {
    throw new Error(`${what}: HTTP ${res.status}, not JSON`);
  }
  if (!res.ok) throw new Error(`${what}: ${body.message ?? body.errmsg ?? `HTTP ${res.status}`}`);
  return body;
}

/**
 * POST /merchant/payments: the merchant's server creates a payment object.
 * The order and its idempotency key are kept in `flow`'s record before the
 * request goes out, so a reload finds the payment (Flow.recover).
 */
export async function createPayment(order, flow) {
  return orderWithKey(order, flow.orderKey(order));
}

/**
 * pay()'s `confirm` hook: asks the merchant whether the payment was paid.
 * Paid is `succeeded`, closed `failed`; not paid yet keeps the wallet's
 * cancel or failure, and turns a wallet's "succeeded" into `pending` (the
 * server has not seen it); the page then watches the payment (Flow.end).
 */
export function confirmWith(flow) {
  return async (payment, result) => {
    const status = await merchantStatus(payment.id);
    flow.merchant(status);
    flow.step(`merchant: payment ${payment.id} is ${status}`);
    if (status === "paid") return "succeeded";
    if (status === "closed") return "failed";
    return result.status === "succeeded" ? "pending" : result.status;
  };
}

/** The code exchanges a merchant's server makes, run here against the sandbox. */
export async function send(request) {
  const init = { method: request.method };
  if (request.method === "POST") {
    init.headers = { "content-type": "application/x-www-form-urlencoded" };
    init.body = request.body ?? new URLSearchParams(request.params).toString();
  }
  const res = await fetch(request.href ?? request.url, init);
  try {
    return await res.json();
  } catch {
    throw new Error(`${request.url}: HTTP ${res.status}, not JSON`);
  }
}

// ------------------------------------------------------------ merchant session

/**
 * The merchant's session: a cookie the sandbox's merchant server sets,
 * keeping the user an authorization gave for every tab of this browser
 * (`wallet1_user_id`, `wallet2_openid`). A real server learns the user
 * from its own code exchange; here the page made the exchange and tells it.
 */
export const session = {
  async get() {
    return json(await fetch("/merchant/session"), "the merchant's session");
  },
  async set(fields) {
    const res = await fetch("/merchant/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(fields),
    });
    return json(res, "the merchant's session");
  },
};

// ------------------------------------------------------------ authorization states

/**
 * Each authorization's state, used once. begin() keeps a fresh state for
 * the callback; take() gives the state to check a callback against (null
 * when this tab started none: the package refuses it) and marks it used,
 * so that a callback carrying a used state (Back to an old consent page
 * and Allow again, or the old callback) is `auth_used`, with nothing
 * exchanged or ordered again.
 */
export const authState = {
  begin(name) {
    const state = pb.newState();
    keep.set(`${name}:state`, state);
    return state;
  },
  take(name, href) {
    const given = new URL(href).searchParams.get("state");
    const used = keep.get("used-states") ?? [];
    if (given && used.includes(given)) {
      throw Object.assign(
        new Error(
          "this callback carries the state of an authorization this tab has already used (Back to an old consent page): " +
            "nothing is exchanged or ordered again; start over",
        ),
        { code: "auth_used", field: "state" },
      );
    }
    const expected = keep.get(`${name}:state`) ?? null;
    keep.drop(`${name}:state`);
    if (expected) keep.set("used-states", [...used.slice(-19), expected]);
    return expected;
  },
};

// ------------------------------------------------------------ small helpers

/** `document.querySelector`, failing loudly. */
export function $(selector, root = document) {
  const el = root.querySelector(selector);
  if (!el) throw new Error(`no element ${selector}`);
  return el;
}

/** This page's address without its query (the base of callbacks and return links). */
export function pageUrl(query) {
  const u = new URL(location.pathname, ORIGIN);
  for (const [k, v] of Object.entries(query ?? {})) if (v != null && v !== "") u.searchParams.set(k, v);
  return u.href;
}

/** Removes `names` from the address bar (a callback's single-use code, say). */
export function dropQuery(...names) {
  const u = new URL(location.href);
  for (const n of names) u.searchParams.delete(n);
  history.replaceState(null, "", u.pathname + u.search + u.hash);
}


/** Disables `button` while `fn` runs; a throw goes to `flow.fail`. */
export function action(button, flow, fn) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await loaded;
      await fn();
    } catch (e) {
      flow.fail(e);
    } finally {
      button.disabled = false;
    }
  });
}

/** The module failed to load: say so on the page. */
loaded.catch((e) => {
  const box = el("div", { class: "notice" }, `paybridge did not load: ${e?.message ?? e}. Did make pkg run?`);
  document.querySelector("main")?.prepend(box);
});

/**
 * The simulated bridge's mode radios in `root`: the current one is the
 * page's `?bridge_mode=` (the bridge script reads it when the page loads),
 * and choosing another reloads the page with it.
 */
export function bridgeModes(root) {
  const mode = new URLSearchParams(location.search).get("bridge_mode") ?? "succeed";
  for (const input of root.querySelectorAll("input[name=bridge_mode]")) {
    input.checked = input.value === mode;
    input.addEventListener("change", () => {
      location.href = pageUrl({ bridge_mode: input.value });
    });
  }
  return mode;
}
