//! Sweep and prune (Baraff 1992, "Dynamic simulation of non-penetrating rigid bodies", §6;
//! Terdiman 2007, "Sweep-and-prune"; Ericson RTCD §7.5.2).
//!
//! The proxies are kept sorted by their lower bound along one axis, the axis of largest spread
//! of the box centres (re-chosen every [`AXIS_PERIOD`] frames and when proxies come and go).
//! A pair can overlap only if their intervals on that axis overlap, so a sweep over the sorted
//! list compares each proxy only with the following ones whose lower bound is below its upper
//! bound, and tests the two other axes for those.
//!
//! Between frames the list is re-sorted by **insertion sort**: bodies move little per step
//! (temporal coherence), so the list is almost sorted and insertion sort runs in O(n + k) for
//! k swaps, instead of O(n log n) (Baraff 1992; Terdiman 2007 calls it "sort with coherence").
//! If more than [`SWAP_BUDGET_PER_PROXY`]·n swaps are needed (teleports, a fresh scene) it
//! gives up and sorts from scratch, so the worst case stays O(n log n).
//!
//! Pairs are found by the sorted sweep every frame rather than maintained incrementally from
//! the swaps: each swap of an incremental SAP costs an overlap test plus a hash-set insertion or
//! removal, and [`SweepAndPrune::last_stats`] reports the swap count next to the sweep's
//! candidate count so the two can be compared on any scene (figures in the bench notes).
//! Large scenes sweep in parallel over chunks of the list; keys are sorted canonically.
//! Batch insert/remove are cheap: removals mark entries dead and new proxies are appended;
//! both are resolved in one pass (and one sort) at the next `find_pairs`.

use crate::handle::Pair;
use crate::math::{Point, Real, Vector};
use crate::proxies::{concat, finish_pairs, pair_key, ProxyStore, Ray, SortScratch};
use crate::{impl_proxy_bookkeeping, Aabb, BroadPhase, ProxyHandle};
use rayon::prelude::*;

/// The sweep axis is re-chosen this often (frames; a power of two).
pub const AXIS_PERIOD: u32 = 64;
/// Insertion sort gives up (and sorts from scratch) after this many swaps per proxy.
pub const SWAP_BUDGET_PER_PROXY: usize = 32;
const DEAD: u32 = u32::MAX;

/// One proxy in the sorted list: its interval on the sweep axis and its box on the two others.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    lo: Real,
    hi: Real,
    /// `[min, max]` on the first other axis, then on the second.
    rest: [Real; 4],
    slot: u32,
}

impl Entry {
    fn new(slot: u32, b: &Aabb, axis: usize) -> Self {
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        Self {
            lo: b.mins[axis],
            hi: b.maxs[axis],
            rest: [b.mins[u], b.maxs[u], b.mins[v], b.maxs[v]],
            slot,
        }
    }

    #[inline]
    fn overlaps_rest(&self, o: &Entry) -> bool {
        self.rest[0] <= o.rest[1]
            && o.rest[0] <= self.rest[1]
            && self.rest[2] <= o.rest[3]
            && o.rest[2] <= self.rest[3]
    }
}

/// Counters of the last `find_pairs`, for comparing sweep and incremental maintenance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SapStats {
    /// Swaps done by the insertion sort (each would be one pair event in an incremental SAP).
    pub swaps: usize,
    /// True when the insertion sort gave up and the list was sorted from scratch.
    pub full_sort: bool,
    /// Pairs whose sweep-axis intervals overlapped (candidates the sweep tested).
    pub candidates: usize,
}

/// Sweep-and-prune broad phase. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct SweepAndPrune {
    store: ProxyStore,
    axis: usize,
    /// Sorted by `lo` when clean.
    list: Vec<Entry>,
    /// Slot → position in `list` (`DEAD` when absent).
    pos: Vec<u32>,
    /// Slots inserted since the last `find_pairs`.
    pending: Vec<u32>,
    dirty: bool,
    membership_changed: bool,
    frames: u32,
    keys: Vec<u64>,
    sort: SortScratch,
    stats: SapStats,
}

impl SweepAndPrune {
    /// An empty sweep and prune.
    pub fn new() -> Self {
        Self::default()
    }

