//! # tumble-broadphase
//!
//! Finds the pairs of proxies whose AABBs overlap, so the narrow phase only sees those.
//! Every structure reports exactly the pairs a brute-force test of all pairs reports (closed
//! boxes: touching counts), in one canonical order, so the engine's results do not depend on
//! the structure chosen nor on the rayon thread count.
//!
//! ```
//! use tumble_broadphase::{AnyBroadPhase, BroadPhase, BroadPhaseKind, Aabb};
//! use tumble_broadphase::math::Point;
//!
//! let mut bp = AnyBroadPhase::new(BroadPhaseKind::Grid);
//! let a = bp.insert(Aabb::new(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0)).unwrap(), 7).unwrap();
//! let b = bp.insert(Aabb::new(Point::new(1.0, 0.5, 0.5), Point::new(2.0, 2.0, 2.0)).unwrap(), 8).unwrap();
//! let mut pairs = Vec::new();
//! bp.find_pairs(&mut pairs);
//! assert_eq!(pairs, vec![(a, b)]);
//! ```
//!
//! ## Which structure, by scene
//!
//! [`Grid`] (the default) is a hierarchical spatial hash: a base table for the common size, and
//! levels of larger and smaller cells for the proxies much larger or smaller (Mirtich 1996).
//! [`SweepAndPrune`] keeps one axis sorted by insertion sort and prunes the two others with
//! levelled columns during the sweep (Terdiman 2007's box pruning, with a second pruned axis).
//! [`Bvh`] is a binned-SAH tree, refitted. The box scenes of [`scenes`] measure them on what a
//! game level makes; one frame is "update every proxy + find the pairs", 1 rayon thread, CPU
//! time, median of the measured frames (`cargo run --release -p tumble-broadphase --example
//! scene_frames -- 10000,100000 1 10`). "×uniform" is the structure's cost per (proxy + pair)
//! on the scene over its own cost on the uniform scene, same run:
//!
//! | N | scene | pairs | grid ms | sap ms | bvh ms | grid ×uniform | sap ×uniform | bvh ×uniform | grid / bvh |
//! |---|---|---|---|---|---|---|---|---|---|
//! | 10000 | uniform | 7791 | 1.46 | 2.46 | 2.81 | 1.00 | 1.00 | 1.00 | 0.52 |
//! | 10000 | mixed | 4817 | 3.01 | 4.38 | 1.99 | 2.47 | 2.14 | 0.85 | 1.51 |
//! | 10000 | far | 12208 | 1.80 | 2.47 | 3.50 | 0.98 | 0.81 | 1.00 | 0.51 |
//! | 10000 | specks | 5483 | 2.42 | 2.54 | 2.18 | 1.90 | 1.19 | 0.89 | 1.11 |
//! | 10000 | clusters | 14503 | 2.29 | 2.78 | 3.32 | 1.14 | 0.82 | 0.86 | 0.69 |
//! | 100000 | uniform | 79105 | 16.83 | 29.38 | 32.52 | 1.00 | 1.00 | 1.00 | 0.52 |
//! | 100000 | mixed | 47457 | 36.38 | 63.75 | 22.52 | 2.63 | 2.64 | 0.84 | 1.62 |
//! | 100000 | far | 122482 | 16.94 | 27.28 | 41.21 | 0.81 | 0.75 | 1.02 | 0.41 |
//! | 100000 | specks | 55970 | 24.77 | 42.49 | 23.98 | 1.69 | 1.66 | 0.85 | 1.03 |
//! | 100000 | clusters | 153904 | 29.44 | 35.46 | 39.88 | 1.23 | 0.85 | 0.87 | 0.74 |
//!
//! Reading it: the grid is the fastest on uniform crowds, far coordinates and piles, and stays
//! within 3× of its uniform cost per (proxy + pair) on every scene; sizes spread over six
//! decades are where the BVH is best (its cost does not depend on sizes), and the grid's levels
//! cost it a lookup per occupied level above each proxy there: 1.4–1.8× the BVH's time in this
//! and other runs (the machine's other load moves single figures by ±10 %). The sweep and
//! prune is within 2× of the grid on uniform crowds and within 3× of its own uniform cost
//! everywhere, but its sweep is serial. Every structure reports the same pairs in the same
//! order (`tests/equivalence.rs`), so switching changes no result.

