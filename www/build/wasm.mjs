// Reading the WebAssembly binary format, as much as the build and the
// benchmark need: LEB128 numbers (unsigned and signed), names, limits,
// sections and the import section's entries.

/** The unsigned LEB128 number at `at`, and where it ends. */
export function readLeb(buf, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = buf[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}

/** `n` as unsigned LEB128. */
export function leb(n) {
  const out = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Buffer.from(out);
}

/** The signed LEB128 number at `at` (32 bits at most), and where it ends. */
export function readSleb(buf, at) {
  let value = 0;
  let shift = 0;
  let b;
  do {
    b = buf[at++];
    value |= (b & 0x7f) << shift;
    shift += 7;
  } while (b & 0x80);
  return [shift < 32 && b & 0x40 ? value | (-1 << shift) : value, at];
}

/** `n` (a 32-bit integer) as signed LEB128. */
export function sleb(n) {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return Buffer.from([...out, b]);
    out.push(b | 0x80);
  }
}

/** The name (length-prefixed UTF-8) at `at`, and where it ends. */
export function readName(buf, at) {
  const [len, start] = readLeb(buf, at);
  return [buf.toString("utf8", start, start + len), start + len];
}

/** The end of limits at `at`: flags, minimum, and a maximum when flag bit 0 is set. */
function limits(buf, at) {
  const flags = buf[at];
  const end = readLeb(buf, at + 1)[1];
  return flags & 1 ? readLeb(buf, end)[1] : end;
}

/** Every section of a module: `{ id, body }`, in order. */
export function* sections(wasm) {
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, start] = readLeb(wasm, at + 1);
    yield { id, body: wasm.subarray(start, start + size) };
    at = start + size;
  }
}

/** The entries of an import section's body: `{ module, field, kind, desc }`,
 * `desc` being the bytes from the kind to the entry's end. */
export function* importEntries(body) {
  let [count, at] = readLeb(body, 0);
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
    yield { module, field, kind, desc: body.subarray(kindAt, end) };
    at = end;
  }
}
