// The back end bundled into one file for Node, as a serverless function or
// a container image ships it: esbuild, everything check.mjs imports inside
// dist/check.mjs, paybridge's WebAssembly module included (its Node entry
// carries it), so the file runs alone, with no node_modules beside it.
//
//   npm run bundle && node dist/check.mjs
import { build } from "esbuild";

await build({
  entryPoints: ["check.mjs"],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile: "dist/check.mjs",
  logLevel: "warning",
});
