//! Sweeps (`tumble_narrowphase::sweep`) against dense time sampling of brute-force overlap
//! tests, plus the textbook tunnelling cases.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::math::{Isometry, Point, Real, Rotation, Vector};
use tumble_narrowphase::ray::Plane;
use tumble_narrowphase::sweep::*;

mod common;
use common::{box_distance, point_in_cube, pose_in_cube, segment_distance};

const SAMPLES: usize = 1500;
const TOL: Real = 2.0e-3;

/// Distance from `p` to triangle `abc`: the plane distance when the projection falls inside
/// (barycentric signs), else the nearest edge. A different method from the library's.
fn dist_triangle(p: &Point, a: &Point, b: &Point, c: &Point) -> Real {
    let n = (b - a).cross(&(c - a)).normalize();
    let h = (p - a).dot(&n);
    let proj = p - n * h;
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|(s, e)| (*e - *s).cross(&(proj - *s)).dot(&n) >= 0.0);
    if inside {
        h.abs()
    } else {
        segment_distance(p, a, b)
            .min(segment_distance(p, b, c))
            .min(segment_distance(p, c, a))
    }
}

/// Checks one sweep against a distance oracle over sampled times. `gap(c, t)` is the distance
/// from the sphere's surface to the obstacle at time `t` with the centre at `c` (≤ 0: overlap).
fn check_sweep(
    c0: &Point,
    c1: &Point,
    toi: Option<Toi>,
    gap: impl Fn(&Point, Real) -> Real,
    normal_oracle: impl Fn(&Point, Real) -> Option<Vector>,
) {
    let motion = c1 - c0;
    let tol_t = 1.0e-3 + 2.0 * TOL / motion.norm().max(1e-6);
    let first = (0..=SAMPLES)
        .map(|i| i as Real / SAMPLES as Real)
        .find(|&t| gap(&(c0 + motion * t), t) < -TOL);
    match toi {
        None => assert!(first.is_none(), "sweep missed an overlap at t = {first:?}"),
        Some(toi) => {
            assert!((0.0..=1.0).contains(&toi.t), "t out of range: {}", toi.t);
            assert!((toi.normal.norm() - 1.0).abs() < 1e-4);
            if let Some(ts) = first {
                assert!(
                    ts >= toi.t - tol_t,
                    "overlap sampled at {ts} before toi {}",
                    toi.t
                );
            }
            let c = c0 + motion * toi.t;
            let g = gap(&c, toi.t);
            if toi.t > 0.0 {
                assert!(g.abs() < TOL, "not touching at toi {}: gap {g}", toi.t);
                if let Some(n) = normal_oracle(&c, toi.t) {
                    assert!(
                        (n - toi.normal).norm() < 0.05,
                        "normal {:?} vs oracle {:?}",
                        toi.normal,
                        n
                    );
                }
            } else {
                assert!(g < TOL, "t = 0 reported but the start is apart by {g}");
            }
        }
    }
}

#[test]
fn sphere_cuboid_matches_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut hits = 0;
    for _ in 0..600 {
        let pose = pose_in_cube(&mut rng, 1.0);
        let h = Vector::new(
            rng.gen_range(0.05..1.0),
            rng.gen_range(0.05..1.0),
            rng.gen_range(0.05..1.0),
        );
        let r = rng.gen_range(0.0..0.6);
        let c0 = point_in_cube(&mut rng, 3.0);
        let c1 = point_in_cube(&mut rng, 1.5);
        let toi = sweep_sphere_cuboid(&c0, &c1, r, &pose, &h);
        hits += toi.is_some() as usize;
        check_sweep(
            &c0,
            &c1,
            toi,
            |c, _| box_distance(&pose, &h, c) - r,
            |c, _| {
                // Outward normal by finite differences of the distance field.
                let e = 1e-3;
                let g = Vector::from_fn(|i, _| {
                    let mut d = Vector::zeros();
                    d[i] = e;
                    box_distance(&pose, &h, &(c + d)) - box_distance(&pose, &h, &(c - d))
                });
                g.try_normalize(1e-6)
            },
        );
        if let Some(t) = toi {
            assert!(box_distance(&pose, &h, &t.point) < TOL, "point off the box");
        }
    }
    assert!(hits > 100, "too few hits to be a test: {hits}");
}

