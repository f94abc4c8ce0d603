// Types of the paybridge package. Hand-written next to the Rust that
// produces these shapes (src/action.rs, src/outcome.rs, src/profile/, ...).

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
  | "auth_expired"
  | "auth_used"
  | "hook_failed";

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
  /** For `confirm_failed` from `pay()`: the wallet's result, unverified. */
  readonly result?: PayResult;
  /** For `auth_failed` from a card-network callback: its `respCode` (not `00`). */
  readonly respCode?: string;
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
    /** The mini-program runtime's WebAssembly object (instantiate() from a path in the code package); `paybridge/miniprogram`'s `ready()` looks for it first. */
    webAssemblyGlobal: string;
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
  /**
   * `"pay.example.com"`, an exact IPv4 address, or `"*.example.com"` (host
   * names only: a `*.` rule never matches an IP address); default: any
   * https host.
   */
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
  /**
   * How long the wallet's answer is awaited once it was asked to pay (default 600000 ms, 10 minutes):
   * then the result is `pending` (ask your server), and a later answer changes nothing.
   */
  callbackTimeoutMs?: number;
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

/**
 * Loads the modules once (later calls return the same promise). `wasm`
 * replaces the payment module (which this entry carries); `wasmFull` the
 * full module's location, for a page that serves `paybridge_full_bg.wasm`
 * (exported as `paybridge/paybridge_full_bg.wasm`) from elsewhere, such as
 * a CDN: a URL, its bytes or a compiled `WebAssembly.Module`.
 */
export function ready(options?: {
  wasm?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module;
  wasmFull?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module;
}): Promise<void>;

export function planAction(payment: Payment | string, options?: PlanOptions): Action;
export function pay(payment: Payment | string, options?: PayOptions): Promise<PayResult>;
export function defaultProfile(): Profile;
export function detectRuntime(input?: { userAgent?: string; globals?: Record<string, unknown>; profile?: DeepPartial<Profile> }): Runtime;
export function waitForBridge(name: string, readyEvent: string, options?: { timeoutMs?: number }): Promise<object>;

// ------------------------------------------------------------ authorization
// (src/authorize/, src/web/authorize.rs)

/** Options of the authorization builders and the server-side exchanges. */
export interface AuthOptions {
  /** Merged over `defaultProfile()`: provider addresses and wallet2's fragment. */
  profile?: DeepPartial<Profile>;
  /** Also accept `http://127.0.0.1` or `http://localhost` redirect and profile addresses (the local sandbox only). */
  insecureLoopback?: boolean;
}

/** `wallet1AuthUrl` parameters. */
export interface Wallet1AuthParams {
  /** The wallet1 application id (letters, digits, `_ - .`; at most 64). */
  appId: string;
  /** The https address wallet1 sends the user back to (percent-encode spaces and non-ASCII). */
  redirectUri: string;
  /** `auth_user` (explicit), `auth_base` (silent), ...: an array, or one string of names separated by commas. */
  scopes: string[] | string;
  /** 8 to 128 characters of `A-Z a-z 0-9 - . _ ~`; `newState()` makes one. */
  state: string;
}

/** `wallet2AuthUrl` parameters. */
export interface Wallet2AuthParams {
  appId: string;
  redirectUri: string;
  /** One scope name; silent authorization is enough to learn the openid. */
  scope: string;
  state: string;
}

/** `cardnetAuthUrl` parameters. */
export interface CardnetAuthParams {
  /**
   * The callback address under the merchant's registered domain. The card
   * network sends no state of its own: put one in this address's query and
   * give it to `parseAuthCallback` / `cardnetPay` as `expectedState`.
   */
  redirectUrl: string;
}

export type AuthProvider = "wallet1" | "wallet2" | "cardnet";

/** A callback that passed every check (`parseAuthCallback`). Keep it as it is to pass it on later. */
export interface AuthCallback {
  provider: AuthProvider;
  /** The authorization code: wallet1 `auth_code`, wallet2 `code`. */
  code?: string;
  state?: string;
  /** Card network: always `"00"` (any other `respCode` is a PayError `auth_failed`). */
  respCode?: string;
  /** Card network: the temporary code, valid 5 minutes from `receivedAt`. */
  userAuthCode?: string;
  /** wallet1's `app_id` echo. */
  appId?: string;
  /** wallet1's granted `scope`. */
  scope?: string;
  /** When the callback was read, ms since the epoch. */
  receivedAt: number;
}

