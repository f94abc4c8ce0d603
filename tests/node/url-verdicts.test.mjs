// The two URL checks side by side. Where the runtime has `URL` (pages, Node:
// the browser's payment module and the full module), an internationalized
// host is judged by the platform's own parser; where it has none (the
// mini-program module and its wasm2js build), by the crate's punycode rule.
// Every URL of the hostile corpus and of the plan vectors gets the same
// verdict from both; on internationalized hosts the crate's rule is the
// stricter one: whatever it accepts, the platform accepts too (it never
// passes a URL the browser would refuse), while names it cannot judge
// (Greek, Cyrillic, emoji) pass only where the platform judges them.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const pkg = new URL("../../pkg/", import.meta.url);
const vectors = (f) => JSON.parse(readFileSync(new URL(`../vectors/${f}`, import.meta.url), "utf8"));

let platform; // the full module (Node has URL)
let own; // the mini-program module (the crate's own check)

before(async () => {
  platform = await import("paybridge");
  own = await import("paybridge/miniprogram");
  const W = { instantiate: (path, imports) => WebAssembly.instantiate(readFileSync(new URL(`.${path}`, pkg)), imports) };
  await own.ready({ WebAssembly: W, wasmPath: "/paybridge_mini_bg.wasm" });
});

/** What planning a card-network payment to `url` gives: the action, or the error's code and field. */
function verdict(pb, url, options = {}) {
  try {
    return JSON.stringify(pb.planAction({ pay_channel: "cardnet", expend: { pay_url: url } }, options));
  } catch (e) {
    return `${e.code} ${e.field}`;
  }
}

const optionsOf = (c) => ({ ...(c.allowedHosts ? { allowedHosts: c.allowedHosts } : {}), ...(c.insecureLoopback ? { insecureLoopback: true } : {}) });

function corpusUrls() {
  const out = [];
  for (const c of vectors("hostile-url.json")) out.push([c.url, optionsOf(c)]);
  for (const c of vectors("hostile.json")) {
    for (const u of [c.payment?.pay_info, c.payment?.expend?.pay_url]) if (typeof u === "string") out.push([u, c.options ?? {}]);
  }
  for (const c of vectors("plan.json")) {
    for (const u of [c.payment?.pay_info, c.payment?.expend?.pay_url, c.expect?.url, c.expect?.fallbackUrl]) {
      if (typeof u === "string" && /^https?:/i.test(u)) out.push([u, { ...(c.options?.allowedHosts ? { allowedHosts: c.options.allowedHosts } : {}), ...(c.options?.insecureLoopback ? { insecureLoopback: true } : {}) }]);
    }
  }
  return out;
}

test("every URL of the hostile corpus and the plan vectors gets the same verdict from both checks", () => {
  const urls = corpusUrls();
  assert.ok(urls.length > 250, `${urls.length} URLs`);
  const differ = urls.filter(([u, o]) => verdict(platform, u, o) !== verdict(own, u, o)).map(([u]) => u);
  assert.deepEqual(differ, []);
});

const IDN = {
  // the one encoding of CJK ideographs or Latin-1 letters: both accept
  both: ["https://xn--fiqs8s.example/x", "https://xn--bcher-kva.example/", "https://xn--zca.example/", "https://shop.xn--fiqs8s/", "https://xn--mnchen-3ya.example/p?q=1"],
  // not punycode, or standing for what the URL standard refuses: both refuse
  neither: ["https://xn--fx/", "https://xn--a.example/", "https://xn--.example/", "https://xn--xn--a.example/", "https://xn--abc-.example/"],
  // valid names the crate's rule cannot judge: only the platform accepts
  platformOnly: ["https://xn--nxasmq6b.example/", "https://xn--80ak6aa92e.com/", "https://xn--ls8h.example/", "https://xn---fiqs8s.example/"],
};

test("internationalized hosts: the crate's rule accepts a subset of what the platform accepts, never more", () => {
  for (const u of IDN.both) {
    assert.equal(verdict(own, u), verdict(platform, u), u);
    assert.ok(verdict(own, u).startsWith("{"), `${u}: ${verdict(own, u)}`);
  }
  for (const u of IDN.neither) {
    assert.equal(verdict(own, u), "unsafe_url expend.pay_url", u);
    assert.equal(verdict(platform, u), "unsafe_url expend.pay_url", u);
  }
  for (const u of IDN.platformOnly) {
    assert.equal(verdict(own, u), "unsafe_url expend.pay_url", u);
    assert.ok(verdict(platform, u).startsWith("{"), `${u}: ${verdict(platform, u)}`);
  }
  // allowedHosts applies to the host as parsed, in its ASCII form.
  assert.equal(verdict(platform, "https://xn--fiqs8s.example/", { allowedHosts: ["*.example"] }), "invalid_options allowedHosts[0]");
  assert.ok(verdict(platform, "https://a.xn--fiqs8s.example/", { allowedHosts: ["*.xn--fiqs8s.example"] }).startsWith("{"));
  assert.equal(verdict(platform, "https://xn--80ak6aa92e.com/", { allowedHosts: ["*.example.com"] }), "unsafe_url expend.pay_url");
});
