//! The stored fuzz inputs and printed fuzz cases the `regressions_*.rs` tests start from (each
//! test file compiles this module; not every one uses every helper).
#![allow(dead_code)]

use tumble::math::{Isometry, Point, Real, Rotation, Vector};
use tumble_tests::fuzz_checks::input::ShapeRecipe;
use tumble_tests::fuzz_checks::{check_shapes, PairCase};

/// The bytes of the stored fuzz input `fuzz/regressions/<dir>/<name>`.
pub fn stored_input(dir: &str, name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../fuzz/regressions/{dir}/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The pair case a stored fuzz input of `fuzz/regressions/<dir>/<name>` decodes to, as its
/// target decodes it (`cuboid_cuboid` inputs draw boxes only).
pub fn stored_case(dir: &str, name: &str) -> PairCase {
    let data = stored_input(dir, name);
    let boxes_only = dir.ends_with("cuboid_cuboid");
    PairCase::draw(&mut arbitrary::Unstructured::new(&data), boxes_only).expect("decodes")
}

/// Replays the stored `shapes` input `fuzz/regressions/<dir>/<name>` through its check.
pub fn replay_shapes_input(dir: &str, name: &str) {
    check_shapes(&stored_input(dir, name));
}

/// A pose from a quaternion printed as `[i, j, k, w]` (as `PairCase`'s `Debug` shows it, exact
/// f32 values, so taken unchecked) and a translation.
pub fn printed_pose(q: [Real; 4], t: [Real; 3]) -> Isometry {
    Isometry::from_parts(
        Vector::new(t[0], t[1], t[2]).into(),
        Rotation::new_unchecked(nalgebra::Quaternion::new(q[3], q[0], q[1], q[2])),
    )
}

/// A hull recipe from printed points.
pub fn printed_hull(points: &[[Real; 3]]) -> ShapeRecipe {
    ShapeRecipe::Hull(
        points
            .iter()
            .map(|p| Point::new(p[0], p[1], p[2]))
            .collect(),
    )
}
