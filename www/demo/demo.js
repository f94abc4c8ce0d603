// What the demo pages share: the package, the sandbox's addresses, the
// merchant API, and a Flow that shows a flow's planned action, its events
// as they happen and its result. A flow's record is kept in
// sessionStorage, so that it is still on screen when the browser comes
// back from an authorization page or a cashier.
import * as pb from "/pkg/index.js";

export { pb };

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

/** POST /merchant/payments: the merchant's server creates a payment object. */
export async function createPayment(order) {
  const res = await fetch("/merchant/payments", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(order),
  });
  return json(res, "the merchant refused the order");
}

/** GET /merchant/payments/{id}: `created` or `paid`, as the merchant's server knows it. */
export async function merchantStatus(id) {
  const res = await fetch(`/merchant/payments/${encodeURIComponent(id)}`);
  return (await json(res, "the merchant's status")).status;
}

/**
 * pay()'s `confirm` hook: asks the merchant whether the payment was paid.
 * Paid is `succeeded`; not paid keeps the wallet's cancel or failure, and
 * turns a wallet's "succeeded" into `pending` (the server has not seen it).
 */
export function confirmWith(flow) {
  return async (payment, result) => {
    const status = await merchantStatus(payment.id);
    flow.merchant(status);
    flow.step(`merchant: payment ${payment.id} is ${status}`);
    if (status === "paid") return "succeeded";
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

/** sessionStorage as JSON. */
export const keep = {
  get(key) {
    try {
      return JSON.parse(sessionStorage.getItem(`paybridge-demo:${key}`) ?? "null");
    } catch {
      return null;
    }
  },
  set(key, value) {
    sessionStorage.setItem(`paybridge-demo:${key}`, JSON.stringify(value));
  },
  drop(key) {
    sessionStorage.removeItem(`paybridge-demo:${key}`);
  },
};

function pretty(value) {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
}

function clock(ms) {
  const d = new Date(ms);
  const p = (n, w = 2) => String(n).padStart(w, "0");
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

const TONES = {
  succeeded: "ok",
  consistent: "ok",
  paid: "ok",
  pending: "info",
  redirected: "info",
  opened: "info",
  cancelled: "warn",
  inconsistent: "warn",
};

/** One line of what a pay() event says. */
function eventSummary(e) {
  const d = e.detail ?? {};
  switch (e.type) {
    case "planned":
      return `planned ${d.kind ?? d.action?.kind ?? ""}`.trim();
    case "waiting":
      return `waiting for ${d.bridge ?? "the bridge"} (${d.event ?? "ready event"})`;
    case "bridge_ready":
      return `${d.bridge ?? "bridge"} is there`;
    case "called":
      return `called ${d.method ?? ""}`.trim();
    case "callback":
      return d.provider ? `${d.provider} callback read` : "the wallet answered";
    case "callback_ignored":
      return "a second answer, ignored";
    case "navigating":
      return `going to ${d.url ?? ""}`;
    case "result":
      return `result: ${d.status ?? ""}`;
    case "timeout":
      return "the bridge did not come in time";
    default:
      return e.type;
  }
}

// ------------------------------------------------------------ Flow

/**
 * One flow on a page: its planned action, its log (page steps and pay()
 * events, with times) and its result, rendered into the `[data-role=plan]`,
 * `[data-role=log]` and `[data-role=result]` elements of `root`.
 */
export class Flow {
  constructor(key, root) {
    this.key = `flow:${location.pathname}:${key}`;
    this.root = root;
    this.state = keep.get(this.key) ?? Flow.empty();
    /** pay()'s onEvent, bound. */
    this.onEvent = (e) => this.event(e);
    this.render();
  }

  static empty() {
    return { entries: [], plan: null, result: null, merchant: null, payment: null };
  }

  save() {
    keep.set(this.key, this.state);
    this.render();
  }

  /** Starts over: forgets the record. */
  reset() {
    this.state = Flow.empty();
    this.save();
  }

  /** A step of the page itself (an order, an exchange...). */
  step(what, detail) {
    this.state.entries.push({ t: Date.now(), kind: "page", what, detail: detail === undefined ? undefined : pretty(detail) });
    this.save();
  }

  /** A pay() event, stamped with when it happened (`e.at` is performance.now()). */
  event(e) {
    this.state.entries.push({
      t: performance.timeOrigin + e.at,
      at: Math.round(e.at),
      kind: e.type,
      event: true,
      what: eventSummary(e),
      detail: e.detail === undefined ? undefined : pretty(e.detail),
    });
    this.save();
  }

  /** The action planAction gave (or the request about to be sent). */
  plan(action) {
    this.state.plan = pretty(action);
    this.save();
  }

  /** pay()'s PayResult. */
  result(r) {
    this.state.result = {
      status: r.status,
      fields: [
        ["channel", r.channel],
        ["verified", String(r.verified)],
        ["code", r.code],
        ["message", r.message],
      ],
    };
    this.save();
  }

  /** A verification outcome. */
  outcome(o, label = "") {
    this.state.result = {
      status: o.state,
      label,
      fields: [
        ["return_code", o.returnCode],
        ["return_message", o.returnMessage],
        ["resp_code", o.respCode],
        ["resp_info", o.respInfo],
        ["seq_id", o.seqId],
        ["order_id", o.orderId],
        ["score", o.score],
      ],
    };
    this.save();
  }

  /** A failure: a PayError shows its code (bridge_timeout, ...). */
  fail(e) {
    const code = e?.code ?? "error";
    this.state.entries.push({ t: Date.now(), kind: "error", what: `${code}: ${e?.message ?? e}`, error: true });
    this.state.result = { status: code, error: true, fields: [["message", e?.message ?? String(e)], ["field", e?.field]] };
    this.save();
  }

  /** The payment this flow is about (its merchant status is asked for on the way back). */
  payment(id) {
    this.state.payment = id;
    this.save();
  }

  /** The merchant's own status of the payment (`created` or `paid`). */
  merchant(status) {
    this.state.merchant = status;
    this.save();
  }

  render() {
    const plan = this.root.querySelector("[data-role=plan]");
    if (plan) {
      const empty = plan.dataset.empty ?? "Nothing planned yet.";
      plan.replaceChildren(this.state.plan ? el("pre", {}, this.state.plan) : el("p", { class: "empty" }, empty));
    }
    const log = this.root.querySelector("[data-role=log]");
    if (log) {
      const items = this.state.entries.map((x) => {
        const what = el("span", { class: "what" }, x.what);
        if (x.detail) what.append(el("details", {}, el("summary", {}, "detail"), el("pre", {}, x.detail)));
        const cls = x.error ? "error" : x.event ? "event" : "step";
        return el(
          "li",
          { class: cls, "data-kind": x.kind },
          el("time", { title: x.at != null ? `performance.now() = ${x.at} ms` : "" }, clock(x.t)),
          el("span", { class: "kind" }, x.event ? x.kind : x.error ? "error" : "page"),
          what,
        );
      });
      const list = el("ol", { class: "log" }, ...items);
      log.replaceChildren(items.length ? list : el("p", { class: "empty" }, "No events yet."));
    }
    const result = this.root.querySelector("[data-role=result]");
    if (result) {
      const r = this.state.result;
      const merchant = this.state.merchant;
      if (!r && !merchant) {
        result.replaceChildren(el("p", { class: "empty" }, "No result yet."));
        result.className = "result";
        result.removeAttribute("data-status");
        return;
      }
      const status = r?.status ?? "";
      const fields = (r?.fields ?? []).filter(([, v]) => v !== undefined && v !== null && v !== "");
      if (this.state.payment) fields.unshift(["payment", this.state.payment]);
      const dl = el("dl", {}, ...fields.flatMap(([k, v]) => [el("dt", {}, k), el("dd", { "data-field": k }, String(v))]));
      const pills = [];
      if (r) pills.push(el("span", { class: "status" }, status));
      if (merchant) pills.push(el("span", { class: "status merchant", "data-merchant": merchant }, `merchant: ${merchant}`));
      if (r?.label) pills.push(el("span", {}, r.label));
      result.replaceChildren(...pills, dl);
      // The merchant's word decides the colour once it is known.
      const tone = r?.error ? "bad" : merchant === "paid" ? "ok" : (TONES[status] ?? (r ? "bad" : "info"));
      result.className = `result tone-${tone}`;
      if (r) result.setAttribute("data-status", status);
      else result.removeAttribute("data-status");
    }
  }
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
