#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| paybridge_fuzz::auth_url(data));
