// Gives the names between a wasm-bindgen module and its generated glue short
// forms: every import of the glue (`__wbg_call_40b008ba32f73991`, ...) and
// every export whose name carries a hash (the closure entry points) becomes
// `$0`, `$1`, ... in both files, the module they come from `bg`. The names
// are private to the pair, so the pair behaves the same; the hashes, which
// gzip cannot shrink, leave the browser's download (`make pkg`). The
// module's data segments also become one, because wasm-opt's split where
// zeros run saves bytes before gzip but costs more after it on the three
// modules (tests/bench/README.md).
//
// This script rewrites the module; every rewrite of the glue's text is in
// www/build/glue.mjs, which it runs, and which stops the build with an
// error naming the rewrite when wasm-bindgen's glue has another shape.
//
//   node www/build/short-names.mjs in.wasm in_bg.js out.wasm out_bg.js [--bindings]
//     [--save-names names.json | --names names.json]
//
// `--save-names` writes the names given (old name to short name, imports
// and exports); `--names` gives the module those names instead of new ones,
// and stops the build on a name the file has none for. The JavaScript
// build (the mini-program module translated by wasm2js) is named as the
// mini-program module was, so that both link with one glue (Makefile).

import { readFileSync, writeFileSync } from "node:fs";
import { GlueShapeError, member, rewriteGlue } from "./glue.mjs";
import { importEntries, leb, readLeb, readName, readSleb, sections, sleb } from "./wasm.mjs";

const [inWasm, inJs, outWasm, outJs, ...flags] = process.argv.slice(2);
const option = (name) => {
  const at = flags.indexOf(name);
  return at < 0 ? undefined : flags.splice(at, 2)[1] ?? "";
};
const saveNames = option("--save-names");
const namesFile = option("--names");
const flag = flags.shift();
if (!outJs || (flag !== undefined && flag !== "--bindings") || flags.length || saveNames === "" || namesFile === "" || (saveNames && namesFile)) {
  console.error("usage: short-names.mjs in.wasm in_bg.js out.wasm out_bg.js [--bindings] [--save-names names.json | --names names.json]");
  process.exit(2);
}
/** The names to give (`--names`), else null: each name is new. */
const given = namesFile ? JSON.parse(readFileSync(namesFile, "utf8")) : null;
/** The name `old` has in `given[kind]`; the build stops where it has none. */
function givenName(kind, old) {
  const to = given[kind][old];
  if (to === undefined) {
    console.error(`${inWasm}: ${old} has no name in ${namesFile} (the module it was named after has no such ${kind.slice(0, -1)})`);
    process.exit(1);
  }
  return to;
}

const wasm = readFileSync(inWasm);
let js = readFileSync(inJs, "utf8");

// What the glue's rewrites (www/build/glue.mjs) are given: the names this
// script gives the module's imports and exports, filled in below.
const ctx = { file: inJs, wasm: inWasm, imports: new Map(), exports: new Map(), bindings: flag !== undefined };

/** The glue through the rewrites of `phase`; a glue of another shape than
 * one of them reads stops the build with that rewrite's message. */
function rewrite(phase) {
  try {
    js = rewriteGlue(js, phase, ctx);
  } catch (e) {
    if (!(e instanceof GlueShapeError)) throw e;
    console.error(e.message);
    process.exit(1);
  }
}

// Before the module's exports are read: what the glue still reaches of
// them decides which stay.
rewrite("before");

const name = (s) => Buffer.concat([leb(Buffer.byteLength(s)), Buffer.from(s)]);

const renames = ctx.imports;
const fresh = (old) => {
  if (!renames.has(old)) renames.set(old, given ? givenName("imports", old) : `$${renames.size}`);
  return renames.get(old);
};
// Export names the glue reaches through `wasm.NAME` and that carry a hash.
const hashed = /_h[0-9a-f]{16}$/;

/** The import section with the glue's field names replaced, and the glue's
 * module name (`./paybridge_bg.js`, repeated before every import) `bg`:
 * the entries hand the glue to the module as `{ bg: bindings }`. */
