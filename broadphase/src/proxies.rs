//! Storage shared by every structure: the handle arena, each slot's AABB and user data, input
//! validation, the exact per-proxy predicates (overlap, point, ray) and the canonical pair order.
//!
//! Every structure calls the same predicate functions on the same stored boxes, so their answers
//! can be compared bit for bit with the brute force.

use crate::error::BroadPhaseError;
use crate::handle::{Pair, ProxyArena, ProxyHandle};
use crate::math::{Point, Real, Vector};
pub(crate) use crate::pair_sort::SortScratch;
use crate::Aabb;
use rayon::prelude::*;

/// The proxies of one broad phase: arena + per-slot AABB and user data (dead slots keep stale
/// values that no structure reads).
#[derive(Clone, Debug, Default)]
pub(crate) struct ProxyStore {
    pub arena: ProxyArena,
    pub aabbs: Vec<Aabb>,
    pub user: Vec<u64>,
    /// The most pairs a search reports, and how many the last one dropped.
    pub budget: crate::budget::PairBudget,
}

/// Batches of at least this many updates are checked (and, in slot order, written) in parallel.
const PARALLEL_UPDATES: usize = 1 << 12;
/// Updates per parallel task at least.
const UPDATE_GRAIN: usize = 1024;

/// Writes the boxes of items `i0..i1` of a batch (`handle(i)`, `aabb(i)`: live, in strictly
/// increasing slot order) to `aabbs`, the per-slot boxes from slot `first` on, halving the
/// items between rayon tasks.
fn write_sorted(
    aabbs: &mut [Aabb],
    first: usize,
    (i0, i1): (usize, usize),
    handle: &(impl Fn(usize) -> ProxyHandle + Sync),
    aabb: &(impl Fn(usize) -> Aabb + Sync),
) {
    if i1 - i0 > UPDATE_GRAIN {
        let mid = i0 + (i1 - i0) / 2;
        // Every slot of the lower half is below the first slot of the upper half.
        let split = handle(mid).index() as usize;
        let (alo, ahi) = aabbs.split_at_mut(split - first);
        rayon::join(
            || write_sorted(alo, first, (i0, mid), handle, aabb),
            || write_sorted(ahi, split, (mid, i1), handle, aabb),
        );
    } else {
        for i in i0..i1 {
            aabbs[handle(i).index() as usize - first] = aabb(i);
        }
    }
}

/// Refuses non-finite or inverted boxes.
#[inline]
pub(crate) fn check_aabb(aabb: &Aabb, h: Option<ProxyHandle>) -> Result<(), BroadPhaseError> {
    // Non-short-circuit `&`: one branch per box instead of one per coordinate (every body's
    // box is checked every frame).
    let (lo, hi) = (&aabb.mins, &aabb.maxs);
    let finite = lo.x.is_finite()
        & lo.y.is_finite()
        & lo.z.is_finite()
        & hi.x.is_finite()
        & hi.y.is_finite()
        & hi.z.is_finite();
    if !finite {
        return Err(BroadPhaseError::NonFiniteAabb(h));
    }
    if !((lo.x <= hi.x) & (lo.y <= hi.y) & (lo.z <= hi.z)) {
        return Err(BroadPhaseError::InvertedAabb);
    }
    Ok(())
}

impl ProxyStore {
    /// Validates and stores one proxy; returns its handle and slot.
    pub fn insert(
        &mut self,
        aabb: Aabb,
        user: u64,
    ) -> Result<(ProxyHandle, usize), BroadPhaseError> {
        check_aabb(&aabb, None)?;
        let h = self.arena.alloc()?;
        let i = h.index() as usize;
        if i == self.aabbs.len() {
            self.aabbs.push(aabb);
            self.user.push(user);
        } else {
            self.aabbs[i] = aabb;
            self.user[i] = user;
        }
        Ok((h, i))
    }

