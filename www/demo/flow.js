// A flow's record and how it is shown: its planned action, its log (the
// page's steps and pay()'s events, with times), and its result, headed by
// the merchant's own status of the payment. The record is kept in the
// tab's sessionStorage, so it outlives a reload, an authorization page or
// a cashier. Every page load (and pageshow from the Back cache, and the
// page visible again after a wallet app) starts watchPayment again for
// every payment the page holds whose merchant word is not final
// (recoverAll): the page says "not paid yet" and keeps asking, backing
// off, until the merchant says paid or closed, so a payment that lands
// late is shown paid with no reload, and "nothing was charged" is said
// only of a payment the merchant closed.
import * as pb from "/pkg/index.js";

/** The merchant's final words: paid, or closed unpaid (nothing was charged). */
const FINAL = new Set(["paid", "closed"]);

/**
 * Timings the demo sets (shorter than the package's defaults), each
 * overridable by the page's query (`?watch_ms=`, `?watch_max_ms=`,
 * `?callback_ms=`), kept for the tab: a test shortens them once and they
 * hold across cashiers and reloads.
 */
export const TIMING = (() => {
  const q = new URLSearchParams(location.search);
  const t = { watch_ms: 2000, watch_max_ms: 10000, callback_ms: 8000 };
  for (const k of Object.keys(t)) {
    const given = Number(q.get(k) ?? sessionStorage.getItem(`paybridge-demo:${k}`));
    if (given > 0) {
      t[k] = given;
      sessionStorage.setItem(`paybridge-demo:${k}`, String(given));
    }
  }
  return t;
})();

