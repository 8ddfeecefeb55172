//! Regressions of stepping and restoring worlds: unit rotations after a step, snapshots with a
//! lying body count, non-finite solver impulses kept out of the warm start, the step counter
//! at `u64::MAX`.
//!
//! One named test per bug the fuzzers found (see `fuzz/`), written as the smallest case that
//! shows it; the raw crash inputs are in `fuzz/regressions/<target>/` (replayed by
//! `fuzz_replay` on every test run). A test of an open bug is `#[ignore]`d with the reason, and
//! its inputs wait in `fuzz/regressions/open/<target>/` until the fix lands.

mod common;

use common::fuzz_inputs::stored_input;
use tumble_tests::fuzz_checks::check_world;

/// Fuzz target `world`, input `step_leaves_non_unit_rotation`: after a step, `World::validate`
/// finds a body whose rotation is no longer a unit quaternion (|q| off by more than 1e-3).
///
/// Where: the engine's position integration (`engine/src/step.rs`): the rotation is updated
/// from the angular velocity without renormalising (or with a huge `ω·dt`, where the first-
/// order update is far from unit). Fix: renormalise after every integration, and integrate
/// with the exact exponential map `q ← exp(ω dt / 2) q` for large angles.
#[test]
fn stepping_keeps_every_rotation_unit() {
    let input = stored_input("world", "step_leaves_non_unit_rotation");
    check_world(&input);
}

/// Fuzz target `snapshot`, input `restore_allocates_from_unchecked_len` (142 of the fuzzer's
/// crashes, all this one): 8 bytes of fuzz made `World::restore` ask for 8.9 PB and abort.
/// The decoded `len` field is used as a capacity before it is checked against the slots.
///
/// Where: `engine/src/snapshot.rs`, `World::from_state`:
/// `Vec::with_capacity(world.state.len)` (twice). Fix: check `state.len` equals the number of
/// live slots (and error otherwise) before allocating, or size the vectors from
/// `state.slots.len()`, which the decoder has bounded by the input length.
///
/// With the bug present this test aborts the test process (allocation failure).
#[test]
fn restore_of_a_snapshot_with_a_lying_body_count_is_an_error() {
    let bytes = tumble::World::new(tumble::WorldConfig::default())
        .unwrap()
        .snapshot();
    // Overwrite each aligned 8-byte word in turn with a huge count: every variant must be
    // refused or restore a valid world, never abort.
    for at in (12..bytes.len().saturating_sub(7)).step_by(8) {
        let mut b = bytes.clone();
        b[at..at + 8].copy_from_slice(&(1u64 << 50).to_le_bytes());
        if let Ok(w) = tumble::World::restore(&b) {
            w.validate().unwrap();
        }
    }
    let input = stored_input("snapshot", "restore_allocates_from_unchecked_len");
    tumble_tests::fuzz_checks::check_snapshot(&input);
}

/// Fuzz target `snapshot` (58 inputs of one class), input
/// `restored_step_nan_friction_impulse`: a bit-edited snapshot restored into a valid world
/// whose first step stored a NaN friction impulse in the contact cache (a tangent row's
/// impulse overflowed), so `World::validate` failed after the step.
///
/// Where: `engine/src/step.rs`, `store_solver_results`. Fixed: a non-finite impulse is not
/// kept for warm starting (the bodies it reached are frozen by the step's final check).
#[test]
fn a_non_finite_solver_impulse_is_not_kept_for_warm_starting() {
    let input = stored_input("snapshot", "restored_step_nan_friction_impulse");
    tumble_tests::fuzz_checks::check_snapshot(&input);
}

/// Fuzz target `snapshot` (2 inputs), input `step_count_at_u64_max`: a
/// snapshot holding a step count of `u64::MAX` restored, and the next step overflowed the
/// counter (a panic under overflow checks).
///
/// Where: `engine/src/step.rs`, the end of `step_inner`. Fixed: the counter wraps.
#[test]
fn the_step_counter_wraps_instead_of_overflowing() {
    let input = stored_input("snapshot", "step_count_at_u64_max");
    tumble_tests::fuzz_checks::check_snapshot(&input);
}
