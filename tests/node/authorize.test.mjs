// The authorization helpers through the built package in Node: golden
// addresses (the strings of tests/authorize_vectors.rs), round trips through
// a simulated provider redirect, state checks, the five-minute card-network
// boundary, hostile callbacks, newState, the server-side exchanges, and
// cardnetPay against a stand-in `location`.
import { test } from "node:test";
import assert from "node:assert/strict";

const pb = await import("paybridge");

const STATE = "st-ABC_123.xyz~";
const NOW = 1_700_000_000_000;
const TTL = 300_000;

/** Asserts that `f` throws a PayError with `code` and `field`. */
function throwsPay(f, code, field, name) {
  assert.throws(
    f,
    (e) => {
      assert.ok(e instanceof pb.PayError, `${name}: not a PayError: ${e}`);
      assert.equal(e.code, code, `${name}: ${e.message}`);
      assert.equal(e.field, field, `${name}: ${e.message}`);
      assert.ok(e.message.startsWith(field), `${name}: the message names the field: ${e.message}`);
      return true;
    },
    name,
  );
}

/** What a provider does: read the redirect address out of the authorization
 * address and send the user there with `extra` added to its query. */
function providerRedirect(authUrl, key, extra) {
  const target = new URL(authUrl).searchParams.get(key);
  const back = new URL(target);
  for (const [k, v] of extra) back.searchParams.append(k, v);
  return back.href;
}

const keysOf = (u) => [...new URL(u).searchParams.keys()];

// ---------------------------------------------------------------- builders

test("wallet1AuthUrl golden addresses", () => {
  assert.equal(
    pb.wallet1AuthUrl({
      appId: "2021000123",
      redirectUri: "https://shop.example/auth/cb?next=/pay&a=b=c#frag",
      scopes: ["auth_user", "auth_base"],
      state: STATE,
    }),
    "https://auth.wallet1.example/oauth2/publicAppAuthorize.htm?app_id=2021000123&scope=auth_user%2Cauth_base&redirect_uri=https%3A%2F%2Fshop.example%2Fauth%2Fcb%3Fnext%3D%2Fpay%26a%3Db%3Dc%23frag&state=st-ABC_123.xyz~",
  );
  // Spaces and non-ASCII arrive percent-encoded and are encoded once more.
  assert.equal(
    pb.wallet1AuthUrl({ appId: "2021000123", redirectUri: "https://shop.example/cb?q=a+b%20c&name=%E4%B8%AD", scopes: "auth_base", state: "abcdefgh" }),
    "https://auth.wallet1.example/oauth2/publicAppAuthorize.htm?app_id=2021000123&scope=auth_base&redirect_uri=https%3A%2F%2Fshop.example%2Fcb%3Fq%3Da%2Bb%2520c%26name%3D%25E4%25B8%25AD&state=abcdefgh",
  );
});

