// `make lint`: the shape of the code a newcomer meets. The README stays a
// guide (under 24,000 bytes: a quick start, the install, one payment
// object per channel, the examples that a test runs as written, and the
// map of the code; history and measurements go beside the bench), every source file says what it is for (a
// `//!` first line), no source file passes 400 lines, and no two modules of
// one crate reach each other (an import cycle): the rules hold for both
// crates of the workspace, the library (src/) and the sandbox
// (sandbox/src/), each its own module tree, and the library's manifest
// names none of the sandbox's server crates. The core (src/ but the edge,
// src/web/) never names the edge
// (`crate::web`, `super::web`, `use crate::{web, ...}`) nor the JavaScript
// bindings (`wasm_bindgen`, `js_sys`, `web_sys`): what it needs of the
// runtime it asks through its port, src/platform.rs, which the edge
// implements. What is left to fix is listed
// below by name: a file or a cycle that is not on the list fails, and so
// does one on the list that got longer or is gone (shrink the list then).
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

// The checkout to check: this one, or the folder given (tests/node/layout.test.mjs
// checks a copy with a violation planted).
const ROOT = process.argv[2] ?? fileURLToPath(new URL("../../", import.meta.url));
const README_MAX = 24_000;
const LINES_MAX = 400;

/** Files over LINES_MAX today, and their length (none). */
const LONG = {};

/** Import cycles today (modules that reach each other): none. */
const CYCLES = [];

const problems = [];

const readme = statSync(join(ROOT, "README.md")).size;
if (readme >= README_MAX) problems.push(`README.md is ${readme} bytes; a user's guide stays under ${README_MAX} (history goes beside the bench)`);

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The workspace's crates: the folder of each one's module tree. */
const CRATES = ["src", "sandbox/src"];

/** Each file (relative to ROOT) and its text; the crate folder of each. */
const text = new Map();
const crateOf = new Map();
for (const dir of CRATES) {
  if (!existsSync(join(ROOT, dir))) {
    problems.push(`${dir}/ is missing: the workspace's crates are ${CRATES.join(", ")}`);
    continue;
  }
  for (const f of files(join(ROOT, dir)).filter((f) => f.endsWith(".rs"))) {
    const file = relative(ROOT, f);
    text.set(file, readFileSync(f, "utf8"));
    crateOf.set(file, dir);
  }
}

for (const [file, t] of text) {
  if (!t.startsWith("//!")) problems.push(`${file} does not start with a //! line saying what it is for`);
  const lines = t.split("\n").length - (t.endsWith("\n") ? 1 : 0);
  const known = LONG[file];
  if (lines > LINES_MAX && known === undefined) problems.push(`${file} has ${lines} lines (at most ${LINES_MAX}): split it`);
  if (known !== undefined && lines > known) problems.push(`${file} grew to ${lines} lines (listed at ${known}, at most ${LINES_MAX}): split it`);
  if (known !== undefined && lines <= LINES_MAX) problems.push(`${file} is ${lines} lines now: take it off LONG in tests/tools/layout.mjs`);
}
for (const file of Object.keys(LONG)) if (!text.has(file)) problems.push(`${file} is gone: take it off LONG in tests/tools/layout.mjs`);

// Modules, in each crate: src/a/b.rs and src/a/b/mod.rs are a::b; lib.rs
// (and a binary's main.rs, a crate root of its own) is the crate.
const moduleOf = (file) =>
  file
    .slice(crateOf.get(file).length + 1)
    .replace(/(\/mod)?\.rs$/, "")
    .replace(/^(lib|main)$/, "")
    .split("/")
    .filter(Boolean)
    .join("::");

/** The import edges between the modules of the crate in `dir`. */
function graph(dir) {
  const mine = [...text.keys()].filter((f) => crateOf.get(f) === dir);
  const modules = new Set(mine.map(moduleOf));

  /** The module a path names: its longest prefix that is a module. */
  function resolve(path) {
    const parts = path.split("::");
    for (let n = parts.length; n > 0; n--) {
      const m = parts.slice(0, n).join("::");
      if (modules.has(m)) return m;
    }
    return null;
  }

  const related = (a, b) => a === b || a.startsWith(`${b}::`) || b.startsWith(`${a}::`) || a === "" || b === "";
  const edges = new Map([...modules].map((m) => [m, new Set()]));
  for (const file of mine) {
    const t = text.get(file);
    const from = moduleOf(file);
    const parent = from.split("::").slice(0, -1).join("::");
    // Code only: comments and the unit tests (#[cfg(test)] mod tests) aside.
    const code = t.replace(/#\[cfg\(test\)\]\s*mod tests[\s\S]*$/, "").replace(/\/\/.*$/gm, "");
    const paths = [];
    for (const m of code.matchAll(/\bcrate::((?:\w+::)*\w+)/g)) paths.push(m[1]);
    for (const m of code.matchAll(/\bsuper::((?:\w+::)*\w+)/g)) paths.push(parent ? `${parent}::${m[1]}` : m[1]);
    // `use super::{a, b::c}` and `use crate::{a, b}` groups.
    for (const m of code.matchAll(/\b(crate|super)::\{([^}]*)\}/g)) {
      const base = m[1] === "crate" ? "" : parent;
      for (const item of m[2].split(",")) {
        const name = item.trim().split(/\s/)[0];
        if (name && name !== "self") paths.push(base ? `${base}::${name}` : name);
      }
    }
    for (const p of paths) {
      const to = resolve(p);
      if (to !== null && !related(from, to)) edges.get(from).add(to);
    }
  }
  return edges;
}

