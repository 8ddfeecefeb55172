//! Criterion benches of every narrow-phase test through the general entry points
//! (`query::intersection_test`, `query::contact`), over 1024 seeded random pairs per
//! iteration (about half of them intersecting), plus the hull construction.
//!
//! `cargo bench -p tumble-benches --bench narrowphase [-- filter]`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;
use tumble::math::{Isometry, Point, Real, Rotation, Translation, Vector};
use tumble::narrowphase::query;
use tumble::narrowphase::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape, Triangle};
use tumble_benches::recipe::Recipe;

const PAIRS: usize = 1024;

fn v3(a: [f64; 3]) -> Vector {
    Vector::new(a[0] as Real, a[1] as Real, a[2] as Real)
}

fn pose(r: &mut Recipe, c: Vector) -> Isometry {
    let q = r.rotation();
    let rot = Rotation::from_quaternion(nalgebra::Quaternion::new(
        q[3] as Real,
        q[0] as Real,
        q[1] as Real,
        q[2] as Real,
    ));
    Isometry::from_parts(Translation::from(c), rot)
}

fn cuboid(r: &mut Recipe) -> Shape {
    Shape::from(Cuboid::new(v3(r.uniform3(0.2, 1.0))).expect("positive"))
}

fn ball(r: &mut Recipe) -> Shape {
    Shape::from(Ball::new(r.uniform(0.2, 1.0) as Real).expect("positive"))
}

fn capsule(r: &mut Recipe) -> Shape {
    let h = r.uniform(0.2, 1.0) as Real;
    let rad = r.uniform(0.1, 0.5) as Real;
    Shape::from(Capsule::new(h, rad).expect("positive"))
}

fn triangle(r: &mut Recipe) -> Shape {
    loop {
        let (a, b, c) = (
            r.uniform3(-1.0, 1.0),
            r.uniform3(-1.0, 1.0),
            r.uniform3(-1.0, 1.0),
        );
        if let Ok(t) = Triangle::new(v3(a).into(), v3(b).into(), v3(c).into()) {
            return Shape::from(t);
        }
    }
}

fn hull_points(r: &mut Recipe, n: usize) -> Vec<Point> {
    (0..n)
        .map(|_| Point::from(v3(r.direction()) * r.uniform(0.5, 1.0) as Real))
        .collect()
}

fn hull(r: &mut Recipe, n: usize) -> Shape {
    Shape::from(ConvexPolyhedron::from_points(&hull_points(r, n)).expect("a 3D cloud"))
}

type Pair = (Isometry, Shape, Isometry, Shape);

/// Pairs with centres `d` apart in a random direction.
fn pairs(seed: u64, d: f64, mut make: impl FnMut(&mut Recipe) -> (Shape, Shape)) -> Vec<Pair> {
    let mut r = Recipe::new(seed);
    (0..PAIRS)
        .map(|_| {
            let (a, b) = make(&mut r);
            let c1 = v3(r.uniform3(-10.0, 10.0));
            let c2 = c1 + v3(r.direction()) * d as Real;
            let (p1, p2) = (pose(&mut r, c1), pose(&mut r, c2));
            (p1, a, p2, b)
        })
        .collect()
}

fn run(c: &mut Criterion, name: &str, set: &[Pair]) {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(set.len() as u64));
    g.bench_function("intersection_test", |b| {
        b.iter(|| {
            let mut hits = 0usize;
            for (p1, s1, p2, s2) in set {
                hits += query::intersection_test(black_box(p1), s1, black_box(p2), s2)
                    .expect("supported") as usize;
            }
            hits
        })
    });
    g.bench_function("contact", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (p1, s1, p2, s2) in set {
                n += query::contact(black_box(p1), s1, black_box(p2), s2, 0.0)
                    .expect("supported")
                    .map_or(0, |m| m.len());
            }
            n
        })
    });
    g.finish();
}

fn narrowphase(c: &mut Criterion) {
    run(c, "ball-ball", &pairs(1, 1.2, |r| (ball(r), ball(r))));
    run(c, "cuboid-ball", &pairs(2, 1.3, |r| (cuboid(r), ball(r))));
    run(
        c,
        "cuboid-cuboid",
        &pairs(3, 1.576, |r| (cuboid(r), cuboid(r))),
    );
    run(
        c,
        "triangle-cuboid",
        &pairs(4, 0.972, |r| (triangle(r), cuboid(r))),
    );
    run(
        c,
        "triangle-triangle",
        &pairs(5, 0.6, |r| (triangle(r), triangle(r))),
    );
    run(c, "capsule-ball", &pairs(6, 1.4, |r| (capsule(r), ball(r))));
    run(
        c,
        "capsule-capsule",
        &pairs(7, 1.2, |r| (capsule(r), capsule(r))),
    );
    run(
        c,
        "capsule-cuboid",
        &pairs(8, 1.4, |r| (capsule(r), cuboid(r))),
    );
    run(
        c,
        "capsule-triangle",
        &pairs(9, 1.0, |r| (capsule(r), triangle(r))),
    );
    run(
        c,
        "convex12-convex12 (SAT)",
        &pairs(10, 1.5, |r| (hull(r, 12), hull(r, 12))),
    );
    run(
        c,
        "convex200-convex200 (GJK)",
        &pairs(11, 1.8, |r| (hull(r, 200), hull(r, 200))),
    );
    run(
        c,
        "convex12-ball",
        &pairs(12, 1.3, |r| (hull(r, 12), ball(r))),
    );

    let mut r = Recipe::new(13);
    let clouds: Vec<Vec<Point>> = (0..16).map(|_| hull_points(&mut r, 100)).collect();
    c.bench_function("convex hull of 100 points", |b| {
        b.iter(|| {
            clouds
                .iter()
                .map(|p| ConvexPolyhedron::from_points(black_box(p)).map_or(0, |h| h.faces().len()))
                .sum::<usize>()
        })
    });
}

/// Contacts of two hulls of 52 points on the unit sphere (100 triangular faces each, above
/// the 32-face limit of the full SAT: the Gauss-map SAT path), centres 1.9 apart: all
/// penetrating by up to about 0.1, as resting or slightly sunk bodies are.
fn hull100_contact(c: &mut Criterion) {
    let sphere_hull = |r: &mut Recipe| {
        let pts: Vec<Point> = (0..52).map(|_| Point::from(v3(r.direction()))).collect();
        Shape::from(ConvexPolyhedron::from_points(&pts).expect("a 3D cloud"))
    };
    let set = pairs(14, 1.9, |r| (sphere_hull(r), sphere_hull(r)));
    let mut g = c.benchmark_group("convex100-convex100 (Gauss map)");
    g.throughput(Throughput::Elements(set.len() as u64));
    g.bench_function("contact", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (p1, s1, p2, s2) in &set {
                n += query::contact(black_box(p1), s1, black_box(p2), s2, 0.0)
                    .expect("supported")
                    .map_or(0, |m| m.len());
            }
            n
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = narrowphase, hull100_contact
}
criterion_main!(benches);
