// Writes the seed corpus of every fuzz target from the shared vectors
// (tests/vectors/*.json) plus a few well-formed inputs, so that fuzzing
// starts from the shapes that matter. Inputs with several texts separate
// them with NUL (see tests/fuzz/src/lib.rs). Files are named by their
// SHA-1, as libFuzzer names its own, so running this again adds nothing.
//
//   node tests/fuzz/seed.mjs [corpus-dir]   (default tests/fuzz/corpus)
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const vectors = join(here, "../vectors");
const out = process.argv[2] ?? join(here, "corpus");
const load = (f) => JSON.parse(readFileSync(join(vectors, f), "utf8"));
const all = readdirSync(vectors)
  .filter((f) => f.endsWith(".json"))
  .flatMap((f) => load(f).map((c) => ({ kind: f === "plan.json" ? "plan" : "payment", ...c })));

const seeds = { plan: [], safe_url: [], auth_url: [], auth_callback: [], envelope: [], notification: [], json: [] };
const text = (v) => (typeof v === "string" ? v : JSON.stringify(v));
const join0 = (...parts) => parts.join("\0");
const status = (n, body) => Buffer.concat([Buffer.from([n & 255, n >> 8]), Buffer.from(body)]);
const urls = new Set([
  "https://pay.example.com/cashier?trade=T1&sign=a%2Bb%3D#frag",
  "https://1.2.3.4:8443/x",
  "https://xn--fiqs8s.example/x",
  "http://127.0.0.1:8080/cashier",
  "http://localhost/cb",
]);

for (const c of all) {
  const options = c.options === undefined ? "" : JSON.stringify(c.options);
  switch (c.kind) {
    case "plan":
    case "payment":
    case "options":
      seeds.plan.push(join0(JSON.stringify(c.payment), options));
      seeds.json.push(JSON.stringify(c.payment));
      for (const u of [c.payment?.pay_info, c.payment?.expend?.pay_url]) if (typeof u === "string") urls.add(u);
      break;
    case "url": {
      urls.add(c.url);
      const opts = { allowedHosts: c.allowedHosts, insecureLoopback: c.insecureLoopback };
      seeds.plan.push(join0(JSON.stringify({ pay_channel: "cardnet", expend: { pay_url: c.url } }), JSON.stringify(opts)));
      if (c.allowedHosts) seeds.safe_url.push(join0(c.insecureLoopback ? "1" : "", c.allowedHosts.join(","), c.url));
      break;
    }
    case "callback":
      seeds.auth_callback.push(join0(c.url, c.expectedState ?? ""));
      break;
    case "auth_url": {
      const which = { wallet1AuthUrl: "\u0000", wallet2AuthUrl: "\u0001", cardnetAuthUrl: "\u0002" }[c.builder];
      seeds.auth_url.push(join0(which, JSON.stringify(c.params), c.options === undefined ? "" : JSON.stringify(c.options)));
      break;
    }
    case "envelope":
      seeds.envelope.push(status(c.status, c.body));
      seeds.json.push(c.body);
      break;
    case "notification":
      seeds.notification.push(text(c.body));
      break;
  }
}

for (const u of urls) {
  seeds.safe_url.push(join0("", "", u), join0("1", "", u), join0("", "pay.example.com,*.cardnet.example", u));
}

// Well-formed inputs: the paths past every check.
const state = "abcdefgh";
seeds.auth_url.push(
  join0("\u0000", JSON.stringify({ appId: "2021000", redirectUri: "https://shop.example/cb?x=1", scopes: ["auth_user", "auth_base"], state })),
  join0("\u0001", JSON.stringify({ appId: "wx123", redirectUri: "https://shop.example/cb", scope: "snsapi_base", state })),
  join0("\u0002", JSON.stringify({ redirectUrl: "http://127.0.0.1:8080/cb" }), JSON.stringify({ insecureLoopback: true })),
  join0("\u0002", JSON.stringify({ redirectUrl: "https://shop.example/cb" }), JSON.stringify({ profile: { cardnet: { authUrl: "https://c.example/a?x=1#top" } } })),
);
seeds.auth_callback.push(
  join0("https://shop.example/cb?app_id=2021&scope=auth_base&auth_code=ac1&state=abcdefgh", state),
  join0("https://shop.example/cb?code=a+b&state=abcdefgh", state),
  join0("https://shop.example/#/cb?code=a+b&state=abcdefgh", state, "1700000000123.5"),
  join0("/cb?respCode=00&userAuthCode=u%20x&state=abcdefgh", state),
  join0("HTTP://127.0.0.1:8080/cb?respCode=00&userAuthCode=u", ""),
);
const data = JSON.stringify({ return_code: "10200", resp_code: "00", resp_info: "ok", seq_id: "S1", order_id: "o1", order_date: "20240101", mp_ssim: "88.5" });
seeds.envelope.push(
  status(200, JSON.stringify({ data, signature: "abc" })),
  status(200, JSON.stringify({ data: JSON.parse(data), signature: "" })),
  status(400, '{"return_code":"90101","return_message":"order_id missing"}'),
  status(400, '\ufeff{"return_code":90105}'),
);
const form = "seq_id=S1&order_id=o1&return_code=10200&resp_code=00&resp_info=%E4%B8%80%E8%87%B4+ok&mp_ssim=88.5&file_list=%5B%7B%22file_id%22%3A%22f1%22%2C%22file_type%22%3A%2200%22%2C%22file_source%22%3A%22JVS%22%7D%5D&sign=abc";
seeds.notification.push(form, JSON.stringify({ seq_id: "S1", order_id: "o1", return_code: "10200", mp_ssim: 61, face_identify_list: [{ personId: "p", fileId: "f", personName: "n", score: "70" }], sign: "abc" }));
seeds.json.push(data, '{"a":[1,-2.5e-3,1E+21,true,false,null,"\\u00e9\\ud83d\\ude00\\n"]}', "0.1", "-0", "123456789012345678901234567890");

let written = 0;
for (const [target, list] of Object.entries(seeds)) {
  const dir = join(out, target);
  mkdirSync(dir, { recursive: true });
  for (const s of list) {
    const bytes = Buffer.isBuffer(s) ? s : Buffer.from(s);
    writeFileSync(join(dir, createHash("sha1").update(bytes).digest("hex")), bytes);
    written++;
  }
}
console.log(`seeded ${written} inputs for ${Object.keys(seeds).length} targets in ${out}`);
