// perform(), a payment's start, and drive(), the one driver of every run: the shim that performs what the core decides
// (src/perform; src/web/protocol.rs writes the commands). It listens, sets timers,
// calls the bridge or the mini-program API, navigates and reports events
// when told to, and feeds back what happened; it decides nothing. The
// operations and input kinds are named in protocol.js, generated from
// src/perform/wire.rs (the minifier writes them back as numbers).

import * as W from "./protocol.js";

const now = () => (typeof performance == "object" && performance.now ? performance.now() : Date.now());

// Whether this is the browser entry's bundle, which defines
// PAYBRIDGE_BROWSER (Makefile): the one test of the build, as the Rust
// side's `PAYMENT_MODULE`, which the two below follow.
const page = typeof PAYBRIDGE_BROWSER != "undefined";

// Whether this build performs mini-program API calls (OP_CALL_API): a page
// has no mini-program API and neither of its modules makes such a call,
// so the branch is left out of what a page downloads.
const apiCalls = !page;

// Whether this build's driver performs OP_AWAIT itself. A page's payment
// module awaits nothing (it hands `confirm` to the full module, OP_HAND_OFF),
// so what a page downloads to pay leaves it to the full module's runs,
// whose `more` is `awaited` (flows.js, bundled into full.js).
const awaits = !page;

// One listener an event and target, however many runs listen (payments
// and waits alike): [target, event, handler, the runs' feeds].
const shared = {};

/**
 * Pays with the module whose bindings are `bg`. What the browser's payment
 * module leaves to the full module (OP_EXPLAIN, OP_HAND_OFF, OP_PRELOAD:
 * wording an input error, awaiting `confirm`) is performed by `more`
 * (`drive`), which the browser entry passes (index.js).
 */
export function perform(bg, payment, options, more) {
  return drive(() => bg.__payStart(payment, options), bg, onEventOf(options), more);
}

/** `options.onEvent`, read once; none where reading it throws. */
export function onEventOf(options) {
  try {
    return options?.onEvent;
  } catch {
    // a throwing getter: no events
  }
}

/**
 * The one driver of every run, in every module and runtime: `start()`
 * answers `[run, ...commands]`, and the module's one step export,
 * `bg.__step(run, kind, value)`, the commands after an input. It performs each command and feeds back what happened until a
 * command ends the run (OP_RESOLVE, OP_REJECT, or a hand-over that `more`
 * performs), then feeds FEED_RELEASE and drops the run's timers and
 * listeners; whatever comes after that is not fed. Resolves or rejects as
 * the run ends; a `start` that throws rejects. The hand-over's commands
 * (and in a page OP_AWAIT) go to `more(command, end, resolve, reject, feed,
 * onEvent)`.
 */
