//! Helpers shared by the engine's integration tests (included with `mod common;`).
#![allow(dead_code)]

use tumble::math::{Real, Vector};
use tumble::narrowphase::shape::{Ball, Cuboid};
use tumble::{BodyBuilder, BodyHandle, World, WorldConfig};

/// A world with the given gravity and otherwise default configuration.
pub fn world_with_gravity(g: Vector) -> World {
    World::new(WorldConfig {
        gravity: g,
        ..WorldConfig::default()
    })
    .unwrap()
}

/// A static floor: a 40×1×40 box whose top face is at y = 0.
pub fn add_floor(w: &mut World, friction: Real, restitution: Real) -> BodyHandle {
    w.insert(
        BodyBuilder::fixed(Cuboid::new(Vector::new(20.0, 0.5, 20.0)).unwrap())
            .translation(Vector::new(0.0, -0.5, 0.0))
            .friction(friction)
            .restitution(restitution),
    )
    .unwrap()
}

/// A dynamic ball.
pub fn ball(r: Real, at: Vector) -> BodyBuilder {
    BodyBuilder::dynamic(Ball::new(r).unwrap()).translation(at)
}

/// A dynamic box with half-extents `he`.
pub fn cuboid(he: Vector, at: Vector) -> BodyBuilder {
    BodyBuilder::dynamic(Cuboid::new(he).unwrap()).translation(at)
}

/// Closed box of 6 static walls, inner half-size `a`, walls 1 m thick.
pub fn add_closed_box(w: &mut World, a: Real, restitution: Real, friction: Real) {
    for axis in 0..3 {
        for sign in [-1.0, 1.0] {
            let mut he = Vector::repeat(a + 1.0);
            he[axis] = 0.5;
            let mut c = Vector::zeros();
            c[axis] = sign * (a + 0.5);
            w.insert(
                BodyBuilder::fixed(Cuboid::new(he).unwrap())
                    .translation(c)
                    .restitution(restitution)
                    .friction(friction),
            )
            .unwrap();
        }
    }
}

/// Runs `f` in a fresh rayon pool of `threads` threads (for comparing results across thread
/// counts).
pub fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

/// The state hash of the world `make` builds after `steps` steps, checked valid, in a pool of
/// each of `threads`: one hash per thread count (to compare across thread counts).
pub fn hashes_for_threads(make: fn() -> World, steps: usize, threads: &[usize]) -> Vec<u64> {
    threads
        .iter()
        .map(|&n| {
            in_pool(n, || {
                let mut w = make();
                for _ in 0..steps {
                    w.step();
                }
                w.validate().unwrap();
                w.state_hash()
            })
        })
        .collect()
}
