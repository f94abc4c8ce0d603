// A node:vm emulation of the two wallets' mini-program runtimes, for the
// examples (tests/examples/): the logic layer only, which is where a page's
// JavaScript runs and where paybridge runs. It loads the files of a built
// code package as the runtime does (CommonJS, each file once, relative
// requires and the package's npm folder), gives them only the globals that
// runtime's logic layer has, registers App/Page/Component, runs the
// lifecycle, applies setData (path keys included) to the page's data, and
// dispatches a tap to the handler the page's template names. No view layer:
// the test reads the data the view would show.
//
// The globals each logic layer has, from the platforms' documentation:
//
// wallet1 (mini-program framework docs, "JS runtime environment" and
// "global objects" of the logic layer; "compile options" for
// globalObjectMode): App, Page, Component, Mixin, getApp, getCurrentPages,
// requirePlugin, the API object `my`, `navigator` (its userAgent, which
// Taro's wallet1 runtime reads at launch), timers and console, and the
// language's own built-ins; no window, document, location, fetch, XMLHttpRequest, TextEncoder, TextDecoder, atob, process; no
// WebAssembly in the page logic (workers only); no globalThis or global
// unless the project turns globalObjectMode on; no eval or new Function.
//
// wallet2 (mini-program docs, "JavaScript support" / "runtime
// environment": the logic layer runs in JavaScriptCore, V8 or the
// developer tools' NW.js, without the browser's objects): App, Page,
// Component, Behavior, getApp, getCurrentPages, requirePlugin, the API
// object `wx`, timers, console, globalThis and `global` (the same object
// here; uni-app's wallet2 runtime writes createApp onto it); its own WebAssembly object
// `WXWebAssembly` ("WXWebAssembly" doc page: instantiate(path, imports)
// with a path in the code package, .wasm or .wasm.br), and no standard
// WebAssembly (iOS has none); no window, document, location, navigator,
// fetch, TextEncoder, TextDecoder, atob, process; no eval or new Function.
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, normalize, relative, sep } from "node:path";
import vm from "node:vm";
import { brotliDecompressSync } from "node:zlib";

const acorn = createRequire(new URL("../package.json", import.meta.url))("acorn");

/** The names each runtime's logic layer lacks: every module sees them undefined. */
export const ABSENT = {
  wallet1: ["globalThis", "global", "window", "self", "WebAssembly", "TextEncoder", "TextDecoder", "fetch", "XMLHttpRequest", "atob", "document", "location", "process"],
  wallet2: ["window", "self", "WebAssembly", "TextEncoder", "TextDecoder", "fetch", "XMLHttpRequest", "atob", "document", "location", "navigator", "process"],
};

/** The name of wallet2's own WebAssembly object (its docs' "WXWebAssembly"). */
export const WALLET2_WASM = "WXWebAssembly";

/** The API global each runtime has. */
export const API_GLOBAL = { wallet1: "my", wallet2: "wx" };

/** wallet1's tradePay result codes and what the default profile maps them to. */
export const WALLET1_CODES = [
  ["9000", "succeeded"],
  ["8000", "pending"],
  ["4000", "failed"],
  ["6001", "cancelled"],
  ["6002", "failed"],
  ["6004", "pending"],
  ["4", "failed"],
  ["99", "cancelled"],
];

/** wallet2's requestPayment answers: [callback, result, mapped status]. */
export const WALLET2_ANSWERS = [
  ["success", { errMsg: "requestPayment:ok" }, "succeeded"],
  ["fail", { errMsg: "requestPayment:fail cancel" }, "cancelled"],
  ["fail", { errMsg: "requestPayment:fail (detail message)" }, "failed"],
];

const isFile = (p) => existsSync(p) && statSync(p).isFile();

/** Plain file resolution of `path`: the file, with `.js`, or a folder's "main" or index.js. */
export function resolveFile(path) {
  for (const f of [path, `${path}.js`]) if (isFile(f)) return f;
  if (existsSync(path) && statSync(path).isDirectory()) {
    const manifest = join(path, "package.json");
    if (isFile(manifest)) {
      const main = JSON.parse(readFileSync(manifest, "utf8")).main;
      if (typeof main === "string") {
        const m = resolveFile(join(path, main));
        if (m) return m;
      }
    }
    if (isFile(join(path, "index.js"))) return join(path, "index.js");
  }
  return null;
}

/**
 * The API object: the methods a framework's runtime and a page call, with
 * `tradePay` (wallet1) or `requestPayment` (wallet2) answering `answer()`'s
 * [callback, result] a moment later. Every payment request is kept in `seen`.
 */
