//! `parry-kernels`: ns per call of parry3d's public narrow-phase queries on the seeded pair
//! sets of the `parry-micro` section of `shared/peers/rapier-bench/README.md`.
//!
//! Each set holds `--pairs` precomputed pairs stored inline (pose 1, shape 1, pose 2, shape 2:
//! an array of structs). Per query: one untimed warm-up pass, then `--reps` timed passes;
//! ns per call = pass time / pairs, the median of the passes reported with the fraction of
//! pairs that intersected. Shapes are passed as `&dyn Shape` to
//! `parry3d::query::{intersection_test, contact}`, so the dispatch on both shape kinds is part
//! of each call; arguments and results go through `std::hint::black_box`.
//!
//! Per pair, centre 1 = 3 × uniform(−10, 10) and centre 2 = centre 1 + d · (random direction),
//! with a fixed d per set chosen so that about half the pairs intersect (`--calibrate` finds
//! it by bisection on the same pairs).

use clap::Parser;
use parry3d::math::{Pose, Rotation, Vector};
use parry3d::query;
use parry3d::shape::{Ball, Cuboid, Shape, Triangle};
use std::hint::black_box;
use std::time::Instant;
use tumble_peers::json::Line;
use tumble_peers::recipe::Recipe;
use tumble_peers::stats::Summary;
use tumble_peers::PARRY_VERSION;

/// parry3d narrow-phase micro benchmark (one JSON line per query).
#[derive(Parser, Debug)]
#[command(name = "parry-kernels", version)]
struct Args {
    /// Pairs per set.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pairs: u64,
    /// Timed passes per query (after one untimed warm-up pass).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
    reps: u64,
    /// Seed of the pair generator (a fresh generator per set).
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Instead of timing, find for each set the centre distance at which half the pairs
    /// intersect (bisection) and print it.
    #[arg(long)]
    calibrate: bool,
    /// Accepted for symmetry with Tumble's `micro`: the output is always JSON lines.
    #[arg(long)]
    json: bool,
}

/// Centre distances of the scene definitions (≈ 50 % of the pairs intersect).
const D_CUBOID_CUBOID: f64 = 1.576;
const D_BALL_BALL: f64 = 1.2;
const D_TRIANGLE_CUBOID: f64 = 0.972;

/// One pair as stored and read by the timed loop.
struct Pair<A, B> {
    pose1: Pose,
    shape1: A,
    pose2: Pose,
    shape2: B,
}

fn v3(p: [f64; 3]) -> Vector {
    Vector::new(p[0] as f32, p[1] as f32, p[2] as f32)
}

fn rot(q: [f64; 4]) -> Rotation {
    Rotation::from_xyzw(q[0] as f32, q[1] as f32, q[2] as f32, q[3] as f32)
}

/// The placement draws of a pair: centre 1 (3 draws), then the direction (2 draws).
#[derive(Clone, Copy)]
struct Placement {
    c1: [f64; 3],
    dir: [f64; 3],
}

impl Placement {
    fn draw(r: &mut Recipe) -> Self {
        let c1 = r.uniform3(-10.0, 10.0);
        let dir = r.direction();
        Self { c1, dir }
    }

    fn centres(&self, d: f64) -> (Vector, Vector) {
        let c2 = [0, 1, 2].map(|a| self.c1[a] + d * self.dir[a]);
        (v3(self.c1), v3(c2))
    }
}

/// A pair set as drawn (the shapes and rotations fixed, the centre distance still free).
trait PairSet {
    type A: Shape;
    type B: Shape;
    /// Name in the output (`cuboid-cuboid`, ...).
    const NAME: &'static str;
    /// The reference centre distance.
    const D: f64;
    /// The pairs at centre distance `d`.
    fn at(&self, d: f64) -> Vec<Pair<Self::A, Self::B>>;
}

/// cuboid–cuboid: he1 (3 × uniform(0.2, 1)), q1, he2, q2, c1, dir.
/// Half-extents and rotation of one cuboid, as drawn.
type CuboidDraw = ([f64; 3], [f64; 4]);
struct CuboidCuboid(Vec<(CuboidDraw, CuboidDraw, Placement)>);

