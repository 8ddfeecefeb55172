//! Ray casts (`tumble_narrowphase::ray`) against dense sampling along the ray of brute-force
//! signed-distance oracles, plus named cases (axis-parallel rays, inside starts, bad input).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::bounding::Aabb;
use tumble_narrowphase::math::{Isometry, Point, Real, Rotation, Vector};
use tumble_narrowphase::ray::*;

mod common;
use common::{box_signed_distance, direction, point_in_cube, segment_distance};

const SAMPLES: usize = 3000;
const TOL: Real = 2.0e-3;

/// A ray from around the shapes toward the middle, with a random length of `dir`.
fn rand_ray(rng: &mut ChaCha8Rng) -> (Ray, Real) {
    let o = point_in_cube(rng, 3.0);
    let target = point_in_cube(rng, 1.2);
    let dir = (target - o) * rng.gen_range(0.3..2.0);
    let ray = Ray::new(o, dir).expect("valid ray");
    (ray, rng.gen_range(0.2..3.0))
}

/// True when `p` (on the box surface) is at least 5 mm from every edge of the box.
fn off_edges(p: &Point, pose: &Isometry, h: &Vector) -> bool {
    let l = pose.inverse_transform_point(p);
    (0..3).filter(|&i| l[i].abs() > h[i] - 5e-3).count() <= 1
}

fn gradient(sdf: &impl Fn(&Point) -> Real, p: &Point) -> Option<Vector> {
    let e = 1e-3;
    Vector::from_fn(|i, _| {
        let mut d = Vector::zeros();
        d[i] = e;
        sdf(&(p + d)) - sdf(&(p - d))
    })
    .try_normalize(1e-6)
}

/// Checks a solid's hit against sampling `sdf` (negative inside) along the ray.
/// `check_normal(p)` says whether the surface is smooth enough at `p` to compare the normal
/// with the finite-difference gradient of `sdf` (not within a few mm of a box edge).
fn check_solid(
    ray: &Ray,
    max_t: Real,
    hit: Option<RayHit>,
    sdf: impl Fn(&Point) -> Real,
    check_normal: impl Fn(&Point) -> bool,
) -> bool {
    let dt = max_t / SAMPLES as Real;
    let first = (0..=SAMPLES)
        .map(|i| i as Real * dt)
        .find(|&t| sdf(&ray.point_at(t)) < -TOL);
    let Some(hit) = hit else {
        assert!(first.is_none(), "missed: inside at t = {first:?}");
        return false;
    };
    assert!(
        hit.t >= 0.0 && hit.t <= max_t,
        "t = {} outside [0, {max_t}]",
        hit.t
    );
    assert!((hit.normal.norm() - 1.0).abs() < 1e-4, "normal not unit");
    assert!(
        hit.normal.dot(&ray.dir()) <= 1e-4 * ray.dir().norm(),
        "normal faces along the ray"
    );
    assert!((hit.point - ray.point_at(hit.t)).norm() < 1e-4);
    let scale = ray.dir().norm();
    if let Some(ts) = first {
        assert!(
            ts >= hit.t - dt - TOL / scale,
            "inside at {ts} before hit at {}",
            hit.t
        );
    }
    let d = sdf(&hit.point);
    if hit.t > 0.0 {
        assert!(d.abs() < TOL, "hit point off the surface by {d}");
        if check_normal(&hit.point) {
            if let Some(g) = gradient(&sdf, &hit.point) {
                assert!(
                    (g - hit.normal).norm() < 0.05,
                    "normal {:?} vs {g:?}",
                    hit.normal
                );
            }
        }
    } else {
        assert!(d < TOL, "t = 0 but the origin is outside by {d}");
    }
    true
}

#[test]
fn sphere_matches_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let mut hits = 0;
    for _ in 0..800 {
        let (ray, max_t) = rand_ray(&mut rng);
        let c = point_in_cube(&mut rng, 1.0);
        let r = rng.gen_range(0.0..1.2);
        let hit = ray_sphere(&ray, &c, r, max_t);
        hits += check_solid(&ray, max_t, hit, |p| (p - c).norm() - r, |_| true) as usize;
    }
    assert!(hits > 100, "{hits}");
}