export interface ParseAuthCallbackOptions {
  /**
   * The state this page sent: the callback's must be present and equal (else PayError `auth_failed`, field `state`).
   * `null`, what storage answers for a state it does not hold, is refused (`invalid_options`), never read as "no check".
   */
  expectedState?: string | null;
  /** The time to stamp as `receivedAt`, ms since the epoch (default `Date.now()`). */
  now?: number;
}

/** What `order` is given besides the code. */
export interface CardnetOrder {
  userAuthCode: string;
  /** `receivedAt` + 5 minutes: order before this. */
  expiresAt: number;
}

export interface CardnetPayOptions extends Omit<PayOptions, "confirm" | "confirmTimeoutMs" | "fallbackAfterMs" | "callbackTimeoutMs">, ParseAuthCallbackOptions {
  /** How long `order` may take before the call rejects with PayError `transport` (default 15000 ms). */
  confirmTimeoutMs?: number;
  /**
   * The merchant's call that orders with the card-network code and gives
   * the cardnet payment (`expend.pay_url`). A throw or a rejection is a
   * PayError `transport` (field `order`) with the thrown value as `cause`,
   * and so is no answer within `confirmTimeoutMs`; except a rejection with
   * an object whose `code` is `auth_expired` (the card network's own expiry
   * of the code, which only the merchant sees) or `auth_used` (the code
   * ordered before, in another tab), which rejects with that code (field
   * `userAuthCode`, the object's `message` in the error's);
   * an answer that is not a cardnet payment is `invalid_payment` or
   * `unsafe_url`, and the page does not move.
   */
  order: (userAuthCode: string, info: CardnetOrder) => Payment | string | PromiseLike<Payment | string>;
}

/** `cardnetPay`'s result: the page is on its way to `expend.pay_url`. */
export interface CardnetPayResult extends PayResult {
  status: "redirected";
  channel: "cardnet";
  verified: false;
  /** The payment `order` gave. */
  raw: Payment | string;
}

/**
 * One HTTP request for the merchant's server to send (the code exchanges).
 * These carry the application secret (wallet2) or must be signed with the
 * merchant's private key (wallet1): build them on a server, never in a page
 * or a mini-program.
 */
export interface ExchangeRequest {
  method: "GET" | "POST";
  /** The address without the parameters. */
  url: string;
  /** The parameters in the provider's order (values not encoded). */
  params: Record<string, string>;
  /** GET: `url` with the parameters percent-encoded in its query. */
  href?: string;
  /** POST that needs no signature: the form-encoded body. */
  body?: string;
  /**
   * When present, sign `params` under the provider's gateway rules, put the
   * signature in `params[signParam]`, and form-encode them as the body.
   */
  signParam?: string;
}

/** The wallet1 exchange's answer, read. */
export interface Wallet1Token {
  /** The payer's wallet1 user id (`user_id` of wallet1_pub, `buyer_id` of wallet1_lite). */
  userId: string;
  accessToken: string;
}

/** A wallet1 authorization address (`app_id, scope, redirect_uri, state`). Throws PayError `invalid_options` / `unsafe_url`. */
export function wallet1AuthUrl(params: Wallet1AuthParams, options?: AuthOptions): string;
/** A wallet2 authorization address (`appid, redirect_uri, response_type=code, scope, state, connect_redirect=1`, then the profile's fragment). */
export function wallet2AuthUrl(params: Wallet2AuthParams, options?: AuthOptions): string;
/** The card-network authorization address (`version=1.0.0, redirectUrl`). */
export function cardnetAuthUrl(params: CardnetAuthParams, options?: AuthOptions): string;
/**
 * Step 1 of the wallet1 life-account flow: `<scheme>://platformapi/startapp?saId=10000007&qrcode=<page URL>`, the page URL
 * with `params` appended to its query (each key and value percent-encoded; `null` values left out). The page URL is checked
 * like every URL opened (`unsafe_url`: https, a plain host, within `allowedHosts`).
 */
