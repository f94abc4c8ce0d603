// One copy of the driver per page: the browser entry (pkg/index.js) carries
// the driver (www/lib/perform.js, `drive`), and the full module's file
// (pkg/full.js), which the entry imports for ready(), has none of its own:
// its runs go through the driver the entry hands to `load`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { drive, onEventOf } from "../../www/lib/perform.js";

const PKG = fileURLToPath(new URL("../../pkg/", import.meta.url));
const read = (f) => readFileSync(PKG + f, "utf8");

// What only the driver does among what a page loads, and minifying keeps:
// the platform calls by which it listens and sets timers.
const DRIVER = ["addEventListener", "removeEventListener", "setTimeout", "clearTimeout"];
const count = (text, word) => text.split(word).length - 1;

test("one driver: the entry carries the driver, full.js none", () => {
  const entry = read("index.js");
  const full = read("full.js");
  for (const word of DRIVER) {
    assert.ok(count(entry, word) >= 1, `the entry's driver calls ${word}`);
    assert.equal(count(full, word), 0, `full.js calls ${word}: it carries a driver of its own`);
  }
});

test("one driver: full.js's runs are driven by the driver handed to load", async () => {
  const full = await import(PKG + "full.js");
  const driven = [];
  const mine = (start, module, onEvent) => {
    driven.push(typeof module.__step);
    return drive(start, module, onEvent);
  };
  const [bg, instance] = await full.load(readFileSync(PKG + "paybridge_full_bg.wasm"), mine, onEventOf);
  class PayError extends Error {
    constructor(message, code, field) {
      super(message);
      this.code = code;
      this.field = field;
    }
  }
  bg.__wbg_set_wasm(instance.exports);
  bg.__setErrorClass(PayError, { busy: false }, globalThis);

  const words = ["created", "paid"];
  const r = await bg.watchPayment(async () => words.shift(), { intervalMs: 1, maxIntervalMs: 2 });
  assert.deepEqual(r, { status: "paid", merchant: "paid", asks: 2, final: true });
  await assert.rejects(bg.verifyNotification("not a notification", () => true), (e) => e instanceof PayError && e.code !== undefined);
  await assert.rejects(bg.cardnetPay(undefined, {}), PayError);
  // Each run handed to the driver with the module whose one step export
  // (`__step`) it steps.
  assert.deepEqual(driven, ["function", "function", "function"]);
});
