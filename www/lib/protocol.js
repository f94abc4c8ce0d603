// Generated from src/perform/wire.rs by tests/wire.rs
// (UPDATE_WIRE=1 cargo test --test wire): do not edit by hand.
// The operations of the commands the modules answer (OP_*) and the
// kinds of input the shim feeds back (FEED_*), www/lib/perform.js.

export const OP_EMIT = 0;
export const OP_LISTEN = 1;
export const OP_UNLISTEN = 2;
export const OP_SET_TIMER = 3;
export const OP_CLEAR_TIMER = 4;
export const OP_NAVIGATE = 5;
export const OP_CALL_BRIDGE = 6;
export const OP_CALL_API = 7;
export const OP_AWAIT = 8;
export const OP_RESOLVE = 9;
export const OP_REJECT = 10;
export const OP_EXPLAIN = 11;
export const OP_HAND_OFF = 12;
export const OP_PRELOAD = 13;

export const FEED_RETURNED = 0;
export const FEED_THREW = 1;
export const FEED_EVENT = 2;
export const FEED_TIMER = 3;
export const FEED_SUCCESS = 4;
export const FEED_FAIL = 5;
export const FEED_COMPLETE = 6;
export const FEED_SETTLED = 7;
export const FEED_REJECTED = 8;
export const FEED_RELEASE = 9;
export const FEED_COUNTS = 10;
