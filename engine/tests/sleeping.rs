//! Islands and sleeping: piles fall asleep, only the touched island wakes, every wake trigger
//! wakes, sleeping bodies do not move, no contact events from sleeping, snapshots keep the
//! sleep state, determinism with threads.

mod common;
use common::*;
use tumble::math::{Isometry, Point, Real, Vector};
use tumble::{BodyBuilder, BodyHandle, CombineRule, Event, World, WorldConfig, WorldError};

/// A tower of `n` unit-ish boxes (half-extents 0.5) at (x, ·, z) on the floor.
fn tower(w: &mut World, x: Real, z: Real, n: usize) -> Vec<BodyHandle> {
    (0..n)
        .map(|k| {
            w.insert(
                cuboid(
                    Vector::new(0.5, 0.5, 0.5),
                    Vector::new(x, 0.5 + k as Real, z),
                )
                .friction(0.6),
            )
            .unwrap()
        })
        .collect()
}

/// Steps until every body of `hs` sleeps; returns the number of steps, or panics after `max`.
fn until_asleep(w: &mut World, hs: &[BodyHandle], max: usize) -> usize {
    for k in 1..=max {
        w.step();
        if hs.iter().all(|h| w.body(*h).unwrap().is_sleeping()) {
            return k;
        }
    }
    panic!("not asleep after {max} steps");
}

fn asleep(w: &World, h: BodyHandle) -> bool {
    w.body(h).unwrap().is_sleeping()
}

/// A floor and a tower of three boxes, asleep.
fn sleeping_tower() -> (World, BodyHandle, Vec<BodyHandle>) {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let floor = add_floor(&mut w, 0.6, 0.0);
    let t = tower(&mut w, 0.0, 0.0, 3);
    until_asleep(&mut w, &t, 120);
    w.validate().unwrap();
    (w, floor, t)
}

#[test]
fn a_pile_falls_asleep_and_reports_it() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    add_floor(&mut w, 0.6, 0.0);
    let mut hs = tower(&mut w, 0.0, 0.0, 4);
    hs.extend(tower(&mut w, 1.02, 0.0, 3));
    for h in &hs {
        assert!(!asleep(&w, *h));
    }
    let steps = until_asleep(&mut w, &hs, 180);
    // Half a second of rest at least.
    assert!(steps >= 30, "asleep after {steps} steps");
    assert_eq!(w.sleeping_body_count(), hs.len());
    for h in &hs {
        let b = w.body(*h).unwrap();
        assert_eq!(b.linvel(), Vector::zeros());
        assert_eq!(b.angvel(), Vector::zeros());
    }
    w.validate().unwrap();
    // Asleep, a step runs no stage.
    w.step();
    assert_eq!(w.stage_times().total(), std::time::Duration::ZERO);
}

#[test]
fn sleeping_bodies_do_not_move_bit_for_bit() {
    let (mut w, _, t) = sleeping_tower();
    let before: Vec<Isometry> = t.iter().map(|h| w.body(*h).unwrap().pose()).collect();
    let hash = w.state_hash();
    for _ in 0..200 {
        w.step();
    }
    let after: Vec<Isometry> = t.iter().map(|h| w.body(*h).unwrap().pose()).collect();
    assert_eq!(before, after);
    assert_eq!(w.state_hash(), hash);
    for h in &t {
        assert_eq!(w.render_pose(*h), w.body(*h).map(|b| b.pose()));
    }
}

#[test]
fn a_ball_wakes_only_the_island_it_hits() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    add_floor(&mut w, 0.6, 0.0);
    let a = tower(&mut w, -5.0, 0.0, 3);
    let b = tower(&mut w, 5.0, 0.0, 3);
    let all: Vec<BodyHandle> = a.iter().chain(&b).copied().collect();
    until_asleep(&mut w, &all, 120);
    // A ball thrown at tower a.
    let ball_h = w
        .insert(ball(0.3, Vector::new(-5.0, 4.0, 3.0)).linvel(Vector::new(0.0, 0.0, -8.0)))
        .unwrap();
    let mut woke = false;
    for _ in 0..60 {
        w.step();
        if a.iter().all(|h| !asleep(&w, *h)) {
            woke = true;
            break;
        }
    }
    assert!(woke, "the hit tower did not wake");
    assert!(b.iter().all(|h| asleep(&w, *h)), "the other tower woke");
    let top = w.body(a[2]).unwrap();
    assert!(top.linvel().norm() > 0.0, "the hit box did not move");
    assert!(!asleep(&w, ball_h));
    w.validate().unwrap();
}