/** GET /merchant/payments/{id}: `created`, `paid` or `closed`, as the merchant's server knows it. */
export async function merchantStatus(id) {
  const res = await fetch(`/merchant/payments/${encodeURIComponent(id)}`);
  let body;
  try {
    body = await res.json();
  } catch {
    throw new Error(`the merchant's status: HTTP ${res.status}, not JSON`);
  }
  if (!res.ok) throw new Error(`the merchant's status: ${body.message ?? `HTTP ${res.status}`}`);
  return body.status;
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

export function pretty(value) {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
}

/** 24-hour local time with milliseconds: every time the pages show. */
export function clock(ms) {
  const d = new Date(ms);
  const p = (n, w = 2) => String(n).padStart(w, "0");
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

const TONES = {
  succeeded: "ok",
  consistent: "ok",
  pending: "info",
  redirected: "info",
  opened: "info",
  cancelled: "warn",
  inconsistent: "warn",
};

/** The headline's tone and words for each merchant-side state. */
const HEADLINES = {
  paid: { tone: "ok", words: "Paid" },
  not_paid: { tone: "warn", words: "Not paid yet" },
  closed: { tone: "warn", words: "Closed" },
  open: { tone: "info", words: "Still open" },
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

/** Every Flow of the page, for recoverAll. */
const ALL = new Set();

/** True from pagehide until the page is shown again (from the Back cache). */
let leaving = false;
addEventListener("pagehide", () => {
  leaving = true;
});
addEventListener("pageshow", () => {
  if (!leaving) return;
  leaving = false;
  for (const f of ALL) f.save();
});

/**
 * One flow on a page, rendered into the `[data-role=plan]`,
 * `[data-role=log]` and `[data-role=result]` elements of `root`.
 *
 * `state.active` is what the flow is doing right now (`{ what, away }`):
 * set by begin() and away(), cleared by end(). Only the page instance
 * that set it can be doing it; a record loaded with one still set was
 * interrupted (a reload, Back, another page), and recover() ends it.
 */
export class Flow {
  /** `options.startOver`: what the result box's "Start over" link does (default: forget the record, reload the page). */
  constructor(key, root, options = {}) {
    this.key = `flow:${location.pathname}:${key}`;
    this.root = root;
    this.options = options;
    this.state = { ...Flow.empty(), ...(keep.get(this.key) ?? {}) };
    /** The activity this page instance started (not one left by an earlier page). */
    this.live = null;
    /** The watch of the payment going on: `{ id, controller }`. */
    this.watching = null;
    this.onEvent = (e) => this.event(e);
    ALL.add(this);
    this.render();
  }

  static empty() {
    return { entries: [], plan: null, result: null, merchant: null, payment: null, active: null, orderKey: null, order: null };
  }

  save() {
    // A page being left (reload, Back, a navigation) keeps the record as it
    // stood: what its dying scripts see then (fetches aborted by the
    // unload) is not the flow's outcome; the next page recovers it.
    if (!leaving) keep.set(this.key, this.state);
    this.render();
  }

  /** Starts over: forgets the record, and stops watching its payment. */
  reset() {
    this.unwatch();
    this.state = Flow.empty();
    this.live = null;
    this.save();
  }

  /**
   * The idempotency key of this flow's order, kept with the order in the
   * record before the request goes out: a page reloaded while the answer
   * was on its way sends the same order with the same key, and the merchant
   * answers the payment it created (recover()).
   */
  orderKey(order) {
    this.state.orderKey ??= pb.newState();
    this.state.order = order;
    this.save();
    return this.state.orderKey;
  }

  /** The flow is doing `what` now (shown as "still open" until end()). */
  begin(what) {
    this.live = { what, away: false, at: Date.now() };
    this.state.active = this.live;
    this.save();
  }

  /** The page is leaving for `where` (a cashier, an app, an authorization page). */
  away(where) {
    this.live = null;
    this.state.active = { what: `gone to ${where}`, away: true, at: Date.now() };
    this.save();
  }

  /**
   * What begin() started is over. A payment whose merchant word is not
   * final is watched from here on: the wallet's answer was a hint.
   */
  end() {
    this.live = null;
    if (this.state.active && !this.state.active.away) this.state.active = null;
    this.save();
    if (this.state.payment && !FINAL.has(this.state.merchant)) queueMicrotask(() => this.watch("the wallet's answer is a hint"));
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
    this.state.result = { pay: true, status: r.status, channel: r.channel, verified: r.verified, code: r.code, message: r.message };
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

  /**
   * A failure: a PayError shows its code (bridge_timeout, ...), with the
   * Start over link unless `startOver` is false. A payment on record is
   * then watched (its status is the headline), unless `ask` is false.
   */
  fail(e, { startOver = true, ask = true } = {}) {
    const code = e?.code ?? "error";
    this.live = null;
    if (this.state.active && !this.state.active.away) this.state.active = null;
    this.state.entries.push({ t: Date.now(), kind: "error", what: `${code}: ${e?.message ?? e}`, error: true });
    this.state.result = {
      status: code,
      error: true,
      startOver,
      resetCredentials: Boolean(e?.resetCredentials),
      fields: [["message", e?.message ?? String(e)], ["field", e?.field]],
    };
    this.save();
    if (ask && this.state.payment && !FINAL.has(this.state.merchant)) queueMicrotask(() => this.recover("after the error"));
  }

  /** The payment this flow is about (its merchant status is asked for on the way back). */
  payment(id) {
    this.state.payment = id;
    this.save();
  }

  /** The merchant's own status of the payment (`created`, `paid` or `closed`). */
  merchant(status) {
    this.state.merchant = status;
    this.save();
  }

  /**
   * Ends an activity left by an earlier page (or one that left and came
   * back), finds the payment of an order whose answer a reload lost (its
   * idempotency key), and watches a payment whose merchant word is not
   * final; `why` says what brought the page back. Does nothing for a flow
   * this page is running, or one with nothing to ask.
   */
  async recover(why) {
    const left = this.state.active && this.state.active !== this.live ? this.state.active : null;
    if (!left && (!this.state.payment || FINAL.has(this.state.merchant) || this.live)) return;
    if (left) {
      this.state.active = null;
      this.step(`${why} while the flow was ${left.away ? left.what : `${left.what}: that ended with the earlier page`}`);
    }
    const record = this.state;
    if (!this.state.payment && this.state.orderKey && this.state.order) {
      try {
        const payment = await orderWithKey(this.state.order, this.state.orderKey);
        if (this.state !== record || this.live) return;
        this.payment(payment.id);
        this.step(`merchant: payment ${payment.id}, the one it created for this order before the page was loaded again (Idempotency-Key ${this.state.orderKey})`, payment);
      } catch (e) {
        if (this.state === record) this.fail(e, { ask: false });
        return;
      }
    }
    if (!this.state.payment) {
      this.fail(
        { code: "interrupted", message: `${why} before anything was ordered: start over` },
        { ask: false },
      );
      return;
    }
    return this.watch(why);
  }

  /**
   * Asks the merchant about the flow's payment until its word is final
   * (watchPayment: not paid yet, backing off, until paid or closed), the
   * record and headline following each answer. One watch a flow; reset()
   * stops it.
   */
  async watch(why) {
    const id = this.state.payment;
    if (!id || FINAL.has(this.state.merchant) || this.watching?.id === id) return;
    this.unwatch();
    const record = this.state;
    const w = { id, controller: new AbortController() };
    this.watching = w;
    const mine = () => this.state === record && this.watching === w;
    this.step(`asking the merchant about payment ${id} until it is paid or closed (${why})`);
    const onEvent = (e) => {
      const d = e.detail ?? {};
      if (!mine()) return;
      if (d.merchant && d.merchant !== this.state.merchant) {
        this.merchant(d.merchant);
        this.step(`merchant: payment ${id} is ${d.merchant}`);
      } else if (d.error) this.step(`merchant not reached (${d.error}); asking again in ${d.nextInMs / 1000} s`);
    };
    try {
      await pb.ready();
      await pb.watchPayment(() => merchantStatus(id), {
        intervalMs: TIMING.watch_ms,
        maxIntervalMs: Math.max(TIMING.watch_ms, TIMING.watch_max_ms),
        signal: w.controller.signal,
        onEvent,
      });
    } catch (e) {
      if (mine()) this.fail(e, { ask: false });
    } finally {
      if (this.watching === w) this.watching = null;
    }
  }

  /** Stops watching. */
  unwatch() {
    this.watching?.controller.abort();
    this.watching = null;
  }

  /** The merchant-side state the result box leads with, or null before any payment. */
  headline() {
    const id = this.state.payment;
    if (!id) return null;
    const merchant = this.state.merchant;
    if (merchant === "paid") return { key: "paid", detail: `the merchant's server has payment ${id} as paid` };
    if (merchant === "closed")
      return { key: "closed", detail: `the merchant's server closed payment ${id} unpaid: nothing was charged` };
    const active = this.state.active;
    if (active) return { key: "open", detail: `payment ${id}: ${active.what}` };
    if (merchant)
      return {
        key: "not_paid",
        detail: `the merchant's server has payment ${id} as ${merchant}: not paid yet; the page keeps asking until it is paid or closed`,
      };
    return { key: "open", detail: `payment ${id}: the merchant's server has not been asked yet` };
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
    if (result) this.renderResult(result);
  }

  renderResult(box) {
    const r = this.state.result;
    const merchant = this.state.merchant;
    const head = this.headline();
    if (!r && !merchant && !head) {
      box.replaceChildren(el("p", { class: "empty" }, "No result yet."));
      box.className = "result";
      box.removeAttribute("data-status");
      box.removeAttribute("data-headline");
      return;
    }
    const parts = [];
    if (head) {
      parts.push(el("p", { class: "headline" }, el("strong", {}, HEADLINES[head.key].words), " ", el("span", {}, head.detail)));
      box.setAttribute("data-headline", head.key);
    } else box.removeAttribute("data-headline");
    const pills = [];
    if (r) pills.push(el("span", { class: "who" }, r.pay ? "pay() reported" : r.error ? "error" : "outcome"), el("span", { class: "status" }, r.status));
    if (merchant) pills.push(el("span", { class: "status merchant", "data-merchant": merchant }, `merchant: ${merchant}`));
    if (r?.label) pills.push(el("span", {}, r.label));
    parts.push(el("div", { class: "pills" }, ...pills));
    const fields = r?.pay ? this.payFields(r) : (r?.fields ?? []);
    const rows = fields.map((f) => (f.length === 3 ? f : [f[0], f[0], f[1]])).filter(([, , v]) => v !== undefined && v !== null && v !== "");
    if (this.state.payment) rows.unshift(["payment", "payment", this.state.payment]);
    parts.push(el("dl", {}, ...rows.flatMap(([k, label, v]) => [el("dt", {}, label), el("dd", { "data-field": k }, String(v))])));
    const note = r?.pay ? this.payNote(r) : null;
    if (note) parts.push(el("p", { class: "explain" }, note));
    if (r?.resetCredentials) {
      const button = el("button", { type: "button", "data-action": "reset-credentials" }, "Reset the saved sandbox credentials");
      button.addEventListener("click", () => {
        localStorage.removeItem("paybridge-demo:credentials");
        this.reset();
        location.replace(location.pathname + location.search);
      });
      parts.push(el("p", { class: "start-over" }, button, " (the verification page's box: the sandbox's defaults apply again)"));
    }
    if (r?.startOver) {
      const link = el("a", { href: location.pathname + location.search, "data-action": "start-over" }, "Start over");
      link.addEventListener("click", (ev) => {
        ev.preventDefault();
        (this.options.startOver ?? (() => (this.reset(), location.replace(location.pathname + location.search))))();
      });
      parts.push(el("p", { class: "start-over" }, link, " (a new order from the start)"));
    }
    box.replaceChildren(...parts);
    const tone = head ? HEADLINES[head.key].tone : r?.error ? "bad" : (TONES[r?.status] ?? "bad");
    box.className = `result tone-${r?.error && !head ? "bad" : tone}`;
    if (r) box.setAttribute("data-status", r.status);
    else box.removeAttribute("data-status");
  }

  /** A PayResult's rows: the wallet's own answer named as the wallet's. */
  payFields(r) {
    const gone = (r.status === "redirected" || r.status === "opened") && !this.state.active;
    return [
      ["channel", "channel", r.channel],
      ["verified", "verified", String(r.verified)],
      ["code", "the wallet's own answer", r.code],
      // A verified result's message speaks for confirm (explained below); a
      // navigation's is over once the page is back.
      ["message", "pay()'s message", r.verified || gone ? undefined : r.message],
    ];
  }

  /** What `verified` (and a finished navigation) means here. */
  payNote(r) {
    if (r.verified) {
      const word = this.state.merchant === "paid" ? "paid" : "not paid yet";
      return `verified true: the page's confirm hook asked the merchant's server, which answered ${word}; pay() reports that as ${r.status}. The wallet's own answer is ${r.code ?? "none"}: a hint, never proof of payment.`;
    }
    if (r.status === "redirected" || r.status === "opened") {
      return this.state.active
        ? "verified false: pay() only sent the page on; the merchant's server decides whether it was paid, and the page asks it when it comes back."
        : "verified false: pay() only sent the page on; the headline is what the merchant's server said when the page came back.";
    }
    return "verified false: this is the wallet's word alone, a hint; the headline is the merchant's server's.";
  }
}

/** POST /merchant/payments with an Idempotency-Key: a new payment, or the one the key ordered. */
export async function orderWithKey(order, key) {
  const res = await fetch("/merchant/payments", {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify(order),
  });
  let body;
  try {
    body = await res.json();
  } catch {
    throw new Error(`the merchant refused the order: HTTP ${res.status}, not JSON`);
  }
  if (!res.ok) {
    throw Object.assign(new Error(`the merchant refused the order: ${body.message ?? `HTTP ${res.status}`}`), {
      code: body.error,
      field: body.field,
    });
  }
  return body;
}

/**
 * Asks again about every Flow of the page (Flow.recover) when the page
 * comes back: now (its load), on pageshow from the Back cache, and when it
 * is visible again after a wallet app took the screen. `skip` names flows
 * the page handles itself on this load (an authorization callback, a
 * cashier's return link).
 */
export function recoverAll({ skip = [] } = {}) {
  const run = (why, except = []) => Promise.all([...ALL].filter((f) => !except.includes(f)).map((f) => f.recover(why)));
  addEventListener("pageshow", (e) => e.persisted && run("back on this page (Back)"));
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && run("back on this page"));
  return run("the page was loaded again", skip);
}

/**
 * After a navigation that may go nowhere (an app's scheme address with no
 * app): if the page is still here and visible `ms` later, the flow asks
 * the merchant (a hidden page asks when it is visible again).
 */
export function stillHere(flow, ms = 3000) {
  setTimeout(() => {
    if (document.visibilityState === "visible") flow.recover(`the page was still here ${ms / 1000} s later (no app opened)`);
  }, ms);
}