// The library has no server in it: its manifest has no `sandbox` feature
// and none of the sandbox's server crates among its dependencies (normal,
// dev, build or of a target); those belong to sandbox/Cargo.toml.
const SERVER_CRATES = ["axum", "tokio", "tower-http"];
const manifest = readFileSync(join(ROOT, "Cargo.toml"), "utf8");
let section = "";
for (const [n, line] of manifest.split("\n").entries()) {
  const head = line.match(/^\s*\[+([^\]]+)\]+\s*(?:#.*)?$/);
  if (head) {
    section = head[1].trim();
    const table = section.match(/(?:^|\.)(?:dev-|build-)?dependencies\.([\w-]+)$/);
    if (table && SERVER_CRATES.includes(table[1])) problems.push(`Cargo.toml:${n + 1} makes ${table[1]} a dependency of the library: the server's crates belong to sandbox/Cargo.toml`);
    continue;
  }
  const key = line.match(/^\s*([\w-]+)\s*=/)?.[1];
  if (!key) continue;
  if (/(?:^|\.)(?:dev-|build-)?dependencies$/.test(section) && SERVER_CRATES.includes(key)) {
    problems.push(`Cargo.toml:${n + 1} makes ${key} a dependency of the library: the server's crates belong to sandbox/Cargo.toml`);
  }
  if (section === "features" && key === "sandbox") problems.push(`Cargo.toml:${n + 1} declares a sandbox feature: the sandbox is the crate sandbox/`);
}

// The core never calls the edge: a core file that names it (in code,
// comments aside) fails, whatever the build it is compiled in.
const EDGE = [
  [/\b(?:crate|super)(?:::super)*::web\b/, "the edge"],
  [/\b(?:crate|super)(?:::super)*::\{[^}]*\bweb\b[^}]*\}/, "the edge"],
  [/\b(?:wasm_bindgen|js_sys|web_sys)\b/, "the JavaScript bindings"],
];
const isCore = (file) => crateOf.get(file) === "src" && !file.startsWith("src/web/");
for (const [file, t] of text) {
  if (!isCore(file)) continue;
  const code = t.replace(/\/\/.*$/gm, "");
  for (const [re, what] of EDGE) {
    const m = code.match(re);
    if (m) {
      const line = code.slice(0, m.index).split("\n").length;
      problems.push(
        `${file}:${line} names ${what} (\`${m[0]}\`): the core never calls the edge; ` +
          "ask the runtime through the core's port (src/platform.rs, which src/web/platform.rs implements) or have the edge pass the value in",
      );
    }
  }
}

/** Pairs of modules of one crate that reach each other, each pair once;
 * a pair in sandbox/src/ is named with its folder. */
const found = [];
for (const dir of CRATES) {
  const edges = graph(dir);
  const reaches = (a, b) => {
    const seen = new Set([a]);
    const todo = [a];
    while (todo.length) {
      for (const n of edges.get(todo.pop())) {
        if (n === b) return true;
        if (!seen.has(n)) {
          seen.add(n);
          todo.push(n);
        }
      }
    }
    return false;
  };
  const name = dir === "src" ? "" : `${dir}: `;
  for (const [a, outs] of edges) {
    for (const b of outs) if (a < b && reaches(b, a)) found.push(`${name}${a} <-> ${b}`);
  }
}
for (const c of found) if (!CYCLES.includes(c)) problems.push(`import cycle ${c}: the data path reads one way; move the shared type into a third module`);
for (const c of CYCLES) if (!found.includes(c)) problems.push(`the cycle ${c} is gone: take it off CYCLES in tests/tools/layout.mjs`);

if (problems.length) {
  console.error(problems.map((p) => `layout: ${p}`).join("\n"));
  process.exit(1);
}
console.log(`layout: README ${readme} bytes; ${text.size} source files with //! lines; ${Object.keys(LONG).length} files and ${CYCLES.length} cycles left to split`);
