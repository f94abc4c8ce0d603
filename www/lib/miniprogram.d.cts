// Types of paybridge/miniprogram as CommonJS sees it (`require`, which
// gives miniprogram.cjs). They are declared once, in miniprogram.d.ts and
// index.d.ts, and read from there as ES-module types.
type M = typeof import("./miniprogram.js", { with: { "resolution-mode": "import" } });

export type {
  Action,
  Channel,
  DeepPartial,
  ErrorCode,
  LaunchAppButton,
  LaunchInfo,
  MiniProgramApi,
  MiniProgramCallbackResult,
  MiniProgramLaunchOptions,
  MiniProgramType,
  MiniProgramWebAssembly,
  PayEvent,
  PayEventType,
  PayOptions,
  PayResult,
  Payment,
  PlanOptions,
  Problem,
  Profile,
  ReadyOptions,
  Runtime,
  Wallet1MiniAuthRequest,
  Wallet1Scope,
  Wallet2LaunchParams,
  Wallet2LaunchRequest,
  WasmImports,
  WasmJsBuild,
  WasmJsTranslation,
} from "./miniprogram.js" with { "resolution-mode": "import" };

export type PayError = import("./miniprogram.js", { with: { "resolution-mode": "import" } }).PayError;
export declare const PayError: M["PayError"];
export declare const ready: M["ready"];
export declare const WASM_GLOBAL: M["WASM_GLOBAL"];
export declare const pay: M["pay"];
export declare const planAction: M["planAction"];
export declare const defaultProfile: M["defaultProfile"];
export declare const detectRuntime: M["detectRuntime"];
export declare const readLaunchOptions: M["readLaunchOptions"];
export declare const launchAppButton: M["launchAppButton"];
export declare const wallet1MiniAuthRequest: M["wallet1MiniAuthRequest"];
export declare const wallet2LaunchRequest: M["wallet2LaunchRequest"];
export declare const __wasmMemoryBytes: M["__wasmMemoryBytes"];