#[test]
fn aabb_and_cuboid_match_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let mut hits = 0;
    for _ in 0..800 {
        let (ray, max_t) = rand_ray(&mut rng);
        let h = Vector::new(
            rng.gen_range(0.0..1.0),
            rng.gen_range(0.0..1.0),
            rng.gen_range(0.0..1.0),
        );
        let c = point_in_cube(&mut rng, 1.0);
        let aabb = Aabb::from_center_half_extents(c, h).unwrap();
        let id = Isometry::translation(c.x, c.y, c.z);
        let hit = ray_aabb(&ray, &aabb, max_t);
        hits += check_solid(
            &ray,
            max_t,
            hit,
            |p| box_signed_distance(&id, &h, p),
            |p| off_edges(p, &id, &h),
        ) as usize;
        let pose = Isometry::from_parts(
            c.coords.into(),
            Rotation::from_scaled_axis(direction(&mut rng) * 2.0),
        );
        let hit = ray_cuboid(&ray, &pose, &h, max_t);
        hits += check_solid(
            &ray,
            max_t,
            hit,
            |p| box_signed_distance(&pose, &h, p),
            |p| off_edges(p, &pose, &h),
        ) as usize;
    }
    assert!(hits > 150, "{hits}");
}

#[test]
fn capsule_matches_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mut hits = 0;
    for _ in 0..800 {
        let (ray, max_t) = rand_ray(&mut rng);
        let a = point_in_cube(&mut rng, 1.0);
        let b = if rng.gen_bool(0.05) {
            a
        } else {
            point_in_cube(&mut rng, 1.0)
        };
        let r = rng.gen_range(0.0..0.8);
        let hit = ray_capsule(&ray, &a, &b, r, max_t);
        let sdf = |p: &Point| {
            if a == b {
                (p - a).norm() - r
            } else {
                segment_distance(p, &a, &b) - r
            }
        };
        hits += check_solid(&ray, max_t, hit, sdf, |_| true) as usize;
    }
    assert!(hits > 100, "{hits}");
}

#[test]
fn convex_polyhedron_matches_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let mut hits = 0;
    for _ in 0..400 {
        let (ray, max_t) = rand_ray(&mut rng);
        let centre = point_in_cube(&mut rng, 0.5);
        let planes: Vec<Plane> = (0..rng.gen_range(4..16))
            .map(|_| {
                let n = direction(&mut rng);
                Plane::from_point_normal(&(centre + n * rng.gen_range(0.3..1.0)), n).unwrap()
            })
            .collect();
        let hit = ray_convex_polyhedron(&ray, &planes, max_t);
        let sdf = |p: &Point| {
            planes
                .iter()
                .map(|pl| pl.signed_distance(p))
                .fold(Real::NEG_INFINITY, Real::max)
        };
        if check_solid(&ray, max_t, hit, sdf, |_| false) {
            hits += 1;
            let h = hit.unwrap();
            if h.t > 0.0 {
                assert!(planes
                    .iter()
                    .any(|pl| (pl.normal() - h.normal).norm() < 1e-5
                        && pl.signed_distance(&h.point).abs() < TOL));
            }
        }
    }
    assert!(hits > 100, "{hits}");
}

#[test]
fn box_as_six_planes_agrees_with_ray_cuboid() {
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    for _ in 0..500 {
        let (ray, max_t) = rand_ray(&mut rng);
        let pose = Isometry::from_parts(
            point_in_cube(&mut rng, 1.0).coords.into(),
            Rotation::from_scaled_axis(direction(&mut rng)),
        );
        let h = Vector::new(0.3, 0.5, 0.7);
        let planes: Vec<Plane> = (0..6)
            .map(|k| {
                let mut n = Vector::zeros();
                n[k % 3] = if k < 3 { 1.0 } else { -1.0 };
                let nw = pose.rotation * n;
                Plane::from_point_normal(&(pose * Point::from(n.component_mul(&h))), nw).unwrap()
            })
            .collect();
        let a = ray_cuboid(&ray, &pose, &h, max_t);
        let b = ray_convex_polyhedron(&ray, &planes, max_t);
        match (a, b) {
            (None, None) => {}
            (Some(a), Some(b)) => {
                assert!((a.t - b.t).abs() < 1e-4);
                assert!((a.normal - b.normal).norm() < 1e-4 || a.t < 1e-4);
            }
            _ => {
                // Only a grazing ray may disagree.
                let h = a.or(b).unwrap();
                assert!(
                    box_signed_distance(&pose, &Vector::new(0.3, 0.5, 0.7), &h.point).abs() < 1e-4
                );
            }
        }
    }
}