test("wallet2AuthUrl golden addresses, profile address and fragment", () => {
  const p = { appId: "wx0123456789abcdef", redirectUri: "https://shop.example/pay/cb?order=A&B#/x y", scope: "snsapi_base", state: STATE };
  throwsPay(() => pb.wallet2AuthUrl(p), "unsafe_url", "redirectUri", "a raw space");
  p.redirectUri = "https://shop.example/pay/cb?order=A&B#/x%20y";
  assert.equal(
    pb.wallet2AuthUrl(p),
    "https://open.wallet2.example/connect/oauth2/authorize?appid=wx0123456789abcdef&redirect_uri=https%3A%2F%2Fshop.example%2Fpay%2Fcb%3Forder%3DA%26B%23%2Fx%2520y&response_type=code&scope=snsapi_base&state=st-ABC_123.xyz~&connect_redirect=1#wallet2_redirect",
  );
  const o = { profile: { wallet2: { authorizeUrl: "https://auth.w2.example/oauth?lang=zh_CN", redirectFragment: "#w2_redirect" } } };
  assert.equal(
    pb.wallet2AuthUrl(p, o),
    "https://auth.w2.example/oauth?lang=zh_CN&appid=wx0123456789abcdef&redirect_uri=https%3A%2F%2Fshop.example%2Fpay%2Fcb%3Forder%3DA%26B%23%2Fx%2520y&response_type=code&scope=snsapi_base&state=st-ABC_123.xyz~&connect_redirect=1#w2_redirect",
  );
  assert.equal(pb.wallet2AuthUrl(p).split("#")[1], pb.defaultProfile().wallet2.redirectFragment.replace(/^#/, ""));
});

test("cardnetAuthUrl golden addresses", () => {
  assert.equal(
    pb.cardnetAuthUrl({ redirectUrl: "https://shop.example/cardnet/cb?state=st-ABC_123.xyz~&n=%E4%B8%AD+1&x=#top" }),
    "https://open.cardnet.example/oauth/authorize?version=1.0.0&redirectUrl=https%3A%2F%2Fshop.example%2Fcardnet%2Fcb%3Fstate%3Dst-ABC_123.xyz~%26n%3D%25E4%25B8%25AD%2B1%26x%3D%23top",
  );
  assert.equal(
    pb.cardnetAuthUrl({ redirectUrl: "https://s.example/" }, { profile: { cardnet: { authUrl: "https://h5.cardnet.example/auth?" } } }),
    "https://h5.cardnet.example/auth?version=1.0.0&redirectUrl=https%3A%2F%2Fs.example%2F",
  );
  assert.equal(
    pb.cardnetAuthUrl({ redirectUrl: "https://s.example/cb" }, { profile: { cardnet: { authUrl: "https://c.example/auth?x=1#top" } } }),
    "https://c.example/auth?x=1&version=1.0.0&redirectUrl=https%3A%2F%2Fs.example%2Fcb#top",
  );
});

test("loopback redirect addresses only with insecureLoopback", () => {
  throwsPay(() => pb.cardnetAuthUrl({ redirectUrl: "http://127.0.0.1:8080/cb" }), "unsafe_url", "redirectUrl", "no option");
  assert.equal(
    pb.cardnetAuthUrl({ redirectUrl: "http://127.0.0.1:8080/cb" }, { insecureLoopback: true }),
    "https://open.cardnet.example/oauth/authorize?version=1.0.0&redirectUrl=http%3A%2F%2F127.0.0.1%3A8080%2Fcb",
  );
  const w1 = { appId: "2021", redirectUri: "http://localhost:8080/cb", scopes: ["auth_base"], state: "abcdefgh" };
  assert.ok(pb.wallet1AuthUrl(w1, { insecureLoopback: true }).startsWith("https://auth.wallet1.example/"));
  throwsPay(() => pb.wallet1AuthUrl({ ...w1, redirectUri: "http://evil.example/cb" }, { insecureLoopback: true }), "unsafe_url", "redirectUri", "http elsewhere");
});

test("one options object with insecureLoopback and a loopback provider address serves the builders, planAction and pay alike", async () => {
  const opts = { profile: { cardnet: { authUrl: "http://127.0.0.1:8080/sim/cardnet/authorize" } }, insecureLoopback: true };
  assert.ok(pb.cardnetAuthUrl({ redirectUrl: "http://127.0.0.1:8080/cb" }, opts).startsWith("http://127.0.0.1:8080/sim/cardnet/authorize?"));
  const payment = { pay_channel: "cardnet", expend: { pay_url: "http://127.0.0.1:8080/pay" } };
  assert.equal(pb.planAction(payment, opts).kind, "redirect");
  // Node has no location to navigate: pay() gets past the options to that.
  await assert.rejects(pb.pay(payment, opts), (e) => e instanceof pb.PayError && e.code === "wrong_runtime");
  const { insecureLoopback, ...strict } = opts;
  assert.equal(insecureLoopback, true);
  throwsPay(() => pb.planAction(payment, strict), "invalid_options", "profile.cardnet.authUrl", "without the option");
});

test("builders name the bad field", () => {
  const w1 = { appId: "2021", redirectUri: "https://s.example/cb", scopes: ["auth_user"], state: "abcdefgh" };
  const w2 = { appId: "wx1", redirectUri: "https://s.example/cb", scope: "snsapi_base", state: "abcdefgh" };
  const cases = [
    [pb.wallet1AuthUrl, {}, "invalid_options", "appId"],
    [pb.wallet1AuthUrl, { ...w1, appId: "a&b" }, "invalid_options", "appId"],
    [pb.wallet1AuthUrl, { ...w1, appId: 7 }, "invalid_options", "appId"],
    [pb.wallet1AuthUrl, { ...w1, scopes: ["auth_user,auth_base"] }, "invalid_options", "scopes"],
    [pb.wallet1AuthUrl, { ...w1, scopes: ["snsapi_base"] }, "invalid_options", "scopes"],
    [pb.wallet1AuthUrl, { ...w1, scopes: [] }, "invalid_options", "scopes"],
    [pb.wallet1AuthUrl, { ...w1, state: null }, "invalid_options", "state"],
    [pb.wallet1AuthUrl, { ...w1, state: undefined }, "invalid_options", "state"],
    [pb.wallet1AuthUrl, { ...w1, state: "short" }, "invalid_options", "state"],
    [pb.wallet1AuthUrl, { ...w1, state: "has space in it" }, "invalid_options", "state"],
    [pb.wallet1AuthUrl, { ...w1, state: "abcd&efgh" }, "invalid_options", "state"],
    [pb.wallet1AuthUrl, { ...w1, state: "abcdéfgh" }, "invalid_options", "state"],
    [pb.wallet1AuthUrl, { ...w1, redirectUri: null }, "unsafe_url", "redirectUri"],
    [pb.wallet1AuthUrl, { ...w1, redirectUri: 5 }, "unsafe_url", "redirectUri"],
    [pb.wallet1AuthUrl, { ...w1, redirectUri: "javascript:alert(1)" }, "unsafe_url", "redirectUri"],
    [pb.wallet1AuthUrl, { ...w1, redirectUri: "https://user@s.example/" }, "unsafe_url", "redirectUri"],
    [pb.wallet1AuthUrl, { ...w1, redirectUri: "https://s.example/中" }, "unsafe_url", "redirectUri"],
    [pb.wallet1AuthUrl, { ...w1, redirectUri: "//s.example/" }, "unsafe_url", "redirectUri"],
    [pb.wallet2AuthUrl, { ...w2, scope: "snsapi_base,snsapi_userinfo" }, "invalid_options", "scope"],
    [pb.wallet2AuthUrl, { ...w2, scope: "Snsapi" }, "invalid_options", "scope"],
    [pb.wallet2AuthUrl, { ...w2, scope: null }, "invalid_options", "scope"],
    [pb.wallet2AuthUrl, { ...w2, state: "" }, "invalid_options", "state"],
    [pb.wallet2AuthUrl, { ...w2, redirectUri: "http://s.example/cb" }, "unsafe_url", "redirectUri"],
    [pb.cardnetAuthUrl, {}, "unsafe_url", "redirectUrl"],
    [pb.cardnetAuthUrl, { redirectUrl: "https://s.example/a\\b" }, "unsafe_url", "redirectUrl"],
    [pb.cardnetAuthUrl, { redirectUrl: "https://s.example/" + "%41".repeat(2700) }, "unsafe_url", "redirectUrl"],
    [pb.cardnetAuthUrl, [], "invalid_options", "params"],
    [pb.cardnetAuthUrl, "https://s.example/", "invalid_options", "params"],
    [pb.cardnetAuthUrl, undefined, "invalid_options", "params"],
  ];
  for (const [build, params, code, field] of cases) throwsPay(() => build(params), code, field, `${build.name} ${JSON.stringify(params)}`);
  const p = { redirectUrl: "https://s.example/" };
  throwsPay(() => pb.cardnetAuthUrl(p, { profile: { cardnet: { authUrl: "http://x.example/" } } }), "invalid_options", "profile.cardnet.authUrl", "profile address");
  throwsPay(() => pb.cardnetAuthUrl(p, { insecureLoopback: 1 }), "invalid_options", "insecureLoopback", "option kind");
  throwsPay(() => pb.cardnetAuthUrl(p, 5), "invalid_options", "options", "options kind");
});

// ------------------------------------------------ simulated provider redirect

test("wallet1: builder, provider redirect, parseAuthCallback", () => {
  const redirect = "https://shop.example/auth/cb?next=%2Fpay%3Fa%3D1&lang=zh#section";
  const u = pb.wallet1AuthUrl({ appId: "2021000123", redirectUri: redirect, scopes: ["auth_user"], state: STATE });
  assert.deepEqual(keysOf(u), ["app_id", "scope", "redirect_uri", "state"]);
  assert.equal(new URL(u).searchParams.get("redirect_uri"), redirect);
  const back = providerRedirect(u, "redirect_uri", [
    ["app_id", "2021000123"],
    ["source", "wallet1_wallet"],
    ["scope", "auth_user"],
    ["auth_code", "4b203fe6c11548bcabd8da5bb087a83b"],
    ["state", STATE],
  ]);
  const cb = pb.parseAuthCallback(back, { expectedState: STATE, now: NOW });
  assert.deepEqual(cb, {
    provider: "wallet1",
    code: "4b203fe6c11548bcabd8da5bb087a83b",
    state: STATE,
    appId: "2021000123",
    scope: "auth_user",
    receivedAt: NOW,
  });
  assert.equal(pb.isUserAuthCodeFresh(cb, NOW), false, "not a card-network callback");
});

test("wallet2: builder, provider redirect, refusal, hash routes, URL objects", () => {
  const u = pb.wallet2AuthUrl({ appId: "wx0123456789abcdef", redirectUri: "https://shop.example/pay/cb?order=A1", scope: "snsapi_base", state: STATE });
  assert.equal(new URL(u).hash, "#wallet2_redirect");
  assert.deepEqual(keysOf(u), ["appid", "redirect_uri", "response_type", "scope", "state", "connect_redirect"]);
  const back = providerRedirect(u, "redirect_uri", [["code", "061Abc"], ["state", STATE]]);
  assert.equal(back, "https://shop.example/pay/cb?order=A1&code=061Abc&state=st-ABC_123.xyz%7E");
  assert.deepEqual(pb.parseAuthCallback(back, { expectedState: STATE, now: NOW }), { provider: "wallet2", code: "061Abc", state: STATE, receivedAt: NOW });
  assert.deepEqual(pb.parseAuthCallback(new URL(back), { expectedState: STATE, now: NOW }).code, "061Abc", "a URL object");
  assert.deepEqual(pb.parseAuthCallback({ href: back }, { now: NOW }).code, "061Abc", "a location-like object");
  // The user refused: the state comes back alone.
  throwsPay(() => pb.parseAuthCallback(providerRedirect(u, "redirect_uri", [["state", STATE]]), { expectedState: STATE }), "auth_failed", "code", "refusal");
  for (const b of [
    "https://shop.example/?code=061Abc&state=st-ABC_123.xyz~#/pay/cb",
    "https://shop.example/#/pay/cb?code=061Abc&state=st-ABC_123.xyz~",
    "/pay/cb?code=061Abc&state=st-ABC_123.xyz~",
  ]) {
    assert.equal(pb.parseAuthCallback(b, { expectedState: STATE }).code, "061Abc", b);
  }
  // Without expectedState the callback's own state is reported, and
  // receivedAt defaults to Date.now().
  const before = Date.now();
  const cb = pb.parseAuthCallback("https://shop.example/pay/cb?code=c&state=other-state");
  assert.equal(cb.state, "other-state");
  assert.ok(cb.receivedAt >= before && cb.receivedAt <= Date.now());
});

test("values with & # = spaces and non-ASCII survive the round trip", () => {
  const next = "/pay?a=1&b=x y#frag=中文 ü";
  const redirect = `https://shop.example/cb?next=${encodeURIComponent(next)}`;
  for (const [build, key, params, answer] of [
    [pb.wallet1AuthUrl, "redirect_uri", { appId: "2021", scopes: "auth_base", state: STATE }, [["auth_code", "a&b=c#d"], ["state", STATE]]],
    [pb.wallet2AuthUrl, "redirect_uri", { appId: "wx1", scope: "snsapi_base", state: STATE }, [["code", "a&b=c#d"], ["state", STATE]]],
  ]) {
    const p = { ...params, [key === "redirect_uri" ? "redirectUri" : key]: redirect };
    const u = build(p);
    assert.equal(new URL(u).searchParams.get(key), redirect);
    const back = providerRedirect(u, key, answer);
    const cb = pb.parseAuthCallback(back, { expectedState: STATE });
    assert.equal(cb.code, "a&b=c#d", build.name);
    assert.equal(new URL(back).searchParams.get("next"), next, build.name);
  }
  const u = pb.cardnetAuthUrl({ redirectUrl: `${redirect}&state=${STATE}` });
  const back = providerRedirect(u, "redirectUrl", [["respCode", "00"], ["userAuthCode", "uac+/= 中"]]);
  const cb = pb.parseAuthCallback(back, { expectedState: STATE, now: NOW });
  assert.deepEqual(cb, { provider: "cardnet", state: STATE, respCode: "00", userAuthCode: "uac+/= 中", receivedAt: NOW });
});

test("state mismatch is auth_failed on state; the caller's own mistakes are invalid_options", () => {
  const url = "https://s.example/cb?code=a&state=abcdefgh";
  throwsPay(() => pb.parseAuthCallback(url, { expectedState: "abcdefgH" }), "auth_failed", "state", "one letter");
  throwsPay(() => pb.parseAuthCallback(url, { expectedState: "abcdefgh0" }), "auth_failed", "state", "longer");
  throwsPay(() => pb.parseAuthCallback("https://s.example/cb?code=a", { expectedState: "abcdefgh" }), "auth_failed", "state", "missing");
  throwsPay(() => pb.parseAuthCallback(url, { expectedState: "short" }), "invalid_options", "expectedState", "short expected");
  throwsPay(() => pb.parseAuthCallback(url, { expectedState: 12345678 }), "invalid_options", "expectedState", "number");
  // null is what sessionStorage.getItem answers for a state it does not hold
  // (a new tab): never "no check", or a forged callback would pass.
  throwsPay(() => pb.parseAuthCallback(url, { expectedState: null }), "invalid_options", "expectedState", "null");
  throwsPay(() => pb.parseAuthCallback("https://s.example/cb?respCode=00&userAuthCode=ATTACKER", { expectedState: null }), "invalid_options", "expectedState", "null, forged");
  for (const now of [NaN, -1, Infinity, "1700000000000", new Date()]) {
    throwsPay(() => pb.parseAuthCallback(url, { now }), "invalid_options", "now", `now ${String(now)}`);
  }
  throwsPay(() => pb.parseAuthCallback(url, "abcdefgh"), "invalid_options", "options", "options as a string");
  for (const bad of [undefined, null, 5, {}, ["x"]]) throwsPay(() => pb.parseAuthCallback(bad), "invalid_options", "url", `url ${JSON.stringify(bad)}`);
});

test("card network: the 5-minute boundary of userAuthCode, via now", () => {
  const cb = pb.parseAuthCallback(`https://shop.example/cn/cb?state=${STATE}&respCode=00&userAuthCode=uac1`, { expectedState: STATE, now: NOW });
  assert.equal(cb.receivedAt, NOW);
  assert.equal(pb.isUserAuthCodeFresh(cb, NOW), true);
  assert.equal(pb.isUserAuthCodeFresh(cb, NOW + TTL - 1), true, "4:59.999");
  assert.equal(pb.isUserAuthCodeFresh(cb, NOW + TTL), false, "exactly 5 minutes");
  assert.equal(pb.isUserAuthCodeFresh(cb, NOW + TTL + 1), false);
  assert.equal(pb.isUserAuthCodeFresh(cb, NOW - 1), false, "received in the future");
  // A stored copy (JSON round trip) answers the same.
  const kept = JSON.parse(JSON.stringify(cb));
  assert.equal(pb.isUserAuthCodeFresh(kept, NOW + TTL - 1), true);
  assert.equal(pb.isUserAuthCodeFresh(kept, NOW + TTL), false);
  // A fractional now is stamped whole.
  assert.equal(pb.parseAuthCallback("https://s.example/?respCode=00&userAuthCode=u", { now: NOW + 0.9 }).receivedAt, NOW);
  // Anything but a card-network callback with its code is not fresh.
  for (const x of [null, undefined, "x", {}, { ...cb, provider: "wallet2" }, { ...cb, respCode: "05" }, { ...cb, userAuthCode: undefined }, { ...cb, receivedAt: "0" }]) {
    assert.equal(pb.isUserAuthCodeFresh(x, NOW), false, JSON.stringify(x));
  }
  // now defaults to Date.now().
  assert.equal(pb.isUserAuthCodeFresh({ ...cb, receivedAt: Date.now() - 1000 }), true);
  assert.equal(pb.isUserAuthCodeFresh({ ...cb, receivedAt: Date.now() - TTL - 1000 }), false);
  throwsPay(() => pb.isUserAuthCodeFresh(cb, NaN), "invalid_options", "now", "NaN now");
  throwsPay(() => pb.isUserAuthCodeFresh(cb, "soon"), "invalid_options", "now", "text now");
});

// ------------------------------------------------------- hostile callbacks

test("hostile callback addresses each give their PayError code and field", () => {
  const S = "abcdefgh";
  const cases = [
    ["javascript:alert(1)//?code=x&state=abcdefgh", "url"],
    ["JAVASCRIPT:alert(document.cookie)", "url"],
    ["data:text/html,?code=x&state=abcdefgh", "url"],
    ["ftp://s.example/?code=x&state=abcdefgh", "url"],
    ["//evil.example/?code=x&state=abcdefgh", "url"],
    ["", "url"],
    ["https://s.example/cb", "url"],
    ["https://s.example/cb?", "url"],
    ["https://s.example/cb?#", "url"],
    ["https://s.example/cb?foo=bar&x", "url"],
    ["https://s.example/cb?state=abcdefgh&code=" + "a".repeat(9000), "url"],
    ["https://s.example/cb?code=a\n&state=abcdefgh", "url"],
    ["https://s.example/cb?code=a\t&state=abcdefgh", "url"],
    ["https://s.example/cb?code=a\x7f&state=abcdefgh", "url"],
    ["https://s.example/cb?code=中&state=abcdefgh", "url"],
    ["https://s.example/cb?code=a b&state=abcdefgh", "url"],
    ["https://s.example/cb?code=a\u2028&state=abcdefgh", "url"],
    ["https://s.example/cb?code=a&code=b&state=abcdefgh", "code"],
    ["https://s.example/cb?code=a&co%64e=b&state=abcdefgh", "code"],
    ["https://s.example/cb?code=a&state=abcdefgh#code=b", "code"],
    ["https://s.example/cb?code=a&state=abcdefgh&state=ABCDEFGH", "state"],
    ["https://s.example/cb?code=a&state=abcdefgh&state=", "state"],
    ["https://s.example/cb?code=a%00&state=abcdefgh", "code"],
    ["https://s.example/cb?code=a&state=abcdefgh%0A", "state"],
    ["https://s.example/cb?code=a&state=abcdefgh%C2%85", "state"],
    ["https://s.example/cb?code=%zz&state=abcdefgh", "code"],
    ["https://s.example/cb?code=a%2&state=abcdefgh", "code"],
    ["https://s.example/cb?code=%FF%FE&state=abcdefgh", "code"],
    ["https://s.example/cb?code=a&state=WRONGSTATE", "state"],
    ["https://s.example/cb?code=a&state=abcdefgH", "state"],
    ["https://s.example/cb?code=a&state=abcdefgh0", "state"],
    ["https://s.example/cb?code=a", "state"],
    ["https://s.example/cb?code=a&state=", "state"],
    ["https://s.example/#/cb?code=a&state=WRONGSTATE", "state"],
    ["https://s.example/cb?state=abcdefgh", "code"],
    ["https://s.example/cb?code=&state=abcdefgh", "code"],
    ["https://s.example/cb?app_id=2021&auth_code=&state=abcdefgh", "auth_code"],
    ["https://s.example/cb?app_id=2021&scope=auth_base&state=abcdefgh", "code"],
    ["https://s.example/cb?auth_code=a&code=b&state=abcdefgh", "url"],
    ["https://s.example/cb?code=a&respCode=00&userAuthCode=u&state=abcdefgh", "url"],
    ["https://s.example/cb?auth_code=a&userAuthCode=u&state=abcdefgh", "url"],
    ["https://s.example/cb?respCode=01&userAuthCode=u&state=abcdefgh", "respCode"],
    ["https://s.example/cb?respCode=34&userAuthCode=u&state=abcdefgh", "respCode"],
    ["https://s.example/cb?respCode=00&state=abcdefgh", "userAuthCode"],
    ["https://s.example/cb?userAuthCode=u&state=abcdefgh", "respCode"],
  ];
  assert.ok(cases.length >= 40);
  for (const [url, field] of cases) throwsPay(() => pb.parseAuthCallback(url, { expectedState: S, now: NOW }), "auth_failed", field, JSON.stringify(url.slice(0, 80)));
  // A respCode failure quotes the code, clipped.
  assert.throws(
    () => pb.parseAuthCallback("https://s.example/cb?respCode=E1&userAuthCode=u"),
    (e) => e.message === "respCode is E1, not 00: the card network did not authorize the user",
  );
  assert.throws(
    () => pb.parseAuthCallback(`https://s.example/cb?respCode=${"9".repeat(300)}&userAuthCode=u`),
    (e) => e.code === "auth_failed" && e.message.startsWith("respCode is 999") && e.message.length < 200,
  );
  // The module keeps working after all of that.
  assert.equal(pb.parseAuthCallback("https://s.example/cb?code=a&state=abcdefgh", { expectedState: S }).code, "a");
});

// ----------------------------------------------------------------- newState

test("newState: 1000 distinct unguessable states the builders accept", () => {
  const seen = new Set();
  for (let i = 0; i < 1000; i++) {
    const s = pb.newState();
    // 16 random bytes in unpadded base64url: the last character carries 2 bits.
    assert.match(s, /^[A-Za-z0-9_-]{21}[AQgw]$/);
    seen.add(s);
  }
  assert.equal(seen.size, 1000);
  // Every character position varies (a stuck byte would show here).
  const all = [...seen];
  for (let i = 0; i < 21; i++) assert.ok(new Set(all.map((s) => s[i])).size > 20, `position ${i}`);
  const s = pb.newState();
  const u = pb.wallet2AuthUrl({ appId: "wx1", redirectUri: "https://s.example/cb", scope: "snsapi_base", state: s });
  const back = providerRedirect(u, "redirect_uri", [["code", "c"], ["state", s]]);
  assert.equal(pb.parseAuthCallback(back, { expectedState: s }).state, s);
});

test("newState refuses a runtime without crypto.getRandomValues", () => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "crypto");
  try {
    for (const fake of [undefined, {}, { getRandomValues: 1 }, { getRandomValues() { throw new Error("no entropy"); } }]) {
      Object.defineProperty(globalThis, "crypto", { value: fake, configurable: true, writable: true });
      throwsPay(() => pb.newState(), "wrong_runtime", "crypto", JSON.stringify(fake));
    }
  } finally {
    Object.defineProperty(globalThis, "crypto", saved);
  }
  assert.equal(pb.newState().length, 22);
});