#[test]
fn sphere_triangle_matches_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut hits = 0;
    for _ in 0..600 {
        let (a, b, c) = (
            point_in_cube(&mut rng, 1.5),
            point_in_cube(&mut rng, 1.5),
            point_in_cube(&mut rng, 1.5),
        );
        if (b - a).cross(&(c - a)).norm() < 1e-2 {
            continue;
        }
        let r = rng.gen_range(0.0..0.6);
        let c0 = point_in_cube(&mut rng, 3.0);
        let c1 = point_in_cube(&mut rng, 1.5);
        let toi = sweep_sphere_triangle(&c0, &c1, r, &a, &b, &c);
        hits += toi.is_some() as usize;
        check_sweep(
            &c0,
            &c1,
            toi,
            |p, _| dist_triangle(p, &a, &b, &c) - r,
            |p, _| {
                let e = 1e-3;
                let g = Vector::from_fn(|i, _| {
                    let mut d = Vector::zeros();
                    d[i] = e;
                    dist_triangle(&(p + d), &a, &b, &c) - dist_triangle(&(p - d), &a, &b, &c)
                });
                if r > 0.01 {
                    g.try_normalize(1e-6)
                } else {
                    None
                }
            },
        );
        if let Some(t) = toi {
            assert!(
                dist_triangle(&t.point, &a, &b, &c) < TOL,
                "point off the triangle"
            );
        }
    }
    assert!(hits > 100, "too few hits to be a test: {hits}");
}

#[test]
fn sphere_sphere_matches_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut hits = 0;
    for _ in 0..600 {
        let (a0, a1) = (point_in_cube(&mut rng, 3.0), point_in_cube(&mut rng, 1.0));
        let (b0, b1) = (point_in_cube(&mut rng, 1.0), point_in_cube(&mut rng, 1.0));
        let (ra, rb) = (rng.gen_range(0.0..0.8), rng.gen_range(0.0..0.8));
        let toi = sweep_sphere_sphere(&a0, &a1, ra, &b0, &b1, rb);
        hits += toi.is_some() as usize;
        let b_at = |t: Real| b0 + (b1 - b0) * t;
        check_sweep(
            &a0,
            &a1,
            toi,
            |c, t| (c - b_at(t)).norm() - ra - rb,
            |c, t| (c - b_at(t)).try_normalize(1e-6),
        );
        if let Some(t) = toi {
            assert!(
                ((t.point - b_at(t.t)).norm() - rb).abs() < TOL,
                "point off B"
            );
        }
    }
    assert!(hits > 100, "too few hits to be a test: {hits}");
}

#[test]
fn sphere_capsule_matches_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut hits = 0;
    for _ in 0..600 {
        let (a, b) = (point_in_cube(&mut rng, 1.0), point_in_cube(&mut rng, 1.0));
        let (r, rc) = (rng.gen_range(0.0..0.5), rng.gen_range(0.0..0.5));
        let c0 = point_in_cube(&mut rng, 3.0);
        let c1 = point_in_cube(&mut rng, 1.5);
        let toi = sweep_sphere_capsule(&c0, &c1, r, &a, &b, rc);
        hits += toi.is_some() as usize;
        check_sweep(
            &c0,
            &c1,
            toi,
            |p, _| segment_distance(p, &a, &b) - r - rc,
            |p, _| {
                let e = 1e-3;
                Vector::from_fn(|i, _| {
                    let mut d = Vector::zeros();
                    d[i] = e;
                    segment_distance(&(p + d), &a, &b) - segment_distance(&(p - d), &a, &b)
                })
                .try_normalize(1e-6)
            },
        );
        if let Some(t) = toi {
            assert!(
                (segment_distance(&t.point, &a, &b) - rc).abs() < TOL,
                "point off the capsule"
            );
        }
    }
    assert!(hits > 100, "too few hits to be a test: {hits}");
}

