// The synchronous exports, each guarded until its module is loaded: the
// functions themselves are in the full module (planning, detection,
// authorization, verification), which ready() loads.
import { guard, guardClass } from "./shared.js";

export { PayError } from "./shared.js";

export const [AuthClient, NotificationLog] = "AuthClient,NotificationLog".split(",").map(guardClass);

// The guarded functions: the names bound and the names in the string are
// the same list in the same (alphabetical) order, which the export clause
// of the bundled entry also has, so gzip codes the repeats as one match
// each (tests/bench/README.md); tests/node/api.test.mjs checks the two lists
// agree.
export const [
  cardnetAuthUrl,
  decodeEnvelope,
  defaultProfile,
  detectRuntime,
  isUserAuthCodeFresh,
  launchAppButton,
  newState,
  parseAuthCallback,
  parseNotification,
  passesThreshold,
  planAction,
  readLaunchOptions,
  readWallet1Token,
  readWallet2Openid,
  signInput,
  takeAuthCallback,
  validateCardCheck,
  validateNameCheck,
  verifyNotification,
  waitForBridge,
  wallet1AuthUrl,
  wallet1MiniAuthRequest,
  wallet1PageUrl,
  wallet1TokenRequest,
  wallet2AuthUrl,
  wallet2LaunchRequest,
  wallet2OauthTokenRequest,
  wallet2SessionRequest,
  watchPayment,
] = (
  "cardnetAuthUrl,decodeEnvelope,defaultProfile,detectRuntime,isUserAuthCodeFresh,launchAppButton," +
  "newState,parseAuthCallback,parseNotification,passesThreshold,planAction,readLaunchOptions," +
  "readWallet1Token,readWallet2Openid,signInput,takeAuthCallback,validateCardCheck," +
  "validateNameCheck,verifyNotification,waitForBridge,wallet1AuthUrl,wallet1MiniAuthRequest,wallet1PageUrl," +
  "wallet1TokenRequest,wallet2AuthUrl,wallet2LaunchRequest,wallet2OauthTokenRequest," +
  "wallet2SessionRequest,watchPayment"
).split(",").map(guard);