export function wallet1PageUrl(pageUrl: string, params?: Record<string, string | number | boolean | null> | null, options?: Wallet1PageOptions): string;
/** Options of `wallet1PageUrl`. */
export interface Wallet1PageOptions extends AuthOptions {
  /** Where the page URL may point (as for `pay()`): `"shop.example"` or `"*.shop.example"`. */
  allowedHosts?: string[];
}
/** Reads a callback address (`location.href`, a request path, or a `URL`). Throws PayError `auth_failed` with the parameter at fault as `field`. */
export function parseAuthCallback(url: string | URL | { href: string }, options?: ParseAuthCallbackOptions): AuthCallback;
/**
 * Reads a callback as `parseAuthCallback` does (`url` defaults to
 * `location.href`), then takes it: its parameters leave the address bar
 * (`history.replaceState`) and it is remembered as used for the tab
 * (`sessionStorage`, where there is one), so that Back, reload or Forward to
 * the page gives PayError `auth_used` at once (field: the provider's code,
 * `auth_code`, `code` or `userAuthCode`) instead of a failed exchange later.
 */
export function takeAuthCallback(url?: string | URL | { href: string }, options?: ParseAuthCallbackOptions): AuthCallback;
/** A card-network callback whose `userAuthCode` is less than 5 minutes old at `now` (default `Date.now()`); false for anything else. */
export function isUserAuthCodeFresh(cb: AuthCallback, now?: number): boolean;
/** 22 unguessable characters from `crypto.getRandomValues` (PayError `wrong_runtime` where there is none). */
export function newState(): string;
/**
 * The card-network flow in one call: read the callback (its address, or the
 * `AuthCallback` the page kept), check it (`auth_failed`: provider, state,
 * `respCode`; `auth_expired`: older than 5 minutes; `auth_used`: this tab
 * took it already), take it as `takeAuthCallback` does, call `order`, plan the
 * payment it gives (a cardnet redirect to a checked `expend.pay_url`,
 * `allowedHosts` included) and navigate there. Shares `pay()`'s one-at-a-time
 * guard (`busy`). Events (`onEvent`): `callback`, `called` (`order`),
 * `planned`, `navigating`, `result`; the callback is taken before the first
 * of them is reported.
 */
export function cardnetPay(callback: string | URL | { href: string } | AuthCallback, options: CardnetPayOptions): Promise<CardnetPayResult>;

/** Server only (carries a secret to sign with): the wallet1 `authorization_code` grant, unsigned. */
export function wallet1TokenRequest(params: { appId: string; code: string }, options?: AuthOptions): ExchangeRequest;
/** Server only (carries the app secret): wallet2's official-account code exchange. */
export function wallet2OauthTokenRequest(params: { appId: string; secret: string; code: string }, options?: AuthOptions): ExchangeRequest;
/** Server only (carries the app secret): wallet2's mini-program session exchange. */
export function wallet2SessionRequest(params: { appId: string; secret: string; jsCode: string }, options?: AuthOptions): ExchangeRequest;
/** Server only: reads wallet1's exchange answer (object or its JSON text). PayError `auth_failed` when wallet1 refused, `invalid_response` when unreadable. */
export function readWallet1Token(answer: object | string): Wallet1Token;
/** Server only: the `openid` of a wallet2 exchange answer (object or its JSON text). */
export function readWallet2Openid(answer: object | string): string;
// ---------------------------------------------------------------- aggregated authentication
// Shapes produced by src/verify/ (outcome.rs, envelope.rs, notify.rs) and
// src/web/auth.rs, src/web/auth_tools.rs, src/web/transport.rs.

/** Values of `source_channel`: 0 PC, 1 Android, 2 iOS. */
export type SourceChannel = "0" | "1" | "2";

/** Fields of a `cardcheck` (bank-card verification). Every value is text. */
export interface CardCheckFields {
  full_name: string;
  /**
   * The account number, digits only: a card's is 12 to 19 digits passing the Luhn check; a passbook's or
   * virtual account's (`card_type` P, V) or a corporate account's (`acct_type` E) is at most 32 digits, with no check digit.
   */
  acct_no: string;
  /** 18 characters (GB 11643 check digit); needed for three and four factors. */
  id_number?: string;
  /** 11 digits; needs `id_number` (four factors). */
  mobile_no?: string;
  source_channel: SourceChannel;
  /** E corporate; P personal. */
  acct_type?: "E" | "P";
  /** D debit; C credit; P passbook; V virtual account; Y prepaid; Z combined. */
  card_type?: "D" | "C" | "P" | "V" | "Y" | "Z";
  /** mmyy; required for a credit card. */
  valid_date?: string;
  /** Required for a credit card. */
  cvv2?: string;
  bank_identity?: string;
  imei?: string;
  /** Where the asynchronous result is POSTed (http:// or https://). */
  mer_bg_url?: string;
  authorization_info?: string;
  /** Generated when absent (and always in the outcome). */
  order_id?: string;
  /** YYYYMMDD; generated when absent. */
  order_date?: string;
  /** Other parameters are sent as they are. */
  [field: string]: string | null | undefined;
}

