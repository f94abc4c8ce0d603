// A user's page script, bundled by esbuild in tests/browser/bundler.test.mjs:
// the package as a bundler sees it (the `default` condition of its exports).
import { ready, planAction, pay, wallet1AuthUrl, defaultProfile } from "paybridge";

window.app = async () => {
  await ready();
  const profile = defaultProfile();
  window[profile.wallet1.bridge] = { call: (name, params, cb) => cb({ resultCode: "9000" }) };
  return {
    planned: planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "B1" } }).kind,
    paid: (await pay({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "B1" } })).status,
    auth: wallet1AuthUrl({ appId: "a1", redirectUri: "https://m.example/cb", scopes: ["auth_base"], state: "state-0123456789" }).startsWith("https://"),
  };
};
