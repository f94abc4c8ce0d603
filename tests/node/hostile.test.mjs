// The hostile-input corpus through the built package in Node: every case
// of tests/vectors/hostile*.json through the export of its kind, each a
// PayError with the case's code and field, never a trap. Kinds whose
// export this build lacks are skipped, and say so.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { FILES, withKinds, missing, check } from "../tools/hostile.mjs";

const pb = await import("paybridge");
const cases = withKinds(FILES.map((f) => JSON.parse(readFileSync(new URL(`../vectors/${f}`, import.meta.url), "utf8"))));
const kinds = [...new Set(cases.map((c) => c.kind))];

test("the corpus holds at least 300 cases of every kind", () => {
  const count = Object.fromEntries(kinds.map((k) => [k, cases.filter((c) => c.kind === k).length]));
  assert.ok(cases.length >= 300, `${cases.length} cases`);
  for (const k of ["payment", "options", "url", "callback", "auth_url", "envelope", "notification"]) assert.ok(count[k] >= 20, `${k}: ${count[k]}`);
  assert.equal(new Set(cases.map((c) => c.name)).size, cases.length, "names are unique");
});

for (const kind of kinds) {
  const lacking = missing(pb, kind);
  const some = cases.filter((c) => c.kind === kind);
  const skip = lacking.length ? `${lacking.join(", ")} not exported by this build of the package: ${some.length} ${kind} cases not run` : false;
  test(`hostile ${kind} cases (${some.length}) each give their PayError`, { skip }, async () => {
    const problems = [];
    for (const c of some) problems.push(...(await check(pb, c)));
    assert.deepEqual(problems, []);
  });
}

test("the module still works after the whole corpus", () => {
  assert.equal(pb.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }).kind, "wallet1_trade_pay");
  assert.match(pb.cardnetAuthUrl({ redirectUrl: "https://shop.example/cb" }), /^https:\/\//);
});

test("a string with a lone surrogate is refused wherever it sits; a surrogate pair is kept", () => {
  const base = { pay_channel: "wallet1_pub", pay_info: { tradeNO: "T1" } };
  const refused = [
    ["pay_channel", [{ ...base, pay_channel: "wallet1_pub\uD800" }, undefined], "invalid_payment", "payment"],
    ["pay_info member", [{ ...base, pay_info: { tradeNO: "\uDE00T1" } }, undefined], "invalid_payment", "payment"],
    ["reversed pair in an unknown member", [{ ...base, memo: "\uDE00\uD83D" }, undefined], "invalid_payment", "payment"],
    ["member name", [{ ...base, ["memo\uD800"]: "x" }, undefined], "invalid_payment", "payment"],
    ["JSON text with an escaped lone surrogate", [JSON.stringify({ ...base, memo: "x" }).replace('"x"', '"\\ud800"'), undefined], "invalid_payment", "payment"],
    ["profile string", [base, { profile: { wallet1: { bridge: "B\uDBFF" } } }], "invalid_options", "options"],
  ];
  for (const [where, [payment, options], code, field] of refused) {
    assert.throws(
      () => pb.planAction(payment, options),
      (e) => e instanceof pb.PayError && e.code === code && e.field === field && /lone surrogate/.test(e.message),
      where,
    );
  }
  // An astral character (a well-formed pair) and U+FFFD itself are fine.
  const kept = pb.planAction({ ...base, memo: "\uD83D\uDE00 \uFFFD", pay_info: { tradeNO: "T1" } });
  assert.equal(kept.kind, "wallet1_trade_pay");
});

test("one depth rule for a payment as a value and as JSON text: an array may sit at depth 64, nothing below it", () => {
  // `x` holds arrays nested so that the innermost one sits at `depth` (the
  // payment itself is at depth 0).
  const nested = (depth) => {
    let x = [];
    for (let i = 1; i < depth; i++) x = [x];
    return { pay_channel: "wallet1_pub", pay_info: { tradeNO: "T1" }, x };
  };
  for (const form of [(p) => p, (p) => JSON.stringify(p)]) {
    assert.equal(pb.planAction(form(nested(64))).kind, "wallet1_trade_pay");
    assert.throws(
      () => pb.planAction(form(nested(65))),
      (e) => e instanceof pb.PayError && e.code === "invalid_payment" && e.field === "payment" && /deeper than 64 levels/.test(e.message),
    );
  }
});

test("much text in many strings, each under 1 MiB, is refused before it fills the module's memory; pay() stays usable", async () => {
  const s = "\u4e2d".repeat((1 << 20) - 1); // one shared string of 3 MiB in UTF-8
  const refused = (code, field) => (e) =>
    e instanceof pb.PayError && e.code === code && e.field === field && /more than 2 MiB of text in all/.test(e.message);
  const big = { pay_channel: "wallet1", pay_info: "https://pay.example/x", junk: new Array(1500).fill(s) };
  await assert.rejects(pb.pay(big), refused("invalid_payment", "payment"));
  assert.throws(() => pb.planAction(big), refused("invalid_payment", "payment"));
  // Member names count too.
  const names = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [i + s, 1]));
  assert.throws(() => pb.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" }, ...names }), refused("invalid_payment", "payment"));
  const profile = { wallet1: { resultCodes: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [String(i), s])) } };
  assert.throws(() => pb.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }, { profile }), refused("invalid_options", "options"));
  // An object with more members than an input may hold is refused as a whole,
  // even when every member is undefined.
  const wide = Object.fromEntries(Array.from({ length: 20001 }, (_, i) => ["k" + i, undefined]));
  assert.throws(
    () => pb.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" }, wide }),
    (e) => e instanceof pb.PayError && e.code === "invalid_payment" && /more than 20000 values/.test(e.message),
  );
  // The in-flight flag was released: the next payment is planned, not busy.
  await assert.rejects(pb.pay({ pay_channel: "nope" }), (e) => e.code === "unsupported_channel");
  assert.equal(pb.planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }).kind, "wallet1_trade_pay");
});
