//! The heap of the wasm2js build (feature `wasm2js`): talc over a static
//! arena, so that the module never executes `memory.grow`.
//!
//! wasm2js grows linear memory by copying it into a new `ArrayBuffer`; the
//! old one stays attached, so wasm-bindgen's cached `Uint8Array` and
//! `DataView` of it (which it renews only when the old buffer is detached)
//! would read and write stale memory. A memory that never grows has no
//! such moment. Inputs are bounded (`web/convert.rs`: 1 MiB per string,
//! 20000 values), and the arena leaves room for the largest of them.

use core::mem::MaybeUninit;

/// The arena: 16 MiB. Engines map a fresh `ArrayBuffer` lazily, so the
/// pages a payment never touches cost no memory.
const ARENA_BYTES: usize = 16 << 20;

#[global_allocator]
static HEAP: talc::wasm::WasmArenaTalc = {
    static mut ARENA: [MaybeUninit<u8>; ARENA_BYTES] = [MaybeUninit::uninit(); ARENA_BYTES];
    // SAFETY: the arena is handed to the allocator here and touched by
    // nothing else.
    unsafe { talc::wasm::new_wasm_arena_allocator(&raw mut ARENA) }
};
