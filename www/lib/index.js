// paybridge for browsers and bundlers.
//
// Two modules: the payment module (`paybridge_bg.wasm`, small: `pay` and
// what it needs) and the full module (`paybridge_full_bg.wasm`: also
// planning, detection, the authorization helpers and the authentication
// client). The payment module's bytes are carried inside this entry, so a
// page that pays downloads one file and reaches the wallet after one
// request; `ready()` also fetches the full module (full.js: its glue and
// the loading of a module from a URL), after which every synchronous
// export works.
// The carried module (embedded.js); www/build/embed.mjs writes its string
// as the entry's first statement, wherever the bundle has it.
import { EMBEDDED } from "./embedded.js";
import { bindings as payBg } from "./paybridge_bg.js";
import { drive, onEventOf, perform } from "./perform.js";
import * as W from "./protocol.js";
import { PayError, link, modules } from "./shared.js";

export * from "./api.js";

/**
 * The loaded modules, `{ pay, full }`, each `{ bg, exports }` once loaded:
 * for the leak tests, which read what each module holds (`__step`'s kind
 * 10) and the size of its memory (tests/browser/pages/debug.js). Node's
 * entry and the mini-program module export `__debugCounts()` and
 * `__wasmMemoryBytes()`; what a page downloads carries no test code.
 */
export { modules as __modules };

/** The payment module's bytes: decoded, then inflated by the platform, or by
 * fflate (./inflate.js, fetched only then) where it has no DecompressionStream. */
async function embedded() {
  const s = EMBEDDED;
  let z;
  if (Uint8Array.fromBase64) z = Uint8Array.fromBase64(s);
  else {
    const b = atob(s);
    z = new Uint8Array(b.length);
    for (let i = 0; i < b.length; i++) z[i] = b.charCodeAt(i);
  }
  if (typeof DecompressionStream != "function") return (await import("./inflate.js")).inflateSync(z);
  // Written and read through the stream's own writer and reader, which stay
  // in microtasks: `new Response(...).arrayBuffer()` or a Blob's stream wait
  // for tasks, and a frame could come before the pay call (about 3 ms later;
  // tests/bench/README.md); piping a Response's body through it takes 0.3 ms
  // more than the writer. A stream that fails fails the read (below); the
  // write and the close settle with it.
  const d = new DecompressionStream("deflate-raw");
  const w = d.writable.getWriter();
  const no = () => {};
  w.write(z).catch(no);
  w.close().catch(no);
  const r = d.readable.getReader();
  const parts = [];
  for (let c; !(c = await r.read()).done; ) parts.push(c.value);
  return parts.length == 1 ? parts[0] : new Uint8Array(await new Blob(parts).arrayBuffer());
}

/** The payment module's imports: its glue. */
const imports = { bg: payBg };

/** Links an instance of the payment module, unless one is linked already. */
function linked(instance) {
  if (!modules.pay) modules.pay = link(payBg, instance.exports);
}

// Each module's loading, `pay` and `full`: kept while it is under way or
// done, dropped when it fails, so that a later call tries again.
const loading = {};

// The generated bindings serve one instance each: once a module is linked
// (by any copy of this entry), it is never loaded again, which is checked
// where `start()` would run, one path for both. `start()` runs a turn
// later, so that a bundler's chunk loading that throws at once (a
// mini-program build of this entry, which has no document) rejects, as
// any failure does.
function load(which, start) {
  return (loading[which] ||= Promise.resolve()
    .then(() => modules[which] || start())
    .catch((e) => {
      loading[which] = null;
      throw e instanceof PayError
        ? e
        : new PayError(`the paybridge WebAssembly could not be loaded: ${e?.message ?? e} (a mini-program imports paybridge/miniprogram)`, "not_ready", "wasm", undefined, e);
    }));
}

