//! Regressions of capsule contacts against polyhedra (cuboids, hulls, triangles): depths along
//! the reported normal and least, contact points on both shapes, normals across the feature
//! the core lies beside, in-plane gaps of a core beside a triangle.
//!
//! One named test per bug the fuzzers found (see `fuzz/`), written as the smallest case that
//! shows it; the raw crash inputs are in `fuzz/regressions/<target>/` (replayed by
//! `fuzz_replay` on every test run). A test of an open bug is `#[ignore]`d with the reason, and
//! its inputs wait in `fuzz/regressions/open/<target>/` until the fix lands.

mod common;

use common::fuzz_inputs::{printed_hull, printed_pose, stored_case};
use tumble::math::{Isometry, Point, Real, Rotation, Vector};
use tumble::narrowphase::query::contact;
use tumble_tests::fuzz_checks::input::ShapeRecipe;
use tumble_tests::fuzz_checks::{check_pair, PairCase};

/// Fuzz target `narrowphase`, inputs `capsule_cuboid_face_snap_changes_depth` (320
/// capsule–polyhedron cases) and `cuboid_capsule_point_deeper_than_pair` (53): a capsule near
/// a thin rod got the rod's face normal, within 2.6° of GJK's normal, with GJK's depth (1.797 m)
/// while the shapes overlap by 1.815 m along that face normal; and the face's clipped points
/// kept their own, deeper, depths.
///
/// Where: `narrowphase/src/query/convex_capsule.rs`, `contact_convex_capsule`. Fixed: the depth
/// is taken along the normal reported, and a face normal replaces GJK's only when it is a
/// least-depth direction too (its separation within the certificate's tolerance of GJK's).
#[test]
fn capsule_near_a_face_keeps_a_depth_along_its_normal() {
    check_pair(&stored_case(
        "narrowphase",
        "capsule_cuboid_face_snap_changes_depth",
    ));
    check_pair(&stored_case(
        "narrowphase",
        "cuboid_capsule_point_deeper_than_pair",
    ));
}

/// Fuzz target `narrowphase`, input `cuboid_capsule_gjk_stops_early_on_sliver_difference`
/// (8): a tiny capsule against a long thin rod: the Minkowski difference is a 5.7 m × 0.1 m
/// sliver, GJK's simplex reduction rounds badly and it stopped with 0.0511 m for a true
/// 0.0490 m, so `intersection_test` said apart for a capsule 1 mm inside.
///
/// Where: `narrowphase/src/query/convex_capsule.rs`. Fixed: the certificate catches it, and the
/// exact segment–polytope distance (SAT proves apart; then the ends' point–polytope directions
/// and every edge–segment direction) replaces it, for `intersection_test` and `contact`.
#[test]
fn capsule_against_a_long_rod_is_measured_exactly() {
    check_pair(&stored_case(
        "narrowphase",
        "cuboid_capsule_gjk_stops_early_on_sliver_difference",
    ));
}

/// Fuzz target `narrowphase`, inputs `capsule_cuboid_point_at_far_core_end` and
/// `capsule_cuboid_point_at_core_middle` (12): contact points metres away from the box.
/// A core lying on a side plane of the reference face (so clipping leaves nothing) fell back to
/// the deepest *end* of a 5.5 m core; the exact fallback above first used the core's middle.
///
/// Where: `narrowphase/src/query/convex_capsule.rs` (`penetrating`, `exact_core_distance`).
/// Fixed: the point is on the core where it comes nearest the face's centre, and the exact
/// path keeps the core point of the winning candidate.
#[test]
fn capsule_cuboid_contact_points_lie_on_both_shapes() {
    check_pair(&stored_case(
        "narrowphase",
        "capsule_cuboid_point_at_far_core_end",
    ));
    check_pair(&stored_case(
        "narrowphase",
        "capsule_cuboid_point_at_core_middle",
    ));
}

/// Fuzz target `narrowphase`, inputs `capsule_cuboid_point_off_the_box`, `_2`, `_3` and
/// `cuboid_capsule_point_off_the_box` (one each): a capsule across a small box gets a single point (id 0) up to 0.4 m outside the box's bounds.
///
/// Where: `narrowphase/src/query/convex_capsule.rs`, `exact_core_distance` (the fallback when
/// GJK's answer is not certified): the candidate pairs (core ends, core × each edge) competed
/// on the core's separation along their direction; the box's parallel edges give the same
/// direction and so the same separation, and the first edge won with its own closest core
/// point, far from the box. Fixed: the candidates compete on the pair's distance.
#[test]
fn capsule_cuboid_single_point_lies_on_the_cuboid() {
    for name in [
        "capsule_cuboid_point_off_the_box",
        "capsule_cuboid_point_off_the_box_2",
        "capsule_cuboid_point_off_the_box_3",
        "cuboid_capsule_point_off_the_box",
    ] {
        check_pair(&stored_case("narrowphase", name));
    }
}