#![warn(missing_docs)]

pub use tumble_narrowphase::{math, Aabb};

mod any;
mod budget;
mod error;
mod handle;
mod pair_sort;
mod proxies;
pub mod scenes;
pub mod structure;

pub use any::{AnyBroadPhase, BroadPhaseKind, UnknownKind};
pub use error::BroadPhaseError;
pub use handle::{Pair, ProxyArena, ProxyHandle, MAX_PROXIES};
pub use structure::{BruteForce, Bvh, Grid, SweepAndPrune};

use math::{Point, Real, Vector};

/// One interface over every broad-phase structure. Proxies are AABBs in world space (metres)
/// with a user `u64`, named by generational [`ProxyHandle`]s. No method panics on any input;
/// bad input is refused with a [`BroadPhaseError`] and changes nothing.
///
/// Threading: `find_pairs` may use the current rayon pool; its output does not depend on the
/// pool's thread count. Queries take `&self` and may run concurrently.
pub trait BroadPhase: Send + Sync {
    /// Adds a proxy. Errors on a non-finite or inverted box.
    fn insert(&mut self, aabb: Aabb, user_data: u64) -> Result<ProxyHandle, BroadPhaseError>;
    /// Adds many proxies; validates all before inserting any. Handles are the ones the same
    /// sequence of single inserts would give.
    fn insert_batch(&mut self, items: &[(Aabb, u64)]) -> Result<Vec<ProxyHandle>, BroadPhaseError>;
    /// Removes a proxy. Errors on an unknown or stale handle.
    fn remove(&mut self, h: ProxyHandle) -> Result<(), BroadPhaseError>;
    /// Replaces a proxy's AABB. Errors on a bad handle or box.
    fn update(&mut self, h: ProxyHandle, aabb: Aabb) -> Result<(), BroadPhaseError>;
    /// Replaces many AABBs; validates all first (nothing changes on error).
    fn update_batch(&mut self, items: &[(ProxyHandle, Aabb)]) -> Result<(), BroadPhaseError>;
    /// [`update_batch`](Self::update_batch) on the items `(handles[i], aabb_of(i))`, without
    /// building them (a caller computing many boxes saves writing and reading them once
    /// more). `aabb_of` is called twice per item, to check and to write, and must return the
    /// same box both times.
    fn update_batch_with<F>(
        &mut self,
        handles: &[ProxyHandle],
        aabb_of: F,
    ) -> Result<(), BroadPhaseError>
    where
        Self: Sized,
        F: Fn(usize) -> Aabb + Sync;
    /// All pairs whose current AABBs overlap (closed boxes: touching counts), each once, sorted
    /// ascending by `(a.index, b.index)` with `a.index < b.index`. Clears `out` first. With
    /// more than [`max_pairs`](Self::max_pairs) of them, only the first `max_pairs` of that
    /// order are reported (the others are counted by [`dropped_pairs`](Self::dropped_pairs)),
    /// and the search's memory stays proportional to `max_pairs` plus the proxy count.
    fn find_pairs(&mut self, out: &mut Vec<Pair>);
    /// The pair budget: the most pairs [`find_pairs`](Self::find_pairs) reports (default:
    /// [`usize::MAX`], no bound).
    fn max_pairs(&self) -> usize;
    /// Sets the pair budget (a value below 1 counts as 1). The next `find_pairs` searches
    /// afresh.
    fn set_max_pairs(&mut self, max: usize);
    /// Overlapping pairs the last [`find_pairs`](Self::find_pairs) left out for the budget (0
    /// when it reported every pair).
    fn dropped_pairs(&self) -> usize;
    /// Gives back the memory of the pair search's buffers beyond what the pairs of the last
    /// search need (a pile-up that has scattered no longer needs the buffers it grew). The
    /// next search may allocate again.
    fn shrink_buffers(&mut self);
    /// Proxies whose AABB overlaps `aabb` (closed), sorted by index. Clears `out` first.
    fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<ProxyHandle>);
    /// Proxies whose AABB contains `p` (boundary included), sorted by index. Clears `out` first.
    fn query_point(&self, p: &Point, out: &mut Vec<ProxyHandle>);
    /// Proxies whose AABB the ray `origin + t·dir`, `t ∈ [0, max_t]`, meets, as
    /// `(handle, t_enter)` (`t_enter = 0` when the origin is inside), sorted by `t_enter` then
    /// index. `t` is in units of `|dir|`. A non-finite ray or negative `max_t` hits nothing.
    fn cast_ray(
        &self,
        origin: &Point,
        dir: &Vector,
        max_t: Real,
        out: &mut Vec<(ProxyHandle, Real)>,
    );
    /// A live proxy's AABB.
    fn aabb(&self, h: ProxyHandle) -> Result<Aabb, BroadPhaseError>;
    /// A live proxy's user data.
    fn user_data(&self, h: ProxyHandle) -> Result<u64, BroadPhaseError>;
    /// Number of live proxies.
    fn len(&self) -> usize;
    /// True when there is no proxy.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Checks every invariant of the structure; `Err` names the first one broken.
    fn validate(&self) -> Result<(), String>;
}