impl CuboidCuboid {
    fn draw(n: usize, seed: u64) -> Self {
        let mut r = Recipe::new(seed);
        Self(
            (0..n)
                .map(|_| {
                    let he1 = r.uniform3(0.2, 1.0);
                    let q1 = r.rotation();
                    let he2 = r.uniform3(0.2, 1.0);
                    let q2 = r.rotation();
                    ((he1, q1), (he2, q2), Placement::draw(&mut r))
                })
                .collect(),
        )
    }
}

impl PairSet for CuboidCuboid {
    type A = Cuboid;
    type B = Cuboid;
    const NAME: &'static str = "cuboid-cuboid";
    const D: f64 = D_CUBOID_CUBOID;
    fn at(&self, d: f64) -> Vec<Pair<Cuboid, Cuboid>> {
        self.0
            .iter()
            .map(|&((he1, q1), (he2, q2), p)| {
                let (c1, c2) = p.centres(d);
                Pair {
                    pose1: Pose::from_parts(c1, rot(q1)),
                    shape1: Cuboid::new(v3(he1)),
                    pose2: Pose::from_parts(c2, rot(q2)),
                    shape2: Cuboid::new(v3(he2)),
                }
            })
            .collect()
    }
}

/// ball–ball: r1, r2 = uniform(0.2, 1), c1, dir; identity rotations.
struct BallBall(Vec<(f64, f64, Placement)>);

impl BallBall {
    fn draw(n: usize, seed: u64) -> Self {
        let mut r = Recipe::new(seed);
        Self(
            (0..n)
                .map(|_| {
                    let r1 = r.uniform(0.2, 1.0);
                    let r2 = r.uniform(0.2, 1.0);
                    (r1, r2, Placement::draw(&mut r))
                })
                .collect(),
        )
    }
}

impl PairSet for BallBall {
    type A = Ball;
    type B = Ball;
    const NAME: &'static str = "ball-ball";
    const D: f64 = D_BALL_BALL;
    fn at(&self, d: f64) -> Vec<Pair<Ball, Ball>> {
        self.0
            .iter()
            .map(|&(r1, r2, p)| {
                let (c1, c2) = p.centres(d);
                Pair {
                    pose1: Pose::from_translation(c1),
                    shape1: Ball::new(r1 as f32),
                    pose2: Pose::from_translation(c2),
                    shape2: Ball::new(r2 as f32),
                }
            })
            .collect()
    }
}

/// triangle–cuboid: vertices a, b, c (each 3 × uniform(−1, 1), in the triangle's frame), q1,
/// he2 (3 × uniform(0.2, 1)), q2, c1, dir.
type TriangleDraw = ([[f64; 3]; 3], [f64; 4], [f64; 3], [f64; 4], Placement);
struct TriangleCuboid(Vec<TriangleDraw>);

impl TriangleCuboid {
    fn draw(n: usize, seed: u64) -> Self {
        let mut r = Recipe::new(seed);
        Self(
            (0..n)
                .map(|_| {
                    let a = r.uniform3(-1.0, 1.0);
                    let b = r.uniform3(-1.0, 1.0);
                    let c = r.uniform3(-1.0, 1.0);
                    let q1 = r.rotation();
                    let he2 = r.uniform3(0.2, 1.0);
                    let q2 = r.rotation();
                    ([a, b, c], q1, he2, q2, Placement::draw(&mut r))
                })
                .collect(),
        )
    }
}

impl PairSet for TriangleCuboid {
    type A = Triangle;
    type B = Cuboid;
    const NAME: &'static str = "triangle-cuboid";
    const D: f64 = D_TRIANGLE_CUBOID;
    fn at(&self, d: f64) -> Vec<Pair<Triangle, Cuboid>> {
        self.0
            .iter()
            .map(|&([a, b, c], q1, he2, q2, p)| {
                let (c1, c2) = p.centres(d);
                Pair {
                    pose1: Pose::from_parts(c1, rot(q1)),
                    shape1: Triangle::new(v3(a), v3(b), v3(c)),
                    pose2: Pose::from_parts(c2, rot(q2)),
                    shape2: Cuboid::new(v3(he2)),
                }
            })
            .collect()
    }
}