#[test]
fn triangle_matches_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    let mut hits = 0;
    for _ in 0..800 {
        let (ray, max_t) = rand_ray(&mut rng);
        let (a, b, c) = (
            point_in_cube(&mut rng, 1.5),
            point_in_cube(&mut rng, 1.5),
            point_in_cube(&mut rng, 1.5),
        );
        let Some(n) = (b - a).cross(&(c - a)).try_normalize(1e-2) else {
            continue;
        };
        let hit = ray_triangle(&ray, &a, &b, &c, max_t);
        // Oracle: the plane crossing of the segment [0, max_t], inside the triangle by
        // barycentric signs (tested on a slightly shrunk/grown triangle).
        let s0 = (ray.origin() - a).dot(&n);
        let s1 = (ray.point_at(max_t) - a).dot(&n);
        let crossing = (s0.signum() != s1.signum()).then(|| s0 / (s0 - s1));
        let inside = |p: &Point, margin: Real| {
            [(a, b), (b, c), (c, a)].iter().all(|(s, e)| {
                let edge = *e - *s;
                edge.cross(&(p - *s)).dot(&n) / edge.norm() >= margin
            })
        };
        match (hit, crossing) {
            (Some(h), _) => {
                hits += 1;
                assert!((h.point - a).dot(&n).abs() < TOL);
                assert!(inside(&h.point, -TOL));
                assert!((h.normal.dot(&n).abs() - 1.0).abs() < 1e-4);
                assert!(h.normal.dot(&ray.dir()) <= 0.0);
                assert!(h.t >= 0.0 && h.t <= max_t);
            }
            (None, Some(f)) => {
                let p = ray.point_at(f * max_t);
                assert!(!inside(&p, TOL), "missed a crossing inside the triangle");
            }
            (None, None) => {}
        }
    }
    assert!(hits > 50, "{hits}");
}

#[test]
fn axis_parallel_rays_do_not_produce_nan() {
    let aabb = Aabb::new(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0)).unwrap();
    // Along +x in the plane y = 0 (on a face): grazing counts as a hit.
    let r = Ray::new(Point::new(-1.0, 0.0, 0.5), Vector::x()).unwrap();
    let h = ray_aabb(&r, &aabb, 10.0).unwrap();
    assert_eq!(h.t, 1.0);
    assert_eq!(h.normal, -Vector::x());
    // Parallel, outside the y slab: miss.
    let r = Ray::new(Point::new(-1.0, -0.01, 0.5), Vector::x()).unwrap();
    assert!(ray_aabb(&r, &aabb, 10.0).is_none());
    // Straight down onto the top face.
    let r = Ray::new(Point::new(0.5, 0.5, 3.0), Vector::new(0.0, 0.0, -2.0)).unwrap();
    let h = ray_aabb(&r, &aabb, 10.0).unwrap();
    assert_eq!(h.t, 1.0);
    assert_eq!(h.normal, Vector::z());
    // max_t too short.
    assert!(ray_aabb(&r, &aabb, 0.99).is_none());
}

#[test]
fn origin_inside_reports_zero_against_the_ray() {
    let r = Ray::new(Point::new(0.1, 0.0, 0.0), Vector::new(0.0, 2.0, 0.0)).unwrap();
    for h in [
        ray_sphere(&r, &Point::origin(), 1.0, 5.0),
        ray_cuboid(&r, &Isometry::identity(), &Vector::repeat(1.0), 5.0),
        ray_capsule(&r, &Point::origin(), &Point::new(0.0, 0.0, 1.0), 0.5, 5.0),
        ray_convex_polyhedron(&r, &[Plane::new(Vector::y(), 1.0).unwrap()], 5.0),
    ] {
        let h = h.unwrap();
        assert_eq!(h.t, 0.0);
        assert_eq!(h.normal, -Vector::y());
        assert_eq!(h.point, r.origin());
    }
}

#[test]
fn infinite_max_t_agrees_with_a_long_finite_one() {
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    for _ in 0..200 {
        let (ray, _) = rand_ray(&mut rng);
        let c = point_in_cube(&mut rng, 1.0);
        assert_eq!(
            ray_sphere(&ray, &c, 0.5, Real::INFINITY),
            ray_sphere(&ray, &c, 0.5, 1.0e6)
        );
    }
}

#[test]
fn bad_input_is_refused() {
    let o = Point::origin();
    assert!(Ray::new(o, Vector::zeros()).is_err());
    assert!(Ray::new(o, Vector::new(Real::NAN, 1.0, 0.0)).is_err());
    assert!(Ray::new(Point::new(Real::INFINITY, 0.0, 0.0), Vector::x()).is_err());
    assert!(
        Ray::new(o, Vector::new(1e-30, 0.0, 0.0)).is_err(),
        "|dir|² underflows"
    );
    assert!(Plane::new(Vector::zeros(), 1.0).is_err());
    let r = Ray::new(Point::new(-5.0, 0.0, 0.0), Vector::x()).unwrap();
    assert!(ray_sphere(&r, &o, 1.0, Real::NAN).is_none());
    assert!(ray_sphere(&r, &o, 1.0, -1.0).is_none());
    assert!(ray_sphere(&r, &o, Real::NAN, 10.0).is_none());
    // Degenerate triangle never hits, never NaNs.
    let a = Point::new(0.0, -1.0, 0.0);
    let b = Point::new(0.0, 1.0, 0.0);
    assert!(ray_triangle(&r, &a, &b, &b, 10.0).is_none());
}
