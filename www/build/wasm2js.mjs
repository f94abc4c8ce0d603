// Makes binaryen's wasm2js translation of the mini-program module (an ES
// module that imports its glue as `bg` and instantiates at import) the
// JavaScript build's module: an ES5 CommonJS script whose one export,
// `instantiate(imports)`, instantiates it as WebAssembly.instantiate would
// a module (`imports.bg`, the glue's bindings) and answers its exports. The
// glue is not in it: the JavaScript build links with the mini-program
// module's own glue, which the entry already has (Makefile), and each
// entry hands it over (www/lib/miniprogram-npm.js, miniprogram-bundle.js,
// wasmjs.js).
//
// Its data segments are written as string literals, one character a byte,
// instead of wasm2js's base64: fewer bytes in the file (text is most of
// the data) and less work at instantiation in a runtime without a JIT.
//
// The long numbers the code repeats (the niche values of Rust's enums,
// -2147483648 and its neighbours, mostly) are each written once, as a
// variable of the module's function, and read where they were written:
// a minifier cannot do that, and a wallet1 page counts raw bytes. Numbers
// that are the test of a `case` stay (a switch on literals is a jump
// table in the interpreter).
//
// Every rewrite reads the shape of binaryen's output (version in
// tests/package-lock.json) and stops the build, naming itself, when it
// finds another.
//
//   node www/build/wasm2js.mjs translated.js out.cjs
//
// With --eager, it takes the build once minified instead and writes
// `exports.instantiate` as a parenthesized function: engines compile
// such a function with the script, so the module function is parsed once,
// not skimmed with the script and parsed again, its functions skimmed a
// second time, when a page first pays (minifiers drop the parentheses).
//
//   node www/build/wasm2js.mjs --eager minified.js out.js
//
// It also writes the data's control characters escaped (`printable`,
// below); --printable does only that, for a bundle with the translation
// inside:
//
//   node www/build/wasm2js.mjs --printable bundle.cjs out.cjs

import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

// Build tools of the project's, installed with the others in tests/.
const acorn = createRequire(new URL("../../tests/package.json", import.meta.url))("acorn");

const eager = process.argv[2] === "--eager";
const [input, output] = process.argv.slice(eager || process.argv[2] === "--printable" ? 3 : 2);
if (!output) {
  console.error("usage: wasm2js.mjs translated.js out.cjs | wasm2js.mjs --eager minified.js out.js | wasm2js.mjs --printable bundle.cjs out.cjs");
  process.exit(2);
}

let js = readFileSync(input, "utf8");

function shape(what, found) {
  console.error(`${input}: wasm2js output of another shape than www/build/wasm2js.mjs reads: ${what}; ${found}`);
  process.exit(1);
}

