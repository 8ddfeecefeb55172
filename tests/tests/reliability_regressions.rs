//! One named test per bug the fuzzers found (see `fuzz/`), written as the smallest case
//! that shows it. The raw crash inputs are in `fuzz/regressions/<target>/` once fixed, and in
//! `fuzz/regressions/open/<target>/` while the bug is open.
//!
//! Tests of open bugs are `#[ignore]`d with the reason; when the fix lands, drop the
//! `#[ignore]` and move the inputs from `fuzz/regressions/open/<target>/` up to
//! `fuzz/regressions/<target>/`, where `fuzz_replay` runs them on every test run.

use tumble::broadphase::{AnyBroadPhase, BroadPhase, BroadPhaseKind};
use tumble::math::{Isometry, Point, Real, Rotation, Vector};
use tumble::narrowphase::query::contact;
use tumble::narrowphase::shape::{Ball, Capsule, ConvexPolyhedron, Shape, Triangle};
use tumble::narrowphase::Aabb;
use tumble_tests::fuzz_checks::input::ShapeRecipe;
use tumble_tests::fuzz_checks::{check_pair, check_world, PairCase};

/// Fuzz target `narrowphase`, input `capsule_ball_concentric_normal_along_axis`: a ball whose
/// centre lies on a capsule's core got the normal +y — along the capsule's axis, where the
/// shapes overlap by 2.66 m — with depth 0.1 m. The normal must be across the axis.
///
/// Where: `narrowphase/src/query/capsule_round.rs`, `contact_capsule_ball`, which hands the
/// closest core point to `contact_ball_ball`, whose fallback for coincident centres is +y.
#[test]
fn capsule_ball_with_the_centre_on_the_core_gets_a_normal_across_the_axis() {
    let pose = Isometry::translation(-3.0, -3.0, -3.0);
    let capsule = Shape::from(Capsule::new(2.564_443_3, 0.05).unwrap());
    let ball = Shape::from(Ball::new(0.05).unwrap());
    let m = contact(&pose, &capsule, &pose, &ball, 0.0)
        .unwrap()
        .expect("they overlap");
    assert!(
        m.normal.y.abs() < 1e-3,
        "normal {:?} runs along the capsule's axis (y)",
        m.normal
    );
    assert!((m.depth() - 0.1).abs() < 1e-5, "depth {}", m.depth());
}

/// Found by a later narrowphase fuzz run: two capsules on one vertical line (A turned upside
/// down, B small and inside A's core) got a normal along their shared axis, with depth
/// ra + rb = 1.404 while the shapes overlap by 4.35 along it. Where:
/// `contact_capsule_capsule`, which took the segment routine's closest points of parallel
/// cores at different heights. The normal must point across the axis, the depth be ra + rb.
#[test]
fn coaxial_capsules_are_pushed_apart_across_their_axis() {
    let a = Shape::from(Capsule::new(2.898_223_2, 1.340_734_7).unwrap());
    let b = Shape::from(Capsule::new(0.073_047_23, 0.063_189_134).unwrap());
    let pa = Isometry::from_parts(
        nalgebra::Translation3::new(-3.0, -2.973_174_6, -3.0),
        Rotation::from_quaternion(nalgebra::Quaternion::new(-4.371_139e-8, 0.0, 0.0, 1.0)),
    );
    let pb = Isometry::translation(-3.0, -3.0, -3.0);
    let m = contact(&pa, &a, &pb, &b, 0.0)
        .unwrap()
        .expect("they overlap");
    assert!(
        m.normal.y.abs() < 1e-3,
        "normal {:?} runs along the axis",
        m.normal
    );
    assert!(
        (m.depth() - (1.340_734_7 + 0.063_189_134)).abs() < 1e-4,
        "depth {}",
        m.depth()
    );
}

/// The same fallback for two capsules whose cores cross (found by reading the code the fuzz
/// case above pointed to): capsules along y and along x crossing at one point must be pushed
/// apart along z (the cross product of the axes), by the sum of the radii.
#[test]
fn crossing_capsule_cores_get_the_normal_of_both_axes() {
    let a = Shape::from(Capsule::new(1.0, 0.1).unwrap());
    let b = Shape::from(Capsule::new(1.0, 0.2).unwrap());
    let pa = Isometry::identity();
    let pb = Isometry::from_parts(
        Vector::zeros().into(),
        Rotation::from_axis_angle(&Vector::z_axis(), std::f32::consts::FRAC_PI_2),
    );
    let m = contact(&pa, &a, &pb, &b, 0.0)
        .unwrap()
        .expect("they overlap");
    assert!(
        m.normal.z.abs() > 0.999,
        "normal {:?} is not across both cores",
        m.normal
    );
    assert!((m.depth() - 0.3).abs() < 1e-5, "depth {}", m.depth());
}

