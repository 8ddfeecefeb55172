//! Extreme configurations, corrupt snapshots, events under `advance` and errors that name the
//! real problem: every call returns in bounded time with an answer or a typed error.

mod common;
use common::*;
use std::sync::mpsc;
use std::time::Duration;
use tumble::math::{Real, Vector};
use tumble::{World, WorldConfig};

/// Runs `f` on its own thread and returns its result, or panics (failing the test instead of
/// hanging the suite) when it has not finished after `seconds`.
fn within<T: Send + 'static>(seconds: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(Duration::from_secs(seconds)) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("did not return within {seconds} s"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("panicked"),
    }
}

/// A small scene: a floor and a few balls, stepped a little.
fn small_scene() -> World {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    add_floor(&mut w, 0.5, 0.0);
    for i in 0..4 {
        w.insert(ball(
            0.25,
            Vector::new(i as Real * 0.6, 0.3 + i as Real, 0.0),
        ))
        .unwrap();
    }
    for _ in 0..10 {
        w.step();
    }
    w
}

/// The one offset of `pattern` in `bytes` (panics unless there is exactly one).
#[cfg(feature = "serde")]
fn unique_offset(bytes: &[u8], pattern: &[u8]) -> usize {
    let hits: Vec<usize> = (0..=bytes.len() - pattern.len())
        .filter(|&i| &bytes[i..i + pattern.len()] == pattern)
        .collect();
    assert_eq!(hits.len(), 1, "pattern found at {hits:?}");
    hits[0]
}

/// A snapshot of [`small_scene`] after `advance(0.4 dt)`, with the accumulator field overwritten
/// by `value` (seconds).
#[cfg(feature = "serde")]
fn snapshot_with_accumulator(value: f64) -> Vec<u8> {
    let mut w = small_scene();
    let frame = 0.4 * w.config().dt;
    w.advance(frame).unwrap();
    let mut bytes = w.snapshot();
    let at = unique_offset(&bytes, &(frame as f64).to_le_bytes());
    bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
    reseal(bytes)
}

/// `bytes` with the payload length and checksum of its header made to match its payload (as a
/// snapshot written by other means would be), so that restore's physics checks are what
/// refuses it.
#[cfg(feature = "serde")]
fn reseal(mut bytes: Vec<u8>) -> Vec<u8> {
    let len = (bytes.len() - 28) as u64;
    let sum = tumble::snapshot_checksum(&bytes[28..]);
    bytes[12..20].copy_from_slice(&len.to_le_bytes());
    bytes[20..28].copy_from_slice(&sum.to_le_bytes());
    bytes
}

// ---- Item: no hang from any configuration or snapshot -------------------------------------

#[test]
fn advance_with_huge_max_frame_time_returns() {
    let steps = within(20, || {
        let config = WorldConfig {
            max_frame_time: 1e30,
            ..WorldConfig::default()
        };
        match World::new(config) {
            Err(_) => None,
            Ok(mut w) => Some(w.advance(1e30).map(|a| a.steps)),
        }
    });
    if let Some(r) = steps {
        let steps = r.expect("advance(1e30) refused");
        assert!(steps <= 1000, "{steps} steps in one advance");
    }
}

#[test]
fn advance_with_tiny_dt_runs_a_bounded_number_of_steps() {
    let steps = within(20, || {
        let config = WorldConfig {
            dt: 1e-9,
            ..WorldConfig::default()
        };
        match World::new(config) {
            Err(_) => None,
            Ok(mut w) => Some(w.advance(0.1).unwrap().steps),
        }
    });
    if let Some(steps) = steps {
        assert!(steps <= 1000, "{steps} steps in one advance");
    }
}

#[cfg(feature = "serde")]
#[test]
fn snapshot_with_huge_accumulator_is_refused() {
    let dt = f64::from(WorldConfig::default().dt);
    for value in [1e20, 1e3, dt, -0.001, f64::NAN] {
        let bytes = snapshot_with_accumulator(value);
        let r = within(20, move || {
            World::restore(&bytes).map(|mut w| w.advance(0.0).map(|a| a.steps))
        });
        assert!(
            r.is_err(),
            "accumulator {value}: restored, advance gave {r:?}"
        );
    }
}

