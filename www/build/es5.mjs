// Lowers a CommonJS script to ES5 (`make pkg`): the files a mini-program
// reaches from `paybridge/miniprogram`'s folder. wallet1's compiler takes
// packages straight from node_modules and does not transpile them unless
// the project opts in, and its uploader minifies as ES5; so what it is
// given must already parse as ES5. SWC does the lowering (async functions
// become a state machine inlined in the file, no regenerator global and no
// code from strings), then the result is parsed as an ES5 script to prove
// it, and that no `import.meta` or `import()` is left.
//
//   node www/build/es5.mjs in.js out.js

import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

// Build tools of the project's, installed with the others in tests/.
const tools = createRequire(new URL("../../tests/package.json", import.meta.url));
const swc = tools("@swc/core");
const acorn = tools("acorn");

const [input, output] = process.argv.slice(2);
if (!output) {
  console.error("usage: es5.mjs in.js out.js");
  process.exit(2);
}

const { code } = swc.transformSync(readFileSync(input, "utf8"), {
  filename: input,
  isModule: false,
  // Helpers inlined into the file: a require of @swc/helpers would reach
  // a package the mini-program does not have.
  jsc: { target: "es5", parser: { syntax: "ecmascript" }, externalHelpers: false },
  sourceMaps: false,
});

try {
  acorn.parse(code, { ecmaVersion: 5, sourceType: "script" });
} catch (e) {
  console.error(`${input} did not lower to ES5: ${e.message}`);
  process.exit(1);
}

writeFileSync(output, code);
