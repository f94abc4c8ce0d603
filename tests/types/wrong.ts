// Wrong uses: `tsc --noEmit` must reject every line marked below, and the
// test checks it reports an error on each of them.
import { planAction, pay, type Action, AuthClient, wallet1PageUrl } from "paybridge";

const a: Action = planAction({ pay_channel: "wallet1" });
if (a.kind === "redirect") {
  console.log(a.fallbackUrl); // WRONG: a redirect has no fallbackUrl
}
planAction({ pay_channel: "wallet1" }, { appFallback: "maybe" }); // WRONG: not "web" | "app"
planAction({ pay_channel: "wallet1" }, { timeoutMs: "100" }); // WRONG: a number
void pay({ pay_channel: "wallet1" }, { confirm: () => "great" }); // WRONG: not a status
const s: "succeeded" = a.kind; // WRONG: kind is not a status
new AuthClient({ baseUrl: "https://x.example" }); // WRONG: appToken, env and sign are required
new AuthClient({ baseUrl: "https://x.example", appToken: "t", env: "e", sign: () => "s", verify: true }); // WRONG: a function or false
wallet1PageUrl("https://shop.example/life", { order: { id: 1 } }); // WRONG: params are strings, numbers or booleans
void s;
