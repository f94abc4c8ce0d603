// The synchronous exports, each guarded until the module is loaded. One
// line an export: the functions themselves are in the wasm.
import * as bg from "./paybridge_bg.js";
import { guard } from "./shared.js";

export { PayError, __wasmMemoryBytes } from "./shared.js";

export const planAction = guard("planAction", bg.planAction);
export const defaultProfile = guard("defaultProfile", bg.defaultProfile);
export const detectRuntime = guard("detectRuntime", bg.detectRuntime);
export const waitForBridge = guard("waitForBridge", bg.waitForBridge);
export const __debugCounts = guard("__debugCounts", bg.__debugCounts);
export const wallet1MiniAuthRequest = guard("wallet1MiniAuthRequest", bg.wallet1MiniAuthRequest);
export const wallet2LaunchRequest = guard("wallet2LaunchRequest", bg.wallet2LaunchRequest);
export const readLaunchOptions = guard("readLaunchOptions", bg.readLaunchOptions);
export const launchAppButton = guard("launchAppButton", bg.launchAppButton);
