//! Regressions of polyhedron pairs (hulls, triangles, cuboids against hulls and triangles):
//! GJK's distance, the SAT's candidate axes (edge directions of slivers, in-plane side normals
//! of flat shapes, nearly parallel and shared edges), manifold points on both shapes, and the
//! boolean test.
//!
//! One named test per bug the fuzzers found (see `fuzz/`), written as the smallest case that
//! shows it; the raw crash inputs are in `fuzz/regressions/<target>/` (replayed by
//! `fuzz_replay` on every test run). A test of an open bug is `#[ignore]`d with the reason, and
//! its inputs wait in `fuzz/regressions/open/<target>/` until the fix lands.

mod common;

use common::fuzz_inputs::stored_case;
use tumble::math::{Isometry, Point, Real, Rotation, Vector};
use tumble::narrowphase::gjk::{self, GjkResult, Segment};
use tumble::narrowphase::query::contact;
use tumble::narrowphase::shape::{ConvexPolyhedron, Cuboid, Triangle};
use tumble_tests::fuzz_checks::input::ShapeRecipe;
use tumble_tests::fuzz_checks::{check_pair, PairCase};

/// Fuzz target `narrowphase`, input `capsule_cuboid_gjk_returns_worse_simplex`: GJK between a
/// 2.6 m rod and a parallel-ish segment reached the right distance (0.384 m), took one more
/// step that rounding made worse (0.803 m, on a nearly collinear simplex), stopped for lack of
/// progress and returned the worse answer.
///
/// Where: `narrowphase/src/gjk/mod.rs`, `distance`. Fixed: it returns the best simplex seen.
#[test]
fn gjk_returns_the_best_distance_it_found() {
    let rod = ConvexPolyhedron::from_cuboid(
        &Cuboid::new(Vector::new(1.308_279_5, 0.056_752_12, 0.060_128_175)).unwrap(),
    );
    let pose = Isometry::translation(-3.0, -3.0, -3.0);
    let c = Point::new(-1.472_144_7, -2.670_039, -2.624_994_3);
    let core = Segment {
        a: c - Vector::y() * 1.744_601_4,
        b: c + Vector::y() * 1.744_601_4,
    };
    // The rod's corner edge along y at x = −1.6917, z = −2.9399; the core at x = −1.4721,
    // z = −2.6250: apart by the hypotenuse of (0.2196, 0.3149).
    let exact = (0.219_576_f32.hypot(0.314_877)) as Real;
    match gjk::distance(&pose, &rod, &Isometry::identity(), &core) {
        GjkResult::Separated { distance, .. } => {
            assert!((distance - exact).abs() < 1e-5, "{distance} vs {exact}")
        }
        r => panic!("{r:?}"),
    }
    check_pair(&stored_case(
        "narrowphase",
        "capsule_cuboid_gjk_returns_worse_simplex",
    ));
}

/// Fuzz target `narrowphase`, input `cuboid_triangle_sliver_edges_merged` (3): a box against a
/// sliver triangle got a depth 1.5 mm too deep. The triangle's two long edges are 6.6·10⁻⁴ rad
/// apart, and `ConvexPolyhedron` merged directions up to 1.4·10⁻³ rad apart, so the SAT tested
/// one edge's cross products in place of the other's.
///
/// Where: `narrowphase/src/shape/polyhedron.rs`, `find_or_push`. Fixed: directions merge only
/// when `sin θ ≤ 10⁻⁵` (error below 10⁻⁵ of the scene's size).
#[test]
fn sliver_triangle_keeps_all_three_edge_directions() {
    let t = Triangle::new(
        Point::new(1.999_206_5, -1.983_093, -1.672_785_5),
        Point::new(-1.967_528_8, -2.0, -2.0),
        Point::new(-2.0, -2.0, -2.0),
    )
    .unwrap();
    assert_eq!(
        ConvexPolyhedron::from_triangle(&t).edge_directions().len(),
        3
    );
    check_pair(&stored_case(
        "narrowphase",
        "cuboid_triangle_sliver_edges_merged",
    ));
}

/// Fuzz target `narrowphase`, input `hull_cuboid_face_axis_without_facing_face`
/// (25 of 81 crashes: hull–box, hull–hull, triangle–hull): the SAT tests each face *direction*
/// both ways, so its best axis can be +z for a hull that only has a −z face. The manifold then
/// took the hull's face most aligned with +z (13° off) as the reference: normal from that face,
/// depth from the axis, points 34 mm deeper than the pair.
///
/// Where: `narrowphase/src/query/convex_convex.rs`, `face_manifold`. Fixed: a reference face
/// must face the axis (within sin 10⁻⁴); otherwise the other shape's face, or the support
/// points.
#[test]
fn face_axis_without_a_facing_face_keeps_points_and_depth_consistent() {
    check_pair(&stored_case(
        "narrowphase",
        "hull_cuboid_face_axis_without_facing_face",
    ));
}

