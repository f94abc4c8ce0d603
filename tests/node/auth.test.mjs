// The aggregated authentication client of the built package, in Node 20,
// against a real HTTP server on 127.0.0.1 that follows the service
// document (tests/tools/auth-server.mjs): every return code, both query
// modes, notifications, lost answers, back-off, signatures, validation.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, request as httpRequest } from "node:http";
import { readFileSync } from "node:fs";
import {
  startAuthServer,
  sandboxSignInput,
  hmacHex,
  sameHex,
  SANDBOX_TOKEN,
  CARD_CHECK,
  NAME_CHECK,
  CHECK_RESULT,
} from "../tools/auth-server.mjs";

const pb = await import("paybridge");

// GB 11643 numbers with their real check digits (the first digit picks the
// sandbox's answer: 1-7 consistent, 8-9 inconsistent).
const ID_CONSISTENT = "11010519491231002X";
const ID_CONSISTENT_2 = "440524188001010014";
const ID_INCONSISTENT = "810000199909091234";
const ID_INCONSISTENT_2 = "910000200002294569";
const CARD = "6222021234567890128";

let srv;
let signs = 0;

/** The merchant's signing and checking, with node:crypto. */
const sign = (params) => {
  signs++;
  return hmacHex(pb.signInput(params));
};
const verify = (data, signature) => sameHex(hmacHex(data), signature);

function client(extra = {}) {
  return new pb.AuthClient({
    baseUrl: srv.url,
    appToken: SANDBOX_TOKEN,
    env: "test",
    sign,
    verify,
    retry: { attempts: 3, baseDelayMs: 20 },
    timeoutMs: 3000,
    ...extra,
  });
}

const card = (extra = {}) => ({ full_name: "张三", acct_no: CARD, id_number: ID_CONSISTENT, source_channel: "1", ...extra });
const person = (extra = {}) => ({ full_name: "李四", id_number: ID_CONSISTENT_2, source_channel: "2", ...extra });

/** The requests the server received since `mark` (from `srv.log.length`). */
const since = (mark) => srv.log.slice(mark);
const lines = (entries) => entries.map((e) => `${e.method} ${e.path}`);

async function until(ok, ms = 3000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function rejectsWith(promise, code, check) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof pb.PayError, `not a PayError: ${e}`);
    assert.equal(e.code, code, e.message);
    check?.(e);
    return true;
  });
}

before(async () => {
  srv = await startAuthServer();
});

after(async () => {
  await srv.close();
});

test("the luhn card of these tests is valid and its neighbour is not", () => {
  assert.deepEqual(pb.validateCardCheck(card()), []);
  assert.deepEqual(pb.validateCardCheck(card({ acct_no: "6222021234567890121" })).map((p) => p.code), ["luhn"]);
});

// ------------------------------------------------------------ the requests

test("cardCheck: a form-encoded, signed POST with the env header; 10200 consistent", async () => {
  const mark = srv.log.length;
  const o = await client().cardCheck(card({ mobile_no: "13800138000" }));
  assert.equal(o.state, "consistent");
  assert.equal(o.returnCode, "10200");
  assert.equal(o.respCode, "00");
  assert.equal(o.respInfo, "认证一致");
  assert.match(o.seqId, /^SEQ\d{8}$/);
  assert.match(o.orderId, /^\d{17}[0-9a-f]{16}$/, "a generated order_id");
  assert.match(o.orderDate, /^\d{8}$/);
  assert.equal(o.record, undefined);
  const [req] = since(mark);
  assert.equal(req.method, "POST");
  assert.equal(req.path, CARD_CHECK);
  assert.equal(req.headers["content-type"], "application/x-www-form-urlencoded");
  assert.equal(req.headers.env, "test");
  assert.equal(req.params.app_token, SANDBOX_TOKEN);
  assert.equal(req.params.order_id, o.orderId);
  assert.equal(req.params.order_date, o.orderDate);
  assert.equal(req.params.full_name, "张三");
  assert.equal(req.params.mobile_no, "13800138000");
  // The server's own sign input, written from the sandbox rule, agrees.
  assert.equal(req.params.sign, hmacHex(sandboxSignInput(req.params)));
  assert.ok(req.body.includes("full_name=%E5%BC%A0%E4%B8%89"), req.body);
});

test("cardCheck: id_number 8-9 is inconsistent; two factors; the caller's order_id and order_date are kept", async () => {
  const c = client();
  const bad = await c.cardCheck(card({ id_number: ID_INCONSISTENT }));
  assert.equal(bad.state, "inconsistent");
  assert.equal(bad.respCode, "01");
  const two = await c.cardCheck({ full_name: "王五", acct_no: "4111111111111111", source_channel: "0" });
  assert.equal(two.state, "consistent");
  const mine = await c.cardCheck(card({ order_id: "merchant-order-1", order_date: "20240229" }));
  assert.equal(mine.orderId, "merchant-order-1");
  assert.equal(mine.orderDate, "20240229");
});

test("nameCheck: 10400 consistent and inconsistent", async () => {
  const mark = srv.log.length;
  const c = client();
  const ok = await c.nameCheck(person());
  assert.equal(ok.state, "consistent");
  assert.equal(ok.returnCode, "10400");
  const no = await c.nameCheck(person({ id_number: ID_INCONSISTENT_2 }));
  assert.equal(no.state, "inconsistent");
  assert.equal(no.returnCode, "10400");
  assert.deepEqual(lines(since(mark)), [`POST ${NAME_CHECK}`, `POST ${NAME_CHECK}`]);
});

test("10210 and 10410: call_failed; the failed verification queries as 20010 failed", async () => {
  const c = client();
  srv.fault("fail", { path: CARD_CHECK });
  const cardFailed = await c.cardCheck(card());
  assert.equal(cardFailed.state, "call_failed");
  assert.equal(cardFailed.returnCode, "10210");
  srv.fault("fail", { path: NAME_CHECK });
  const nameFailed = await c.nameCheck(person());
  assert.equal(nameFailed.state, "call_failed");
  assert.equal(nameFailed.returnCode, "10410");
  const q = await c.checkResult({ orderId: cardFailed.orderId, orderDate: cardFailed.orderDate });
  assert.equal(q.state, "failed");
  assert.equal(q.returnCode, "20010");
});

