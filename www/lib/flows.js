// The full module's own runs, driven by the one driver (perform.js, `drive`)
// as payments are: `cardnetPay`, the authentication client's calls,
// `verifyNotification`, `waitForBridge` and `watchPayment`. The module
// decides (src/perform: CardnetRun, VerifyRun, NoticeRun, BridgeWait,
// WatchRun; src/web/runs.rs, wait.rs); this file only names the runs'
// start exports; the one step export, `__step`, is every run's.
//
// The driver is handed in, not imported: in a page, full.js (which bundles
// this file) gets the entry's own `drive` from the entry (index.js,
// `load`), so a page that loads the full module has one copy of the driver
// and one table of listeners; Node's entry hands its one bundle's copy.
// Of perform.js only `awaited` is imported: a page's driver leaves OP_AWAIT
// to these runs, since its payment module awaits nothing.

import { awaited } from "./perform.js";

/**
 * The full module's bindings `bg`, with its runs as the package exports
 * them: `cardnetPay`, `AuthClient` (each method a run),
 * `verifyNotification`, `waitForBridge` and `watchPayment`, which answer
 * promises (in a page, `www/lib/api.js` throws `not_ready` before `ready()`). Every other
 * binding is `bg`'s own. `drive` and `onEventOf` are perform.js's, handed
 * in by the entry.
 */
export function withRuns(bg, drive, onEventOf) {
  // What a page's driver leaves to the runs: OP_AWAIT (perform.js).
  const run = (start, onEvent) => drive(start, bg, onEvent, (c, end, resolve, reject, feed) => awaited(c, feed));
  // The bindings' class, which checks the options and starts the runs.
  const Client = bg.AuthClient;
  const client = new WeakMap();
  const method = (name) =>
    function (...args) {
      return run(() => {
        const c = client.get(this);
        if (!c) throw new TypeError(`AuthClient.prototype.${name} called after free(), or on something that is not an AuthClient`);
        return c[name](...args);
      });
    };
  /** `new AuthClient(options)`: the authentication client (index.d.ts). */
  class AuthClient {
    constructor(options) {
      client.set(this, new Client(options));
    }
    /** Releases the client's wasm memory at once (calls already started go on). */
    free() {
      client.get(this)?.free();
      client.delete(this);
    }
  }
  for (const name of ["cardCheck", "nameCheck", "checkResult", "awaitResult"]) {
    Object.defineProperty(AuthClient.prototype, name, { value: method(name), writable: true, configurable: true });
  }
  // `using client = new AuthClient(...)` frees it at the end of the scope,
  // as the bindings' class does.
  if (typeof Symbol.dispose == "symbol") AuthClient.prototype[Symbol.dispose] = AuthClient.prototype.free;
  return Object.assign(Object.create(bg), {
    AuthClient,
    // The payment's `confirm`, awaited after the page's payment module
    // handed it over (index.js, OP_HAND_OFF), with the payment's onEvent.
    __confirm: (payment, options, hint, ms, onEvent) => run(() => bg.__confirmStart(payment, options, hint, ms), onEvent),
    cardnetPay: (callback, options) => run(() => bg.__cardnetStart(callback, options), onEventOf(options)),
    verifyNotification: (body, verify) => run(() => bg.__noticeStart(body, verify)),
    waitForBridge: (name, readyEvent, options) => run(() => bg.__waitStart(name, readyEvent, options)),
    watchPayment: (ask, options) => run(() => bg.__watchStart(ask, options), onEventOf(options)),
  });
}
