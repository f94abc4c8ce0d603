// The one driver, www/lib/perform.js drive(), on its own: a scripted run
// stands in for the module (its `__step` records what it is fed and answers
// the commands the test gives), so each command's performance and each
// input fed back are seen without a wasm module. Timers run on the test's
// clock (node:test's mock timers), never on the wall clock.
import { test } from "node:test";
import assert from "node:assert/strict";
import { drive } from "../../www/lib/perform.js";
import * as W from "../../www/lib/protocol.js";

const RUN = 7;

/**
 * A command written by name, as src/perform/wire.rs declares its values
 * (FIELDS; www/lib/protocol.js has each one's index, `LISTEN_TARGET`):
 * `cmd(W.OP_LISTEN, { key, event, target })`. The driver reads them by
 * place, so a declaration that drifts from the driver fails these tests.
 */
function cmd(op, values) {
  const name = Object.keys(W).find((k) => k.startsWith("OP_") && W[k] === op).slice(3);
  const c = [op];
  for (const [k, v] of Object.entries(values)) {
    const at = W[`${name}_${k.toUpperCase()}`];
    assert.ok(at, `${name} has no value named ${k} (src/perform/wire.rs FIELDS)`);
    c[at] = v;
  }
  return c;
}

/**
 * A scripted run: `first` the commands start() answers, `then(kind, v)`
 * the commands after an input (none unless it says). `fed` lists every
 * input as [run, kind, value].
 */
function script(first, then = () => []) {
  const fed = [];
  return {
    fed,
    start: () => [RUN, ...first],
    __step: (id, kind, v) => {
      fed.push([id, kind, v]);
      return kind == W.FEED_RELEASE ? [] : then(kind, v);
    },
  };
}

const kinds = (fed) => fed.map(([, k]) => k);
const tick = () => new Promise((r) => setImmediate(r));

/** An event target that counts its listeners. */
function target() {
  const handlers = new Map();
  return {
    handlers,
    addEventListener(type, f) {
      handlers.set(type, [...(handlers.get(type) || []), f]);
    },
    removeEventListener(type, f) {
      handlers.set(
        type,
        (handlers.get(type) || []).filter((g) => g !== f),
      );
    },
    fire(type) {
      for (const f of handlers.get(type) || []) f();
    },
    count: (type) => (handlers.get(type) || []).length,
  };
}

test("drive: a run that resolves at once settles with its value, fed RELEASE once", async () => {
  const s = script([cmd(W.OP_RESOLVE, { value: { status: "succeeded" } })]);
  assert.deepEqual(await drive(s.start, s), { status: "succeeded" });
  assert.deepEqual(s.fed, [[RUN, W.FEED_RELEASE, undefined]]);
});

test("drive: a rejecting run rejects with its error; a start that throws rejects without a step", async () => {
  const err = new Error("no");
  const s = script([cmd(W.OP_REJECT, { error: err })]);
  await assert.rejects(drive(s.start, s), (e) => e === err);
  const boom = new Error("start");
  let stepped = false;
  await assert.rejects(
    drive(
      () => {
        throw boom;
      },
      {
        __step: () => {
          stepped = true;
          return [];
        },
      },
    ),
    (e) => e === boom,
  );
  assert.equal(stepped, false);
});

test("drive: EMIT reports { type, at, detail } to onEvent; a throwing onEvent breaks nothing", async () => {
  const events = [];
  const s = script([
    cmd(W.OP_EMIT, { type: "planned", detail: { kind: "redirect" } }),
    cmd(W.OP_EMIT, { type: "waiting" }),
    cmd(W.OP_RESOLVE, { value: "done", event: "result" }),
  ]);
  const v = await drive(s.start, s, (e) => {
    events.push(e);
    throw new Error("the page's own bug");
  });
  assert.equal(v, "done");
  assert.deepEqual(
    events.map((e) => [e.type, e.detail]),
    [
      ["planned", { kind: "redirect" }],
      ["waiting", undefined],
      ["result", "done"],
    ],
  );
  assert.ok(!("detail" in events[1]), "an event without detail has no detail key");
  for (const e of events) assert.equal(typeof e.at, "number");
});

test("drive: LISTEN shares one listener per target and event among runs; the last run's end removes it", async () => {
  const t = target();
  const mk = () =>
    script([cmd(W.OP_LISTEN, { key: "win:", event: "ready", target: t })], (kind) => (kind == W.FEED_EVENT ? [cmd(W.OP_RESOLVE, { value: "heard" })] : []));
  const a = mk();
  const b = mk();
  const pa = drive(a.start, a);
  const pb = drive(b.start, b);
  assert.equal(t.count("ready"), 1, "two runs, one listener");
  t.fire("ready");
  assert.equal(await pa, "heard");
  assert.equal(await pb, "heard");
  assert.equal(t.count("ready"), 0, "removed when both runs ended");
  assert.deepEqual(kinds(a.fed), [W.FEED_EVENT, W.FEED_RELEASE]);
  assert.deepEqual(a.fed[0][2], "ready");
});