/// Fuzz target `narrowphase`, inputs `support_manifold_point_off_the_shapes`
/// and `support_manifold_point_off_two_triangles` (12): when no face faces the axis (or its
/// clipping leaves nothing), the fallback manifold put its point at B's deepest corner along
/// −n (the first of several at one height), which can lie metres beside A.
///
/// Where: `narrowphase/src/query/convex_convex.rs`, `support_manifold`. Fixed: the point is
/// where the support *features* (all corners within 10⁻⁵ of the pair's size of the extreme)
/// of both shapes meet seen along n (`narrowphase/src/contact/features.rs`).
#[test]
fn support_manifold_point_lies_on_both_shapes() {
    check_pair(&stored_case(
        "narrowphase",
        "support_manifold_point_off_the_shapes",
    ));
    check_pair(&stored_case(
        "narrowphase",
        "support_manifold_point_off_two_triangles",
    ));
}

/// Fuzz target `narrowphase`, inputs `edge_manifold_point_off_two_hulls` and
/// `capsule_hull_edge_point_off_the_shapes` (16 hull/triangle pairs with hulls or capsules):
/// an edge × edge axis's single point was the midpoint of the closest points of the two
/// "support edges"; `support_edge` picks the first edge of that direction at the extreme
/// height, and on slivers (several parallel edges at nearly one height) that edge can be far
/// from the other shape, so the point lay off both shapes.
///
/// Where: `narrowphase/src/query/convex_convex.rs`, `edge_manifold`, and
/// `convex_capsule.rs`, `penetrating`. Fixed: the point is where the two support features
/// meet seen along n (`narrowphase/src/contact/features.rs`), as for the support points.
#[test]
fn edge_contact_point_lies_on_both_shapes() {
    check_pair(&stored_case(
        "narrowphase",
        "edge_manifold_point_off_two_hulls",
    ));
    check_pair(&stored_case(
        "narrowphase",
        "capsule_hull_edge_point_off_the_shapes",
    ));
}

/// Fuzz target `narrowphase`, input
/// `nearly_coplanar_triangles_apart_reported_touching` (1): two triangles with a common edge
/// direction, normals 1.9·10⁻³ rad apart, 1.2 mm apart in their common plane, got a contact of
/// depth 9·10⁻⁶: the parallel edge pair's cross product is skipped, the normals are beyond the
/// coplanar threshold, and a triangle has no side face to separate in the skipped axis's place.
///
/// Where: `narrowphase/src/sat/convex.rs` (and `sat/triangle_triangle.rs`). Fixed: the in-plane
/// side normals of a flat shape are candidates also whenever an edge pair is skipped as nearly
/// parallel.
#[test]
fn nearly_coplanar_triangles_apart_are_apart() {
    check_pair(&stored_case(
        "narrowphase",
        "nearly_coplanar_triangles_apart_reported_touching",
    ));
}