#[test]
fn advance_runs_at_most_max_steps_per_frame_and_reports_the_dropped_time() {
    let config = WorldConfig {
        max_frame_time: 1.0,
        max_steps_per_frame: 8,
        ..WorldConfig::default()
    };
    let mut w = World::new(config).unwrap();
    let dt = w.config().dt;
    let a = w.advance(1.0).unwrap();
    assert_eq!(a.steps, 8);
    let kept = w.accumulator();
    assert!((0.0..dt).contains(&kept), "accumulator {kept}");
    // Everything added is either simulated, dropped or kept.
    let total = 8.0 * dt + a.dropped_seconds + kept;
    assert!((total - 1.0).abs() < 1e-5, "{total}");
    assert!(a.dropped_seconds > 0.8, "{}", a.dropped_seconds);
    w.validate().unwrap();
    // With the defaults nothing is ever dropped: a stalled frame runs the 6 steps of 0.1 s.
    let mut w = World::new(WorldConfig::default()).unwrap();
    for _ in 0..20 {
        let a = w.advance(10.0).unwrap();
        assert!(a.steps <= 6 && a.dropped_seconds == 0.0, "{a:?}");
    }
}

#[test]
fn config_bounds_are_refused_with_the_field_named() {
    let bad = [
        (
            WorldConfig {
                dt: 1e-9,
                ..WorldConfig::default()
            },
            "dt",
        ),
        (
            WorldConfig {
                dt: 2.0,
                ..WorldConfig::default()
            },
            "dt",
        ),
        (
            WorldConfig {
                max_frame_time: 1e30,
                ..WorldConfig::default()
            },
            "max_frame_time",
        ),
        (
            WorldConfig {
                max_frame_time: 0.001,
                ..WorldConfig::default()
            },
            "max_frame_time",
        ),
        (
            WorldConfig {
                max_steps_per_frame: 0,
                ..WorldConfig::default()
            },
            "max_steps_per_frame",
        ),
        (
            WorldConfig {
                max_steps_per_frame: 1_000_000,
                ..WorldConfig::default()
            },
            "max_steps_per_frame",
        ),
    ];
    for (config, what) in bad {
        let e = World::new(config).unwrap_err();
        assert!(e.to_string().contains(what), "{e} should name {what}");
    }
    // The extremes of the ranges are accepted and advance in bounded time.
    for (dt, max_frame_time) in [
        (tumble::MIN_DT, tumble::MAX_FRAME_TIME),
        (tumble::MAX_DT, 1.0),
    ] {
        let config = WorldConfig {
            dt,
            max_frame_time,
            max_steps_per_frame: tumble::MAX_STEPS_PER_FRAME,
            ..WorldConfig::default()
        };
        let mut w = small_scene_with(config);
        let a = w.advance(Real::MAX).unwrap();
        assert!(a.steps <= tumble::MAX_STEPS_PER_FRAME);
        w.validate().unwrap();
    }
}

/// [`small_scene`]'s bodies in a world made with `config`.
fn small_scene_with(config: WorldConfig) -> World {
    let mut w = World::new(config).unwrap();
    add_floor(&mut w, 0.5, 0.0);
    for i in 0..4 {
        w.insert(ball(
            0.25,
            Vector::new(i as Real * 0.6, 0.3 + i as Real, 0.0),
        ))
        .unwrap();
    }
    w
}

// ---- Item: events of every step of an `advance` reach the user once, in order -------------

/// Bouncy balls on a floor (contacts start and stop) and one ball falling through a sensor
/// slab again and again (the sensor reports it entering and leaving).
fn bouncing_scene() -> World {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    add_floor(&mut w, 0.5, 1.0);
    for i in 0..5 {
        w.insert(
            ball(
                0.2,
                Vector::new(i as Real - 2.0, 0.5 + 0.3 * i as Real, 0.0),
            )
            .restitution(1.0),
        )
        .unwrap();
    }
    w.insert(
        tumble::BodyBuilder::fixed(tumble::Cuboid::new(Vector::new(0.5, 0.1, 0.5)).unwrap())
            .translation(Vector::new(0.0, 0.8, 3.0))
            .sensor(true),
    )
    .unwrap();
    w.insert(ball(0.1, Vector::new(0.0, 1.6, 3.0)).restitution(1.0))
        .unwrap();
    w
}

/// Drives [`bouncing_scene`] with `call` until 240 steps have run; returns the events that
/// [`World::events`] showed after each call, concatenated.
fn events_of_240_steps(mut call: impl FnMut(&mut World)) -> Vec<tumble::Event> {
    let mut w = bouncing_scene();
    let mut log = Vec::new();
    let mut calls = 0;
    while w.step_count() < 240 {
        call(&mut w);
        log.extend_from_slice(w.events());
        calls += 1;
        assert!(calls <= 2000, "the calls do not add up to 240 steps");
    }
    assert_eq!(w.step_count(), 240);
    log
}