test("checkResult by seqId and by orderId: 20000 with the whole record; 20011 not_found", async () => {
  const c = client();
  const o = await c.cardCheck(card({ authorization_info: "AUTH-1" }));
  const mark = srv.log.length;
  const bySeq = await c.checkResult({ seqId: o.seqId });
  const byOrder = await c.checkResult({ orderId: o.orderId, orderDate: o.orderDate });
  for (const q of [bySeq, byOrder]) {
    assert.equal(q.state, "consistent");
    assert.equal(q.returnCode, "20000");
    assert.equal(q.seqId, o.seqId);
    assert.equal(q.orderId, o.orderId, "the answer's echo names the original order");
    assert.equal(q.score, 85.5);
    assert.equal(q.record.full_name, "张三");
    assert.equal(q.record.authorization_info, "AUTH-1");
    assert.equal(q.record.encrypt_method, "none");
    assert.deepEqual(q.record.file_list, [{ file_id: `F${o.seqId}`, file_type: "00", file_source: "JVS" }]);
    assert.equal(q.record.face_identify_list[0].personName, "张三");
    assert.ok(pb.passesThreshold(q.score));
  }
  const [a, b] = since(mark);
  assert.equal(a.method, "GET");
  assert.equal(a.path, CHECK_RESULT);
  assert.equal(a.params.seq_id, o.seqId);
  assert.notEqual(a.params.order_id, o.orderId, "a query by seq_id has an order_id of its own");
  assert.equal(a.headers.env, "test");
  assert.equal(a.body, "");
  assert.equal(b.params.seq_id, "", "by order_id, seq_id is sent empty");
  assert.ok(b.query.includes("&seq_id=&"), b.query);
  assert.equal(b.params.order_id, o.orderId);
  assert.equal(b.params.order_date, o.orderDate);
  // An outcome can be queried again as it is.
  assert.equal((await c.checkResult(bySeq)).state, "consistent");
  const none = await c.checkResult({ orderId: "never-sent", orderDate: "20240101" });
  assert.equal(none.state, "not_found");
  assert.equal(none.returnCode, "20011");
  assert.equal(none.orderId, "never-sent");
  const noSeq = await c.checkResult({ seqId: "SEQ99999999" });
  assert.equal(noSeq.state, "not_found");
  assert.equal(noSeq.seqId, "SEQ99999999");
});

test("an inconsistent record scores below the threshold", async () => {
  const c = client();
  const o = await c.nameCheck(person({ id_number: ID_INCONSISTENT }));
  const q = await c.checkResult(o);
  assert.equal(q.state, "inconsistent");
  assert.equal(q.score, 42.5);
  assert.equal(pb.passesThreshold(q.score), false);
  assert.equal(pb.passesThreshold(q.score, 40), true);
});

// ------------------------------------------------------ asynchronous results