/// Each call that should wake a sleeping body does, and wakes its island (the whole tower).
#[test]
fn every_wake_trigger_wakes_the_island() {
    type Trigger = fn(&mut World, BodyHandle, BodyHandle) -> Result<(), WorldError>;
    let triggers: Vec<(&str, Trigger)> = vec![
        ("set_pose", |w, _, h| {
            let p = w.body(h).unwrap().pose();
            w.set_pose(h, p)
        }),
        ("set_translation", |w, _, h| {
            let t = w.body(h).unwrap().translation();
            w.set_translation(h, t + Vector::new(0.0, 0.01, 0.0))
        }),
        ("set_linvel", |w, _, h| {
            w.set_linvel(h, Vector::new(0.1, 0.0, 0.0))
        }),
        ("set_angvel", |w, _, h| {
            w.set_angvel(h, Vector::new(0.0, 0.1, 0.0))
        }),
        ("apply_impulse", |w, _, h| {
            w.apply_impulse(h, Vector::new(0.1, 0.0, 0.0))
        }),
        ("apply_impulse_at_point", |w, _, h| {
            let c = w.body(h).unwrap().center_of_mass();
            w.apply_impulse_at_point(h, Vector::new(0.1, 0.0, 0.0), Point::from(c))
        }),
        ("apply_force", |w, _, h| {
            w.apply_force(h, Vector::new(1.0, 0.0, 0.0))
        }),
        ("apply_torque", |w, _, h| {
            w.apply_torque(h, Vector::new(0.0, 1.0, 0.0))
        }),
        ("clear_forces", |w, _, h| w.clear_forces(h)),
        ("set_friction", |w, _, h| w.set_friction(h, 0.1)),
        ("set_restitution", |w, _, h| w.set_restitution(h, 0.3)),
        ("set_combine_rules", |w, _, h| {
            w.set_combine_rules(h, CombineRule::Min, CombineRule::Max)
        }),
        ("set_collision_groups", |w, _, h| {
            w.set_collision_groups(h, 1, 1)
        }),
        ("set_sensor", |w, _, h| w.set_sensor(h, false)),
        ("set_gravity", |w, _, _| {
            w.set_gravity(Vector::new(0.0, -9.0, 0.0))
        }),
        ("wake_up", |w, _, h| w.wake_up(h)),
        // The floor under the tower: moved, or its friction changed.
        ("set_pose of the floor", |w, floor, _| {
            let p = w.body(floor).unwrap().pose();
            w.set_pose(floor, p)
        }),
        ("set_friction of the floor", |w, floor, _| {
            w.set_friction(floor, 0.2)
        }),
    ];
    for (name, trigger) in triggers {
        let (mut w, floor, t) = sleeping_tower();
        // The middle box: the whole tower is one island.
        trigger(&mut w, floor, t[1]).unwrap();
        for h in &t {
            assert!(!asleep(&w, *h), "{name}: body {h:?} still asleep");
        }
        w.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        w.step();
        w.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn removing_a_touching_body_wakes_the_others() {
    let (mut w, _, t) = sleeping_tower();
    w.remove(t[0]).unwrap();
    assert!(!asleep(&w, t[1]) && !asleep(&w, t[2]));
    w.validate().unwrap();
    for _ in 0..20 {
        w.step();
    }
    assert!(
        w.body(t[1]).unwrap().translation().y < 1.4,
        "the tower did not fall"
    );
    // A body resting on the floor beside a removed neighbour of another island.
    let (mut w, floor, t) = sleeping_tower();
    w.remove(floor).unwrap();
    assert!(t.iter().all(|h| !asleep(&w, *h)));
    w.validate().unwrap();
}

#[test]
fn a_moving_kinematic_body_keeps_what_it_carries_awake() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let platform = w
        .insert(
            BodyBuilder::kinematic(tumble::Cuboid::new(Vector::new(3.0, 0.25, 3.0)).unwrap())
                .translation(Vector::new(0.0, -0.25, 0.0))
                .linvel(Vector::new(0.2, 0.0, 0.0))
                .friction(1.0),
        )
        .unwrap();
    let t = tower(&mut w, 0.0, 0.0, 2);
    for _ in 0..240 {
        w.step();
    }
    assert!(
        t.iter().all(|h| !asleep(&w, *h)),
        "slept on a moving platform"
    );
    // Stopped, the platform no longer keeps them awake.
    w.set_linvel(platform, Vector::zeros()).unwrap();
    until_asleep(&mut w, &t, 180);
}

#[test]
fn a_body_that_may_not_sleep_never_sleeps_nor_its_island() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    add_floor(&mut w, 0.6, 0.0);
    let under = w
        .insert(cuboid(Vector::new(0.5, 0.5, 0.5), Vector::new(0.0, 0.5, 0.0)).can_sleep(false))
        .unwrap();
    let over = w
        .insert(cuboid(
            Vector::new(0.5, 0.5, 0.5),
            Vector::new(0.0, 1.5, 0.0),
        ))
        .unwrap();
    let alone = w
        .insert(cuboid(
            Vector::new(0.5, 0.5, 0.5),
            Vector::new(5.0, 0.5, 0.0),
        ))
        .unwrap();
    for _ in 0..300 {
        w.step();
    }
    assert!(!w.body(under).unwrap().can_sleep());
    assert!(!asleep(&w, under) && !asleep(&w, over));
    assert!(asleep(&w, alone), "a separate island should sleep");
    w.validate().unwrap();
}

