// Installing an example of examples/ as its user would: its tools from its
// committed package-lock.json (`npm install`, which keeps to the lock,
// skipped when the lock is the one last installed: a stamp in its
// node_modules, like .ci/setup's; not `npm ci`, which refuses Taro's lock:
// Taro 4.2.0's native binding names builds for other platforms at 4.2.0
// that the registry does not have, so no lock can list them), then
// paybridge from the tarball `make pack` made (target/pack/paybridge.tgz),
// with --no-save so that no lockfile pins that tarball's integrity and each
// run takes the package just built. Everything stays in the example's own
// node_modules (gitignored).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const TARBALL = join(ROOT, "target/pack/paybridge.tgz");

const npm = (dir, args) => execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });

/**
 * Installs example `name`: its tools from the lock of `tools` (a folder of
 * the example: "." where the project's package.json holds the tools, as in
 * a Taro or uni-app project; "tools" where the project itself may list
 * nothing but its runtime dependencies, as for wallet2's Build npm, which
 * packs every dependency the project's package.json lists), then paybridge
 * into the project. Answers the example's folder and how long each step
 * took (ms).
 */
export function install(name, { tools = "." } = {}) {
  const dir = join(ROOT, "examples", name);
  if (!existsSync(TARBALL)) throw new Error(`${TARBALL} is missing: make pack (make test-examples runs it)`);
  const times = {};
  const toolsDir = join(dir, tools);
  const lockFile = join(toolsDir, "package-lock.json");
  const lock = existsSync(lockFile) ? readFileSync(lockFile) : null;
  if (lock) {
    const stamp = join(toolsDir, "node_modules", ".paybridge-tools-stamp");
    const want = createHash("sha256").update(lock).digest("hex");
    if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== want) {
      const t = Date.now();
      npm(toolsDir, ["install"]);
      if (!readFileSync(lockFile).equals(lock)) throw new Error(`installing the tools changed ${name}/${tools}/package-lock.json`);
      mkdirSync(join(toolsDir, "node_modules"), { recursive: true });
      writeFileSync(stamp, want);
      times.tools = Date.now() - t;
    }
  }
  const t = Date.now();
  // Where the project has a lock of its own (its tools'), it is kept as it
  // is; where it has none, npm writes none.
  npm(dir, ["install", "--no-save", ...(tools === "." && lock ? [] : ["--no-package-lock"]), TARBALL]);
  times.paybridge = Date.now() - t;
  if (lock && !readFileSync(lockFile).equals(lock)) throw new Error(`installing paybridge changed ${name}/${tools}/package-lock.json`);
  return { dir, times };
}

/**
 * A copy of the example in `dir` in a temporary folder (named after
 * `label`): its `files`, its node_modules linked, and its page at `page`
 * written as `text` (a control build without paybridge, or another import).
 * The caller removes it.
 */
export function variant(dir, label, files, page, text) {
  const copy = mkdtempSync(join(tmpdir(), `paybridge-${label}-`));
  for (const f of files) cpSync(join(dir, f), join(copy, f), { recursive: true });
  symlinkSync(join(dir, "node_modules"), join(copy, "node_modules"));
  writeFileSync(join(copy, page), text);
  return copy;
}
