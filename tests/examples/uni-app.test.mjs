// examples/uni-app: a uni-app 3 project (Vue 3, Vite, @dcloudio/vite-plugin-uni
// 3.0.0-5000720260410001), laid out by hand after uni-app's documented
// minimal CLI layout (src/main.js, App.vue, pages.json, manifest.json),
// that imports paybridge/miniprogram. Built by uni's own CLI for
// mp-alipay (wallet1) and mp-weixin (wallet2), then launched from its
// output (uni's common/vendor.js, app.js and the page) in the emulated
// logic layer of each wallet (tests/tools/miniprogram-runtime.mjs). The
// test taps Pay through the handler uni compiled into the template (the
// data key its tap attribute names) and reads the status from the data
// key the template shows, for every result code. A control build of the
// same project without paybridge launches and taps first.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { install, variant } from "../tools/examples.mjs";
import { WALLET1_CODES, WALLET2_ANSWERS, launch, until } from "../tools/miniprogram-runtime.mjs";

const TARGETS = { "mp-alipay": ["wallet1", "axml"], "mp-weixin": ["wallet2", "wxml"] };
let dir;
let control;
const built = {};

// The example page's template, which both pages below keep.
const TEMPLATE = `<template>
  <view>
    <button id="pay" @tap="onPay">Pay</button>
    <text id="status">{{ status }}</text>
  </view>
</template>
`;

const CONTROL_PAGE = `${TEMPLATE}
<script setup>
import { ref } from "vue";

const status = ref("");
function onPay() {
  status.value = "tapped";
}
</script>
`;

// The root import, which is the browser entry: the app must launch, and
// ready() and pay() must fail as a PayError that names the subpath.
const ROOT_PAGE = `${TEMPLATE}
<script setup>
import { ref } from "vue";
import { ready, pay } from "paybridge";

const loaded = ready().catch((e) => e);
const status = ref("");

async function onPay() {
  status.value = "paying";
  const early = await loaded;
  try {
    const api = process.env.UNI_PLATFORM === "mp-alipay" ? my : wx;
    const r = await pay({ pay_channel: "wallet1_lite", pay_info: { tradeNO: "T2026" } }, { api });
    status.value = r.status;
  } catch (e) {
    status.value = \`\${early && early.name}/\${e.name} \${e.code}: \${e.message}\`;
  }
}
</script>
`;
let root;

function build(project, platform) {
  const t = Date.now();
  rmSync(join(project, "dist", "build", platform), { recursive: true, force: true });
  execFileSync(join(dir, "node_modules/.bin/uni"), ["build", "-p", platform], { cwd: project, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NODE_ENV: "production" } });
  return Date.now() - t;
}

before(
  () => {
    ({ dir } = install("uni-app"));
    const files = ["package.json", "vite.config.js", "src"];
    control = variant(dir, "uni-control", files, "src/pages/pay/pay.vue", CONTROL_PAGE);
    root = variant(dir, "uni-root", files, "src/pages/pay/pay.vue", ROOT_PAGE);
    for (const platform of Object.keys(TARGETS)) {
      built[platform] = build(dir, platform);
      build(control, platform);
      build(root, platform);
    }
  },
  { timeout: 10 * 60_000 },
);

after(() => {
  for (const d of [control, root]) if (d) rmSync(d, { recursive: true, force: true });
});

/** The page's compiled template: the data key its tap handler and its status text come from. */
function keys(out, ext) {
  const template = readFileSync(join(out, `pages/pay/pay.${ext}`), "utf8");
  const tap = /id="pay"[^>]*\b(?:onTap|bindtap)="\{\{(\w+)\}\}"/.exec(template);
  const status = /id="status"[^>]*>\{\{(\w+)\}\}</.exec(template);
  assert.ok(tap && status, template);
  return { tap: tap[1], status: status[1] };
}

async function tap(page, key) {
  const name = await until(() => page.data[key], 20000, "the tap handler's name");
  assert.equal(typeof page[name], "function", name);
  const target = { id: "pay", dataset: {} };
  page[name]({ type: "tap", timeStamp: Date.now(), target, currentTarget: target, detail: {} });
}