/// `intersection_test` on one pair, shapes as `&dyn Shape`.
fn intersects<A: Shape, B: Shape>(p: &Pair<A, B>) -> bool {
    let s1: &dyn Shape = black_box(&p.shape1);
    let s2: &dyn Shape = black_box(&p.shape2);
    let r = query::intersection_test(black_box(&p.pose1), s1, black_box(&p.pose2), s2);
    black_box(r).is_ok_and(|i| i.intersecting)
}

/// `contact(.., prediction = 0)` on one pair: true when a contact (distance ≤ 0) is found.
fn touches<A: Shape, B: Shape>(p: &Pair<A, B>) -> bool {
    let s1: &dyn Shape = black_box(&p.shape1);
    let s2: &dyn Shape = black_box(&p.shape2);
    let r = query::contact(
        black_box(&p.pose1),
        s1,
        black_box(&p.pose2),
        s2,
        black_box(0.0),
    );
    matches!(black_box(r), Ok(Some(_)))
}

/// How many pairs `f` says yes to.
fn pass<P>(pairs: &[P], f: &impl Fn(&P) -> bool) -> usize {
    pairs.iter().filter(|&p| f(black_box(p))).count()
}

/// Times `f` over `pairs` and prints the query's JSON line.
fn time<P>(args: &Args, query: &str, shapes: &str, d: f64, pairs: &[P], f: impl Fn(&P) -> bool) {
    black_box(pass(pairs, &f));
    let mut ns = Vec::with_capacity(args.reps as usize);
    let mut hits = 0;
    for _ in 0..args.reps {
        let start = Instant::now();
        hits = black_box(pass(pairs, &f));
        ns.push(start.elapsed().as_secs_f64() * 1e9 / pairs.len() as f64);
    }
    let s = Summary::of(&ns);
    let mut line = Line::new();
    line.str("engine", "parry3d")
        .str("version", PARRY_VERSION)
        .str("query", query)
        .str("shapes", shapes)
        .int("pairs", pairs.len() as u64)
        .int("reps", args.reps)
        .num("ns_per_call_median", s.median, 3)
        .num("ns_per_call_min", s.min, 3)
        .num("ns_per_call_max", s.max, 3)
        .num("fraction_intersecting", hits as f64 / pairs.len() as f64, 4)
        .float("centre_distance", d);
    println!("{}", line.finish());
}

/// Bisection on d: the distance at which half the set's pairs intersect.
fn calibrate<S: PairSet>(set: &S) {
    let fraction = |d: f64| {
        let pairs = set.at(d);
        pass(&pairs, &intersects::<S::A, S::B>) as f64 / pairs.len() as f64
    };
    let (mut lo, mut hi) = (0.0, 4.0);
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        if fraction(mid) > 0.5 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let d = 0.5 * (lo + hi);
    let mut line = Line::new();
    line.str("calibrate", S::NAME).num("distance", d, 5).num(
        "fraction_at_distance",
        fraction(d),
        5,
    );
    println!("{}", line.finish());
}

fn main() {
    let args = Args::parse();
    let (n, seed) = (args.pairs as usize, args.seed);
    if args.calibrate {
        calibrate(&CuboidCuboid::draw(n, seed));
        calibrate(&BallBall::draw(n, seed));
        calibrate(&TriangleCuboid::draw(n, seed));
        return;
    }
    let cc = CuboidCuboid::draw(n, seed).at(CuboidCuboid::D);
    time(
        &args,
        "intersection_test",
        CuboidCuboid::NAME,
        CuboidCuboid::D,
        &cc,
        intersects,
    );
    time(
        &args,
        "contact(prediction=0)",
        CuboidCuboid::NAME,
        CuboidCuboid::D,
        &cc,
        touches,
    );
    drop(cc);
    let bb = BallBall::draw(n, seed).at(BallBall::D);
    time(
        &args,
        "intersection_test",
        BallBall::NAME,
        BallBall::D,
        &bb,
        intersects,
    );
    drop(bb);
    let tc = TriangleCuboid::draw(n, seed).at(TriangleCuboid::D);
    time(
        &args,
        "intersection_test",
        TriangleCuboid::NAME,
        TriangleCuboid::D,
        &tc,
        intersects,
    );
}
