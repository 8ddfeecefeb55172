//! Criterion benches of the narrow-phase "extras" kernels: ray casts, sweeps, bounding spheres
//! and planar separating-axis tests. Each bench runs one kernel over a fixed batch of seeded
//! random inputs (a mix of hits and misses) and reports throughput in queries per second.
//!
//! Run: `cargo bench -p tumble-benches --bench queries` (add `-- ray` to filter).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble::math::{Isometry, Point, Point2, Real, Rotation, Vector, Vector2};
use tumble::narrowphase::bounding::{Aabb, BoundingSphere};
use tumble::narrowphase::planar::{
    polygon_circle, polygon_polygon, Circle, ConcavePolygon, ConvexPolygon,
};
use tumble::narrowphase::ray::{self, Plane, Ray};
use tumble::narrowphase::sweep;

const BATCH: usize = 1024;

fn point(rng: &mut ChaCha8Rng, s: Real) -> Point {
    Point::new(
        rng.gen_range(-s..s),
        rng.gen_range(-s..s),
        rng.gen_range(-s..s),
    )
}

fn pose(rng: &mut ChaCha8Rng) -> Isometry {
    Isometry::from_parts(
        point(rng, 0.5).coords.into(),
        Rotation::from_scaled_axis(point(rng, 2.0).coords),
    )
}

/// Rays from a shell around the origin aimed near it: roughly half hit a unit shape.
fn rays(rng: &mut ChaCha8Rng) -> Vec<Ray> {
    (0..BATCH)
        .map(|_| {
            let o = point(rng, 4.0);
            Ray::new(o, point(rng, 1.5) - o).expect("non-zero direction")
        })
        .collect()
}

fn bench_rays(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let rs = rays(&mut rng);
    let p = pose(&mut rng);
    let h = Vector::new(0.5, 0.7, 0.9);
    let aabb = Aabb::new(Point::new(-0.5, -0.7, -0.9), Point::new(0.5, 0.7, 0.9)).unwrap();
    let (a, b, t) = (
        point(&mut rng, 1.0),
        point(&mut rng, 1.0),
        point(&mut rng, 1.0),
    );
    let planes: Vec<Plane> = (0..12)
        .map(|k| {
            let th = k as Real * 0.52;
            let n = Vector::new(th.cos(), th.sin(), (k as Real - 6.0) * 0.2);
            Plane::new(n, n.norm()).unwrap()
        })
        .collect();
    let mut g = c.benchmark_group("ray");
    g.throughput(Throughput::Elements(BATCH as u64));
    let mut run = |name: &str, f: &dyn Fn(&Ray) -> Option<ray::RayHit>| {
        g.bench_function(name, |bch| {
            bch.iter(|| rs.iter().filter(|r| f(black_box(r)).is_some()).count())
        });
    };
    run("sphere", &|r| {
        ray::ray_sphere(r, &Point::origin(), 1.0, 1.0)
    });
    run("aabb", &|r| ray::ray_aabb(r, &aabb, 1.0));
    run("cuboid", &|r| ray::ray_cuboid(r, &p, &h, 1.0));
    run("triangle", &|r| ray::ray_triangle(r, &a, &b, &t, 1.0));
    run("capsule", &|r| ray::ray_capsule(r, &a, &b, 0.3, 1.0));
    run("polyhedron_12", &|r| {
        ray::ray_convex_polyhedron(r, &planes, 1.0)
    });
    g.finish();
}