/** Fields of a `namecheck` (ID-card verification). */
export interface NameCheckFields {
  full_name: string;
  id_number: string;
  source_channel: SourceChannel;
  imei?: string;
  authorization_info?: string;
  order_id?: string;
  order_date?: string;
  [field: string]: string | null | undefined;
}

/** What `checkResult` and `awaitResult` ask for; an outcome is one too. */
export type CheckResultRef =
  | { seqId: string; orderId?: string; orderDate?: string }
  | { orderId: string; orderDate?: string; seqId?: "" | null };

export type VerifyState = "consistent" | "inconsistent" | "exception" | "pending" | "not_found" | "failed" | "call_failed";

export interface FileItem {
  file_id: string;
  /** 00 portrait photo; 01 ID-card front; 02 ID-card back. */
  file_type: string;
  file_source: string;
}

export interface FaceIdentifyItem {
  personId: string;
  fileId: string;
  personName: string;
  score: string;
}

/** Every field of a result-query answer or a notification, as it came. */
export interface VerifyRecord {
  return_code?: string;
  return_message?: string;
  resp_code?: string;
  resp_info?: string;
  seq_id?: string;
  order_id?: string;
  order_date?: string;
  service_date?: string;
  mp_ssim?: string;
  full_name?: string;
  id_number?: string;
  file_list?: FileItem[];
  face_identify_list?: FaceIdentifyItem[];
  authorization_info?: string;
  [field: string]: unknown;
}

/** A fault of a record's list item: a field missing (`required`) or not text (`type`). */
export interface RecordProblem {
  /** The item's path, e.g. `record.file_list[0].file_source`, or `mp_ssim`. */
  field: string;
  /** `required`, `type` (a list item); `range` (`mp_ssim` outside 0-100), `format` (`mp_ssim` not a number). */
  code: "required" | "type" | "range" | "format";
  message: string;
}

export interface VerifyOutcome {
  state: VerifyState;
  returnCode: string;
  returnMessage?: string;
  /** `service_date`: the date at the authentication system. */
  serviceDate?: string;
  respCode?: string;
  respInfo?: string;
  seqId?: string;
  orderId: string;
  /** YYYYMMDD (the one sent, or generated). */
  orderDate: string;
  /** `mp_ssim`, when present and within 0-100. */
  score?: number;
  /** Every field of a checkresult answer or a notification. */
  record?: VerifyRecord;
  /** The client's word where the code alone would mislead: a code of another interface than the one called. */
  message?: string;
  /** Faults of `mp_ssim` and of the record's `file_list` / `face_identify_list` items; the answer is kept, its faults named here. */
  problems?: RecordProblem[];
}

export interface TransportRequest {
  method: "GET" | "POST";
  url: string;
  /** Lowercase names: `env`, and `content-type` for POST. */
  headers: Record<string, string>;
  /** The form-encoded parameters of a POST. */
  body?: string;
  /** The client's `timeoutMs`, for request APIs that take their own. */
  timeoutMs: number;
}

export interface TransportAnswer {
  status: number;
  /** The answer's text (an object already decoded from JSON is accepted too). */
  body: string | Record<string, unknown>;
}