#[test]
fn sphere_plane_matches_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    for _ in 0..600 {
        let n = point_in_cube(&mut rng, 1.0).coords;
        let Ok(plane) = Plane::new(n, rng.gen_range(-1.0..1.0)) else {
            continue;
        };
        let r = rng.gen_range(0.0..0.6);
        let c0 = point_in_cube(&mut rng, 3.0);
        let c1 = point_in_cube(&mut rng, 3.0);
        let toi = sweep_sphere_plane(&c0, &c1, r, &plane);
        check_sweep(
            &c0,
            &c1,
            toi,
            |c, _| plane.signed_distance(c).max(0.0) - r,
            |_, _| Some(plane.normal()),
        );
    }
}

/// Box–box overlap oracle independent of the separating-axis method: two convex polyhedra
/// meet iff a corner of one lies in the other or an edge of one crosses the other.
fn boxes_overlap(pa: &Isometry, ha: &Vector, pb: &Isometry, hb: &Vector, shrink: Real) -> bool {
    let corners = |p: &Isometry, h: &Vector| -> Vec<Point> {
        (0..8)
            .map(|k| {
                p * Point::new(
                    if k & 1 == 0 { -h.x } else { h.x },
                    if k & 2 == 0 { -h.y } else { h.y },
                    if k & 4 == 0 { -h.z } else { h.z },
                )
            })
            .collect()
    };
    let segment_hits = |a: &Point, b: &Point, p: &Isometry, h: &Vector| -> bool {
        let (la, lb) = (p.inverse_transform_point(a), p.inverse_transform_point(b));
        let (mut t0, mut t1): (Real, Real) = (0.0, 1.0);
        for i in 0..3 {
            let d = lb[i] - la[i];
            let (lo, hi) = (-h[i] + shrink, h[i] - shrink);
            if d.abs() < 1e-12 {
                if la[i] < lo || la[i] > hi {
                    return false;
                }
            } else {
                let (mut u, mut v) = ((lo - la[i]) / d, (hi - la[i]) / d);
                if u > v {
                    std::mem::swap(&mut u, &mut v);
                }
                t0 = t0.max(u);
                t1 = t1.min(v);
            }
        }
        t0 <= t1
    };
    let edges = [
        (0, 1),
        (2, 3),
        (4, 5),
        (6, 7),
        (0, 2),
        (1, 3),
        (4, 6),
        (5, 7),
        (0, 4),
        (1, 5),
        (2, 6),
        (3, 7),
    ];
    let (ca, cb) = (corners(pa, ha), corners(pb, hb));
    edges
        .iter()
        .any(|&(i, j)| segment_hits(&ca[i], &ca[j], pb, hb))
        || edges
            .iter()
            .any(|&(i, j)| segment_hits(&cb[i], &cb[j], pa, ha))
}

