// The aggregated authentication API of the service document, on 127.0.0.1,
// for the Node tests. Written from the document alone (it shares no code
// with the module, so that it can catch the module's mistakes):
//
// - POST /api/v1/trade/cardcheck and /api/v1/trade/namecheck, form-encoded;
//   GET /api/v1/checkresult (and its v4 form, /api/v4/checkresult) with
//   query parameters; the `env` header.
// - Sandbox signing (www/demo/README.md): `sign` of requests and
//   notifications is the lowercase hex HMAC-SHA256, keyed with the secret,
//   of the non-empty parameters but `sign`, sorted by name, `name=value`
//   joined with `&`; an answer's `signature` is that HMAC over its `data`.
// - The joint-debugging mock: `id_number` starting with 1-7 gives resp_code
//   00, with 8-9 gives 01 (no id_number: 00).
// - A cardcheck with `mer_bg_url` answers 10201, then POSTs the signed
//   notification there after `notifyDelayMs`; checkresult answers 20012
//   until then and 20000 after.
// - 90101 (HTTP 400; the checkresult one without the envelope, as in the
//   document's failure sample), 90102 bad sign, 90103 unknown app_token,
//   90104 an order_id seen before.
// - Fault switches, taken in order by the requests they match:
//   `rateLimit` (90105, nothing recorded), `rateLimitRecorded` (90105 to a
//   check that is recorded all the same: the document does not say which
//   the service does), `paramError` (90101), `unknown` (90199), `fail`
//   (10210/10410; the order is then a failed verification, 20010), `drop`
//   (the request is handled and recorded, then the connection is destroyed
//   instead of answering), `hang` (handled, never answered), `malformed`
//   (a body that is not a service answer), `badSignature`, `noSignature`.
//
// Every request is kept in `log` (method, path, params, headers, fault).
import { createServer } from "node:http";
import { createHmac, timingSafeEqual } from "node:crypto";

export const SANDBOX_TOKEN = "sandbox-app-token-0000000000000000000000";
export const SANDBOX_SECRET = "sandbox-secret";
export const CARD_CHECK = "/api/v1/trade/cardcheck";
export const NAME_CHECK = "/api/v1/trade/namecheck";
export const CHECK_RESULT = "/api/v1/checkresult";
/** The document's other result-query form ("Versioning"), answered the same way. */
export const CHECK_RESULT_V4 = "/api/v4/checkresult";