for (const [platform, [kind, ext]] of Object.entries(TARGETS)) {
  test(`${platform}: the control build (no paybridge) launches and taps in the emulation`, async () => {
    const out = join(control, "dist", "build", platform);
    const k = keys(out, ext);
    const { page, errors } = await launch({ dir: out, kind });
    await tap(page, k.tap);
    assert.equal(await until(() => page.data[k.status], 20000, "the control's status"), "tapped");
    assert.deepEqual(errors, []);
  });

  test(`${platform}: the page launches with paybridge/miniprogram and a plain ready(), and maps every result`, async () => {
    const answers = kind === "wallet1" ? WALLET1_CODES.map(([code, status]) => [["success", { resultCode: code }], status]) : WALLET2_ANSWERS.map(([cb, res, status]) => [[cb, res], status]);
    let next;
    const out = join(dir, "dist", "build", platform);
    const k = keys(out, ext);
    const { page, api, wasm, errors } = await launch({ dir: out, kind, answer: () => next });
    const shown = [];
    const setData = page.setData;
    page.setData = function (...args) {
      setData.apply(this, args);
      shown.push(page.data[k.status]);
    };
    for (const [answer, status] of answers) {
      next = answer;
      const from = shown.length;
      await tap(page, k.tap);
      const result = () => {
        const after = shown.slice(from);
        const i = after.indexOf("paying");
        return i >= 0 && after.slice(i + 1).find((s) => s !== "paying");
      };
      assert.equal(await until(result, 20000, `the status for ${JSON.stringify(answer)}`), status, JSON.stringify(answer));
    }
    assert.equal(api.seen.length, answers.length);
    // Which module loaded: the JavaScript build in the bundle.
    if (wasm) assert.deepEqual(wasm.paths, []);
    // The build's one export, where it is defined (the module only calls it).
    assert.match(readFileSync(join(out, "common/vendor.js"), "utf8"), /\.instantiate\s*=\s*function\b/, "the JavaScript build is in uni's vendor bundle");
    assert.deepEqual(errors, []);
  });
}

for (const [platform, [kind, ext]] of Object.entries(TARGETS)) {
  test(`${platform}: the root import (the browser entry) launches; ready() and pay() are PayErrors naming paybridge/miniprogram`, async () => {
    const out = join(root, "dist", "build", platform);
    const k = keys(out, ext);
    const { page, api, errors } = await launch({ dir: out, kind });
    await tap(page, k.tap);
    const status = await until(() => page.data[k.status] !== "paying" && page.data[k.status], 20000, "the root import's answer");
    assert.match(status, /^PayError\/PayError not_ready: .*paybridge\/miniprogram/);
    assert.equal(api.seen.length, 0);
    assert.deepEqual(errors, []);
  });
}

test("mp-alipay: uni-app's output is ES2015 and the project it writes has wallet1's compiler transpile it", () => {
  const project = JSON.parse(readFileSync(join(dir, "dist/build/mp-alipay/mini.project.json"), "utf8"));
  assert.deepEqual(project.compileOptions.transpile, { script: { ignore: [] } });
  assert.equal(project.enableNodeModuleBabelTransform, true);
});

test("the JavaScript build's cost in uni-app's output is within the native folder's", () => {
  const folder = ["index.js", "paybridge.wasm.js", "paybridge_mini_bg.wasm.br"].reduce((n, f) => n + statSync(join(dir, "node_modules/paybridge/miniprogram", f)).size, 0);
  const size = (root) => ["common/vendor.js", "pages/pay/pay.js"].reduce((n, f) => n + statSync(join(root, f)).size, 0);
  for (const platform of Object.keys(TARGETS)) {
    const cost = size(join(dir, "dist/build", platform)) - size(join(control, "dist/build", platform));
    console.log(`uni-app ${platform}: paybridge adds ${cost} bytes to the code package (native folder ${folder}); built in ${built[platform]} ms`);
    assert.ok(cost > 100_000 && cost <= folder, `${platform}: ${cost} bytes, folder ${folder}`);
  }
});