    /// Checks every item of a batch insert before anything is inserted.
    pub fn check_inserts(&self, items: &[(Aabb, u64)]) -> Result<(), BroadPhaseError> {
        self.arena.check_room(items.len())?;
        items.iter().try_for_each(|(a, _)| check_aabb(a, None))
    }

    /// Replaces the AABBs of a batch of live proxies (a handle may appear more than once: the
    /// last box wins). Every item is checked before anything is changed; on error nothing is,
    /// and the error names the first bad item.
    pub fn update_batch(&mut self, items: &[(ProxyHandle, Aabb)]) -> Result<(), BroadPhaseError> {
        self.update_each(items.len(), |i| items[i].0, |i| items[i].1)
    }

    /// [`update_batch`](Self::update_batch) on the items `(handles[i], aabb_of(i))`, without
    /// building them. `aabb_of` is called twice per item (to check, then to write) and must
    /// return the same box both times.
    pub fn update_batch_with(
        &mut self,
        handles: &[ProxyHandle],
        aabb_of: impl Fn(usize) -> Aabb + Sync,
    ) -> Result<(), BroadPhaseError> {
        self.update_each(handles.len(), |i| handles[i], aabb_of)
    }

    /// The batch update of `n` items `(handle(i), aabb(i))`: see
    /// [`update_batch`](Self::update_batch); `aabb` may be called twice per item.
    ///
    /// Large batches (every body moved) are checked in parallel, and when their handle indices
    /// strictly increase (the engine's batches are in slot order) they name distinct slots and
    /// are written in parallel too: the batch is split in halves, and the slots at the
    /// split, so each half owns its own part of `aabbs` (no `unsafe`).
    fn update_each(
        &mut self,
        n: usize,
        handle: impl Fn(usize) -> ProxyHandle + Sync,
        aabb: impl Fn(usize) -> Aabb + Sync,
    ) -> Result<(), BroadPhaseError> {
        let check = |i: usize| {
            let h = handle(i);
            self.arena.check(h)?;
            check_aabb(&aabb(i), Some(h))
        };
        // The error does not depend on the thread count: on failure the serial scan names the
        // first bad item.
        let parallel = n >= PARALLEL_UPDATES
            && (0..n.div_ceil(UPDATE_GRAIN)).into_par_iter().all(|c| {
                // Whole chunks per task, so the serial loop has no per-item stop check.
                let (i0, i1) = (c * UPDATE_GRAIN, ((c + 1) * UPDATE_GRAIN).min(n));
                let mut prev = i0
                    .checked_sub(1)
                    .map_or(0, |p| handle(p).index() as u64 + 1);
                let mut ok = true;
                for i in i0..i1 {
                    let s = handle(i).index() as u64;
                    ok &= check(i).is_ok() & (s >= prev);
                    prev = s + 1;
                }
                ok
            });
        if parallel {
            write_sorted(&mut self.aabbs, 0, (0, n), &handle, &aabb);
            return Ok(());
        }
        (0..n).try_for_each(check)?;
        for i in 0..n {
            self.aabbs[handle(i).index() as usize] = aabb(i);
        }
        Ok(())
    }

    /// Frees a proxy's slot.
    pub fn remove(&mut self, h: ProxyHandle) -> Result<usize, BroadPhaseError> {
        self.arena.free(h)
    }

    /// Replaces a live proxy's AABB.
    pub fn update(&mut self, h: ProxyHandle, aabb: Aabb) -> Result<usize, BroadPhaseError> {
        let i = self.arena.check(h)?;
        check_aabb(&aabb, Some(h))?;
        self.aabbs[i] = aabb;
        Ok(i)
    }

    /// A live proxy's AABB.
    pub fn aabb(&self, h: ProxyHandle) -> Result<Aabb, BroadPhaseError> {
        Ok(self.aabbs[self.arena.check(h)?])
    }

