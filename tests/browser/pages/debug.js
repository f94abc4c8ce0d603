// What the leak tests read of a page's paybridge, from the entry's loaded
// modules (`__modules`; the entry carries no test code of its own): what
// each module holds right now (`__step`'s query FEED_COUNTS, 10:
// www/lib/protocol.js; a classic script cannot import it),
// summed, and the size of a module's memory.
window.debugCounts = (pb) => {
  const mods = [...new Set([pb.__modules.pay, pb.__modules.full])].filter(Boolean);
  if (mods.length === 0) throw new Error("no paybridge module is loaded");
  const sum = { listeners: 0, waiters: 0, retained: 0 };
  for (const m of mods) {
    const [listeners, waiters, retained] = m.bg.__step(0, 10);
    sum.listeners += listeners;
    sum.waiters += waiters;
    sum.retained += retained;
  }
  return sum;
};
window.wasmMemoryBytes = (pb, which = "pay") => pb.__modules[which]?.exports.memory.buffer.byteLength ?? 0;
