// The authentication client's rules of the service document, in Node 20:
// return codes read by their structure for the interface called, the
// `paths` option (the v4 result-query form against a server on
// 127.0.0.1), the fail-closed `verify` rule (answers and notifications),
// `encrypt` for cvv2, plain objects out of answer data whatever its keys,
// `serviceDate` and the list items of a record.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startAuthServer, hmacHex, sameHex, formEncode, SANDBOX_TOKEN, CHECK_RESULT, CHECK_RESULT_V4, CARD_CHECK } from "../tools/auth-server.mjs";

const pb = await import("paybridge");

const CARD = "6222021234567890128";
const ID = "11010519491231002X";
const sign = (params) => hmacHex(pb.signInput(params));
const verify = (data, signature) => sameHex(hmacHex(data), signature);
const card = (extra = {}) => ({ full_name: "张三", acct_no: CARD, id_number: ID, source_channel: "1", ...extra });
const credit = (extra = {}) => card({ acct_no: "4111111111111111", card_type: "C", valid_date: "1229", cvv2: "123", ...extra });
const person = () => ({ full_name: "李四", id_number: ID, source_channel: "2" });

let srv;
before(async () => {
  srv = await startAuthServer();
});
after(async () => {
  await srv.close();
});

/** A client of a remote service answered by `reply(req)` (unsigned unless `reply` signs), recording each request. */
function remote(reply, extra = {}) {
  const sent = [];
  const client = new pb.AuthClient({
    baseUrl: "https://auth.example.com",
    appToken: SANDBOX_TOKEN,
    env: "test",
    sign,
    verify: false,
    transport: async (req) => {
      sent.push(req);
      return reply(req);
    },
    ...extra,
  });
  return { client, sent };
}

/** An answer whose `data` is `fields`, echoing the request's order, unsigned. */
function answer(req, fields, text) {
  const params = new URLSearchParams(req.body ?? new URL(req.url).search);
  const data = text ?? JSON.stringify({ order_id: params.get("order_id"), order_date: params.get("order_date"), service_date: "20240102", ...fields });
  return { status: 200, body: JSON.stringify({ data }) };
}

async function rejectsWith(promise, code, field) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof pb.PayError, String(e));
    assert.equal(e.code, code, e.message);
    if (field) assert.equal(e.field, field, e.message);
    return true;
  });
}

function throwsWith(f, code, field) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof pb.PayError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.field, field, e.message);
    assert.ok(e.message.startsWith(field), e.message);
    return true;
  });
}

// ------------------------------------------------------------ return codes

test("codes by structure: xxx00-xxx09 of the interface and 90000-90009 are success, the state from resp_code", async () => {
  for (const [method, fields, code, resp, state] of [
    ["cardCheck", card(), "10202", "00", "consistent"],
    ["cardCheck", card(), "10209", "01", "inconsistent"],
    ["cardCheck", card(), "90000", "00", "consistent"],
    ["nameCheck", person(), "10405", "01", "inconsistent"],
    ["nameCheck", person(), "90009", "99", "exception"],
    ["checkResult", { seqId: "S1" }, "20003", "00", "consistent"],
    ["checkResult", { seqId: "S1" }, "90001", "01", "inconsistent"],
    ["cardCheck", card(), "10211", "00", "call_failed"],
    ["checkResult", { seqId: "S1" }, "20099", "00", "call_failed"],
    ["nameCheck", person(), "90010", "00", "call_failed"],
    ["checkResult", { seqId: "S1" }, "20011", undefined, "not_found"],
    ["checkResult", { seqId: "S1" }, "20010", undefined, "failed"],
    ["checkResult", { seqId: "S1" }, "20012", undefined, "pending"],
    ["cardCheck", card(), "10201", undefined, "pending"],
  ]) {
    const { client } = remote((req) => answer(req, { return_code: code, resp_code: resp }));
    const o = await client[method](fields);
    assert.equal(o.state, state, `${code} to ${method}`);
    assert.equal(o.returnCode, code);
    assert.equal(o.message, undefined, `${code}: ${o.message}`);
  }
});