    /// The sweep axis of the last `find_pairs` (0 = x, 1 = y, 2 = z).
    pub fn axis(&self) -> usize {
        self.axis
    }

    /// Counters of the last `find_pairs`.
    pub fn last_stats(&self) -> SapStats {
        self.stats
    }

    fn on_insert(&mut self, slot: usize) {
        if self.pos.len() <= slot {
            self.pos.resize(slot + 1, DEAD);
        }
        self.pending.push(slot as u32);
        self.dirty = true;
        self.membership_changed = true;
    }

    fn on_remove(&mut self, slot: usize) {
        let p = self.pos[slot];
        if p != DEAD {
            self.list[p as usize].slot = DEAD;
            self.pos[slot] = DEAD;
        } else {
            // Inserted and removed before any find_pairs.
            self.pending.retain(|&s| s as usize != slot);
        }
        self.dirty = true;
        self.membership_changed = true;
    }

    fn on_moved(&mut self) {
        self.dirty = true;
    }

    /// The axis with the largest variance of the box centres (Ericson RTCD §7.5.2).
    fn choose_axis(&self) -> usize {
        let n = self.list.len().max(1) as f64;
        let mut s = [0f64; 3];
        let mut s2 = [0f64; 3];
        for e in &self.list {
            let b = &self.store.aabbs[e.slot as usize];
            for d in 0..3 {
                let c = 0.5 * (b.mins[d] as f64 + b.maxs[d] as f64);
                s[d] += c;
                s2[d] += c * c;
            }
        }
        let var = |d: usize| s2[d] / n - (s[d] / n).powi(2);
        (0..3).fold(0, |best, d| if var(d) > var(best) { d } else { best })
    }

    /// Brings the list up to date with the store and sorts it.
    fn refresh(&mut self) {
        let mut full_sort = false;
        if self.membership_changed {
            self.list.retain(|e| e.slot != DEAD);
            let pending = std::mem::take(&mut self.pending);
            let axis = self.axis;
            self.list.extend(
                pending
                    .iter()
                    .map(|&s| Entry::new(s, &self.store.aabbs[s as usize], axis)),
            );
            // Many new proxies: insertion would cost O(n·k); sort instead.
            full_sort = pending.len() > 64;
        }
        if self.membership_changed || self.frames & (AXIS_PERIOD - 1) == 0 {
            let axis = self.choose_axis();
            full_sort |= axis != self.axis;
            self.axis = axis;
        }
        self.membership_changed = false;
        self.frames = self.frames.wrapping_add(1);

        let (store, axis) = (&self.store, self.axis);
        self.list
            .par_iter_mut()
            .with_min_len(4096)
            .for_each(|e| *e = Entry::new(e.slot, &store.aabbs[e.slot as usize], axis));

        let mut swaps = 0;
        if !full_sort {
            let budget = SWAP_BUDGET_PER_PROXY * self.list.len() + 64;
            match insertion_sort(&mut self.list, budget) {
                Some(k) => swaps = k,
                None => full_sort = true,
            }
        }
        if full_sort {
            self.list
                .par_sort_unstable_by(|a, b| a.lo.total_cmp(&b.lo).then(a.slot.cmp(&b.slot)));
        }
        for (i, e) in self.list.iter().enumerate() {
            self.pos[e.slot as usize] = i as u32;
        }
        self.stats = SapStats {
            swaps,
            full_sort,
            candidates: 0,
        };
        self.dirty = false;
    }

    /// Sweep over `list[i0..i1]` (each against every later proxy); returns the candidate count.
    fn sweep(&self, i0: usize, i1: usize, out: &mut Vec<u64>) -> usize {
        let list = &self.list;
        let mut candidates = 0;
        for i in i0..i1 {
            let a = &list[i];
            for b in &list[i + 1..] {
                if b.lo > a.hi {
                    break;
                }
                candidates += 1;
                if a.overlaps_rest(b) {
                    out.push(pair_key(a.slot, b.slot));
                }
            }
        }
        candidates
    }

    /// Positions `0..end` hold every proxy whose lower bound on the axis is ≤ `max`.
    fn prefix_up_to(&self, max: Real) -> usize {
        self.list.partition_point(|e| e.lo <= max)
    }
}

