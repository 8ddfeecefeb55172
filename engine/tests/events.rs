//! Contact and sensor events, queries, collision groups and collision-only mode.

mod common;
use common::*;
use tumble::math::{Isometry, Point, Vector};
use tumble::narrowphase::shape::{Ball, Cuboid, Shape};
use tumble::narrowphase::Aabb;
use tumble::{BodyBuilder, BroadPhaseKind, CollisionWorld, Event, QueryFilter, World};

/// Steps `w` `steps` times and returns the events of every step, in order.
fn events_of_steps(w: &mut World, steps: usize) -> Vec<Event> {
    let mut log = Vec::new();
    for _ in 0..steps {
        w.step();
        log.extend_from_slice(w.events());
    }
    log
}

#[test]
fn contact_started_and_stopped() {
    let mut w = world_with_gravity(Vector::zeros());
    let a = w
        .insert(
            ball(0.5, Vector::new(-1.0, 0.0, 0.0))
                .linvel(Vector::new(2.0, 0.0, 0.0))
                .restitution(1.0),
        )
        .unwrap();
    let b = w
        .insert(
            ball(0.5, Vector::new(1.0, 0.0, 0.0))
                .linvel(Vector::new(-2.0, 0.0, 0.0))
                .restitution(1.0),
        )
        .unwrap();
    let log = events_of_steps(&mut w, 60);
    assert_eq!(
        log,
        vec![
            Event::ContactStarted { a, b },
            Event::ContactStopped { a, b }
        ]
    );
}

#[test]
fn sensors_report_and_do_not_respond() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    let sensor = w
        .insert(
            BodyBuilder::fixed(Cuboid::new(Vector::new(2.0, 0.5, 2.0)).unwrap())
                .translation(Vector::new(0.0, 2.0, 0.0))
                .sensor(true),
        )
        .unwrap();
    let b = w.insert(ball(0.25, Vector::new(0.0, 4.0, 0.0))).unwrap();
    let log = events_of_steps(&mut w, 90);
    assert_eq!(
        log,
        vec![
            Event::SensorEnter { sensor, other: b },
            Event::SensorExit { sensor, other: b }
        ]
    );
    assert!(
        w.body(b).unwrap().translation().y < 0.0,
        "the ball fell through the sensor"
    );
}

#[test]
fn collision_groups_filter_pairs() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    w.insert(
        BodyBuilder::fixed(Cuboid::new(Vector::new(5.0, 0.5, 5.0)).unwrap())
            .translation(Vector::new(0.0, -0.5, 0.0))
            .collision_groups(0b01, 0b01),
    )
    .unwrap();
    let passes = w
        .insert(ball(0.5, Vector::new(0.0, 1.0, 0.0)).collision_groups(0b10, 0b10))
        .unwrap();
    let rests = w
        .insert(ball(0.5, Vector::new(2.0, 1.0, 0.0)).collision_groups(0b01, 0b11))
        .unwrap();
    for _ in 0..120 {
        w.step();
    }
    assert!(w.body(passes).unwrap().translation().y < -1.0);
    assert!((w.body(rests).unwrap().translation().y - 0.5).abs() < 0.02);
}

