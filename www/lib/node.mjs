// paybridge for Node as an ES module: node.cjs re-exported, so that
// `import` and `require` in one process share one module (no second copy
// of the wasm, its state or the `PayError` class).
export * from "./node.cjs";
