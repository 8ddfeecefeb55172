//! Regressions of capsule–ball and capsule–capsule contacts: normals across the core(s) of
//! centres on or near a core, of coaxial, nearly parallel and crossing capsules; least depths;
//! unit normals; the f64 closest points of nearly parallel cores.
//!
//! One named test per bug the fuzzers found (see `fuzz/`), written as the smallest case that
//! shows it; the raw crash inputs are in `fuzz/regressions/<target>/` (replayed by
//! `fuzz_replay` on every test run). A test of an open bug is `#[ignore]`d with the reason, and
//! its inputs wait in `fuzz/regressions/open/<target>/` until the fix lands.

mod common;

use common::fuzz_inputs::{printed_pose, stored_case};
use tumble::math::{Isometry, Point, Real, Rotation, Vector};
use tumble::narrowphase::query::{contact, intersection_test};
use tumble::narrowphase::shape::{Ball, Capsule, Shape};
use tumble_tests::fuzz_checks::input::ShapeRecipe;
use tumble_tests::fuzz_checks::{check_pair, PairCase};

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

/// Fuzz target `narrowphase`: two capsules on one vertical line (A turned upside
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

/// Fuzz target `narrowphase`, input `capsule_ball_centre_near_core_normal_tilted` (198
/// capsule–ball cases): a ball centre 9·10⁻⁵ m from a 3 m capsule core got a normal tilted by
/// 0.1° towards the axis, where the capsule reaches far: the overlap along it was 1.9 mm more
/// than the depth. Rounding of the closest core point (one ulp of the coordinates, 2·10⁻⁷ m)
/// divided by the tiny distance.
///
/// Where: `narrowphase/src/query/capsule_round.rs`, `contact_capsule_ball`. Fixed: for a
/// closest point inside the core, the axis component is removed from the centre's offset
/// (twice), and the manifold is built from that offset itself rather than from two points
/// whose difference rounds it again.
#[test]
fn capsule_ball_normal_is_across_the_core_when_the_centre_is_near_it() {
    let case = stored_case("narrowphase", "capsule_ball_centre_near_core_normal_tilted");
    check_pair(&case);
    let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
    let m = contact(&case.pose_a, &a, &case.pose_b, &b, 0.0)
        .unwrap()
        .expect("they overlap");
    let axis = case.pose_a.rotation * Vector::y();
    assert!(
        m.normal.dot(&axis).abs() < 1e-5,
        "normal {:?} leans along the capsule's axis {axis:?}",
        m.normal
    );
}

/// Fuzz target `narrowphase`, input `capsule_capsule_near_coaxial_normal_tilted` (157 cases):
/// two capsules with parallel cores 9·10⁻⁵ m apart got a normal tilted by 0.15° along the
/// axes, overlapping by 11 mm more than the depth. Same rounding as
/// `capsule_ball_normal_is_across_the_core_when_the_centre_is_near_it`; where:
/// `contact_capsule_capsule`. Fixed the same way (across both cores when the closest points
/// are inside both: along `da × db`; across the one core otherwise).
#[test]
fn nearly_coaxial_capsules_get_a_normal_across_their_axes() {
    check_pair(&stored_case(
        "narrowphase",
        "capsule_capsule_near_coaxial_normal_tilted",
    ));
}

/// Fuzz target `narrowphase`, input `capsule_capsule_nearly_parallel_mid_pair_too_far`
/// (12): capsules whose cores are within the two-point "parallel" sine (10⁻²) but converge
/// within their overlap: the pair facing each other at the middle of the overlap is farther
/// apart than the true closest pair, so the pair depth came out 5 mm shallower than a point's.
///
/// Where: `narrowphase/src/query/capsule_round.rs`, `contact_capsule_capsule`. Fixed: the
/// middle pair is used only when it is not farther apart (across A's core) than the segment
/// routine's.
#[test]
fn nearly_parallel_capsules_take_the_closer_pair() {
    check_pair(&stored_case(
        "narrowphase",
        "capsule_capsule_nearly_parallel_mid_pair_too_far",
    ));
}

/// Fuzz target `narrowphase`, inputs
/// `capsule_capsule_nearly_parallel_normal_not_minimal` (1: cores 2·10⁻⁴ rad from parallel,
/// normal across A's core but leaning 10⁻³ along B's, 2 mm too little depth),
/// `capsule_capsule_nearly_parallel_point_deeper` (3: a point 15 mm deeper than the pair) and
/// `capsule_capsule_coaxial_same_pose_normal_along_axis` (2: coaxial capsules at one pose,
/// normal 0.07 along the axis from the rounding noise of `da × db`, 0.2 m too little depth).
///
/// Where: `narrowphase/src/query/capsule_round.rs`, `contact_capsule_capsule`. Fixed: the depth
/// along a unit `n` is `ra + rb − sep(n)` with `sep` the cores' gap along `n`, so the candidate
/// directions (the closest pair's, across either core, across both when `da × db` is above its
/// rounding floor, a fixed perpendicular of coaxial cores) compete on `sep`; the winner gives
/// the normal and the depth together.
#[test]
fn nearly_parallel_capsules_get_a_least_depth_normal() {
    for name in [
        "capsule_capsule_nearly_parallel_normal_not_minimal",
        "capsule_capsule_nearly_parallel_point_deeper",
        "capsule_capsule_coaxial_same_pose_normal_along_axis",
    ] {
        check_pair(&stored_case("narrowphase", name));
    }
}

