//! Regressions of the convex hull builder (`ConvexPolyhedron::from_points`): every input point
//! inside the hull, huge points refused with a clear error, valid hulls of near-degenerate
//! clouds, no hull that breaks its own invariants.
//!
//! One named test per bug the fuzzers found (see `fuzz/`), written as the smallest case that
//! shows it; the raw crash inputs are in `fuzz/regressions/<target>/` (replayed by
//! `fuzz_replay` on every test run). A test of an open bug is `#[ignore]`d with the reason, and
//! its inputs wait in `fuzz/regressions/open/<target>/` until the fix lands.

mod common;

use common::fuzz_inputs::{replay_shapes_input, stored_case, stored_input};
use tumble::math::{Point, Real};
use tumble::narrowphase::shape::ConvexPolyhedron;
use tumble::narrowphase::ShapeError;
use tumble_tests::fuzz_checks::check_pair;

/// Fuzz target `narrowphase`, inputs `hull_knife_edge_drops_a_point_ball`
/// and `hull_knife_edge_drops_a_point_cuboid` (2): `ConvexPolyhedron::from_points` of points
/// near one diagonal builds a knife-edged tetrahedron (dihedral angle ≈ 3·10⁻³ rad) and drops
/// the input point (−0.243, −0.243, −0.243), which lies within its tolerance ε = 7.9·10⁻⁶ m of
/// every face plane yet 2.1 mm outside the hull: near an edge of dihedral angle θ, planes
/// pushed out by ε meet ε / sin(θ/2) away. The contact is then exact for the hull, and the
/// oracle (which sees the input points) finds 2 mm more overlap.
///
/// Where: `narrowphase/src/shape/hull.rs` (the `dist(q) > eps` visibility test). Fixed: which
/// faces a point sees is decided exactly, and a point is skipped only when its true distance
/// to the hull (to the nearest face it sees) is within ε.
#[test]
fn hull_keeps_every_point_farther_than_its_tolerance() {
    for name in [
        "hull_knife_edge_drops_a_point_ball",
        "hull_knife_edge_drops_a_point_cuboid",
    ] {
        check_pair(&stored_case("narrowphase", name));
    }
}

/// Fuzz target `shapes` (337 of 1 322 crashing inputs), input
/// `hull_of_huge_points_nan_face`: the hull of (f32::MAX, f32::MAX, f32::MAX),
/// (1.36, f32::MAX, f32::MAX), (f32::MAX, f32::MAX, −10) and the origin (twice) was accepted with
/// NaN face normals (its f32 Newell sums overflow), and `validate` let them through (every
/// `NaN > tol` is false).
///
/// Where: `narrowphase/src/shape/hull.rs` and `polyhedron.rs`. Fixed: hull points beyond ±1e15 m
/// (`planar::MAX_COORDINATE`, as for polygons) are refused with a clear error, and `validate`
/// fails on any NaN.
#[test]
fn hull_of_huge_points_is_refused_with_a_clear_error() {
    let m = Real::MAX;
    let o = Point::origin();
    let pts = [
        Point::new(m, m, m),
        Point::new(1.359_425_5, m, m),
        Point::new(m, m, -10.0),
        o,
        o,
    ];
    match ConvexPolyhedron::from_points(&pts) {
        Err(ShapeError::Degenerate(why)) => assert!(why.contains("overflow"), "{why}"),
        other => panic!("expected a refusal naming the overflow, got {other:?}"),
    }
    replay_shapes_input("shapes", "hull_of_huge_points_nan_face");
}

