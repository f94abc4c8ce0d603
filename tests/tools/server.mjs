// A static file server on 127.0.0.1 for browser tests and the benchmark:
// serves the repository root (pkg/, www/, tests/browser/pages/), with the
// right types for .wasm and .js. Started and stopped by the tests.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = fileURLToPath(new URL("../../", import.meta.url));
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".cjs": "text/javascript",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".css": "text/css",
};

/** With `gzip`, text, scripts and `.wasm` go gzipped (level 9) to a client
 * that accepts it, as a production server sends them (the benchmark). */
export async function serve({ port = 0, routes = {}, gzip = false } = {}) {
  const compressed = new Map();
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (routes[path]) return routes[path](req, res);
    const file = normalize(join(root, path));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      let body = await readFile(file);
      const headers = { "content-type": types[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" };
      if (gzip && extname(file) in types && /\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) {
        // Compressed once a file content: compressing on every request
        // would delay the larger file more.
        const key = `${file}\0${body.length}`;
        if (!compressed.has(key) || !compressed.get(key).raw.equals(body)) compressed.set(key, { raw: body, gz: gzipSync(body, { level: 9 }) });
        body = compressed.get(key).gz;
        headers["content-encoding"] = "gzip";
      }
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((r) => server.listen(port, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, close: () => new Promise((r) => server.close(r)) };
}
