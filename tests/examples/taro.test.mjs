// examples/taro: a Taro 4.2.0 project (React, webpack 5) that imports
// paybridge/miniprogram, built by Taro's own CLI for alipay (wallet1) and
// weapp (wallet2), then launched from its output (Taro's runtime.js,
// taro.js, vendors.js, app.js and the page) in the emulated logic layer of
// each wallet (tests/tools/miniprogram-runtime.mjs). The test taps the
// page's Pay button through Taro's own event handler (`eh`, what its
// templates bind) and reads the status from the data Taro rendered, for
// every result code. A control build of the same project whose page does
// not import paybridge launches and taps in the same emulation first, so a
// failure is paybridge's, not the emulation's.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { install, variant } from "../tools/examples.mjs";
import { WALLET1_CODES, WALLET2_ANSWERS, launch, nodes, until } from "../tools/miniprogram-runtime.mjs";

const TARGETS = { alipay: "wallet1", weapp: "wallet2" };
let dir;
let control;
const built = {};

const CONTROL_PAGE = `import { useState } from "react";
import { View, Button, Text } from "@tarojs/components";

export default function PayPage() {
  const [status, setStatus] = useState("");
  return (
    <View>
      <Button id="pay" onClick={() => setStatus(status ? "tapped again" : "tapped")}>Pay</Button>
      <Text id="status">{status}</Text>
    </View>
  );
}
`;

// The root import, which is the browser entry: the app must launch, and
// ready() and pay() must fail as a PayError that names the subpath.
const ROOT_PAGE = `import { useState } from "react";
import { View, Button, Text } from "@tarojs/components";
import { ready, pay } from "paybridge";

const loaded = ready().catch((e) => e);

export default function PayPage() {
  const [status, setStatus] = useState("");
  const onPay = async () => {
    setStatus("paying");
    const early = await loaded;
    try {
      const api = process.env.TARO_ENV === "alipay" ? my : wx;
      const r = await pay({ pay_channel: "wallet1_lite", pay_info: { tradeNO: "T2026" } }, { api });
      setStatus(r.status);
    } catch (e) {
      setStatus(\`\${early && early.name}/\${e.name} \${e.code}: \${e.message}\`);
    }
  };
  return (
    <View>
      <Button id="pay" onClick={onPay}>Pay</Button>
      <Text id="status">{status}</Text>
    </View>
  );
}
`;
let root;

function build(project, type) {
  const t = Date.now();
  execFileSync(join(dir, "node_modules/.bin/taro"), ["build", "--type", type], { cwd: project, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NODE_ENV: "production" } });
  return Date.now() - t;
}

before(
  () => {
    ({ dir } = install("taro"));
    // The control: the same project, its page without paybridge; and the
    // same page importing the package's root.
    const files = ["package.json", "babel.config.js", "config", "src"];
    control = variant(dir, "taro-control", files, "src/pages/pay/pay.jsx", CONTROL_PAGE);
    root = variant(dir, "taro-root", files, "src/pages/pay/pay.jsx", ROOT_PAGE);
    for (const type of Object.keys(TARGETS)) {
      rmSync(join(dir, "dist", type), { recursive: true, force: true });
      built[type] = build(dir, type);
      build(control, type);
      build(root, type);
    }
  },
  { timeout: 10 * 60_000 },
);

after(() => {
  for (const d of [control, root]) if (d) rmSync(d, { recursive: true, force: true });
});

/** The Taro element whose id is `id`, in the data Taro rendered. */
function element(page, id) {
  for (const n of nodes(page.data.root)) if (n.uid === id) return n;
  return null;
}

const text = (page, id) => (element(page, id)?.cn || []).map((c) => c.v).join("");

async function tap(page, id) {
  const el = await until(() => element(page, id), 20000, `#${id} rendered`);
  const target = { id, dataset: { sid: el.sid } };
  page.eh({ type: "tap", timeStamp: Date.now(), target, currentTarget: target, detail: {} });
}