/// Implements the bookkeeping methods of [`BroadPhase`] shared by every structure: they act on
/// the structure's `store` field and call its `on_insert(slot)`, `on_remove(slot)` and
/// `on_moved()` (some boxes changed, which ones is not told) hooks.
macro_rules! impl_proxy_bookkeeping {
    () => {
        fn insert(
            &mut self,
            aabb: $crate::Aabb,
            user_data: u64,
        ) -> Result<$crate::ProxyHandle, $crate::BroadPhaseError> {
            let (h, i) = self.store.insert(aabb, user_data)?;
            self.on_insert(i);
            Ok(h)
        }

        fn insert_batch(
            &mut self,
            items: &[($crate::Aabb, u64)],
        ) -> Result<Vec<$crate::ProxyHandle>, $crate::BroadPhaseError> {
            self.store.check_inserts(items)?;
            items
                .iter()
                .map(|&(a, u)| {
                    let (h, i) = self.store.insert(a, u)?;
                    self.on_insert(i);
                    Ok(h)
                })
                .collect()
        }

        fn remove(&mut self, h: $crate::ProxyHandle) -> Result<(), $crate::BroadPhaseError> {
            let i = self.store.remove(h)?;
            self.on_remove(i);
            Ok(())
        }

        fn update(
            &mut self,
            h: $crate::ProxyHandle,
            aabb: $crate::Aabb,
        ) -> Result<(), $crate::BroadPhaseError> {
            self.store.update(h, aabb)?;
            self.on_moved();
            Ok(())
        }

        fn update_batch(
            &mut self,
            items: &[($crate::ProxyHandle, $crate::Aabb)],
        ) -> Result<(), $crate::BroadPhaseError> {
            self.store.update_batch(items)?;
            if !items.is_empty() {
                self.on_moved();
            }
            Ok(())
        }

        fn update_batch_with<F>(
            &mut self,
            handles: &[$crate::ProxyHandle],
            aabb_of: F,
        ) -> Result<(), $crate::BroadPhaseError>
        where
            F: Fn(usize) -> $crate::Aabb + Sync,
        {
            self.store.update_batch_with(handles, aabb_of)?;
            if !handles.is_empty() {
                self.on_moved();
            }
            Ok(())
        }

        fn aabb(&self, h: $crate::ProxyHandle) -> Result<$crate::Aabb, $crate::BroadPhaseError> {
            self.store.aabb(h)
        }

        fn user_data(&self, h: $crate::ProxyHandle) -> Result<u64, $crate::BroadPhaseError> {
            self.store.user_data(h)
        }

        fn len(&self) -> usize {
            self.store.arena.len()
        }

        fn max_pairs(&self) -> usize {
            self.store.budget.max()
        }

        fn set_max_pairs(&mut self, max: usize) {
            self.store.budget.set_max(max);
            self.on_moved();
        }

        fn dropped_pairs(&self) -> usize {
            self.store.budget.dropped()
        }
    };
}
pub(crate) use impl_proxy_bookkeeping;
