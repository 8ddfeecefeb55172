//! Narrow-phase micro benchmark: ns per call of Tumble's general entry points
//! (`query::intersection_test`, `query::contact`) over precomputed, seeded random pairs,
//! built draw for draw as the `parry-micro` section of shared/peers/rapier-bench/README.md
//! builds them (same recipe, same draw order, same centre distance d), so that
//! `fraction_intersecting` can be compared pair set for pair set.
//!
//! Pairs are stored as parry-micro stores them: `Pair<A, B>` with the two poses and the two
//! concrete shapes inline (`Cuboid` 12 bytes, `Ball` 4, `Triangle` 36; a pose 28), so a pair
//! takes 80 bytes (cuboid–cuboid), 64 (ball–ball) or 104 (triangle–cuboid). Each call passes
//! the shapes as [`ShapeRef`] views made opaque by `std::hint::black_box`, as parry-micro
//! passes `black_box(&s as &dyn Shape)`: the entry point dispatches on both kinds at run
//! time, the compiler cannot pick the kernel for it.
//!
//! Per query: 1 untimed warm-up pass, then `--reps` timed passes over all pairs; the median,
//! min and max ns per call are reported. Pairs and results go through `std::hint::black_box`,
//! as in parry-micro.
//!
//! A pass over the default 10⁶ pairs reads 64–104 MB: the cost of bringing it in adds to each
//! call's, and depends on the machine as much as on the code (how much of the set the previous
//! pass left in the shared cache, the page size). `--floor` times that cost alone, `--pause-ms`
//! shows how it grows when the set has waited before a pass, and `--pairs 5000` keeps a set in
//! the L2 cache so that the computation is measured alone (README, "What limits these figures",
//! and `benches/scripts/micro_settings.sh`).
//!
//! Measured on the reference machine (10⁶ pairs, `chrt -f 10`): against the former layout
//! (`Shape` enums, 88 bytes, triangles boxed on the heap), ball–ball went from 9.4 to 5.9 ns
//! per call and cuboid–cuboid from 21.9 to 21.0, but triangle–cuboid from 22.9 to 30.1,
//! although it reads fewer bytes: one stream of 104-byte pairs arrives more slowly than two
//! streams (88-byte pairs, 48-byte triangles) with the same kernel, which is 22 ns per call
//! either way in cache.

use clap::Parser;
use std::hint::black_box;
use std::time::{Duration, Instant};
use tumble::math::{Isometry, Real, Rotation, Translation, Vector};
use tumble::narrowphase::query;
use tumble::narrowphase::shape::{Ball, Cuboid, ShapeRef, Triangle};
use tumble_benches::recipe::Recipe;

/// Centre distances of the peer README (≈ 50 % of the pairs intersect).
const D_CUBOID_CUBOID: f64 = 1.576;
const D_BALL_BALL: f64 = 1.2;
const D_TRIANGLE_CUBOID: f64 = 0.972;

/// Narrow-phase micro benchmark (pair sets of rapier-bench's parry-micro).
#[derive(Parser, Debug)]
#[command(name = "micro", version, about, long_about = None)]
struct Args {
    /// Print one JSON line per query (the form of parry-micro's output).
    #[arg(long)]
    json: bool,
    /// Pairs per set.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pairs: u64,
    /// Timed passes per query (after one untimed warm-up pass).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
    reps: u64,
    /// Seed of the pair generator.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Run only the pair sets whose name (e.g. `cuboid-cuboid`) contains this text (for
    /// profiling one query at a time).
    #[arg(long)]
    only: Option<String>,
    /// Run only the queries whose name (`intersection_test` or `contact(prediction=0)`)
    /// contains this text.
    #[arg(long)]
    query: Option<String>,
    /// Also time each pair set's memory floor: the same loop, with the same `black_box`
    /// discipline, reading the first and last value of each pose and shape of every pair and
    /// doing no geometry (query name `floor(read pair)`). A diagnostic: the time to bring each
    /// pair's cache lines in with next to no work, which a query on the same pairs does not
    /// beat in practice (parry's time divided by it estimates the best ratio any kernel can
    /// show on that set).
    #[arg(long)]
    floor: bool,
    /// Keep the core busy for this many milliseconds before each pass, touching no memory (a
    /// diagnostic: shows how much a figure at 10⁶ pairs owes to the pairs left in the shared
    /// cache by the previous pass, which the machine's other work evicts meanwhile).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pause_ms: u64,
}

