// examples/h5-vite: the H5 page, installed from the packed tarball, served
// by Vite's dev server and by `vite preview` of `vite build`, against the
// sandbox binary (started here on 127.0.0.1 and stopped), in headless
// Chromium: the page creates a wallet1_wap payment through the dev
// server's proxy, pay() goes to the sandbox's cashier, and back on the page
// the merchant's status is "paid" (Pay) or "not paid" (Cancel).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { install } from "../tools/examples.mjs";
import { launch } from "../tools/chromium.mjs";
import { sandboxBinary, startSandbox, stopSandbox } from "../tools/sandbox.mjs";

let sandbox;
let browser;
let dir;
const servers = [];

/** Runs `vite <args>` in the example; resolves with its local address once it serves. */
function vite(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dir, "node_modules/vite/bin/vite.js"), ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    servers.push(child);
    let text = "";
    const timer = setTimeout(() => reject(new Error(`vite ${args.join(" ")} did not start: ${text}`)), 60_000);
    const read = (chunk) => {
      text += chunk;
      const m = /Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1], output: () => text });
      }
    };
    child.stdout.setEncoding("utf8").on("data", read);
    child.stderr.setEncoding("utf8").on("data", read);
    child.on("exit", (code) => reject(new Error(`vite ${args.join(" ")} exited (${code}): ${text}`)));
  });
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

before(
  async () => {
    const installed = install("h5-vite");
    dir = installed.dir;
    console.log(`examples/h5-vite install: ${JSON.stringify(installed.times)} ms`);
    sandbox = await startSandbox(sandboxBinary());
    browser = await launch();
  },
  { timeout: 15 * 60_000 },
);

after(async () => {
  await browser?.close();
  for (const child of servers) await stop(child);
  await stopSandbox(sandbox?.child);
});

/** The page at `url`: pay, then `button` at the cashier, then back; the merchant's status the page shows. */
async function payThrough(url, button) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // The page's log (its console.info lines), kept in the tab's
  // sessionStorage as each line is written: a console message written
  // in the task that starts a navigation may reach the test after its
  // page is gone, and be dropped, though the page wrote it.
  await page.addInitScript(() => {
    const info = console.info;
    console.info = (...args) => {
      sessionStorage.setItem("log", (sessionStorage.getItem("log") ?? "") + args.join(" ") + "\n");
      info.apply(console, args);
    };
  });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
  await Promise.all([page.waitForURL((u) => u.href.startsWith(`${sandbox.url}/sim/wallet1/cashier`)), page.click("#pay")]);
  await page.click(`button[value=${button}]`);
  await page.waitForSelector("#result");
  await Promise.all([page.waitForURL((u) => u.href.startsWith(url)), page.click("text=Return to the merchant")]);
  await page.waitForSelector("#status[data-status]", { timeout: 30_000 });
  const shown = await page.textContent("#status");
  // Back on the page's origin, its sessionStorage holds every line
  // written before and after the cashier.
  const log = await page.evaluate(() => sessionStorage.getItem("log") ?? "");
  assert.deepEqual(errors, []);
  await page.close();
  return { shown, log };
}

for (const mode of ["dev", "preview"]) {
  test(`examples/h5-vite (${mode === "dev" ? "vite dev server" : "vite build, vite preview"}): Pay ends "paid", Cancel "not paid", by the merchant's status`, { timeout: 5 * 60_000 }, async () => {
    const env = { SANDBOX_URL: sandbox.url };
    if (mode === "preview") {
      execFileSync(process.execPath, [join(dir, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
    }
    const server = await vite(mode === "dev" ? ["--port", "0", "--strictPort"] : ["preview", "--port", "0", "--strictPort"], env);
    try {
      const paid = await payThrough(server.url, "pay");
      assert.equal(paid.shown, "paid", paid.log);
      assert.match(paid.log, /^plan \{"kind":"redirect"/m);
      // The result event comes in the same task as the navigation (kept
      // by sessionStorage); a line logged after pay() resolves may be
      // lost with the page.
      assert.match(paid.log, /^result \{"status":"redirected"/m);
      const cancelled = await payThrough(server.url, "cancel");
      assert.equal(cancelled.shown, "not paid", cancelled.log);
    } finally {
      await stop(server.child);
    }
  });
}