#[test]
fn no_contact_events_when_falling_asleep_or_waking() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    add_floor(&mut w, 0.6, 0.0);
    let t = tower(&mut w, 0.0, 0.0, 3);
    let mut started = 0;
    for _ in 0..10 {
        w.step();
        started += w
            .events()
            .iter()
            .filter(|e| matches!(e, Event::ContactStarted { .. }))
            .count();
    }
    assert!(started >= 3, "the tower's contacts did not start");
    // From now on the tower rests: falling asleep, sleeping and waking report nothing.
    let mut events = Vec::new();
    let mut slept = false;
    for _ in 0..200 {
        w.step();
        events.extend_from_slice(w.events());
        slept |= t.iter().all(|h| asleep(&w, *h));
    }
    assert!(slept);
    w.wake_up(t[0]).unwrap();
    for _ in 0..10 {
        w.step();
        events.extend_from_slice(w.events());
    }
    assert!(t.iter().all(|h| !asleep(&w, *h)));
    assert_eq!(events, vec![], "events while resting");
}

#[cfg(feature = "serde")]
#[test]
fn snapshot_mid_sleep_steps_on_identically() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    add_floor(&mut w, 0.6, 0.0);
    let t = tower(&mut w, 0.0, 0.0, 3);
    until_asleep(&mut w, &t, 120);
    // Something awake too, on its way to hit the tower; and one body resting, timer running.
    w.insert(ball(0.3, Vector::new(0.0, 6.0, 0.0))).unwrap();
    w.insert(cuboid(
        Vector::new(0.5, 0.5, 0.5),
        Vector::new(6.0, 0.5, 0.0),
    ))
    .unwrap();
    for _ in 0..20 {
        w.step();
    }
    let bytes = w.snapshot();
    let mut r = World::restore(&bytes).unwrap();
    r.validate().unwrap();
    let state = |w: &World| -> Vec<(bool, u32)> {
        w.bodies()
            .map(|(_, b)| (b.is_sleeping(), b.sleep_time().to_bits()))
            .collect()
    };
    assert_eq!(state(&w), state(&r));
    let mut woke = false;
    for _ in 0..150 {
        w.step();
        r.step();
        assert_eq!(w.state_hash(), r.state_hash());
        assert_eq!(state(&w), state(&r));
        assert_eq!(w.events(), r.events());
        woke |= t.iter().any(|h| !asleep(&w, *h));
    }
    assert!(woke, "the ball did not wake the tower");
    r.validate().unwrap();
}

