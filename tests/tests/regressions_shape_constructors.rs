//! Regressions of shape constructors at the edges of f32: overflowing cross products, corners
//! and differences, non-unit rotations, NaN points, underflowing normals — each refused or
//! given a finite, unit normal.
//!
//! One named test per bug the fuzzers found (see `fuzz/`), written as the smallest case that
//! shows it; the raw crash inputs are in `fuzz/regressions/<target>/` (replayed by
//! `fuzz_replay` on every test run). A test of an open bug is `#[ignore]`d with the reason, and
//! its inputs wait in `fuzz/regressions/open/<target>/` until the fix lands.

mod common;

use common::fuzz_inputs::{replay_shapes_input, stored_input};
use tumble::math::{Point, Point2, Real, Rotation, Vector, Vector2};
use tumble::narrowphase::planar::Rect;
use tumble::narrowphase::shape::Triangle;
use tumble::narrowphase::Aabb;
use tumble_tests::fuzz_checks::check_shapes;

/// Fuzz target `shapes`, input `triangle_accepted_with_nan_normal`: corners around 1e20 m make
/// the cross product `inf − inf = NaN`; `NaN <= tolerance` is false, so the degeneracy test
/// passes and the triangle is accepted with a NaN normal (NaN then reaches contacts).
///
/// Where: `narrowphase/src/shape/triangle.rs`, `Triangle::new`. Fix: write the test as
/// `if !(cross.norm() > DEGENERATE_TOLERANCE * longest)` (NaN refuses) or scale the corners by
/// the largest coordinate before the cross product; refuse sizes whose normal is not finite.
#[test]
fn triangle_with_overflowing_cross_product_is_refused_or_has_a_finite_normal() {
    let t = Triangle::new(
        Point::origin(),
        Point::new(1e20, 1e20, 0.0),
        Point::new(1e20, 1e20, 1e19),
    );
    if let Ok(t) = t {
        let n = t.normal();
        assert!(
            n.iter().all(|x| x.is_finite()),
            "accepted with normal {n:?}"
        );
    }
}

/// Fuzz target `shapes`, input `rect_with_infinite_corner`: `Rect::new` accepted finite
/// half-extents near `f32::MAX` whose corners overflow to infinity.
///
/// Where: `narrowphase/src/planar/shapes.rs`, `Rect::new`. Fixed: corners must be finite.
#[test]
fn rectangle_with_overflowing_corners_is_refused() {
    let huge = Vector2::new(Real::MAX, Real::MAX);
    assert!(Rect::new(Point2::origin(), huge, 0.3).is_err());
    let input = stored_input("shapes", "rect_with_infinite_corner");
    check_shapes(&input);
}

/// Fuzz target `shapes`, input `obb_from_non_unit_rotation` (614 inputs of
/// one class): `Obb::from_rotation` accepted a `Rotation` built with `new_unchecked` from a
/// finite but huge quaternion, and its axes overflowed to infinity.
///
/// Where: `narrowphase/src/shape/obb.rs`, `Obb::from_rotation`. Fixed: the quaternion must be
/// of unit length within `ORTHONORMAL_TOLERANCE` (`NotOrthonormal` otherwise).
#[test]
fn obb_from_a_non_unit_rotation_is_refused() {
    use tumble::narrowphase::shape::Obb;
    let q = nalgebra::Quaternion::new(1e30, -2e30, 0.5, 3.0);
    let r = Rotation::new_unchecked(q);
    assert!(Obb::from_rotation(Point::origin(), &r, Vector::new(1.0, 1.0, 1.0)).is_err());
    let unit = Rotation::from_euler_angles(0.3, -1.2, 2.0);
    let o = Obb::from_rotation(Point::origin(), &unit, Vector::new(1.0, 2.0, 3.0)).unwrap();
    assert!(o.axes().iter().all(|x| x.is_finite()));
    let input = stored_input("shapes", "obb_from_non_unit_rotation");
    check_shapes(&input);
}

/// Fuzz target `shapes` (219 inputs): constructors at the edges of f32.
/// - `aabb_from_points_accepts_nan` (110): `Aabb::from_points` documents None for a non-finite
///   point but `min`/`max` skip a NaN, so a box came back without it
///   (`narrowphase/src/bounding/aabb.rs`);
/// - `segment_normal_nan_on_overflow` (75) and `segment_normal_zero_on_underflow` (33):
///   `planar::Segment` accepted ends whose difference overflows, and its normal underflowed to
///   zero for ends a few subnormals apart (`planar/shapes.rs`);
/// - `line_normal_on_overflow` (1): `planar::Line` normalised a direction whose norm overflows;
/// - `triangle_normal_zero_on_underflow` (2): `Triangle::normal` of a tiny triangle
///   (`shape/triangle.rs`).
///
/// Fixed: non-finite points refused; a segment whose `b − a` overflows refused; directions
/// scaled to a largest component of 1 before normalising or crossing; a line whose offset
/// overflows refused.
#[test]
fn constructors_at_the_edges_of_f32_refuse_or_keep_unit_normals() {
    let nan = Point::new(Real::NAN, 0.0, 0.0);
    assert!(Aabb::from_points(&[Point::origin(), nan]).is_none());
    let far = Point2::new(Real::MAX, 0.0);
    assert!(tumble::narrowphase::planar::Segment::new(Point2::new(-Real::MAX, 0.0), far).is_err());
    let tiny = Point2::new(0.0, 2.0 * Real::from_bits(1)); // two subnormal steps
    let s = tumble::narrowphase::planar::Segment::new(Point2::origin(), tiny).unwrap();
    assert!((s.normal().norm() - 1.0).abs() < 1e-6, "{:?}", s.normal());
    let l = tumble::narrowphase::planar::Line::new(
        Point2::origin(),
        Vector2::new(Real::MAX, Real::MAX),
    )
    .unwrap();
    assert!((l.normal().norm() - 1.0).abs() < 1e-6);
    for name in [
        "aabb_from_points_accepts_nan",
        "segment_normal_nan_on_overflow",
        "segment_normal_zero_on_underflow",
        "line_normal_on_overflow",
        "triangle_normal_zero_on_underflow",
    ] {
        replay_shapes_input("shapes", name);
    }
}