test("another interface's code is call_failed, its message naming both interfaces", async () => {
  for (const [method, fields, code, ours, theirs] of [
    ["nameCheck", person(), "10200", "104", "102"],
    ["nameCheck", person(), "10201", "104", "102"],
    ["cardCheck", card(), "10400", "102", "104"],
    ["cardCheck", card(), "20000", "102", "200"],
    ["checkResult", { seqId: "S1" }, "10200", "200", "102"],
  ]) {
    const { client } = remote((req) => answer(req, { return_code: code, resp_code: "00" }));
    const o = await client[method](fields);
    assert.equal(o.state, "call_failed", `${code} to ${method}`);
    assert.match(o.message, new RegExp(`return_code ${code} is a code of interface ${theirs} .*not of interface ${ours} `));
  }
});

// ------------------------------------------------------------ paths

test("paths: the v4 result-query form against the server; every interface where the caller says", async () => {
  const c = new pb.AuthClient({ baseUrl: srv.url, appToken: SANDBOX_TOKEN, env: "test", sign, verify, paths: { checkResult: CHECK_RESULT_V4 } });
  const o = await c.cardCheck(card());
  const mark = srv.log.length;
  const q = await c.checkResult({ seqId: o.seqId });
  assert.equal(q.state, "consistent");
  assert.equal(q.returnCode, "20000");
  assert.deepEqual(srv.log.slice(mark).map((e) => `${e.method} ${e.path}`), [`GET ${CHECK_RESULT_V4}`]);
  assert.equal(srv.log.at(-2).path, CARD_CHECK, "the other paths keep their defaults");

  const { client, sent } = remote((req) => answer(req, { return_code: req.method === "GET" ? "20000" : req.url.includes("card") ? "10200" : "10400" }), {
    baseUrl: "https://gw.example.com/auth/",
    paths: { cardCheck: "/v4/card", nameCheck: "/v4/name", checkResult: "/api/v4/checkresult" },
  });
  await client.cardCheck(card());
  await client.nameCheck(person());
  await client.checkResult({ seqId: "S1" });
  assert.deepEqual(sent.map((r) => new URL(r.url).pathname), ["/auth/v4/card", "/auth/v4/name", "/auth/api/v4/checkresult"]);
  assert.notEqual(CHECK_RESULT, CHECK_RESULT_V4);
});

test("paths: anything but an absolute path under baseUrl is invalid_options naming paths.<name>", () => {
  const good = { baseUrl: srv.url, appToken: SANDBOX_TOKEN, env: "test", sign };
  for (const [paths, field] of [
    [{ checkResult: "api/v4/checkresult" }, "paths.checkResult"],
    [{ checkResult: "https://evil.example/api/v4/checkresult" }, "paths.checkResult"],
    [{ cardCheck: "//evil.example/x" }, "paths.cardCheck"],
    [{ nameCheck: "/api/v4/namecheck?x=1" }, "paths.nameCheck"],
    [{ nameCheck: "/api/v4/namecheck#f" }, "paths.nameCheck"],
    [{ cardCheck: "/api/v4/card check" }, "paths.cardCheck"],
    [{ cardCheck: "/api/../admin" }, "paths.cardCheck"],
    [{ checkResult: 4 }, "paths.checkResult"],
    [{ checkresult: "/api/v4/checkresult" }, "paths.checkresult"],
    ["/api/v4", "paths"],
  ]) {
    throwsWith(() => new pb.AuthClient({ ...good, paths }), "invalid_options", field);
  }
  assert.ok(new pb.AuthClient({ ...good, paths: { checkResult: "/api/v4/checkresult", cardCheck: undefined } }));
});

// ------------------------------------------------------------ fail closed