/// Two shapes, each under a pose, stored inline (parry-micro's `Pair<A, B>`).
struct Pair<A, B> {
    p1: Isometry,
    s1: A,
    p2: Isometry,
    s2: B,
}

fn v3(a: [f64; 3]) -> Vector {
    Vector::new(a[0] as Real, a[1] as Real, a[2] as Real)
}

fn rot(r: &mut Recipe) -> Rotation {
    let q = r.rotation();
    Rotation::from_quaternion(nalgebra::Quaternion::new(
        q[3] as Real,
        q[0] as Real,
        q[1] as Real,
        q[2] as Real,
    ))
}

/// Centre 1 uniform in [−10, 10]³, centre 2 = centre 1 + d · (uniform unit vector).
fn centres(r: &mut Recipe, d: f64) -> (Vector, Vector) {
    let c1 = r.uniform3(-10.0, 10.0);
    let u = r.direction();
    (
        v3(c1),
        v3([c1[0] + d * u[0], c1[1] + d * u[1], c1[2] + d * u[2]]),
    )
}

fn pose(c: Vector, q: Rotation) -> Isometry {
    Isometry::from_parts(Translation::from(c), q)
}

fn cuboid(he: [f64; 3]) -> Cuboid {
    Cuboid::new(v3(he)).expect("half-extents in [0.2, 1)")
}

// Draw order per pair (README): cuboid-cuboid: he1 q1 he2 q2 c1 dir.
fn gen_cuboid_cuboid(n: usize, seed: u64, d: f64) -> Vec<Pair<Cuboid, Cuboid>> {
    let mut r = Recipe::new(seed);
    (0..n)
        .map(|_| {
            let he1 = r.uniform3(0.2, 1.0);
            let q1 = rot(&mut r);
            let he2 = r.uniform3(0.2, 1.0);
            let q2 = rot(&mut r);
            let (c1, c2) = centres(&mut r, d);
            Pair {
                p1: pose(c1, q1),
                s1: cuboid(he1),
                p2: pose(c2, q2),
                s2: cuboid(he2),
            }
        })
        .collect()
}

// ball-ball: r1 r2 c1 dir; identity rotations.
fn gen_ball_ball(n: usize, seed: u64, d: f64) -> Vec<Pair<Ball, Ball>> {
    let mut r = Recipe::new(seed);
    (0..n)
        .map(|_| {
            let r1 = r.uniform(0.2, 1.0);
            let r2 = r.uniform(0.2, 1.0);
            let (c1, c2) = centres(&mut r, d);
            Pair {
                p1: pose(c1, Rotation::identity()),
                s1: Ball::new(r1 as Real).expect("radius in [0.2, 1)"),
                p2: pose(c2, Rotation::identity()),
                s2: Ball::new(r2 as Real).expect("radius in [0.2, 1)"),
            }
        })
        .collect()
}