/** The sandbox's canonical sign string of an object of parameters. */
export function sandboxSignInput(params) {
  return Object.entries(params)
    .filter(([k, v]) => k !== "sign" && v !== "" && v !== undefined && v !== null)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

export function hmacHex(text, secret = SANDBOX_SECRET) {
  return createHmac("sha256", secret).update(text, "utf8").digest("hex");
}

/** Constant-time comparison of two hex signatures. */
export function sameHex(a, b) {
  if (typeof a !== "string" || typeof b !== "string" || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Form-encodes an object (space as %20). */
export function formEncode(params) {
  return Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
}

const FAULTS = new Set(["rateLimit", "rateLimitRecorded", "paramError", "unknown", "fail", "drop", "hang", "malformed", "badSignature", "noSignature"]);

const MESSAGES = {
  10200: "bank-card verification: request succeeded",
  10201: "bank-card verification: request succeeded, asynchronous result awaited",
  10210: "bank-card verification: request failed",
  10400: "ID-card verification: request succeeded",
  10410: "ID-card verification: request failed",
  20000: "result query: request succeeded",
  20010: "result query: verification failed",
  20011: "result query: verification record not found",
  20012: "result query: verification in progress",
  90102: "signature verification error",
  90103: "no permission to use the interface",
  90104: "repeated request",
  90105: "operation too frequent",
  90199: "unknown reason",
};

function today() {
  // The service's date (UTC+8), YYYYMMDD.
  return new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10).replaceAll("-", "");
}

function mockResult(idNumber) {
  const first = (idNumber ?? "")[0];
  if (first >= "8" && first <= "9") return { resp_code: "01", resp_info: "认证不一致", mp_ssim: "42.5" };
  return { resp_code: "00", resp_info: "认证一致", mp_ssim: "85.5" };
}

/**
 * Starts the service on an ephemeral port of 127.0.0.1.
 * Options: `host` (default 127.0.0.1; `::1` for IPv6 loopback), `token`, `secret`, `notifyDelayMs` (default 50), `duplicates`
 * (how many times each notification is POSTed, default 1); all may be
 * changed on `server.options` later.
 */
export async function startAuthServer(options = {}) {
  const opts = { token: SANDBOX_TOKEN, secret: SANDBOX_SECRET, notifyDelayMs: 50, duplicates: 1, ...options };
  const log = [];
  const notifications = [];
  const faults = [];
  const orders = new Map();
  const bySeq = new Map();
  const timers = new Set();
  const hanging = new Set();
  let seq = 0;

  const sign = (text) => hmacHex(text, opts.secret);

  function takeFault(path) {
    const i = faults.findIndex((f) => !f.path || f.path === path);
    return i < 0 ? undefined : faults.splice(i, 1)[0].fault;
  }

  function data(params, code, extra = {}) {
    return {
      return_code: String(code),
      return_message: MESSAGES[code],
      service_date: today(),
      order_date: params.order_date ?? "",
      order_id: params.order_id ?? "",
      ...extra,
    };
  }

  // What the service answers, before faults that change the answer itself.
  function route(method, path, params, headers, fault) {
    const isCheck = path === CARD_CHECK || path === NAME_CHECK;
    if (!(isCheck && method === "POST") && !(path === CHECK_RESULT && method === "GET")) {
      return { status: 404, raw: { return_code: "90101", return_message: `no such interface: ${method} ${path}` } };
    }
    const paramError = (message) =>
      isCheck
        ? { status: 400, data: { return_code: "90101", return_message: message, service_date: today() } }
        : { status: 400, raw: { return_code: "90101", return_message: message } };
    if (fault === "rateLimit") return { status: 200, data: data(params, 90105) };
    if (fault === "paramError") return paramError("parameter check failed (scripted)");
    if (fault === "unknown") return { status: 200, data: data(params, 90199) };
    if (!headers.env) return paramError("the env header is missing");
    for (const name of ["order_date", "order_id", "app_token", "sign"]) {
      if (!params[name]) return paramError(`${name} is missing`);
    }
    if (!/^\d{8}$/.test(params.order_date)) return paramError("order_date must be eight digits");
    if (params.app_token !== opts.token) return { status: 200, data: data(params, 90103) };
    if (!sameHex(sign(sandboxSignInput(params)), params.sign)) return { status: 200, data: data(params, 90102) };

    if (path === CHECK_RESULT) {
      const order = params.seq_id ? bySeq.get(params.seq_id) : orders.get(params.order_id);
      if (!order) return { status: 200, data: data(params, 20011, params.seq_id ? { seq_id: params.seq_id } : {}) };
      const echo = { order_id: order.params.order_id, order_date: order.params.order_date };
      const own = { ...params, ...echo };
      if (order.failed) return { status: 200, data: data(own, 20010, { seq_id: order.seqId }) };
      if (!order.ready) return { status: 200, data: data(own, 20012, { seq_id: order.seqId }) };
      return { status: 200, data: data(own, 20000, { seq_id: order.seqId, ...record(order) }) };
    }

    const required = path === CARD_CHECK ? ["full_name", "acct_no", "source_channel"] : ["full_name", "id_number", "source_channel"];
    for (const name of required) {
      if (!params[name]) return paramError(`${name} is missing`);
    }
    if (orders.has(params.order_id)) return { status: 200, data: data(params, 90104) };
    const order = { path, params, seqId: `SEQ${String(++seq).padStart(8, "0")}`, ready: false, failed: false, ...mockResult(params.id_number) };
    orders.set(params.order_id, order);
    bySeq.set(order.seqId, order);
    const card = path === CARD_CHECK;
    if (fault === "fail") {
      order.failed = true;
      return { status: 200, data: data(params, card ? 10210 : 10410, { seq_id: order.seqId }) };
    }
    if (card && params.mer_bg_url) {
      scheduleNotification(order);
      return { status: 200, data: data(params, 10201, { seq_id: order.seqId }) };
    }
    order.ready = true;
    if (fault === "rateLimitRecorded") return { status: 200, data: data(params, 90105) };
    const answer = { seq_id: order.seqId, resp_code: order.resp_code, resp_info: order.resp_info };
    return { status: 200, data: data(params, card ? 10200 : 10400, answer) };
  }

  function record(order) {
    return {
      resp_code: order.resp_code,
      resp_info: order.resp_info,
      mp_ssim: order.mp_ssim,
      full_name: order.params.full_name,
      id_number: order.params.id_number ?? "",
      file_list: [{ file_id: `F${order.seqId}`, file_type: "00", file_source: "JVS" }],
      face_identify_list: [{ personId: "P1", fileId: `F${order.seqId}`, personName: order.params.full_name, score: order.mp_ssim }],
      authorization_info: order.params.authorization_info ?? "",
      encrypt_method: "none",
    };
  }

  function notificationOf(order) {
    const fields = {
      seq_id: order.seqId,
      order_id: order.params.order_id,
      return_code: "10200",
      return_message: MESSAGES[10200],
      resp_code: order.resp_code,
      resp_info: order.resp_info,
      mp_ssim: order.mp_ssim,
      full_name: order.params.full_name,
      id_number: order.params.id_number ?? "",
      file_list: JSON.stringify([{ file_id: `F${order.seqId}`, file_type: "00", file_source: "JVS" }]),
    };
    return { ...fields, sign: sign(sandboxSignInput(fields)) };
  }

  function scheduleNotification(order) {
    const t = setTimeout(async () => {
      timers.delete(t);
      order.ready = true;
      const body = formEncode(notificationOf(order));
      for (let i = 0; i < opts.duplicates; i++) {
        const sent = { url: order.params.mer_bg_url, body, status: 0 };
        notifications.push(sent);
        try {
          const res = await fetch(sent.url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
          sent.status = res.status;
          sent.answer = await res.text();
        } catch (e) {
          sent.error = String(e);
        }
      }
    }, opts.notifyDelayMs);
    timers.add(t);
  }

  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url, "http://127.0.0.1");
      const body = Buffer.concat(chunks).toString("utf8");
      const params = Object.fromEntries(req.method === "POST" ? new URLSearchParams(body) : url.searchParams);
      const fault = takeFault(url.pathname);
      const entry = { method: req.method, path: url.pathname, params, headers: { ...req.headers }, body, query: url.search.slice(1), fault };
      log.push(entry);
      const out = route(req.method, url.pathname === CHECK_RESULT_V4 ? CHECK_RESULT : url.pathname, params, req.headers, fault);
      entry.answer = out.data ?? out.raw;
      if (fault === "drop") {
        req.socket.destroy();
        return;
      }
      if (fault === "hang") {
        hanging.add(res);
        return;
      }
      let text;
      if (fault === "malformed") {
        text = "<html><body>upstream error</body></html>";
      } else if (out.raw) {
        text = JSON.stringify(out.raw);
      } else {
        const dataText = JSON.stringify(out.data);
        const envelope = { data: dataText, signature: sign(dataText) };
        if (fault === "badSignature") envelope.signature = sign(`${dataText} `);
        if (fault === "noSignature") delete envelope.signature;
        text = JSON.stringify(envelope);
      }
      res.writeHead(out.status, { "content-type": "application/json; charset=utf-8" });
      res.end(text);
    });
  });
  const host = opts.host ?? "127.0.0.1";
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${server.address().port}`;

  return {
    url,
    log,
    notifications,
    options: opts,
    orders,
    /** Queues `fault` for the next `times` requests (to `path`, or any). */
    fault(fault, { path, times = 1 } = {}) {
      if (!FAULTS.has(fault)) throw new Error(`unknown fault ${fault}`);
      for (let i = 0; i < times; i++) faults.push({ fault, path });
    },
    /** Faults queued and not yet taken. */
    pendingFaults: () => faults.length,
    clearFaults: () => faults.splice(0),
    close() {
      for (const t of timers) clearTimeout(t);
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}