test("fail closed: a remote baseUrl needs verify (or verify: false); loopback does not", async () => {
  const remoteOptions = { baseUrl: "https://auth.example.com", appToken: SANDBOX_TOKEN, env: "test", sign };
  throwsWith(() => new pb.AuthClient(remoteOptions), "invalid_options", "verify");
  throwsWith(() => new pb.AuthClient({ ...remoteOptions, verify: null }), "invalid_options", "verify");
  throwsWith(() => new pb.AuthClient({ ...remoteOptions, baseUrl: "http://10.0.0.1:8080" }), "invalid_options", "verify");
  throwsWith(() => new pb.AuthClient({ ...remoteOptions, verify: "yes" }), "invalid_options", "verify");
  assert.ok(new pb.AuthClient({ ...remoteOptions, verify }));
  // verify: false accepts an unsigned answer, knowingly.
  const { client } = remote((req) => answer(req, { return_code: "10200", resp_code: "00" }));
  assert.equal((await client.cardCheck(card())).state, "consistent");
  // The sandbox on loopback works without verify.
  for (const baseUrl of [srv.url, srv.url.replace("127.0.0.1", "localhost")]) {
    assert.ok(new pb.AuthClient({ ...remoteOptions, baseUrl }));
  }
  const local = new pb.AuthClient({ ...remoteOptions, baseUrl: srv.url });
  assert.equal((await local.nameCheck(person())).state, "consistent");
});

test("fail closed for notifications: verifyNotification needs verify, or false to accept one unchecked knowingly", async () => {
  const fields = { seq_id: "S9", order_id: "o9", return_code: "10200", resp_code: "00", resp_info: "ok", full_name: "A", service_date: "20240103" };
  const body = formEncode({ ...fields, sign: hmacHex(pb.signInput(fields)) });
  await rejectsWith(pb.verifyNotification(body), "invalid_options", "verify");
  await rejectsWith(pb.verifyNotification(body, null), "invalid_options", "verify");
  const o = await pb.verifyNotification(body, false);
  assert.equal(o.state, "consistent");
  assert.equal(o.serviceDate, "20240103");
  await rejectsWith(pb.verifyNotification(body.replace("resp_code=00", "resp_code=01"), verify), "bad_signature", "sign");
});

// ------------------------------------------------------------ encrypt

test("cvv2 without encrypt to a remote baseUrl is invalid_options (encrypt): nothing signed, nothing sent", async () => {
  let signed = 0;
  const { client, sent } = remote(() => assert.fail("nothing may be sent"), { sign: (p) => (signed++, sign(p)) });
  await rejectsWith(client.cardCheck(credit()), "invalid_options", "encrypt");
  assert.equal(sent.length, 0);
  assert.equal(signed, 0);
});

test("encrypt(field, value) is applied to cvv2 before signing; loopback takes cvv2 as typed without it", async () => {
  const calls = [];
  const encrypt = async (field, value) => {
    calls.push([field, value]);
    return `enc:${Buffer.from(value).toString("base64")}`;
  };
  const c = new pb.AuthClient({ baseUrl: srv.url, appToken: SANDBOX_TOKEN, env: "test", sign, verify, encrypt });
  const o = await c.cardCheck(credit());
  assert.equal(o.state, "consistent", "the server's sign check passed over the encrypted value");
  assert.deepEqual(calls, [["cvv2", "123"]]);
  const req = srv.log.at(-1);
  assert.equal(req.params.cvv2, "enc:MTIz");
  assert.ok(!req.body.includes("cvv2=123"), req.body);
  await c.cardCheck(card());
  assert.equal(calls.length, 1, "no cvv2, no call");

  for (const [bad, why] of [[() => 7, "not a string"], [() => "", "empty"], [() => { throw new Error("no key"); }, "threw"]]) {
    const mark = srv.log.length;
    const e = new pb.AuthClient({ baseUrl: srv.url, appToken: SANDBOX_TOKEN, env: "test", sign, encrypt: bad });
    await assert.rejects(e.cardCheck(credit()), (x) => x instanceof pb.PayError && x.field === "encrypt", why);
    assert.equal(srv.log.length, mark, `${why}: nothing sent`);
  }
  throwsWith(() => new pb.AuthClient({ baseUrl: srv.url, appToken: SANDBOX_TOKEN, env: "test", sign, encrypt: "aes" }), "invalid_options", "encrypt");

  const plain = new pb.AuthClient({ baseUrl: srv.url, appToken: SANDBOX_TOKEN, env: "test", sign });
  assert.equal((await plain.cardCheck(credit())).state, "consistent");
  assert.equal(srv.log.at(-1).params.cvv2, "123");
});