// The bytes carried here, compiled and linked as soon as they are
// inflated, or instantiated asynchronously where the runtime refuses to
// compile on its main thread; or a module from where ready({ wasm }) says,
// loaded by full.js, which ready() fetches anyway.
const loadPay = (src) =>
  load("pay", () =>
    src === undefined
      ? embedded().then((bytes) => {
          // Compiled and linked now, unless a module is linked already;
          // asynchronously where that fails (modules.pay stays null).
          try {
            modules.pay || linked(new WebAssembly.Instance(new WebAssembly.Module(bytes), imports));
          } catch {
            return WebAssembly.instantiate(bytes, imports).then((r) => linked(r.instance));
          }
        })
      : import("./full.js").then((m) => m.instantiate(src, imports)).then(linked),
  );

const loadFull = (src) =>
  load("full", () =>
    import("./full.js")
      .then((m) => m.load(src, drive, onEventOf))
      .then(([bg, instance]) => {
        if (!modules.full) modules.full = link(bg, instance.exports);
      }),
  );

/**
 * Loads both modules once; later calls return the same promise.
 * `options.wasm` (URL, bytes or WebAssembly.Module) replaces the payment
 * module's location, `options.wasmFull` the full module's.
 */
export function ready(options) {
  return Promise.all([loadPay(options?.wasm), loadFull(options?.wasmFull)]).then(() => undefined);
}

/**
 * `call(bg)` with the bindings of module `which` once it is loaded. When it
 * is loaded already the call happens now, not a turn later: a second
 * payment started while one is in flight (a double tap, an onEvent handler)
 * must meet the in-flight guard before the first one can finish, or it
 * would pay again.
 */
function whenLoaded(which, load, call) {
  const m = modules[which];
  // Called in the executor, now: what it throws rejects.
  return m ? new Promise((settle) => settle(call(m.bg))) : load().then(() => call(modules[which].bg));
}

/**
 * What the payment module leaves to the full module (www/lib/perform.js,
 * `more`; src/web/protocol.rs has the commands). OP_EXPLAIN: the words of
 * an input error it refused unworded; the full module runs the same checks
 * and words it (src/error.rs, WORDED), and where it does not load the error
 * stays as it is (its code, its field, and a short message naming both).
 * OP_PRELOAD: the wallet has been called, and `confirm` will be awaited:
 * the full module is fetched while the wallet's screen is up. OP_HAND_OFF:
 * the wallet's result, `hint`,
 * for the full module to await `confirm` on; this run (and with it the
 * payment slot) ends with that one. Where the full module does not load,
 * the payment fails with the error the command carries (`confirm_failed`,
 * with the result), the load's error as its cause.
 */
function toFull(payment, options) {
  return (c, end, resolve, reject, feed, onEvent) => {
    const op = c[0];
    if (op == W.OP_EXPLAIN) {
      const e = c[W.EXPLAIN_ERROR];
      end();
      loadFull()
        .then(() => modules.full.bg.__explain(payment, options, e))
        .catch(() => e)
        .then(reject);
    } else if (op == W.OP_PRELOAD) loadFull().catch(() => {});
    // OP_HAND_OFF, the one left
    else
      loadFull()
        .then(
          () => modules.full.bg.__confirm(payment, options, c[W.HAND_OFF_HINT], c[W.HAND_OFF_MS], onEvent),
          (x) => {
            const e = c[W.HAND_OFF_ERROR];
            e.cause = x;
            throw e;
          },
        )
        .finally(end)
        .then(resolve, reject);
  };
}

/**
 * Plans, waits, performs and reports a payment: the payment module, and
 * the full module for what the payment module leaves to it (`toFull`).
 */
export function pay(payment, options) {
  return whenLoaded("pay", loadPay, (bg) => perform(bg, payment, options, toFull(payment, options)));
}

/** The card-network flow: read the callback, order with its code, go to `expend.pay_url`. */
export function cardnetPay(callback, options) {
  return whenLoaded("full", loadFull, (bg) => bg.cardnetPay(callback, options));
}