// The data's control characters, which esbuild writes raw in its string
// and template literals (valid JavaScript), escaped (`\x01`): a file of
// printable text, whatever tool of a wallet's reads or re-encodes it next.
// Only inside those literals (untagged), found by the tokenizer; any left
// elsewhere stops the step. Last, after every minifier (esbuild writes
// them raw again).
function printable(text) {
  const raw = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
  // `search` ignores the g flag's position, which `test` would carry over.
  const hasRaw = (t) => t.search(raw) >= 0;
  const strings = [...acorn.tokenizer(text, { ecmaVersion: "latest" })].filter(
    (t) => (t.type === acorn.tokTypes.string || t.type === acorn.tokTypes.template) && hasRaw(text.slice(t.start, t.end)),
  );
  for (const t of strings.reverse()) {
    const lit = text.slice(t.start, t.end).replace(raw, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
    text = text.slice(0, t.start) + lit + text.slice(t.end);
  }
  if (hasRaw(text)) shape("control characters only inside string literals", "one outside them");
  return text;
}

if (process.argv[2] === "--printable") {
  writeFileSync(output, printable(js));
  process.exit(0);
}

if (eager) {
  const ast = acorn.parse(js, { ecmaVersion: 5, sourceType: "script" });
  const defs = ast.body.filter(
    (n) =>
      n.type === "ExpressionStatement" &&
      n.expression.type === "AssignmentExpression" &&
      js.slice(n.expression.left.start, n.expression.left.end) === "exports.instantiate" &&
      n.expression.right.type === "FunctionExpression",
  );
  if (defs.length !== 1) shape("one top-level `exports.instantiate = function (...) {...}`", `found ${defs.length}`);
  const fn = defs[0].expression.right;
  js = `${js.slice(0, fn.start)}(${js.slice(fn.start, fn.end)})${js.slice(fn.end)}`;
  js = printable(js);
  acorn.parse(js, { ecmaVersion: 5, sourceType: "script" });
  writeFileSync(output, js);
  process.exit(0);
}

// The import of the glue, and the instantiation at import with the
// exports re-exported one by one, become the one function.
const head = "import * as bg from 'bg';\n";
if (!js.startsWith(head)) shape("the first line `import * as bg from 'bg';`", `found ${JSON.stringify(js.slice(0, 40))}`);
js = js.slice(head.length);
const tail = /\nvar retasmFunc = asmFunc\(\{\n {2}"bg": bg,\n\}\);\n(?:export var [\w$]+ = retasmFunc\.[\w$]+;\n)+$/;
if (!tail.test(js)) shape("`var retasmFunc = asmFunc({ \"bg\": bg })` then `export var NAME = retasmFunc.NAME;` lines at the end", "they are not");
js = js.replace(tail, "\nexports.instantiate = asmFunc;\n");
if (/^\s*(import|export)\b/m.test(js)) shape("no other import or export", "there is one");

// The data segments: wasm2js's base64 decoder and its calls.
const decoder = /^ {2}var bufferView;\n {2}var base64ReverseLookup = [\s\S]*?\n {2}function base64DecodeToExistingUint8Array\(uint8Array, offset, b64\) \{\n[\s\S]*?\n {2}\}\n/m;
if (!decoder.test(js)) shape("`var bufferView;`, the lookup table and `function base64DecodeToExistingUint8Array(uint8Array, offset, b64)`", "not found");
js = js.replace(
  decoder,
  "var bufferView;\n" +
    "// Writes a data segment: one character of `text` a byte.\n" +
    "function initSegment(offset, text) {\n  for (var i = 0; i < text.length; i++) bufferView[offset + i] = text.charCodeAt(i);\n}\n",
);
let segments = 0;
js = js.replace(/base64DecodeToExistingUint8Array\(bufferView, (\d+), "([A-Za-z0-9+/]*={0,2})"\);/g, (_, offset, b64) => {
  segments++;
  return `initSegment(${offset}, ${literal(Buffer.from(b64, "base64"))});`;
});
const init = /\nfunction initActiveSegments\(imports\) \{\n([\s\S]*?)\n\}\n/.exec(js);
const written = /^ *initSegment\(\d+, "(?:[^"\\]|\\.)*"\);$/;
if (segments === 0 || js.includes("base64DecodeToExistingUint8Array") || !init || !init[1].split("\n").every((l) => written.test(l))) {
  shape("`function initActiveSegments(imports)` of `base64DecodeToExistingUint8Array(bufferView, OFFSET, \"BASE64\");` lines", "one is written otherwise");
}

/** `bytes` as a JavaScript string literal, one character a byte, ASCII only. */
function literal(bytes) {
  const named = { 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\" };
  let s = '"';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    const next = bytes[i + 1];
    if (named[b]) s += named[b];
    else if (b >= 0x20 && b < 0x7f) s += String.fromCharCode(b);
    // `\0` before a digit would read as an octal escape.
    else if (b === 0 && !(next >= 0x30 && next <= 0x39)) s += "\\0";
    else s += `\\x${b.toString(16).padStart(2, "0")}`;
  }
  return s + '"';
}

// The memory: the module never grows it (the Makefile checks that the
// module has no memory.grow), so it is exported as its buffer alone,
// without wasm2js's grow(), and the typed views only that used go too.
const grow = /\n {1}function __wasm_memory_grow\(pagesToAdd\) \{\n[\s\S]*?\n {1}\}\n/;
const memory = /"memory": Object\.create\(Object\.prototype, \{\n\s*"grow": \{\n\s*"value": __wasm_memory_grow\n\s*\}, \n\s*"buffer": \{\n\s*"get": function \(\) \{\n\s*return buffer;\n\s*\}\n\s*\n\s*\}\n\s*\}\)/;
if (!grow.test(js) || !memory.test(js)) shape("`function __wasm_memory_grow(pagesToAdd)` and the export `\"memory\": Object.create(Object.prototype, { grow, buffer })`", "not found");
js = js.replace(grow, "\n").replace(memory, '"memory": { "buffer": buffer }');
if (js.includes("__wasm_memory_grow")) shape("__wasm_memory_grow used by the memory export alone", "it is used elsewhere");
js = js.replace(/^ var (HEAP\w+) = new \w+Array\(buffer\);\n/gm, (line, view) => (new RegExp(`\\b${view}\\b`).test(js.replace(line, "")) ? line : ""));

js = hoistConstants(js);
js = ownMemoryView(js);

/**
 * `js` with `bufferView` (the byte view of the memory, which the data
 * segments and `memory.copy` and `memory.fill` write through) and the
 * functions that use it moved into `asmFunc`: each instance its own view.
 * Left at the top, a second `instantiate` (a process that loads two entries
 * of the package over the one translated module) pointed the first
 * instance's copies and fills at the second one's memory.
 */
