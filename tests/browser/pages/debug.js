// What the leak tests read of a page's paybridge, from the entry's loaded
// modules (`__modules`; the entry carries no test code of its own): what
// each module holds right now (`__step`'s query FEED_COUNTS, its values
// read by their names in www/lib/protocol.js), summed, and the size of a
// module's memory. A module script: the pages load it before their own.
import { COUNTS_LISTENERS, COUNTS_RETAINED, COUNTS_WAITERS, FEED_COUNTS } from "/www/lib/protocol.js";

window.debugCounts = (pb) => {
  const mods = [...new Set([pb.__modules.pay, pb.__modules.full])].filter(Boolean);
  if (mods.length === 0) throw new Error("no paybridge module is loaded");
  const sum = { listeners: 0, waiters: 0, retained: 0 };
  for (const m of mods) {
    const c = m.bg.__step(0, FEED_COUNTS);
    sum.listeners += c[COUNTS_LISTENERS];
    sum.waiters += c[COUNTS_WAITERS];
    sum.retained += c[COUNTS_RETAINED];
  }
  return sum;
};
window.wasmMemoryBytes = (pb, which = "pay") => pb.__modules[which]?.exports.memory.buffer.byteLength ?? 0;