test("drive: UNLISTEN removes a run's listener; a target without addEventListener is not listened to", async () => {
  const t = target();
  const s = script([
    cmd(W.OP_LISTEN, { key: "win:", event: "ready", target: t }),
    cmd(W.OP_LISTEN, { key: "none:", event: "ready", target: {} }),
    cmd(W.OP_UNLISTEN, { key: "win:", event: "ready" }),
    cmd(W.OP_RESOLVE, { value: 1 }),
  ]);
  assert.equal(await drive(s.start, s), 1);
  assert.equal(t.count("ready"), 0);
});

test("drive: SET_TIMER feeds TIMER with its number on the test's clock; CLEAR_TIMER and the run's end cancel", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const s = script(
    [
      cmd(W.OP_SET_TIMER, { timer: 1, ms: 1000 }),
      cmd(W.OP_SET_TIMER, { timer: 2, ms: 500 }),
      cmd(W.OP_SET_TIMER, { timer: 3, ms: 5000 }),
      cmd(W.OP_CLEAR_TIMER, { timer: 2 }),
    ],
    (kind, v) => (kind == W.FEED_TIMER && v == 1 ? [cmd(W.OP_RESOLVE, { value: "timed out" })] : []),
  );
  const p = drive(s.start, s);
  t.mock.timers.tick(999);
  assert.deepEqual(s.fed, [], "nothing before 1000 ms, and timer 2 was cleared");
  t.mock.timers.tick(1);
  assert.equal(await p, "timed out");
  t.mock.timers.tick(10_000);
  assert.deepEqual(s.fed, [
    [RUN, W.FEED_TIMER, 1],
    [RUN, W.FEED_RELEASE, undefined],
  ]);
});

test("drive: SET_TIMER again with the same number replaces the first", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const s = script(
    [
      cmd(W.OP_SET_TIMER, { timer: 4, ms: 100 }),
      cmd(W.OP_SET_TIMER, { timer: 4, ms: 300 }),
    ],
    (kind) => (kind == W.FEED_TIMER ? [cmd(W.OP_RESOLVE, { value: "once" })] : []),
  );
  const p = drive(s.start, s);
  t.mock.timers.tick(299);
  assert.deepEqual(s.fed, []);
  t.mock.timers.tick(1);
  assert.equal(await p, "once");
});

test("drive: CALL_BRIDGE calls object[name](method, params, callback) and feeds RETURNED, then SUCCESS with the answer", async () => {
  const calls = [];
  let cb;
  const bridge = {
    invoke(method, params, f) {
      calls.push([method, params]);
      cb = f;
    },
  };
  const s = script([cmd(W.OP_CALL_BRIDGE, { bridge, method: "invoke", op: "pay", params: { a: 1 } })], (kind) =>
    kind == W.FEED_SUCCESS ? [cmd(W.OP_RESOLVE, { value: "answered" })] : [],
  );
  const p = drive(s.start, s);
  assert.deepEqual(calls, [["pay", { a: 1 }]]);
  assert.deepEqual(kinds(s.fed), [W.FEED_RETURNED]);
  cb({ err_msg: "pay:ok" });
  assert.equal(await p, "answered");
  assert.deepEqual(s.fed[1], [RUN, W.FEED_SUCCESS, { err_msg: "pay:ok" }]);
  cb({ err_msg: "again" });
  assert.equal(s.fed.length, 3, "a callback after the run's end is not fed");
});

test("drive: a bridge call that throws feeds THREW with what it threw", async () => {
  const err = new TypeError("bridge broke");
  const bridge = {
    call() {
      throw err;
    },
  };
  const s = script([cmd(W.OP_CALL_BRIDGE, { bridge, method: "call", op: "tradePay", params: {} })], (kind, v) =>
    kind == W.FEED_THREW ? [cmd(W.OP_REJECT, { error: v })] : [],
  );
  await assert.rejects(drive(s.start, s), (e) => e === err);
  assert.deepEqual(kinds(s.fed), [W.FEED_THREW, W.FEED_RELEASE]);
});