/// Sorts `v` by `lo` with insertion sort, giving up after `budget` swaps (returns the number of
/// swaps, or None when it gave up; the slice is then a permutation, to be sorted otherwise).
fn insertion_sort(v: &mut [Entry], budget: usize) -> Option<usize> {
    let mut swaps = 0;
    for i in 1..v.len() {
        let e = v[i];
        let mut j = i;
        while j > 0 && v[j - 1].lo > e.lo {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = e;
        swaps += i - j;
        if swaps > budget {
            return None;
        }
    }
    Some(swaps)
}

impl BroadPhase for SweepAndPrune {
    impl_proxy_bookkeeping!();

    fn find_pairs(&mut self, out: &mut Vec<Pair>) {
        if self.dirty || self.frames == 0 {
            self.refresh();
            let n = self.list.len();
            const CHUNK: usize = 2048;
            let parts: Vec<(Vec<u64>, usize)> = (0..n.div_ceil(CHUNK))
                .into_par_iter()
                .map(|c| {
                    let mut v = Vec::new();
                    let k = self.sweep(c * CHUNK, ((c + 1) * CHUNK).min(n), &mut v);
                    (v, k)
                })
                .collect();
            self.stats.candidates = parts.iter().map(|p| p.1).sum();
            let mut keys = std::mem::take(&mut self.keys);
            concat(
                &parts.into_iter().map(|p| p.0).collect::<Vec<_>>(),
                &mut keys,
            );
            self.keys = keys;
        }
        finish_pairs(&mut self.keys, &self.store.arena, out, &mut self.sort);
    }

    fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<ProxyHandle>) {
        if self.dirty || !aabb.is_valid() {
            return self.store.scan_aabb(aabb, out);
        }
        let q = Entry::new(0, aabb, self.axis);
        let end = self.prefix_up_to(q.hi);
        let mut slots: Vec<u32> = self.list[..end]
            .iter()
            .filter(|e| e.hi >= q.lo && e.overlaps_rest(&q))
            .map(|e| e.slot)
            .collect();
        slots.sort_unstable();
        out.clear();
        out.extend(slots.iter().map(|&s| self.store.arena.handle_of(s)));
    }

    fn query_point(&self, p: &Point, out: &mut Vec<ProxyHandle>) {
        match Aabb::new(*p, *p) {
            Ok(b) => self.query_aabb(&b, out),
            Err(_) => self.store.scan_point(p, out),
        }
    }

    fn cast_ray(
        &self,
        origin: &Point,
        dir: &Vector,
        max_t: Real,
        out: &mut Vec<(ProxyHandle, Real)>,
    ) {
        self.store.scan_ray(&Ray::new(origin, dir, max_t), out);
    }

    fn validate(&self) -> Result<(), String> {
        self.store.validate()?;
        for (i, e) in self.list.iter().enumerate() {
            if e.slot == DEAD {
                continue;
            }
            if self.pos.get(e.slot as usize) != Some(&(i as u32)) {
                return Err(format!(
                    "sap: entry {i} (slot {}) is not cross-linked",
                    e.slot
                ));
            }
            if !self.store.arena.is_alive(e.slot as usize) {
                return Err(format!("sap: entry {i} names dead slot {}", e.slot));
            }
        }
        for s in self.store.arena.live_indices() {
            let p = self.pos[s as usize];
            let listed = p != DEAD && self.list[p as usize].slot == s;
            if listed == self.pending.contains(&s) {
                return Err(format!(
                    "sap: live slot {s} is listed {listed} and pending {}",
                    !listed
                ));
            }
        }
        if !self.dirty {
            if let Some(i) = (1..self.list.len()).find(|&i| self.list[i - 1].lo > self.list[i].lo) {
                return Err(format!("sap: list not sorted at {i}"));
            }
            for (i, e) in self.list.iter().enumerate() {
                if *e != Entry::new(e.slot, &self.store.aabbs[e.slot as usize], self.axis) {
                    return Err(format!("sap: entry {i} does not match its proxy's box"));
                }
            }
        }
        Ok(())
    }
}