function ownMemoryView(js) {
  const top = (text) => acorn.parse(text, { ecmaVersion: "latest", sourceType: "script" }).body;
  // `bufferView`, and (until none is left) the functions that name it or
  // one of the functions moved.
  const names = new Set(["bufferView"]);
  const uses = (text) => [...names].some((name) => new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\b`).test(text));
  const body = top(js);
  const fn = body.find((n) => n.type === "FunctionDeclaration" && n.id.name === "asmFunc");
  if (!fn) shape("`function asmFunc(imports)` at the top level", "not found");
  let moved = [];
  for (let more = true; more; ) {
    const next = body.filter((n) => n !== fn && uses(js.slice(n.start, n.end)));
    more = next.length > moved.length;
    moved = next;
    for (const n of moved) if (n.type === "FunctionDeclaration") names.add(n.id.name);
  }
  const declared = moved.some((n) => n.type === "VariableDeclaration" && n.declarations.length === 1 && n.declarations[0].id.name === "bufferView");
  const functions = moved.filter((n) => n.type === "FunctionDeclaration").map((n) => n.id.name);
  if (!declared || moved.length !== functions.length + 1 || !functions.includes("initActiveSegments")) {
    shape("`var bufferView;` and functions that use it at the top level, `initActiveSegments` one of them", `found ${moved.map((n) => n.type).join(", ")}`);
  }
  if (!/\n {1}bufferView = HEAPU8;\n/.test(js.slice(fn.start, fn.end))) shape("`bufferView = HEAPU8;` in `asmFunc`", "not found");
  const text = moved.map((n) => js.slice(n.start, n.end)).join("\n");
  let out = "";
  let at = 0;
  for (const n of moved) {
    out += js.slice(at, n.start);
    at = n.end;
  }
  out += js.slice(at);
  const open = out.indexOf("function asmFunc(imports) {") + "function asmFunc(imports) {".length;
  out = out.slice(0, open) + "\n" + text + "\n" + out.slice(open);
  if (top(out).some((n) => !(n.type === "FunctionDeclaration" && n.id.name === "asmFunc") && /\bbufferView\b/.test(out.slice(n.start, n.end)))) {
    shape("no use of `bufferView` outside `asmFunc` once moved", "one is left");
  }
  return out;
}

/**
 * `js` with each number literal in `asmFunc` (a literal, or a literal
 * negated) that is written often enough to pay for its declaration read
 * from a variable `$cN` declared at the top of `asmFunc`.
 */
function hoistConstants(js) {
  const ast = acorn.parse(js, { ecmaVersion: 5, sourceType: "script" });
  const fn = ast.body.find((n) => n.type === "FunctionDeclaration" && n.id.name === "asmFunc");
  if (!fn) shape("`function asmFunc(imports)` at the top level", "not found");
  if (/\$c\d/.test(js)) shape("no name `$cN`", "there is one");
  const uses = new Map();
  const skip = new Set();
  (function walk(node, parent) {
    if (!node || typeof node.type !== "string") return;
    if (node.type === "SwitchCase" && node.test) skip.add(node.test);
    if (node.type === "Property") skip.add(node.key);
    let lit = null;
    if (node.type === "Literal" && typeof node.value === "number") lit = { node, value: node.value };
    else if (node.type === "UnaryExpression" && node.operator === "-" && node.argument.type === "Literal" && typeof node.argument.value === "number") {
      lit = { node, value: -node.argument.value };
    }
    if (lit) {
      if (!skip.has(node) && lit.value !== 0 && !(parent?.type === "UnaryExpression" && parent.operator === "-")) {
        const key = String(lit.value);
        if (!uses.has(key)) uses.set(key, []);
        uses.get(key).push(node);
      }
      return;
    }
    for (const k in node) {
      const v = node[k];
      if (Array.isArray(v)) v.forEach((c) => walk(c, node));
      else if (v && typeof v.type === "string") walk(v, node);
    }
  })(fn.body, fn);
  // A variable's name is two characters once minified (most of the
  // module's names are): hoisted where that saves bytes.
  const hoisted = [...uses].filter(([key, nodes]) => key.length >= 6 && nodes.length * (key.length - 2) > key.length + 4);
  if (hoisted.length === 0) return js;
  const edits = [];
  const decls = hoisted.map(([key, nodes], i) => {
    for (const n of nodes) edits.push([n.start, n.end, `$c${i}`]);
    return `$c${i} = ${key}`;
  });
  edits.sort((a, b) => b[0] - a[0]);
  for (const [start, end, name] of edits) js = js.slice(0, start) + name + js.slice(end);
  const open = fn.body.start + 1;
  if (open > edits[edits.length - 1][0]) shape("the function's body before its numbers", "it is not");
  return js.slice(0, open) + `\n var ${decls.join(", ")};` + js.slice(open);
}

writeFileSync(output, js);
