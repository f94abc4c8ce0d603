// The hostile-input corpus (tests/vectors/hostile*.json) through the built
// package: which export each kind of case goes through, and what it must
// give. Shared by the Node test (tests/node/hostile.test.mjs) and the
// browser test (tests/browser/hostile.test.mjs, which imports this file in
// the page), so it uses nothing but the language.

/** The corpus files; every case has a `kind` (`payment` when it names none). */
export const FILES = ["hostile.json", "hostile-options.json", "hostile-url.json", "hostile-auth.json", "hostile-verify.json"];

/** The export each kind needs (besides planAction); a kind whose export is missing is skipped, visibly. */
export const NEEDS = {
  payment: ["planAction"],
  options: ["planAction"],
  url: ["planAction", "wallet1AuthUrl", "wallet2AuthUrl", "cardnetAuthUrl"],
  callback: ["parseAuthCallback"],
  auth_url: ["wallet1AuthUrl", "wallet2AuthUrl", "cardnetAuthUrl"],
  envelope: ["decodeEnvelope"],
  notification: ["parseNotification"],
};

export function withKinds(lists) {
  return lists.flat().map((c) => ({ kind: "payment", ...c }));
}

/** Exports a kind needs that this build of the package lacks. */
export function missing(pb, kind) {
  return NEEDS[kind].filter((name) => typeof pb[name] !== "function");
}

const STATE = "abcdefgh";
const NOW = 1_700_000_000_000;

/** The options of a `url` case for planning and paying. */
export function urlOptions(c) {
  const o = {};
  if (c.allowedHosts) o.allowedHosts = c.allowedHosts;
  if (c.insecureLoopback) o.insecureLoopback = true;
  return o;
}

/** The payments a case is paid with by `pay()` (none for kinds that are not payments). */
export function payments(c) {
  switch (c.kind) {
    case "payment":
    case "options":
      return [{ via: "pay", field: c.field, payment: c.payment, options: c.options }];
    case "url":
      return [
        { via: "pay cardnet", field: "expend.pay_url", payment: { pay_channel: "cardnet", expend: { pay_url: c.url } }, options: urlOptions(c) },
        { via: "pay wallet1_wap", field: "pay_info", payment: { pay_channel: "wallet1_wap", pay_info: c.url }, options: { ...urlOptions(c), appFallback: "web" } },
      ];
    default:
      return [];
  }
}

/** The calls a case makes: `[via, expected field, () => value]`. */
export function calls(pb, c) {
  switch (c.kind) {
    case "payment":
    case "options":
      return [["planAction", c.field, () => pb.planAction(c.payment, c.options)]];
    case "url": {
      const out = [
        ["planAction cardnet", "expend.pay_url", () => pb.planAction({ pay_channel: "cardnet", expend: { pay_url: c.url } }, urlOptions(c))],
        ["planAction wallet1", "pay_info", () => pb.planAction({ pay_channel: "wallet1", pay_info: c.url }, urlOptions(c))],
      ];
      if (!c.allowedHosts) {
        out.push(
          ["wallet1AuthUrl", "redirectUri", () => pb.wallet1AuthUrl({ appId: "2021000", redirectUri: c.url, scopes: ["auth_base"], state: STATE })],
          ["wallet2AuthUrl", "redirectUri", () => pb.wallet2AuthUrl({ appId: "wx123", redirectUri: c.url, scope: "snsapi_base", state: STATE })],
          ["cardnetAuthUrl", "redirectUrl", () => pb.cardnetAuthUrl({ redirectUrl: c.url })],
        );
      }
      return out;
    }
    case "callback": {
      const o = { now: NOW };
      if (c.expectedState !== undefined) o.expectedState = c.expectedState;
      return [["parseAuthCallback", c.field, () => pb.parseAuthCallback(c.url, o)]];
    }
    case "auth_url":
      return [[c.builder, c.field, () => pb[c.builder](c.params, c.options)]];
    case "envelope":
      return [["decodeEnvelope", c.field, () => pb.decodeEnvelope(c.body, c.status)]];
    case "notification":
      return [["parseNotification", c.field, () => pb.parseNotification(c.body)]];
    default:
      throw new Error(`unknown kind ${c.kind}`);
  }
}

/** What a thrown value looks like, in plain data (it crosses from the page). */
export function describe(e) {
  return {
    name: e?.name,
    code: e?.code,
    field: e?.field,
    message: String(e?.message ?? e),
    isPayError: e instanceof Error && e.name === "PayError",
    isTrap: typeof WebAssembly !== "undefined" && e instanceof WebAssembly.RuntimeError,
  };
}

/**
 * Runs every call of a case; gives the problems found (empty when the case
 * failed as it must everywhere). `PayError` is the package's class.
 */
export async function check(pb, c) {
  const problems = [];
  for (const [via, field, call] of calls(pb, c)) {
    let value;
    try {
      value = await call();
    } catch (thrown) {
      const e = describe(thrown);
      if (e.isTrap) problems.push(`${c.name} (${via}): trapped: ${e.message}`);
      else if (!(thrown instanceof pb.PayError)) problems.push(`${c.name} (${via}): threw ${e.name}, not a PayError: ${e.message}`);
      else if (e.code !== c.code) problems.push(`${c.name} (${via}): code ${e.code}, expected ${c.code}: ${e.message}`);
      else if (field && e.field !== field) problems.push(`${c.name} (${via}): field ${e.field}, expected ${field}: ${e.message}`);
      else if (e.message.length < 10) problems.push(`${c.name} (${via}): message too short: ${e.message}`);
      continue;
    }
    problems.push(`${c.name} (${via}): accepted, gave ${JSON.stringify(value)?.slice(0, 200)}`);
  }
  return problems;
}