/// Fuzz target `narrowphase` (≈ 95 of 127 inputs: hull–hull 26, hull–triangle
/// 22, triangle–triangle 10, capsule–hull 18, box–hull 5 …), inputs
/// `hull_hull_tilted_faces_point_off_the_shapes`, `hull_triangle_tilted_face_point_off_the_shapes`
/// and `hull_capsule_core_on_an_edge_point_off_the_hull`: the single contact point of the
/// fallback paths lay outside a shape's AABB (loosened by depth + tol).
/// - Two hulls penetrating by 0.26 mm along a face of B tilted 10⁻⁴ rad against a face of A:
///   A's support feature (corners within 1e-5 of the pair's size of its top) was one corner,
///   8 cm beside the part of B's face it overlaps; the midpoint of their nearest approach lay
///   39.5 mm outside A's AABB. The hull–triangle input: 4.4 mm outside, depth 2.9 µm.
/// - A capsule (radius 5 cm) whose core lies on an edge of a hull, 0.5 m of the core past the
///   hull: no face faces the axis, and the point was put under the core's last end — 0.5 m
///   outside the hull's AABB.
///
/// Where: `narrowphase/src/query/convex_convex.rs` (`meeting_point_of`) and
/// `query/convex_capsule.rs` (the penetrating core's one-point fallbacks). Fixed: both shapes'
/// features are their slices as thick as the penetration depth (corners in the slab plus the
/// edges' crossings of its floor, `contact::features::support_slice`): A ∩ B lies in that
/// slab, so the slices overlap seen along the normal and the point lies on both shapes.
#[test]
fn fallback_contact_points_lie_where_the_shapes_meet() {
    for name in [
        "hull_hull_tilted_faces_point_off_the_shapes",
        "hull_triangle_tilted_face_point_off_the_shapes",
        "hull_capsule_core_on_an_edge_point_off_the_hull",
    ] {
        let case = stored_case("narrowphase", name);
        check_pair(&case);
        let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
        let m = contact(&case.pose_a, &a, &case.pose_b, &b, 0.0)
            .unwrap()
            .expect("penetrating");
        // Within the depth (plus rounding) of both shapes' boxes, not only of the loosened
        // boxes of the fuzz check.
        let margin = m.depth() + 1e-5;
        let (ba, bb) = (
            a.aabb(&case.pose_a).loosened(margin),
            b.aabb(&case.pose_b).loosened(margin),
        );
        for p in m.points() {
            assert!(
                ba.contains_point(&p.point) && bb.contains_point(&p.point),
                "{name}: {p:?}"
            );
        }
    }
}

/// Fuzz target `narrowphase` (with the Gauss-map path serving polyhedra of every size: 12 of
/// 29 inputs in 300 s, box–triangle and triangle–triangle), input
/// `cuboid_triangle_side_normal_missed_by_gauss_map`: a box against a triangle in the plane
/// y = −2 whose hypotenuse runs along (0.8, 0, 0.6), poses on the grid: depth 0.75 along +x,
/// while moving the triangle 0.65 along (0.6, 0, −0.8), the hypotenuse's in-plane normal,
/// separates them.
///
/// Where: `narrowphase/src/sat/gauss_map.rs`. A flat polyhedron's Gauss map splits each
/// edge's half circle at the edge's in-plane normal `m`, which is an arc end, not a face; the
/// box edge along y maps to an arc through `m` exactly, so it crossed neither quarter arc
/// strictly and the pair (hypotenuse, box y edge), whose axis is `m`, was never tried. Fixed:
/// the side normals of a flat shape are candidates (as the full SAT's in-plane axes).
#[test]
fn cuboid_against_a_triangle_gets_the_triangle_side_normal() {
    let case = stored_case(
        "narrowphase",
        "cuboid_triangle_side_normal_missed_by_gauss_map",
    );
    check_pair(&case);
    let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
    let m = contact(&case.pose_a, &a, &case.pose_b, &b, 0.0)
        .unwrap()
        .expect("penetrating");
    assert!((m.depth() - 0.65).abs() < 1e-4, "depth {}", m.depth());
    assert!(
        (m.normal - Vector::new(0.6, 0.0, -0.8)).norm() < 1e-4,
        "{:?}",
        m.normal
    );
}

/// Fuzz target `narrowphase` (an input replayed with the Gauss-map path serving every size),
/// input `hull_cuboid_sliver_arcs_cross_wrongly_reported_apart`: a sliver hull (five points
/// nearly in one plane, dihedral angles near π) through a thin box: the exact SAT finds
/// 1.237 m of penetration, `contact` returned None.
///
/// Where: `narrowphase/src/sat/gauss_map.rs`, `deepest_edge_axis`. The separation of a crossing
/// edge pair came from one corner of each edge (both are the supports along the axis when
/// the arcs truly cross); arcs near half circles made the crossing test wrong and that value
/// bogus, above `prediction`, so the pair was declared apart. Fixed: a pair that would raise
/// the best is measured from all corners (a true separation along its axis; equal to the
/// shortcut when the arcs do cross, so depths stay exact). Since then hulls of up to 32 faces
/// take their contact axis from the full SAT (the Gauss-map path's depths were not minimal on
/// such slivers), and the exact hull builder keeps every input point: the full check passes.
#[test]
fn sliver_hull_through_a_cuboid_is_reported_penetrating() {
    let case = stored_case(
        "narrowphase",
        "hull_cuboid_sliver_arcs_cross_wrongly_reported_apart",
    );
    let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
    let m = contact(&case.pose_a, &a, &case.pose_b, &b, 0.0).unwrap();
    assert!(m.is_some_and(|m| m.depth() > 1.2), "{m:?}");
    check_pair(&case);
}