#[test]
fn cuboid_cuboid_matches_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let mut hits = 0;
    for _ in 0..300 {
        let pa = pose_in_cube(&mut rng, 3.0);
        let pb = pose_in_cube(&mut rng, 1.0);
        let mut half = || {
            Vector::new(
                rng.gen_range(0.1..0.8),
                rng.gen_range(0.1..0.8),
                rng.gen_range(0.1..0.8),
            )
        };
        let (ha, hb) = (half(), half());
        let motion = point_in_cube(&mut rng, 1.0).coords - pa.translation.vector;
        let toi = sweep_cuboid_cuboid(&pa, &ha, &motion, &pb, &hb);
        let at = |t: Real| {
            Isometry::from_parts((pa.translation.vector + motion * t).into(), pa.rotation)
        };
        let samples = 400;
        let first = (0..=samples)
            .map(|i| i as Real / samples as Real)
            .find(|&t| boxes_overlap(&at(t), &ha, &pb, &hb, TOL));
        let tol_t = 1.0e-3 + 4.0 * TOL / motion.norm().max(1e-6);
        match toi {
            None => assert!(first.is_none(), "missed overlap at {first:?}"),
            Some(toi) => {
                hits += 1;
                assert!((toi.normal.norm() - 1.0).abs() < 1e-4);
                if let Some(ts) = first {
                    assert!(ts >= toi.t - tol_t, "overlap at {ts} before toi {}", toi.t);
                }
                // At toi the boxes touch: overlapping when grown a little, and (for t > 0)
                // apart when shrunk a little.
                assert!(boxes_overlap(&at(toi.t), &ha, &pb, &hb, -TOL));
                if toi.t > 0.0 {
                    assert!(!boxes_overlap(&at(toi.t), &ha, &pb, &hb, TOL));
                    assert!(box_distance(&pb, &hb, &toi.point) < TOL, "point off B");
                    // The normal opposes the approach, and moving A back along it separates.
                    assert!(toi.normal.dot(&motion) <= 0.0);
                    let back = Isometry::from_parts(
                        (at(toi.t).translation.vector + toi.normal * 0.05).into(),
                        pa.rotation,
                    );
                    assert!(!boxes_overlap(&back, &ha, &pb, &hb, 0.0));
                }
            }
        }
    }
    assert!(hits > 40, "too few hits to be a test: {hits}");
}

/// A ball 4 cm across at 30 m/s toward a wall 5 cm thick, one 1/60 s step: the discrete
/// positions straddle the wall without touching it, the sweep finds the hit.
#[test]
fn tunnelling_ball_through_thin_wall_is_caught() {
    let r = 0.02;
    let h = Vector::new(0.025, 1.0, 1.0);
    let wall = Isometry::identity();
    for speed in [30.0, 300.0] {
        let c0 = Point::new(-0.3, 0.1, 0.0);
        let c1 = c0 + Vector::x() * (speed / 60.0);
        assert!(box_distance(&wall, &h, &c0) > r && box_distance(&wall, &h, &c1) > r);
        let toi = sweep_sphere_cuboid(&c0, &c1, r, &wall, &h).expect("tunnelling missed");
        let expected = (-0.025 - r - c0.x) / (c1.x - c0.x);
        assert!((toi.t - expected).abs() < 1e-5, "{} vs {expected}", toi.t);
        assert!((toi.normal + Vector::x()).norm() < 1e-5);
        assert!((toi.point.x + 0.025).abs() < 1e-5);
        // The same wall as two triangles of its front face.
        let (p, q, s, u) = (
            Point::new(-0.025, -1.0, -1.0),
            Point::new(-0.025, 1.0, -1.0),
            Point::new(-0.025, 1.0, 1.0),
            Point::new(-0.025, -1.0, 1.0),
        );
        let tri = sweep_sphere_triangle(&c0, &c1, r, &p, &q, &s)
            .or_else(|| sweep_sphere_triangle(&c0, &c1, r, &p, &s, &u))
            .expect("triangle wall missed");
        assert!((tri.t - expected).abs() < 1e-5);
        // And a thin box thrown at the wall (box vs box).
        let cube = Vector::repeat(r);
        let pa = Isometry::translation(c0.x, c0.y, c0.z);
        let bb = sweep_cuboid_cuboid(&pa, &cube, &(c1 - c0), &wall, &h).expect("box tunnelled");
        assert!((bb.t - expected).abs() < 1e-5);
        assert!((bb.normal + Vector::x()).norm() < 1e-5);
    }
}

