// The synchronous exports, each guarded until its module is loaded, one
// line an export: the functions themselves are in the wasm. `pay` names the
// small payment module, `full` the one with authorization and verification.
import { guard, guardClass } from "./shared.js";

export { PayError, __wasmMemoryBytes } from "./shared.js";

export const planAction = guard("pay", "planAction");
export const defaultProfile = guard("pay", "defaultProfile");
export const detectRuntime = guard("pay", "detectRuntime");
export const waitForBridge = guard("pay", "waitForBridge");
export const wallet1AuthUrl = guard("full", "wallet1AuthUrl");
export const wallet2AuthUrl = guard("full", "wallet2AuthUrl");
export const cardnetAuthUrl = guard("full", "cardnetAuthUrl");
export const parseAuthCallback = guard("full", "parseAuthCallback");
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
export const __debugCounts = guard("pay", "__debugCounts");
export const wallet1MiniAuthRequest = guard("pay", "wallet1MiniAuthRequest");
export const wallet2LaunchRequest = guard("pay", "wallet2LaunchRequest");
export const readLaunchOptions = guard("pay", "readLaunchOptions");
export const launchAppButton = guard("pay", "launchAppButton");