    /// A live proxy's user data.
    pub fn user_data(&self, h: ProxyHandle) -> Result<u64, BroadPhaseError> {
        Ok(self.user[self.arena.check(h)?])
    }

    /// Reference AABB query by a scan of every live proxy (sorted by index).
    pub fn scan_aabb(&self, q: &Aabb, out: &mut Vec<ProxyHandle>) {
        self.scan(|b| b.intersects(q), out);
    }

    /// Reference point query by a scan (sorted by index).
    pub fn scan_point(&self, p: &Point, out: &mut Vec<ProxyHandle>) {
        self.scan(|b| b.contains_point(p), out);
    }

    /// The live proxies whose box passes `hit`, by a scan (sorted by index). Clears `out` first.
    fn scan(&self, hit: impl Fn(&Aabb) -> bool, out: &mut Vec<ProxyHandle>) {
        out.clear();
        out.extend(
            self.arena
                .live_indices()
                .filter(|&i| hit(&self.aabbs[i as usize]))
                .map(|i| self.arena.handle_of(i)),
        );
    }

    /// Reference ray cast by a scan (sorted by entry time, then index).
    pub fn scan_ray(&self, ray: &Ray, out: &mut Vec<(ProxyHandle, Real)>) {
        out.clear();
        if let Some(ray) = ray.valid() {
            out.extend(self.arena.live_indices().filter_map(|i| {
                ray.hit(&self.aabbs[i as usize])
                    .map(|t| (self.arena.handle_of(i), t))
            }));
        }
        sort_ray_hits(out);
    }

    /// Checks the arena and that the per-slot arrays cover every slot.
    pub fn validate(&self) -> Result<(), String> {
        self.arena.validate()?;
        if self.aabbs.len() != self.arena.slot_count() || self.user.len() != self.aabbs.len() {
            return Err("store: per-slot arrays do not match the slot count".into());
        }
        for i in self.arena.live_indices() {
            check_aabb(&self.aabbs[i as usize], None)
                .map_err(|e| format!("store: proxy {i} holds a bad AABB: {e}"))?;
        }
        Ok(())
    }
}

/// A ray `origin + t·dir`, `t ∈ [0, max_t]` (world space, metres; `dir` need not be unit, `t`
/// is then in units of `|dir|`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ray {
    pub origin: Point,
    pub dir: Vector,
    pub max_t: Real,
}

impl Ray {
    /// The ray `origin + t·dir`, `t ∈ [0, max_t]`, as [`BroadPhase::cast_ray`](crate::BroadPhase::cast_ray)
    /// takes it (not checked: see [`Ray::valid`]).
    #[inline]
    pub fn new(origin: &Point, dir: &Vector, max_t: Real) -> Self {
        Self {
            origin: *origin,
            dir: *dir,
            max_t,
        }
    }

    /// The ray if its inputs are usable (finite origin and direction, `max_t ≥ 0`, not NaN).
    pub fn valid(&self) -> Option<&Ray> {
        let ok = (0..3).all(|i| self.origin[i].is_finite() && self.dir[i].is_finite())
            && self.max_t >= 0.0;
        ok.then_some(self)
    }

    /// Slab test (Ericson RTCD §5.3.3): the entry time `t ∈ [0, max_t]` if the ray meets the
    /// closed box.
    ///
    /// The slab times are `(b − o) / d`, a correctly rounded division: no reciprocal of `d`
    /// is formed, so a subnormal or huge component gives the exact slab times (rounded), not
    /// an overflowed `1/d` and the NaN of `0·∞`. With `d ≠ 0` and finite coordinates the
    /// quotient is never NaN (`b − o` may round to ±∞, and ±∞ / d is ±∞). Rounding is monotone
    /// in `b`, so the test is monotone in the box: a larger box never gives a later entry or an
    /// earlier exit, and tree nodes cull conservatively with the same function. A zero
    /// component is "origin inside the slab or miss".
    #[inline]
    pub fn hit(&self, b: &Aabb) -> Option<Real> {
        let mut t0: Real = 0.0;
        let mut t1: Real = self.max_t;
        for i in 0..3 {
            let o = self.origin[i];
            let d = self.dir[i];
            if d == 0.0 {
                if o < b.mins[i] || o > b.maxs[i] {
                    return None;
                }
                continue;
            }
            let ta = (b.mins[i] - o) / d;
            let tb = (b.maxs[i] - o) / d;
            let (lo, hi) = if d > 0.0 { (ta, tb) } else { (tb, ta) };
            t0 = t0.max(lo);
            t1 = t1.min(hi);
            if t0 > t1 {
                return None;
            }
        }
        Some(t0)
    }
}