// ------------------------------------------------------------- exchanges

test("server-side exchange requests have the providers' shapes", () => {
  const w1 = pb.wallet1TokenRequest({ appId: "2021000123", code: "4b203fe6c1" });
  assert.deepEqual(w1, {
    method: "POST",
    url: "https://openapi.wallet1.example/gateway.do",
    params: { app_id: "2021000123", method: "wallet1.system.oauth.token", grant_type: "authorization_code", code: "4b203fe6c1" },
    signParam: "sign",
  });
  assert.deepEqual(Object.keys(w1.params), ["app_id", "method", "grant_type", "code"]);
  const w1b = pb.wallet1TokenRequest(
    { appId: "2021", code: "c" },
    { profile: { wallet1: { tokenUrl: "https://gw.w1.example/gateway.do?charset=utf-8", tokenMethod: "w1.oauth.token" } } },
  );
  assert.equal(w1b.url, "https://gw.w1.example/gateway.do?charset=utf-8");
  assert.equal(w1b.params.method, "w1.oauth.token");

  const oauth = pb.wallet2OauthTokenRequest({ appId: "wx0123", secret: "s3cr&t=", code: "061Abc" });
  assert.deepEqual(oauth, {
    method: "GET",
    url: "https://api.wallet2.example/sns/oauth2/access_token",
    params: { appid: "wx0123", secret: "s3cr&t=", code: "061Abc", grant_type: "authorization_code" },
    href: "https://api.wallet2.example/sns/oauth2/access_token?appid=wx0123&secret=s3cr%26t%3D&code=061Abc&grant_type=authorization_code",
  });
  assert.equal(new URL(oauth.href).searchParams.get("secret"), "s3cr&t=");
  const session = pb.wallet2SessionRequest({ appId: "wx0123", secret: "sec", jsCode: "0a1B" });
  assert.equal(session.method, "GET");
  assert.equal(session.href, "https://api.wallet2.example/sns/jscode2session?appid=wx0123&secret=sec&js_code=0a1B&grant_type=authorization_code");
  assert.deepEqual(Object.keys(session.params), ["appid", "secret", "js_code", "grant_type"]);

  for (const [f, params, field, opts] of [
    [pb.wallet1TokenRequest, { appId: "2021" }, "code"],
    [pb.wallet1TokenRequest, { code: "c" }, "appId"],
    [pb.wallet1TokenRequest, { appId: "2021", code: "a b" }, "code"],
    [pb.wallet2OauthTokenRequest, { appId: "wx", code: "c" }, "secret"],
    [pb.wallet2OauthTokenRequest, { appId: "wx", secret: "", code: "c" }, "secret"],
    [pb.wallet2SessionRequest, { appId: "wx", secret: "s", code: "c" }, "jsCode"],
    [pb.wallet2SessionRequest, { appId: "wx", secret: "s", jsCode: 7 }, "jsCode"],
    [pb.wallet2SessionRequest, "text", "params"],
    [pb.wallet2SessionRequest, { appId: "wx", secret: "s", jsCode: "c" }, "profile.wallet2.sessionUrl", { profile: { wallet2: { sessionUrl: "http://x.example/" } } }],
  ]) {
    throwsPay(() => f(params, opts), "invalid_options", field, `${f.name} ${JSON.stringify(params)}`);
  }
});