/// Fuzz target `narrowphase`, input `capsule_capsule_depth_minus_tol_separates`: two
/// capsules (half-height = radius = 2.39 m) 2.3·10⁻⁴ rad from parallel, 0.116 m apart, got
/// the right depth 4.6577 m, but moved apart along the normal by depth − tol (1.4 mm still
/// overlapping) the boolean test said apart.
///
/// Where: `narrowphase/src/contact/closest.rs`, `closest_points_segments`: the f32
/// denominator `|d1|²|d2|² − (d1·d2)²` is sin² ≈ 5·10⁻⁸ of its terms, below one ulp, so the
/// routine took the parallel branch `s = 0`, a pair 1.1 mm (`|d1| sin`) farther apart than
/// the closest. Fixed: below a sine of 10⁻² the parameters are solved in f64.
#[test]
fn nearly_parallel_capsules_moved_by_depth_minus_tol_still_touch() {
    let case = PairCase {
        a: ShapeRecipe::Capsule(2.386_862_8, 2.386_862_8),
        pose_a: printed_pose(
            [0.499_941_26, 0.499_941_26, 0.499_941_26, 0.500_176_25],
            [1.752_941_1, 1.635_751_7, 1.752_941_1],
        ),
        b: ShapeRecipe::Capsule(2.386_862_8, 2.386_862_8),
        pose_b: printed_pose(
            [0.499_941_26, 0.499_941_26, 0.500_176_25, 0.499_941_26],
            [1.752_941_1, 1.752_941_1, 1.752_941_1],
        ),
    };
    check_pair(&case);
    check_pair(&stored_case(
        "narrowphase",
        "capsule_capsule_depth_minus_tol_separates",
    ));
    // The closest points of the two cores against a dense sampling of both.
    let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
    let core = |pose: &Isometry| {
        [
            pose * Point::new(0.0, -2.386_862_8, 0.0),
            pose * Point::new(0.0, 2.386_862_8, 0.0),
        ]
    };
    let (ca, cb) = (core(&case.pose_a), core(&case.pose_b));
    let (pa, pb, _, _) = tumble::narrowphase::contact::closest::closest_points_segments(
        &ca[0], &ca[1], &cb[0], &cb[1],
    );
    let mut best = Real::INFINITY;
    for i in 0..=400 {
        for j in 0..=400 {
            let p = ca[0] + (ca[1] - ca[0]) * (i as Real / 400.0);
            let q = cb[0] + (cb[1] - cb[0]) * (j as Real / 400.0);
            best = best.min((p - q).norm());
        }
    }
    assert!(
        (pa - pb).norm() <= best + 1e-5,
        "{} vs sampled {best}",
        (pa - pb).norm()
    );
    assert!(intersection_test(&case.pose_a, &a, &case.pose_b, &b).unwrap());
}

/// Fuzz target `narrowphase`, input `capsule_capsule_coaxial_normal_tilted`: two
/// capsules on one pose (half-heights 1 and 0.5, radii 2.25 and 0.05), so their cores are
/// coaxial, got depth 2.3 (the sum of the radii, right) along a normal 6.5 mrad off the
/// perpendicular of the axis, along which they overlap by 2.31 m.
///
/// Where: `narrowphase/src/query/capsule_round.rs`, `contact_capsule_capsule`: the winning
/// candidate (exactly across the axis) had a gap of 2.4·10⁻⁷ m, too small for its own
/// direction, and the sphere contact fell back to the normalised cross product of the two
/// core directions — rounding noise for coaxial cores. The winner is now the fallback too.
#[test]
fn coaxial_capsules_on_one_pose_get_a_normal_across_the_axis() {
    let case = stored_case("narrowphase", "capsule_capsule_coaxial_normal_tilted");
    check_pair(&case);
    let rot = Rotation::new_unchecked(nalgebra::Quaternion::new(
        -0.045_044_493,
        -0.997_780_86,
        -0.046_642_058,
        -0.015_127_752,
    ));
    let pose = Isometry::from_parts(nalgebra::Translation3::new(3.0, -2.5, 2.0), rot);
    let a = Shape::from(Capsule::new(1.0, 2.25).unwrap());
    let b = Shape::from(Capsule::new(0.5, 0.05).unwrap());
    let m = contact(&pose, &a, &pose, &b, 0.0)
        .unwrap()
        .expect("coaxial capsules overlap");
    let axis = rot * Vector::y();
    assert!(m.normal.dot(&axis).abs() < 1e-5, "normal {:?}", m.normal);
    assert!((m.depth() - 2.3).abs() < 1e-5, "depth {}", m.depth());
}

/// Fuzz target `narrowphase`, input `capsule_capsule_crossing_depth_minus_tol_separates`: two capsules on one centre, cores
/// crossing at right angles, got depth 2.75 (the sum of the radii, right) along a "unit"
/// normal of length 1.00043, so moving B by depth − tol along it already separated them.
///
/// Where: `narrowphase/src/query/capsule_round.rs`, `contact_capsule_capsule`: the candidate
/// directions between coincident closest points are a few 10⁻²⁰ m long, their squared norm
/// subnormal in f32, and `try_normalize` lost digits. They are now scaled by their largest
/// component before normalising (`unit_of`).
#[test]
fn crossing_capsules_on_one_centre_get_a_unit_normal() {
    let case = stored_case(
        "narrowphase",
        "capsule_capsule_crossing_depth_minus_tol_separates",
    );
    let (a, b) = (case.a.build().unwrap(), case.b.build().unwrap());
    let m = contact(&case.pose_a, &a, &case.pose_b, &b, 0.0)
        .unwrap()
        .expect("crossing capsules overlap");
    assert!(
        (m.normal.norm() - 1.0).abs() < 1e-6,
        "|n| = {}",
        m.normal.norm()
    );
    assert!((m.depth() - 2.75).abs() < 1e-5, "depth {}", m.depth());
    check_pair(&case);
}
