// The dev server (`npm run dev`) and the preview of the build (`npm run
// build && npm run preview`) serve the page and pass the merchant API on
// to the sandbox of paybridge's `make demo` (SANDBOX_URL, default
// http://127.0.0.1:8080): the page calls its own origin, as it would call
// its own server, so no CORS is involved.
import { defineConfig } from "vite";

const sandbox = process.env.SANDBOX_URL ?? "http://127.0.0.1:8080";
const proxy = { "/merchant": { target: sandbox } };

export default defineConfig({
  server: { host: "127.0.0.1", proxy },
  preview: { host: "127.0.0.1", proxy },
});