test("server-side exchange answers are read, as objects or JSON text", () => {
  const ok = {
    wallet1_system_oauth_token_response: { user_id: "2088102150477652", access_token: "20120823ac6ffaa4d2d84e7384bf983531473993", expires_in: 3600, refresh_token: "r" },
    sign: "x",
  };
  const want = { userId: "2088102150477652", accessToken: "20120823ac6ffaa4d2d84e7384bf983531473993" };
  assert.deepEqual(pb.readWallet1Token(ok), want);
  assert.deepEqual(pb.readWallet1Token(JSON.stringify(ok)), want);
  assert.throws(
    () => pb.readWallet1Token({ error_response: { code: "40002", msg: "Invalid Arguments", sub_code: "isv.code-invalid", sub_msg: "auth code is invalid" } }),
    (e) => e.code === "auth_failed" && e.field === "sub_code" && e.message === "wallet1 refused the code exchange: code 40002, sub_code isv.code-invalid: auth code is invalid",
  );
  for (const [a, field] of [["text", "answer"], [{ foo: 1 }, "answer"], [{ x_response: { user_id: "1" } }, "access_token"], ["{not json", "answer"]]) {
    assert.throws(() => pb.readWallet1Token(a), (e) => e instanceof pb.PayError && e.code === "invalid_response" && e.field === field, JSON.stringify(a));
  }
  assert.equal(pb.readWallet2Openid({ access_token: "AT", expires_in: 7200, openid: "oABC123", scope: "snsapi_base" }), "oABC123");
  assert.equal(pb.readWallet2Openid('{"openid":"o1","session_key":"k","errcode":0,"errmsg":"ok"}'), "o1");
  assert.throws(
    () => pb.readWallet2Openid({ errcode: 40029, errmsg: "invalid code" }),
    (e) => e.code === "auth_failed" && e.field === "errcode" && e.message === "wallet2 refused the code exchange: errcode 40029: invalid code",
  );
  assert.throws(() => pb.readWallet2Openid({}), (e) => e.code === "invalid_response" && e.field === "openid");
});