#[test]
fn initial_overlap_reports_zero() {
    let h = Vector::new(1.0, 1.0, 1.0);
    let pose = Isometry::identity();
    let toi = sweep_sphere_cuboid(
        &Point::new(0.9, 0.0, 0.0),
        &Point::new(5.0, 0.0, 0.0),
        0.5,
        &pose,
        &h,
    )
    .unwrap();
    assert_eq!(toi.t, 0.0);
    assert!((toi.normal - Vector::x()).norm() < 1e-6);
    // Centre inside: least-penetration face.
    let toi = sweep_sphere_cuboid(
        &Point::new(0.2, 0.0, 0.7),
        &Point::new(0.0, 0.0, 0.0),
        0.1,
        &pose,
        &h,
    )
    .unwrap();
    assert_eq!(toi.t, 0.0);
    assert!((toi.normal - Vector::z()).norm() < 1e-6);
    let s = sweep_sphere_sphere(
        &Point::origin(),
        &Point::new(1.0, 0.0, 0.0),
        1.0,
        &Point::origin(),
        &Point::origin(),
        1.0,
    )
    .unwrap();
    assert_eq!(s.t, 0.0);
    assert!((s.normal + Vector::x()).norm() < 1e-6, "against the motion");
}

#[test]
fn bad_input_gives_none() {
    let nan = Point::new(Real::NAN, 0.0, 0.0);
    let o = Point::origin();
    let h = Vector::repeat(1.0);
    assert!(sweep_sphere_cuboid(&nan, &o, 0.1, &Isometry::identity(), &h).is_none());
    assert!(sweep_sphere_sphere(&o, &o, -1.0, &o, &o, 1.0).is_none());
    assert!(sweep_sphere_triangle(&o, &nan, 0.1, &o, &o, &o).is_none());
    // No motion and apart: no contact.
    assert!(sweep_sphere_cuboid(
        &Point::new(5.0, 0.0, 0.0),
        &Point::new(5.0, 0.0, 0.0),
        0.1,
        &Isometry::identity(),
        &h
    )
    .is_none());
}

#[test]
fn swept_boxes_hold_the_moving_box() {
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    for _ in 0..200 {
        let p0 = pose_in_cube(&mut rng, 3.0);
        let p1 = if rng.gen_bool(0.5) {
            Isometry::from_parts(point_in_cube(&mut rng, 3.0).coords.into(), p0.rotation)
        } else {
            pose_in_cube(&mut rng, 3.0)
        };
        let h = Vector::new(0.3, 0.6, 0.9);
        let bound = swept_cuboid_aabb(&p0, &p1, &h).loosened(1e-4);
        for i in 0..=20 {
            let t = i as Real / 20.0;
            let pose = Isometry::from_parts(
                p0.translation.vector.lerp(&p1.translation.vector, t).into(),
                p0.rotation.slerp(&p1.rotation, t),
            );
            assert!(bound.contains(&cuboid_aabb(&pose, &h)));
        }
        let c0 = point_in_cube(&mut rng, 3.0);
        let c1 = point_in_cube(&mut rng, 3.0);
        let s = swept_sphere_aabb(&c0, &c1, 0.5);
        assert!(
            s.contains_point(&(c0 + Vector::repeat(0.5)))
                && s.contains_point(&(c1 - Vector::repeat(0.5)))
        );
    }
}

/// A cube thrown corner-first at a box face: the contact point is that corner.
#[test]
fn box_corner_hits_face_at_the_corner() {
    let h = 0.5;
    let rot = Rotation::rotation_between(&Vector::repeat(1.0), &-Vector::x()).unwrap();
    let pa = Isometry::from_parts(Vector::new(5.0, 0.2, -0.1).into(), rot);
    let motion = Vector::new(-8.0, 0.0, 0.0);
    let hb = Vector::new(1.0, 2.0, 2.0);
    let toi = sweep_cuboid_cuboid(&pa, &Vector::repeat(h), &motion, &Isometry::identity(), &hb)
        .expect("hit");
    let reach = h * 3.0_f32.sqrt();
    let expected_t = (5.0 - reach - 1.0) / 8.0;
    assert!(
        (toi.t - expected_t).abs() < 1e-4,
        "{} vs {expected_t}",
        toi.t
    );
    assert!((toi.normal - Vector::x()).norm() < 1e-4);
    assert!(
        (toi.point - Point::new(1.0, 0.2, -0.1)).norm() < 1e-3,
        "{:?}",
        toi.point
    );
}
