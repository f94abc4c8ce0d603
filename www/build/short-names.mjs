// Gives the names between a wasm-bindgen module and its generated glue short
// forms: every import of the glue (`__wbg_call_40b008ba32f73991`, ...) and
// every export whose name carries a hash (the closure entry points) becomes
// `$0`, `$1`, ... in both files, the module they come from `bg`. The names
// are private to the pair, so the pair behaves the same; the hashes, which
// gzip cannot shrink, leave the browser's download (`make pkg`). The
// module's data segments also become one, because wasm-opt's split where
// zeros run saves bytes before gzip but costs 0.06 to 0.14 KB after it on
// the three modules.
//
//   node www/build/short-names.mjs in.wasm in_bg.js out.wasm out_bg.js [--bindings]

import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { importEntries, leb, readLeb, readName, readSleb, sections, sleb } from "./wasm.mjs";

const [inWasm, inJs, outWasm, outJs, flag] = process.argv.slice(2);
if (!outJs || (flag !== undefined && flag !== "--bindings")) {
  console.error("usage: short-names.mjs in.wasm in_bg.js out.wasm out_bg.js [--bindings]");
  process.exit(2);
}

const wasm = readFileSync(inWasm);
let js = readFileSync(inJs, "utf8");

// Strings from JavaScript are written into the module's memory by
// wasm-bindgen's own branch for a module without `realloc`: encoded once,
// copied once. The other branch (ASCII copied by hand, then the rest
// re-allocated and encoded into place, and `encodeInto` polyfilled for it)
// saves one short-lived array a string; the strings a payment reads are a
// few short fields, and the branch costs the browser entry 0.25 KB gzipped
// (tests/bench/README.md).
if (js.includes("passStringToWasm0")) {
  const full = /^function passStringToWasm0\(arg, malloc, realloc\) \{\n {4}if \(realloc === undefined\) \{\n([\s\S]*?)\n {4}\}\n[\s\S]*?\n\}\n/m;
  if (!full.test(js)) throw new Error(`${inJs}: passStringToWasm0 has a body this script does not read`);
  js = js.replace(full, (_, body) => `function passStringToWasm0(arg, malloc) {\n${body.replace(/^ {4}/gm, "")}\n}\n`);
  const calls = /passStringToWasm0\(([\w$.]+), (wasm\.[\w$]+), wasm\.[\w$]+\)/g;
  js = js.replace(calls, (_, arg, malloc) => `passStringToWasm0(${arg}, ${malloc})`);
  if (/passStringToWasm0\([^)]*,[^)]*,/.test(js)) throw new Error(`${inJs}: a call of passStringToWasm0 in a form this script does not read`);
  const polyfill = /^if \(!\('encodeInto' in cachedTextEncoder\)\) \{\n[\s\S]*?\n\}\n/m;
  js = js.replace(polyfill, "");
  if (js.includes("encodeInto")) throw new Error(`${inJs}: encodeInto is still used`);
}

const name = (s) => Buffer.concat([leb(Buffer.byteLength(s)), Buffer.from(s)]);