#[test]
fn queries_find_bodies() {
    let mut w = world_with_gravity(Vector::zeros());
    let floor = add_floor(&mut w, 0.5, 0.0);
    let b = w.insert(ball(0.5, Vector::new(0.0, 3.0, 0.0))).unwrap();
    let c = w
        .insert(cuboid(Vector::repeat(0.5), Vector::new(3.0, 3.0, 0.0)))
        .unwrap();
    w.step();
    let sensorless = QueryFilter::new().exclude_sensors();
    // Ray straight down from above the ball hits the ball's top at y = 3.5.
    let hit = w
        .cast_ray(Point::new(0.0, 10.0, 0.0), -Vector::y(), 100.0, &sensorless)
        .unwrap()
        .unwrap();
    assert_eq!(hit.body, b);
    assert!((hit.point.y - 3.5).abs() < 1e-3 && (hit.normal - Vector::y()).norm() < 1e-3);
    // Beside the ball it reaches the floor (t = 10 with a unit direction).
    let hit = w
        .cast_ray(Point::new(1.5, 10.0, 0.0), -Vector::y(), 100.0, &sensorless)
        .unwrap()
        .unwrap();
    assert_eq!(hit.body, floor);
    assert!((hit.t - 10.0).abs() < 1e-3);
    assert!(w
        .cast_ray(Point::new(1.5, 10.0, 0.0), Vector::y(), 100.0, &sensorless)
        .unwrap()
        .is_none());
    assert!(w
        .cast_ray(Point::origin(), Vector::zeros(), 1.0, &sensorless)
        .is_err());
    let box_query = Aabb::new(Point::new(-1.0, 2.0, -1.0), Point::new(4.0, 4.0, 1.0)).unwrap();
    assert_eq!(w.query_aabb(&box_query).unwrap(), vec![b, c]);
    let probe = Shape::from(Ball::new(0.3).unwrap());
    assert_eq!(
        w.query_shape(&probe, &Isometry::translation(0.0, 3.7, 0.0))
            .unwrap(),
        vec![b]
    );
    assert_eq!(
        w.query_shape(&probe, &Isometry::translation(1.5, 3.0, 0.0))
            .unwrap(),
        vec![]
    );
    assert_eq!(
        w.query_shape(&probe, &Isometry::translation(2.3, 3.0, 0.0))
            .unwrap(),
        vec![c]
    );
}

/// Collision-only mode reports exactly the pairs of balls closer than their radii sum, as a
/// brute-force check does.
#[test]
fn collision_world_matches_brute_force() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut cw = CollisionWorld::new(BroadPhaseKind::default(), 0.0).unwrap();
    let n = 400;
    let mut pos: Vec<Vector> = (0..n)
        .map(|_| {
            Vector::new(
                rng.gen_range(0.0..10.0),
                rng.gen_range(0.0..10.0),
                rng.gen_range(0.0..10.0),
            )
        })
        .collect();
    let hs: Vec<_> = pos
        .iter()
        .enumerate()
        .map(|(i, p)| {
            cw.insert(
                Ball::new(0.5).unwrap(),
                Isometry::translation(p.x, p.y, p.z),
                i as u64,
            )
            .unwrap()
        })
        .collect();
    for _ in 0..5 {
        for (h, p) in hs.iter().zip(pos.iter_mut()) {
            *p += Vector::new(
                rng.gen_range(-0.3..0.3),
                rng.gen_range(-0.3..0.3),
                rng.gen_range(-0.3..0.3),
            );
            cw.set_pose(*h, Isometry::translation(p.x, p.y, p.z))
                .unwrap();
        }
        cw.update();
        cw.validate().unwrap();
        let mut brute = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if (pos[i] - pos[j]).norm_squared() <= 1.0 {
                    brute.push((hs[i], hs[j]));
                }
            }
        }
        let got: Vec<_> = cw.pairs().collect();
        assert_eq!(got.len(), cw.intersecting_pair_count());
        assert_eq!(got, brute);
    }
}

/// A kinematic paddle moves at its set velocity, ignores gravity and contacts, and pushes a
/// dynamic ball.
#[test]
fn kinematic_body_pushes() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    add_floor(&mut w, 0.0, 0.0);
    let paddle = w
        .insert(
            BodyBuilder::kinematic(Cuboid::new(Vector::new(0.1, 0.5, 1.0)).unwrap())
                .translation(Vector::new(-1.0, 0.6, 0.0))
                .linvel(Vector::new(1.0, 0.0, 0.0)),
        )
        .unwrap();
    let b = w
        .insert(ball(0.5, Vector::new(0.0, 0.5, 0.0)).friction(0.0))
        .unwrap();
    for _ in 0..120 {
        w.step();
    }
    let p = w.body(paddle).unwrap();
    assert!(
        (p.translation() - Vector::new(1.0, 0.6, 0.0)).norm() < 1e-3,
        "{}",
        p.translation()
    );
    assert!(
        w.body(b).unwrap().translation().x > 1.5,
        "the ball was pushed"
    );
}