/** A merchant's notification endpoint on 127.0.0.1, handling each seq_id once. */
async function startInbox() {
  const dedupe = new pb.NotificationLog();
  const received = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      const entry = { body, contentType: req.headers["content-type"] };
      try {
        entry.parsed = pb.parseNotification(body);
        entry.signOk = sameHex(hmacHex(entry.parsed.signInput), entry.parsed.sign);
        entry.outcome = await pb.verifyNotification(body, verify);
        entry.seen = dedupe.seen(entry.outcome.seqId);
        res.end("success");
      } catch (e) {
        entry.error = e;
        res.writeHead(400).end("rejected");
      }
      received.push(entry);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}/notify`,
    received,
    dedupe,
    waitFor: (n) => until(() => received.length >= n, 5000),
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
  };
}

test("10201 pending, 20012 in progress, then the signed notification (twice: the second is a duplicate), then 20000", async () => {
  const inbox = await startInbox();
  srv.options.notifyDelayMs = 300;
  srv.options.duplicates = 2;
  try {
    const c = client();
    const o = await c.cardCheck(card({ mer_bg_url: inbox.url }));
    assert.equal(o.state, "pending");
    assert.equal(o.returnCode, "10201");
    assert.ok(o.seqId);
    const q1 = await c.checkResult({ seqId: o.seqId });
    assert.equal(q1.state, "pending");
    assert.equal(q1.returnCode, "20012");
    const q2 = await c.checkResult({ orderId: o.orderId });
    assert.equal(q2.state, "pending");

    await inbox.waitFor(2);
    const [first, second] = inbox.received;
    assert.equal(first.error, undefined, String(first.error));
    assert.equal(first.contentType, "application/x-www-form-urlencoded");
    assert.ok(first.signOk, "sign matches HMAC-SHA256 of signInput");
    assert.equal(first.outcome.state, "consistent");
    assert.equal(first.outcome.seqId, o.seqId);
    assert.equal(first.outcome.orderId, o.orderId);
    assert.equal(first.outcome.respInfo, "认证一致");
    assert.equal(first.outcome.score, 85.5);
    assert.deepEqual(first.outcome.record.file_list, [{ file_id: `F${o.seqId}`, file_type: "00", file_source: "JVS" }]);
    assert.equal(first.outcome.record.sign, undefined);
    assert.deepEqual(first.parsed.outcome, first.outcome);
    assert.equal(first.seen, "first");
    assert.equal(second.body, first.body);
    assert.equal(second.seen, "duplicate", "the same seq_id is handled once");
    assert.equal(inbox.dedupe.size, 1);
    await until(() => srv.notifications.slice(-2).every((n) => n.status !== 0));
    assert.deepEqual(srv.notifications.slice(-2).map((n) => [n.url, n.status, n.answer]), Array(2).fill([inbox.url, 200, "success"]));

    const q3 = await c.checkResult({ seqId: o.seqId });
    assert.equal(q3.state, "consistent");
    assert.equal(q3.returnCode, "20000");
  } finally {
    srv.options.notifyDelayMs = 50;
    srv.options.duplicates = 1;
    await inbox.close();
  }
});

test("a tampered notification is parsed but rejected with bad_signature", async () => {
  const inbox = await startInbox();
  try {
    const o = await client().cardCheck(card({ mer_bg_url: inbox.url, id_number: ID_INCONSISTENT }));
    await inbox.waitFor(1);
    const genuine = inbox.received[0].body;
    assert.equal(inbox.received[0].outcome.state, "inconsistent");
    const forged = genuine.replace("resp_code=01", "resp_code=00");
    assert.notEqual(forged, genuine);
    assert.equal(pb.parseNotification(forged).outcome.state, "consistent", "parsing alone trusts nothing");
    await rejectsWith(pb.verifyNotification(forged, verify), "bad_signature", (e) => assert.equal(e.field, "sign"));
    // The object a server framework decodes verifies the same way.
    const asObject = Object.fromEntries(new URLSearchParams(genuine));
    assert.equal((await pb.verifyNotification(asObject, verify)).seqId, o.seqId);
    assert.equal((await pb.verifyNotification(JSON.stringify(asObject), async (d, s) => verify(d, s))).orderId, o.orderId);
    await rejectsWith(pb.verifyNotification("seq_id=S&sign=x", verify), "invalid_response", (e) => assert.equal(e.field, "order_id"));
    await rejectsWith(pb.verifyNotification(genuine, "not a function"), "invalid_options");
  } finally {
    await inbox.close();
  }
});

test("awaitResult polls a pending result until it is known, or returns it pending at its time-out", async () => {
  const inbox = await startInbox();
  const c = client();
  try {
    srv.options.notifyDelayMs = 250;
    const o = await c.cardCheck(card({ mer_bg_url: inbox.url }));
    const mark = srv.log.length;
    const done = await c.awaitResult(o, { intervalMs: 40, timeoutMs: 5000 });
    assert.equal(done.state, "consistent");
    assert.equal(done.returnCode, "20000");
    const polls = since(mark);
    assert.ok(polls.length >= 2, `polled ${polls.length} times`);
    assert.ok(polls.every((e) => e.path === CHECK_RESULT && e.params.seq_id === o.seqId));

    srv.options.notifyDelayMs = 60_000;
    const slow = await c.cardCheck(card({ mer_bg_url: inbox.url }));
    const t0 = Date.now();
    const still = await c.awaitResult({ seqId: slow.seqId }, { intervalMs: 30, timeoutMs: 150 });
    assert.equal(still.state, "pending");
    assert.equal(still.returnCode, "20012");
    assert.ok(Date.now() - t0 < 2000);
    await rejectsWith(c.awaitResult(o, { intervalMs: 0 }), "invalid_options", (e) => assert.equal(e.field, "intervalMs"));
    await rejectsWith(c.awaitResult(o, { timeoutMs: -1 }), "invalid_options", (e) => assert.equal(e.field, "timeoutMs"));
    await rejectsWith(c.awaitResult({}), "invalid_request", (e) => assert.equal(e.field, "seqId"));
  } finally {
    srv.options.notifyDelayMs = 50;
    await inbox.close();
  }
});

// ------------------------------------------------------------ lost answers

test("a dropped connection is recovered with checkresult by order_id; the cardcheck is never sent twice", async () => {
  const mark = srv.log.length;
  srv.fault("drop", { path: CARD_CHECK });
  const o = await client().cardCheck(card());
  const sent = since(mark);
  assert.deepEqual(lines(sent), [`POST ${CARD_CHECK}`, `GET ${CHECK_RESULT}`]);
  assert.equal(sent[0].fault, "drop");
  assert.equal(sent[1].params.seq_id, "");
  assert.equal(sent[1].params.order_id, sent[0].params.order_id);
  assert.equal(sent[1].params.order_date, sent[0].params.order_date);
  assert.equal(o.state, "consistent");
  assert.equal(o.returnCode, "20000");
  assert.equal(o.orderId, sent[0].params.order_id);
  assert.ok(o.record);
});

test("a request with no answer within timeoutMs is recovered the same way", async () => {
  const mark = srv.log.length;
  srv.fault("hang", { path: NAME_CHECK });
  const t0 = Date.now();
  const o = await client({ timeoutMs: 200 }).nameCheck(person());
  assert.ok(Date.now() - t0 >= 200);
  assert.deepEqual(lines(since(mark)), [`POST ${NAME_CHECK}`, `GET ${CHECK_RESULT}`]);
  assert.equal(o.state, "consistent");
});

test("when the queries are lost too: transport, naming the order to query later, still one cardcheck", async () => {
  const mark = srv.log.length;
  srv.fault("drop", { path: CARD_CHECK });
  srv.fault("drop", { path: CHECK_RESULT, times: 3 });
  let orderId;
  await rejectsWith(client().cardCheck(card()), "transport", (e) => {
    orderId = since(mark)[0].params.order_id;
    assert.ok(e.message.includes(`checkResult({ orderId: "${orderId}"`), e.message);
    assert.ok(e.message.includes("(last: the request failed"), e.message);
    assert.ok(e.cause instanceof Error, "the last failure is the cause");
  });
  assert.deepEqual(lines(since(mark)), [`POST ${CARD_CHECK}`, `GET ${CHECK_RESULT}`, `GET ${CHECK_RESULT}`, `GET ${CHECK_RESULT}`]);
  // Later, the order's result is there to be asked for.
  assert.equal((await client().checkResult({ orderId })).state, "consistent");
});

// ------------------------------------------------------- 9xxxx and retries

test("90105, not recorded: after a growing delay the result is asked by order_id (none), then the same request goes again", async () => {
  const mark = srv.log.length;
  srv.fault("rateLimit", { path: CARD_CHECK, times: 2 });
  const t0 = Date.now();
  const o = await client({ retry: { attempts: 3, baseDelayMs: 60 } }).cardCheck(card());
  const elapsed = Date.now() - t0;
  assert.equal(o.state, "consistent");
  assert.equal(o.returnCode, "10200");
  const sent = since(mark);
  const [post, get] = [`POST ${CARD_CHECK}`, `GET ${CHECK_RESULT}`];
  assert.deepEqual(lines(sent), [post, get, post, get, post]);
  assert.deepEqual(sent.map((e) => e.fault), ["rateLimit", undefined, "rateLimit", undefined, undefined]);
  const posts = sent.filter((e) => e.method === "POST");
  assert.equal(new Set(posts.map((e) => e.body)).size, 1, "the very same signed request");
  assert.ok(sent.filter((e) => e.method === "GET").every((e) => e.params.order_id === posts[0].params.order_id && !e.params.seq_id));
  assert.ok(elapsed >= 60 + 120, `backed off ${elapsed} ms`);
});

test("90105 to a check the service recorded all the same: its result by order_id, never a 90104 with no result", async () => {
  const mark = srv.log.length;
  srv.fault("rateLimitRecorded", { path: CARD_CHECK });
  const o = await client({ retry: { attempts: 3, baseDelayMs: 10 } }).cardCheck(card());
  assert.equal(o.state, "consistent");
  assert.equal(o.returnCode, "20000");
  assert.deepEqual(lines(since(mark)), [`POST ${CARD_CHECK}`, `GET ${CHECK_RESULT}`]);
});

test("90105 past the retry budget is call_failed with its code", async () => {
  const mark = srv.log.length;
  srv.fault("rateLimit", { path: NAME_CHECK, times: 2 });
  const o = await client({ retry: { attempts: 2, baseDelayMs: 10 } }).nameCheck(person());
  assert.equal(o.state, "call_failed");
  assert.equal(o.returnCode, "90105");
  assert.deepEqual(lines(since(mark)), [`POST ${NAME_CHECK}`, `GET ${CHECK_RESULT}`, `POST ${NAME_CHECK}`]);
});

test("90101: HTTP 400, enveloped for a check and without the envelope for checkresult", async () => {
  const c = client();
  srv.fault("paramError", { path: CARD_CHECK });
  const a = await c.cardCheck(card());
  assert.equal(a.state, "call_failed");
  assert.equal(a.returnCode, "90101");
  assert.equal(a.returnMessage, "parameter check failed (scripted)");
  srv.fault("paramError", { path: CHECK_RESULT });
  const b = await c.checkResult({ seqId: a.seqId ?? "SEQ00000001" });
  assert.equal(b.state, "call_failed");
  assert.equal(b.returnCode, "90101");
  assert.equal(srv.log.at(-1).answer.data, undefined, "the unenveloped sample");
});

test("90102 bad sign, 90103 unknown app_token, 90104 repeated order_id, 90199 unknown", async () => {
  const wrongSign = await client({ sign: () => "0".repeat(64) }).cardCheck(card());
  assert.equal(wrongSign.state, "call_failed");
  assert.equal(wrongSign.returnCode, "90102");
  const otherToken = await client({ appToken: "another-app-token-000000000000000000000000".slice(0, 40) }).nameCheck(person());
  assert.equal(otherToken.returnCode, "90103");
  assert.equal(otherToken.state, "call_failed");
  const c = client();
  const first = await c.cardCheck(card({ order_id: "repeat-me-1" }));
  assert.equal(first.state, "consistent");
  const again = await c.cardCheck(card({ order_id: "repeat-me-1" }));
  assert.equal(again.state, "call_failed");
  assert.equal(again.returnCode, "90104");
  srv.fault("unknown", { path: NAME_CHECK });
  const unknown = await c.nameCheck(person());
  assert.equal(unknown.returnCode, "90199");
  assert.equal(unknown.state, "call_failed");
});

// --------------------------------------------------- signatures and bodies

test("an answer whose signature does not verify is bad_signature; without verify it is not checked", async () => {
  srv.fault("badSignature", { path: CARD_CHECK });
  await rejectsWith(client().cardCheck(card()), "bad_signature", (e) => assert.ok(e.message.includes("order_id"), e.message));
  srv.fault("noSignature", { path: CARD_CHECK });
  await rejectsWith(client().cardCheck(card()), "bad_signature");
  srv.fault("badSignature", { path: CARD_CHECK });
  const unchecked = await client({ verify: undefined }).cardCheck(card());
  assert.equal(unchecked.state, "consistent");
  // An async verify hook, and one that throws.
  assert.equal((await client({ verify: async (d, s) => verify(d, s) }).nameCheck(person())).state, "consistent");
  const boom = new Error("hsm offline");
  await rejectsWith(client({ verify: () => { throw boom; } }).nameCheck(person()), "hook_failed", (e) => {
    assert.equal(e.field, "verify");
    assert.equal(e.cause, boom);
    assert.ok(e.message.includes("hsm offline"));
  });
  await rejectsWith(client({ verify: () => "yes" }).nameCheck(person()), "invalid_options", (e) => assert.equal(e.field, "verify"));
});

test("a body that is not a service answer is invalid_response", async () => {
  srv.fault("malformed", { path: CARD_CHECK });
  await rejectsWith(client().cardCheck(card()), "invalid_response", (e) => assert.ok(e.message.includes("HTTP 200"), e.message));
});

test("the sign hook may answer with a promise; a throw keeps its cause; a non-string is invalid_options", async () => {
  const asyncSign = async (p) => hmacHex(pb.signInput(p));
  assert.equal((await client({ sign: asyncSign }).nameCheck(person())).state, "consistent");
  const boom = new Error("key store locked");
  const mark = srv.log.length;
  await rejectsWith(client({ sign: () => { throw boom; } }).nameCheck(person()), "hook_failed", (e) => {
    assert.equal(e.field, "sign");
    assert.equal(e.cause, boom);
  });
  await rejectsWith(client({ sign: () => Promise.reject(boom) }).nameCheck(person()), "hook_failed", (e) => assert.equal(e.cause, boom));
  await rejectsWith(client({ sign: () => 42 }).nameCheck(person()), "invalid_options", (e) => assert.equal(e.field, "sign"));
  await rejectsWith(client({ sign: () => "" }).nameCheck(person()), "invalid_options", (e) => assert.equal(e.field, "sign"));
  assert.equal(srv.log.length, mark, "nothing unsigned is sent");
  // The hook sees every parameter but sign, as strings.
  let seen;
  await client({ sign: (p) => ((seen = p), hmacHex(pb.signInput(p))) }).nameCheck(person({ imei: "IMEI-1" }));
  assert.deepEqual(Object.keys(seen), ["order_date", "order_id", "app_token", "full_name", "id_number", "source_channel", "imei"]);
  assert.ok(Object.values(seen).every((v) => typeof v === "string"));
});

// ------------------------------------------------------------- validation

test("validation vectors: GB 11643 check digits, Luhn, credit cards, factor sets", () => {
  const codes = (problems) => problems.map((p) => `${p.field}:${p.code}`);
  const two = { full_name: "A", acct_no: "4111111111111111", source_channel: "0" };
  assert.deepEqual(pb.validateCardCheck(two), []);
  assert.deepEqual(pb.validateCardCheck({ ...two, id_number: "11010519491231002x" }), [], "lowercase x");
  assert.deepEqual(pb.validateCardCheck({ ...two, id_number: ID_CONSISTENT_2, mobile_no: "13800138000" }), []);
  assert.deepEqual(codes(pb.validateCardCheck({ ...two, mobile_no: "13800138000" })), ["mobile_no:factors"]);
  for (const id of ["110105194912310021", "440524188001010015", "650102197001010000"]) {
    assert.deepEqual(codes(pb.validateCardCheck({ ...two, id_number: id })), ["id_number:check_digit"], id);
  }
  assert.deepEqual(codes(pb.validateCardCheck({ ...two, id_number: "11010519491231002" })), ["id_number:length"]);
  assert.deepEqual(codes(pb.validateCardCheck({ ...two, id_number: "6501021970010100X0" })), ["id_number:format"]);
  assert.deepEqual(codes(pb.validateCardCheck({ ...two, acct_no: "4111111111111112" })), ["acct_no:luhn"]);
  assert.deepEqual(codes(pb.validateCardCheck({ ...two, acct_no: "4111 1111 1111 1111" })), ["acct_no:format"]);
  assert.deepEqual(codes(pb.validateCardCheck({ ...two, acct_no: "41111111" })), ["acct_no:length"]);
  assert.deepEqual(codes(pb.validateCardCheck({ ...two, card_type: "C" })), ["valid_date:required", "cvv2:required"]);
  assert.deepEqual(codes(pb.validateCardCheck({ ...two, card_type: "C", valid_date: "1327", cvv2: "123" })), ["valid_date:format"]);
  assert.deepEqual(pb.validateCardCheck({ ...two, card_type: "C", valid_date: "1227", cvv2: "123" }), []);
  assert.deepEqual(pb.validateCardCheck({ ...two, card_type: "D" }), [], "a debit card needs neither");
  assert.deepEqual(codes(pb.validateCardCheck({ ...two, source_channel: "3", acct_type: "X" })), ["source_channel:enum", "acct_type:enum"]);
  assert.deepEqual(codes(pb.validateCardCheck({ ...two, mer_bg_url: "ftp://x" })), ["mer_bg_url:format"]);
  assert.deepEqual(codes(pb.validateCardCheck({ ...two, acct_no: 4111111111111111 })), ["acct_no:type"]);
  assert.deepEqual(codes(pb.validateCardCheck({ ...two, sign: "x" })), ["sign:reserved"]);
  assert.deepEqual(codes(pb.validateNameCheck({ full_name: "A", source_channel: "0" })), ["id_number:required"]);
  assert.deepEqual(pb.validateNameCheck({ full_name: "A", id_number: ID_INCONSISTENT, source_channel: "0" }), []);
  assert.deepEqual(codes(pb.validateNameCheck("text")), ["fields:type"]);
  for (const p of pb.validateCardCheck({})) {
    assert.equal(typeof p.message, "string");
    assert.ok(p.message.includes(p.field), p.message);
  }
});

test("an invalid request is rejected with every problem and never signed or sent", async () => {
  const mark = srv.log.length;
  const signed = signs;
  const c = client();
  await rejectsWith(c.cardCheck({ full_name: "A", acct_no: "4111111111111112", source_channel: "0", card_type: "C" }), "invalid_request", (e) => {
    assert.deepEqual(e.details.map((p) => p.field), ["acct_no", "valid_date", "cvv2"]);
    assert.equal(e.field, undefined);
    assert.ok(e.message.endsWith("(and 2 more problems)"), e.message);
  });
  await rejectsWith(c.nameCheck({ full_name: "A", id_number: "110105194912310021", source_channel: "0" }), "invalid_request", (e) => {
    assert.equal(e.field, "id_number");
    assert.equal(e.details.length, 1);
  });
  const cyclic = { full_name: "A" };
  cyclic.self = cyclic;
  await rejectsWith(c.cardCheck(cyclic), "invalid_request");
  await rejectsWith(c.checkResult({ orderDate: "2024" }), "invalid_request");
  assert.equal(srv.log.length, mark);
  assert.equal(signs, signed);
});

// -------------------------------------------------------------- transports

/** A mini-program style request API (callbacks, `header`, `statusCode`, JSON already decoded). */
function miniProgramRequest({ url, method, header, data, timeout, success, fail }) {
  const req = httpRequest(url, { method, headers: header, timeout }, (res) => {
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (c) => (text += c));
    res.on("end", () => {
      let decoded = text;
      try {
        decoded = JSON.parse(text);
      } catch {}
      success({ statusCode: res.statusCode, data: decoded, header: res.headers });
    });
  });
  req.on("timeout", () => req.destroy(new Error("request:fail timeout")));
  req.on("error", (e) => fail({ errMsg: `request:fail ${e.message}` }));
  if (data !== undefined) req.write(data);
  req.end();
}

test("a custom transport (a mini-program's request API) carries every call; fetch is not touched", async () => {
  const seen = [];
  const transport = (req) =>
    new Promise((resolve, reject) => {
      seen.push(req);
      miniProgramRequest({
        url: req.url,
        method: req.method,
        header: req.headers,
        data: req.body,
        timeout: req.timeoutMs,
        success: (r) => resolve({ status: r.statusCode, body: r.data }),
        fail: (e) => reject(new Error(e.errMsg)),
      });
    });
  const realFetch = globalThis.fetch;
  globalThis.fetch = () => {
    throw new Error("fetch must not be used");
  };
  try {
    const c = client({ transport, timeoutMs: 4000 });
    const o = await c.cardCheck(card());
    assert.equal(o.state, "consistent");
    const q = await c.checkResult(o);
    assert.equal(q.state, "consistent", "a JSON body decoded by the request API still verifies");
    assert.deepEqual(Object.keys(seen[0]).sort(), ["body", "headers", "method", "timeoutMs", "url"]);
    assert.equal(seen[0].method, "POST");
    assert.equal(seen[0].url, `${srv.url}${CARD_CHECK}`);
    assert.deepEqual(seen[0].headers, { "content-type": "application/x-www-form-urlencoded", env: "test" });
    assert.equal(seen[0].timeoutMs, 4000);
    assert.equal(seen[1].method, "GET");
    assert.ok(seen[1].url.startsWith(`${srv.url}${CHECK_RESULT}?order_date=`), seen[1].url);
    assert.equal(seen[1].body, undefined);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test("a transport that throws counts as no answer; one that resolves nonsense is invalid_options", async () => {
  const offline = new Error("offline");
  let calls = 0;
  await rejectsWith(client({ transport: () => { calls++; throw offline; } }).nameCheck(person()), "transport", (e) => {
    assert.equal(e.cause, offline);
    assert.ok(e.message.includes("the transport function threw: offline"), e.message);
  });
  assert.equal(calls, 1 + 3, "one check, then three result queries, never the check again");
  await rejectsWith(client({ transport: async () => ({ statusCode: 200 }) }).nameCheck(person()), "invalid_options", (e) =>
    assert.equal(e.field, "transport"),
  );
});

test("without fetch and without transport a call rejects with transport, asking for a transport", async () => {
  const realFetch = globalThis.fetch;
  delete globalThis.fetch;
  const mark = srv.log.length;
  const signed = signs;
  try {
    await rejectsWith(client().cardCheck(card()), "transport", (e) => {
      assert.equal(e.field, "transport");
      assert.ok(e.message.includes("pass transport"), e.message);
    });
  } finally {
    globalThis.fetch = realFetch;
  }
  assert.equal(srv.log.length, mark);
  assert.equal(signs, signed, "not even signed");
});

// ------------------------------------------------------------- the options

test("the constructor checks every option and names it", () => {
  const good = { baseUrl: "https://auth.example.com/", appToken: SANDBOX_TOKEN, env: "test", sign, verify };
  assert.ok(new pb.AuthClient(good) instanceof pb.AuthClient);
  assert.ok(new pb.AuthClient({ ...good, verify: false, transport: undefined, retry: { attempts: 10, baseDelayMs: 0 }, timeoutMs: 1 }));
  const cases = [
    [undefined, "options"],
    ["https://auth.example.com", "options"],
    [{ ...good, baseUrl: undefined }, "baseUrl"],
    [{ ...good, baseUrl: "auth.example.com" }, "baseUrl"],
    [{ ...good, baseUrl: "/api" }, "baseUrl"],
    [{ ...good, baseUrl: "ftp://auth.example.com" }, "baseUrl"],
    [{ ...good, baseUrl: "https://user:pw@auth.example.com" }, "baseUrl"],
    [{ ...good, baseUrl: "https://auth.example.com/?x=1" }, "baseUrl"],
    [{ ...good, baseUrl: "https://auth example.com" }, "baseUrl"],
    [{ ...good, appToken: "short" }, "appToken"],
    [{ ...good, appToken: 42 }, "appToken"],
    [{ ...good, env: undefined }, "env"],
    [{ ...good, env: "" }, "env"],
    [{ ...good, sign: undefined }, "sign"],
    [{ ...good, sign: "hmac" }, "sign"],
    [{ ...good, verify: true }, "verify"],
    [{ ...good, verify: undefined }, "verify"],
    [{ ...good, verify: null }, "verify"],
    [{ ...good, paths: { checkResult: "v4/checkresult" } }, "paths.checkResult"],
    [{ ...good, encrypt: "aes" }, "encrypt"],
    [{ ...good, transport: {} }, "transport"],
    [{ ...good, retry: 3 }, "retry"],
    [{ ...good, retry: { attempts: 1.5 } }, "retry.attempts"],
    [{ ...good, retry: { attempts: 0 } }, "retry.attempts"],
    [{ ...good, retry: { attempts: "3" } }, "retry.attempts"],
    [{ ...good, retry: { baseDelayMs: -1 } }, "retry.baseDelayMs"],
    [{ ...good, retry: { baseDelayMs: 100000 } }, "retry.baseDelayMs"],
    [{ ...good, timeoutMs: 0 }, "timeoutMs"],
    [{ ...good, timeoutMs: Infinity }, "timeoutMs"],
  ];
  for (const [options, field] of cases) {
    assert.throws(
      () => new pb.AuthClient(options),
      (e) => {
        assert.ok(e instanceof pb.PayError, `${field}: ${e}`);
        assert.equal(e.code, "invalid_options", e.message);
        assert.equal(e.field, field, e.message);
        assert.ok(e.message.startsWith(field), e.message);
        return true;
      },
      field,
    );
  }
});

test("a construction before the module is loaded throws not_ready, and the guard keeps instanceof", async () => {
  // A fresh copy of the shim's shared module, never linked to an instance.
  const fresh = await import(`${new URL("../../www/lib/shared.js", import.meta.url)}?unlinked`);
  class Probe {}
  const Guarded = fresh.guardClass("Probe", Probe);
  assert.throws(() => new Guarded(), (e) => e instanceof fresh.PayError && e.code === "not_ready" && e.message.includes("new Probe()"));
  const c = new pb.AuthClient({ baseUrl: srv.url, appToken: SANDBOX_TOKEN, env: "test", sign });
  assert.ok(c instanceof pb.AuthClient);
  assert.equal(typeof c.cardCheck, "function");
  const log = new pb.NotificationLog(2);
  assert.ok(log instanceof pb.NotificationLog);
});

// ------------------------------------------------------ the sync helpers

test("signInput is the sandbox's canonical string", () => {
  const params = { order_id: "o&1=x", sign: "zz", app_token: SANDBOX_TOKEN, seq_id: "", full_name: "张 三", b: "2", a: "1" };
  assert.equal(pb.signInput(params), sandboxSignInput(params));
  assert.equal(pb.signInput(params), `a=1&app_token=${SANDBOX_TOKEN}&b=2&full_name=张 三&order_id=o&1=x`);
  assert.equal(pb.signInput({}), "");
  assert.equal(pb.signInput({ a: null, b: undefined, c: "3" }), "c=3");
  assert.throws(() => pb.signInput({ a: 1 }), (e) => e.code === "invalid_options" && e.field === "params.a");
  assert.throws(() => pb.signInput("a=1"), (e) => e.code === "invalid_options" && e.field === "params");
});

test("decodeEnvelope reads the envelope, the unenveloped failure, and refuses the rest", () => {
  const dataText = JSON.stringify({ return_code: "10200", resp_code: "00", order_id: "o1", order_date: "20240101" });
  const e = pb.decodeEnvelope(JSON.stringify({ data: dataText, signature: hmacHex(dataText) }));
  assert.equal(e.returnCode, "10200");
  assert.equal(e.dataText, dataText);
  assert.deepEqual(e.data, JSON.parse(dataText));
  assert.ok(verify(e.dataText, e.signature));
  const bare = pb.decodeEnvelope('{"return_code":"90101","return_message":"order_id missing"}', 400);
  assert.equal(bare.returnCode, "90101");
  assert.equal(bare.signature, undefined);
  assert.equal(bare.data.return_message, "order_id missing");
  for (const body of ["", "<html>", "[]", '{"data":"{nope"}', '{"signature":"x"}']) {
    assert.throws(() => pb.decodeEnvelope(body), (x) => x.code === "invalid_response", body);
  }
  assert.throws(() => pb.decodeEnvelope({}), (x) => x.code === "invalid_response" && x.field === "body");
  assert.throws(() => pb.decodeEnvelope("{}", 99), (x) => x.code === "invalid_options" && x.field === "status");
});

test("parseNotification reads form text, JSON text and objects alike", () => {
  const fields = { seq_id: "S1", order_id: "o1", return_code: "10200", resp_code: "01", resp_info: "不一致 x", full_name: "A", mp_ssim: "59.5" };
  const form = new URLSearchParams({ ...fields, sign: hmacHex(sandboxSignInput(fields)) }).toString();
  const a = pb.parseNotification(form);
  assert.equal(a.signInput, sandboxSignInput(fields));
  assert.ok(verify(a.signInput, a.sign));
  assert.equal(a.outcome.state, "inconsistent");
  assert.equal(a.outcome.score, 59.5);
  assert.equal("orderDate" in a.outcome, false, "no order_date, no orderDate");
  const b = pb.parseNotification(Object.fromEntries(new URLSearchParams(form)));
  const c = pb.parseNotification(JSON.stringify(Object.fromEntries(new URLSearchParams(form))));
  assert.deepEqual(b, a);
  assert.deepEqual(c, a);
  assert.throws(() => pb.parseNotification("seq_id=S1&order_id=o1&return_code=10200"), (e) => e.code === "invalid_response" && e.field === "sign");
  assert.throws(() => pb.parseNotification(42), (e) => e.code === "invalid_response");
});

test("passesThreshold: greater than the threshold (60 by default)", () => {
  assert.equal(pb.passesThreshold(60.5), true);
  assert.equal(pb.passesThreshold(60), false);
  assert.equal(pb.passesThreshold(59.9), false);
  assert.equal(pb.passesThreshold(50, 40), true);
  assert.equal(pb.passesThreshold("85.5"), true);
  assert.equal(pb.passesThreshold("n/a"), false);
  assert.equal(pb.passesThreshold(undefined), false);
  assert.equal(pb.passesThreshold(NaN, 0), false);
  assert.throws(() => pb.passesThreshold(70, "60"), (e) => e.code === "invalid_options" && e.field === "threshold");
  assert.throws(() => pb.passesThreshold({}), (e) => e.code === "invalid_options" && e.field === "score");
});

test("NotificationLog remembers a bounded number of seq_ids", () => {
  const log = new pb.NotificationLog(2);
  assert.equal(log.seen("S1"), "first");
  assert.equal(log.seen("S1"), "duplicate");
  assert.equal(log.seen("S2"), "first");
  assert.equal(log.seen("S3"), "first");
  assert.equal(log.size, 2);
  assert.equal(log.seen("S1"), "first", "the oldest was forgotten");
  assert.equal(log.forget("S3"), true);
  assert.equal(log.forget("S3"), false);
  assert.equal(log.seen("S3"), "first");
  for (const bad of ["", 5, undefined, "x".repeat(257)]) {
    assert.throws(() => log.seen(bad), (e) => e.code === "invalid_options" && e.field === "seqId");
  }
  assert.throws(() => new pb.NotificationLog(0), (e) => e.code === "invalid_options" && e.field === "capacity");
  assert.equal(new pb.NotificationLog().size, 0);
});

test("Node's entry, with the generated glue inside, never names window, fetch or import.meta", () => {
  const glue = readFileSync(new URL("../../pkg/node.cjs", import.meta.url), "utf8");
  for (const word of [/\bwindow\b/, /\bfetch\b/, /import\.meta/]) {
    assert.doesNotMatch(glue, word);
  }
});

test("notifications out of order and replayed: each verification recorded once, with its own result", async () => {
  const inbox = await startInbox();
  try {
    const a = await client().cardCheck(card({ mer_bg_url: inbox.url, id_number: ID_CONSISTENT_2 }));
    const b = await client().cardCheck(card({ mer_bg_url: inbox.url, id_number: ID_INCONSISTENT }));
    assert.equal(a.state, "pending");
    assert.equal(b.state, "pending");
    await inbox.waitFor(2);
    const bodies = inbox.received.map((r) => r.body);
    // A merchant handler: verify, then handle each seq_id once.
    const log = new pb.NotificationLog();
    const records = new Map();
    const handle = async (body) => {
      const o = await pb.verifyNotification(body, verify);
      if (log.seen(o.seqId) === "duplicate") return "duplicate";
      records.set(o.seqId, o.state);
      return "handled";
    };
    // Newest first, then the oldest, then both again.
    const order = [bodies[1], bodies[0], bodies[1], bodies[0]];
    const answers = [];
    for (const body of order) answers.push(await handle(body));
    assert.deepEqual(answers, ["handled", "handled", "duplicate", "duplicate"]);
    const bySeq = Object.fromEntries(records);
    assert.equal(bySeq[a.seqId], "consistent");
    assert.equal(bySeq[b.seqId], "inconsistent");
    assert.equal(records.size, 2);
  } finally {
    await inbox.close();
  }
});

test("a sign or verify hook that never answers ends the call after timeoutMs, never hangs it", async () => {
  const mark = srv.log.length;
  const t0 = Date.now();
  await rejectsWith(client({ sign: () => new Promise(() => {}), timeoutMs: 200 }).nameCheck(person()), "hook_failed", (e) => {
    assert.equal(e.field, "sign");
    assert.match(e.message, /did not answer within 200 ms/);
  });
  assert.ok(Date.now() - t0 < 2000);
  assert.deepEqual(since(mark), [], "nothing unsigned was sent");
  await rejectsWith(client({ verify: () => new Promise(() => {}), timeoutMs: 200 }).nameCheck(person()), "hook_failed", (e) => {
    assert.equal(e.field, "verify");
  });
});

test("hooks that answer after their time-out, many at once: each call fails as a PayError, and the late answers land in no-ops", async () => {
  const unhandled = [];
  const onUnhandled = (e) => unhandled.push(String(e?.message ?? e));
  process.on("unhandledRejection", onUnhandled);
  try {
    const body = JSON.stringify({ data: JSON.stringify({ return_code: "10200", resp_code: "00", order_id: "x" }), signature: "s" });
    const late = () => new Promise((r) => setTimeout(() => r(true), 300));
    const c = new pb.AuthClient({
      baseUrl: "http://x.invalid",
      appToken: SANDBOX_TOKEN,
      env: "test",
      sign: () => "s",
      verify: late,
      timeoutMs: 5,
      transport: async () => ({ status: 200, body }),
    });
    // More than any bounded set of kept callbacks would hold.
    const codes = await Promise.all(Array.from({ length: 40 }, () => c.nameCheck(person()).then(() => "resolved", (e) => (e instanceof pb.PayError ? e.code : String(e)))));
    assert.equal(new Set(codes).size, 1, codes.join());
    assert.notEqual(codes[0], "resolved");
    await new Promise((r) => setTimeout(r, 500)); // every late answer has come
    assert.deepEqual(unhandled, []);
    assert.equal(pb.__debugCounts().retained, 0);
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
});

test("a field named __proto__ or constructor is kept in what sign gets and in what is sent; an id_number's x is sent as X", async () => {
  const signed = [];
  const bodies = [];
  const c = client({
    sign: (p) => (signed.push(p), "s".repeat(64)),
    transport: async (req) => (bodies.push(req.body ?? ""), { status: 400, body: "not an answer" }),
    retry: { attempts: 1, baseDelayMs: 1 },
  });
  const fields = JSON.parse(
    `{"full_name":"张三","acct_no":"${CARD}","id_number":"${ID_CONSISTENT.toLowerCase()}","source_channel":"1","__proto__":"p1","constructor":"c1"}`,
  );
  await c.cardCheck(fields).catch(() => {});
  const p = signed[0];
  assert.equal(Object.getPrototypeOf(p), Object.prototype, "the object's prototype is untouched");
  assert.equal(Object.getOwnPropertyDescriptor(p, "__proto__")?.value, "p1");
  assert.equal(Object.getOwnPropertyDescriptor(p, "constructor")?.value, "c1");
  assert.ok(Object.keys(p).includes("__proto__"));
  assert.equal(p.id_number, ID_CONSISTENT, "the check character as the standard writes it");
  const sent = new URLSearchParams(bodies[0]);
  assert.equal(sent.get("__proto__"), "p1");
  assert.equal(sent.get("constructor"), "c1");
  assert.equal(sent.get("id_number"), ID_CONSISTENT);
});

test("a function or Symbol field value is invalid_request naming the field as a type problem, not missing", async () => {
  const sent = [];
  const c = client({ transport: async (req) => (sent.push(req), { status: 500, body: "" }) });
  await rejectsWith(c.cardCheck(card({ full_name: () => "张三" })), "invalid_request", (e) => {
    assert.equal(e.field, "full_name");
    assert.deepEqual(e.details.map((d) => [d.field, d.code]), [["full_name", "type"]]);
    assert.match(e.message, /full_name must be a string, not a function/);
  });
  await rejectsWith(c.nameCheck(person({ source_channel: Symbol("2"), id_number: "1" })), "invalid_request", (e) => {
    assert.equal(e.field, undefined, "two problems: no one field");
    assert.deepEqual(e.details.map((d) => `${d.field} ${d.code}`).sort(), ["id_number length", "source_channel type"]);
  });
  assert.deepEqual(sent, [], "nothing was sent");
  assert.deepEqual(pb.validateCardCheck(card({ acct_no: function () {} })).map((d) => [d.field, d.code]), [["acct_no", "type"]]);
  assert.deepEqual(pb.validateNameCheck(person({ full_name: Symbol.iterator })).map((d) => [d.field, d.code]), [["full_name", "type"]]);
});

test("a notification without order_date has no orderDate in its outcome (never an empty one)", () => {
  const without = pb.parseNotification("seq_id=S1&order_id=o1&return_code=10200&resp_code=00&resp_info=ok&full_name=A&sign=abc").outcome;
  assert.equal("orderDate" in without, false);
  const withDate = pb.parseNotification("seq_id=S1&order_id=o1&order_date=20240102&return_code=10200&resp_code=00&resp_info=ok&full_name=A&sign=abc").outcome;
  assert.equal(withDate.orderDate, "20240102");
});
