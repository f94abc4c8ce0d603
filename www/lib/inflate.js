// The inflater of a runtime without `DecompressionStream` (older WebViews):
// fflate's, bundled into pkg/inflate.js and imported by the browser entry
// only there, to inflate the payment module it carries (www/build/embed.mjs).
export { inflateSync } from "fflate";