function imports(body) {
  const parts = [leb(readLeb(body, 0)[0])];
  for (const { module, field, desc } of importEntries(body)) {
    const glue = module.startsWith("./") && module.endsWith("_bg.js");
    parts.push(name(glue ? "bg" : module), name(glue ? fresh(field) : field), desc);
  }
  return Buffer.concat(parts);
}

// The other exports the glue reaches as `wasm.NAME` (`__payStart`,
// `__wbindgen_export4`, ...) get names of their own, `_0`, `_1`, ...: the
// glue's own functions keep theirs (the shim calls those), and only the
// glue reads the module's exports (the memory keeps its name, which the
// entry reads for the leak tests): fewer bytes on the browser entry than
// the exports' own names.
const exportRenames = ctx.exports;
const short = (old) => {
  if (!exportRenames.has(old)) exportRenames.set(old, given ? givenName("exports", old) : `_${exportRenames.size.toString(36)}`);
  return exportRenames.get(old);
};

/** The export section with the hashed names replaced, and without what
 * the glue never reaches (`wasm.NAME`): the allocator's resizing and
 * freeing, which the glue no longer calls (below), and the runtime's
 * abort-handler globals, which only a build with wasm-bindgen's abort
 * handler reads. The memory stays (the entry reads its size for the leak
 * tests). */
function exports(body) {
  let [count, at] = readLeb(body, 0);
  const parts = [];
  while (count--) {
    const [field, a] = readName(body, at);
    if (field === "__wbindgen_start") throw new Error(`${inWasm} has a start function, which link() (www/lib/shared.js) does not call`);
    const [, end] = readLeb(body, a + 1);
    const used = field === "memory" || member(field).test(js);
    if (used) parts.push(name(hashed.test(field) ? fresh(field) : field === "memory" ? field : short(field)), body.subarray(a, end));
    at = end;
  }
  return Buffer.concat([leb(parts.length / 2), ...parts]);
}

/** The data section's active segments (memory 0, constant offsets) as one
 * segment over the span they cover, the bytes between them zero as memory
 * starts; null when a segment has another form (passive, another memory, a
 * computed offset) or the gaps are large, and the section is left as it is. */
function oneSegment(body) {
  let [count, at] = readLeb(body, 0);
  if (count < 2) return null;
  const segments = [];
  while (count--) {
    if (body[at] !== 0 || body[at + 1] !== 0x41) return null; // active, memory 0, i32.const
    const [offset, a] = readSleb(body, at + 2);
    if (body[a] !== 0x0b || offset < 0) return null;
    const [size, start] = readLeb(body, a + 1);
    segments.push({ offset, bytes: body.subarray(start, start + size) });
    at = start + size;
  }
  const from = Math.min(...segments.map((g) => g.offset));
  const size = Math.max(...segments.map((g) => g.offset + g.bytes.length)) - from;
  // Zeros compress to nearly nothing, but a mini-program package counts
  // its files unzipped: no more than 4 KB of them, or the segments stay
  // apart.
  if (size - segments.reduce((n, g) => n + g.bytes.length, 0) > 4096) return null;
  const span = Buffer.alloc(size);
  // In their order: where two overlap the later one is what memory holds.
  for (const g of segments) g.bytes.copy(span, g.offset - from);
  return Buffer.concat([leb(1), Buffer.from([0, 0x41]), sleb(from), Buffer.from([0x0b]), leb(span.length), span]);
}

const data = [...sections(wasm)].find((s) => s.id === 11);
const merged = data && oneSegment(data.body);
const out = [wasm.subarray(0, 8)];
for (let { id, body } of sections(wasm)) {
  if (id === 2) body = imports(body);
  if (id === 7) body = exports(body);
  if (id === 11 && merged) body = merged;
  if (id === 12 && merged) body = leb(1); // the data count
  out.push(Buffer.from([id]), leb(body.length), body);
}

rewrite("after");

const result = Buffer.concat(out);
if (!WebAssembly.validate(result)) throw new Error(`${outWasm}: the rewritten module does not validate`);
writeFileSync(outWasm, result);
writeFileSync(outJs, js);
if (saveNames) {
  const names = { imports: Object.fromEntries(renames), exports: Object.fromEntries(exportRenames) };
  writeFileSync(saveNames, JSON.stringify(names, null, 1) + "\n");
}
