//! Worlds built and stepped from arbitrary commands, and snapshots restored from arbitrary
//! bytes.
//!
//! [`check_world`]: a world with an arbitrary configuration (broad phase, CCD, gravity) takes up
//! to 60 commands — insert any shape with any pose, velocity and material (numbers sometimes
//! NaN, infinite or huge), remove, teleport, set velocities, apply forces and impulses,
//! unfreeze, step, advance, snapshot and restore. After every command `World::validate`
//! passes; a refused call changes nothing (same `state_hash`); a valid insert of moderate
//! numbers is accepted; every body a step reports frozen is frozen; a snapshot restores to the
//! same hash and both copies step on bit-identically.
//!
//! [`check_snapshot`]: `World::restore` on arbitrary bytes and on mutated real snapshots
//! returns an error or a world that validates and steps, never panics.

use super::input::{pose, real_in, ShapeRecipe};
use super::shapes::any_real;
use arbitrary::{Arbitrary, Result, Unstructured};
use tumble::math::{Real, Vector};
use tumble::{BodyBuilder, BodyHandle, BroadPhaseKind, World, WorldConfig};

fn kind(u: &mut Unstructured<'_>) -> Result<BroadPhaseKind> {
    Ok(*u.choose(&[
        BroadPhaseKind::BruteForce,
        BroadPhaseKind::Grid,
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::Bvh,
    ])?)
}

/// A number that is usually moderate (`[-r, r]`), sometimes anything at all.
fn number(u: &mut Unstructured<'_>, r: Real) -> Result<Real> {
    if u.ratio(1u8, 8u8)? {
        any_real(u)
    } else {
        let grid = bool::arbitrary(u)?;
        real_in(u, -r, r, grid)
    }
}

fn vector(u: &mut Unstructured<'_>, r: Real) -> Result<Vector> {
    Ok(Vector::new(number(u, r)?, number(u, r)?, number(u, r)?))
}

fn finite(v: &Vector) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// A body builder and whether every number in it is moderate (so the insert must succeed).
fn builder(u: &mut Unstructured<'_>) -> Result<Option<(BodyBuilder, bool)>> {
    let grid = bool::arbitrary(u)?;
    let recipe = ShapeRecipe::draw(u, grid)?;
    let Some(shape) = recipe.build() else {
        return Ok(None);
    };
    let grid = bool::arbitrary(u)?;
    let p = pose(u, 15.0, grid)?;
    let v = vector(u, 20.0)?;
    let w = vector(u, 10.0)?;
    let density = number(u, 5.0)?;
    let friction = number(u, 1.0)?;
    let restitution = number(u, 1.0)?;
    // A triangle has no volume: a dynamic one may be refused (no mass); that is not a bug.
    let moderate = !matches!(recipe, ShapeRecipe::Triangle(_))
        && finite(&v)
        && finite(&w)
        && v.abs().max() <= 20.0
        && w.abs().max() <= 10.0
        && density > 0.05
        && density <= 5.0
        && (0.0..=1.0).contains(&friction)
        && (0.0..=1.0).contains(&restitution);
    let b = match u.int_in_range(0u8..=5)? {
        0 => BodyBuilder::fixed(shape),
        1 => BodyBuilder::kinematic(shape),
        _ => BodyBuilder::dynamic(shape),
    };
    let b = b
        .pose(p)
        .linvel(v)
        .angvel(w)
        .density(density)
        .friction(friction)
        .restitution(restitution)
        .ccd(bool::arbitrary(u)?)
        .sensor(u.ratio(1u8, 8u8)?)
        .collision_groups(u32::arbitrary(u)? | 1, u32::arbitrary(u)? | 1);
    Ok(Some((b, moderate)))
}

fn pick(u: &mut Unstructured<'_>, handles: &[BodyHandle]) -> Result<Option<BodyHandle>> {
    Ok(if handles.is_empty() {
        None
    } else {
        Some(handles[u.choose_index(handles.len())?])
    })
}

fn must_validate(w: &World, after: &str) {
    if let Err(e) = w.validate() {
        panic!("World::validate after {after}: {e}");
    }
}

/// Steps a world and checks the report.
fn step_checked(w: &mut World) {
    let report = w.step();
    for h in &report.frozen {
        let b = w.body(*h).expect("a frozen handle names no body");
        assert!(b.is_frozen(), "reported frozen but not frozen");
    }
    must_validate(w, "step");
}

