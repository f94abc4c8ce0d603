//! What paybridge guarantees, against which threats, and the code and the
//! tests that hold it to that: the long form of the README's "Security"
//! section, kept beside the code it names. (Documentation only.)
//!
//! # Threat model
//!
//! | threat | what could go wrong |
//! | --- | --- |
//! | open redirects and script URLs | a `pay_info`, `expend.pay_url`, redirect address or profile address that is `javascript:`, `data:`, `http:`, scheme-relative, carries user info (`https://pay.example@evil.example`), backslashes, control characters, look-alike Unicode, odd IPv4 forms or broken punycode, so that the page opens something other than the cashier the check saw |
//! | parameter injection into a scheme URL | a `pay_info` whose `&`, `#` or `%` add parameters to `wallet1://…?qrcode=` |
//! | OAuth state and code theft | a forged callback (CSRF-style login of the attacker's account), a replayed or older callback, a code sent to an address the attacker controls, a stale card-network `userAuthCode` |
//! | secrets in the browser | `app_token`, the signing secret and the wallet apps' secrets reaching page code, where anyone can read them |
//! | forged notifications and replays | a POST to `mer_bg_url` that claims `resp_code=00`, a genuine notification sent again, fields given twice so that the signed and the read values differ |
//! | unsigned or altered answers | an answer from something other than the service, or one changed on the way |
//! | a misbehaving wallet or page | callbacks twice, late, never, synchronous, with garbage or hostile values (`Proxy` traps that throw, cyclic or huge objects), bridges that throw or vanish, re-entrant `pay()` from `onEvent`, double taps |
//! | trusting the client's result | a page (or a user with devtools) that fakes the wallet's "success" |
//!
//! # What the module does
//!
//! **Every URL it opens is checked.** `safe_url::check` accepts only an
//! absolute `https` URL (plain `http` only to `127.0.0.1`/`localhost` with
//! `insecureLoopback`, for the sandbox) with a plain host: ASCII letters,
//! digits and hyphens, or canonical dotted-decimal IPv4; a host with an
//! `xn--` label only when the runtime's own `URL` parser keeps it as it is
//! (pages and Node: the parser that checks is the parser that navigates,
//! `safe_url/platform.rs`) or, where there is no `URL` (mini-programs, the
//! wasm2js build), when it is the one punycode encoding of characters every
//! WHATWG parser keeps as they are (`safe_url/punycode.rs`, the stricter
//! rule: `tests/node/url-verdicts.test.mjs` shows both give the same
//! verdict on every URL of the corpus); no user info, port 1-65535, no whitespace, control characters,
//! quotes, angle brackets, backticks, backslashes or raw non-ASCII anywhere,
//! well-formed percent escapes, at most 8192 characters, and the host in
//! `allowedHosts` when given. An `allowedHosts` entry is an exact host name,
//! an exact IPv4 address, or `*.` followed by a host name of two labels or
//! more whose last label is not numeric (`*.cashier.example`). A `*.` rule
//! matches host names only, never an IP address whatever its tail (`*.0.1`
//! is refused, it does not open `127.0.0.1`); an address is allowed only
//! when listed exactly. Any other entry (`*.com`, `*.3.4`, `3.4`, `[::1]`,
//! a port, a path) is `invalid_options` naming `allowedHosts[i]`, the same in
//! every build, since every build runs the same check. The planner
//! (`action::plan`) passes every URL of every action through it
//! (`pay_info`, `expend.pay_url`); the authorization builders
//! (`authorize::build`) check the redirect address and the finished
//! address, that one within `allowedHosts` when given; profile addresses
//! and schemes are checked when merged (`profile/check.rs`: schemes that load or
//! run content are refused). The scheme URL
//! percent-encodes everything but unreserved characters (`action::COMPONENT`),
//! so `qrcode` decodes back to `pay_info` byte for byte and adds nothing. Tests:
//! the unit tests of `safe_url/`; 119 URL cases in
//! `tests/vectors/hostile-url.json` through planning, `pay()` and all three
//! builders (`tests/hostile_vectors.rs`, `tests/node/hostile.test.mjs`,
//! `tests/browser/hostile.test.mjs`, which also asserts that the page never
//! navigates and no request leaves for another host); the `safe_url`, `plan`
//! and `auth_url` fuzz targets (`tests/fuzz/`), which check every accepted URL
//! against the `url` crate (it must parse as https or loopback http, with the
//! same host and no user info).
//!
//! **Authorization callbacks are checked before they are used.**
//! `newState()` takes 16 bytes from `crypto.getRandomValues` and refuses to
//! work without it. `parseAuthCallback(url, { expectedState })`
//! (`authorize::parse_auth_callback`) reads the query and the fragment with
//! strict percent-decoding, refuses a parameter given twice with different
//! values, parameters of two providers at once, a missing or different `state`
//! (compared in constant time), a wallet callback without its code and a
//! card-network `respCode` other than `00`, each as `auth_failed` naming the
//! parameter. `isUserAuthCodeFresh` and `cardnetPay` refuse a card-network code
//! older than five minutes, and `cardnetPay` checks the callback, the options
//! and the runtime before it calls the merchant's `order`. Tests:
//! `tests/authorize_vectors.rs`, 53 callback and 36 builder cases in
//! `tests/vectors/hostile-auth.json`, the `auth_callback` and `auth_url` fuzz
//! targets.
//!
//! **A callback is used once per tab, as far as a page can know.**
//! `takeAuthCallback` and `cardnetPay` take a callback before its code goes
//! anywhere: its parameters leave the address bar (`history.replaceState`;
//! the page's own parameters stay) and the tab's record in `sessionStorage`
//! (`authorize/once.rs`: a 64-bit digest of the code, not the code, and the
//! address the page kept) marks it used, so Back, reload or Forward to the
//! callback page, or the old address opened again in the tab, is `auth_used`
//! before anything is sent. A code that went to `order` is used whatever
//! `order` answered: the merchant's server may have ordered before failing.
//! What a page cannot know: another tab, another device, a copy of the
//! address sent elsewhere, or a tab whose `sessionStorage` is disabled (then
//! only the address bar is cleaned). So the merchant's server must make its
//! orders and code exchanges idempotent, keyed on the code (or its
//! `order_id`): the second request with a used code answers the first
//! order, never creates another. Tests: `tests/browser/cardnet.test.mjs`
//! (a real navigation to a cashier page, Back, reload, Forward, the old
//! address, another tab).
//!
//! **Secrets stay out of the page.** The module never signs by itself: the
//! authentication client calls the merchant's `sign` hook, and the code
//! exchanges (`wallet1TokenRequest`, `wallet2OauthTokenRequest`,
//! `wallet2SessionRequest`) only describe a request that carries the app
//! secret, for a server to send. Nothing in the package holds `app_token`, a
//! signing secret or a wallet secret unless a caller passes one in.
//!
//! **Notifications are decoded strictly and trusted only once verified.**
//! `parse_notification` refuses a field given twice (so the signed value is
//! the read value), requires `seq_id`, `order_id`, `return_code` and `sign`,
//! bounds `seq_id` to 256 bytes and gives `sign_input`, the canonical string
//! the `sign` covers; `Notification::accept` turns a `verify` hook's "no" into
//! `bad_signature`. `SeenSeqIds` (`verify/dedupe.rs`) tells a first delivery
//! from a repeated one, with bounded memory. Tests: `tests/verify_vectors.rs`,
//! 30 notification cases in `tests/vectors/hostile-verify.json`, the
//! `notification` fuzz target (the form, the object and the JSON text must give
//! the same notification; `sign` stays out of the record).
//!
//! **Answers keep the exact text their signature covers.** `decode_envelope`
//! keeps `data` exactly as received (`data_text`) for the `verify` hook; with a
//! hook, an answer whose signature does not verify is `bad_signature`, and an
//! unsigned one is accepted only when it reports a failed call. A request that
//! got no answer is never sent again: its result is asked with `checkresult`
//! by `order_id` (`verify/client/`). Tests: `tests/verify_vectors.rs`, 34
//! envelope cases, the `envelope` and `json` fuzz targets.
//!
//! **The authentication client fails closed.** A client whose `baseUrl` is
//! not loopback must have a `verify` hook, or say `verify: false` to take
//! answers unchecked knowingly (`verify/config.rs` `check_verify`, at
//! construction); `verifyNotification` takes the same `false` and nothing
//! less. A `cvv2` (sent encrypted, says the document) goes through the
//! `encrypt` hook before signing, and without one only to loopback; to any
//! other host the call ends `invalid_options` before anything is signed or
//! sent (`verify/client/encrypt.rs`). A return code of another interface
//! than the one called is `call_failed` (`verify/codes.rs`). Objects built
//! from answer data define each member (`web/convert.rs` `define`): a
//! `__proto__` key is an own property, never the object's prototype. Tests:
//! `tests/verify_rules.rs`, `tests/node/auth-rules.test.mjs`.
//!
//! **A misbehaving wallet or page cannot make it pay twice or lose a result.**
//! One payment at a time: a second `pay()` or `cardnetPay()` while one is in
//! flight is `busy`, and the browser entry claims the slot in the same turn
//! (`web/pay.rs` `claim`, `www/lib/index.js`), so an `onEvent` handler or a
//! double tap cannot slip past it; the flag lives in the entry's shared state
//! (`www/lib/shared.js`), so the page's payment and full modules see each
//! other's payment. A wallet callback counts once (`Run::takes_answer`), a
//! callback after the end is a no-op (the driver feeds nothing once a run has
//! ended, and the module keeps no run after `Release`), a hook's promise
//! settling after its time-out is a no-op (it carries the token of its
//! `Await` command, which the run no longer awaits: `perform/io.rs`), a bridge
//! that calls back and then throws has still answered, an answer too big or
//! cyclic to read whole keeps its code, a page that comes back from the wallet
//! without a callback is `pending` after a grace period rather than a hang.
//! Inputs are read with limits (depth 64, 20,000 values, 1 MiB strings, 2 MiB
//! of text in all, no room reserved before it is counted), and every platform call on a caller's value catches what it throws,
//! so a hostile value (a `Proxy` whose traps throw, a revoked proxy, a throwing
//! getter) is a `PayError` and never a trap or an exception through the wasm
//! frames. Listeners and timers are removed when a wait ends, however it ends.
//! Tests: `tests/browser/pay.test.mjs`, `tests/browser/faults.test.mjs`
//! (garbage and hostile callback values, call-back-then-throw, ready event
//! twice, bridge swapped or removed, throwing method getters, re-entrant
//! `pay()` from `onEvent`, two tabs), `tests/browser/leaks.test.mjs` (2,000
//! timed-out and 2,000 failed payments: no listener, timer or waiter left,
//! wasm memory flat; 220 payments of 0.2 MB and a wallet calling back 20,000
//! times with 250 KB answers: the payment module's memory flat), and the
//! fuzz targets (no input panics the core). The browser's payment module
//! frees nothing piece by piece and takes its heap back when the next
//! payment starts (`src/bump/`): a payment's input is bounded as above, and a
//! wallet callback that does not count is not read, so no wallet can grow
//! it call by call.
//!
//! **The client result proves nothing by itself.** Every `PayResult` from the
//! wallet has `verified: false`: a page, a browser extension or a user with
//! devtools can call the module's callbacks or fake a bridge, and the wallet's
//! own "ok" is documented as unreliable. `verified: true` appears only when
//! the merchant's `confirm` hook answered, that is when the merchant's server
//! said so. A client-side "succeeded" is a hint to show a spinner or a receipt
//! page, never a reason to ship goods.
