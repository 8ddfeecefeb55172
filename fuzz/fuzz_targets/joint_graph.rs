#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| tumble_tests::fuzz_checks::check_joint_graph(data));
