//! Generational body handles.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Names one body of a [`World`](crate::World): a slot index plus the generation of that slot.
/// When a body is removed its slot's generation is bumped, so old handles become stale and every
/// call made with them returns [`WorldError::StaleHandle`](crate::WorldError::StaleHandle).
///
/// A handle carries no identity of its world: used with another world it names whatever body
/// that world has in the same slot with the same generation (or is stale there). Keep each
/// handle with the world that issued it. This is what makes handles survive snapshots: a world
/// restored from [`World::snapshot`](crate::World::snapshot) answers to the handles of the
/// world it was taken from, and reports the same events with the same handles (a per-world
/// identity would make every restored copy refuse them, or, stored in the snapshot, would be
/// shared by every copy and tell nothing apart).
///
/// Ordered by index, then generation ("handle order", the order of [`World::bodies`](crate::World::bodies)
/// and of every deterministic output).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct BodyHandle {
    index: u32,
    generation: u32,
}

impl BodyHandle {
    /// A handle that never names a body.
    pub const fn invalid() -> Self {
        Self {
            index: u32::MAX,
            generation: u32::MAX,
        }
    }

    pub(crate) const fn new(index: u32, generation: u32) -> Self {
        Self { index, generation }
    }

    /// The slot index (dense, reused after removal).
    #[inline]
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The slot's generation when this handle was made.
    #[inline]
    pub fn generation(&self) -> u32 {
        self.generation
    }
}

/// Names one joint of a [`World`](crate::World): a slot index plus the slot's generation, like
/// [`BodyHandle`](crate::BodyHandle). A removed joint's handle is stale from then on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct JointHandle {
    index: u32,
    generation: u32,
}

impl JointHandle {
    pub(crate) const fn new(index: u32, generation: u32) -> Self {
        Self { index, generation }
    }

    /// The slot index (dense, reused after removal).
    #[inline]
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The slot's generation when this handle was made.
    #[inline]
    pub fn generation(&self) -> u32 {
        self.generation
    }
}
