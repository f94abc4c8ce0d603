// pay() and waitForBridge(): the shim that performs what the core decides
// (src/perform; src/web/pay.rs has the commands). It listens, sets timers,
// calls the bridge or the mini-program API, navigates and reports events
// when told to, and feeds back what happened; it decides nothing. The
// operations and input kinds are named in protocol.js, generated from
// src/perform/wire.rs (the minifier writes them back as numbers).

import {
  OP_EMIT,
  OP_LISTEN,
  OP_UNLISTEN,
  OP_SET_TIMER,
  OP_CLEAR_TIMER,
  OP_NAVIGATE,
  OP_CALL_BRIDGE,
  OP_CALL_API,
  OP_AWAIT,
  OP_RESOLVE,
  OP_REJECT,
  FEED_RETURNED,
  FEED_THREW,
  FEED_EVENT,
  FEED_TIMER,
  FEED_SUCCESS,
  FEED_FAIL,
  FEED_COMPLETE,
  FEED_SETTLED,
  FEED_REJECTED,
  FEED_RELEASE,
} from "./protocol.js";

const now = () => (typeof performance == "object" && performance.now ? performance.now() : Date.now());

// Whether this build performs mini-program API calls (OP_CALL_API). The
// browser entry's bundle defines PAYBRIDGE_BROWSER (Makefile): a page has
// no mini-program API and neither of its modules makes such a call, so the
// branch is left out of what a page downloads.
const apiCalls = typeof PAYBRIDGE_BROWSER == "undefined";

// One listener an event and target, however many runs listen (payments
// and waits alike): [target, event, handler, the runs' feeds].
const shared = {};

/**
 * Pays with the module whose bindings are `bg`. What the browser's payment
 * module leaves to the full module (OP_EXPLAIN, OP_HAND_OFF, OP_PRELOAD:
 * wording an input error, awaiting `confirm`) is performed by
 * `more(command, end, resolve, reject, go)`, which the browser entry passes
 * (index.js); `go(start, bg)` goes on with a run of module `bg` that
 * `start()` begins.
 */
export function perform(bg, payment, options, more) {
  const onEvent = onEventOf(options);
  const go = (start, bg) => drive(start, bg, onEvent, (...c) => more(...c, go));
  return go(() => bg.__payStart(payment, options), bg);
}

/** `options.onEvent`, read once; none where reading it throws. */
export function onEventOf(options) {
  try {
    return options?.onEvent;
  } catch {
    // a throwing getter: no events
  }
}

/** `waitForBridge(name, readyEvent, options?)` in the module whose bindings are `bg`. */
export function waitFor(bg, name, readyEvent, options) {
  return drive(() => bg.__waitStart(name, readyEvent, options), bg);
}

/**
 * The one driver of every run, in every module and runtime: `start()`
 * answers `[run, ...commands]`, and the module's one step export,
 * `bg.__step(run, kind, value)`, the commands after an input. It performs each command and feeds back what happened until a
 * command ends the run (OP_RESOLVE, OP_REJECT, or a hand-over that `more`
 * performs), then feeds FEED_RELEASE and drops the run's timers and
 * listeners; whatever comes after that is not fed. Resolves or rejects as
 * the run ends; a `start` that throws rejects.
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
      bg.__step(id, FEED_RELEASE);
      for (const k in timers) clearTimeout(timers[k]);
      for (const k in mine) unlisten(k);
    };
    const feed = (kind, v) => over || run(bg.__step(id, kind, v));
    // A call, then whether it returned or threw.
    const act = (f) => {
      try {
        f();
      } catch (e) {
        return feed(FEED_THREW, e);
      }
      feed(FEED_RETURNED);
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
        const [op, a, b, d, e] = c;
        if (op == OP_EMIT) emit(a, b);
        else if (op == OP_LISTEN) {
          const k = a + b;
          let s = shared[k];
          if (!s && typeof d?.addEventListener == "function") {
            const feeds = new Set();
            s = shared[k] = [d, b, () => [...feeds].forEach((f) => f(FEED_EVENT, b)), feeds];
            d.addEventListener(b, s[2]);
          }
          if (s) {
            s[3].add(feed);
            mine[k] = s;
          }
        } else if (op == OP_UNLISTEN) unlisten(a + b);
        else if (op == OP_SET_TIMER) {
          clearTimeout(timers[a]);
          timers[a] = setTimeout(() => feed(FEED_TIMER, a), b);
        } else if (op == OP_CLEAR_TIMER) {
          clearTimeout(timers[a]);
          delete timers[a];
        } else if (op == OP_NAVIGATE) act(() => a.assign(b));
        else if (op == OP_CALL_BRIDGE) act(() => a[b](d, e, (v) => feed(FEED_SUCCESS, v)));
        else if (op == OP_CALL_API && apiCalls) {
          d.success = (v) => feed(FEED_SUCCESS, v);
          d.fail = (v) => feed(FEED_FAIL, v);
          if (e) d.complete = (v) => feed(FEED_COMPLETE, v);
          act(() => a[b](d));
        } else if (op == OP_AWAIT) {
          // f(x, y), its answer awaited; each settling fed with the
          // command's token, by which the core tells a late answer. What a
          // thenable's `then` throws rejects, as a promise's rejection.
          const to = (kind, threw) => (x) => feed(kind, [e, x, threw]);
          let v;
          try {
            v = a(b, d);
          } catch (x) {
            to(FEED_REJECTED, 1)(x);
            continue;
          }
          Promise.resolve()
            .then(() => v)
            .then(to(FEED_SETTLED), to(FEED_REJECTED));
        }
        // The hand-over between the browser's two modules (OP_EXPLAIN,
        // OP_HAND_OFF, OP_PRELOAD: the operations numbered after
        // OP_REJECT, src/perform/wire.rs), performed in one place: index.js.
        else if (op > OP_REJECT) more(c, end, resolve, reject);
        else {
          if (op == OP_RESOLVE && b) emit(b, a);
          end();
          (op == OP_RESOLVE ? resolve : reject)(a);
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