#[test]
fn sleeping_is_deterministic_across_threads() {
    let run = || {
        let mut w = World::new(WorldConfig::default()).unwrap();
        add_floor(&mut w, 0.6, 0.0);
        let mut hs = Vec::new();
        for i in 0..6 {
            hs.extend(tower(&mut w, -6.0 + 2.5 * i as Real, 0.0, 4));
        }
        // Balls dropped on two of the towers after they sleep.
        let mut trace = Vec::new();
        for k in 0..400 {
            if k == 150 {
                w.insert(ball(0.4, Vector::new(-6.0, 8.0, 0.0))).unwrap();
                w.insert(ball(0.4, Vector::new(1.5, 9.0, 0.2))).unwrap();
            }
            w.step();
            trace.push((w.state_hash(), w.sleeping_body_count()));
        }
        trace
    };
    let t1 = in_pool(1, run);
    assert!(
        t1.iter().any(|(_, n)| *n == 24),
        "the towers never all slept"
    );
    assert_eq!(in_pool(2, run), t1);
    assert_eq!(in_pool(4, run), t1);
}

#[test]
fn inserted_asleep_and_sleep_configuration() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    add_floor(&mut w, 0.6, 0.0);
    let h = w
        .insert(cuboid(Vector::new(0.5, 0.5, 0.5), Vector::new(0.0, 0.5, 0.0)).sleeping(true))
        .unwrap();
    assert!(asleep(&w, h));
    w.validate().unwrap();
    let at = w.body(h).unwrap().pose();
    for _ in 0..10 {
        w.step();
    }
    assert_eq!(w.body(h).unwrap().pose(), at);
    // Refused: a static body asleep, one that may not sleep, one with a velocity.
    let fixed = BodyBuilder::fixed(tumble::Cuboid::new(Vector::repeat(0.5)).unwrap());
    assert!(matches!(
        w.insert(fixed.sleeping(true)),
        Err(WorldError::Config(_))
    ));
    let unit = || cuboid(Vector::repeat(0.5), Vector::new(3.0, 0.5, 0.0));
    assert!(w.insert(unit().sleeping(true).can_sleep(false)).is_err());
    assert!(w
        .insert(unit().sleeping(true).linvel(Vector::new(1.0, 0.0, 0.0)))
        .is_err());
    // Without sleeping, nothing may be inserted asleep and nothing falls asleep.
    let mut off = World::new(WorldConfig {
        sleep: false,
        ..WorldConfig::default()
    })
    .unwrap();
    add_floor(&mut off, 0.6, 0.0);
    assert!(matches!(
        off.insert(unit().sleeping(true)),
        Err(WorldError::Config(_))
    ));
    let t = tower(&mut off, 0.0, 0.0, 2);
    for _ in 0..200 {
        off.step();
    }
    assert!(t.iter().all(|h| !asleep(&off, *h)));
    assert_eq!(off.sleeping_body_count(), 0);
    // Bad thresholds are typed errors.
    for config in [
        WorldConfig {
            sleep_linear_speed: -1.0,
            ..WorldConfig::default()
        },
        WorldConfig {
            sleep_angular_speed: Real::NAN,
            ..WorldConfig::default()
        },
        WorldConfig {
            time_to_sleep: Real::INFINITY,
            ..WorldConfig::default()
        },
    ] {
        assert!(World::new(config).is_err());
    }
}