// ------------------------------------------------------------ cardnetPay

const CASHIER = "https://cashier.cardnet.example/pay?order=A1&sig=x%2By";
const cardnetPayment = (url = CASHIER) => ({ pay_channel: "cardnet", order_no: "A1", expend: { pay_url: url } });

/** Runs `f` with a stand-in `location` that records where the page went. */
async function withLocation(f) {
  const went = [];
  globalThis.location = { assign: (u) => went.push(u) };
  try {
    return await f(went);
  } finally {
    delete globalThis.location;
  }
}

test("cardnetPay orders with a fresh code and goes to the checked pay_url", async () => {
  await withLocation(async (went) => {
    const events = [];
    const said = {};
    const calls = [];
    const cbUrl = `https://shop.example/cn/cb?state=${STATE}&respCode=00&userAuthCode=uac%2B1`;
    const r = await pb.cardnetPay(cbUrl, {
      expectedState: STATE,
      now: NOW,
      order: async (code, info) => {
        calls.push([code, info]);
        return cardnetPayment();
      },
      onEvent: (e) => {
        events.push(e.type);
        if (e.type === "called" || e.type === "navigating") said[e.type] = e.detail;
      },
    });
    // One member as the detail, as a payment's own run writes it
    // (tests/browser/pay.test.mjs): this flow's run writes it through
    // Out::said's default, the payment module's through Encode::said.
    assert.deepEqual(said, { called: { method: "order" }, navigating: { url: CASHIER } });
    assert.deepEqual(calls, [["uac+1", { userAuthCode: "uac+1", expiresAt: NOW + TTL }]]);
    assert.deepEqual(went, [CASHIER]);
    assert.equal(r.status, "redirected");
    assert.equal(r.channel, "cardnet");
    assert.equal(r.verified, false);
    assert.equal(r.raw.order_no, "A1");
    assert.deepEqual(events, ["callback", "called", "planned", "navigating", "result"]);
    // The payment may come as JSON text, synchronously, under an alias.
    const again = await pb.cardnetPay(cbUrl, {
      now: NOW,
      order: () => JSON.stringify({ ...cardnetPayment(), pay_channel: "cardnet_h5" }),
      profile: { channelAliases: { cardnet_h5: "cardnet" } },
    });
    assert.equal(again.status, "redirected");
    assert.deepEqual(went, [CASHIER, CASHIER]);
  });
});