/// Fuzz target `broadphase`, input `grid_cell_of_overflow_far_negative`: with cells made tiny
/// by point-like proxies, a query box far from the origin makes `x · inv` exceed the `i32`
/// range; `as i32` saturates to `i32::MIN`, and the floor correction `t − 1` overflows (a
/// panic with overflow checks; with them off, a wrap to `i32::MAX` that clamps to the top cell,
/// so the query silently misses every proxy).
///
/// Where: `broadphase/src/structure/grid.rs`, `Grid::cell_of`. Fix: clamp `y` to
/// `±CELL_LIMIT` before the conversion (or `t.saturating_sub(..)`).
///
/// Fixed (the float is now clamped before the conversion); kept as a regression.
#[test]
fn grid_query_far_from_tiny_cells_finds_every_proxy() {
    let mut grid = AnyBroadPhase::new(BroadPhaseKind::Grid);
    let mut handles = Vec::new();
    for i in 0..100 {
        // 100 points in a 0.1 mm cube: cells of about 40 µm, so ±1e6 m is ±2.3e10 cells.
        let p = Point::new((i % 5) as Real, ((i / 5) % 5) as Real, (i / 25) as Real) * 2e-5;
        handles.push(grid.insert(Aabb::new(p, p).unwrap(), i).unwrap());
    }
    let mut pairs = Vec::new();
    grid.find_pairs(&mut pairs); // sizes the cells from the proxies
    let everything = Aabb::new(Point::new(-1e6, -1e6, -1e6), Point::new(1e6, 1e6, 1e6)).unwrap();
    let mut out = Vec::new();
    grid.query_aabb(&everything, &mut out);
    assert_eq!(out, handles, "a query holding every proxy missed some");
    grid.query_aabb(
        &Aabb::new(Point::new(-1e6, 0.0, 0.0), Point::new(-1e6, 0.0, 0.0)).unwrap(),
        &mut out,
    );
    assert!(out.is_empty());
    grid.validate().unwrap();
}

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

/// Fuzz target `box_box`, inputs `near_parallel_edges_intersection_false_positive` and
/// `intersection_not_symmetric`: two 6 m cubes, one turned almost exactly 90°, separated by
/// 1.4 mm along a face axis of B (the corner-based SAT of `fuzz_checks::oracle` finds it;
/// the fuzzer found gaps up to 4.2 mm), yet `intersection_test` says they touch, while
/// `contact` (correctly) finds nothing; swapping A and B changes the answer.
///
/// Where: `narrowphase/src/sat/box_box.rs`, the edge × edge axes of `first_separating_axis`:
/// the slack `PARALLEL_EPSILON` is added to `|R|` and so to the projections of the
/// *unnormalised* axis `L = eᵢ × fⱼ`; for nearly parallel edges `|L|` is tiny and the slack,
/// relative to `|L|`, becomes millimetres. Fix: skip edge axes with `|L|² < ε` (the face axes
/// cover parallel edges) or scale the slack by `|L|`.
#[test]
#[ignore = "open bug: box-box intersection_test is conservative by millimetres at near-parallel edges"]
fn near_parallel_boxes_apart_by_a_millimetre_do_not_intersect() {
    check_pair(&PairCase {
        a: ShapeRecipe::Cuboid(Vector::new(3.0, 3.0, 3.0)),
        pose_a: Isometry::from_parts(
            Vector::new(-3.0, -3.0, -3.0).into(),
            Rotation::new_normalize(nalgebra::Quaternion::new(
                0.707_106_77,
                0.0,
                0.707_106_77,
                0.0,
            )),
        ),
        b: ShapeRecipe::Cuboid(Vector::new(3.0, 3.0, 3.0)),
        pose_b: Isometry::from_parts(
            Vector::new(3.0, 3.0, 0.0).into(),
            Rotation::new_normalize(nalgebra::Quaternion::new(
                0.498_423_07,
                0.501_822_95,
                -0.497_917_68,
                -0.501_822_95,
            )),
        ),
    });
}

/// Fuzz target `narrowphase`, input `hull_ball_sliver_depth_not_along_normal`: a small ball
/// centred inside a thin sliver hull gets depth 0.048 m along a normal on which the shapes
/// overlap by 0.129 m (moving the ball by the reported depth along the normal leaves it deep
/// inside). 346 of the narrowphase fuzzer's crashes were hull–ball cases of this kind.
///
/// Where: `narrowphase/src/query/ball_convex.rs`, `contact_convex_ball` (GJK on the centre):
/// on slivers GJK stops with an inaccurate closest point while the centre is inside. Fix:
/// when the GJK distance is below the radius, take the depth from the face planes (the
/// deepest signed distance of the centre, as for a centre inside) and accept the GJK result
/// only when its duality gap is below tolerance.
#[test]
#[ignore = "open bug: contact_convex_ball gives a depth not along its normal for sliver hulls"]
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

/// Fuzz target `world`, input `step_leaves_non_unit_rotation`: after a step, `World::validate`
/// finds a body whose rotation is no longer a unit quaternion (|q| off by more than 1e-3).
///
/// Where: the engine's position integration (`engine/src/step.rs`): the rotation is updated
/// from the angular velocity without renormalising (or with a huge `ω·dt`, where the first-
/// order update is far from unit). Fix: renormalise after every integration, and integrate
/// with the exact exponential map `q ← exp(ω dt / 2) q` for large angles.
#[test]
fn stepping_keeps_every_rotation_unit() {
    let input = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fuzz/regressions/world/step_leaves_non_unit_rotation"
    ))
    .unwrap();
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
/// With the bug present this test aborts the test process (allocation failure), so it is
/// ignored until the fix lands.
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
    let input = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fuzz/regressions/snapshot/restore_allocates_from_unchecked_len"
    ))
    .unwrap();
    tumble_tests::fuzz_checks::check_snapshot(&input);
}
