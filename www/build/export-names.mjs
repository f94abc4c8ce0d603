// The names a bundled ES module exports under its own local names, as
// terser's `--mangle reserved=[...]` list (`make pkg`, the browser entry).
// esbuild bundles the entry without renaming identifiers; terser then
// mangles every name but these, so the export clause reads
// `export{pay,planAction,...}` instead of `export{fe as pay,...}`, and each
// export's name is written where it is defined, not once more beside a
// short local one (tests/bench/README.md).
//
//   node www/build/export-names.mjs bundle.js

import { readFileSync } from "node:fs";

const [file] = process.argv.slice(2);
if (!file) {
  console.error("usage: export-names.mjs bundle.js");
  process.exit(2);
}
const clauses = [...readFileSync(file, "utf8").matchAll(/\bexport\s*\{([^}]*)\}/g)];
if (clauses.length !== 1) {
  console.error(`${file}: expected one export clause, found ${clauses.length}`);
  process.exit(1);
}
// `local as exported` keeps its local name free to mangle: only a name
// exported as itself is reserved.
const names = clauses[0][1]
  .split(",")
  .map((s) => s.trim())
  .filter((s) => /^[\w$]+$/.test(s));
if (names.length === 0) {
  console.error(`${file}: its export clause names nothing as itself`);
  process.exit(1);
}
console.log(names.map((n) => JSON.stringify(n)).join(","));
