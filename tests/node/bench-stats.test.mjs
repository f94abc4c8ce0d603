// The bench's statistics and switches (tests/bench/stats.mjs).
import test from "node:test";
import assert from "node:assert/strict";
import { parseOnly, ratioInterval, stats } from "../bench/stats.mjs";

// Thirty loads spread like a loopback row (ms), and the same loads scaled.
const peer = [56, 58, 72, 48, 54, 52, 56, 43, 49, 57, 59, 48, 68, 65, 65, 65, 51, 55, 55, 64, 64, 47, 50, 43, 69, 59, 51, 46, 68, 48];

test("loads that never vary give their ratio and no spread", () => {
  assert.deepEqual(ratioInterval(Array(30).fill(60), Array(30).fill(50)), [1.2, 1.2]);
});

test("two samples of one spread: an interval around their ratio of medians, the same on every call", () => {
  const ours = peer.map((x, i) => x * 1.2 + ((i * 7) % 11) - 5);
  const r = stats(ours).median / stats(peer).median;
  const [lo, hi] = ratioInterval(ours, peer);
  assert.ok(lo < r && r < hi, `${lo} < ${r} < ${hi}`);
  assert.ok(hi - lo > 0.05 && hi - lo < 0.5, `width ${hi - lo}`);
  assert.deepEqual(ratioInterval(ours, peer), [lo, hi]);
});

test("more loads of the same spread give a narrower interval", () => {
  const ours = peer.map((x, i) => x * 1.1 + ((i * 5) % 13) - 6);
  const [lo, hi] = ratioInterval(ours, peer);
  const four = (xs) => [...xs, ...xs, ...xs, ...xs];
  const [lo4, hi4] = ratioInterval(four(ours), four(peer));
  assert.ok(hi4 - lo4 < (hi - lo) * 0.75, `${hi4 - lo4} against ${hi - lo}`);
});

test("no loads, no interval", () => {
  assert.equal(ratioInterval([], peer), null);
  assert.equal(ratioInterval(peer, []), null);
});

test("BENCH_ONLY unset or empty runs every row", () => {
  const known = ["bytes", "bridge", "redirect"];
  assert.deepEqual([...parseOnly(undefined, known)], known);
  assert.deepEqual([...parseOnly(" , ", known)], known);
});

test("BENCH_ONLY names rows by commas or spaces", () => {
  assert.deepEqual([...parseOnly("redirect, mini bytes", ["bytes", "bridge", "redirect", "mini"])].sort(), ["bytes", "mini", "redirect"]);
});

test("BENCH_ONLY with an unknown name throws, naming it", () => {
  assert.throws(() => parseOnly("bridge,redirct", ["bridge", "redirect"]), /no rows named redirct \(known: bridge, redirect\)/);
});