/// Fuzz target `narrowphase` (with the Gauss-map path serving every size, as for
/// `cuboid_against_a_triangle_gets_the_triangle_side_normal`: 10 of 29 inputs, box–hull,
/// hull–box; ~70 of 105 in another 300 s, box–hull, hull–hull, hull–triangle), input
/// `cuboid_hull_gjk_boolean_misses_1mm_overlap`: with polyhedron pairs of every size on GJK,
/// `intersection_test` said apart for a box and a hull (with repeated points) that still
/// overlap by 1.1 mm along the contact normal (exact SAT: 33.9 mm before the move of 32.8 mm).
///
/// Where: `narrowphase/src/gjk/` (its simplex stalls on sliver Minkowski differences and the
/// stall is read as "apart"). Fixed for the query: `intersection_convex_convex` keeps the exact
/// SAT up to `SAT_MAX_FACES` faces (GJK beyond, as before the Gauss-map path); GJK's stall
/// itself is still open.
#[test]
fn small_polyhedra_boolean_test_sees_a_millimetre_overlap() {
    check_pair(&stored_case(
        "narrowphase",
        "cuboid_hull_gjk_boolean_misses_1mm_overlap",
    ));
}

/// Two triangles at one pose (translation −0.4588 on every axis), as decoded from the
/// fuzz inputs below.
fn triangle_pair(a: [[Real; 3]; 3], b: [[Real; 3]; 3], b_dz: Real) -> PairCase {
    let p = |c: [[Real; 3]; 3]| c.map(|x| Point::new(x[0], x[1], x[2]));
    let t = -0.458_823_44;
    PairCase {
        a: ShapeRecipe::Triangle(p(a)),
        pose_a: Isometry::translation(t, t, t),
        b: ShapeRecipe::Triangle(p(b)),
        pose_b: Isometry::translation(t, t, t + b_dz),
    }
}

/// Fuzz target `narrowphase`, inputs `triangle_triangle_depth_not_minimal` and
/// `triangle_triangle_point_outside_the_aabbs`: nearly coplanar slivers sharing a corner
/// region, 0.73 mm and 1.1 mm apart corner to corner, got a manifold of depth 6·10⁻⁷ (first)
/// and a point 0.55 mm outside A's AABB, midway across the gap (second).
///
/// Where: `narrowphase/src/sat/convex.rs`, the candidates of the contact's SAT. Every face and
/// edge × edge axis separated them by at most 5·10⁻⁶ (resp. 1.7·10⁻⁵) m, within the face
/// preference, so a face axis that only touched won. Fixed: the in-plane side normals of a
/// flat shape are always candidates (before, only for parallel normals or a skipped edge
/// pair); one of them measures the whole gap, and with prediction 0 there is no contact.
#[test]
fn nearly_coplanar_slivers_apart_corner_to_corner_get_no_contact() {
    let cases = [
        triangle_pair(
            [
                [-0.305_882_33, -0.305_882_33, -0.305_882_33],
                [-0.305_882_33, -0.308_567_88, 0.991_012_33],
                [-0.410_193_1, -0.540_260_9, -0.305_882_33],
            ],
            [
                [-0.305_882_33, -0.305_882_33, -0.306_614_76],
                [-0.310_460_1, -0.305_882_33, -1.169_726_1],
                [-0.312_474_25, -0.305_882_33, -1.430_899_5],
            ],
            0.0,
        ),
        triangle_pair(
            [
                [-0.305_882_33, -0.305_882_33, -0.305_882_33],
                [-0.805_889_96, -0.305_882_33, 0.991_012_33],
                [0.996_078_5, -0.305_882_33, -0.305_882_33],
            ],
            [
                [-0.305_882_33, -0.305_882_33, -0.306_614_76],
                [1.689_570_4, -0.309_788_7, -1.996_765_1],
                [-0.305_882_33, -0.305_882_33, -0.309_910_77],
            ],
            -0.000_366_21,
        ),
    ];
    for (case, gap) in cases.iter().zip([7.3e-4, 1.1e-3]) {
        check_pair(case);
        let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
        let (pa, pb) = (&case.pose_a, &case.pose_b);
        assert!(contact(pa, &a, pb, &b, 0.0).unwrap().is_none());
        // Within the prediction distance the gap is the whole corner-to-corner gap.
        let m = contact(pa, &a, pb, &b, 0.01).unwrap().expect("within 1 cm");
        assert!((m.depth() + gap).abs() < 5e-5, "depth {}", m.depth());
    }
    for name in [
        "triangle_triangle_depth_not_minimal",
        "triangle_triangle_point_outside_the_aabbs",
    ] {
        check_pair(&stored_case("narrowphase", name));
    }
}