test("cardnetPay failures: each its code, no order where none is due, no navigation", async () => {
  await withLocation(async (went) => {
    let ordered = 0;
    const order = () => {
      ordered++;
      return cardnetPayment();
    };
    const fresh = pb.parseAuthCallback("https://s.example/cb?respCode=00&userAuthCode=u&state=abcdefgh", { now: NOW });
    const cases = [
      ["stale kept callback", fresh, { order, now: NOW + TTL }, "auth_expired", "userAuthCode", 0],
      ["kept callback from the future", fresh, { order, now: NOW - 1 }, "auth_expired", "userAuthCode", 0],
      ["respCode 34", "https://s.example/cb?respCode=34&userAuthCode=u", { order }, "auth_failed", "respCode", 0],
      ["state mismatch", "https://s.example/cb?respCode=00&userAuthCode=u&state=abcdefgh", { order, expectedState: "abcdefgX" }, "auth_failed", "state", 0],
      ["kept state mismatch", fresh, { order, now: NOW, expectedState: "abcdefgX" }, "auth_failed", "state", 0],
      ["a stored state that is gone (null)", "https://s.example/cb?respCode=00&userAuthCode=u", { order, expectedState: null }, "invalid_options", "expectedState", 0],
      ["wallet2 callback", "https://s.example/cb?code=c&state=abcdefgh", { order }, "auth_failed", "provider", 0],
      ["no order function", fresh, { now: NOW }, "invalid_options", "order", 0],
      ["bad allowedHosts", fresh, { order, now: NOW, allowedHosts: [5] }, "invalid_options", "allowedHosts[0]", 0],
      ["bad kept object", { provider: "cardnet" }, { order }, "invalid_options", "callback.receivedAt", 0],
      ["order throws", fresh, { order: () => { ordered++; throw new TypeError("network down"); }, now: NOW }, "transport", "order", 1],
      ["order rejects", fresh, { order: async () => { ordered++; throw new Error("HTTP 502"); }, now: NOW }, "transport", "order", 1],
      ["order gives nothing", fresh, { order: () => { ordered++; }, now: NOW }, "invalid_payment", "payment", 1],
      ["order gives a wallet payment", fresh, { order: () => { ordered++; return { pay_channel: "wallet1", pay_info: "https://pay.example/" }; }, now: NOW }, "invalid_payment", "pay_channel", 1],
      ["order gives no pay_url", fresh, { order: () => { ordered++; return { pay_channel: "cardnet" }; }, now: NOW }, "invalid_payment", "expend.pay_url", 1],
      ["javascript: pay_url", fresh, { order: () => { ordered++; return cardnetPayment("javascript:alert(1)"); }, now: NOW }, "unsafe_url", "expend.pay_url", 1],
      ["http pay_url", fresh, { order: () => { ordered++; return cardnetPayment("http://cashier.cardnet.example/"); }, now: NOW }, "unsafe_url", "expend.pay_url", 1],
      ["host outside allowedHosts", fresh, { order, now: NOW, allowedHosts: ["*.bank.example"] }, "unsafe_url", "expend.pay_url", 1],
    ];
    for (const [name, cb, opts, code, field, orders] of cases) {
      ordered = 0;
      await assert.rejects(pb.cardnetPay(cb, opts), (e) => {
        assert.ok(e instanceof pb.PayError, `${name}: ${e}`);
        assert.equal(e.code, code, `${name}: ${e.message}`);
        assert.equal(e.field, field, `${name}: ${e.message}`);
        return true;
      });
      assert.equal(ordered, orders, `${name}: order calls`);
    }
    assert.deepEqual(went, [], "never navigated");
    // The thrown value is kept as the cause.
    const boom = new TypeError("network down");
    await assert.rejects(
      pb.cardnetPay(fresh, { now: NOW, order: () => Promise.reject(boom) }),
      (e) => e.code === "transport" && e.cause === boom && e.message.includes("network down"),
    );
  });
});