for (const [type, kind] of Object.entries(TARGETS)) {
  test(`${type}: the control build (no paybridge) launches and taps in the emulation`, async () => {
    const { page, errors } = await launch({ dir: join(control, "dist", type), kind, es5: kind === "wallet1" });
    await tap(page, "pay");
    assert.equal(await until(() => text(page, "status"), 20000, "the control's status"), "tapped");
    assert.deepEqual(errors, []);
  });

  test(`${type}: the page launches with paybridge/miniprogram and a plain ready(), and maps every result`, async () => {
    const answers = kind === "wallet1" ? WALLET1_CODES.map(([code, status]) => [["success", { resultCode: code }], status]) : WALLET2_ANSWERS.map(([cb, res, status]) => [[cb, res], status]);
    let next;
    const out = join(dir, "dist", type);
    // wallet1's output is ES5 throughout (parsed as such before it runs).
    const { page, api, wasm, errors } = await launch({ dir: out, kind, es5: kind === "wallet1", answer: () => next });
    // Each status the page shows, in order: a tap shows "paying", then the result.
    const shown = [];
    const setData = page.setData;
    page.setData = function (...args) {
      setData.apply(this, args);
      shown.push(text(page, "status"));
    };
    for (const [answer, status] of answers) {
      next = answer;
      const from = shown.length;
      await tap(page, "pay");
      const result = () => {
        const after = shown.slice(from);
        const i = after.indexOf("paying");
        return i >= 0 && after.slice(i + 1).find((s) => s !== "paying");
      };
      assert.equal(await until(result, 20000, `the status for ${JSON.stringify(answer)}`), status, JSON.stringify(answer));
    }
    assert.equal(api.seen.length, answers.length);
    // Which module loaded: the JavaScript build in the bundle (no .wasm
    // is emitted, so wallet2's WebAssembly is never asked).
    if (wasm) assert.deepEqual(wasm.paths, []);
    // The build's one export, where it is defined (the module only calls it).
    assert.match(readFileSync(join(out, "pages/pay/pay.js"), "utf8"), /\.instantiate\s*=\s*function\b/, "the JavaScript build is in the page's bundle");
    assert.deepEqual(errors, []);
  });
}

for (const [type, kind] of Object.entries(TARGETS)) {
  test(`${type}: the root import (the browser entry) launches; ready() and pay() are PayErrors naming paybridge/miniprogram`, async () => {
    const out = join(root, "dist", type);
    // No startup code for import.meta.url (which would read document.baseURI).
    assert.doesNotMatch(readFileSync(join(out, "runtime.js"), "utf8"), /baseURI/);
    // The browser entry is ES2020: not parsed as ES5 here (a wallet1
    // project that imports it would have its compiler transpile it).
    const { page, api, errors } = await launch({ dir: out, kind });
    await tap(page, "pay");
    const status = await until(() => text(page, "status") !== "paying" && text(page, "status"), 20000, "the root import's answer");
    assert.match(status, /^PayError\/PayError not_ready: .*paybridge\/miniprogram/);
    assert.equal(api.seen.length, 0);
    assert.deepEqual(errors, []);
  });
}

test("the JavaScript build's cost in Taro's output is within the native folder's", () => {
  const folder = ["index.js", "paybridge.wasm.js", "paybridge_mini_bg.wasm.br"].reduce((n, f) => n + statSync(join(dir, "node_modules/paybridge/miniprogram", f)).size, 0);
  for (const type of Object.keys(TARGETS)) {
    const withIt = statSync(join(dir, "dist", type, "pages/pay/pay.js")).size;
    const without = statSync(join(control, "dist", type, "pages/pay/pay.js")).size;
    const cost = withIt - without;
    console.log(`taro ${type}: paybridge adds ${cost} bytes to the page (native folder ${folder}); built in ${built[type]} ms`);
    assert.ok(cost > 100_000 && cost <= folder, `${type}: ${cost} bytes, folder ${folder}`);
  }
});
