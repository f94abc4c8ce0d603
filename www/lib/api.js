// The synchronous exports, each guarded until its module is loaded, one
// line an export: the functions themselves are in the wasm. `pay` names the
// small payment module (it exports `pay` and little else), `full` the one
// with everything (planning, detection, authorization, verification).
import { waitFor } from "./perform.js";
import { guard, guardClass, loaded } from "./shared.js";

export { PayError, __debugCounts, __wasmMemoryBytes } from "./shared.js";

export const planAction = guard("full", "planAction");
export const defaultProfile = guard("full", "defaultProfile");
export const detectRuntime = guard("full", "detectRuntime");
export const waitForBridge = (name, readyEvent, options) => waitFor(loaded("full", "waitForBridge").bg, name, readyEvent, options);
export const wallet1AuthUrl = guard("full", "wallet1AuthUrl");
export const wallet2AuthUrl = guard("full", "wallet2AuthUrl");
export const cardnetAuthUrl = guard("full", "cardnetAuthUrl");
export const parseAuthCallback = guard("full", "parseAuthCallback");
export const takeAuthCallback = guard("full", "takeAuthCallback");
export const isUserAuthCodeFresh = guard("full", "isUserAuthCodeFresh");
export const newState = guard("full", "newState");
export const wallet1TokenRequest = guard("full", "wallet1TokenRequest");
export const wallet2OauthTokenRequest = guard("full", "wallet2OauthTokenRequest");
export const wallet2SessionRequest = guard("full", "wallet2SessionRequest");
export const readWallet1Token = guard("full", "readWallet1Token");
export const readWallet2Openid = guard("full", "readWallet2Openid");
export const AuthClient = guardClass("AuthClient");
export const NotificationLog = guardClass("NotificationLog");
export const validateCardCheck = guard("full", "validateCardCheck");
export const validateNameCheck = guard("full", "validateNameCheck");
export const decodeEnvelope = guard("full", "decodeEnvelope");
export const parseNotification = guard("full", "parseNotification");
export const verifyNotification = guard("full", "verifyNotification");
export const passesThreshold = guard("full", "passesThreshold");
export const signInput = guard("full", "signInput");
export const wallet1MiniAuthRequest = guard("full", "wallet1MiniAuthRequest");
export const wallet2LaunchRequest = guard("full", "wallet2LaunchRequest");
export const readLaunchOptions = guard("full", "readLaunchOptions");
export const launchAppButton = guard("full", "launchAppButton");