test("cardnetPay is one at a time, and needs a page that can navigate", async () => {
  const fresh = pb.parseAuthCallback("https://s.example/cb?respCode=00&userAuthCode=u", { now: NOW });
  let ordered = 0;
  await assert.rejects(
    pb.cardnetPay(fresh, { now: NOW, order: () => ordered++ }),
    (e) => e.code === "wrong_runtime" && /location/.test(e.message),
  );
  assert.equal(ordered, 0, "no order without a page to go to");
  await withLocation(async (went) => {
    let release;
    const first = pb.cardnetPay(fresh, { now: NOW, order: () => new Promise((r) => (release = r)) });
    await assert.rejects(pb.cardnetPay(fresh, { now: NOW, order: () => cardnetPayment() }), (e) => e.code === "busy" && e.message.startsWith("cardnetPay()"));
    await assert.rejects(pb.pay(cardnetPayment()), (e) => e.code === "busy");
    await new Promise((r) => setTimeout(r, 0));
    release(cardnetPayment());
    assert.equal((await first).status, "redirected");
    assert.deepEqual(went, [CASHIER]);
    // Free again once it has ended.
    assert.equal((await pb.pay(cardnetPayment())).status, "redirected");
  });
});

test("a refused card-network callback's PayError carries the provider's respCode", () => {
  for (const rc of ["34", "05", "XY"]) {
    assert.throws(
      () => pb.parseAuthCallback(`https://m.example/cb?respCode=${rc}&userAuthCode=u1`),
      (e) => e instanceof pb.PayError && e.code === "auth_failed" && e.field === "respCode" && e.respCode === rc,
    );
  }
  // Other failures carry none.
  assert.throws(() => pb.parseAuthCallback("https://m.example/cb?code=c", { expectedState: STATE }), (e) => e.code === "auth_failed" && !("respCode" in e));
});

test("takeAuthCallback in Node: it reads an address it is given as parseAuthCallback does; with no address and no location it says so", () => {
  const url = `https://m.example/cb?code=c1&state=${encodeURIComponent(STATE)}`;
  const taken = pb.takeAuthCallback(url, { expectedState: STATE, now: NOW });
  assert.deepEqual(taken, pb.parseAuthCallback(url, { expectedState: STATE, now: NOW }));
  throwsPay(() => pb.takeAuthCallback(undefined), "wrong_runtime", "url", "no location");
  throwsPay(() => pb.takeAuthCallback(url, { expectedState: "another-state" }), "auth_failed", "state", "state checked");
  throwsPay(() => pb.takeAuthCallback(42), "invalid_options", "url", "not an address");
  // A callback wrong twice fails as parseAuthCallback says: the state first.
  for (const bad of ["https://m.example/cb?respCode=34&userAuthCode=u1&state=another-state", "https://m.example/cb?state=another-state"]) {
    throwsPay(() => pb.parseAuthCallback(bad, { expectedState: STATE }), "auth_failed", "state", `parse ${bad}`);
    throwsPay(() => pb.takeAuthCallback(bad, { expectedState: STATE }), "auth_failed", "state", `take ${bad}`);
  }
});

