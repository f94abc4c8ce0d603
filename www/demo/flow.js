// A flow's record and how it is shown: its planned action, its log (the
// page's steps and pay()'s events, with times), and its result, headed by
// the merchant's own status of the payment. The record is kept in the
// tab's sessionStorage, so it outlives a reload, an authorization page or
// a cashier; a page that comes back (load, or pageshow from the Back
// cache, or visible again after a wallet app) asks the merchant again
// about every payment it holds that is not paid (recoverAll), so what it
// shows is never older than the merchant's last word.

/** GET /merchant/payments/{id}: `created` or `paid`, as the merchant's server knows it. */
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
  not_paid: { tone: "warn", words: "Not paid" },
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
    this.onEvent = (e) => this.event(e);
    ALL.add(this);
    this.render();
  }

  static empty() {
    return { entries: [], plan: null, result: null, merchant: null, payment: null, active: null };
  }

  save() {
    // A page being left (reload, Back, a navigation) keeps the record as it
    // stood: what its dying scripts see then (fetches aborted by the
    // unload) is not the flow's outcome; the next page recovers it.
    if (!leaving) keep.set(this.key, this.state);
    this.render();
  }

  /** Starts over: forgets the record. */
  reset() {
    this.state = Flow.empty();
    this.live = null;
    this.save();
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

  /** What begin() started is over. */
  end() {
    this.live = null;
    if (this.state.active && !this.state.active.away) this.state.active = null;
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
   * A failure: a PayError shows its code (bridge_timeout, ...); `startOver`
   * adds the link. A payment on record is then asked about (its status is
   * the headline), unless `ask` is false.
   */
  fail(e, { startOver = e?.code === "auth_used", ask = true } = {}) {
    const code = e?.code ?? "error";
    this.live = null;
    if (this.state.active && !this.state.active.away) this.state.active = null;
    this.state.entries.push({ t: Date.now(), kind: "error", what: `${code}: ${e?.message ?? e}`, error: true });
    this.state.result = { status: code, error: true, startOver, fields: [["message", e?.message ?? String(e)], ["field", e?.field]] };
    this.save();
    if (ask && this.state.payment && this.state.merchant !== "paid") queueMicrotask(() => this.recover("after the error"));
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

  /**
   * Ends an activity left by an earlier page (or one that left and came
   * back) and asks the merchant again about a payment that is not paid;
   * `why` says what brought the page back. Does nothing for a flow this
   * page is running, or one with nothing to ask.
   */
  async recover(why) {
    const left = this.state.active && this.state.active !== this.live ? this.state.active : null;
    const id = this.state.payment;
    if (!left && (!id || this.state.merchant === "paid" || this.live)) return;
    if (left) {
      this.state.active = null;
      this.step(`${why} while the flow was ${left.away ? left.what : `${left.what}: that ended with the earlier page`}`);
    }
    if (!id) {
      this.fail(
        { code: "interrupted", message: `${why} before anything was ordered; an authorization's code is used once: start over` },
        { startOver: true, ask: false },
      );
      return;
    }
    const record = this.state;
    try {
      const before = this.state.merchant;
      const status = await merchantStatus(id);
      // Started over (or another flow began) while asking: the answer is not this record's.
      if (this.state !== record || this.live) return;
      this.merchant(status);
      if (left || status !== before) this.step(`merchant: payment ${id} is ${status} (asked again: ${why})`);
    } catch (e) {
      if (this.state === record) this.fail(e, { ask: false });
    }
  }

  /** The merchant-side state the result box leads with, or null before any payment. */
  headline() {
    const id = this.state.payment;
    if (!id) return null;
    if (this.state.merchant === "paid") return { key: "paid", detail: `the merchant's server has payment ${id} as paid` };
    const active = this.state.active;
    if (active) return { key: "open", detail: `payment ${id}: ${active.what}` };
    if (this.state.merchant === "created")
      return { key: "not_paid", detail: `the merchant's server has payment ${id} as created: not paid (nothing was charged)` };
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
    if (r?.startOver) {
      const link = el("a", { href: location.pathname + location.search, "data-action": "start-over" }, "Start over");
      link.addEventListener("click", (ev) => {
        ev.preventDefault();
        (this.options.startOver ?? (() => (this.reset(), location.replace(location.pathname + location.search))))();
      });
      parts.push(el("p", { class: "start-over" }, link, " (authorize again: a new order from a fresh authorization)"));
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
      const word = this.state.merchant === "paid" ? "paid" : "not paid";
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