export interface AuthClientOptions {
  /** Requests go to `baseUrl` + each interface's path: an absolute http(s) URL without query or fragment. */
  baseUrl: string;
  /** The 40-character `app_token`. */
  appToken: string;
  /** Sent as the `env` header. */
  env: string;
  /** Signs every parameter but `sign` (the sandbox: HMAC-SHA256 hex of `signInput(params)`). */
  sign: (params: Record<string, string>) => string | Promise<string>;
  /**
   * Checks an answer's `signature` over its `data` text. Required unless `baseUrl` is loopback (the sandbox):
   * `false` accepts unsigned answers knowingly (anyone on the way could forge a result).
   */
  verify?: ((data: string, signature: string) => boolean | Promise<boolean>) | false;
  /**
   * Absolute paths under `baseUrl`; default the `/api/v1` forms (the document's v4 result query: `"/api/v4/checkresult"`).
   * No `.` or `..` segment, encoded (`%2e`) or not, and no encoded slash or backslash (`%2F`, `%5C`): `invalid_options`.
   */
  paths?: { cardCheck?: string; nameCheck?: string; checkResult?: string };
  /** Encrypts the fields the document sends encrypted (`cvv2`), before signing; required for them unless `baseUrl` is loopback. */
  encrypt?: (field: string, value: string) => string | Promise<string>;
  /** Sends one request; default: `fetch`. A throw or rejection counts as no answer. */
  transport?: (req: TransportRequest) => Promise<TransportAnswer>;
  /**
   * Sends in all after 90105 (default 3, 1-10) and the first back-off (default 500 ms, doubling). After a 90105 the
   * client asks `checkresult` by `orderId` first and sends the check again only when that finds no record (20011).
   */
  retry?: { attempts?: number; baseDelayMs?: number };
  /**
   * Default `true`: before sending, a card number's Luhn digit and length (12-19), an ID number's date of birth and
   * check digit are checked too. `false`: only the document's formats (digits, lengths, the final `X`).
   */
  strict?: boolean;
  /**
   * How long one request may take before it counts as no answer, and one `sign`, `verify` or `encrypt` call before
   * it is PayError `hook_failed` (default 15000).
   */
  timeoutMs?: number;
}

export interface AwaitResultOptions {
  /** The first interval between queries (default 1000 ms, then doubling up to 30 s). */
  intervalMs?: number;
  /** Total waiting after which a still pending outcome is returned (default 60000). */
  timeoutMs?: number;
}

/**
 * The aggregated authentication client. Methods reject with PayError, never throw.
 *
 * Accepts: a loopback `baseUrl` (`localhost`, `127.x.x.x`, `[::1]`: the sandbox) without `verify`; the result
 * query's bare, unsigned failure answers (`20010`, `20011` with `return_code` and `return_message` at the top
 * level) as the states `failed` and `not_found`, even with `verify`.
 * Refuses (`invalid_response`, `field` naming it): an answer that reports a state without `service_date`, `order_id`
 * or `order_date`, or echoing another `order_id` or `order_date`; a notification that reports a result without
 * `resp_code`, `resp_info` or `full_name`.
 * `bad_signature`: any other unsigned answer when `verify` is given (a bare `20000`, one with `resp_code`), or a
 * signature `verify` rejects. `hook_failed`: `sign`, `verify` or `encrypt` threw, rejected or outlived `timeoutMs`
 * (`field`: the hook, `cause`: what it threw).
 * Reports in `problems`: an `mp_ssim` outside 0-100 or not a number (`score` then absent), faulty list items.
 */
export declare class AuthClient {
  constructor(options: AuthClientOptions);
  /** POST /api/v1/trade/cardcheck, form-encoded. */
  cardCheck(fields: CardCheckFields): Promise<VerifyOutcome>;
  /** POST /api/v1/trade/namecheck. */
  nameCheck(fields: NameCheckFields): Promise<VerifyOutcome>;
  /** One GET /api/v1/checkresult, by `seqId` or by the original `orderId`. */
  checkResult(ref: CheckResultRef | VerifyOutcome): Promise<VerifyOutcome>;
  /** Queries until the outcome is no longer `pending` or `timeoutMs` has passed. */
  awaitResult(ref: CheckResultRef | VerifyOutcome, options?: AwaitResultOptions): Promise<VerifyOutcome>;
  /** Releases the client's wasm memory at once (otherwise done when it is collected). */
  free(): void;
}

export interface FieldProblem extends Problem {
  /** `required`, `type`, `length`, `format`, `check_digit`, `luhn`, `enum`, `factors`, `reserved`. */
  code: string;
}

/** The service's answer, decoded. */
export interface Envelope {
  returnCode: string;
  /** The `data` object (or the whole body of the unenveloped failure sample). */
  data: VerifyRecord;
  /** The text `signature` signs: `data` exactly as it came. */
  dataText: string;
  signature?: string;
}

/** A decoded notification whose `sign` is still to be checked over `signInput`. */
/** A notification's outcome: `orderDate` only when the notification carries `order_date`. */
export type NotificationOutcome = Omit<VerifyOutcome, "orderDate"> & { orderDate?: string };

export interface Notification {
  outcome: NotificationOutcome;
  sign: string;
  signInput: string;
}