/// Fuzz target `narrowphase`, input `triangle_triangle_shared_edge_depth_not_minimal`: two
/// nearly coplanar triangles on either side of a shared edge (B's first two corners are A's
/// last two, the poses 10⁻³ rad apart) got depth 1.29 mm, where moving B by 3.3·10⁻⁵ m across
/// the two copies of the shared edge separates them.
///
/// Where: `narrowphase/src/sat/convex.rs`, `candidates` (and `sat/triangle_triangle.rs`): the
/// two copies of the shared edge are 8.9·10⁻⁴ rad from parallel, below `PARALLEL_SINE`
/// (10⁻³), so their edge × edge axis was skipped, and a triangle has no side face to stand in
/// for it: every face, in-plane and other edge axis overlapped by 1.26..1.9 mm. Fixed: when
/// either shape is flat, edge pairs are skipped only below `FLAT_PARALLEL_SINE` (10⁻⁵).
#[test]
fn hinged_triangles_sharing_an_edge_get_the_edge_axis() {
    let p = |x: Real, y: Real, z: Real| Point::new(x, y, z);
    let pose = |q: [Real; 4]| {
        let t = -2.835_294;
        Isometry::from_parts(
            Vector::new(t, t, t).into(),
            Rotation::new_unchecked(nalgebra::Quaternion::new(q[3], q[0], q[1], q[2])),
        )
    };
    let shared = [
        p(-1.874_998_1, -1.865_842_7, 1.874_937),
        p(1.874_509_8, 1.890_196_1, 1.890_196_1),
    ];
    let case = PairCase {
        a: ShapeRecipe::Triangle([
            p(-1.874_509_8, -1.874_509_8, -1.874_509_8),
            shared[0],
            shared[1],
        ]),
        pose_a: pose([-0.499_995_92, -0.499_995_92, -0.499_995_92, -0.500_012_2]),
        b: ShapeRecipe::Triangle([
            shared[0],
            shared[1],
            p(-1.890_196_1, -1.890_196_1, 1.984_863),
        ]),
        pose_b: pose([-0.500_129_1, -0.500_129_1, -0.499_612_36, -0.500_129_1]),
    };
    check_pair(&case);
    let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
    let m = contact(&case.pose_a, &a, &case.pose_b, &b, 0.0)
        .unwrap()
        .expect("the shared edges cross");
    assert!(m.depth() < 1e-4, "depth {}", m.depth());
    check_pair(&stored_case(
        "narrowphase",
        "triangle_triangle_shared_edge_depth_not_minimal",
    ));
}

/// Fuzz target `narrowphase`, input `cuboid_triangle_sliver_depth_minus_tol_separates`: a box
/// against a sliver triangle (corners `v1`, `v2` 6.1·10⁻⁵ m apart along x, `v0` 6.3 m away).
/// The contact depth (1.836 m) was exact, but after moving the triangle by depth − tol along
/// the normal `intersection_test` said "apart".
///
/// Where: `narrowphase/src/sat/triangle_cuboid.rs`, the triangle-normal axis. Its normal was
/// `(v1 − v0) × (v2 − v0)`, the two long, nearly parallel edges, whose f32 cross product can
/// be turned from the true normal by up to ~10⁻² rad, and only `v0` was projected on it. The normal now
/// comes from the two shorter edges and all three corners are projected.
#[test]
fn sliver_triangle_in_a_cuboid_is_not_apart() {
    let p = |x: Real, y: Real, z: Real| Point::new(x, y, z);
    let case = PairCase {
        a: ShapeRecipe::Cuboid(Vector::new(3.0, 0.050_045_013, 2.988_521_3)),
        pose_a: Isometry::translation(-2.999_267_6, -3.0, -2.742_183_7),
        b: ShapeRecipe::Triangle([
            p(1.968_871_6, 1.852_353_8, 0.999_435_4),
            p(-1.999_939, -2.0, -2.0),
            p(-2.0, -2.0, -2.0),
        ]),
        pose_b: Isometry::translation(-3.0, -3.0, -3.0),
    };
    let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
    let m = contact(&case.pose_a, &a, &case.pose_b, &b, 0.0)
        .unwrap()
        .expect("the triangle pierces the box");
    assert!(m.depth() > 1.8, "depth {}", m.depth());
    check_pair(&case);
    check_pair(&stored_case(
        "narrowphase",
        "cuboid_triangle_sliver_depth_minus_tol_separates",
    ));
}