function walletApi(kind, answer) {
  const seen = [];
  const info = { platform: "ios", system: "iOS 17", version: "10.0.0", SDKVersion: "3.0.0", pixelRatio: 2, windowWidth: 375, windowHeight: 667, screenWidth: 375, screenHeight: 667, language: "zh-CN", model: "emulated" };
  const noop = () => {};
  const api = {
    seen,
    getSystemInfoSync: () => ({ ...info }),
    getSystemInfo: (o) => setTimeout(() => o && o.success && o.success({ ...info }), 0),
    getWindowInfo: () => ({ ...info }),
    getDeviceInfo: () => ({ ...info }),
    getAppBaseInfo: () => ({ ...info }),
    getLaunchOptionsSync: () => ({ path: "pages/pay/pay", query: {}, scene: 1001, referrerInfo: {} }),
    getEnterOptionsSync: () => ({ path: "pages/pay/pay", query: {}, scene: 1001, referrerInfo: {} }),
    canIUse: () => true,
    onAppShow: noop,
    onAppHide: noop,
    offAppShow: noop,
    offAppHide: noop,
    onError: noop,
    onUnhandledRejection: noop,
    getStorageSync: () => "",
    setStorageSync: noop,
    removeStorageSync: noop,
    nextTick: (f) => setTimeout(f, 0),
    createSelectorQuery: () => ({ in: () => api.createSelectorQuery(), select: () => ({ boundingClientRect: () => ({}) }), exec: noop }),
  };
  const pay = (req) => {
    seen.push(req);
    const [cb, res] = answer();
    setTimeout(() => {
      if (req[cb]) req[cb](res);
      if (req.complete) req.complete(res);
    }, 5);
  };
  if (kind === "wallet1") api.tradePay = pay;
  else api.requestPayment = pay;
  return api;
}

/** wallet2's WebAssembly object: instantiate(path, imports), a path in the code package only (both runtimes' loaders take a brotli-compressed .wasm.br). */
export function wallet2WebAssembly(root) {
  const paths = [];
  return {
    paths,
    instantiate(path, imports) {
      return new Promise((resolve) => {
        if (typeof path !== "string" || !path.startsWith("/") || path.split("/").includes("..")) throw new TypeError(`not a package path: ${path}`);
        paths.push(path);
        let bytes = readFileSync(join(root, path));
        if (path.endsWith(".br")) bytes = brotliDecompressSync(bytes);
        resolve(WebAssembly.instantiate(bytes, imports));
      });
    },
  };
}

/** Applies a setData key (`a.b[0].c`, `a.b.[0].c`) to `data`. */
function setPath(data, key, value) {
  const parts = [];
  key.replace(/\[(\d+)\]|[^.[\]]+/g, (m, i) => parts.push(i !== undefined ? Number(i) : m));
  let o = data;
  for (let i = 0; i < parts.length - 1; i++) {
    if (o[parts[i]] === undefined || o[parts[i]] === null) o[parts[i]] = typeof parts[i + 1] === "number" ? [] : {};
    o = o[parts[i]];
  }
  o[parts[parts.length - 1]] = value;
}

const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

/**
 * Launches the code package in `dir` as `kind`'s runtime would: app.js,
 * then the first page of app.json. `answer()` gives the wallet's next
 * answer; `webAssembly` false leaves wallet2 without its WebAssembly
 * object; `es5` parses every file as an ES5 script first (wallet1 with no
 * transpiling). Resolves once the page has loaded and shown.
 */
