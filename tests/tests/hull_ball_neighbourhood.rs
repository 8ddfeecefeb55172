//! Property tests in the neighbourhood of the fuzz input `hull_ball_depth_not_minimal`
//! (fixed in `regressions_ball_polyhedron.rs`): balls against hulls of point clouds with repeated
//! and near-duplicate points — sliver hulls (a plane of points with one corner lifted off it
//! by 10⁻⁵ to 10⁻¹ m) and general clouds — with the centre just beyond an edge, beside a
//! corner, on the (near) plane of a sliver, or inside. Each case is judged by the fuzz
//! checks' oracle (`fuzz_checks::check_pair`: depth minimal against the SAT over every
//! triple's normal and the corner directions, depth − tol still touching, point inside both
//! AABBs, boolean test agreeing, both orders).
//!
//! `TUMBLE_HULL_BALL_CASES` sets the number of cases per family (default 12 000: about two seconds).

mod common;

use common::unit_vector as unit;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble::math::{Isometry, Point, Real, Rotation, Vector};
use tumble_tests::fuzz_checks::input::ShapeRecipe;
use tumble_tests::fuzz_checks::{check_pair, PairCase};

fn cases() -> usize {
    std::env::var("TUMBLE_HULL_BALL_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12_000)
}

/// `10^e` for `e` uniform in `lo..hi`.
fn log_uniform(rng: &mut ChaCha8Rng, lo: Real, hi: Real) -> Real {
    (10.0 as Real).powf(rng.gen_range(lo..hi))
}

/// `±10^e`, `e` uniform in `lo..hi`.
fn signed_log(rng: &mut ChaCha8Rng, lo: Real, hi: Real) -> Real {
    log_uniform(rng, lo, hi) * if rng.gen_bool(0.5) { 1.0 } else { -1.0 }
}

/// Repeats some points exactly and adds near-duplicates (10⁻⁶ to 10⁻³ m away) of others.
fn with_repeats(rng: &mut ChaCha8Rng, mut pts: Vec<Point>) -> Vec<Point> {
    let n = pts.len();
    for _ in 0..rng.gen_range(1..=4) {
        let p = pts[rng.gen_range(0..n)];
        if rng.gen_bool(0.5) {
            pts.push(p);
        } else {
            pts.push(p + unit(rng) * log_uniform(rng, -6.0, -3.0));
        }
    }
    // Shuffle so repeats are not always last (the hull builder adds points in order).
    for i in (1..pts.len()).rev() {
        pts.swap(i, rng.gen_range(0..=i));
    }
    pts
}

/// A sliver cloud: 3 to 6 points in the plane ⟂ `n` through the origin, one or two lifted
/// off it by a tiny height.
fn sliver_cloud(rng: &mut ChaCha8Rng, n: &Vector) -> Vec<Point> {
    let u = unit(rng);
    let u = (u - n * n.dot(&u)).normalize();
    let v = n.cross(&u);
    let mut pts: Vec<Point> = (0..rng.gen_range(3..=6))
        .map(|_| Point::from(u * rng.gen_range(-2.0..2.0) + v * rng.gen_range(-2.0..2.0)))
        .collect();
    for _ in 0..rng.gen_range(1..=2) {
        let k = rng.gen_range(0..pts.len());
        let lifted = pts[k] + n * signed_log(rng, -5.0, -1.0);
        pts.push(lifted);
    }
    pts
}

/// A general cloud of 4 to 8 points in [−2, 2]³.
fn general_cloud(rng: &mut ChaCha8Rng) -> Vec<Point> {
    (0..rng.gen_range(4..=8))
        .map(|_| {
            Point::new(
                rng.gen_range(-2.0..2.0),
                rng.gen_range(-2.0..2.0),
                rng.gen_range(-2.0..2.0),
            )
        })
        .collect()
}

/// A centre near the cloud's features (local frame): a point on the segment between two
/// points (an edge, or through the inside) moved off by a tiny or small amount — across the
/// sliver's plane `n` or within it — or beside a corner, or a convex combination (inside).
fn centre_near(rng: &mut ChaCha8Rng, pts: &[Point], n: Option<&Vector>) -> Point {
    let a = pts[rng.gen_range(0..pts.len())];
    let b = pts[rng.gen_range(0..pts.len())];
    let on = a + (b - a) * rng.gen_range(-0.1..1.1);
    let mut dir = unit(rng);
    if let Some(n) = n {
        if rng.gen_bool(0.6) {
            // Within the sliver's plane (as in the fuzz input), or exactly across it.
            dir = if rng.gen_bool(0.8) {
                (dir - n * n.dot(&dir)).try_normalize(1e-3).unwrap_or(dir)
            } else {
                *n
            };
        }
    }
    match rng.gen_range(0..4) {
        0 => a + unit(rng) * signed_log(rng, -5.0, 0.0),
        1 => {
            let w: Vec<Real> = pts.iter().map(|_| rng.gen_range(0.0..1.0)).collect();
            let total: Real = w.iter().sum::<Real>().max(1e-6);
            Point::from(
                pts.iter()
                    .zip(&w)
                    .map(|(p, w)| p.coords * (w / total))
                    .sum::<Vector>(),
            )
        }
        _ => on + dir * signed_log(rng, -5.0, 0.0),
    }
}

fn random_pose(rng: &mut ChaCha8Rng) -> Isometry {
    let rot = if rng.gen_bool(0.3) {
        Rotation::identity()
    } else {
        Rotation::from_axis_angle(
            &nalgebra::Unit::new_normalize(unit(rng)),
            rng.gen_range(0.0..std::f32::consts::TAU),
        )
    };
    let t = Vector::new(
        rng.gen_range(-3.0..3.0),
        rng.gen_range(-3.0..3.0),
        rng.gen_range(-3.0..3.0),
    );
    Isometry::from_parts(t.into(), rot)
}

/// The hull and the ball in both orders.
fn check_both(hull: Vec<Point>, pose_a: Isometry, centre: Point, radius: Real) {
    let pose_b = Isometry::translation(centre.x, centre.y, centre.z);
    let ab = PairCase {
        a: ShapeRecipe::Hull(hull),
        pose_a,
        b: ShapeRecipe::Ball(radius),
        pose_b,
    };
    check_pair(&ab);
    check_pair(&PairCase {
        a: ab.b.clone(),
        pose_a: ab.pose_b,
        b: ab.a.clone(),
        pose_b: ab.pose_a,
    });
}

#[test]
fn ball_against_sliver_hulls_with_repeated_points() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5117_e4b1);
    for _ in 0..cases() {
        // Axis-aligned planes (like the fuzz input's y = z) half the time.
        let n = if rng.gen_bool(0.5) {
            [
                Vector::x(),
                Vector::y(),
                Vector::new(0.0, 1.0, -1.0).normalize(),
                Vector::new(1.0, 1.0, 1.0).normalize(),
            ][rng.gen_range(0..4)]
        } else {
            unit(&mut rng)
        };
        let pts = sliver_cloud(&mut rng, &n);
        let centre = centre_near(&mut rng, &pts, Some(&n));
        let pts = with_repeats(&mut rng, pts);
        let pose = random_pose(&mut rng);
        let radius = log_uniform(&mut rng, -2.0, 0.0);
        check_both(pts, pose, pose * centre, radius);
    }
}

#[test]
fn ball_against_hulls_of_clouds_with_repeated_points() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xc10d_ba11);
    for _ in 0..cases() {
        let pts = general_cloud(&mut rng);
        let centre = centre_near(&mut rng, &pts, None);
        let pts = with_repeats(&mut rng, pts);
        let pose = random_pose(&mut rng);
        let radius = log_uniform(&mut rng, -2.0, 0.0);
        check_both(pts, pose, pose * centre, radius);
    }
}