test("the builders: a profile address keeps its own query keys but never gets ours twice; wallet2's fragment is added, never substituted", () => {
  const redirect = { redirectUrl: "https://m.example/cb" };
  const cardnet = (authUrl) => ({ profile: { cardnet: { authUrl } } });
  assert.equal(pb.cardnetAuthUrl(redirect, cardnet("https://c.example/auth?lang=en")), "https://c.example/auth?lang=en&version=1.0.0&redirectUrl=https%3A%2F%2Fm.example%2Fcb");
  for (const base of ["https://c.example/auth?version=2", "https://c.example/auth?redirectUrl=https%3A%2F%2Fevil.example"]) {
    throwsPay(() => pb.cardnetAuthUrl(redirect, cardnet(base)), "invalid_options", "profile.cardnet.authUrl", base);
  }
  const w2 = { appId: "wx1", redirectUri: "https://m.example/cb", scope: "snsapi_base", state: STATE };
  throwsPay(() => pb.wallet2AuthUrl(w2, { profile: { wallet2: { authorizeUrl: "https://o.example/authorize#mine" } } }), "invalid_options", "profile.wallet2.authorizeUrl", "own fragment");
  throwsPay(() => pb.wallet2AuthUrl(w2, { profile: { wallet2: { authorizeUrl: "https://o.example/authorize?scope=x" } } }), "invalid_options", "profile.wallet2.authorizeUrl", "our key");
  const w1 = { appId: "2021000", redirectUri: "https://m.example/cb", scopes: ["auth_base"], state: STATE };
  throwsPay(() => pb.wallet1AuthUrl(w1, { profile: { wallet1: { authUrl: "https://a.example/auth?state=x" } } }), "invalid_options", "profile.wallet1.authUrl", "wallet1 key");
});

test("the builders apply allowedHosts to the address they return (not to the merchant's redirect address)", () => {
  const redirect = { redirectUrl: "https://m.example/cb" };
  assert.ok(pb.cardnetAuthUrl(redirect, { allowedHosts: ["*.cardnet.example"] }).startsWith("https://open.cardnet.example/"));
  throwsPay(() => pb.cardnetAuthUrl(redirect, { allowedHosts: ["pay.example.com"] }), "unsafe_url", "profile.cardnet.authUrl", "host outside the list");
  throwsPay(() => pb.cardnetAuthUrl(redirect, { allowedHosts: ["*.0.1"] }), "invalid_options", "allowedHosts[0]", "a wildcard over an address");
});

test("+ in a callback reads the same in the query and in a hash route's fragment", () => {
  for (const url of [`https://m.example/cb?code=a+b&state=${STATE}`, `https://m.example/#/cb?code=a+b&state=${STATE}`, `https://m.example/#code=a+b&state=${STATE}`]) {
    assert.equal(pb.parseAuthCallback(url, { expectedState: STATE }).code, "a b", url);
  }
  assert.equal(pb.parseAuthCallback(`https://m.example/#/cb?code=a%2Bb&state=${STATE}`).code, "a+b");
});

// ------------------------------------------------ wallet1's life-account page

test("wallet1PageUrl: the scheme URL (saId=10000007) whose qrcode is the page URL with the params appended and encoded", () => {
  const url = pb.wallet1PageUrl("https://shop.example/life?from=app#top", { orderId: "A 1&2", amount: 12.5, vip: true, none: null, 名: "值" });
  assert.equal(
    url,
    "wallet1://platformapi/startapp?saId=10000007&qrcode=" +
      encodeURIComponent("https://shop.example/life?from=app&orderId=A%201%262&amount=12.5&vip=true&%E5%90%8D=%E5%80%BC#top"),
  );
  const qrcode = new URL(url).searchParams.get("qrcode");
  assert.equal(new URL(qrcode).searchParams.get("orderId"), "A 1&2");
  assert.equal(pb.wallet1PageUrl("https://shop.example/life"), "wallet1://platformapi/startapp?saId=10000007&qrcode=https%3A%2F%2Fshop.example%2Flife");
  assert.ok(pb.wallet1PageUrl("https://shop.example/l", {}, { profile: { wallet1: { scheme: "w1" } } }).startsWith("w1://platformapi/startapp?saId=10000007&qrcode="));
  assert.ok(pb.wallet1PageUrl("http://127.0.0.1:8080/demo/life.html", { a: "1" }, { insecureLoopback: true }).includes("qrcode=http%3A%2F%2F127.0.0.1"));
});

test("wallet1PageUrl: the page URL is checked like every URL opened; bad params name themselves", () => {
  for (const [page, options] of [
    ["http://shop.example/life", undefined],
    ["javascript:alert(1)", undefined],
    ["https://user:pw@shop.example/life", undefined],
    ["https://shop.example\\@evil.example/", undefined],
    ["https://evil.example/life", { allowedHosts: ["shop.example"] }],
    [42, undefined],
  ]) {
    throwsPay(() => pb.wallet1PageUrl(page, { a: "1" }, options), "unsafe_url", "pageUrl", String(page));
  }
  throwsPay(() => pb.wallet1PageUrl("https://shop.example/l?x=1", { x: "2" }), "invalid_options", "params.x", "twice");
  throwsPay(() => pb.wallet1PageUrl("https://shop.example/l", { o: { a: 1 } }), "invalid_options", "params.o", "an object value");
  throwsPay(() => pb.wallet1PageUrl("https://shop.example/l", "a=1"), "invalid_options", "params", "text params");
});
