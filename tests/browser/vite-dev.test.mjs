// Vite's dev server with the package installed from its folder
// (`npm install /path/to/paybridge/pkg`, a symlink, the README's first
// install): the link's real path is outside the project, so the dev
// server refuses the full module's .wasm that ready() fetches (403,
// server.fs.allow), unless the project sets `resolve.preserveSymlinks`,
// the one setting the README names. The tarball install needs none
// (examples/h5-vite, tests/examples/).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync, lstatSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { ROOT } from "../tools/sandbox.mjs";
import { launch } from "../tools/chromium.mjs";

const APP = join(ROOT, "tests/artifacts/vite-dev");
const tool = createRequire(join(ROOT, "tests/package.json"));
let browser;

before(
  async () => {
    rmSync(APP, { recursive: true, force: true });
    mkdirSync(join(APP, "src"), { recursive: true });
    writeFileSync(join(APP, "package.json"), JSON.stringify({ name: "vite-dev-app", private: true, type: "module" }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", join(ROOT, "pkg")], { cwd: APP, stdio: ["ignore", "ignore", "inherit"] });
    assert.ok(lstatSync(join(APP, "node_modules/paybridge")).isSymbolicLink(), "npm installed the folder as a link");
    writeFileSync(join(APP, "index.html"), `<!doctype html><meta charset="utf-8"><script type="module" src="/src/main.js"></script>`);
    writeFileSync(
      join(APP, "src/main.js"),
      `import { ready, planAction } from "paybridge";
window.result = ready().then(
  () => planAction({ pay_channel: "wallet1_pub", pay_info: { tradeNO: "T" } }).kind,
  (e) => e.code,
);
`,
    );
    browser = await launch();
  },
  { timeout: 5 * 60_000 },
);

after(() => browser?.close());

/** The dev server with `config`; what ready() gave on the page, and every refused request. */
async function devServer(config) {
  const vite = await import(tool.resolve("vite"));
  const server = await vite.createServer({ root: APP, configFile: false, logLevel: "silent", server: { host: "127.0.0.1", port: 0 }, ...config });
  await server.listen();
  const page = await browser.newPage();
  const refused = [];
  page.on("response", (r) => r.status() >= 400 && refused.push(`${r.status()} ${new URL(r.url()).pathname.split("/").pop()}`));
  try {
    await page.goto(server.resolvedUrls.local[0]);
    return { result: await page.evaluate(() => window.result), refused };
  } finally {
    await page.close();
    await server.close();
  }
}

test("folder install, no configuration: the dev server refuses the full module's .wasm", async () => {
  const r = await devServer({});
  assert.deepEqual(r, { result: "not_ready", refused: ["403 paybridge_full_bg.wasm"] });
});

test("folder install with resolve.preserveSymlinks: ready() loads the full module", async () => {
  const r = await devServer({ resolve: { preserveSymlinks: true } });
  assert.deepEqual(r, { result: "wallet1_trade_pay", refused: [] });
});