test("drive: CALL_API sets success, fail and (when asked) complete, and feeds each", async () => {
  let seen;
  const api = {
    requestPayment(o) {
      seen = o;
    },
  };
  const params = { package: "prepay_id=1" };
  const s = script([cmd(W.OP_CALL_API, { api, method: "requestPayment", params, complete: 1 })], (kind) =>
    kind == W.FEED_COMPLETE ? [cmd(W.OP_RESOLVE, { value: "complete" })] : [],
  );
  const p = drive(s.start, s);
  assert.equal(seen, params);
  assert.equal(typeof seen.success, "function");
  assert.equal(typeof seen.fail, "function");
  seen.fail({ errMsg: "requestPayment:fail cancel" });
  seen.success({ errMsg: "requestPayment:ok" });
  seen.complete({ errMsg: "done" });
  assert.equal(await p, "complete");
  assert.deepEqual(kinds(s.fed), [W.FEED_RETURNED, W.FEED_FAIL, W.FEED_SUCCESS, W.FEED_COMPLETE, W.FEED_RELEASE]);

  const noComplete = {};
  const s2 = script([
    cmd(W.OP_CALL_API, { api: { tradePay: () => {} }, method: "tradePay", params: noComplete, complete: 0 }),
    cmd(W.OP_RESOLVE, { value: 0 }),
  ]);
  await drive(s2.start, s2);
  assert.ok(!("complete" in noComplete), "complete is set only when the command asks");
});

test("drive: NAVIGATE calls location.assign(url); a throwing assign feeds THREW", async () => {
  const went = [];
  const loc = { assign: (u) => went.push(u) };
  const s = script([cmd(W.OP_NAVIGATE, { location: loc, url: "https://pay.example/x" })], (kind) =>
    kind == W.FEED_RETURNED ? [cmd(W.OP_RESOLVE, { value: "redirected" })] : [],
  );
  assert.equal(await drive(s.start, s), "redirected");
  assert.deepEqual(went, ["https://pay.example/x"]);
  const bad = {
    assign() {
      throw new Error("blocked");
    },
  };
  const s2 = script([cmd(W.OP_NAVIGATE, { location: bad, url: "https://pay.example/y" })], (kind, v) =>
    kind == W.FEED_THREW ? [cmd(W.OP_REJECT, { error: v.message })] : [],
  );
  await assert.rejects(drive(s2.start, s2), (e) => e === "blocked");
});

test("drive: AWAIT feeds SETTLED or REJECTED with [token, value, threw], a synchronous throw marked", async () => {
  const cases = [
    [(x, y) => Promise.resolve(x + y), W.FEED_SETTLED, 5, undefined],
    [() => Promise.reject(new Error("r")), W.FEED_REJECTED, "r", undefined],
    [
      () => {
        throw new Error("t");
      },
      W.FEED_REJECTED,
      "t",
      1,
    ],
    [(x) => x * 10, W.FEED_SETTLED, 20, undefined],
    [
      () => ({
        then() {
          throw new Error("thenable");
        },
      }),
      W.FEED_REJECTED,
      "thenable",
      undefined,
    ],
  ];
  for (const [f, kind, value, threw] of cases) {
    const s = script([cmd(W.OP_AWAIT, { f, x: 2, y: 3, token: 41 })], (k, v) => (k == kind ? [cmd(W.OP_RESOLVE, { value: v })] : []));
    // What was fed, read by name (src/perform/wire.rs VALUES).
    const fed = await drive(s.start, s);
    const settled = kind == W.FEED_SETTLED;
    assert.equal(fed[settled ? W.SETTLED_TOKEN : W.REJECTED_TOKEN], 41);
    const x = fed[settled ? W.SETTLED_VALUE : W.REJECTED_REASON];
    assert.equal(x instanceof Error ? x.message : x, value);
    assert.equal(fed[W.REJECTED_THREW], threw);
  }
});

test("drive: an await that settles after the run ended is not fed", async () => {
  let settle;
  const s = script([
    cmd(W.OP_AWAIT, { f: () => new Promise((r) => (settle = r)), x: 0, y: 0, token: 1 }),
    cmd(W.OP_RESOLVE, { value: "gone" }),
  ]);
  assert.equal(await drive(s.start, s), "gone");
  settle("late");
  await tick();
  assert.deepEqual(kinds(s.fed), [W.FEED_RELEASE]);
});

test("drive: an operation after REJECT is handed to `more` with the run's end and settling", async () => {
  const handed = [];
  const s = script([cmd(W.OP_HAND_OFF, { hint: "payload" })]);
  const v = await drive(s.start, s, undefined, (c, end, resolve) => {
    handed.push(c);
    end();
    resolve("handed");
  });
  assert.equal(v, "handed");
  assert.deepEqual(handed, [cmd(W.OP_HAND_OFF, { hint: "payload" })]);
  assert.deepEqual(kinds(s.fed), [W.FEED_RELEASE]);
});