// triangle-cuboid: a b c q1 he2 q2 c1 dir.
fn gen_triangle_cuboid(n: usize, seed: u64, d: f64) -> Vec<Pair<Triangle, Cuboid>> {
    let mut r = Recipe::new(seed);
    let mut degenerate = 0usize;
    let pairs: Vec<Pair<Triangle, Cuboid>> = (0..n)
        .filter_map(|_| {
            let a = r.uniform3(-1.0, 1.0);
            let b = r.uniform3(-1.0, 1.0);
            let c = r.uniform3(-1.0, 1.0);
            let q1 = rot(&mut r);
            let he2 = r.uniform3(0.2, 1.0);
            let q2 = rot(&mut r);
            let (c1, c2) = centres(&mut r, d);
            let tri = Triangle::new(v3(a).into(), v3(b).into(), v3(c).into());
            let Ok(tri) = tri else {
                degenerate += 1;
                return None;
            };
            Some(Pair {
                p1: pose(c1, q1),
                s1: tri,
                p2: pose(c2, q2),
                s2: cuboid(he2),
            })
        })
        .collect();
    if degenerate > 0 {
        eprintln!("micro: {degenerate} degenerate triangles refused and skipped");
    }
    pairs
}

/// 1 untimed warm-up pass + `reps` timed passes, each after `pause` ([`spin`]); (ns per call of
/// each timed pass, hits of the last pass).
fn bench<P>(
    pairs: &[P],
    reps: usize,
    pause: Duration,
    f: impl Fn(&P) -> bool,
) -> (Vec<f64>, usize) {
    let mut ns = Vec::with_capacity(reps);
    let mut hits = 0;
    for rep in 0..=reps {
        spin(pause);
        let t0 = Instant::now();
        let mut h = 0usize;
        for p in pairs {
            h += f(black_box(p)) as usize;
        }
        let el = t0.elapsed().as_secs_f64();
        black_box(h);
        hits = h;
        if rep > 0 {
            ns.push(el * 1e9 / pairs.len() as f64);
        }
    }
    (ns, hits)
}

/// The first and last value a shape stores (so that reading both touches every cache line the
/// shape lies on).
trait Ends {
    fn ends(&self) -> [Real; 2];
}

impl Ends for Ball {
    fn ends(&self) -> [Real; 2] {
        [self.radius(); 2]
    }
}

impl Ends for Cuboid {
    fn ends(&self) -> [Real; 2] {
        let e = self.half_extents();
        [e.x, e.z]
    }
}

impl Ends for Triangle {
    fn ends(&self) -> [Real; 2] {
        let c = self.corners();
        [c[0].x, c[2].z]
    }
}

/// The memory floor of a call (`--floor`): reads the first and last value of both poses and
/// both shapes, sums them and compares, nothing else. No pair is larger than 104 bytes and no
/// gap between two read values is as long as a 64-byte cache line, so every line of the pair
/// array is loaded.
fn read_pair<A: Ends, B: Ends>(p: &Pair<A, B>) -> bool {
    let pose = |q: &Isometry| q.rotation.i + q.translation.vector.z;
    let ([a0, a1], [b0, b1]) = (p.s1.ends(), p.s2.ends());
    pose(black_box(&p.p1)) + a0 + a1 + pose(black_box(&p.p2)) + b0 + b1 > 0.0
}

/// Keeps the core busy for `pause` without touching memory (`--pause-ms`).
fn spin(pause: Duration) {
    let start = Instant::now();
    let mut x = 1.0f64;
    while start.elapsed() < pause {
        x = black_box(x * 1.000_000_1);
    }
}

/// The general boolean test on a pair, its shapes as opaque views (see the module docs).
fn intersection<A, B>(p: &Pair<A, B>) -> bool
where
    for<'x> &'x A: Into<ShapeRef<'x>>,
    for<'x> &'x B: Into<ShapeRef<'x>>,
{
    let (s1, s2): (ShapeRef, ShapeRef) = ((&p.s1).into(), (&p.s2).into());
    query::intersection_test(
        black_box(&p.p1),
        black_box(s1),
        black_box(&p.p2),
        black_box(s2),
    )
    .expect("supported pair")
}

/// The general contact query on a pair (prediction 0), as [`intersection`].
fn contact<A, B>(p: &Pair<A, B>) -> bool
where
    for<'x> &'x A: Into<ShapeRef<'x>>,
    for<'x> &'x B: Into<ShapeRef<'x>>,
{
    let (s1, s2): (ShapeRef, ShapeRef) = ((&p.s1).into(), (&p.s2).into());
    black_box(
        query::contact(
            black_box(&p.p1),
            black_box(s1),
            black_box(&p.p2),
            black_box(s2),
            black_box(0.0),
        )
        .expect("supported pair"),
    )
    .is_some()
}

