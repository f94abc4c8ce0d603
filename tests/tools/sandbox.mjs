// The sandbox binary for the browser tests (the workspace's crate
// sandbox/): built by cargo (a no-op after `make sandbox-bin`; honours
// CARGO_TARGET_DIR) and started on an ephemeral port of 127.0.0.1 with the
// given environment; and the suite a test file of the demo pages runs in
// (sandboxSuite).
import { before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./chromium.mjs";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Where the browser tests leave their screenshots for a person to look at. */
export const SHOTS = join(ROOT, "tests/artifacts/screenshots");

/** `page`, its script errors recorded in `page.errors` (for `closePage`). */
export function watchErrors(page) {
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  return page;
}

/** Saves the screenshot `shot` (when named), checks that `page` had no
 * script error, and closes it. */
export async function closePage(page, shot) {
  if (shot) await page.screenshot({ path: join(SHOTS, `${shot}.png`), fullPage: true });
  assert.deepEqual(page.errors, [], "no script errors on the page");
  await page.close();
}

/** Waits for the demo page's result box of `section` to carry
 * `data-<attr>="<value>"`; answers the box, or fails with what the box
 * shows. */
export async function resultShows(page, section, attr, value, timeout) {
  const box = page.locator(`${section} [data-role=result]`);
  await page
    .locator(`${section} [data-role=result][data-${attr}="${value}"]`)
    .waitFor({ timeout })
    .catch(async (e) => {
      throw new Error(`${section}: expected ${attr} ${value}, the page shows: ${await box.textContent()}`, { cause: e });
    });
  return box;
}

/** The result box of `section` once it shows `status` (a PayResult status or an error code). */
export const statusIs = (page, section, status, timeout = 10000) => resultShows(page, section, "status", status, timeout);

/**
 * The file's suite against a sandbox of its own: before its tests, pkg/
 * must be built (`make pkg`), the sandbox starts (with `env` over its test
 * defaults) and Chromium launches; after them both stop. The object
 * answered holds `base` (http://127.0.0.1:PORT) and `browser` once the
 * suite has started.
 */
export function sandboxSuite(env = {}) {
  const suite = { base: null, browser: null };
  let child;
  before(
    async () => {
      assert.ok(existsSync(join(ROOT, "pkg/index.js")), "pkg/ is missing: run make pkg first");
      mkdirSync(SHOTS, { recursive: true });
      const started = await startSandbox(sandboxBinary(), env);
      child = started.child;
      suite.base = started.url;
      suite.browser = await launch();
    },
    { timeout: 15 * 60_000 },
  );
  after(async () => {
    await suite.browser?.close();
    await stopSandbox(child);
  });
  return suite;
}

/** `cargo build` of the sandbox binary; its path. */
export function sandboxBinary() {
  const out = execFileSync(
    "cargo",
    ["build", "--release", "-p", "paybridge-sandbox", "--bin", "sandbox", "--message-format=json-render-diagnostics"],
    { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 },
  );
  for (const line of out.split("\n")) {
    if (!line.startsWith("{")) continue;
    const m = JSON.parse(line);
    if (m.reason === "compiler-artifact" && m.target?.name === "sandbox" && m.executable) return m.executable;
  }
  throw new Error("cargo build did not name the sandbox executable");
}

/** Starts the sandbox on an ephemeral port; resolves with `{ child, url }`. */
export function startSandbox(bin, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["--port", "0", "--www", "www", "--pkg", "pkg"], {
      cwd: ROOT,
      env: { ...process.env, NOTIFY_DELAY_MS: "3000", RATE_LIMIT: "50", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let text = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the sandbox did not print its address: ${text}`));
    }, 15000);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const m = /paybridge sandbox on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
    child.on("exit", (code) => reject(new Error(`the sandbox exited (${code}) before it was ready: ${text}`)));
  });
}

/** Stops a sandbox started by startSandbox (SIGTERM; it finishes what is in flight). */
export async function stopSandbox(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}