/// Sorts ray hits by entry time, then handle index.
pub(crate) fn sort_ray_hits(out: &mut [(ProxyHandle, Real)]) {
    out.sort_unstable_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
}

/// The canonical key of a pair of slots: `(min << 32) | max`, so sorting keys sorts pairs by
/// `(a.index, b.index)`.
#[inline]
pub(crate) fn pair_key(a: u32, b: u32) -> u64 {
    if a < b {
        ((a as u64) << 32) | b as u64
    } else {
        ((b as u64) << 32) | a as u64
    }
}

/// A structure's pair keys (sorted after each search) and the buffers of their sort.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairKeys {
    pub keys: Vec<u64>,
    pub sort: SortScratch,
}

impl PairKeys {
    /// Sorts the keys in place (see [`SortScratch`]), writes the handle pairs to `out`
    /// (replaced), the pairs of the pair order, and cuts both to the store's pair budget
    /// (`counted`: what the search that made the keys dropped, `None` when they are an
    /// earlier search's; see [`PairBudget::finish`](crate::budget::PairBudget::finish)).
    pub fn finish(&mut self, store: &mut ProxyStore, out: &mut Vec<Pair>, counted: Option<usize>) {
        self.sort.sort_in_place(&mut self.keys, &store.arena, out);
        store.budget.finish(counted, &mut self.keys, out);
    }

    /// Gives back the memory beyond the keys themselves.
    pub fn shrink(&mut self) {
        self.keys.shrink_to_fit();
        self.sort = SortScratch::default();
    }
}

