// Gives the names between a wasm-bindgen module and its generated glue short
// forms: every import of the glue (`__wbg_call_40b008ba32f73991`, ...) and
// every export whose name carries a hash (the closure entry points) becomes
// `$0`, `$1`, ... in both files. The names are private to the pair, so the
// pair behaves the same; the hashes, which gzip cannot shrink, leave the
// browser's download (`make pkg`).
//
//   node www/build/short-names.mjs in.wasm in_bg.js out.wasm out_bg.js

import { readFileSync, writeFileSync } from "node:fs";

const [inWasm, inJs, outWasm, outJs] = process.argv.slice(2);
if (!outJs) {
  console.error("usage: short-names.mjs in.wasm in_bg.js out.wasm out_bg.js");
  process.exit(2);
}

const wasm = readFileSync(inWasm);
let js = readFileSync(inJs, "utf8");

function readLeb(buf, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = buf[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}

function leb(n) {
  const out = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Buffer.from(out);
}

function readName(buf, at) {
  const [len, start] = readLeb(buf, at);
  return [buf.toString("utf8", start, start + len), start + len];
}

/** The end of limits at `at`: flags, minimum, and a maximum when flag bit 0 is set. */
function limits(buf, at) {
  const flags = buf[at];
  const end = readLeb(buf, at + 1)[1];
  return flags & 1 ? readLeb(buf, end)[1] : end;
}

const name = (s) => Buffer.concat([leb(Buffer.byteLength(s)), Buffer.from(s)]);

const renames = new Map();
const fresh = (old) => {
  if (!renames.has(old)) renames.set(old, `$${renames.size}`);
  return renames.get(old);
};
// Export names the glue reaches through `wasm.NAME` and that carry a hash.
const hashed = /_h[0-9a-f]{16}$/;

/** The import section with the glue's field names replaced. */
function imports(body) {
  let [count, at] = readLeb(body, 0);
  const parts = [leb(count)];
  while (count--) {
    const [module, a] = readName(body, at);
    const [field, kindAt] = readName(body, a);
    const kind = body[kindAt];
    let end = kindAt + 1;
    if (kind === 0) end = readLeb(body, end)[1]; // function: type index
    else if (kind === 1) end = limits(body, end + 1); // table: reftype, limits
    else if (kind === 2) end = limits(body, end); // memory: limits
    else if (kind === 3) end += 2; // global: valtype, mutability
    else throw new Error(`import kind ${kind} of ${module}.${field} is not known to this tool`);
    const glue = module.startsWith("./") && module.endsWith("_bg.js");
    parts.push(name(module), name(glue ? fresh(field) : field), body.subarray(kindAt, end));
    at = end;
  }
  return Buffer.concat(parts);
}

/** The export section with the hashed names replaced. */
function exports(body) {
  let [count, at] = readLeb(body, 0);
  const parts = [leb(count)];
  while (count--) {
    const [field, a] = readName(body, at);
    const [, end] = readLeb(body, a + 1);
    parts.push(name(hashed.test(field) ? fresh(field) : field), body.subarray(a, end));
    at = end;
  }
  return Buffer.concat(parts);
}

const sections = [wasm.subarray(0, 8)];
let at = 8;
while (at < wasm.length) {
  const id = wasm[at];
  const [size, start] = readLeb(wasm, at + 1);
  let body = wasm.subarray(start, start + size);
  if (id === 2) body = imports(body);
  if (id === 7) body = exports(body);
  sections.push(Buffer.from([id]), leb(body.length), body);
  at = start + size;
}

for (const [old, short] of renames) {
  const whole = new RegExp(`(?<![\\w$])${old.replace(/\$/g, "\\$")}(?![\\w$])`, "g");
  if (!whole.test(js)) throw new Error(`${old} is not in ${inJs}`);
  js = js.replace(whole, () => short);
}

writeFileSync(outWasm, Buffer.concat(sections));
writeFileSync(outJs, js);
