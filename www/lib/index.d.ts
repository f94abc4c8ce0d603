// Types of the paybridge package. Hand-written next to the Rust that
// produces these shapes (src/action.rs, src/outcome.rs, src/profile.rs, ...).

export type ErrorCode =
  | "not_ready"
  | "invalid_payment"
  | "unsupported_channel"
  | "unsafe_url"
  | "invalid_options"
  | "wrong_runtime"
  | "bridge_timeout"
  | "busy"
  | "invalid_request"
  | "invalid_response"
  | "bad_signature"
  | "transport"
  | "bridge_error"
  | "confirm_failed"
  | "auth_failed"
  | "auth_expired";

export interface Problem {
  field: string;
  code: string;
  message: string;
}

/** Every failure of the module. */
export declare class PayError extends Error {
  readonly name: "PayError";
  readonly code: ErrorCode;
  /** Dotted path of the input field at fault, e.g. `pay_info.paySign`. */
  readonly field?: string;
  /** Every problem, for `invalid_request`. */
  readonly details?: Problem[];
  readonly cause?: unknown;
}

export type Channel = "wallet1" | "wallet1_wap" | "wallet1_lite" | "wallet1_pub" | "wallet2_lite" | "wallet2_pub" | "cardnet";

export interface Wallet2PayFields {
  timeStamp: string | number;
  nonceStr: string;
  package: string;
  signType: string;
  paySign: string;
}

/** The payment object the service returns (fields the module reads). */
export interface Payment {
  /** A channel or an alias from `profile.channelAliases`. */
  pay_channel: Channel | (string & {});
  /** A URL (wallet1, wallet1_wap), an object, or JSON text of an object. */
  pay_info?: string | { tradeNO?: string; tradeNo?: string } | (Wallet2PayFields & { appId?: string }) | Record<string, unknown>;
  expend?: { pay_url?: string; [key: string]: unknown };
  [key: string]: unknown;
}

export type ResultStatus = "succeeded" | "pending" | "cancelled" | "failed";

export interface Profile {
  wallet1: {
    scheme: string;
    bridge: string;
    readyEvent: string;
    uaToken: string;
    miniProgramGlobal: string;
    resultCodes: Record<string, ResultStatus>;
    authUrl: string;
    tokenUrl: string;
    tokenMethod: string;
  };
  wallet2: {
    bridge: string;
    readyEvent: string;
    payMethod: string;
    uaToken: string;
    miniProgramGlobal: string;
    authorizeUrl: string;
    redirectFragment: string;
    oauthTokenUrl: string;
    sessionUrl: string;
    /** What a mini-program's original id starts with (`wallet2LaunchRequest` checks `userName`). */
    originalIdPrefix: string;
  };
  cardnet: { authUrl: string };
  mobileTokens: string[];
  channelAliases: Record<string, Channel>;
}

export type DeepPartial<T> = T extends readonly (infer U)[] ? U[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> | null } : T;

export type Host = "browser" | "wallet1" | "wallet2" | "wallet1_mini_program" | "wallet2_mini_program";

export interface Runtime {
  host: Host;
  mobile: boolean;
}

export interface PlanOptions {
  /** Overrides detection. */
  runtime?: Runtime;
  /** Merged over `defaultProfile()`. */
  profile?: DeepPartial<Profile>;
  /** `"pay.example.com"` or `"*.example.com"`; default: any https host. */
  allowedHosts?: string[];
  /** wallet1 / wallet1_wap: `"web"` loads `pay_info` itself (covers a missing app). Default `"app"`. */
  appFallback?: "web" | "app";
  /** wallet1_lite opened from outside the wallet. */
  miniProgram?: { appId: string; page?: string };
  /** Bridge-ready wait in ms (default 10000). */
  timeoutMs?: number;
  /** Also accept `http://127.0.0.1` and `http://localhost` URLs (the local sandbox only). */
  insecureLoopback?: boolean;
  /**
   * In a mini-program: its API object. It also names the runtime (`tradePay`:
   * the wallet1 mini-program, `requestPayment`: wallet2's). Default: the
   * profile's `miniProgramGlobal` on `globalThis`.
   */
  api?: MiniProgramApi;
}

export type PayEventType =
  | "planned"
  | "waiting"
  | "bridge_ready"
  | "called"
  | "callback"
  | "callback_ignored"
  | "navigating"
  | "result"
  | "timeout";

export interface PayEvent {
  type: PayEventType;
  /** `performance.now()` when it happened. */
  at: number;
  detail?: unknown;
}

/** What a wallet's mini-program payment calls back with. */
export interface MiniProgramCallbackResult {
  /** wallet2: `requestPayment:ok`, `requestPayment:fail cancel`, ... */
  errMsg?: string;
  /** wallet1: the trade-pay result code (`9000`, `6001`, ...). */
  resultCode?: string | number;
  /** wallet1 `fail`: the error code and message. */
  error?: string | number;
  errorMessage?: string;
  [key: string]: unknown;
}

/** The mini-program's own API object (its global), as `pay()` uses it. */
export interface MiniProgramApi {
  /** wallet1: `tradePay({ tradeNO, success, fail })`. */
  tradePay?(request: {
    tradeNO: string;
    success(result: MiniProgramCallbackResult): void;
    fail(result: MiniProgramCallbackResult): void;
  }): void;
  /** wallet2: `requestPayment({ timeStamp, nonceStr, package, signType, paySign, success, fail, complete })`. */
  requestPayment?(
    request: Wallet2RequestPaymentAction["params"] & {
      success(result: MiniProgramCallbackResult): void;
      fail(result: MiniProgramCallbackResult): void;
      complete(result: MiniProgramCallbackResult): void;
    },
  ): void;
}

