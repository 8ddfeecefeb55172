//! The engine on small versions of the shared `balls` and `boxes` scenes (lattice of bodies
//! falling into a static container of 5 cuboids): nothing escapes, the world validates, and
//! the result is identical on 1 and 2 threads.

use tumble::WorldConfig;
use tumble_benches::scenes::{BuiltScene, SceneKind};

fn run(boxes: bool, threads: usize) -> (u64, usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        // The shared scene, built by the same code as the stress runner's (peer recipe).
        let kind = if boxes {
            SceneKind::Boxes
        } else {
            SceneKind::Balls
        };
        let mut built = BuiltScene::new(kind, 512, 42, WorldConfig::default()).unwrap();
        for _ in 0..240 {
            let r = built.world.step();
            assert!(r.frozen.is_empty() && r.unsupported_pairs == 0);
        }
        built.world.validate().unwrap();
        (built.world.state_hash(), built.escaped())
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