/// An off-centre impulse spins a body: Δω = I⁻¹ (r × J).
#[test]
fn impulse_at_point_spins() {
    let mut w = world_with_gravity(Vector::zeros());
    let b = w
        .insert(cuboid(Vector::repeat(0.5), Vector::zeros()).density(1.0))
        .unwrap();
    w.apply_impulse_at_point(b, Vector::new(0.0, 1.0, 0.0), Point::new(0.5, 0.0, 0.0))
        .unwrap();
    let body = w.body(b).unwrap();
    // Unit cube of mass 1: I = 1/6 about every axis; r × J = (0, 0, 0.5) → ω = (0, 0, 3).
    assert!(
        (body.angvel() - Vector::new(0.0, 0.0, 3.0)).norm() < 1e-4,
        "{}",
        body.angvel()
    );
    assert!((body.linvel() - Vector::new(0.0, 1.0, 0.0)).norm() < 1e-6);
}

/// A crowd of a few thousand contact pairs (the event merge runs in chunks of the new cache):
/// every step's contact events are exactly those of the serial merge of the caches before and
/// after the step (pair order; a pair touching only before stopped, only after started), and
/// the counts match the cache.
#[test]
fn contact_events_of_a_crowd_match_the_caches() {
    let mut w = world_with_gravity(Vector::zeros());
    let mut k = 0u32;
    for x in 0..16 {
        for y in 0..16 {
            for z in 0..16 {
                // Spacing just under a diameter, velocities of both signs: pairs start and
                // stop touching everywhere in the cache.
                let h = |s: u32| ((k.wrapping_mul(2_654_435_761) >> s) % 7) as f32 - 3.0;
                let at = Vector::new(x as f32, y as f32, z as f32) * 0.98;
                w.insert(ball(0.5, at).linvel(Vector::new(h(3), h(9), h(15)) * 0.5))
                    .unwrap();
                k += 1;
            }
        }
    }
    type Cache = Vec<(tumble::BodyHandle, tumble::BodyHandle, bool)>;
    let cache =
        |w: &tumble::World| -> Cache { w.contacts().map(|c| (c.a, c.b, c.touching)).collect() };
    let mut before = cache(&w);
    let (mut starts, mut stops) = (0, 0);
    for step in 0..12 {
        w.step();
        let after = cache(&w);
        assert!(after.len() > 3000, "step {step}: {} pairs", after.len());
        let mut expect = Vec::new();
        let (mut i, mut j) = (0, 0);
        let key = |p: &(tumble::BodyHandle, tumble::BodyHandle, bool)| (p.0.index(), p.1.index());
        while i < before.len() || j < after.len() {
            let take_old =
                j == after.len() || (i < before.len() && key(&before[i]) <= key(&after[j]));
            let take_new =
                i == before.len() || (j < after.len() && key(&after[j]) <= key(&before[i]));
            let (o, n) = (take_old.then(|| before[i]), take_new.then(|| after[j]));
            let same = matches!((o, n), (Some(o), Some(n)) if (o.0, o.1) == (n.0, n.1));
            if let Some(o) = o.filter(|o| o.2 && !(same && n.is_some_and(|n| n.2))) {
                expect.push(Event::ContactStopped { a: o.0, b: o.1 });
            }
            if let Some(n) = n.filter(|n| n.2 && !(same && o.is_some_and(|o| o.2))) {
                expect.push(Event::ContactStarted { a: n.0, b: n.1 });
            }
            i += take_old as usize;
            j += take_new as usize;
        }
        assert_eq!(w.events(), &expect[..], "step {step}");
        starts += expect
            .iter()
            .filter(|e| matches!(e, Event::ContactStarted { .. }))
            .count();
        stops += expect
            .iter()
            .filter(|e| matches!(e, Event::ContactStopped { .. }))
            .count();
        assert_eq!(w.contact_pair_count(), after.len());
        assert_eq!(
            w.touching_pair_count(),
            after.iter().filter(|p| p.2).count()
        );
        assert_eq!(
            w.contact_count(),
            w.contacts().map(|c| c.manifold.len()).sum::<usize>()
        );
        before = after;
    }
    assert!(
        starts > 100 && stops > 100,
        "{starts} starts, {stops} stops"
    );
}
