// UTF-8 TextEncoder and TextDecoder for runtimes that have none (many
// mini-program runtimes). wasm-bindgen's glue needs both; globals.js hands
// these to it where the platform has none of its own. Follows the
// Encoding Standard for UTF-8: invalid input decodes to U+FFFD (one per
// maximal invalid subsequence), lone surrogates encode as U+FFFD.
//
// Written in the forms ES5 has (constructor functions and prototypes, no
// classes, destructuring, default parameters or template literals): the
// mini-program folder's build lowers this file to ES5 (www/build/es5.mjs),
// where each of those would cost a helper.

const REPLACEMENT = 0xfffd;

/** The code point at `i` (a lone surrogate is U+FFFD); it takes 2 UTF-16 units when above U+FFFF, else 1. */
function codePointAt(s, i) {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdfff) return c;
  if (c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
  }
  return REPLACEMENT;
}

function byteLength(cp) {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

function put(out, p, cp, n) {
  if (n === 1) {
    out[p] = cp;
  } else if (n === 2) {
    out[p] = 0xc0 | (cp >> 6);
    out[p + 1] = 0x80 | (cp & 0x3f);
  } else if (n === 3) {
    out[p] = 0xe0 | (cp >> 12);
    out[p + 1] = 0x80 | ((cp >> 6) & 0x3f);
    out[p + 2] = 0x80 | (cp & 0x3f);
  } else {
    out[p] = 0xf0 | (cp >> 18);
    out[p + 1] = 0x80 | ((cp >> 12) & 0x3f);
    out[p + 2] = 0x80 | ((cp >> 6) & 0x3f);
    out[p + 3] = 0x80 | (cp & 0x3f);
  }
}

/** Encodes as much of `input` as fits in `dest`: `{ read, written }`. */
function encodeInto(input, dest) {
  const s = String(input);
  let read = 0;
  let written = 0;
  while (read < s.length) {
    const cp = codePointAt(s, read);
    const n = byteLength(cp);
    if (written + n > dest.length) break;
    put(dest, written, cp, n);
    written += n;
    read += cp > 0xffff ? 2 : 1;
  }
  return { read: read, written: written };
}

export function TextEncoder() {}

TextEncoder.prototype = {
  constructor: TextEncoder,
  get encoding() {
    return "utf-8";
  },
  encode: function (input) {
    const s = input === undefined ? "" : String(input);
    const out = new Uint8Array(s.length * 3);
    return out.slice(0, encodeInto(s, out).written);
  },
  encodeInto: encodeInto,
};

const LABELS = ["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"];

function bytesOf(input) {
  if (input === undefined) return new Uint8Array(0);
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  throw new TypeError("TextDecoder.decode: the input must be an ArrayBuffer or a view of one");
}

export function TextDecoder(label, options) {
  const name = String(label === undefined ? "utf-8" : label)
    .trim()
    .toLowerCase();
  if (LABELS.indexOf(name) < 0) throw new RangeError('TextDecoder: only UTF-8 is supported here, not "' + label + '"');
  this._fatal = Boolean(options && options.fatal);
  this._ignoreBOM = Boolean(options && options.ignoreBOM);
}

TextDecoder.prototype = {
  constructor: TextDecoder,
  get encoding() {
    return "utf-8";
  },
  get fatal() {
    return this._fatal;
  },
  get ignoreBOM() {
    return this._ignoreBOM;
  },
  decode: function (input, options) {
    if (options && options.stream) throw new TypeError("TextDecoder.decode: streaming is not supported here");
    const fatal = this._fatal;
    const b = bytesOf(input);
    const n = b.length;
    let i = !this._ignoreBOM && n >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
    let out = "";
    let units = [];
    function emit(cp) {
      if (cp > 0xffff) {
        cp -= 0x10000;
        units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      } else {
        units.push(cp);
      }
      if (units.length >= 8192) {
        out += String.fromCharCode.apply(null, units);
        units = [];
      }
    }
    function invalid() {
      if (fatal) throw new TypeError("TextDecoder.decode: the input is not valid UTF-8");
      emit(REPLACEMENT);
    }
    while (i < n) {
      const lead = b[i];
      if (lead < 0x80) {
        emit(lead);
        i += 1;
        continue;
      }
      let need = 0;
      let cp = 0;
      let lower = 0x80;
      let upper = 0xbf;
      if (lead >= 0xc2 && lead <= 0xdf) {
        need = 1;
        cp = lead & 0x1f;
      } else if (lead >= 0xe0 && lead <= 0xef) {
        need = 2;
        cp = lead & 0x0f;
        if (lead === 0xe0) lower = 0xa0;
        if (lead === 0xed) upper = 0x9f;
      } else if (lead >= 0xf0 && lead <= 0xf4) {
        need = 3;
        cp = lead & 0x07;
        if (lead === 0xf0) lower = 0x90;
        if (lead === 0xf4) upper = 0x8f;
      } else {
        invalid();
        i += 1;
        continue;
      }
      let j = i + 1;
      let ok = true;
      for (let k = 0; k < need; k += 1, j += 1) {
        const c = b[j];
        if (j >= n || c < lower || c > upper) {
          ok = false;
          break;
        }
        lower = 0x80;
        upper = 0xbf;
        cp = (cp << 6) | (c & 0x3f);
      }
      // An invalid continuation is not consumed: it may start the next character.
      if (ok) emit(cp);
      else invalid();
      i = j;
    }
    return out + String.fromCharCode.apply(null, units);
  },
};