#[test]
fn sleep_puts_the_island_asleep_now() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let floor = add_floor(&mut w, 0.6, 0.0);
    let t = tower(&mut w, 0.0, 0.0, 3);
    let other = tower(&mut w, 4.0, 0.0, 1);
    for _ in 0..5 {
        w.step();
    }
    w.sleep(t[2]).unwrap();
    assert!(t.iter().all(|h| asleep(&w, *h)), "the whole tower sleeps");
    assert!(!asleep(&w, other[0]), "a separate island stays awake");
    w.validate().unwrap();
    let at: Vec<Isometry> = t.iter().map(|h| w.body(*h).unwrap().pose()).collect();
    for _ in 0..30 {
        w.step();
    }
    let now: Vec<Isometry> = t.iter().map(|h| w.body(*h).unwrap().pose()).collect();
    assert_eq!(at, now);
    assert!(matches!(w.sleep(floor), Err(WorldError::NotDynamic(_))));
    let stuck = w
        .insert(cuboid(Vector::repeat(0.5), Vector::new(-4.0, 0.5, 0.0)).can_sleep(false))
        .unwrap();
    assert!(matches!(w.sleep(stuck), Err(WorldError::Config(_))));
    assert!(!asleep(&w, stuck));
    w.validate().unwrap();
}

#[test]
fn a_static_body_inserted_into_a_sleeping_pile_wakes_it() {
    let (mut w, _, t) = sleeping_tower();
    let far = tower(&mut w, 8.0, 0.0, 1);
    until_asleep(&mut w, &far, 120);
    // A wall pushed into the tower's side.
    w.insert(
        BodyBuilder::fixed(tumble::Cuboid::new(Vector::new(0.5, 2.0, 2.0)).unwrap())
            .translation(Vector::new(0.9, 2.0, 0.0)),
    )
    .unwrap();
    assert!(t.iter().all(|h| !asleep(&w, *h)), "the tower still sleeps");
    assert!(asleep(&w, far[0]), "a box far away woke");
    w.validate().unwrap();
}

/// A square pyramid of unit cubes (base 20, 2 870 cubes, pitch 1.01: the peer harness's
/// `pyramid`) falls asleep within 2 s and then moves no more than it does awake over the same
/// 2 s. Awake, its upper half trembles at about 9 Hz with ±5 cm/s (0.9 mm of travel): the
/// sleep test averages the velocities over 0.1 s (`island::SLEEP_SMOOTHING`).
#[test]
fn a_pyramid_sleeps_within_two_seconds_without_moving_more() {
    let build = |sleep: bool| {
        let mut w = World::new(WorldConfig {
            sleep,
            ..WorldConfig::default()
        })
        .unwrap();
        add_floor(&mut w, 0.6, 0.0);
        let b = 20;
        let mut cubes = Vec::new();
        for k in 0..b {
            let side = b - k;
            let off = (side - 1) as Real / 2.0;
            for iz in 0..side {
                for ix in 0..side {
                    let at = Vector::new(
                        (ix as Real - off) * 1.01,
                        0.5 + k as Real,
                        (iz as Real - off) * 1.01,
                    );
                    let h = w
                        .insert(cuboid(Vector::repeat(0.5), at).friction(0.6))
                        .unwrap();
                    cubes.push((h, at));
                }
            }
        }
        (w, cubes)
    };
    let moved = |w: &World, cubes: &[(BodyHandle, Vector)]| {
        cubes
            .iter()
            .map(|(h, at)| (w.body(*h).unwrap().translation() - at).norm())
            .fold(0.0, Real::max)
    };
    let (mut asleep_w, cubes) = build(true);
    let handles: Vec<BodyHandle> = cubes.iter().map(|c| c.0).collect();
    let steps = until_asleep(&mut asleep_w, &handles, 120);
    for _ in steps..120 {
        asleep_w.step();
    }
    let (mut awake_w, _) = build(false);
    for _ in 0..120 {
        awake_w.step();
    }
    let (slept, awake) = (moved(&asleep_w, &cubes), moved(&awake_w, &cubes));
    assert!(slept <= awake, "moved {slept} m asleep, {awake} m awake");
    asleep_w.validate().unwrap();
}