/// Fuzz target `narrowphase`, inputs
/// `capsule_hull_depth_not_along_normal`, `capsule_hull_depth_not_along_normal_2` and
/// `hull_capsule_depth_not_along_normal_2` (7 of 9): a capsule whose core penetrates a hull got
/// the depth of a face *direction* tested towards a side where the hull has no face, with the
/// normal of the nearest face (up to 2.6° away): 0.8 to 19 mm less depth than the overlap along
/// that normal. Same cause as `face_axis_without_a_facing_face_keeps_points_and_depth_consistent`.
///
/// Where: `narrowphase/src/query/convex_capsule.rs`, `penetrating`. Fixed: the face is clipped
/// against only when it faces the axis (within sin 10⁻⁴); otherwise one point at the core's
/// deepest point along the axis.
#[test]
fn penetrating_capsule_keeps_the_normal_of_its_axis() {
    for name in [
        "capsule_hull_depth_not_along_normal",
        "capsule_hull_depth_not_along_normal_2",
        "hull_capsule_depth_not_along_normal_2",
    ] {
        check_pair(&stored_case("narrowphase", name));
    }
}

/// Fuzz target `narrowphase`, input `hull_capsule_depth_not_along_normal` (the 2 left of the
/// class of `penetrating_capsule_keeps_the_normal_of_its_axis`): depth
/// 0.4556 where the overlap along the normal is 0.4564 (tol 0.0007), a hull–capsule pair on the
/// GJK path. Fixed by the exact hull builder or by the depth-thick fallback slices: both touch
/// this pair, and which of the two fixed it was not isolated.
#[test]
fn capsule_hull_depth_is_the_overlap_along_the_normal() {
    check_pair(&stored_case(
        "narrowphase",
        "hull_capsule_depth_not_along_normal",
    ));
}

/// Fuzz target `narrowphase`, inputs `capsule_hull_penetrating_depth_not_minimal`,
/// `capsule_triangle_depth_not_minimal` and `hull_capsule_depth_not_minimal_in_capsule_convex`:
/// a capsule whose core touches a polyhedron (a hull vertex on the core; a core µm from a
/// triangle or a hull) got depths 3.23 m, 0.281 m and 2.79 m where the radius (3 m, 0.25 m,
/// 0.75 m) is the least depth.
///
/// Where: `narrowphase/src/query/convex_capsule.rs`, `exact_core_distance`: GJK's distance
/// (µm) was not certified, and the exact fallback took the direction of the nearest
/// core–polyhedron pair, which at µm is rounding (separation −0.23 m, −2.04 m along it).
/// Fixed: the segment–polyhedron SAT's best axis is a lower bound of the distance too, and
/// wins when it separates the core by more.
#[test]
fn capsule_touching_a_polyhedron_gets_the_radius_as_depth() {
    let cases = [
        PairCase {
            a: ShapeRecipe::Capsule(3.0, 3.0),
            pose_a: printed_pose([0.0, 0.0, 0.707_106_77, -0.707_106_77], [-1.0, -1.0, -1.0]),
            b: printed_hull(&[
                [-1.5, -1.5, -0.5],
                [-1.25, 1.75, 2.0],
                [2.0, 2.0, 2.0],
                [-1.25, -2.0, -1.5],
                [-1.5, 1.5, -0.0],
                [-0.25, -2.0, -2.0],
                [2.0, 2.0, 2.0],
                [-1.25, -1.5, 2.0],
            ]),
            pose_b: printed_pose([0.0, 0.0, 0.0, 1.0], [-3.0, -3.0, -3.0]),
        },
        PairCase {
            a: ShapeRecipe::Capsule(0.05, 0.25),
            pose_a: printed_pose(
                [-0.501_148_16, -0.659_622_43, 0.514_247_54, 0.222_031_88],
                [-3.0, -3.0, -3.0],
            ),
            b: ShapeRecipe::Triangle([
                Point::new(1.0, 1.0, 1.0),
                Point::new(-0.0, -2.0, -2.0),
                Point::new(-2.0, -2.0, -2.0),
            ]),
            pose_b: printed_pose([0.0, 0.0, 0.0, 1.0], [-3.0, -3.0, -3.0]),
        },
        PairCase {
            a: printed_hull(&[
                [-0.0, -1.25, -2.0],
                [-2.0, -1.25, 1.0],
                [-0.0, 1.0, -0.0],
                [-0.0, -0.0, -0.0],
                [-2.0, -2.0, -2.0],
                [-2.0, 1.0, -1.0],
                [-1.0, -1.0, -1.0],
            ]),
            pose_a: printed_pose([-0.5, -0.5, -0.5, -0.5], [-1.5, -1.5, -1.5]),
            b: ShapeRecipe::Capsule(0.5, 0.75),
            pose_b: printed_pose(
                [-0.577_028_5, -0.577_028_5, -0.033_381_816, -0.577_028_5],
                [-1.5, -1.5, -1.5],
            ),
        },
    ];
    for (case, radius) in cases.iter().zip([3.0, 0.25, 0.75]) {
        check_pair(case);
        let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
        let m = contact(&case.pose_a, &a, &case.pose_b, &b, 0.0)
            .unwrap()
            .expect("touching");
        assert!(
            (m.depth() - radius).abs() < 1e-3,
            "depth {} for radius {radius}",
            m.depth()
        );
    }
    for name in [
        "capsule_hull_penetrating_depth_not_minimal",
        "capsule_triangle_depth_not_minimal",
        "hull_capsule_depth_not_minimal_in_capsule_convex",
    ] {
        check_pair(&stored_case("narrowphase", name));
    }
}

