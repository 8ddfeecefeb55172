//! The clock under any configuration: [`check_clock`] makes a world from a configuration whose
//! time fields (`dt`, `max_frame_time`, `max_steps_per_frame`, `prediction_distance`) and pair
//! budget (`max_pairs`, mostly below the scene's pair count) are anything at all, then drives it with `advance` of arbitrary frame times beside a twin
//! driven with `step`.
//!
//! Checked: `World::new` accepts exactly the configurations within the documented bounds; every
//! `advance` returns (finite, non-negative frames are accepted, others refused), runs at most
//! `max_steps_per_frame` steps, leaves the accumulator in `[0, dt)` and accounts for the time it
//! was given (steps × dt + dropped + kept − kept before = the capped frame); the events shown
//! after each call, concatenated, are exactly those of the twin stepped as many times, and
//! both worlds have the same state.

use super::input::real_in;
use super::shapes::any_real;
use arbitrary::{Arbitrary, Result, Unstructured};
use tumble::math::{Real, Vector};
use tumble::narrowphase::shape::{Ball, Cuboid};
use tumble::{BodyBuilder, Event, World, WorldConfig};

/// Fuzz entry: an arbitrary clock configuration and arbitrary frames.
pub fn check_clock(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = run(&mut u);
}

/// A number that is usually within `[lo, hi]`, sometimes anything at all.
fn time(u: &mut Unstructured<'_>, lo: Real, hi: Real) -> Result<Real> {
    if u.ratio(1u8, 4u8)? {
        any_real(u)
    } else {
        real_in(u, lo, hi, false)
    }
}

/// True when `config`'s clock fields lie within the bounds documented on `WorldConfig`.
fn within_bounds(c: &WorldConfig) -> bool {
    (tumble::MIN_DT..=tumble::MAX_DT).contains(&c.dt)
        && (c.dt..=tumble::MAX_FRAME_TIME).contains(&c.max_frame_time)
        && (1..=tumble::MAX_STEPS_PER_FRAME).contains(&c.max_steps_per_frame)
        && (0.0..=tumble::MAX_PREDICTION_DISTANCE).contains(&c.prediction_distance)
        && (1..=tumble::MAX_PAIRS).contains(&c.max_pairs)
}

/// A floor, a few bouncing balls and a sensor a ball falls through: events of every kind.
fn scene(w: &mut World) {
    let floor = Cuboid::new(Vector::new(10.0, 0.5, 10.0)).expect("floor");
    let _ = w.insert(
        BodyBuilder::fixed(floor)
            .translation(Vector::new(0.0, -0.5, 0.0))
            .restitution(1.0),
    );
    let slab = Cuboid::new(Vector::new(0.5, 0.1, 0.5)).expect("slab");
    let _ = w.insert(
        BodyBuilder::fixed(slab)
            .translation(Vector::new(0.0, 0.8, 3.0))
            .sensor(true),
    );
    for (i, at) in [(-1.0, 0.6, 0.0), (1.0, 1.0, 0.0), (0.0, 1.6, 3.0)]
        .into_iter()
        .enumerate()
    {
        let ball = Ball::new(0.1 + 0.05 * i as Real).expect("ball");
        let _ = w.insert(
            BodyBuilder::dynamic(ball)
                .translation(Vector::new(at.0, at.1, at.2))
                .restitution(1.0),
        );
    }
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let defaults = WorldConfig::default();
    let config = WorldConfig {
        dt: if bool::arbitrary(u)? {
            defaults.dt
        } else {
            time(u, 0.0, 0.05)?
        },
        max_frame_time: time(u, 0.0, 0.5)?,
        max_steps_per_frame: if u.ratio(3u8, 4u8)? {
            u.int_in_range(0..=40)?
        } else {
            u32::arbitrary(u)?
        },
        prediction_distance: time(u, 0.0, 0.1)?,
        // Mostly a budget the scene's few pairs exceed (pairs dropped every step).
        max_pairs: if u.ratio(3u8, 4u8)? {
            u.int_in_range(0..=8)?
        } else {
            u32::arbitrary(u)?
        },
        ..defaults
    };
    let accepted = within_bounds(&config);
    let (mut w, mut twin) = match (World::new(config.clone()), World::new(config.clone())) {
        (Ok(w), Ok(twin)) => {
            assert!(
                accepted,
                "a configuration beyond the bounds was accepted: {config:?}"
            );
            (w, twin)
        }
        (Err(e), _) => {
            assert!(
                !accepted,
                "a configuration within the bounds was refused: {e}"
            );
            return Ok(());
        }
        (Ok(_), Err(e)) => panic!("the same configuration accepted once, then refused: {e}"),
    };
    scene(&mut w);
    scene(&mut twin);
    let dt = config.dt as f64;
    let mut log: Vec<Event> = Vec::new();
    let mut twin_log: Vec<Event> = Vec::new();
    for _ in 0..12 {
        if u.is_empty() || w.step_count() > 600 {
            break;
        }
        let frame = if bool::arbitrary(u)? {
            any_real(u)?
        } else {
            real_in(u, 0.0, 3.0 * config.dt, false)?
        };
        let before = w.accumulator() as f64;
        let Ok(a) = w.advance(frame) else {
            assert!(
                !(frame.is_finite() && frame >= 0.0),
                "advance({frame}) refused"
            );
            continue;
        };
        assert!(
            frame.is_finite() && frame >= 0.0,
            "advance({frame}) accepted"
        );
        assert!(a.steps <= config.max_steps_per_frame, "{} steps", a.steps);
        let kept = w.accumulator() as f64;
        assert!(
            (0.0..dt).contains(&kept),
            "accumulator {kept} outside [0, {dt})"
        );
        let given = frame.min(config.max_frame_time) as f64;
        let used = a.steps as f64 * dt + a.dropped_seconds as f64 + kept - before;
        assert!(
            (used - given).abs() <= 1e-5 * (1.0 + given),
            "advance({frame}): {used} s accounted for, {given} s given"
        );
        log.extend_from_slice(w.events());
        for _ in 0..a.steps {
            twin.step();
            twin_log.extend_from_slice(twin.events());
        }
        assert_eq!(
            log, twin_log,
            "events under advance differ from those of step"
        );
        assert_eq!(
            w.state_hash(),
            twin.state_hash(),
            "advance and step diverged"
        );
        if let Err(e) = w.validate() {
            panic!("World::validate after advance: {e}");
        }
    }
    Ok(())
}