/// Fuzz entry: arbitrary commands on one world.
pub fn check_world(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = run(&mut u);
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let config = WorldConfig {
        broad_phase: kind(u)?,
        ccd: bool::arbitrary(u)?,
        gravity: Vector::new(0.0, -real_in(u, 0.0, 20.0, true)?, 0.0),
        ..WorldConfig::default()
    };
    let mut w = World::new(config).expect("default configuration refused");
    let mut handles: Vec<BodyHandle> = Vec::new();
    let mut steps = 0;
    for _ in 0..60 {
        if u.is_empty() {
            break;
        }
        let before = w.state_hash();
        let len = w.len();
        match u.int_in_range(0u8..=11)? {
            0..=3 => {
                if handles.len() >= 40 {
                    continue;
                }
                if let Some((b, moderate)) = builder(u)? {
                    match w.insert(b) {
                        Ok(h) => handles.push(h),
                        Err(e) => {
                            assert!(!moderate, "a moderate insert was refused: {e}");
                            assert_eq!(
                                (w.len(), w.state_hash()),
                                (len, before),
                                "a refused insert changed the world"
                            );
                        }
                    }
                }
            }
            4 => {
                if let Some(h) = pick(u, &handles)? {
                    w.remove(h).expect("remove of a live body refused");
                    handles.retain(|&x| x != h);
                    assert!(w.remove(h).is_err(), "a removed handle was accepted again");
                }
            }
            5 => {
                if let Some(h) = pick(u, &handles)? {
                    let p = pose(u, 15.0, false)?;
                    w.set_pose(h, p).expect("a moderate pose was refused");
                }
            }
            6 | 7 => {
                if let Some(h) = pick(u, &handles)? {
                    let v = vector(u, 30.0)?;
                    let r = match u.int_in_range(0u8..=3)? {
                        0 => w.set_linvel(h, v),
                        1 => w.set_angvel(h, v),
                        2 => w.apply_force(h, v * 1e3),
                        _ => w.apply_impulse(h, v),
                    };
                    if r.is_err() {
                        assert_eq!(w.state_hash(), before, "a refused call changed the world");
                    }
                }
            }
            8 => {
                if let Some(h) = pick(u, &handles)? {
                    w.unfreeze(h).expect("unfreeze of a live body refused");
                }
            }
            9 => {
                let frame = number(u, 0.2)?;
                let r = w.advance(frame);
                assert_eq!(
                    r.is_ok(),
                    frame.is_finite() && frame >= 0.0,
                    "advance({frame})"
                );
                steps += 6;
            }
            10 => {
                let copy =
                    World::restore(&w.snapshot()).expect("a fresh snapshot does not restore");
                assert_eq!(
                    copy.state_hash(),
                    w.state_hash(),
                    "restore changed the state"
                );
                must_validate(&copy, "restore");
                let mut copy = copy;
                copy.step();
                w.step();
                assert_eq!(
                    copy.state_hash(),
                    w.state_hash(),
                    "a restored world steps differently"
                );
                steps += 1;
            }
            _ => {
                if steps < 40 {
                    step_checked(&mut w);
                    steps += 1;
                }
            }
        }
        must_validate(&w, "a command");
    }
    for _ in 0..3 {
        step_checked(&mut w);
    }
    Ok(())
}

/// `payload` behind a header of the current snapshot format whose length and checksum match
/// it, so that restore decodes it and checks its physics (as it would a payload written by
/// other means).
pub fn seal_snapshot(payload: &[u8]) -> Vec<u8> {
    let mut out = b"TUMBLSNP".to_vec();
    out.extend_from_slice(&tumble::SNAPSHOT_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&tumble::snapshot_checksum(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// Fuzz entry: `World::restore` on arbitrary bytes (after a valid header with a matching
/// checksum half the time) and on real snapshots with arbitrary bytes overwritten, truncated
/// or inserted (then, half the time, resealed: the header's length and checksum made to match,
/// so that the physics checks, not the checksum, must refuse them). A real snapshot with any
/// edit that is not resealed must be refused.
pub fn check_snapshot(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = snapshot_case(&mut u);
}

fn restore_checked(bytes: &[u8]) {
    if let Ok(mut w) = World::restore(bytes) {
        must_validate(&w, "restore");
        if w.len() <= 64 {
            w.step();
            must_validate(&w, "stepping a restored world");
        }
    }
}

fn snapshot_case(u: &mut Unstructured<'_>) -> Result<()> {
    match u.int_in_range(0u8..=2)? {
        0 => {
            let rest = u.bytes(u.len())?;
            restore_checked(rest);
            restore_checked(&seal_snapshot(rest));
        }
        _ => {
            let mut w = World::new(WorldConfig {
                broad_phase: kind(u)?,
                ..WorldConfig::default()
            })
            .expect("default configuration refused");
            for _ in 0..u.int_in_range(0u8..=4)? {
                if let Some((b, _)) = builder(u)? {
                    let _ = w.insert(b);
                }
            }
            for _ in 0..u.int_in_range(0u8..=3)? {
                w.step();
            }
            let mut bytes = w.snapshot();
            let edits = u.int_in_range(1u8..=4)?;
            for _ in 0..edits {
                if bytes.is_empty() {
                    break;
                }
                let at = u.choose_index(bytes.len())?;
                match u.int_in_range(0u8..=3)? {
                    0 => bytes.truncate(at),
                    1 => bytes[at] = u8::arbitrary(u)?,
                    2 => {
                        let x = <[u8; 8]>::arbitrary(u)?;
                        let end = (at + 8).min(bytes.len());
                        bytes[at..end].copy_from_slice(&x[..end - at]);
                    }
                    _ => bytes.insert(at, u8::arbitrary(u)?),
                }
            }
            if bool::arbitrary(u)? && bytes.len() >= 28 {
                restore_checked(&seal_snapshot(&bytes[28..]));
            } else {
                // Only an edit that happens to leave a matching header may restore.
                let sealed = bytes.len() >= 28 && bytes[..28] == seal_snapshot(&bytes[28..])[..28];
                assert!(
                    sealed || World::restore(&bytes).is_err(),
                    "an edited snapshot with a stale checksum restored"
                );
                restore_checked(&bytes);
            }
        }
    }
    Ok(())
}
