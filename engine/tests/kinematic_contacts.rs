//! Contacts between kinematic and static or kinematic bodies, on request
//! (`BodyBuilder::kinematic_contacts`, rapier's `ActiveCollisionTypes`): a kinematic box driven
//! into a static wall reports the contact in events and in `contacts_of` when either body asks,
//! neither body is pushed, and without the request the pair stays silent.

mod common;
use common::*;
use tumble::math::Vector;
use tumble::{BodyBuilder, BodyHandle, Cuboid, Event, World, WorldConfig};

/// A static wall whose face is at x = 2, and a kinematic unit box moving towards it at 1 m/s
/// from x = 0 (it reaches the wall after 1.5 s and goes into it). The flags say who asks.
fn wall_and_mover(wall_asks: bool, mover_asks: bool) -> (World, BodyHandle, BodyHandle) {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let wall = w
        .insert(
            BodyBuilder::fixed(Cuboid::new(Vector::new(0.5, 2.0, 2.0)).unwrap())
                .translation(Vector::new(2.5, 0.0, 0.0))
                .kinematic_contacts(wall_asks),
        )
        .unwrap();
    let mover = w
        .insert(
            BodyBuilder::kinematic(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).unwrap())
                .linvel(Vector::new(1.0, 0.0, 0.0))
                .kinematic_contacts(mover_asks),
        )
        .unwrap();
    (w, wall, mover)
}

/// Steps 2 s; returns the step (1-based) of the first `ContactStarted` between the two, if any.
fn first_contact(w: &mut World, a: BodyHandle, b: BodyHandle) -> Option<usize> {
    let mut first = None;
    for k in 1..=120 {
        w.step();
        let started = w.events().iter().any(|e| {
            matches!(e, Event::ContactStarted { a: x, b: y } if (*x, *y) == (a, b) || (*x, *y) == (b, a))
        });
        if started && first.is_none() {
            first = Some(k);
        }
    }
    first
}

#[test]
fn kinematic_box_meets_a_static_wall_when_either_asks() {
    for (wall_asks, mover_asks) in [(true, false), (false, true), (true, true)] {
        let (mut w, wall, mover) = wall_and_mover(wall_asks, mover_asks);
        let k = first_contact(&mut w, wall, mover).expect("the contact started");
        // Touching from t = 1.5 s (step 90); the contact starts within a step of it.
        assert!((89..=91).contains(&k), "started at step {k}");
        let touching = w.contacts_of(mover).unwrap().count();
        assert_eq!(touching, 1, "the wall in contacts_of");
        // Nobody was pushed: the mover kept its velocity, the wall its place.
        let x = w.body(mover).unwrap().translation().x;
        assert!((x - 2.0).abs() < 1e-4, "the mover went on to x = {x}");
        assert_eq!(w.body(wall).unwrap().translation().x, 2.5);
        w.validate().unwrap();
    }
}

#[test]
fn without_the_request_the_pair_is_silent() {
    let (mut w, wall, mover) = wall_and_mover(false, false);
    assert_eq!(first_contact(&mut w, wall, mover), None);
    assert_eq!(w.contacts_of(mover).unwrap().count(), 0);
    // Turned on later: the contact starts at the next step, and ends when turned off again.
    w.set_kinematic_contacts(mover, true).unwrap();
    w.step();
    assert!(w
        .events()
        .iter()
        .any(|e| matches!(e, Event::ContactStarted { .. })));
    w.set_kinematic_contacts(mover, false).unwrap();
    w.step();
    assert!(w
        .events()
        .iter()
        .any(|e| matches!(e, Event::ContactStopped { .. })));
}

#[test]
fn two_kinematic_bodies_meet_on_request() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let a = w
        .insert(
            BodyBuilder::kinematic(tumble::Ball::new(0.5).unwrap())
                .linvel(Vector::new(1.0, 0.0, 0.0))
                .kinematic_contacts(true),
        )
        .unwrap();
    let b = w.insert(ball(0.5, Vector::new(2.5, 0.0, 0.0))).unwrap();
    w.set_body_kind(b, tumble::BodyKind::Kinematic).unwrap();
    // Touching from t = 1.5 s (step 90): the balls' centres 1 m apart.
    let k = first_contact(&mut w, a, b).expect("the contact started");
    assert!((89..=91).contains(&k), "started at step {k}");
    assert_eq!(w.body(b).unwrap().translation().x, 2.5, "b was not pushed");
    w.validate().unwrap();
}