/// Fuzz target `shapes` (3 of 1 322 crashing inputs), input `hull_point_outside_a_face`: the
/// hull of (9.997559, 10, 10), (10, 10, 10) ×2, (10, 9.862059, 10), (10, 10⁻³⁰, −5.378042),
/// (10, −8.532082, −9.759518), (7.6·10⁻⁴², 0, 0) and the origin ×4 left the input point
/// (10, 10⁻³⁰, −5.378042) 1.66·10⁻³ m outside a face (tolerance 1.1·10⁻³): visibility was a
/// tolerance test (`dist > ε`), so a point could see two faces but not the one between them.
/// The same root cause gave the hulls that broke their invariants (see
/// `hulls_that_break_their_invariants_are_refused_at_construction`), which were refused.
///
/// Where: `narrowphase/src/shape/hull.rs`. Fixed: visibility is the exact orientation
/// predicate, ε only decides whether a point is worth adding (true distance to the hull), and
/// coplanar faces merge against one seed plane. These clouds now get valid hulls.
#[test]
fn hulls_of_near_degenerate_clouds_are_valid_and_hold_every_point() {
    let o = Point::origin();
    let clouds = [
        vec![
            Point::new(9.997_559, 10.0, 10.0),
            Point::new(10.0, 10.0, 10.0),
            Point::new(10.0, 10.0, 10.0),
            Point::new(10.0, 9.862_059, 10.0),
            Point::new(10.0, 1e-30, -5.378_042),
            Point::new(10.0, -8.532_082, -9.759_518),
            Point::new(7.603e-42, 0.0, 0.0),
            o,
            o,
            o,
            o,
        ],
        // `hull_face_not_planar`, once refused (its hull broke an invariant).
        vec![
            Point::new(9.997_559, 10.0, 10.0),
            Point::new(10.0, 10.0, 10.0),
            Point::new(10.0, 10.0, 10.0),
            Point::new(10.0, 9.940_184, 5.546_807_3),
            Point::new(0.544_289_6, 9.997_559, -8.532_082),
            Point::new(10.0, -9.760_128, -8.5),
            Point::new(-10.0, 0.0, 0.0),
            o,
            o,
            o,
            o,
        ],
        // `hull_corner_outside_face`, once refused (its hull broke an invariant).
        vec![
            Point::new(7.505_76, 4.039_216, 4.039_216),
            Point::new(-8.368_024e-8, -0.101_472_855, -6.585_946),
            Point::new(1.175_494_4e-38, 0.0, -1.0),
            Point::new(1e-30, -0.0, -1.0),
            Point::new(-0.0, 9.1798e-41, -101_262.11),
            Point::new(8.0, -10.0, -36_366.125),
            Point::new(-0.0, -10.0, 0.0),
            o,
        ],
    ];
    for pts in &clouds {
        let h = ConvexPolyhedron::from_points(pts).expect("a hull exists");
        h.validate().unwrap();
        let scale = pts
            .iter()
            .map(|p| p.coords.abs().max())
            .fold(0.0, Real::max);
        for f in h.faces() {
            let p0 = h.vertices()[h.face_loop(f)[0] as usize];
            for p in pts {
                let out = f.normal.dot(&(p - p0));
                assert!(
                    out <= 1e-5 * scale,
                    "{p:?} is {out} outside a face of {pts:?}"
                );
            }
        }
    }
    for name in [
        "hull_point_outside_a_face",
        "hull_face_not_planar",
        "hull_corner_outside_face",
        "hull_edge_used_by_four_faces",
    ] {
        replay_shapes_input("shapes", name);
    }
}

/// Fuzz targets `shapes` and `world` (≈ 300 shapes inputs in several classes,
/// 14 world inputs), inputs `shapes/hull_corner_outside_face`, `shapes/hull_face_not_planar`,
/// `shapes/hull_edge_used_by_four_faces` and `world/snapshot_of_hull_fails_polyhedron_invariants`:
/// on degenerate point clouds the hull builder returned a polyhedron that failed its own
/// `validate()`; a world holding one wrote snapshots that then failed to restore (state loss).
///
/// Where: `narrowphase/src/shape/polyhedron.rs`, `ConvexPolyhedron::from_points`. Fixed: the
/// built hull is validated and refused (`Degenerate`) if it breaks an invariant, so every hull
/// that exists is valid and round-trips through a snapshot. (Since then the builder gives
/// these clouds valid hulls: `hulls_of_near_degenerate_clouds_are_valid_and_hold_every_point`.)
#[test]
fn hulls_that_break_their_invariants_are_refused_at_construction() {
    for name in [
        "hull_corner_outside_face",
        "hull_face_not_planar",
        "hull_edge_used_by_four_faces",
    ] {
        replay_shapes_input("shapes", name);
    }
    let input = stored_input("world", "snapshot_of_hull_fails_polyhedron_invariants");
    tumble_tests::fuzz_checks::check_world(&input);
}
