// The synchronous exports, each guarded until the module is loaded. One
// line an export: the functions themselves are in the wasm.
import * as bg from "./paybridge_bg.js";
import { guard, guardClass } from "./shared.js";

export { PayError, __wasmMemoryBytes } from "./shared.js";

export const planAction = guard("planAction", bg.planAction);
export const defaultProfile = guard("defaultProfile", bg.defaultProfile);
export const detectRuntime = guard("detectRuntime", bg.detectRuntime);
export const waitForBridge = guard("waitForBridge", bg.waitForBridge);
export const wallet1AuthUrl = guard("wallet1AuthUrl", bg.wallet1AuthUrl);
export const wallet2AuthUrl = guard("wallet2AuthUrl", bg.wallet2AuthUrl);
export const cardnetAuthUrl = guard("cardnetAuthUrl", bg.cardnetAuthUrl);
export const parseAuthCallback = guard("parseAuthCallback", bg.parseAuthCallback);
export const isUserAuthCodeFresh = guard("isUserAuthCodeFresh", bg.isUserAuthCodeFresh);
export const newState = guard("newState", bg.newState);
export const wallet1TokenRequest = guard("wallet1TokenRequest", bg.wallet1TokenRequest);
export const wallet2OauthTokenRequest = guard("wallet2OauthTokenRequest", bg.wallet2OauthTokenRequest);
export const wallet2SessionRequest = guard("wallet2SessionRequest", bg.wallet2SessionRequest);
export const readWallet1Token = guard("readWallet1Token", bg.readWallet1Token);
export const readWallet2Openid = guard("readWallet2Openid", bg.readWallet2Openid);
export const AuthClient = guardClass("AuthClient", bg.AuthClient);
export const NotificationLog = guardClass("NotificationLog", bg.NotificationLog);
export const validateCardCheck = guard("validateCardCheck", bg.validateCardCheck);
export const validateNameCheck = guard("validateNameCheck", bg.validateNameCheck);
export const decodeEnvelope = guard("decodeEnvelope", bg.decodeEnvelope);
export const parseNotification = guard("parseNotification", bg.parseNotification);
export const verifyNotification = guard("verifyNotification", bg.verifyNotification);
export const passesThreshold = guard("passesThreshold", bg.passesThreshold);
export const signInput = guard("signInput", bg.signInput);
export const __debugCounts = guard("__debugCounts", bg.__debugCounts);
