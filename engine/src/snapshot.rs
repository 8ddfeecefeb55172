//! Snapshots: the whole world state (bodies, shapes, contact cache with its warm-start
//! impulses, sensor overlaps, accumulator) as bytes, and back.
//!
//! Format: the 8 bytes `TUMBLSNP`, a little-endian `u32` version, then the state in bincode
//! (fixed-width integers, little-endian). Scratch buffers, timers, events and the broad phase
//! are not stored: the broad phase is rebuilt from the bodies on restore, and since it reports
//! exactly the overlapping pairs in canonical order, stepping on is bit-identical to never
//! having stopped. Decoding is bounded by the input length and everything is validated after
//! decoding: a corrupt or truncated snapshot is an error, never a panic.
//!
//! Guarantee: a snapshot of any world reached through the public API restores. Restore checks
//! only invariants that every live call and step keep: each body's own (finite pose and
//! velocities, unit rotations, valid material and shape, mass matching its kind), the
//! coordinate limit of [`crate::MAX_COORDINATE`] (on the pose and shape only, as
//! [`World::insert`] and [`World::set_pose`] check it), then [`World::validate`]. Every live
//! broad-phase box is exactly the one restore rebuilds, so the restored world steps on
//! bit-identically.

use crate::error::WorldError;
use crate::proxies::BodyProxies;
use crate::state::{broad_aabb, State};
use crate::step::{Scratch, StepOutput};
use crate::world::World;
use bincode::Options;
use tumble_broadphase::{BroadPhase, ProxyHandle};

const MAGIC: &[u8; 8] = b"TUMBLSNP";
const VERSION: u32 = 2;

fn options() -> impl Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_little_endian()
        .reject_trailing_bytes()
}

impl World {
    /// The world as bytes (see the module docs for the format).
    pub fn snapshot(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.state.slots.len() * 256);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        // Serialising plain data into a Vec cannot fail.
        if let Err(e) = options().serialize_into(&mut out, &self.state) {
            debug_assert!(false, "snapshot serialisation failed: {e}");
        }
        out
    }

    /// A world from [`World::snapshot`] bytes; errors (never panics) on a corrupt, truncated or
    /// foreign snapshot, naming what is wrong.
    pub fn restore(bytes: &[u8]) -> Result<World, WorldError> {
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(WorldError::Snapshot(
                "not a Tumble snapshot (bad header)".into(),
            ));
        }
        let mut v = [0u8; 4];
        v.copy_from_slice(&bytes[8..12]);
        let version = u32::from_le_bytes(v);
        if version != VERSION {
            return Err(WorldError::Snapshot(format!(
                "snapshot version {version}, this build reads version {VERSION}"
            )));
        }
        let body = &bytes[12..];
        let state: State = options()
            .with_limit(body.len() as u64)
            .deserialize(body)
            .map_err(|e| WorldError::Snapshot(format!("cannot decode: {e}")))?;
        Self::from_state(state)
    }

    /// Rebuilds the broad phase and the scratch around a decoded state, then validates.
    fn from_state(state: State) -> Result<World, WorldError> {
        state.config.validate()?;
        if state.free.len() > state.slots.len() {
            return Err(WorldError::Snapshot(
                "free list longer than the slot table".into(),
            ));
        }
        for (i, s) in state.slots.iter().enumerate() {
            if let Some(b) = &s.body {
                crate::state::validate_body(b)
                    .map_err(|e| WorldError::Snapshot(format!("body {i}: {e}")))?;
            }
        }
        for c in &state.contacts {
            for h in [c.a, c.b] {
                if h.index() as usize >= state.slots.len() {
                    return Err(WorldError::Snapshot(
                        "contact names a slot out of range".into(),
                    ));
                }
            }
            if c.manifold.len() > 4 {
                return Err(WorldError::Snapshot(
                    "manifold with more than 4 points".into(),
                ));
            }
        }
        for (a, b) in &state.sensor_pairs {
            if a.index() as usize >= state.slots.len() || b.index() as usize >= state.slots.len() {
                return Err(WorldError::Snapshot(
                    "sensor overlap names a slot out of range".into(),
                ));
            }
        }
        let live = state.slots.iter().filter(|s| s.body.is_some()).count();
        if live != state.len {
            return Err(WorldError::Snapshot(format!(
                "body count {} does not match the {live} live slots",
                state.len
            )));
        }
        let mut proxies = BodyProxies::new(state.config.broad_phase);
        proxies.of_body = vec![ProxyHandle::invalid(); state.slots.len()];
        let mut world = World {
            proxies,
            scratch: Scratch::default(),
            out: StepOutput::default(),
            events: Vec::new(),
            state,
        };
        // Sized from the slots actually decoded, never from a length field read from the bytes.
        let mut items = Vec::with_capacity(world.state.slots.len());
        let mut indices = Vec::with_capacity(world.state.slots.len());
        for (i, s) in world.state.slots.iter().enumerate() {
            if let Some(b) = &s.body {
                let Some(aabb) = broad_aabb(&world.state.config, b) else {
                    return Err(WorldError::Snapshot(format!(
                        "body {i}: AABB not finite or beyond MAX_COORDINATE"
                    )));
                };
                items.push((aabb, i as u64));
                indices.push(i);
            }
        }
        let proxies =
            world.proxies.broad.insert_batch(&items).map_err(|e| {
                WorldError::Snapshot(format!("broad phase refused the bodies: {e}"))
            })?;
        for (i, p) in indices.into_iter().zip(proxies) {
            world.proxies.of_body[i] = p;
            world.proxies.set_body_of_proxy(p, i as u32);
        }
        world.validate().map_err(WorldError::Snapshot)?;
        Ok(world)
    }
}