/// Writes the handle pairs of the sorted pair `keys` to `out` (replaced), in parallel.
pub(crate) fn pairs_of(keys: &[u64], arena: &ProxyArena, out: &mut Vec<Pair>) {
    debug_assert!(keys.windows(2).all(|w| w[0] < w[1]), "pair reported twice");
    keys.par_iter()
        .with_min_len(4096)
        .map(|&k| (arena.handle_of((k >> 32) as u32), arena.handle_of(k as u32)))
        .collect_into_vec(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box(x: Real) -> Aabb {
        Aabb::new(Point::new(x, 0.0, 0.0), Point::new(x + 1.0, 1.0, 1.0)).unwrap()
    }

    /// Large batches (the parallel path) write exactly what one-by-one updates write: in slot
    /// order, in another order with repeated handles (the last box wins), and not at all when
    /// an item is bad, with the error of the first bad item.
    #[test]
    fn large_update_batches_equal_single_updates() {
        let n = 3 * PARALLEL_UPDATES / 2;
        let mut store = ProxyStore::default();
        let handles: Vec<ProxyHandle> = (0..n)
            .map(|k| store.insert(unit_box(k as Real), k as u64).unwrap().0)
            .collect();
        let moved = |k: usize, round: usize| unit_box((k * 7 + round) as Real);
        // Slot order: a strict subset (every third slot skipped), so the halves' slot ranges
        // have gaps.
        let batch: Vec<(ProxyHandle, Aabb)> = (0..n)
            .filter(|k| k % 3 != 0)
            .map(|k| (handles[k], moved(k, 1)))
            .collect();
        assert!(batch.len() >= PARALLEL_UPDATES);
        store.update_batch(&batch).unwrap();
        for (k, &h) in handles.iter().enumerate() {
            let expect = if k % 3 != 0 {
                moved(k, 1)
            } else {
                unit_box(k as Real)
            };
            assert_eq!(store.aabb(h).unwrap(), expect, "slot {k}");
        }
        // Reversed, every handle twice: the later item wins.
        let batch: Vec<(ProxyHandle, Aabb)> = (0..n)
            .rev()
            .flat_map(|k| [(handles[k], moved(k, 2)), (handles[k], moved(k, 3))])
            .collect();
        store.update_batch(&batch).unwrap();
        for (k, &h) in handles.iter().enumerate() {
            assert_eq!(store.aabb(h).unwrap(), moved(k, 3), "slot {k}");
        }
        // Two bad items in slot order: nothing changes, the first one is named.
        let nan = Aabb::new_unchecked(Point::new(Real::NAN, 0.0, 0.0), Point::new(1.0, 1.0, 1.0));
        let mut batch: Vec<(ProxyHandle, Aabb)> =
            (0..n).map(|k| (handles[k], moved(k, 4))).collect();
        batch[n - 10].1 = nan;
        batch[n / 2].1 = nan;
        assert_eq!(
            store.update_batch(&batch),
            Err(BroadPhaseError::NonFiniteAabb(Some(handles[n / 2])))
        );
        for (k, &h) in handles.iter().enumerate() {
            assert_eq!(store.aabb(h).unwrap(), moved(k, 3), "slot {k}");
        }
    }

    /// `update_batch_with` writes what `update_batch` writes for the same items, on the
    /// parallel path (slot order) and the serial one (any order, repeats, small batches), and
    /// refuses the same bad items (a NaN box, a stale handle) with the same error, changing
    /// nothing.
    #[test]
    fn update_batch_with_equals_update_batch() {
        let n = 3 * PARALLEL_UPDATES / 2;
        let mut store = ProxyStore::default();
        let mut handles: Vec<ProxyHandle> = (0..n)
            .map(|k| store.insert(unit_box(k as Real), k as u64).unwrap().0)
            .collect();
        let stale = handles[7];
        store.remove(stale).unwrap();
        handles[7] = store.insert(unit_box(-1.0), 7).unwrap().0;
        let moved = |k: usize, round: usize| unit_box((k * 5 + round) as Real);
        let nan = Aabb::new_unchecked(Point::new(Real::NAN, 0.0, 0.0), Point::new(1.0, 1.0, 1.0));
        let slot_order: Vec<(ProxyHandle, Aabb)> = (0..n)
            .filter(|k| k % 3 != 0)
            .map(|k| (handles[k], moved(k, 1)))
            .collect();
        let mut with_nan = slot_order.clone();
        with_nan[n / 2].1 = nan;
        let mut with_stale = slot_order.clone();
        with_stale[5].0 = stale;
        let batches = [
            slot_order.clone(),
            (0..n)
                .rev()
                .flat_map(|k| [(handles[k], moved(k, 2)), (handles[k], moved(k, 3))])
                .collect(),
            slot_order[..100].to_vec(),
            with_nan,
            with_stale,
        ];
        for (b, batch) in batches.iter().enumerate() {
            let (mut a, mut w) = (store.clone(), store.clone());
            let hs: Vec<ProxyHandle> = batch.iter().map(|it| it.0).collect();
            let expect = a.update_batch(batch);
            assert_eq!(
                w.update_batch_with(&hs, |i| batch[i].1),
                expect,
                "batch {b}"
            );
            assert_eq!(a.aabbs, w.aabbs, "batch {b}");
            assert_eq!(expect.is_ok(), b < 3, "batch {b}");
            if expect.is_err() {
                assert_eq!(a.aabbs, store.aabbs, "batch {b}");
            }
        }
    }
}
