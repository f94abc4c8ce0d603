// Generated from src/perform/wire.rs by tests/wire.rs
// (UPDATE_WIRE=1 cargo test --test wire): do not edit by hand.
// The operations of the commands the modules answer (OP_*), the
// kinds of input the shim feeds back (FEED_*) (www/lib/perform.js),
// and where each command's values are, by name.

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

// Each command's values by name, their index in `[op, ...values]`
// (FIELDS): `LISTEN_TARGET`, `Listen`'s `target`.
export const EMIT_TYPE = 1;
export const EMIT_DETAIL = 2;
export const LISTEN_KEY = 1;
export const LISTEN_EVENT = 2;
export const LISTEN_TARGET = 3;
export const UNLISTEN_KEY = 1;
export const UNLISTEN_EVENT = 2;
export const SET_TIMER_TIMER = 1;
export const SET_TIMER_MS = 2;
export const CLEAR_TIMER_TIMER = 1;
export const NAVIGATE_LOCATION = 1;
export const NAVIGATE_URL = 2;
export const CALL_BRIDGE_BRIDGE = 1;
export const CALL_BRIDGE_METHOD = 2;
export const CALL_BRIDGE_OP = 3;
export const CALL_BRIDGE_PARAMS = 4;
export const CALL_API_API = 1;
export const CALL_API_METHOD = 2;
export const CALL_API_PARAMS = 3;
export const CALL_API_COMPLETE = 4;
export const AWAIT_F = 1;
export const AWAIT_X = 2;
export const AWAIT_Y = 3;
export const AWAIT_TOKEN = 4;
export const RESOLVE_VALUE = 1;
export const RESOLVE_EVENT = 2;
export const REJECT_ERROR = 1;
export const EXPLAIN_ERROR = 1;
export const HAND_OFF_HINT = 1;
export const HAND_OFF_MS = 2;
export const HAND_OFF_ERROR = 3;

// The values of the inputs that carry several, by name (VALUES).
export const SETTLED_TOKEN = 0;
export const SETTLED_VALUE = 1;
export const REJECTED_TOKEN = 0;
export const REJECTED_REASON = 1;
export const REJECTED_THREW = 2;

// What the query FEED_COUNTS answers, by name (COUNTS): `[listeners, ...]`.
export const COUNTS_LISTENERS = 0;
export const COUNTS_WAITERS = 1;
export const COUNTS_RETAINED = 2;
