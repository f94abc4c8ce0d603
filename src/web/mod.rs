//! The wasm32 edge: exports, JS value conversion, bridges, timers, navigation.
