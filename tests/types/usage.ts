// Correct uses of the public types: `tsc --noEmit` must accept this file.
import {
  ready,
  pay,
  planAction,
  defaultProfile,
  detectRuntime,
  waitForBridge,
  PayError,
  wallet2AuthUrl,
  parseAuthCallback,
  takeAuthCallback,
  AuthClient,
  validateCardCheck,
  verifyNotification,
  watchPayment,
  wallet1PageUrl,
  type Action,
  type PayResult,
  type Payment,
  type VerifyOutcome,
  type WatchResult,
} from "paybridge";

async function main(): Promise<void> {
  await ready();
  // A page that serves the full module from elsewhere (a CDN).
  await ready({ wasmFull: new URL("https://cdn.example/paybridge_full_bg.wasm") });
  const watched: WatchResult = await watchPayment(async () => ({ status: "created" }), {
    intervalMs: 500,
    signal: new AbortController().signal,
    onEvent: (e) => console.log(e.detail.status, e.detail.nextInMs),
  });
  const final: boolean = watched.final;
  const payment: Payment = { pay_channel: "wallet2_pub", pay_info: { appId: "a", timeStamp: "1", nonceStr: "n", package: "p", signType: "RSA", paySign: "s" } };
  const action: Action = planAction(payment, { allowedHosts: ["*.example.com"], profile: { wallet2: { bridge: "MyBridge" } } });
  // The discriminated union narrows on `kind`.
  switch (action.kind) {
    case "open_url": {
      const u: string = action.fallbackUrl;
      void u;
      break;
    }
    case "wallet1_trade_pay": {
      const via: "bridge" | "mini_program" = action.via;
      void via;
      break;
    }
    case "wallet2_bridge_pay": {
      const sign: string = action.params.paySign;
      void sign;
      break;
    }
    default:
      break;
  }
  const result: PayResult = await pay(payment, {
    timeoutMs: 5000,
    onEvent: (e) => console.log(e.type, e.at),
    confirm: async (_p, hint) => (hint.status === "pending" ? "succeeded" : hint.status),
  });
  const verified: boolean = result.verified;
  void verified;
  const host: string = detectRuntime({ userAgent: "x" }).host;
  void host;
  const scheme: string = defaultProfile().wallet1.scheme;
  void scheme;
  await waitForBridge("Bridge", "BridgeReady", { timeoutMs: 100 });
  const url: string = wallet2AuthUrl({ appId: "a", redirectUri: "https://m.example/cb", scope: "snsapi_base", state: "0123456789" });
  const cb = parseAuthCallback(url, { expectedState: "0123456789" });
  // As the README passes it: what storage answers (null when it holds none, refused at run time).
  const stored: string | null = "0123456789";
  parseAuthCallback(url, { expectedState: stored });
  const provider: "wallet1" | "wallet2" | "cardnet" = cb.provider;
  void provider;
  const client = new AuthClient({
    baseUrl: "https://auth.example",
    appToken: "x".repeat(40),
    env: "test",
    sign: (params) => Object.keys(params).join(),
    verify: async (data, signature) => data.length > 0 && signature.length > 0,
    paths: { checkResult: "/api/v4/checkresult" },
    encrypt: async (field, value) => `${field}:${value}`,
  });
  const unchecked = new AuthClient({ baseUrl: "https://auth.example", appToken: "x".repeat(40), env: "test", sign: () => "s", verify: false });
  void unchecked;
  const page: string = wallet1PageUrl("https://shop.example/life", { orderId: "o1", amount: 1, vip: true }, { allowedHosts: ["shop.example"] });
  void page;
  const outcome: VerifyOutcome = await client.cardCheck({ full_name: "n", acct_no: "6222020000000000000", source_channel: "0" });
  if (outcome.state === "consistent") console.log(outcome.orderId, outcome.serviceDate);
  for (const p of outcome.problems ?? []) console.log(p.field, p.code === "required" || p.code === "type");
  const n: VerifyOutcome = await verifyNotification("seq_id=S&order_id=o&return_code=10200&sign=x", false);
  void n;
  const problems = validateCardCheck({ full_name: "n" });
  for (const p of problems) console.log(p.field, p.code, p.message);
  try {
    planAction("{}");
  } catch (e) {
    if (e instanceof PayError) console.log(e.code, e.field);
  }
  try {
    const taken = takeAuthCallback(undefined, { expectedState: "0123456789" });
    const code: string | undefined = taken.code;
    void code;
  } catch (e) {
    if (e instanceof PayError && e.code === "auth_used") console.log("start over");
    if (e instanceof PayError && e.code === "auth_failed" && e.respCode !== undefined) console.log(e.respCode);
  }
}
void main;
