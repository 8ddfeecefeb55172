//! Dense random triangle pairs in the neighbourhood of the fuzz inputs
//! `triangle_triangle_depth_not_minimal` and `triangle_triangle_point_outside_the_aabbs`:
//! nearly coplanar, often sliver triangles whose corners lie within a millimetre of a common
//! corner, checked by the narrow-phase fuzz oracle (`check_pair`: depth minimal against the
//! exact SAT over every face, in-plane and edge × edge direction plus 26 fixed ones, points
//! inside both AABBs, symmetry).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble::math::{Isometry, Point, Real, Rotation, Vector};
use tumble_tests::fuzz_checks::input::ShapeRecipe;
use tumble_tests::fuzz_checks::{check_pair, PairCase};

/// A unit vector drawn uniformly on the sphere.
fn unit(rng: &mut ChaCha8Rng) -> Vector {
    loop {
        let v = Vector::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        );
        if (0.1..1.0).contains(&v.norm()) {
            return v.normalize();
        }
    }
}

/// `10^e` for `e` uniform in `lo..hi`.
fn log_uniform(rng: &mut ChaCha8Rng, lo: Real, hi: Real) -> Real {
    (10.0 as Real).powf(rng.gen_range(lo..hi))
}

/// A triangle with corner `c` in the plane ⟂ `n`: one edge along `u`, the third corner near
/// that edge's line (a sliver) or anywhere in the plane.
fn triangle_at(rng: &mut ChaCha8Rng, c: Point, n: &Vector) -> [Point; 3] {
    let u = unit(rng);
    let u = (u - n * n.dot(&u)).normalize();
    let v = n.cross(&u);
    let len = rng.gen_range(0.2..2.0);
    let along = rng.gen_range(-1.0..2.0) * len;
    let off = if rng.gen_bool(0.5) {
        log_uniform(rng, -3.5, -0.5) * if rng.gen_bool(0.5) { 1.0 } else { -1.0 }
    } else {
        rng.gen_range(-1.5..1.5)
    };
    [c, c + u * len, c + u * along + v * off]
}

fn sliver_pair(rng: &mut ChaCha8Rng) -> PairCase {
    let n = unit(rng);
    let c = Point::new(
        rng.gen_range(-0.5..0.5),
        rng.gen_range(-0.5..0.5),
        rng.gen_range(-0.5..0.5),
    );
    let a = triangle_at(rng, c, &n);
    // B's plane turned from A's by 10⁻⁵..0.5 rad, its corner within a millimetre of A's.
    let axis = unit(rng);
    let nb = Rotation::new(axis * log_uniform(rng, -5.0, -0.3)) * n;
    let cb = c + unit(rng) * log_uniform(rng, -6.0, -3.0);
    let b = triangle_at(rng, cb, &nb);
    let t = Vector::repeat(rng.gen_range(-0.5..0.5));
    PairCase {
        a: ShapeRecipe::Triangle(a),
        pose_a: Isometry::translation(t.x, t.y, t.z),
        b: ShapeRecipe::Triangle(b),
        pose_b: Isometry::translation(t.x, t.y, t.z),
    }
}

#[test]
fn nearly_coplanar_slivers_meeting_at_a_corner() {
    let cases: usize = std::env::var("TUMBLE_SLIVER_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..cases {
        check_pair(&sliver_pair(&mut rng));
    }
}