// ------------------------------------------------------------ plain objects

const HOSTILE = '{"return_code":"20000","resp_code":"00","resp_info":"ok","full_name":"A","service_date":"20240101","seq_id":"S1","order_id":"o1","order_date":"20240101","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"file_list":[{"file_id":"f","file_type":"00","file_source":"JVS","__proto__":{"polluted":true}}]}';

function assertPlain(o, where) {
  assert.equal(Object.getPrototypeOf(o), Object.prototype, `${where}: prototype`);
  assert.equal(o.polluted, undefined, `${where}: no inherited data`);
}

test("answer data with __proto__ and constructor keys: own data properties, prototypes untouched (JSON)", async () => {
  const { client } = remote(() => ({ status: 200, body: JSON.stringify({ data: HOSTILE }) }));
  const o = await client.checkResult({ seqId: "S1" });
  for (const [v, where] of [[o, "outcome"], [o.record, "record"], [o.record.file_list[0], "file_list[0]"]]) assertPlain(v, where);
  assert.ok(Object.hasOwn(o.record, "__proto__"));
  assert.deepEqual(Object.getOwnPropertyDescriptor(o.record, "__proto__").value, JSON.parse('{"polluted":true}'));
  assert.ok(Object.hasOwn(o.record, "constructor"));
  assert.ok(Object.hasOwn(o.record.file_list[0], "__proto__"));
  const env = pb.decodeEnvelope(JSON.stringify({ data: HOSTILE, signature: "s" }));
  assertPlain(env.data, "decodeEnvelope data");
  assert.ok(Object.hasOwn(env.data, "__proto__"));
  const n = pb.parseNotification(`${HOSTILE.slice(0, -1)},"sign":"x"}`);
  assertPlain(n.outcome.record, "notification record");
  assertPlain(n.outcome.record.file_list[0], "notification list item");
  assert.equal({}.polluted, undefined);
});

test("notification form bodies with __proto__ and constructor fields: own data properties", async () => {
  const fields = { seq_id: "S2", order_id: "o2", return_code: "10200", resp_code: "00", resp_info: "ok", full_name: "A", ["__proto__"]: "x", constructor: "y", file_list: '[{"file_id":"f","file_type":"00","file_source":"JVS","__proto__":{"polluted":true}}]' };
  const entries = Object.entries(fields);
  entries.push(["__proto__", "x"]);
  const body = entries.filter(([k]) => k !== "__proto__").concat([["__proto__", "x"]]).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&") + `&sign=s`;
  const n = pb.parseNotification(body);
  const r = n.outcome.record;
  assertPlain(r, "record");
  assert.equal(Object.getOwnPropertyDescriptor(r, "__proto__")?.value, "x");
  assert.equal(Object.getOwnPropertyDescriptor(r, "constructor")?.value, "y");
  assertPlain(r.file_list[0], "list item");
  assert.ok(Object.hasOwn(r.file_list[0], "__proto__"));
  const o = await pb.verifyNotification(body, false);
  assertPlain(o.record, "verified record");
});

// ------------------------------------------------------------ the smaller rows

test("serviceDate is in every outcome; a list item missing a field is reported in problems, not thrown", async () => {
  const c = new pb.AuthClient({ baseUrl: srv.url, appToken: SANDBOX_TOKEN, env: "test", sign, verify });
  const o = await c.cardCheck(card());
  assert.match(o.serviceDate, /^\d{8}$/);
  const q = await c.checkResult(o);
  assert.match(q.serviceDate, /^\d{8}$/);
  assert.equal(q.problems, undefined, "complete items: no problems");

  const data = JSON.stringify({
    return_code: "20000", resp_code: "00", seq_id: "S1", order_id: "o1", order_date: "20240104", service_date: "20240105",
    file_list: [{ file_id: "f", file_type: "00" }, { file_id: "g", file_type: "01", file_source: "JVS" }],
    face_identify_list: [{ personId: "p", fileId: "f", personName: "n", score: 80 }],
  });
  const { client } = remote(() => ({ status: 200, body: JSON.stringify({ data }) }));
  const r = await client.checkResult({ seqId: "S1" });
  assert.equal(r.state, "consistent");
  assert.equal(r.serviceDate, "20240105");
  assert.deepEqual(r.problems.map((p) => [p.field, p.code]), [
    ["record.file_list[0].file_source", "required"],
    ["record.face_identify_list[0].score", "type"],
  ]);
  assert.match(r.problems[0].message, /^record\.file_list\[0\]\.file_source is missing/);
  assert.equal(r.record.file_list[0].file_id, "f", "the item is kept as it came");
});

