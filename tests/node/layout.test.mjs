// `make lint`'s layout check (tests/tools/layout.mjs) says that the core
// never calls the edge, and holds its file rules (a `//!` line, 400 lines)
// and its cycle check in both crates of the workspace, and keeps the
// server's crates out of the library's manifest: run on a copy of src/,
// sandbox/src/ and Cargo.toml with a violation planted, it fails naming the
// file, the line and what was named; the copy as it is passes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const SANDBOX = fileURLToPath(new URL("../../sandbox/src/", import.meta.url));
const MANIFEST = fileURLToPath(new URL("../../Cargo.toml", import.meta.url));
const LAYOUT = fileURLToPath(new URL("../tools/layout.mjs", import.meta.url));

/** A checkout with this src/, sandbox/src/ and Cargo.toml and a short
 * README, `plant(dir)` applied. */
function check(plant) {
  const dir = mkdtempSync(join(tmpdir(), "paybridge-layout-"));
  try {
    cpSync(SRC, join(dir, "src"), { recursive: true });
    cpSync(SANDBOX, join(dir, "sandbox/src"), { recursive: true });
    cpSync(MANIFEST, join(dir, "Cargo.toml"));
    writeFileSync(join(dir, "README.md"), "# paybridge\n");
    plant?.(dir);
    return spawnSync(process.execPath, [LAYOUT, dir], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Appends `code` to the file `src/<file>` of the copy. */
const append = (file, code) => (dir) => appendFileSync(join(dir, "src", file), `\n${code}\n`);

test("layout: src/ as it is passes, the core naming no edge", () => {
  const r = check();
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^layout: /);
});

test("layout: a core file that names the edge fails, naming the file, the line and the path", () => {
  const lines = readFileSync(join(SRC, "json_text.rs"), "utf8").split("\n").length;
  // What json_text.rs did before the port: call the edge's JSON reader.
  const r = check(append("json_text.rs", "fn f(t: &str) { let _ = crate::web::convert::parse_text(t, Code::InvalidPayment, \"x\"); }"));
  assert.equal(r.status, 1);
  assert.match(r.stderr, new RegExp(`src/json_text\\.rs:${lines + 1} names the edge \\(\`crate::web\`\\): the core never calls the edge`));
  assert.match(r.stderr, /src\/platform\.rs/);
});

test("layout: every way of naming the edge or the bindings from the core fails", () => {
  const cases = [
    ["safe_url/mod.rs", "use super::super::web::env::Text;", /src\/safe_url\/mod\.rs:\d+ names the edge/],
    ["payment.rs", "use crate::{json, web::env};", /src\/payment\.rs:\d+ names the edge/],
    ["verify/mod.rs", "use crate::{web};", /src\/verify\/mod\.rs:\d+ names the edge/],
    ["safe_url/mod.rs", "use wasm_bindgen::prelude::*;", /src\/safe_url\/mod\.rs:\d+ names the JavaScript bindings/],
    ["outcome.rs", "fn f() { let _ = js_sys::JSON::parse(\"1\"); }", /src\/outcome\.rs:\d+ names the JavaScript bindings/],
  ];
  for (const [file, code, message] of cases) {
    const r = check(append(file, code));
    assert.equal(r.status, 1, `${file}: ${code}`);
    assert.match(r.stderr, message, code);
  }
});

test("layout: the edge, the sandbox and comments may name the edge", () => {
  const r = check((dir) => {
    append("web/pay.rs", "fn f() { let _ = crate::web::env::global_get; }")(dir);
    append("../sandbox/src/lib.rs", "// paybridge::web::env")(dir);
    append("json_text.rs", "// the edge (crate::web::convert) walks the parsed value")(dir);
  });
  assert.equal(r.status, 0, r.stderr);
});

test("layout: the sandbox crate's files keep the file rules", () => {
  const unsaid = check((dir) => writeFileSync(join(dir, "sandbox/src/extra.rs"), "// not a //! line\nfn f() {}\n"));
  assert.equal(unsaid.status, 1);
  assert.match(unsaid.stderr, /sandbox\/src\/extra\.rs does not start with a \/\/! line/);
  const long = check((dir) => append("../sandbox/src/bounded.rs", "// a line\n".repeat(400))(dir));
  assert.equal(long.status, 1);
  assert.match(long.stderr, /sandbox\/src\/bounded\.rs has \d+ lines \(at most 400\)/);
});

test("layout: two modules of the sandbox crate that reach each other fail, named with the crate", () => {
  const r = check((dir) => {
    // Two files without unit tests (the check reads code before them).
    append("../sandbox/src/receiver.rs", "fn f() { let _ = crate::wallets::router; }")(dir);
    append("../sandbox/src/wallets.rs", "fn g() { let _ = crate::receiver::router; }")(dir);
  });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /import cycle sandbox\/src: receiver <-> wallets/);
});

test("layout: a checkout without the sandbox crate fails", () => {
  const r = check((dir) => rmSync(join(dir, "sandbox"), { recursive: true, force: true }));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /sandbox\/src\/ is missing/);
});

test("layout: a server crate or a sandbox feature in the library's manifest fails", () => {
  const cases = [
    ["[dependencies]", 'tokio = { version = "1.40", optional = true }', /Cargo\.toml:\d+ makes tokio a dependency of the library/],
    ["[target.'cfg(not(target_arch = \"wasm32\"))'.dependencies]", 'axum = "0.8"', /Cargo\.toml:\d+ makes axum a dependency of the library/],
    ["[dev-dependencies.tower-http]", 'version = "0.7"', /Cargo\.toml:\d+ makes tower-http a dependency of the library/],
    ["[features]", 'sandbox = ["hmac"]', /Cargo\.toml:\d+ declares a sandbox feature/],
  ];
  for (const [table, line, message] of cases) {
    const r = check((dir) => appendFileSync(join(dir, "Cargo.toml"), `\n${table}\n${line}\n`));
    assert.equal(r.status, 1, `${table} ${line}`);
    assert.match(r.stderr, message, line);
  }
});
