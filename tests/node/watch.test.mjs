// watchPayment in Node 20 (src/perform/watch.rs, the run; src/web/runs.rs and
// www/lib/flows.js, its driving): it asks until the merchant's word is
// final, says after every ask what the page may say, keeps asking through
// failures, stops on its signal, checks its options, and leaves nothing
// behind. The schedule itself, against a clock the test keeps, is
// src/perform/watch_tests.rs.
import { test } from "node:test";
import assert from "node:assert/strict";

const pb = await import("paybridge");

const FAST = { intervalMs: 5, maxIntervalMs: 20 };

/** An ask that answers `words` in turn (the last one from then on); a function is thrown or awaited. */
function merchant(...words) {
  const asked = [];
  const ask = async () => {
    const w = words[Math.min(asked.length, words.length - 1)];
    asked.push(w);
    return typeof w === "function" ? w() : w;
  };
  return { ask, asked };
}

test("a late payment: not paid yet, then paid, with no final word before it", async () => {
  const m = merchant("created", { status: "created" }, "paid");
  const said = [];
  const r = await pb.watchPayment(m.ask, { ...FAST, onEvent: (e) => said.push([e.type, e.detail.status, e.detail.merchant]) });
  assert.deepEqual(r, { status: "paid", merchant: "paid", asks: 3, final: true });
  assert.deepEqual(said, [
    ["status", "not_paid_yet", "created"],
    ["status", "not_paid_yet", "created"],
    ["status", "paid", "paid"],
  ]);
  assert.deepEqual(pb.__debugCounts(), { listeners: 0, waiters: 0, retained: 0 });
});

test("closed is the one word that says nothing was charged; failed asks are asked again", async () => {
  const m = merchant(() => Promise.reject(new Error("offline")), () => 42, "pending", "closed");
  const errors = [];
  const r = await pb.watchPayment(m.ask, { ...FAST, onEvent: (e) => e.detail.error && errors.push(e.detail.error) });
  assert.deepEqual(r, { status: "closed", merchant: "closed", asks: 4, final: true });
  assert.deepEqual(errors, ["ask failed", "ask answered number: it must answer the merchant's status (\"paid\", \"closed\", \"created\", ...) or an object with it as status"]);
});

test("an ask that never answers times out and is asked again", async () => {
  const m = merchant(() => new Promise(() => {}), "succeeded");
  const r = await pb.watchPayment(m.ask, { ...FAST, timeoutMs: 20 });
  assert.equal(r.status, "paid");
  assert.equal(m.asked.length, 2);
});

test("the signal stops it (not final), also before it starts; stopAfterMs too", async () => {
  const c = new AbortController();
  const m = merchant("created");
  const watching = pb.watchPayment(m.ask, { ...FAST, signal: c.signal });
  setTimeout(() => c.abort(), 30);
  assert.deepEqual(await watching, { status: "not_paid_yet", merchant: "created", asks: m.asked.length, final: false });
  assert.ok(m.asked.length >= 1);
  const none = merchant("paid");
  assert.deepEqual(await pb.watchPayment(none.ask, { signal: AbortSignal.abort() }), { status: "not_paid_yet", asks: 0, final: false });
  assert.equal(none.asked.length, 0);
  const r = await pb.watchPayment(merchant("created").ask, { ...FAST, stopAfterMs: 40 });
  assert.equal(r.final, false);
  // Two watches with their own signals: aborting one leaves the other.
  const a = new AbortController();
  const b = new AbortController();
  const one = pb.watchPayment(merchant("created").ask, { ...FAST, signal: a.signal });
  const two = merchant("created", "created", "created", "created", "paid");
  const other = pb.watchPayment(two.ask, { ...FAST, signal: b.signal });
  a.abort();
  assert.equal((await one).final, false);
  assert.deepEqual(await other, { status: "paid", merchant: "paid", asks: 5, final: true });
  assert.deepEqual(pb.__debugCounts(), { listeners: 0, waiters: 0, retained: 0 });
});

test("bad arguments reject with invalid_options naming the field", async () => {
  const ask = async () => "paid";
  for (const [args, field] of [
    [[undefined], "ask"],
    [["paid"], "ask"],
    [[ask, 5], "options"],
    [[ask, { intervalMs: 0 }], "intervalMs"],
    [[ask, { intervalMs: 1.5 }], "intervalMs"],
    [[ask, { timeoutMs: "5" }], "timeoutMs"],
    [[ask, { intervalMs: 5000, maxIntervalMs: 10 }], "maxIntervalMs"],
    [[ask, { signal: {} }], "signal"],
  ]) {
    await assert.rejects(pb.watchPayment(...args), (e) => e instanceof pb.PayError && e.code === "invalid_options" && e.field === field && e.message.includes(field));
  }
});