fn bench_sweeps(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let motions: Vec<(Point, Point)> = (0..BATCH)
        .map(|_| (point(&mut rng, 4.0), point(&mut rng, 1.5)))
        .collect();
    let p = pose(&mut rng);
    let h = Vector::new(0.5, 0.7, 0.9);
    let (a, b, t) = (
        point(&mut rng, 1.0),
        point(&mut rng, 1.0),
        point(&mut rng, 1.0),
    );
    let mut g = c.benchmark_group("sweep");
    g.throughput(Throughput::Elements(BATCH as u64));
    let mut run = |name: &str, f: &dyn Fn(&Point, &Point) -> Option<sweep::Toi>| {
        g.bench_function(name, |bch| {
            bch.iter(|| {
                motions
                    .iter()
                    .filter(|(c0, c1)| f(black_box(c0), black_box(c1)).is_some())
                    .count()
            })
        });
    };
    run("sphere_cuboid", &|c0, c1| {
        sweep::sweep_sphere_cuboid(c0, c1, 0.2, &p, &h)
    });
    run("sphere_triangle", &|c0, c1| {
        sweep::sweep_sphere_triangle(c0, c1, 0.2, &a, &b, &t)
    });
    run("sphere_sphere", &|c0, c1| {
        sweep::sweep_sphere_sphere(c0, c1, 0.2, &a, &b, 0.5)
    });
    run("cuboid_cuboid", &|c0, c1| {
        let pa = Isometry::from_parts(c0.coords.into(), p.rotation.inverse());
        sweep::sweep_cuboid_cuboid(&pa, &Vector::repeat(0.2), &(c1 - c0), &p, &h)
    });
    g.finish();
}

fn bench_bounding_spheres(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut g = c.benchmark_group("bounding_sphere");
    for n in [100usize, 10_000] {
        let pts: Vec<Point> = (0..n).map(|_| point(&mut rng, 2.0)).collect();
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("centroid", n), &pts, |b, p| {
            b.iter(|| BoundingSphere::from_points_centroid(black_box(p)))
        });
        g.bench_with_input(BenchmarkId::new("ritter", n), &pts, |b, p| {
            b.iter(|| BoundingSphere::from_points_ritter(black_box(p)))
        });
        g.bench_with_input(BenchmarkId::new("welzl", n), &pts, |b, p| {
            b.iter(|| BoundingSphere::from_points_minimal(black_box(p)))
        });
    }
    g.finish();
}

fn regular(n: usize, r: Real, c: Vector2) -> Vec<Point2> {
    (0..n)
        .map(|k| {
            let a = std::f32::consts::TAU * k as Real / n as Real;
            Point2::new(r * a.cos(), r * a.sin()) + c
        })
        .collect()
}

fn bench_planar(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let a = ConvexPolygon::new(&regular(8, 1.0, Vector2::zeros())).unwrap();
    let others: Vec<ConvexPolygon> = (0..BATCH)
        .map(|_| {
            let c = Vector2::new(rng.gen_range(-2.5..2.5), rng.gen_range(-2.5..2.5));
            ConvexPolygon::new(&regular(8, 0.7, c)).unwrap()
        })
        .collect();
    let circles: Vec<Circle> = (0..BATCH)
        .map(|_| {
            let c = Point2::new(rng.gen_range(-2.5..2.5), rng.gen_range(-2.5..2.5));
            Circle::new(c, 0.5).unwrap()
        })
        .collect();
    let star: Vec<Point2> = (0..16)
        .map(|k| {
            let ang = std::f32::consts::TAU * k as Real / 16.0;
            let r = if k % 2 == 0 { 1.0 } else { 0.4 };
            Point2::new(r * ang.cos(), r * ang.sin())
        })
        .collect();
    let mut g = c.benchmark_group("planar");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function("polygon_polygon_8x8", |b| {
        b.iter(|| {
            others
                .iter()
                .filter(|o| polygon_polygon(&a, black_box(o)).intersects())
                .count()
        })
    });
    g.bench_function("polygon_circle_8", |b| {
        b.iter(|| {
            circles
                .iter()
                .filter(|o| polygon_circle(&a, black_box(o)).intersects())
                .count()
        })
    });
    g.throughput(Throughput::Elements(1));
    g.bench_function("ear_clip_star_16", |b| {
        b.iter(|| ConcavePolygon::new(black_box(&star)).map(|p| p.pieces().len()))
    });
    g.finish();
}

criterion_group!(
    queries,
    bench_rays,
    bench_sweeps,
    bench_bounding_spheres,
    bench_planar
);
criterion_main!(queries);
