// Types of paybridge/miniprogram (www/lib/miniprogram.js). The shapes shared
// with the main entry are declared once, in index.d.ts.
import type { DeepPartial, PayOptions, PayResult, Payment, Profile } from "./index.js";

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
  PayEvent,
  PayEventType,
  PayOptions,
  PayResult,
  Payment,
  PlanOptions,
  Problem,
  Profile,
  Runtime,
  Wallet1MiniAuthRequest,
  Wallet1Scope,
  Wallet2LaunchParams,
  Wallet2LaunchRequest,
} from "./index.js";
export {
  PayError,
  defaultProfile,
  detectRuntime,
  launchAppButton,
  planAction,
  readLaunchOptions,
  wallet1MiniAuthRequest,
  wallet2LaunchRequest,
} from "./index.js";

/** The imports the module is instantiated with. */
export type WasmImports = Record<string, Record<string, unknown>>;

/**
 * A mini-program runtime's WebAssembly object: `instantiate()` takes a path
 * inside the code package (`.wasm` or `.wasm.br`), not bytes or a URL.
 */
export interface MiniProgramWebAssembly {
  instantiate(path: string, imports: WasmImports): Promise<{ instance: { exports: object } } | { exports: object }>;
}

/** The JavaScript build, `paybridge/paybridge.wasm.cjs` (see paybridge.wasm.d.cts). */
export interface WasmJsBuild {
  readonly bindings: object;
  readonly wasmExports: object;
}

/**
 * The mini-program folder's JavaScript build, `miniprogram/paybridge.wasm.js`:
 * the translated module alone, which `ready()` links with this module's own
 * glue (for a project that keeps that file elsewhere in its code package).
 */
export interface WasmJsTranslation {
  instantiate(imports: { bg: object }): object;
}

/** The default profile's `wallet2.webAssemblyGlobal`: the runtime WebAssembly object `ready()` looks for first. */
export declare const WASM_GLOBAL: string;

export interface ReadyOptions {
  /** paybridge_mini_bg.wasm (or .wasm.br) inside the code package, e.g. `/lib/paybridge_mini_bg.wasm`. */
  wasmPath?: string;
  /**
   * The runtime's WebAssembly object. Default: the global the profile's
   * `wallet2.webAssemblyGlobal` names ({@link WASM_GLOBAL}), else the
   * standard `WebAssembly`, where the runtime lets code reach either.
   */
  WebAssembly?: MiniProgramWebAssembly;
  /**
   * Where there is no WebAssembly, or the runtime's cannot load `wasmPath`
   * (a standard WebAssembly takes bytes, not a path): the JavaScript build,
   * or a function that loads it only then: `() => require("paybridge/paybridge.wasm.cjs")`;
   * or the mini-program folder's `paybridge.wasm.js` kept elsewhere.
   */
  wasmJs?: WasmJsBuild | WasmJsTranslation | { default: WasmJsBuild } | (() => WasmJsBuild | WasmJsTranslation | { default: WasmJsBuild });
  /**
   * A profile, as `pay()` takes: its `wallet2.webAssemblyGlobal` names the
   * runtime's WebAssembly global once, e.g.
   * `ready({ profile: { wallet2: { webAssemblyGlobal: "RuntimeWebAssembly" } } })`.
   */
  profile?: DeepPartial<Profile>;
}

/**
 * Loads the module once (later calls return the same promise): through the
 * runtime's WebAssembly from `wasmPath`, or, with no WebAssembly or one that
 * cannot load that path, `wasmJs`. Where a bundler resolved this module (a
 * Taro or uni-app build), `ready()` with no options runs the JavaScript
 * build bundled with it; in a wallet2 npm build, the `.wasm.br` beside it;
 * under Node's conditions in Node (a unit test in Jest's or Vitest's node
 * environment too), the JavaScript build, `paybridge/paybridge.wasm.cjs`. Fails with PayError `not_ready` (or
 * `invalid_options` for a malformed option), its `cause` the runtime's error.
 */
export function ready(options?: ReadyOptions): Promise<void>;

/**
 * Awaits ready() (a first call before any ready() calls it with no
 * options, which loads the module as above), then pays through
 * `options.api`, the mini-program's API object (its global): `tradePay` for
 * wallet1, `requestPayment` for wallet2.
 */
export function pay(payment: Payment | string, options?: PayOptions): Promise<PayResult>;

/** Bytes of the module's linear memory (0 before loading). */
export function __wasmMemoryBytes(): number;