/// Fuzz target `narrowphase`, input `capsule_hull_depth_minus_tol_separates`: a thin
/// capsule (radius 5 cm) 8.6 mm from a hull got depth 43.0 mm where 41.4 mm is the least.
///
/// Where: `narrowphase/src/query/convex_capsule.rs`, `exact_core_distance` (GJK uncertified):
/// the nearest pair was a hull edge nearly parallel to the core, whose closest points
/// (`closest_points_segments`, the f32 parallel branch) and cross product were off, tilting
/// the normal by 2.3 mrad. Fixed by the f64 closest points (see
/// `nearly_parallel_capsules_moved_by_depth_minus_tol_still_touch`) and the SAT axis competing
/// on separation (`capsule_touching_a_polyhedron_gets_the_radius_as_depth`).
#[test]
fn capsule_along_a_hull_edge_gets_the_least_depth() {
    let case = PairCase {
        a: ShapeRecipe::Capsule(2.75, 0.05),
        pose_a: printed_pose([0.0, 1.0, 0.0, -4.371_139e-8], [-3.0, -2.25, -3.0]),
        b: printed_hull(&[
            [-2.0, 0.75, 0.75],
            [0.75, 1.25, 1.25],
            [1.0, -2.0, 1.0],
            [1.0, -1.25, -1.25],
            [1.25, 1.25, 1.25],
            [-1.25, -1.25, -2.0],
            [-2.0, -2.0, -2.0],
            [-0.75, -0.75, -0.75],
        ]),
        pose_b: printed_pose(
            [-0.498_394, -0.500_534_24, -0.500_534_24, -0.500_534_24],
            [-1.0, -1.0, -1.0],
        ),
    };
    check_pair(&case);
    check_pair(&stored_case(
        "narrowphase",
        "capsule_hull_depth_minus_tol_separates",
    ));
    let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
    let m = contact(&case.pose_a, &a, &case.pose_b, &b, 0.0)
        .unwrap()
        .expect("overlapping");
    // The least overlap, 41.43 mm, found by a dense search of directions.
    assert!(m.depth() < 0.0415, "depth {}", m.depth());
}

