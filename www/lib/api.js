// The synchronous exports, each guarded until its module is loaded, one
// line an export: the functions themselves are in the full module
// (planning, detection, authorization, verification), which ready() loads.
import { waitFor } from "./perform.js";
import { guard, guardClass, loaded } from "./shared.js";

export { PayError } from "./shared.js";

export const planAction = guard("planAction");
export const defaultProfile = guard("defaultProfile");
export const detectRuntime = guard("detectRuntime");
export const waitForBridge = (name, readyEvent, options) => waitFor(loaded("waitForBridge").bg, name, readyEvent, options);
export const wallet1AuthUrl = guard("wallet1AuthUrl");
export const wallet2AuthUrl = guard("wallet2AuthUrl");
export const cardnetAuthUrl = guard("cardnetAuthUrl");
export const wallet1PageUrl = guard("wallet1PageUrl");
export const parseAuthCallback = guard("parseAuthCallback");
export const takeAuthCallback = guard("takeAuthCallback");
export const isUserAuthCodeFresh = guard("isUserAuthCodeFresh");
export const newState = guard("newState");
export const wallet1TokenRequest = guard("wallet1TokenRequest");
export const wallet2OauthTokenRequest = guard("wallet2OauthTokenRequest");
export const wallet2SessionRequest = guard("wallet2SessionRequest");
export const readWallet1Token = guard("readWallet1Token");
export const readWallet2Openid = guard("readWallet2Openid");
export const AuthClient = guardClass("AuthClient");
export const NotificationLog = guardClass("NotificationLog");
export const validateCardCheck = guard("validateCardCheck");
export const validateNameCheck = guard("validateNameCheck");
export const decodeEnvelope = guard("decodeEnvelope");
export const parseNotification = guard("parseNotification");
export const verifyNotification = guard("verifyNotification");
export const passesThreshold = guard("passesThreshold");
export const signInput = guard("signInput");
export const wallet1MiniAuthRequest = guard("wallet1MiniAuthRequest");
export const wallet2LaunchRequest = guard("wallet2LaunchRequest");
export const readLaunchOptions = guard("readLaunchOptions");
export const launchAppButton = guard("launchAppButton");