/// Each sensor overlap is reported entering, then leaving, then entering, …
fn assert_sensor_events_alternate(log: &[tumble::Event]) {
    use std::collections::BTreeMap;
    use tumble::Event;
    let mut inside = BTreeMap::new();
    for e in log {
        match *e {
            Event::SensorEnter { sensor, other } => {
                let was = inside.insert((sensor, other), true).unwrap_or(false);
                assert!(!was, "{other:?} entered {sensor:?} twice in a row");
            }
            Event::SensorExit { sensor, other } => {
                let was = inside.insert((sensor, other), false).unwrap_or(false);
                assert!(was, "{other:?} left {sensor:?} without having entered");
            }
            _ => {}
        }
    }
}

#[test]
fn events_under_advance_are_those_of_its_steps_exactly_once() {
    let by_step = events_of_240_steps(|w| {
        w.step();
    });
    let sensor = by_step
        .iter()
        .filter(|e| matches!(e, tumble::Event::SensorExit { .. }))
        .count();
    assert!(
        sensor >= 2,
        "the scene should leave the sensor twice: {by_step:?}"
    );
    assert!(by_step.len() > 20, "{} events", by_step.len());
    assert_sensor_events_alternate(&by_step);
    let dt = WorldConfig::default().dt;
    for (what, frame) in [("advance(2/60)", 2.0 * dt), ("advance(1/240)", dt / 4.0)] {
        let log = events_of_240_steps(|w| {
            w.advance(frame).unwrap();
        });
        assert_sensor_events_alternate(&log);
        assert_eq!(
            log.len(),
            by_step.len(),
            "{what}: {} events, {} with step()",
            log.len(),
            by_step.len()
        );
        assert_eq!(log, by_step, "{what}");
    }
}

#[test]
fn an_advance_that_runs_no_step_leaves_no_events() {
    let mut w = bouncing_scene();
    let dt = w.config().dt;
    while w.events().is_empty() {
        w.step();
        assert!(w.step_count() < 240, "no event in 240 steps");
    }
    assert_eq!(w.advance(0.25 * dt).unwrap().steps, 0);
    assert!(w.events().is_empty(), "{:?}", w.events());
}

// ---- Item: errors that name the real problem ------------------------------------------------

#[test]
fn non_unit_rotation_is_refused_as_not_unit() {
    use nalgebra::Quaternion;
    use tumble::math::{Isometry, Rotation};
    use tumble::WorldError;
    let twice = Rotation::new_unchecked(Quaternion::new(2.0, 0.0, 0.0, 0.0));
    let mut w = small_scene();
    let e = w
        .insert(ball(0.5, Vector::new(5.0, 1.0, 0.0)).rotation(twice))
        .unwrap_err();
    assert!(
        matches!(e, WorldError::NotUnit { norm, .. } if norm == 2.0),
        "{e:?}"
    );
    assert!(e.to_string().contains("unit"), "{e}");
    let h = w.bodies().nth(1).unwrap().0;
    let mut pose = Isometry::translation(0.0, 2.0, 0.0);
    pose.rotation = twice;
    let e = w.set_pose(h, pose).unwrap_err();
    assert!(matches!(e, WorldError::NotUnit { .. }), "{e:?}");
    // A NaN rotation is still not finite.
    pose.rotation = Rotation::new_unchecked(Quaternion::new(Real::NAN, 0.0, 0.0, 0.0));
    let e = w.set_pose(h, pose).unwrap_err();
    assert!(matches!(e, WorldError::NonFinite(_)), "{e:?}");
}