/// Fuzz target `narrowphase`, inputs `capsule_box_depth_minus_tol_separates` and
/// `box_capsule_depth_minus_tol_separates`: a capsule whose core's end hovers beside a long
/// box's edge got a normal with a component along the edge (in `box_capsule_…`: the end lies
/// 0.25 mm inside the side plane at the edge's end, the normal's component is 2.7·10⁻⁴), so
/// its depth (the overlap along that normal) was 1.1–1.4 mm more than the true one and moving
/// B by depth − tol already separated the shapes.
///
/// Where: `narrowphase/src/query/convex_capsule.rs`, `exact_core_distance` (GJK's answer was
/// uncertified): the candidate pairs competed on their distance, and the corner at the edge's
/// end, as near within f32 rounding (it is farther by the square of 0.25 mm), came first. The
/// direction is now the candidate's along which the core separates most.
#[test]
fn capsule_end_beside_a_cuboid_edge_gets_the_normal_across_the_edge() {
    let q =
        |x: [Real; 4]| Rotation::new_unchecked(nalgebra::Quaternion::new(x[3], x[0], x[1], x[2]));
    let capsule_box = PairCase {
        a: ShapeRecipe::Capsule(0.056_031_89, 1.853_265_3),
        pose_a: Isometry::from_parts(
            Vector::new(3.0, 3.0, 3.0).into(),
            q([0.693_116_8, -0.699_394_94, 0.153_600_98, 0.082_719_75]),
        ),
        b: ShapeRecipe::Cuboid(Vector::new(2.995_543_7, 3.0, 0.280_787_38)),
        pose_b: Isometry::translation(-0.854_062_8, -0.000_137_329_1, 1.289_127_8),
    };
    let box_capsule = PairCase {
        a: ShapeRecipe::Cuboid(Vector::new(2.613_824, 2.618_235_3, 0.058_687_724)),
        pose_a: Isometry::translation(-3.0, -3.0, -3.0),
        b: ShapeRecipe::Capsule(1.753_964_3, 1.542_353),
        pose_b: Isometry::from_parts(
            Vector::new(0.035_294_294, -0.382_009_74, -0.388_235_33).into(),
            q([-0.5, -0.5, -0.5, -0.5]),
        ),
    };
    for (case, name) in [
        (capsule_box, "capsule_box_depth_minus_tol_separates"),
        (box_capsule, "box_capsule_depth_minus_tol_separates"),
    ] {
        let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
        let m = contact(&case.pose_a, &a, &case.pose_b, &b, 0.0)
            .unwrap()
            .expect("the capsule overlaps the box");
        // The box is axis-aligned and the closest feature its edge along y.
        assert!(m.normal.y.abs() < 1e-5, "{name}: normal {:?}", m.normal);
        check_pair(&case);
        check_pair(&stored_case("narrowphase", name));
    }
}

/// Fuzz target `narrowphase`, input `capsule_triangle_coplanar_depth_not_minimal`: a
/// capsule (radius 0.0514 m, core along y at x = −3) whose core lies in the plane of a 3 mm
/// triangle (world plane x = −3, corner at (−3, −3, −3)) and passes 4.85 mm beside it got the
/// full radius as depth, as if the core touched the triangle.
///
/// Where: `narrowphase/src/query/convex_capsule.rs`, the segment SAT. A triangle and a segment
/// are both degenerate: with the core in the triangle's plane every candidate `du × e` is the
/// triangle's normal, along which they overlap (separation 0), and the separating direction
/// lies in the plane. A flat polyhedron's in-plane edge normals `n × e` and the core's
/// in-plane perpendicular `n × du` are now candidates too.
#[test]
fn capsule_core_beside_a_triangle_in_its_plane_gets_the_in_plane_gap() {
    let p = |x: Real, y: Real, z: Real| Point::new(x, y, z);
    let case = PairCase {
        a: ShapeRecipe::Capsule(2.894_127, 0.051_440_45),
        pose_a: Isometry::translation(-3.0, -2.976_562, -2.995_147_7),
        b: ShapeRecipe::Triangle([
            p(-1.203_173_9, -1.2, -1.2),
            p(-1.2, -1.200_244_2, -1.2),
            p(-1.2, -1.2, -1.2),
        ]),
        pose_b: Isometry::from_parts(
            Vector::new(-1.8, -1.8, -1.8).into(),
            Rotation::new_unchecked(nalgebra::Quaternion::new(-0.5, -0.5, -0.5, -0.5)),
        ),
    };
    let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
    let m = contact(&case.pose_a, &a, &case.pose_b, &b, 0.0)
        .unwrap()
        .expect("the capsule overlaps the triangle");
    // The gap between the core and the triangle is along z, in the triangle's plane.
    assert!(m.normal.z.abs() > 0.999, "normal {:?}", m.normal);
    assert!(
        m.depth() < 0.051_440_45 - 0.004,
        "depth {} (the core is 4.85 mm from the triangle)",
        m.depth()
    );
    check_pair(&case);
    check_pair(&stored_case(
        "narrowphase",
        "capsule_triangle_coplanar_depth_not_minimal",
    ));
}