const renames = new Map();
const fresh = (old) => {
  if (!renames.has(old)) renames.set(old, `$${renames.size}`);
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
// entry reads for the leak tests): 0.05 KB less gzipped on the browser
// entry than the exports' own names.
const exportRenames = new Map();
/** The glue's reads of the export `field`: `wasm.field`, a whole name. */
const member = (field, flags) => new RegExp(`\\bwasm\\.${field.replace(/\$/g, "\\$")}(?![\\w$])`, flags);
const short = (old) => {
  if (!exportRenames.has(old)) exportRenames.set(old, `_${exportRenames.size.toString(36)}`);
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

for (const [old, to] of exportRenames) js = js.replace(member(old, "g"), () => `wasm.${to}`);
if (/\bwasm\.__/.test(js)) throw new Error(`${inJs} reaches an export in a form this script does not rename`);

for (const [old, short] of renames) {
  const whole = new RegExp(`(?<![\\w$])${old.replace(/\$/g, "\\$")}(?![\\w$])`, "g");
  if (!whole.test(js)) throw new Error(`${old} is not in ${inJs}`);
  js = js.replace(whole, () => short);
}

// An import the glue offers and the module does not import (wasm-bindgen
// writes its `throw` for every module; the optimizer may have dropped the
// module's last use of it) is left out: exported, it would stay in every
// bundle. Every import the module has is renamed above, so a hashed name
// still here is one it does not have.
js = js.replace(/^export function (__wbg_\w+_[0-9a-f]{16})\(.*\) \{\n[\s\S]*?\n\}\n/gm, (whole, fn) => {
  if (renames.has(fn)) throw new Error(`${fn} is imported by ${inWasm} but was not renamed`);
  // One function, not the ones after it (a body of another form than
  // wasm-bindgen's plain one would end elsewhere).
  if (/\nexport /.test(whole)) throw new Error(`${inJs}: ${fn} has a body this script does not read`);
  return "";
});
if (/^export function __wbg_\w+_[0-9a-f]{16}\b/m.test(js)) throw new Error(`${inJs} offers an import in a form this script does not read`);

// The module's own JavaScript (wasm-bindgen's `inline_js` snippets, which
// the glue imports from a folder beside it) is written into the glue: the
// glue is then one file wherever it goes (bundled into an entry, or copied
// to pkg/ as the full module's is).
js = js.replace(/^import \{ ([\w$, ]+) \} from '(\.\/snippets\/[^']+)';\n/gm, (_, names, path) => {
  const code = readFileSync(new URL(path, pathToFileURL(inJs)), "utf8");
  for (const n of names.split(", ")) {
    if (!new RegExp(`^export function ${n.replace(/\$/g, "\\$")}\\b`, "m").test(code)) throw new Error(`${path} does not export function ${n}`);
  }
  return code.replace(/^export function /gm, "function ") + "\n";
});
if (/from '\.\/snippets\//.test(js)) throw new Error(`${inJs} imports a snippet in a form this script does not inline`);

// Nothing runs at import that a mini-program runtime lacks: the encoder and
// the decoder are made at their first use, not when the glue is evaluated,
// so that a bundle a mini-program framework makes of the browser entry
// (the root import in a Taro or uni-app build; no TextEncoder there) loads,
// and its pay() fails as a PayError. The decoder's byte count starts at
// wasm-bindgen's own limit, so its first use makes one.
{
  const encoder = "const E=new TextEncoder;\nfunction textInto(s,a){return E.encodeInto(s,a).written}";
  if (js.includes("new TextEncoder")) {
    if (!js.includes(encoder)) throw new Error(`${inJs}: a TextEncoder made in a form this script does not read`);
    js = js.replace(encoder, "let E;\nfunction textInto(s,a){return(E=E||new TextEncoder).encodeInto(s,a).written}");
  }
  const decoder = "let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });\ncachedTextDecoder.decode();\n";
  if (js.includes("new TextDecoder")) {
    const count = "let numBytesDecoded = 0;";
    if (!js.includes(decoder) || !js.includes(count) || js.indexOf("const MAX_SAFARI_DECODE_BYTES") > js.indexOf(count)) {
      throw new Error(`${inJs}: a TextDecoder made in a form this script does not read`);
    }
    js = js.replace(decoder, "let cachedTextDecoder;\n").replace(count, "let numBytesDecoded = MAX_SAFARI_DECODE_BYTES;");
  }
}

// An import that may throw is wasm-bindgen's `function $1() { return
// handleError(function (arg0, ...) { ... }, arguments); }`: written as the
// function itself, its body in a `try` whose `catch` stores the thrown
// value as handleError does (`caught`): no inner function and no
// `arguments` for each. The casts wasm-bindgen writes as imports (a number
// or a string made a JavaScript value) and its drop are the glue's own
// helpers under the import's name. 0.03 KB less gzipped on the browser
// entry (tests/bench/README.md).
const handled = /^export function (\$\d+)\(\) \{ return handleError\(function \(([\w, ]*)\) \{\n([\s\S]*?)\n\}, arguments\); \}$/gm;
if (handled.test(js)) {
  const helper = /^function handleError\(f, args\) \{\n {4}try \{\n {8}return f\.apply\(this, args\);\n {4}\} catch \(e\) \{\n {8}(wasm\.[\w$]+)\(addHeapObject\(e\)\);\n {4}\}\n\}\n/m;
  const store = js.match(helper);
  if (!store) throw new Error(`${inJs}: handleError has a body this script does not read`);
  js = js.replace(handled, (_, fn, args, body) => `export function ${fn}(${args}) { try {\n${body}\n} catch (e) { caught(e); } }`);
  js = js.replace(helper, `function caught(e) {\n    ${store[1]}(addHeapObject(e));\n}\n`);
  if (js.includes("handleError")) throw new Error(`${inJs}: handleError is called in a form this script does not read`);
}
js = js.replace(
  /^export function (\$\d+)\(arg0\) \{\n {4}\/\/ Cast intrinsic for `F64 -> Externref`\.\n {4}const ret = arg0;\n {4}return addHeapObject\(ret\);\n\}$/gm,
  (_, fn) => `export const ${fn} = addHeapObject;`,
);
js = js.replace(/^export function (\$\d+)\(arg0\) \{\n {4}takeObject\(arg0\);\n\}$/gm, (_, fn) => `export const ${fn} = takeObject;`);

// With --bindings (the glues bundled into an entry), every export of the
// glue also as one plain object, which the entry hands to the module as
// its imports and calls the exports through. A bundler writes an `import
// * as` used as a value as an object of getters, one arrow function a
// name: 0.1 KB more gzipped on the browser entry.
if (flag) {
  const names = [...js.matchAll(/^export (?:function|class|const) ([\w$]+)/gm)].map((m) => m[1]);
  if (names.length === 0) throw new Error(`${inJs} exports nothing`);
  js += `\n/** Every export above, as one object (www/build/short-names.mjs). */\nexport const bindings = { ${names.join(", ")} };\n`;
}

const result = Buffer.concat(out);
if (!WebAssembly.validate(result)) throw new Error(`${outWasm}: the rewritten module does not validate`);
writeFileSync(outWasm, result);
writeFileSync(outJs, js);
