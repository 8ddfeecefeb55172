//! The engine on small versions of the shared `balls` and `boxes` scenes (lattice of bodies
//! falling into a static container of 5 cuboids): nothing escapes, the world validates, and
//! the result is identical on 1 and 2 threads.

use rand::{Rng, SeedableRng};
use tumble::math::{Real, Rotation, Vector};
use tumble::narrowphase::shape::{Ball, Cuboid, Shape};
use tumble::{BodyBuilder, BodyKind, World, WorldConfig};

/// Builds the scene with `n` bodies; returns the world and the container's inner half-width.
fn scene(boxes: bool, n: usize) -> (World, Real) {
    let s = (n as f64).cbrt().ceil() as usize;
    let h: Real = if boxes { 1.8 } else { 1.1 };
    let layers = n.div_ceil(s * s);
    let mut w = World::new(WorldConfig::default()).unwrap();
    let a = (s as Real * h + 2.0) / 2.0;
    let height = 2.0 * (1.0 + (layers as Real - 1.0) * h) + 10.0;
    let wall = |he: Vector, c: Vector| {
        BodyBuilder::fixed(Cuboid::new(he).unwrap())
            .translation(c)
            .friction(0.5)
            .restitution(0.5)
    };
    w.insert(wall(
        Vector::new(a + 1.0, 0.5, a + 1.0),
        Vector::new(0.0, -0.5, 0.0),
    ))
    .unwrap();
    for sx in [-1.0, 1.0] {
        let hw = Vector::new(0.5, height / 2.0, a + 1.0);
        w.insert(wall(hw, Vector::new(sx * (a + 0.5), height / 2.0, 0.0)))
            .unwrap();
        let hw = Vector::new(a + 1.0, height / 2.0, 0.5);
        w.insert(wall(hw, Vector::new(0.0, height / 2.0, sx * (a + 0.5))))
            .unwrap();
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
    let half = (s as Real - 1.0) / 2.0;
    for i in 0..n {
        let (ix, iz, iy) = (i % s, (i / s) % s, i / (s * s));
        let mut jitter = || rng.gen_range(-0.05..0.05);
        let c = Vector::new(
            (ix as Real - half) * h + jitter(),
            1.0 + iy as Real * h + jitter(),
            (iz as Real - half) * h + jitter(),
        );
        let (shape, rot): (Shape, Rotation) = if boxes {
            let r = Rotation::from_euler_angles(
                rng.gen_range(0.0..6.3),
                rng.gen_range(0.0..6.3),
                rng.gen_range(0.0..6.3),
            );
            (Cuboid::new(Vector::repeat(0.5)).unwrap().into(), r)
        } else {
            (Ball::new(0.5).unwrap().into(), Rotation::identity())
        };
        let v = Vector::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        );
        w.insert(
            BodyBuilder::dynamic(shape)
                .translation(c)
                .rotation(rot)
                .linvel(v)
                .friction(0.5)
                .restitution(0.5),
        )
        .unwrap();
    }
    (w, a)
}

fn run(boxes: bool, threads: usize) -> (u64, usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let (mut w, a) = scene(boxes, 512);
        for _ in 0..240 {
            let r = w.step();
            assert!(r.frozen.is_empty() && r.unsupported_pairs == 0);
        }
        w.validate().unwrap();
        let escaped = w
            .bodies()
            .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
            .filter(|(_, b)| {
                let t = b.translation();
                t.x.abs() > a || t.z.abs() > a || t.y < 0.0
            })
            .count();
        (w.state_hash(), escaped)
    })
}

#[test]
fn balls_scene_contained_and_deterministic() {
    let (h1, escaped) = run(false, 1);
    assert_eq!(escaped, 0);
    assert_eq!(run(false, 2).0, h1);
}

#[test]
fn boxes_scene_contained_and_deterministic() {
    let (h1, escaped) = run(true, 1);
    assert_eq!(escaped, 0);
    assert_eq!(run(true, 2).0, h1);
}
