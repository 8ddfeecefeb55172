//! The peer scenes that come to rest fall asleep, as shared/peers/rapier-bench/README.md
//! expects of an engine with sleeping on (rapier: the `settle` pile from step ~483). The
//! pyramid's figure is `engine/tests/sleeping.rs`'s.

use tumble::{BodyKind, WorldConfig};
use tumble_benches::scenes::{BuiltScene, SceneKind};

/// The step (1-based) after which every dynamic body of `scene` sleeps, if it comes within
/// `max` steps.
fn asleep_after(kind: SceneKind, n: usize, max: usize) -> Option<usize> {
    let mut s = BuiltScene::new(kind, n, 42, WorldConfig::default()).expect("builds");
    (1..=max).find(|_| {
        s.world.step();
        s.world
            .bodies()
            .all(|(_, b)| b.kind() != BodyKind::Dynamic || b.is_sleeping())
    })
}

/// `settle` with N = 10 000: 10 000 unit cubes dropped into a container, one island once they
/// pile up. Every one is asleep by the end of the 600 warm-up steps (574 measured on
/// 2026-12-02). A box wedged in the pile rocking between an edge contact and a face contact,
/// or the pile's tremor, keeps the whole island awake.
#[test]
fn the_settle_pile_is_asleep_by_the_end_of_its_warm_up() {
    let at = asleep_after(SceneKind::Settle, 10_000, 600);
    assert!(at.is_some(), "awake after 600 steps");
}