export function drive(start, bg, onEvent, more) {
  return new Promise((resolve, reject) => {
    let id;
    let over = false;
    const timers = {};
    const mine = {};
    const unlisten = (k) => {
      const s = mine[k];
      if (!s) return;
      delete mine[k];
      s[3].delete(feed);
      if (!s[3].size) {
        s[0].removeEventListener(s[1], s[2]);
        delete shared[k];
      }
    };
    const end = () => {
      over = true;
      bg.__step(id, W.FEED_RELEASE);
      for (const k in timers) clearTimeout(timers[k]);
      for (const k in mine) unlisten(k);
    };
    const feed = (kind, v) => over || run(bg.__step(id, kind, v));
    // A call, then whether it returned or threw.
    const act = (f) => {
      try {
        f();
      } catch (e) {
        return feed(W.FEED_THREW, e);
      }
      feed(W.FEED_RETURNED);
    };
    const emit = (type, detail) => {
      if (typeof onEvent == "function") {
        const ev = { type, at: now() };
        if (detail !== undefined) ev.detail = detail;
        try {
          onEvent(ev);
        } catch {
          // a throwing onEvent never breaks a payment
        }
      }
    };
    function run(cmds) {
      for (const c of cmds) {
        // Each value read by its name (W: www/lib/protocol.js, generated
        // from the declaration in src/perform/wire.rs), never by position;
        // the operation is each command's first element, `[op, ...values]`.
        const op = c[0];
        if (op == W.OP_EMIT) emit(c[W.EMIT_TYPE], c[W.EMIT_DETAIL]);
        else if (op == W.OP_LISTEN) {
          const event = c[W.LISTEN_EVENT];
          const k = c[W.LISTEN_KEY] + event;
          const target = c[W.LISTEN_TARGET];
          let s = shared[k];
          if (!s && typeof target?.addEventListener == "function") {
            const feeds = new Set();
            s = shared[k] = [target, event, () => [...feeds].forEach((f) => f(W.FEED_EVENT, event)), feeds];
            target.addEventListener(event, s[2]);
          }
          if (s) {
            s[3].add(feed);
            mine[k] = s;
          }
        } else if (op == W.OP_UNLISTEN) unlisten(c[W.UNLISTEN_KEY] + c[W.UNLISTEN_EVENT]);
        else if (op == W.OP_SET_TIMER) {
          const t = c[W.SET_TIMER_TIMER];
          clearTimeout(timers[t]);
          timers[t] = setTimeout(() => feed(W.FEED_TIMER, t), c[W.SET_TIMER_MS]);
        } else if (op == W.OP_CLEAR_TIMER) {
          const t = c[W.CLEAR_TIMER_TIMER];
          clearTimeout(timers[t]);
          delete timers[t];
        } else if (op == W.OP_NAVIGATE) act(() => c[W.NAVIGATE_LOCATION].assign(c[W.NAVIGATE_URL]));
        else if (op == W.OP_CALL_BRIDGE)
          act(() => c[W.CALL_BRIDGE_BRIDGE][c[W.CALL_BRIDGE_METHOD]](c[W.CALL_BRIDGE_OP], c[W.CALL_BRIDGE_PARAMS], (v) => feed(W.FEED_SUCCESS, v)));
        else if (op == W.OP_CALL_API && apiCalls) {
          const params = c[W.CALL_API_PARAMS];
          params.success = (v) => feed(W.FEED_SUCCESS, v);
          params.fail = (v) => feed(W.FEED_FAIL, v);
          if (c[W.CALL_API_COMPLETE]) params.complete = (v) => feed(W.FEED_COMPLETE, v);
          act(() => c[W.CALL_API_API][c[W.CALL_API_METHOD]](params));
        } else if (op == W.OP_AWAIT && awaits) awaited(c, feed);
        // The hand-over between the browser's two modules (OP_EXPLAIN,
        // OP_HAND_OFF, OP_PRELOAD: the operations numbered after
        // OP_REJECT, src/perform/wire.rs), performed in one place: index.js;
        // and in a page OP_AWAIT, which the full module's runs perform
        // (flows.js), whose `more` it is.
        else if (op > W.OP_REJECT || op == W.OP_AWAIT) more(c, end, resolve, reject, feed, onEvent);
        else if (op == W.OP_RESOLVE) {
          const value = c[W.RESOLVE_VALUE];
          if (c[W.RESOLVE_EVENT]) emit(c[W.RESOLVE_EVENT], value);
          end();
          resolve(value);
        } else {
          end();
          reject(c[W.REJECT_ERROR]);
        }
      }
    }
    let first;
    try {
      first = start();
    } catch (e) {
      return reject(e);
    }
    id = first.shift();
    run(first);
  });
}

/**
 * OP_AWAIT: f(x, y), its answer awaited; each settling fed (`feed`) with
 * the command's token, by which the core tells a late answer. What a
 * thenable's `then` throws rejects, as a promise's rejection.
 */
export function awaited(c, feed) {
  const to = (kind, threw) => (x) => {
    const v = [];
    if (kind == W.FEED_SETTLED) {
      v[W.SETTLED_TOKEN] = c[W.AWAIT_TOKEN];
      v[W.SETTLED_VALUE] = x;
    } else {
      v[W.REJECTED_TOKEN] = c[W.AWAIT_TOKEN];
      v[W.REJECTED_REASON] = x;
      v[W.REJECTED_THREW] = threw;
    }
    feed(kind, v);
  };
  let v;
  try {
    v = c[W.AWAIT_F](c[W.AWAIT_X], c[W.AWAIT_Y]);
  } catch (x) {
    return to(W.FEED_REJECTED, 1)(x);
  }
  Promise.resolve()
    .then(() => v)
    .then(to(W.FEED_SETTLED), to(W.FEED_REJECTED));
}
