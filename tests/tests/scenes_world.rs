//! The scenes handed to the engine: one body per spec, in spec order, with the spec's values
//! cast to f32; and the runner's end-of-run counts against direct recomputation.

use tumble::WorldConfig;
use tumble_benches::scenes::{count_escaped, BuiltScene, Region, SceneKind, ShapeSpec};
use tumble_benches::sim::Sim;

#[test]
fn built_bodies_carry_the_spec_values_cast_to_f32() {
    for kind in [
        SceneKind::Balls,
        SceneKind::Boxes,
        SceneKind::Mixed,
        SceneKind::PyramidCubes,
        SceneKind::Projectiles,
    ] {
        let built = BuiltScene::new(kind, 60, 42, WorldConfig::default()).expect("builds");
        assert_eq!(built.handles.len(), built.scene.bodies.len());
        assert_eq!(built.world.len(), built.scene.bodies.len());
        for (spec, h) in built.scene.bodies.iter().zip(&built.handles) {
            let body = built.world.body(*h).expect("a live handle");
            let t = body.translation();
            for k in 0..3 {
                assert_eq!(t[k], spec.translation[k] as f32, "{kind} translation");
                assert_eq!(body.linvel()[k], spec.linvel[k] as f32, "{kind} velocity");
            }
            let q = body.rotation();
            let want = [
                spec.rotation[0],
                spec.rotation[1],
                spec.rotation[2],
                spec.rotation[3],
            ];
            let got = [q.i, q.j, q.k, q.w];
            for k in 0..4 {
                assert!(
                    (f64::from(got[k]) - want[k]).abs() < 1e-6,
                    "{kind} rotation"
                );
            }
            match (spec.shape, body.shape()) {
                (ShapeSpec::Ball { radius }, tumble::Shape::Ball(b)) => {
                    assert_eq!(b.radius(), radius as f32)
                }
                (ShapeSpec::Cuboid { half_extents }, tumble::Shape::Cuboid(c)) => {
                    for (got, want) in c.half_extents().iter().zip(half_extents) {
                        assert_eq!(*got, want as f32);
                    }
                }
                (s, b) => panic!("{kind}: spec {s:?} built as {b:?}"),
            }
        }
        assert!(built.world.validate().is_ok());
        assert_eq!(built.escaped(), 0, "{kind} starts inside");
    }
}

#[test]
fn projectiles_ask_the_world_for_ccd_and_zero_bodies_is_refused() {
    let config = WorldConfig {
        ccd: false,
        ..WorldConfig::default()
    };
    let built = BuiltScene::new(SceneKind::Projectiles, 4, 42, config.clone()).unwrap();
    assert!(built.world.config().ccd);
    assert!(BuiltScene::new(SceneKind::Balls, 0, 42, config.clone()).is_err());
    assert!(BuiltScene::new(SceneKind::Gas, 10, 42, config).is_err());
}

#[test]
fn escaped_counts_centres_outside_the_region_and_non_finite_ones() {
    let r = Region {
        min: [-1.0, 0.0, -1.0],
        max: [1.0, f64::INFINITY, 1.0],
    };
    let centres = [
        [0.0, 5.0, 0.0],
        [1.5, 1.0, 0.0],
        [0.0, -0.1, 0.0],
        [f64::NAN, 1.0, 0.0],
        [1.0, 0.0, -1.0],
    ];
    assert_eq!(count_escaped(&r, &centres), 3);
}

#[test]
fn end_state_after_a_short_balls_run_matches_the_world() {
    let mut sim = Sim::new(SceneKind::Balls, 200, 42, WorldConfig::default()).unwrap();
    for _ in 0..20 {
        let (_total, stages) = sim.step().unwrap();
        assert_eq!(stages.len(), sim.stage_names().len());
    }
    let Sim::World(built) = &sim else {
        panic!("balls is a world scene")
    };
    let end = sim.end_state();
    assert_eq!(end.hash, built.world.state_hash());
    assert_eq!(end.pairs, built.world.contact_pair_count());
    let max_y = built
        .dynamic_centres()
        .iter()
        .map(|c| c[1])
        .fold(f64::MIN, f64::max);
    assert_eq!(end.max_body_y, max_y);
    assert_eq!(end.escaped, 0);
}
