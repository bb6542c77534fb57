#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| parlor_fuzz::brain_json(data));
