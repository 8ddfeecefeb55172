//! The fuzz checks of the clock and of snapshots (`fuzz_checks::check_clock`,
//! `fuzz_checks::check_snapshot`) on pseudo-random inputs, so that they run with the ordinary
//! suite beside the stored corpora: extreme configurations and frame times, events across
//! `advance`, snapshots edited and resealed.

use rand::{Rng, SeedableRng};
use tumble_tests::fuzz_checks::{check_clock, check_snapshot};

/// `n` pseudo-random inputs of up to `max_len` bytes from `seed`.
fn inputs(seed: u64, n: usize, max_len: usize) -> Vec<Vec<u8>> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let len = rng.gen_range(0..=max_len);
            (0..len).map(|_| rng.gen()).collect()
        })
        .collect()
}

#[test]
fn clock_check_holds_on_random_inputs() {
    for data in inputs(4, 400, 256) {
        check_clock(&data);
    }
}

#[test]
fn snapshot_check_holds_on_random_inputs() {
    for data in inputs(6, 400, 512) {
        check_snapshot(&data);
    }
}
