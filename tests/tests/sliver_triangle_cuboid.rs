//! Dense random triangle–cuboid pairs in the neighbourhood of the fuzz input
//! `cuboid_triangle_sliver_depth_minus_tol_separates`: triangles with one tiny edge
//! (3·10⁻⁷..10⁻³ m) and two long ones, against boxes, overlapping or near touching, checked by
//! the narrow-phase fuzz oracle (`check_pair`: the depth − tol / depth + tol probes along the
//! normal, the exact SAT over the 13 axes plus 26 fixed directions, points inside both AABBs,
//! symmetry). A third of the tiny edges lie along a box axis, as in the fuzz input.

mod common;

use common::unit_vector as unit;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble::math::{Isometry, Point, Real, Rotation, Vector};
use tumble_tests::fuzz_checks::input::ShapeRecipe;
use tumble_tests::fuzz_checks::{check_pair, PairCase};

/// `10^e` for `e` uniform in `lo..hi`.
fn log_uniform(rng: &mut ChaCha8Rng, lo: Real, hi: Real) -> Real {
    (10.0 as Real).powf(rng.gen_range(lo..hi))
}

fn sliver_box_pair(rng: &mut ChaCha8Rng) -> PairCase {
    let he = Vector::new(
        log_uniform(rng, -1.5, 0.5),
        log_uniform(rng, -1.5, 0.5),
        log_uniform(rng, -1.5, 0.5),
    );
    let rot_box = if rng.gen_bool(0.5) {
        Rotation::identity()
    } else {
        Rotation::new(unit(rng) * rng.gen_range(0.0..3.1))
    };
    let t_box = Vector::new(
        rng.gen_range(-3.0..3.0),
        rng.gen_range(-3.0..3.0),
        rng.gen_range(-3.0..3.0),
    );
    // The tiny edge's first corner inside, on or just outside the box (box frame), the long
    // corner anywhere within a few metres.
    let inside = Vector::new(
        rng.gen_range(-1.2..1.2) * he.x,
        rng.gen_range(-1.2..1.2) * he.y,
        rng.gen_range(-1.2..1.2) * he.z,
    );
    let far = unit(rng) * rng.gen_range(0.5..6.0);
    // `Triangle::new` refuses twice-areas below 10⁻⁶ × the longest edge, so tiny edges much
    // under 10⁻⁶ m are only checked to be refused (`check_pair` skips them).
    let tiny = log_uniform(rng, -6.5, -3.0);
    let dir = match rng.gen_range(0..3) {
        0 => Vector::ith(rng.gen_range(0..3), 1.0),
        _ => unit(rng),
    };
    // In the box's frame, then to world (the triangle's own pose is the identity or turned).
    let to_world = Isometry::from_parts(t_box.into(), rot_box);
    let local = [far, inside, inside + dir * tiny].map(|c| to_world * Point::from(c));
    let (pose_t, tri) = if rng.gen_bool(0.5) {
        (Isometry::identity(), local)
    } else {
        let pose = Isometry::from_parts(
            Vector::repeat(rng.gen_range(-3.0..3.0)).into(),
            Rotation::new(unit(rng) * rng.gen_range(0.0..3.1)),
        );
        (pose, local.map(|c| pose.inverse_transform_point(&c)))
    };
    let (tri, boxed) = (
        (ShapeRecipe::Triangle(tri), pose_t),
        (ShapeRecipe::Cuboid(he), to_world),
    );
    let ((a, pose_a), (b, pose_b)) = if rng.gen_bool(0.5) {
        (boxed, tri)
    } else {
        (tri, boxed)
    };
    PairCase {
        a,
        pose_a,
        b,
        pose_b,
    }
}

#[test]
fn sliver_triangles_against_boxes() {
    let cases = common::case_count("TUMBLE_SLIVER_CASES", 20_000);
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut built = 0;
    for _ in 0..cases {
        let case = sliver_box_pair(&mut rng);
        built += (case.a.build().is_some() && case.b.build().is_some()) as usize;
        check_pair(&case);
    }
    // Most of these slivers must pass `Triangle::new` and so be tested.
    assert!(built * 5 >= cases * 3, "{built} of {cases} cases built");
}
