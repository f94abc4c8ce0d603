// The sandbox binary for the browser tests: built by cargo (a no-op after
// `make sandbox-bin`; honours CARGO_TARGET_DIR) and started on an ephemeral
// port of 127.0.0.1 with the given environment.
import { spawn, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** `cargo build` of the sandbox binary; its path. */
export function sandboxBinary() {
  const out = execFileSync(
    "cargo",
    ["build", "--release", "--features", "sandbox", "--bin", "sandbox", "--message-format=json-render-diagnostics"],
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
      env: { ...process.env, NOTIFY_DELAY_MS: "1200", RATE_LIMIT: "50", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let text = "";
    const timer = setTimeout(() => reject(new Error(`the sandbox did not print its address: ${text}`)), 15000);
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