/// The angular velocity an impulse `j` at `r` from the centre gives a ball of radius `r` and
/// density `rho`, against the exact `r × j / (2/5 m r²)`.
fn assert_ball_spins_as_it_should(radius: Real, density: Real) {
    let mut w = world_with_gravity(Vector::zeros());
    let h = w
        .insert(ball(radius, Vector::zeros()).density(density))
        .unwrap_or_else(|e| panic!("ball of radius {radius} m, density {density}: {e}"));
    let m = 4.0 / 3.0 * std::f64::consts::PI * (radius as f64).powi(3) * density as f64;
    let inertia = 0.4 * m * (radius as f64).powi(2);
    let j = (m * 1e-3) as Real; // 1 mm/s worth of impulse
    w.apply_impulse_at_point(
        h,
        Vector::new(0.0, 0.0, j),
        tumble::math::Point::new(radius, 0.0, 0.0),
    )
    .unwrap();
    let spin = w.body(h).unwrap().angvel();
    let expected = -(radius as f64) * j as f64 / inertia; // about y: r × j = (0, −r j, 0)
    assert!(
        ((spin.y as f64 - expected) / expected).abs() < 1e-4 && spin.x == 0.0 && spin.z == 0.0,
        "radius {radius}: spin {spin:?}, expected {expected} about y"
    );
    let ke = w.body(h).unwrap().kinetic_energy() as f64;
    let expected_ke = 0.5 * m * (j as f64 / m).powi(2) + 0.5 * inertia * expected * expected;
    assert!(
        ((ke - expected_ke) / expected_ke).abs() < 1e-3,
        "radius {radius}: kinetic energy {ke}, expected {expected_ke}"
    );
    for _ in 0..5 {
        w.step();
    }
    w.validate().unwrap();
}

#[test]
fn tiny_and_huge_balls_get_their_inertia() {
    for (radius, density) in [
        (0.0009, 1.0),
        (0.0005, 1.0),
        (1e-4, 1000.0),
        (1800.0, 1000.0),
        (1.0e4, 1.0),
        (0.5, 1.0),
    ] {
        assert_ball_spins_as_it_should(radius, density);
    }
}

#[test]
fn a_ball_whose_inertia_f32_cannot_invert_is_refused_saying_why() {
    let mut w = world_with_gravity(Vector::zeros());
    // m ≈ 4·10⁻³⁰ kg, I ≈ 2·10⁻⁴² kg·m²: 1/I is beyond f32.
    let e = w
        .insert(ball(1e-6, Vector::zeros()).density(1e-12))
        .unwrap_err();
    let text = e.to_string();
    assert!(
        matches!(e, tumble::WorldError::InertiaOutOfRange(_)) && text.contains("f32"),
        "{e:?}: {text}"
    );
}

#[test]
fn prediction_distance_beyond_its_bound_is_refused() {
    let e = World::new(WorldConfig {
        prediction_distance: 3e7,
        ..WorldConfig::default()
    })
    .unwrap_err();
    assert!(e.to_string().contains("prediction_distance"), "{e}");
    // The largest accepted prediction distance still lets bodies in.
    let mut w = World::new(WorldConfig {
        prediction_distance: tumble::MAX_PREDICTION_DISTANCE,
        ..WorldConfig::default()
    })
    .unwrap();
    w.insert(ball(0.5, Vector::new(1e6, 0.0, 0.0))).unwrap();
    w.step();
    w.validate().unwrap();
}

/// Handles carry no world identity (see `BodyHandle`): they name the same bodies in a
/// restored copy, whose events are equal to the original's.
#[cfg(feature = "serde")]
#[test]
fn handles_name_the_same_bodies_in_a_restored_copy() {
    let mut w = bouncing_scene();
    let mut copy = World::restore(&w.snapshot()).unwrap();
    let handles: Vec<_> = w.bodies().map(|(h, _)| h).collect();
    for h in &handles {
        assert_eq!(w.body(*h).unwrap().pose(), copy.body(*h).unwrap().pose());
    }
    for _ in 0..60 {
        w.step();
        copy.step();
        assert_eq!(w.events(), copy.events());
    }
}

// ---- Item: snapshots are checked: checksum and physics invariants ---------------------------

/// A small scene with every kind of body and a contact cache: what the corruption tests
/// snapshot.
#[cfg(feature = "serde")]
fn snapshot_scene() -> World {
    let mut w = bouncing_scene();
    w.insert(
        tumble::BodyBuilder::kinematic(tumble::Cuboid::new(Vector::new(0.3, 0.1, 0.3)).unwrap())
            .translation(Vector::new(-3.0, 1.0, 0.0))
            .linvel(Vector::new(0.5, 0.0, 0.0)),
    )
    .unwrap();
    w.insert(
        cuboid(Vector::new(0.2, 0.3, 0.4), Vector::new(2.0, 1.0, 1.0))
            .angvel(Vector::new(1.0, 2.0, 3.0)),
    )
    .unwrap();
    for _ in 0..30 {
        w.step();
    }
    w.advance(0.3 * w.config().dt).unwrap();
    w
}