struct Line<'a> {
    query: &'a str,
    shapes: &'a str,
    pairs: usize,
    d: f64,
    ns: Vec<f64>,
    hits: usize,
}

fn report(json: bool, l: Line) {
    let mut ns = l.ns;
    ns.sort_by(f64::total_cmp);
    let n = ns.len();
    let med = if n % 2 == 1 {
        ns[n / 2]
    } else {
        0.5 * (ns[n / 2 - 1] + ns[n / 2])
    };
    let frac = l.hits as f64 / l.pairs as f64;
    if json {
        println!(
            "{{\"engine\":\"tumble\",\"version\":\"{}\",\"query\":\"{}\",\"shapes\":\"{}\",\
             \"pairs\":{},\"reps\":{},\"ns_per_call_median\":{:.3},\"ns_per_call_min\":{:.3},\
             \"ns_per_call_max\":{:.3},\"fraction_intersecting\":{:.4},\"centre_distance\":{}}}",
            env!("CARGO_PKG_VERSION"),
            l.query,
            l.shapes,
            l.pairs,
            n,
            med,
            ns[0],
            ns[n - 1],
            frac,
            l.d
        );
    } else {
        println!(
            "{:<24} {:<16} {:>9.2} ns/call (min {:.2}, max {:.2})  intersecting {:.4}",
            l.query,
            l.shapes,
            med,
            ns[0],
            ns[n - 1],
            frac
        );
    }
}

/// Times `f` on `pairs` and prints its line, unless `--query` leaves the query out.
/// (Generic, as `bench` is, so each query is compiled into its own loop.)
fn run<P>(args: &Args, query: &str, shapes: &str, d: f64, pairs: &[P], f: impl Fn(&P) -> bool) {
    if args.query.as_deref().is_some_and(|q| !query.contains(q)) {
        return;
    }
    let pause = Duration::from_millis(args.pause_ms);
    let (ns, hits) = bench(pairs, args.reps as usize, pause, f);
    report(
        args.json,
        Line {
            query,
            shapes,
            pairs: pairs.len(),
            d,
            ns,
            hits,
        },
    );
}

/// With `--floor`, times [`read_pair`] on `pairs` as [`run`] times a query.
fn floor<A: Ends, B: Ends>(args: &Args, shapes: &str, d: f64, pairs: &[Pair<A, B>]) {
    if args.floor {
        run(args, "floor(read pair)", shapes, d, pairs, read_pair);
    }
}

fn main() {
    let args = Args::parse();
    let n = args.pairs as usize;
    let wanted = |set: &str| args.only.as_deref().is_none_or(|o| set.contains(o));
    if wanted("cuboid-cuboid") {
        let pairs = gen_cuboid_cuboid(n, args.seed, D_CUBOID_CUBOID);
        let (s, d) = ("cuboid-cuboid", D_CUBOID_CUBOID);
        run(&args, "intersection_test", s, d, &pairs, intersection);
        run(&args, "contact(prediction=0)", s, d, &pairs, contact);
        floor(&args, s, d, &pairs);
    }
    if wanted("ball-ball") {
        let pairs = gen_ball_ball(n, args.seed, D_BALL_BALL);
        let (s, d) = ("ball-ball", D_BALL_BALL);
        run(&args, "intersection_test", s, d, &pairs, intersection);
        floor(&args, s, d, &pairs);
    }
    if wanted("triangle-cuboid") {
        let pairs = gen_triangle_cuboid(n, args.seed, D_TRIANGLE_CUBOID);
        let (s, d) = ("triangle-cuboid", D_TRIANGLE_CUBOID);
        run(&args, "intersection_test", s, d, &pairs, intersection);
        floor(&args, s, d, &pairs);
    }
}
