//! Snapshots: the whole world state (bodies, shapes, contact cache with its warm-start
//! impulses, sensor overlaps, accumulator, sleep timers and sleeping islands) as bytes, and
//! back.
//!
//! Format (all integers little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | the magic `TUMBLSNP` |
//! | 8..12 | `u32` format version ([`SNAPSHOT_VERSION`]) |
//! | 12..20 | `u64` length of the payload, bytes |
//! | 20..28 | `u64` checksum of the payload: [`snapshot_checksum`] (FNV-1a 64) |
//! | 28.. | the payload: the state in bincode (fixed-width integers) |
//!
//! Scratch buffers, timers, events and the broad phase are not stored: the broad phase is
//! rebuilt from the bodies on restore, and since it reports exactly the overlapping pairs in
//! canonical order, stepping on is bit-identical to never having stopped. Decoding is bounded
//! by the input length and everything is validated after decoding: a corrupt, truncated or
//! foreign snapshot is an error ([`WorldError::Snapshot`]), never a panic.
//!
//! Restore checks, in order: the header (magic, version, payload length), the checksum (any
//! change of up to several bytes is caught), then the physics, so that a payload written by
//! other means (with a matching checksum) is refused too when it breaks an invariant: the
//! configuration's bounds ([`WorldConfig::validate`](crate::WorldConfig::validate)), each
//! body's own invariants (finite pose and velocities, unit rotations, valid material and shape,
//! and mass, inverse mass, inverse inertia and centre of mass exactly those its kind, shape,
//! density and offset give), the coordinate limit of [`crate::MAX_COORDINATE`] (on the pose and
//! shape only, as [`World::insert`] and [`World::set_pose`] check it), then [`World::validate`]
//! (free list, sorted caches, finite non-negative impulses, accumulator in `[0, dt)`, the
//! sleeping islands of [`crate::island`]).
//!
//! Guarantee: a snapshot of any world reached through the public API restores, to a world
//! with the same [`World::state_hash`]. Every live broad-phase box is exactly the one restore
//! rebuilds, so the restored world steps on bit-identically.

use crate::error::WorldError;
use crate::proxies::BodyProxies;
use crate::state::{broad_aabb, State};
use crate::step::{Scratch, StepOutput};
use crate::world::World;
use bincode::Options;
use tumble_broadphase::{BroadPhase, ProxyHandle};

const MAGIC: &[u8; 8] = b"TUMBLSNP";
/// The snapshot format version this build writes and reads (bytes 8..12 of a snapshot).
pub const SNAPSHOT_VERSION: u32 = 8;
const VERSION: u32 = SNAPSHOT_VERSION;
/// Magic, version, payload length, checksum.
const HEADER: usize = 28;

/// The checksum of a snapshot's payload (bytes 28.. of a snapshot; stored in bytes 20..28):
/// FNV-1a 64 (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`) over its bytes.
pub fn snapshot_checksum(payload: &[u8]) -> u64 {
    payload.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The little-endian `u64` at `bytes[at..at + 8]` (the caller checked the length).
fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(w)
}

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
        out.extend_from_slice(&[0; 16]);
        // Serialising plain data into a Vec cannot fail.
        if let Err(e) = options().serialize_into(&mut out, &self.state) {
            debug_assert!(false, "snapshot serialisation failed: {e}");
        }
        let len = (out.len() - HEADER) as u64;
        let sum = snapshot_checksum(&out[HEADER..]);
        out[12..20].copy_from_slice(&len.to_le_bytes());
        out[20..28].copy_from_slice(&sum.to_le_bytes());
        out
    }

    /// A world from [`World::snapshot`] bytes; errors (never panics) on a corrupt, truncated or
    /// foreign snapshot with [`WorldError::Snapshot`], naming what is wrong (see the module
    /// docs for what is checked).
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
        if bytes.len() < HEADER {
            return Err(WorldError::Snapshot(format!(
                "truncated header: {} bytes, the header has {HEADER}",
                bytes.len()
            )));
        }
        let body = &bytes[HEADER..];
        let len = u64_at(bytes, 12);
        if len != body.len() as u64 {
            return Err(WorldError::Snapshot(format!(
                "payload of {} bytes, the header says {len} (truncated or extended)",
                body.len()
            )));
        }
        let sum = snapshot_checksum(body);
        let stored = u64_at(bytes, 20);
        if sum != stored {
            return Err(WorldError::Snapshot(format!(
                "checksum mismatch: the payload hashes to {sum:016x}, the header says \
                 {stored:016x} (corrupted bytes)"
            )));
        }
        let state: State = options()
            .with_limit(body.len() as u64)
            .deserialize(body)
            .map_err(|e| WorldError::Snapshot(format!("cannot decode: {e}")))?;
        Self::from_state(state)
    }

    /// Rebuilds the broad phase and the scratch around a decoded state, then validates.
    fn from_state(state: State) -> Result<World, WorldError> {
        state
            .config
            .validate()
            .map_err(|e| WorldError::Snapshot(format!("configuration: {e}")))?;
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
        if state.joint_free.len() > state.joints.len() {
            return Err(WorldError::Snapshot(
                "joint free list longer than the joint table".into(),
            ));
        }
        let mut state = state;
        state.rebuild_joint_pairs();
        let mut proxies = BodyProxies::new(state.config.broad_phase, state.config.max_pairs);
        proxies.of_body = vec![ProxyHandle::invalid(); state.slots.len()];
        let mut world = World {
            proxies,
            scratch: Scratch::default(),
            out: StepOutput::default(),
            events: Vec::new(),
            contact_index: std::sync::OnceLock::new(),
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

    /// Replaces this world's contents by those of [`World::snapshot`] bytes, as
    /// [`World::restore`] would make them, keeping this world's step buffers (for a rollback
    /// that restores every frame, the buffers of the solver and the pair search are not
    /// grown again). The world then steps on bit-identically to a freshly restored one. On
    /// error (the same as [`World::restore`]'s) this world is left as it was.
    pub fn restore_from(&mut self, bytes: &[u8]) -> Result<(), WorldError> {
        let fresh = World::restore(bytes)?;
        let World {
            state,
            proxies,
            scratch: _,
            out,
            events,
            contact_index,
        } = fresh;
        self.state = state;
        self.proxies = proxies;
        self.out = out;
        self.events = events;
        self.contact_index = contact_index;
        self.scratch.reset_for_restore();
        Ok(())
    }
}
