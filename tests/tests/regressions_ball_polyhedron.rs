//! Regressions of ball contacts against sliver hulls and triangles: depths along the reported
//! normal and least, the boolean test, a centre beside a triangle in its plane or beyond a
//! sliver's edge.
//!
//! One named test per bug the fuzzers found (see `fuzz/`), written as the smallest case that
//! shows it; the raw crash inputs are in `fuzz/regressions/<target>/` (replayed by
//! `fuzz_replay` on every test run). A test of an open bug is `#[ignore]`d with the reason, and
//! its inputs wait in `fuzz/regressions/open/<target>/` until the fix lands.

mod common;

use common::fuzz_inputs::stored_case;
use tumble::math::{Isometry, Point, Real, Vector};
use tumble::narrowphase::query::contact;
use tumble::narrowphase::shape::ConvexPolyhedron;
use tumble_tests::fuzz_checks::input::ShapeRecipe;
use tumble_tests::fuzz_checks::{check_pair, PairCase};

/// Fuzz target `narrowphase`, input `hull_ball_sliver_depth_not_along_normal` (2 251 of
/// 3 313 crashing narrowphase inputs were hull–ball cases of this kind): a small ball
/// centred 1.6 mm outside a thin sliver hull got depth 0.048 m along a normal on which the
/// shapes overlap by 0.129 m.
///
/// Where: `narrowphase/src/query/convex_ball.rs`, `contact_convex_ball`. GJK's closest point on
/// a sliver is ill-conditioned (its normal was 1.3° off the face normal) and was trusted.
/// Fixed: GJK's normal is kept only when certified (its distance, an upper bound, equals the
/// separation along its normal, a lower bound, within 10⁻⁵ of the scale); otherwise the exact
/// point–polytope SAT (faces, edge perpendiculars, corner directions) decides.
#[test]
fn ball_inside_a_sliver_hull_gets_a_consistent_depth() {
    let hull = vec![
        Point::new(1.808_407_8, 1.775_326_3, -0.972_701_67),
        Point::new(1.796_932_9, 1.811_764_7, 1.807_370_2),
        Point::new(-1.985_168_2, -2.0, -2.0),
        Point::new(-2.0, -2.0, -2.0),
    ];
    assert!(ConvexPolyhedron::from_points(&hull).is_ok());
    let pose = Isometry::translation(-3.0, -3.0, -3.0);
    check_pair(&PairCase {
        a: ShapeRecipe::Hull(hull),
        pose_a: pose,
        b: ShapeRecipe::Ball(0.05),
        pose_b: pose,
    });
}

/// Fuzz target `narrowphase`, input `hull_ball_sliver_intersection_false_negative` (54, then
/// 91 once the depth of `ball_inside_a_sliver_hull_gets_a_consistent_depth` was right): a ball overlapping a sliver hull by 1 mm was reported
/// apart by `intersection_test`, because GJK stopped early with a distance above the radius.
///
/// Where: `narrowphase/src/query/convex_ball.rs`, `intersection_convex_ball`. Fixed: GJK's
/// distance is an upper bound and the separation along its normal a lower bound; only when
/// the radius falls between them does the exact point–polytope SAT decide.
#[test]
fn ball_touching_a_sliver_hull_is_reported_touching() {
    check_pair(&stored_case(
        "narrowphase",
        "hull_ball_sliver_intersection_false_negative",
    ));
}

/// Fuzz target `narrowphase`, input `triangle_ball_sliver_normal_off` (171 triangle–ball
/// cases): a ball on a long thin triangle got depth 0.0498 along a normal on which the shapes
/// overlap by 0.0516 (the triangle runs as a flat polyhedron through `contact_convex_ball`).
/// Same root cause and fix as `ball_inside_a_sliver_hull_gets_a_consistent_depth`.
#[test]
fn ball_on_a_sliver_triangle_gets_a_consistent_depth() {
    check_pair(&stored_case(
        "narrowphase",
        "triangle_ball_sliver_normal_off",
    ));
}

/// Fuzz target `narrowphase`, input `triangle_ball_centre_in_plane_beside_triangle`
/// (5): a ball centred in the plane of a sliver triangle but just beside it got depth = its
/// radius (the two back-to-back face planes both say "on the plane", read as inside), while a
/// 4.6 cm move sideways separates it.
///
/// Where: `narrowphase/src/query/convex_ball.rs`, `point_separation`. Fixed: for a flat
/// polyhedron the edge perpendiculars and corners are always candidates.
#[test]
fn ball_beside_a_triangle_in_its_plane_gets_the_sideways_depth() {
    check_pair(&stored_case(
        "narrowphase",
        "triangle_ball_centre_in_plane_beside_triangle",
    ));
}

/// Fuzz target `narrowphase`, input `hull_ball_depth_not_minimal`: a ball of radius 0.05 m
/// whose centre lies 1.4 mm beyond an edge of a sliver hull (a point cloud with repeated
/// corners whose hull is a tetrahedron 86 µm thick, two faces 3·10⁻⁵ rad from coplanar) got
/// depth 0.05 — as if the centre were on the surface — where the least overlap, across the
/// edge, is 0.0486.
///
/// Where: `narrowphase/src/query/convex_ball.rs`, `point_separation`. GJK's normal was off by
/// 10⁻⁴ rad (uncertified), and the exact fallback stopped at the face normals because the
/// centre was within rounding of both face planes (separation 0 in f32); only the edge's
/// perpendicular finds the distance. The faces now decide alone only when the centre is
/// inside them by more than rounding.
#[test]
fn ball_beside_the_edge_of_a_sliver_hull_gets_the_edge_distance() {
    let p = |x: Real, y: Real, z: Real| Point::new(x, y, z);
    let corner = p(-2.0, -2.0, -2.0);
    let case = PairCase {
        a: ShapeRecipe::Hull(vec![
            p(0.888_777, 0.886_274_6, 0.886_274_6),
            p(0.886_274_6, -0.823_529_36, -0.823_529_36),
            p(1.989_013_4, -2.0, -1.999_877_9),
            corner,
            p(-1.999_023_4, -2.0, -2.0),
            corner,
            corner,
            corner,
        ]),
        pose_a: Isometry::translation(-3.0, -3.0, -3.0),
        b: ShapeRecipe::Ball(0.05),
        pose_b: Isometry::translation(-3.0, -3.0, -3.0),
    };
    let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
    let m = contact(&case.pose_a, &a, &case.pose_b, &b, 0.0)
        .unwrap()
        .expect("the ball overlaps the hull");
    // The centre is in the hull's (near) plane y = z, beyond its edge through (-2, -2, -2)
    // and (0.889, 0.886, 0.886): the normal lies in that plane, across the edge.
    let across = Vector::new(-0.816_26, 0.408_484, 0.408_484);
    assert!(m.normal.dot(&across) > 0.999_99, "normal {:?}", m.normal);
    assert!(
        (m.depth() - 0.048_585).abs() < 1e-5,
        "depth {} (the centre is 1.415 mm from the hull)",
        m.depth()
    );
    check_pair(&case);
    check_pair(&stored_case("narrowphase", "hull_ball_depth_not_minimal"));
}