export async function launch({ dir, kind, answer = () => ["success", {}], webAssembly = true, es5 = false, npmDir = "node_modules" }) {
  const ctx = vm.createContext({ setTimeout, clearTimeout, setInterval, clearInterval, console }, { codeGeneration: { strings: false, wasm: false } });
  vm.runInContext("delete globalThis.WebAssembly", ctx);
  const errors = [];
  const api = walletApi(kind, answer);
  ctx[API_GLOBAL[kind]] = api;
  if (kind === "wallet2") ctx.global = vm.runInContext("globalThis", ctx);
  if (kind === "wallet1") ctx.navigator = { userAgent: "Mozilla/5.0 (iPhone) emulated wallet1 mini-program" };
  let wasm = null;
  if (kind === "wallet2" && webAssembly) ctx[WALLET2_WASM] = wasm = wallet2WebAssembly(dir);
  let app = null;
  const pages = [];
  const registered = {};
  let current = null; // the route of the file being loaded
  ctx.App = (config) => {
    app = config;
  };
  ctx.getApp = () => app;
  ctx.getCurrentPages = () => pages.slice();
  ctx.Page = (config) => {
    registered[current] = { type: "page", config };
  };
  ctx.Component = (config) => {
    registered[current] = { type: "component", config };
  };
  ctx.Behavior = (b) => b;
  ctx.Mixin = (m) => m;
  ctx.requirePlugin = () => ({});
  const absent = ABSENT[kind];
  const cache = new Map();
  const requested = [];
  const reached = [];
  const load = (file) => {
    if (!cache.has(file)) {
      const code = readFileSync(file, "utf8");
      reached.push(relative(dir, file));
      if (es5) acorn.parse(code, { ecmaVersion: 5, sourceType: "script" });
      const module = { exports: {} };
      cache.set(file, module);
      const wrapper = vm.runInContext(`(function (exports, module, require, ${absent.join(", ")}) {${code}\n})`, ctx, { filename: file });
      wrapper.call(module.exports, module.exports, module, (name) => {
        requested.push(name);
        return load(resolve(name, file));
      });
    }
    return cache.get(file).exports;
  };
  const resolve = (specifier, from) => {
    const target = specifier.startsWith("./") || specifier.startsWith("../") ? normalize(join(dirname(from), specifier)) : specifier.startsWith("/") ? join(dir, specifier) : join(dir, npmDir, specifier);
    const file = resolveFile(target);
    if (!file || !file.startsWith(dir + sep)) throw new Error(`the code package has no module ${specifier} (from ${relative(dir, from)})`);
    return file;
  };
  const manifest = JSON.parse(readFileSync(join(dir, "app.json"), "utf8"));
  const route = manifest.pages[0];
  current = "app";
  load(join(dir, "app.js"));
  assert.ok(app, "app.js registered the app");
  const launchOptions = { path: route, query: {}, scene: 1001, referrerInfo: {} };
  if (app.onLaunch) app.onLaunch.call(app, launchOptions);
  if (app.onShow) app.onShow.call(app, launchOptions);
  current = route;
  load(join(dir, `${route}.js`));
  const reg = registered[route];
  assert.ok(reg, `${route}.js registered its page`);
  const page = instance(reg, route, errors);
  pages.push(page);
  await page.__lifecycle();
  return { api, wasm, page, requested, reached, errors, ctx };
}

/** A page instance of a Page() or Component() registration, with setData. */
function instance({ type, config }, route, errors) {
  const page = type === "page" ? Object.assign({}, config) : Object.assign({}, config.methods || {});
  page.data = clone(typeof config.data === "function" ? config.data() : config.data) || {};
  page.properties = {};
  for (const [k, v] of Object.entries((type === "component" && config.properties) || {})) page.properties[k] = v && typeof v === "object" && "value" in v ? v.value : null;
  page.route = route;
  page.__route__ = route;
  page.is = route;
  page.options = {};
  page.updates = 0;
  page.setData = function (obj, cb) {
    for (const k of Object.keys(obj)) setPath(page.data, k, clone(obj[k]));
    page.updates++;
    if (cb) setTimeout(cb, 0);
  };
  page.selectComponent = () => null;
  page.selectAllComponents = () => [];
  page.createSelectorQuery = () => ({ select: () => ({ boundingClientRect: () => ({}) }), exec: () => {} });
  page.triggerEvent = () => {};
  page.getPageId = () => "page-1";
  page.router = page.pageRouter = { navigateTo() {}, redirectTo() {} };
  const call = (fn, ...args) => {
    if (typeof fn === "function") return fn.apply(page, args);
  };
  page.__lifecycle = async () => {
    try {
      if (type === "component") {
        const life = config.lifetimes || {};
        call(life.created || config.created);
        call(life.attached || config.attached);
        call(config.methods && config.methods.onLoad, {});
        call(life.ready || config.ready);
        call(config.methods && config.methods.onShow);
        call(config.methods && config.methods.onReady);
      } else {
        call(config.onLoad, {});
        call(config.onShow);
        call(config.onReady);
      }
    } catch (e) {
      errors.push(e);
      throw e;
    }
    await settle();
  };
  return page;
}

/** Lets timers and promises run (a render, a payment's answer). */
export function settle(ms = 20) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Waits until `check()` gives a value, for up to `ms`. */
export async function until(check, ms = 5000, what = "the condition") {
  const end = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await settle(5);
  }
}

/** Every node of a framework's rendered data tree (objects with `cn` children, Taro's shape). */
export function* nodes(tree) {
  if (!tree || typeof tree !== "object") return;
  yield tree;
  for (const c of tree.cn || []) yield* nodes(c);
}

/** The handler name a template gives the element with `id` for a tap (onTap="x", bindtap="x", @tap compiled). */
export function tapHandler(template, id) {
  const el = new RegExp(`<[a-z-]+[^>]*\\bid="${id}"[^>]*>`).exec(template);
  assert.ok(el, `the template has an element #${id}`);
  const m = /\b(?:onTap|bindtap|bind:tap|catchtap|catchTap)="([^"]+)"/.exec(el[0]);
  assert.ok(m, `#${id} has a tap handler: ${el[0]}`);
  return m[1];
}
