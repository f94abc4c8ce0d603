// The synchronous exports, each guarded until the module is loaded. One
// line an export: the functions themselves are in the wasm.
import * as bg from "./paybridge_bg.js";
import { guard, guardClass } from "./shared.js";

export { PayError, __wasmMemoryBytes } from "./shared.js";

export const planAction = guard("planAction", bg.planAction);
export const defaultProfile = guard("defaultProfile", bg.defaultProfile);
export const detectRuntime = guard("detectRuntime", bg.detectRuntime);
export const waitForBridge = guard("waitForBridge", bg.waitForBridge);
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
