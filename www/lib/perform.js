// pay(): the shim that performs what the payment core decides (src/perform,
// src/web/pay.rs has the commands). It listens, sets timers, calls the
// bridge or the mini-program API, navigates and reports events when told
// to, and feeds back what happened; it decides nothing.

const now = () => (typeof performance == "object" && performance.now ? performance.now() : Date.now());

/** Pays with the module whose bindings are `bg`. */
export function perform(bg, payment, options) {
  return new Promise((resolve, reject) => {
    let id;
    let over = false;
    let onEvent;
    try {
      onEvent = options?.onEvent;
    } catch {
      // a throwing getter: no events
    }
    const timers = {};
    const listeners = {};
    const end = () => {
      over = true;
      bg.__payStep(id, 9);
      for (const k in timers) clearTimeout(timers[k]);
      for (const k in listeners) listeners[k][0].removeEventListener(listeners[k][1], listeners[k][2]);
    };
    const feed = (kind, v) => over || run(bg.__payStep(id, kind, v));
    // A call, then whether it returned or threw.
    const act = (f) => {
      try {
        f();
      } catch (e) {
        return feed(1, e);
      }
      feed(0);
    };
    function run(cmds) {
      for (const c of cmds) {
        const [op, a, b, d, e] = c;
        if (op == 0) {
          if (typeof onEvent == "function") {
            const ev = { type: a, at: now() };
            if (b !== undefined) ev.detail = b;
            try {
              onEvent(ev);
            } catch {
              // a throwing onEvent never breaks a payment
            }
          }
        } else if (op == 1) {
          if (typeof d?.addEventListener == "function") {
            const h = () => feed(2, b);
            d.addEventListener(b, h);
            listeners[a + b] = [d, b, h];
          }
        } else if (op == 2) {
          const l = listeners[a + b];
          if (l) l[0].removeEventListener(b, l[2]);
          delete listeners[a + b];
        } else if (op == 3) {
          clearTimeout(timers[a]);
          timers[a] = setTimeout(() => feed(3, a), b);
        } else if (op == 4) {
          clearTimeout(timers[a]);
          delete timers[a];
        } else if (op == 5) act(() => a.assign(b));
        else if (op == 6) act(() => a[b](d, e, (v) => feed(4, v)));
        else if (op == 7) {
          d.success = (v) => feed(4, v);
          d.fail = (v) => feed(5, v);
          if (e) d.complete = (v) => feed(6, v);
          act(() => a[b](d));
        } else if (op == 8) {
          let v;
          try {
            v = a(b, d);
          } catch (x) {
            feed(1, x);
            continue;
          }
          try {
            Promise.resolve(v).then((x) => feed(7, x), (x) => feed(8, x));
          } catch (x) {
            feed(8, x);
          }
        } else {
          end();
          (op == 9 ? resolve : reject)(a);
        }
      }
    }
    let first;
    try {
      first = bg.__payStart(payment, options);
    } catch (e) {
      return reject(e);
    }
    id = first.shift();
    run(first);
  });
}
