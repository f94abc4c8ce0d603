// The bench's statistics (bench.mjs): quantiles, a sample's summary, and
// the bootstrap interval of a ratio of medians (tests/node/bench-stats.test.mjs).

export function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export function stats(values) {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return { n: 0, median: NaN, p10: NaN, p90: NaN, min: NaN, max: NaN };
  return { n: s.length, median: quantile(s, 0.5), p10: quantile(s, 0.1), p90: quantile(s, 0.9), min: s[0], max: s[s.length - 1] };
}

/**
 * How far the ratio of two medians moves with the loads a run happened to
 * get: the 5th and 95th percentiles of that ratio over 2,000 resamplings
 * (each sample drawn again with replacement, its size kept), a bootstrap
 * interval. The seed is fixed, so the same loads give the same interval.
 * With 30 loads a row, runs of unchanged code on an idle machine have given
 * loopback ratios 0.2 apart; the interval shows that spread within one run.
 */
export function ratioInterval(ours, peer, rounds = 2000) {
  if (!ours.length || !peer.length) return null;
  let seed = 0x2545f491;
  // mulberry32
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const median = (xs) => {
    const s = Array.from(xs, () => xs[Math.floor(random() * xs.length)]).sort((a, b) => a - b);
    return quantile(s, 0.5);
  };
  const ratios = [];
  for (let i = 0; i < rounds; i++) ratios.push(median(ours) / median(peer));
  ratios.sort((a, b) => a - b);
  return [quantile(ratios, 0.05), quantile(ratios, 0.95)];
}

/**
 * The rows `BENCH_ONLY` asks for: names separated by commas or spaces, each
 * one of `known`. Unset or empty: every row. An unknown name throws, naming
 * it and the known ones, so that a typo never runs a bench of nothing.
 */
export function parseOnly(text, known) {
  const names = String(text ?? "").split(/[\s,]+/).filter(Boolean);
  if (!names.length) return new Set(known);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length) throw new Error(`BENCH_ONLY: no rows named ${unknown.join(", ")} (known: ${known.join(", ")})`);
  return new Set(names);
}