/** Remembers recent `seq_id`s (oldest forgotten first) to act on each notification once. */
export declare class NotificationLog {
  /** @param capacity how many `seq_id`s to remember (default 1024, at most 100000). */
  constructor(capacity?: number);
  /** `"first"` the first time a `seq_id` is shown (now remembered), `"duplicate"` after. */
  seen(seqId: string): "first" | "duplicate";
  /** Forgets a `seq_id` so that a redelivery is handled again; true when it was remembered. */
  forget(seqId: string): boolean;
  readonly size: number;
  free(): void;
}

/** Every problem of the fields (empty when valid); `strict` as `AuthClientOptions.strict` (default `true`). */
export function validateCardCheck(fields: Partial<CardCheckFields> | Record<string, unknown>, options?: { strict?: boolean }): FieldProblem[];
export function validateNameCheck(fields: Partial<NameCheckFields> | Record<string, unknown>, options?: { strict?: boolean }): FieldProblem[];
/** Decodes an answer's text; PayError `invalid_response` when it is not one. */
export function decodeEnvelope(body: string, status?: number): Envelope;
/** Form-encoded text, JSON text or an object (as a server framework decoded it). */
export function parseNotification(body: string | Record<string, unknown>): Notification;
/** What the page may say of a payment: the merchant's word `paid` (or `succeeded`), `closed` (closed unpaid: nothing was charged), or neither yet. */
export type WatchStatus = "paid" | "closed" | "not_paid_yet";

/** A `status` event's detail (`watchPayment`'s `onEvent`), after every ask. */
export interface WatchDetail {
  status: WatchStatus;
  /** The merchant's last word, as `ask` answered it (`created`, `paid`, ...). */
  merchant?: string;
  /** Asks made so far. */
  asks: number;
  /** Why this ask failed (threw, rejected, no status, no answer within `timeoutMs`): asked again. */
  error?: string;
  /** When the next ask is made. */
  nextInMs?: number;
}

/** `watchPayment`'s result: `final` when the merchant's word is (paid or closed); false when stopped. */
export interface WatchResult {
  status: WatchStatus;
  merchant?: string;
  asks: number;
  final: boolean;
}

export interface WatchOptions {
  /** The first ask's delay (default 0: at once). */
  firstAfterMs?: number;
  /** The pause after the first answer that is not final (default 2000 ms), doubling after each one... */
  intervalMs?: number;
  /** ...up to this (default 30000 ms, or `intervalMs` when longer). */
  maxIntervalMs?: number;
  /** How long one ask may take (default 15000 ms): then it counts as failed and is made again later. */
  timeoutMs?: number;
  /** Stop asking after this long (default: never), resolving with `final: false`. */
  stopAfterMs?: number;
  /** Stops asking when it aborts, resolving with `final: false`. */
  signal?: AbortSignal;
  /** `{ type: "status", at, detail: WatchDetail }` after every ask. */
  onEvent?: (e: { type: "status"; at: number; detail: WatchDetail }) => void;
}

/**
 * Asks the merchant's server for a payment's status (`ask()`: a status
 * string, or an object with `status`) until its word is final: `paid` or
 * `succeeded` (paid), `closed` (nothing was charged). Every other word, and
 * an ask that fails, is "not paid yet": the first ask at once (or after
 * `firstAfterMs`), each next one after `intervalMs`, doubling up to
 * `maxIntervalMs`. For the page that comes
 * back after a wallet, a cashier or a reload, and after a `pay()` that did
 * not end `succeeded`: start it on every page load. In a page, after
 * `ready()` (the full module); a bad argument rejects with PayError
 * `invalid_options` naming it.
 */
export function watchPayment(ask: () => string | { status: string } | PromiseLike<string | { status: string }>, options?: WatchOptions): Promise<WatchResult>;

/** Parses, asks `verify(signInput, sign)`, resolves with the outcome or rejects `bad_signature`; `false` accepts it unchecked, knowingly. */
export function verifyNotification(
  body: string | Record<string, unknown>,
  verify: ((signInput: string, sign: string) => boolean | Promise<boolean>) | false,
): Promise<VerifyOutcome>;
/**
 * True when `score` (a number, or `mp_ssim` text such as `"60.5"`) is within 0-100 and greater than `threshold`
 * (default 60); a missing score, or one outside 0-100, does not pass.
 */
export function passesThreshold(score: number | string | undefined | null, threshold?: number): boolean;
/** The sandbox's canonical sign string: parameters but `sign` with values, sorted, `name=value` joined by `&`. */
export function signInput(params: Record<string, string | null | undefined>): string;
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