// ------------------------------------------------------------ round 2

test("paths with an encoded dot segment or slash are invalid_options; every accepted one stays under baseUrl for new URL()", () => {
  const base = "https://gw.example.com/auth";
  const opts = (checkResult) => ({ baseUrl: base, appToken: SANDBOX_TOKEN, env: "test", sign, verify: false, paths: { checkResult } });
  for (const bad of ["/api/%2e%2e/%2e%2e/admin/checkresult", "/api/.%2E/x", "/api/%2E/x", "/%2F%2Fevil.example/x", "/a%5cb"]) {
    throwsWith(() => new pb.AuthClient(opts(bad)), "invalid_options", "paths.checkResult");
  }
  const parts = ["", ".", "..", "%2e", "%2E", "%2e%2e", ".%2e", "%2f", "a", "%2e%2e%2e"];
  for (const a of parts) {
    for (const b of parts) {
      const path = `/${a}/${b}/checkresult`;
      let ok = true;
      try {
        new pb.AuthClient(opts(path)).free();
      } catch {
        ok = false;
      }
      if (ok) assert.ok(new URL(base + path).pathname.startsWith("/auth/"), path);
    }
  }
});

test("a client of http://[::1]:port needs no verify and reaches the service there", async (t) => {
  let v6;
  try {
    v6 = await startAuthServer({ host: "::1" });
  } catch {
    t.skip("this machine has no IPv6 loopback");
    return;
  }
  try {
    const c = new pb.AuthClient({ baseUrl: v6.url, appToken: SANDBOX_TOKEN, env: "test", sign });
    assert.equal((await c.nameCheck(person())).state, "consistent");
    assert.equal(v6.log.length, 1);
  } finally {
    await v6.close();
  }
});

test("[::1] is a loopback baseUrl (no verify needed); no other IPv6 address is", () => {
  const o = { appToken: SANDBOX_TOKEN, env: "test", sign };
  assert.ok(new pb.AuthClient({ ...o, baseUrl: "http://[::1]:18700" }));
  for (const baseUrl of ["http://[::2]:18700", "http://[fe80::1]"]) {
    throwsWith(() => new pb.AuthClient({ ...o, baseUrl }), "invalid_options", "baseUrl");
  }
});

test("the result query's bare unsigned 20010/20011 are failed/not_found with a verify hook; other unsigned answers stay bad_signature", async () => {
  const bare = (body) => remote(() => ({ status: 400, body: JSON.stringify(body) }), { verify }).client;
  const q = { orderId: "o-1", orderDate: "20240101" };
  assert.equal((await bare({ return_code: "20011", return_message: "no record" }).checkResult(q)).state, "not_found");
  assert.equal((await bare({ return_code: "20010", return_message: "failed" }).checkResult(q)).state, "failed");
  for (const body of [{ return_code: "20000", resp_code: "00", service_date: "20240101" }, { return_code: "20012" }, { return_code: "20011", resp_code: "00" }]) {
    await rejectsWith(bare(body).checkResult(q), "bad_signature");
  }
});

test("service_date missing, or another order_date echoed, is invalid_response; a notification's result needs resp_info and full_name", async () => {
  const { client } = remote((req) => answer(req, {}, JSON.stringify({ return_code: "10200", resp_code: "00" })));
  await rejectsWith(client.cardCheck(card()), "invalid_response", "service_date");
  const other = remote((req) => answer(req, { return_code: "10200", resp_code: "00", order_date: "19990101" })).client;
  await rejectsWith(other.cardCheck(card({ order_date: "20240101" })), "invalid_response", "order_date");
  assert.throws(() => pb.parseNotification("seq_id=S&order_id=o&return_code=10200&resp_code=00&resp_info=ok&sign=x"), (e) => e.code === "invalid_response" && e.field === "full_name");
});