export interface PayOptions extends PlanOptions {
  /** open_url: when the page is still visible this long after opening the app, go to `fallbackUrl`. */
  fallbackAfterMs?: number;
  /** Each step as it happens; a throwing handler never breaks the payment. */
  onEvent?: (e: PayEvent) => void;
  /** Asks the merchant's server for the verified status. */
  confirm?: (payment: Payment | string, result: PayResult) => PayResult["status"] | Promise<PayResult["status"]>;
  /** How long `confirm` may take (default 15000 ms). */
  confirmTimeoutMs?: number;
}

interface ActionBase {
  /** The channel the action was planned for (aliases resolved). */
  channel: Channel;
}

export interface OpenUrlAction extends ActionBase {
  kind: "open_url";
  /** `<scheme>://platformapi/startapp?saId=10000007&qrcode=<pay_info>` */
  url: string;
  /** `pay_info` itself: the web cashier. */
  fallbackUrl: string;
}

export interface RedirectAction extends ActionBase {
  kind: "redirect";
  url: string;
}

export interface OpenMiniProgramAction extends ActionBase {
  kind: "open_mini_program";
  url: string;
}

export interface Wallet1TradePayAction extends ActionBase {
  kind: "wallet1_trade_pay";
  tradeNO: string;
  via: "bridge" | "mini_program";
}

export interface Wallet2BridgePayAction extends ActionBase {
  kind: "wallet2_bridge_pay";
  params: { appId: string; timeStamp: string; nonceStr: string; package: string; signType: string; paySign: string };
}

export interface Wallet2RequestPaymentAction extends ActionBase {
  kind: "wallet2_request_payment";
  params: { timeStamp: string; nonceStr: string; package: string; signType: string; paySign: string };
}

export type Action =
  | OpenUrlAction
  | RedirectAction
  | OpenMiniProgramAction
  | Wallet1TradePayAction
  | Wallet2BridgePayAction
  | Wallet2RequestPaymentAction;

export interface PayResult {
  status: "succeeded" | "pending" | "cancelled" | "failed" | "redirected" | "opened";
  channel: string;
  /** False for a client-side hint; true when `confirm` answered. */
  verified: boolean;
  /** The wallet's own code or err_msg, untouched. */
  code?: string;
  message?: string;
  /** What the wallet returned. */
  raw?: unknown;
}

export function ready(options?: { wasm?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module }): Promise<void>;
export function planAction(payment: Payment | string, options?: PlanOptions): Action;
export function pay(payment: Payment | string, options?: PayOptions): Promise<PayResult>;
export function defaultProfile(): Profile;
export function detectRuntime(input?: { userAgent?: string; globals?: Record<string, unknown>; profile?: DeepPartial<Profile> }): Runtime;
export function waitForBridge(name: string, readyEvent: string, options?: { timeoutMs?: number }): Promise<object>;

/** A wallet1 authorization scope: `auth_user` (explicit), `auth_base` (silent), or another `auth_*` scope. */
export type Wallet1Scope = "auth_user" | "auth_base" | `auth_${string}`;

/** The object to give the wallet1 mini-program's `getAuthCode` (with its own `success` and `fail`). */
export interface Wallet1MiniAuthRequest {
  scopes: Wallet1Scope[];
}

/** `scopes`: an array, or one string of names separated by commas. */
export function wallet1MiniAuthRequest(params: { scopes: Wallet1Scope[] | string }): Wallet1MiniAuthRequest;

/** 0 release, 1 test, 2 preview. */
export type MiniProgramType = 0 | 1 | 2 | "release" | "test" | "preview";

export interface Wallet2LaunchParams {
  /** The mini-program's original id: `profile.wallet2.originalIdPrefix` (`gh_`) then letters and digits. */
  userName: string;
  /** The page, e.g. `pages/pay/index`; the home page when absent. */
  path?: string;
  /** Appended to `path`, every key and value percent-encoded. */
  query?: Record<string, string | number | boolean>;
  /** Default 0 (release). */
  type?: MiniProgramType;
}

/** What a native app passes to the wallet2 SDK to open the paying mini-program. */
export interface Wallet2LaunchRequest {
  userName: string;
  /** `path?query`. */
  path?: string;
  type: 0 | 1 | 2;
}

export function wallet2LaunchRequest(params: Wallet2LaunchParams, options?: { profile?: DeepPartial<Profile> }): Wallet2LaunchRequest;

/** A mini-program's launch options (`onLaunch`, `onLoad`, `getLaunchOptionsSync()`). */
export interface MiniProgramLaunchOptions {
  scene?: number | string;
  query?: Record<string, unknown>;
  path?: string;
  [key: string]: unknown;
}

export interface LaunchInfo {
  /** Scene 1069: opened from a native app. */
  fromApp: boolean;
  scene?: number;
  /** The query's string, number and boolean values, as text. */
  query: Record<string, string>;
  path?: string;
  /** `query[appParameterKey]` (default `appParameter`): the value to hand back with the return-to-app button. */
  appParameter?: string;
}

export function readLaunchOptions(options: MiniProgramLaunchOptions, params?: { appParameterKey?: string }): LaunchInfo;

/** The attributes of the button that returns to the app (the page defines `onLaunchAppError`). */
export interface LaunchAppButton {
  "open-type": "launchApp";
  "app-parameter": string;
  binderror: "onLaunchAppError";
}

/** `appParameter`: 1 to 1024 printable ASCII characters. */
export function launchAppButton(appParameter: string): LaunchAppButton;
