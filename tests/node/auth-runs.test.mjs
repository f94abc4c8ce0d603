// The authentication client's calls as runs of the one driver (src/perform/
// verify.rs, src/web/runs.rs, www/lib/flows.js), in Node 20, with stand-ins
// for fetch and for the transport: the core's time-out decides (and the
// request it no longer awaits is aborted), calls run side by side, nothing
// is left behind, and a client is freed by free() or `using`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SANDBOX_TOKEN } from "../tools/auth-server.mjs";

const pb = await import("paybridge");

const card = { full_name: "A", acct_no: "6222021234567890128", source_channel: "0" };
const data = { return_code: "10200", resp_code: "00", service_date: "20240101" };
const answer = { status: 200, body: JSON.stringify({ data: JSON.stringify(data) }) };
// The service's answer to a request, echoing its order as the document says every answer does.
const answerTo = async (req) => {
  const sent = new URLSearchParams(req.body ?? new URL(req.url).search);
  const echoes = { order_id: sent.get("order_id"), order_date: sent.get("order_date") };
  return { status: 200, body: JSON.stringify({ data: JSON.stringify({ ...data, ...echoes }) }) };
};

function client(extra = {}) {
  return new pb.AuthClient({
    baseUrl: "http://127.0.0.1:9",
    appToken: SANDBOX_TOKEN,
    env: "test",
    sign: () => "sig",
    verify: false,
    retry: { attempts: 1, baseDelayMs: 1 },
    timeoutMs: 200,
    ...extra,
  });
}

test("a fetch that never answers: the client's time-out decides, and the request is aborted", async (t) => {
  const signals = [];
  const real = globalThis.fetch;
  t.after(() => (globalThis.fetch = real));
  globalThis.fetch = (url, init) => {
    signals.push(init.signal);
    // Rejects only when aborted, as fetch does.
    return new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(new Error("aborted by the client"))));
  };
  await assert.rejects(client().checkResult({ seqId: "S1" }), (e) => {
    assert.equal(e.code, "transport");
    assert.ok(e.message.includes("(last: no answer within 200 ms (timeoutMs))"), e.message);
    assert.equal(e.cause, undefined, "a time-out has no thrown value behind it");
    return true;
  });
  assert.ok(signals.length >= 1);
  assert.ok(
    signals.every((s) => s?.aborted),
    "every request the client stopped awaiting was aborted",
  );
  assert.deepEqual(pb.__debugCounts(), { listeners: 0, waiters: 0, retained: 0 });
});

test("calls run side by side: one whose sign hook never answers fails alone", async () => {
  let n = 0;
  const c = client({
    sign: () => (n++ == 0 ? new Promise(() => {}) : "sig"),
    transport: answerTo,
  });
  const [late, ok] = await Promise.allSettled([c.cardCheck(card), c.cardCheck(card)]);
  assert.equal(late.status, "rejected");
  assert.equal(late.reason.code, "hook_failed");
  assert.equal(late.reason.message, "the sign hook did not answer within 200 ms (timeoutMs)");
  assert.equal(ok.status, "fulfilled");
  assert.equal(ok.value.state, "consistent");
  assert.deepEqual(pb.__debugCounts(), { listeners: 0, waiters: 0, retained: 0 }, "no run left behind");
});

test("a transport answer after its time-out changes nothing", async () => {
  let release;
  const c = client({
    retry: { attempts: 1, baseDelayMs: 1 },
    transport: () => new Promise((r) => (release = r)),
  });
  await assert.rejects(c.checkResult({ seqId: "S1" }), (e) => e.code === "transport" && /no answer within 200 ms/.test(e.message));
  release(answer);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(pb.__debugCounts(), { listeners: 0, waiters: 0, retained: 0 });
});

test("verifyNotification with verify: false resolves and keeps nothing", async () => {
  const o = await pb.verifyNotification("seq_id=S1&order_id=o1&return_code=10200&resp_code=00&resp_info=ok&full_name=A&sign=abc", false);
  assert.equal(o.seqId, "S1");
  assert.deepEqual(pb.__debugCounts(), { listeners: 0, waiters: 0, retained: 0 });
});

test("free() and Symbol.dispose release a client; its methods then reject", async () => {
  const c = client({ transport: answerTo });
  assert.ok(c instanceof pb.AuthClient);
  assert.equal((await c.cardCheck(card)).state, "consistent");
  c.free();
  await assert.rejects(c.cardCheck(card), (e) => e instanceof TypeError && /free\(\)/.test(e.message));
  if (typeof Symbol.dispose == "symbol") {
    const d = client({ transport: async () => answer });
    d[Symbol.dispose]();
    await assert.rejects(d.nameCheck({}), TypeError);
  }
});
