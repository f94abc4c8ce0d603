// The projects of examples/, installed as a user installs them: the tools
// of each example's package-lock.json by `npm ci` (skipped while the lock
// is the one last installed, like .ci/setup's stamp), then paybridge from
// the packed tarball (`make pack`: target/pack/paybridge.tgz) with
// `--no-save`, so that no lockfile pins its integrity and each run takes
// the package just built. Each example's node_modules stays inside it.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./sandbox.mjs";

export const TARBALL = join(ROOT, "target/pack/paybridge.tgz");

const NPM = ["--no-audit", "--no-fund", "--loglevel=error"];

/** Installs examples/`name`; answers its directory and what the install took. */
export function installExample(name) {
  assert.ok(existsSync(TARBALL), `${TARBALL} is missing: run make pack (make test-examples does)`);
  const dir = join(ROOT, "examples", name);
  const npm = (args) => execFileSync("npm", [...args, ...NPM], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  const lock = join(dir, "package-lock.json");
  const stamp = join(dir, "node_modules/.installed-lock");
  const times = {};
  let t = Date.now();
  if (existsSync(lock) && !(existsSync(stamp) && readFileSync(lock).equals(readFileSync(stamp)))) {
    npm(["ci"]);
    copyFileSync(lock, stamp);
    times.tools = Date.now() - t;
  }
  t = Date.now();
  rmSync(join(dir, "node_modules/paybridge"), { recursive: true, force: true });
  npm(["install", "--no-save", "--ignore-scripts", TARBALL]);
  times.paybridge = Date.now() - t;
  return { dir, times };
}
