//! No NaN escapes: every ray cast, sweep, bounding-sphere and planar function fed extreme,
//! degenerate and non-finite values either refuses them (`None` / `Err`) or answers without a
//! NaN in any field.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::bounding::{Aabb, BoundingSphere};
use tumble_narrowphase::math::{Isometry, Point, Point2, Real, Rotation, Vector, Vector2};
use tumble_narrowphase::planar::*;
use tumble_narrowphase::ray::*;
use tumble_narrowphase::sweep::*;

const POOL: [Real; 16] = [
    0.0,
    -0.0,
    1.0e-40,
    Real::MIN_POSITIVE,
    1.0e-20,
    1.0e-7,
    0.5,
    1.0,
    2.0,
    1.0e7,
    1.0e18,
    1.0e30,
    Real::MAX,
    Real::INFINITY,
    Real::NAN,
    1.0,
];

fn scalar(rng: &mut ChaCha8Rng) -> Real {
    if rng.gen_bool(0.5) {
        // Mostly ordinary values, so that hits happen.
        return rng.gen_range(-2.0..2.0);
    }
    let v = POOL[rng.gen_range(0..POOL.len())];
    if rng.gen_bool(0.5) {
        -v
    } else {
        v
    }
}

fn vector(rng: &mut ChaCha8Rng) -> Vector {
    Vector::new(scalar(rng), scalar(rng), scalar(rng))
}

fn point(rng: &mut ChaCha8Rng) -> Point {
    Point::from(vector(rng))
}

fn no_nan(values: &[Real]) -> bool {
    values.iter().all(|v| !v.is_nan())
}

fn hit_ok(h: Option<RayHit>) {
    if let Some(h) = h {
        let v = [
            h.t, h.normal.x, h.normal.y, h.normal.z, h.point.x, h.point.y, h.point.z,
        ];
        assert!(no_nan(&v), "{h:?}");
    }
}

fn toi_ok(t: Option<Toi>) {
    if let Some(t) = t {
        let v = [
            t.t, t.normal.x, t.normal.y, t.normal.z, t.point.x, t.point.y, t.point.z,
        ];
        assert!(no_nan(&v), "{t:?}");
        assert!((0.0..=1.0).contains(&t.t));
    }
}

#[test]
fn rays_never_yield_nan() {
    let mut rng = ChaCha8Rng::seed_from_u64(51);
    for _ in 0..20_000 {
        let Ok(ray) = Ray::new(point(&mut rng), vector(&mut rng)) else {
            continue;
        };
        let max_t = scalar(&mut rng).abs();
        let (a, b, c) = (point(&mut rng), point(&mut rng), point(&mut rng));
        let r = scalar(&mut rng);
        let h = vector(&mut rng).abs();
        let pose = Isometry::from_parts(vector(&mut rng).into(), Rotation::identity());
        hit_ok(ray_sphere(&ray, &a, r, max_t));
        hit_ok(ray_capsule(&ray, &a, &b, r, max_t));
        hit_ok(ray_triangle(&ray, &a, &b, &c, max_t));
        hit_ok(ray_cuboid(&ray, &pose, &h, max_t));
        if let Ok(aabb) = Aabb::new(a.inf(&b), a.sup(&b)) {
            hit_ok(ray_aabb(&ray, &aabb, max_t));
        }
        let planes: Vec<Plane> = (0..4)
            .filter_map(|_| Plane::new(vector(&mut rng), scalar(&mut rng)).ok())
            .collect();
        hit_ok(ray_convex_polyhedron(&ray, &planes, max_t));
    }
}

#[test]
fn sweeps_never_yield_nan() {
    let mut rng = ChaCha8Rng::seed_from_u64(52);
    for _ in 0..20_000 {
        let (c0, c1) = (point(&mut rng), point(&mut rng));
        let r = scalar(&mut rng);
        let (a, b, c) = (point(&mut rng), point(&mut rng), point(&mut rng));
        let h = vector(&mut rng).abs();
        let pose = Isometry::from_parts(
            vector(&mut rng).into(),
            Rotation::from_scaled_axis(Vector::new(0.3, 0.2, 0.1)),
        );
        toi_ok(sweep_sphere_cuboid(&c0, &c1, r, &pose, &h));
        toi_ok(sweep_sphere_triangle(&c0, &c1, r, &a, &b, &c));
        toi_ok(sweep_sphere_capsule(&c0, &c1, r, &a, &b, scalar(&mut rng)));
        toi_ok(sweep_sphere_sphere(&c0, &c1, r, &a, &b, scalar(&mut rng)));
        if let Ok(plane) = Plane::new(vector(&mut rng), scalar(&mut rng)) {
            toi_ok(sweep_sphere_plane(&c0, &c1, r, &plane));
        }
        toi_ok(sweep_cuboid_cuboid(
            &pose,
            &h,
            &vector(&mut rng),
            &Isometry::identity(),
            &vector(&mut rng).abs(),
        ));
    }
}

#[test]
fn bounding_spheres_never_yield_nan() {
    let mut rng = ChaCha8Rng::seed_from_u64(53);
    for _ in 0..3_000 {
        let n = rng.gen_range(0..12);
        let pts: Vec<Point> = (0..n).map(|_| point(&mut rng)).collect();
        for s in [
            BoundingSphere::from_points_centroid(&pts),
            BoundingSphere::from_points_ritter(&pts),
            BoundingSphere::from_points_minimal(&pts),
        ]
        .into_iter()
        .flatten()
        {
            assert!(
                s.radius.is_finite() && s.center.coords.iter().all(|v| v.is_finite()),
                "{s:?}"
            );
            assert!(
                pts.iter().all(|p| s.contains_point(p)),
                "{s:?} misses a point of {pts:?}"
            );
        }
    }
}

#[test]
fn planar_never_yields_nan() {
    let mut rng = ChaCha8Rng::seed_from_u64(54);
    let p2 = |rng: &mut ChaCha8Rng| Point2::new(scalar(rng), scalar(rng));
    for _ in 0..20_000 {
        let n = rng.gen_range(0..7);
        let corners: Vec<Point2> = (0..n).map(|_| p2(&mut rng)).collect();
        let _ = ConcavePolygon::new(&corners);
        let Ok(a) = ConvexPolygon::new(&corners) else {
            continue;
        };
        assert!(a.normals().iter().all(|v| (v.norm() - 1.0).abs() < 1e-4));
        let check =
            |r: SatResult| assert!(no_nan(&[r.separation, r.normal.x, r.normal.y]), "{r:?}");
        let (c, e) = (p2(&mut rng), p2(&mut rng));
        if let Ok(b) = Circle::new(c, scalar(&mut rng)) {
            check(polygon_circle(&a, &b));
        }
        if let Ok(b) = Rect::new(
            c,
            Vector2::new(scalar(&mut rng), scalar(&mut rng)),
            scalar(&mut rng),
        ) {
            check(polygon_rect(&a, &b));
        }
        if let Ok(b) = Segment::new(c, e) {
            check(polygon_segment(&a, &b));
        }
        if let Ok(b) = Line::new(c, e.coords) {
            check(polygon_line(&a, &b));
        }
        if let Ok(b) = ConvexPolygon::new(&corners.iter().map(|p| p + e.coords).collect::<Vec<_>>())
        {
            check(polygon_polygon(&a, &b));
        }
    }
}
