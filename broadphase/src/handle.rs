//! Generational proxy handles and the one allocator every structure shares.
//!
//! Determinism rule: every broad phase allocates its handles through [`ProxyArena`] (LIFO free
//! list, generation bumped when a slot is freed), so the same sequence of insert/remove calls
//! yields the same handles whichever structure is used.

use crate::error::BroadPhaseError;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Generational handle of a proxy: slot index + generation. Ordered by index, then generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ProxyHandle {
    index: u32,
    generation: u32,
}

impl ProxyHandle {
    /// A handle from its raw parts (for deserialisation and tests; it is checked on use).
    pub const fn from_raw_parts(index: u32, generation: u32) -> Self {
        Self { index, generation }
    }

    /// The slot index (dense, reused after removal).
    #[inline]
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The generation of the slot when this handle was issued.
    #[inline]
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// The handle that never names a proxy (`index = u32::MAX`).
    pub const fn invalid() -> Self {
        Self {
            index: u32::MAX,
            generation: u32::MAX,
        }
    }

    /// True unless this is [`ProxyHandle::invalid`].
    pub fn is_valid(&self) -> bool {
        self.index != u32::MAX
    }
}

/// A candidate pair, canonical: `a.index() < b.index()`.
pub type Pair = (ProxyHandle, ProxyHandle);

/// Largest number of slots an arena hands out (indices are stored in 29 bits inside the grid).
pub const MAX_PROXIES: usize = 1 << 29;

/// The shared handle allocator: slot generations, a liveness flag per slot and a LIFO free list.
///
/// Invariants (checked by [`ProxyArena::validate`]): a slot is on the free list iff it is dead;
/// `len` counts the live slots.
#[derive(Clone, Debug, Default)]
pub struct ProxyArena {
    generations: Vec<u32>,
    alive: Vec<bool>,
    free: Vec<u32>,
    len: usize,
}

impl ProxyArena {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of live proxies.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no proxy is live.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of slots ever allocated (live or free); every live index is below it.
    #[inline]
    pub fn slot_count(&self) -> usize {
        self.generations.len()
    }

    /// True when slot `index` holds a live proxy.
    #[inline]
    pub fn is_alive(&self, index: usize) -> bool {
        self.alive.get(index).copied().unwrap_or(false)
    }

    /// The current handle of a live slot.
    #[inline]
    pub fn handle_of(&self, index: u32) -> ProxyHandle {
        ProxyHandle::from_raw_parts(index, self.generations[index as usize])
    }

    /// Whether `n` more proxies fit.
    pub fn check_room(&self, n: usize) -> Result<(), BroadPhaseError> {
        let reusable = self.free.len();
        if self.generations.len() + n.saturating_sub(reusable) > MAX_PROXIES {
            return Err(BroadPhaseError::TooManyProxies(MAX_PROXIES));
        }
        Ok(())
    }

    /// Allocates a slot: the most recently freed one first (LIFO), else a new one.
    pub fn alloc(&mut self) -> Result<ProxyHandle, BroadPhaseError> {
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                self.check_room(1)?;
                self.generations.push(0);
                self.alive.push(false);
                (self.generations.len() - 1) as u32
            }
        };
        self.alive[index as usize] = true;
        self.len += 1;
        Ok(self.handle_of(index))
    }

    /// The slot index of a live handle, or the error naming why it is not live.
    #[inline]
    pub fn check(&self, h: ProxyHandle) -> Result<usize, BroadPhaseError> {
        let i = h.index as usize;
        if i >= self.generations.len() {
            return Err(BroadPhaseError::UnknownHandle(h));
        }
        if !self.alive[i] || self.generations[i] != h.generation {
            return Err(BroadPhaseError::StaleHandle(h));
        }
        Ok(i)
    }

    /// Frees a live handle's slot and bumps its generation so old copies become stale.
    pub fn free(&mut self, h: ProxyHandle) -> Result<usize, BroadPhaseError> {
        let i = self.check(h)?;
        self.alive[i] = false;
        self.generations[i] = self.generations[i].wrapping_add(1);
        self.free.push(i as u32);
        self.len -= 1;
        Ok(i)
    }

    /// Live slot indices in ascending order.
    pub fn live_indices(&self) -> impl Iterator<Item = u32> + '_ {
        self.alive
            .iter()
            .enumerate()
            .filter(|(_, &a)| a)
            .map(|(i, _)| i as u32)
    }

    /// Checks the arena's invariants.
    pub fn validate(&self) -> Result<(), String> {
        let live = self.alive.iter().filter(|&&a| a).count();
        if live != self.len {
            return Err(format!("arena: len {} but {} live slots", self.len, live));
        }
        if live + self.free.len() != self.generations.len() {
            return Err("arena: free list does not hold exactly the dead slots".into());
        }
        let mut seen = vec![false; self.generations.len()];
        for &f in &self.free {
            let f = f as usize;
            if f >= seen.len() || self.alive[f] || seen[f] {
                return Err(format!("arena: bad free-list entry {f}"));
            }
            seen[f] = true;
        }
        Ok(())
    }
}
