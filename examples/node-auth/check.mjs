// The aggregated authentication API from a Node back end: a bank-card
// check, an ID-card check and the result query, each signed and each
// answer's signature checked, against the sandbox of `make demo`.
//
//   SANDBOX_URL=http://127.0.0.1:8080 node check.mjs
//
// The sandbox's credentials and signing rule are its own (the service
// document gives neither; /work/shared/API.md, "The sandbox"): `sign` is
// the lowercase hex HMAC-SHA256, keyed with the secret, of the non-empty
// parameters but `sign`, sorted, `name=value` joined with `&` (what
// `signInput(params)` writes), and each answer's `signature` is the same
// HMAC over its `data` text. Against the real service, put its app_token
// and key in the environment and check answers with its certificate.
import { createHmac, timingSafeEqual } from "node:crypto";
import { AuthClient, PayError, signInput, validateCardCheck } from "paybridge";

const baseUrl = process.env.SANDBOX_URL ?? "http://127.0.0.1:8080";
const appToken = process.env.APP_TOKEN ?? "sandbox-app-token-0000000000000000000000";
const secret = process.env.SECRET ?? "sandbox-secret";

const hmac = (text) => createHmac("sha256", secret).update(text, "utf8").digest("hex");

/** Signs a request's parameters (the client calls it for every request). */
const sign = (params) => hmac(signInput(params));

/** Checks an answer's `signature` over its `data` text, in constant time. */
const verify = (data, signature) => {
  const want = Buffer.from(hmac(data), "hex");
  const got = Buffer.from(String(signature), "hex");
  return got.length === want.length && timingSafeEqual(got, want);
};

const client = new AuthClient({ baseUrl, appToken, env: "test", sign, verify, timeoutMs: 10_000 });

// The sandbox's rule: an ID number starting with 1-7 is consistent, 8-9 not.
const cardFields = {
  full_name: "张三",
  acct_no: "6222021234567890128",
  id_number: "11010519491231002X",
  source_channel: "1",
};
const nameFields = { full_name: "李四", id_number: "810000199909091234", source_channel: "2" };

function show(what, o) {
  console.log(JSON.stringify({ what, state: o.state, returnCode: o.returnCode, respCode: o.respCode, orderId: o.orderId }));
}

try {
  // Checked before anything is sent: every problem, each naming its field.
  console.log(JSON.stringify({ what: "validate", problems: validateCardCheck({ ...cardFields, acct_no: "6222021234567890127" }) }));

  const card = await client.cardCheck(cardFields);
  show("cardCheck", card);
  show("nameCheck", await client.nameCheck(nameFields));
  // The source of truth for an order: the result query, by order_id.
  show("checkResult", await client.checkResult({ orderId: card.orderId, orderDate: card.orderDate }));

  // A request signed with another key: the service refuses it (90102).
  const otherKey = (params) => createHmac("sha256", "not-the-secret").update(signInput(params)).digest("hex");
  const wrong = new AuthClient({ baseUrl, appToken, env: "test", sign: otherKey, verify });
  show("wrongKey", await wrong.cardCheck(cardFields));
  wrong.free();
} catch (e) {
  if (e instanceof PayError) console.error(`PayError ${e.code}${e.field ? ` (${e.field})` : ""}: ${e.message}`);
  else console.error(e);
  process.exitCode = 1;
} finally {
  client.free();
}