#[cfg(feature = "serde")]
#[test]
fn snapshots_with_flipped_bytes_are_refused_or_restore_the_same_state() {
    use rand::{Rng, SeedableRng};
    let w = snapshot_scene();
    let bytes = w.snapshot();
    let hash = w.state_hash();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(22);
    let mut silent = 0;
    for trial in 0..1000 {
        let mut b = bytes.clone();
        for _ in 0..rng.gen_range(1..=8) {
            let at = rng.gen_range(0..b.len());
            b[at] ^= 1 << rng.gen_range(0..8);
        }
        if b == bytes {
            continue;
        }
        if let Ok(restored) = World::restore(&b) {
            if restored.state_hash() != hash {
                silent += 1;
                if silent <= 3 {
                    eprintln!("trial {trial}: restored a different state");
                }
            }
        }
    }
    assert_eq!(
        silent, 0,
        "{silent} of 1000 corrupted snapshots restored a different state"
    );
}

/// The snapshot of [`snapshot_scene`] with the `f32` `old` (found once) replaced by `new`,
/// resealed.
#[cfg(feature = "serde")]
fn with_f32_replaced(w: &World, old: Real, new: Real) -> Vec<u8> {
    let mut bytes = w.snapshot();
    // A value may be stored twice (a body's rotation is also its rest pose's while it moves):
    // every copy is replaced.
    let pattern = old.to_le_bytes();
    let hits: Vec<usize> = (28..=bytes.len() - 4)
        .filter(|&i| bytes[i..i + 4] == pattern)
        .collect();
    assert!((1..=2).contains(&hits.len()), "pattern found at {hits:?}");
    for at in hits {
        bytes[at..at + 4].copy_from_slice(&new.to_le_bytes());
    }
    reseal(bytes)
}

#[cfg(feature = "serde")]
#[test]
fn resealed_snapshots_that_break_physics_invariants_are_refused() {
    let w = snapshot_scene();
    let (_, b) = w.bodies().last().unwrap(); // the spinning box
    let mass = b.mass();
    let q = b.rotation().into_inner().coords;
    let cases = [
        (mass, 2.0 * mass, "mass"),
        (1.0 / mass, 0.5 / mass, "mass"),
        (q.w, 2.0, "rotation"),
        (w.config().dt, 1e-9, "dt"),
        (w.config().prediction_distance, 3e7, "prediction_distance"),
    ];
    for (old, new, what) in cases {
        let bytes = with_f32_replaced(&w, old, new);
        match World::restore(&bytes) {
            Ok(_) => panic!("{what} {old} → {new}: restored"),
            Err(e) => {
                assert!(
                    matches!(e, tumble::WorldError::Snapshot(_)) && e.to_string().contains(what),
                    "{what}: {e}"
                )
            }
        }
    }
    // Resealing alone changes nothing.
    let same = reseal(w.snapshot());
    assert_eq!(World::restore(&same).unwrap().state_hash(), w.state_hash());
}

#[cfg(feature = "serde")]
#[test]
fn snapshots_with_a_bad_header_or_checksum_are_refused() {
    let w = snapshot_scene();
    let bytes = w.snapshot();
    assert_eq!(&bytes[8..12], &tumble::SNAPSHOT_VERSION.to_le_bytes());
    let restored = World::restore(&bytes).unwrap();
    assert_eq!(restored.snapshot(), bytes);
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    let e = World::restore(&flipped).unwrap_err();
    assert!(e.to_string().contains("checksum"), "{e}");
    let mut longer = bytes.clone();
    longer.push(0);
    let e = World::restore(&longer).unwrap_err();
    assert!(e.to_string().contains("payload"), "{e}");
    let mut old_version = bytes.clone();
    old_version[8] = 1;
    let e = World::restore(&old_version).unwrap_err();
    assert!(e.to_string().contains("version"), "{e}");
}

#[cfg(feature = "serde")]
#[test]
fn resealed_snapshots_with_flipped_bytes_are_refused_or_valid() {
    use rand::{Rng, SeedableRng};
    let w = snapshot_scene();
    let bytes = w.snapshot();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let mut refused = 0;
    for _ in 0..1000 {
        let mut b = bytes.clone();
        for _ in 0..rng.gen_range(1..=8) {
            let at = rng.gen_range(28..b.len());
            b[at] ^= 1 << rng.gen_range(0..8);
        }
        match World::restore(&reseal(b)) {
            Err(_) => refused += 1,
            Ok(mut restored) => {
                restored.validate().unwrap();
                for _ in 0..5 {
                    restored.step();
                }
                restored.validate().unwrap();
            }
        }
    }
    assert!(refused > 0);
}