test("mp_ssim outside 0-100 or not a number is in problems; passesThreshold reads text and refuses scores outside 0-100", async () => {
  const { client } = remote((req) => answer(req, { return_code: "20000", resp_code: "00", mp_ssim: "150" }));
  const o = await client.checkResult({ orderId: "o-1", orderDate: "20240101" });
  assert.equal(o.score, undefined);
  assert.deepEqual(o.problems.map((p) => [p.field, p.code]), [["mp_ssim", "range"]]);
  for (const [score, passes] of [[150, false], ["150", false], ["60.5", true], [60.5, true], [100, true], [-1, false], ["abc", false]]) {
    assert.equal(pb.passesThreshold(score), passes, String(score));
  }
});

test("strict: false checks the document's formats only; the default also checks Luhn, birth date and check digit", async () => {
  const f = card({ acct_no: "6222021234567890123", id_number: "800000000000000000" });
  assert.deepEqual(pb.validateCardCheck(f).map((p) => [p.field, p.code]), [["acct_no", "luhn"], ["id_number", "format"]]);
  assert.deepEqual(pb.validateCardCheck(f, { strict: false }), []);
  assert.deepEqual(pb.validateNameCheck({ ...person(), id_number: "80000000000000000" }, { strict: false }).map((p) => p.code), ["length"]);
  const strict = remote(() => assert.fail("nothing may be sent"));
  await rejectsWith(strict.client.cardCheck(f), "invalid_request");
  const lax = remote((req) => answer(req, { return_code: "10200", resp_code: "01" }), { strict: false });
  assert.equal((await lax.client.cardCheck(f)).state, "inconsistent");
  assert.equal(new URLSearchParams(lax.sent[0].body).get("id_number"), "800000000000000000");
  throwsWith(() => new pb.AuthClient({ baseUrl: srv.url, appToken: SANDBOX_TOKEN, env: "test", sign, strict: "no" }), "invalid_options", "strict");
});

test("a throwing, rejecting or late encrypt hook is hook_failed naming it, with what it threw as the cause", async () => {
  const boom = new Error("no key");
  const mk = (encrypt) => new pb.AuthClient({ baseUrl: srv.url, appToken: SANDBOX_TOKEN, env: "test", sign, encrypt, timeoutMs: 100 });
  for (const encrypt of [() => { throw boom; }, () => Promise.reject(boom)]) {
    await assert.rejects(mk(encrypt).cardCheck(credit()), (e) => e.code === "hook_failed" && e.field === "encrypt" && e.cause === boom);
  }
  await assert.rejects(mk(() => new Promise(() => {})).cardCheck(credit()), (e) => e.code === "hook_failed" && /did not answer within 100 ms/.test(e.message));
});

test("a result without the envelope's required echoes is invalid_response, and a notification needs resp_code", async () => {
  // "order_id | String | Y | Echo of the order number", "order_date | String | Y | Echo of the request date".
  for (const left of ["order_id", "order_date"]) {
    const { client } = remote((req) => {
      const sent = new URLSearchParams(req.body);
      const d = { return_code: "10200", resp_code: "00", service_date: "20240105", order_id: sent.get("order_id"), order_date: sent.get("order_date") };
      delete d[left];
      return { status: 200, body: JSON.stringify({ data: JSON.stringify(d) }) };
    });
    await assert.rejects(client.cardCheck(card()), (e) => {
      assert.equal(e.code, "invalid_response");
      assert.equal(e.field, left);
      assert.match(e.message, new RegExp(`^${left} is missing from the answer for order_id `));
      return true;
    });
  }
  // "resp_code (Y)" of the asynchronous result: without it the result is not taken (never a made-up exception).
  assert.throws(
    () => pb.parseNotification("seq_id=S1&order_id=o1&return_code=10200&resp_info=ok&full_name=A&sign=abc"),
    (e) => e.code === "invalid_response" && e.field === "resp_code",
  );
});
