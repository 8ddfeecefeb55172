//! Sweep and prune as box pruning (Terdiman 2007, "Sweep-and-prune"; Baraff 1992, "Dynamic
//! simulation of non-penetrating rigid bodies", §6; Ericson RTCD §7.5.2).
//!
//! The proxies are kept sorted by their lower bound along one axis, the axis of largest spread
//! of the box centres (re-chosen every [`AXIS_PERIOD`] frames and when proxies come and go).
//! A pair can overlap only if their intervals on that axis overlap, so a sweep over the sorted
//! list meets each proxy while the earlier proxies whose interval still covers its lower bound
//! are *active*.
//!
//! **The sort is kept from frame to frame by insertion sort** (Terdiman's "sort with
//! coherence"): bodies move little per step, so the list is almost sorted and insertion sort
//! runs in O(n + k) for k swaps. Inserted proxies are sorted among themselves and merged into
//! the list in one pass (O(n + m log m) for m of them); removed ones are dropped in the same
//! pass. If more than [`SWAP_BUDGET_PER_PROXY`]·n swaps are needed (teleports, a fresh scene)
//! the list is sorted from scratch, so the worst case stays O(n log n).
//!
//! **The other axes are pruned in the sweep**: the active proxies are kept in columns over
//! the two other axes (squares of about twice the median extent), and a proxy is compared only
//! with the active proxies of the columns its box touches, not with every active proxy (a
//! single-axis sweep compares each of 10⁵ uniform proxies with about 1 300 others, for under
//! one pair each; Terdiman's box pruning tests the second axis first inside that loop, which
//! makes each comparison cheaper but leaves their number). Columns come in levels of size
//! classes [`BAND_RATIO`] apart, a proxy living in the level whose class fits its extent, in
//! columns the size of that level's largest resident (at most 2×2 of them; the hierarchical
//! spatial hash of Mirtich 1996, "Efficient algorithms for two-phase collision detection", in
//! two dimensions), so a building among specks of debris neither spans thousands of columns
//! nor crowds the specks' columns. A proxy is also entered, as a visitor, in the columns of
//! every occupied level above its own that hold a resident; it finds its pairs at its own
//! level (residents and visitors, i.e. proxies of its size or smaller) and at the levels above
//! (residents only), and a pair is kept only in the column holding the larger of the two lower
//! bounds on each axis, so it is reported exactly once. The sweep is serial.
//!
//! Pairs are found by the sweep every frame rather than maintained incrementally from the
//! swaps: [`SweepAndPrune::last_stats`] reports the swap count next to the sweep's candidate
//! count so the two can be compared on any scene. Keys are sorted canonically, so the output
//! does not depend on the thread count.

use crate::handle::Pair;
use crate::math::{Point, Real, Vector};
use crate::proxies::{pair_key, PairKeys, ProxyStore, Ray};
use crate::{impl_proxy_bookkeeping, Aabb, BroadPhase, ProxyHandle};
use std::sync::atomic::AtomicUsize;

use super::levels::CellFilter;
use crate::par::prelude::*;

/// The sweep axis is re-chosen this often (frames; a power of two).
pub const AXIS_PERIOD: u32 = 64;
/// Size-class ratio between consecutive levels of columns.
pub const BAND_RATIO: Real = 16.0;
/// Levels of columns; the base level's class (index [`BASE_LEVEL`]) is twice the median extent.
const LEVELS: usize = 12;
const BASE_LEVEL: usize = 6;
/// Base column side over the median extent of the proxies on the two other axes.
const BAND_BASE: f64 = 2.0;
/// A proxy lives in the lowest level whose columns are at least its extent over this (so it
/// touches at most `(BAND_SPAN + 1)²` columns there).
const BAND_SPAN: f64 = 1.0;
/// Column-entry flags: this column is the proxy's first at its level on the first other axis,
/// on the second.
const FIRST_U: u32 = 1;
const FIRST_V: u32 = 2;
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
        overlaps_rest(&self.rest, &o.rest)
    }
}

/// Whether two boxes given on the two axes other than the sweep axis (`[min, max]` on the
/// first, then on the second) overlap (closed).
#[inline]
fn overlaps_rest(a: &[Real; 4], b: &[Real; 4]) -> bool {
    (a[0] <= b[1]) & (b[0] <= a[1]) & (a[2] <= b[3]) & (b[2] <= a[3])
}

/// Counters of the last `find_pairs`, for comparing sweep and incremental maintenance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SapStats {
    /// Swaps done by the insertion sort (each would be one pair event in an incremental SAP).
    pub swaps: usize,
    /// True when the insertion sort gave up and the list was sorted from scratch.
    pub full_sort: bool,
    /// Entries of the active columns the sweep compared (candidates tested).
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
    /// The sweep's active columns (kept between frames so a warm frame does not allocate).
    bands: Bands,
    dirty: bool,
    membership_changed: bool,
    frames: u32,
    found: PairKeys,
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

    /// The axis with the largest variance of the box centres of the listed and `pending`
    /// proxies (Ericson RTCD §7.5.2).
    fn choose_axis(&self, pending: &[u32]) -> usize {
        let n = (self.list.len() + pending.len()).max(1) as f64;
        let mut s = [0f64; 3];
        let mut s2 = [0f64; 3];
        for slot in self
            .list
            .iter()
            .map(|e| e.slot)
            .chain(pending.iter().copied())
        {
            let b = &self.store.aabbs[slot as usize];
            for d in 0..3 {
                let c = 0.5 * (b.mins[d] as f64 + b.maxs[d] as f64);
                s[d] += c;
                s2[d] += c * c;
            }
        }
        let var = |d: usize| s2[d] / n - (s[d] / n).powi(2);
        (0..3).fold(0, |best, d| if var(d) > var(best) { d } else { best })
    }

    /// Brings the list up to date with the store and sorts it: removed proxies dropped, the
    /// others' boxes refreshed and sorted by insertion sort, the inserted ones sorted apart and
    /// merged in.
    fn refresh(&mut self) {
        let mut full_sort = false;
        let pending = std::mem::take(&mut self.pending);
        if self.membership_changed {
            self.list.retain(|e| e.slot != DEAD);
        }
        if self.membership_changed || self.frames & (AXIS_PERIOD - 1) == 0 {
            let axis = self.choose_axis(&pending);
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
        let by_lo = |a: &Entry, b: &Entry| a.lo.total_cmp(&b.lo).then(a.slot.cmp(&b.slot));
        if full_sort {
            self.list.par_sort_unstable_by(by_lo);
        }
        if !pending.is_empty() {
            let mut new: Vec<Entry> = pending
                .iter()
                .map(|&s| Entry::new(s, &self.store.aabbs[s as usize], axis))
                .collect();
            new.par_sort_unstable_by(by_lo);
            let old = std::mem::take(&mut self.list);
            self.list = merge_sorted(old, new, |a, b| a.lo <= b.lo);
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

    /// Positions `0..end` hold every proxy whose lower bound on the axis is ≤ `max`.
    fn prefix_up_to(&self, max: Real) -> usize {
        self.list.partition_point(|e| e.lo <= max)
    }
}

/// The least power of two at least `x` (`x` positive and finite).
fn pow2_at_least(x: f64) -> f64 {
    let p = 2f64.powi(x.log2().ceil() as i32);
    if p < x {
        2.0 * p
    } else {
        p
    }
}

/// Merges two sorted vectors (`le(a, b)`: `a` may come first); on ties `a`'s elements first.
fn merge_sorted<T: Copy>(a: Vec<T>, b: Vec<T>, le: impl Fn(&T, &T) -> bool) -> Vec<T> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if le(&a[i], &b[j]) {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// The active proxies of the sweep, by column of the two other axes (see the module docs).
#[derive(Clone, Debug, Default)]
struct Bands {
    /// Column key (level, band on each other axis) → index into `lists`.
    map: std::collections::HashMap<u64, u32, BuildKeyHasher>,
    /// Active entries per column, residents then visitors, each a copy of its proxy's box and
    /// slot (the sweep streams through them) with the [`FIRST_U`] and [`FIRST_V`] flags.
    lists: Vec<[Vec<Active>; 2]>,
    /// Per list index: level of the proxy.
    level: Vec<u8>,
    /// The columns holding residents (when there is more than one level).
    filter: CellFilter,
    /// Columns count from this point (the two other axes).
    origin: Option<[f64; 2]>,
}

/// Tests `p` (flags `first` in this column) against the entries `active` of a column whose
/// pairs with it are kept there, dropping the expired entries; returns how many were tested.
#[inline]
fn sweep_column(p: &Entry, first: u32, active: &mut Vec<Active>, keys: &mut Vec<u64>) -> usize {
    let mut tested = 0;
    let mut j = 0;
    while j < active.len() {
        let q = active[j];
        if q.hi < p.lo {
            active.swap_remove(j);
            continue;
        }
        j += 1;
        if (first | q.flags) != FIRST_U | FIRST_V {
            continue;
        }
        tested += 1;
        if overlaps_rest(&p.rest, &q.rest) {
            keys.push(pair_key(p.slot, q.slot));
        }
    }
    tested
}

/// An active proxy in a column: its upper bound on the sweep axis, its box on the two others,
/// its slot and flags ([`FIRST_U`], [`FIRST_V`]).
#[derive(Clone, Copy, Debug)]
struct Active {
    hi: Real,
    rest: [Real; 4],
    slot: u32,
    flags: u32,
}

/// Fibonacci hashing of the column keys.
#[derive(Clone, Copy, Debug, Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(super::grid::FIBONACCI)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x100_0000_01B3);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type BuildKeyHasher = std::hash::BuildHasherDefault<KeyHasher>;

impl SweepAndPrune {
    /// The sweep with columns: the pair keys into `keys`; returns the candidate count.
    fn sweep(&mut self, dropped: &AtomicUsize) -> usize {
        let list = &self.list;
        let n = list.len();
        let bands = &mut self.bands;
        let trim = self.store.budget.start(dropped);
        let mut keys = std::mem::take(&mut self.found.keys);
        keys.clear();
        if n < 2 {
            self.found.keys = keys;
            return 0;
        }
        // Levels of column sides: the base one (the size classes of the levels) is twice the
        // median extent on the two other axes (sampled).
        let stride = n.div_ceil(1024);
        let extent = |e: &Entry| (e.rest[1] - e.rest[0]).max(e.rest[3] - e.rest[2]);
        let mut ext: Vec<Real> = list.iter().step_by(stride).map(extent).collect();
        let mid = ext.len() / 2;
        let median = *ext.select_nth_unstable_by(mid, |a, b| a.total_cmp(b)).1;
        let (lo, hi) = list.iter().fold(
            ([Real::INFINITY; 2], [Real::NEG_INFINITY; 2]),
            |(l, h), e| {
                (
                    [l[0].min(e.rest[0]), l[1].min(e.rest[2])],
                    [h[0].max(e.rest[1]), h[1].max(e.rest[3])],
                )
            },
        );
        let span = (0..2)
            .map(|d| hi[d] as f64 - lo[d] as f64)
            .fold(1e-30, f64::max);
        // Column keys stay the same from frame to frame while the proxies stay put (so the
        // column table is reused): the origin is kept while the occupied range stays within a
        // span of it, and the column sides are powers of two.
        let stale = |o: [f64; 2]| (0..2).any(|d| (lo[d] as f64 - o[d]).abs() > span);
        let origin = match bands.origin {
            Some(o) if !stale(o) => o,
            _ => lo.map(|v| v as f64),
        };
        bands.origin = Some(origin);
        let base = (BAND_BASE * median as f64).max(1e-30);
        let width: [f64; LEVELS] =
            std::array::from_fn(|l| base * (BAND_RATIO as f64).powi(l as i32 - BASE_LEVEL as i32));
        bands.level.clear();
        bands.level.extend(list.iter().map(|e| {
            let x = extent(e) as f64;
            (0..LEVELS - 1)
                .find(|&l| x <= BAND_SPAN * width[l])
                .unwrap_or(LEVELS - 1) as u8
        }));
        let occupied = bands.level.iter().fold(0u32, |m, &l| m | 1 << l);
        // Each level's columns fit its largest resident (so a resident, and a visitor from
        // below, being smaller, spans at most `BAND_SPAN + 1` of them per axis).
        let mut largest = [0f64; LEVELS];
        for (e, &l) in list.iter().zip(&bands.level) {
            let m = &mut largest[l as usize];
            *m = m.max(extent(e) as f64);
        }
        let floor = span / (1u64 << 20) as f64;
        let inv = largest.map(|m| 1.0 / pow2_at_least((m / BAND_SPAN).max(floor).max(1e-30)));
        // Band index of `y` on other axis `d` at level `l`: monotone in `y`, so overlapping
        // intervals share a band.
        let band = |y: Real, d: usize, l: usize| -> i64 {
            let v = ((y as f64 - origin[d]) * inv[l]).floor();
            v.clamp(-(1i64 << 28) as f64, ((1i64 << 28) - 1) as f64) as i64
        };
        let key = |l: usize, bu: i64, bv: i64| {
            (l as u64) << 60 | ((bu + (1 << 28)) as u64) << 30 | (bv + (1 << 28)) as u64
        };
        for [r, v] in bands.lists.iter_mut() {
            r.clear();
            v.clear();
        }
        if bands.map.len() > 8 * n + 1024 {
            bands.map.clear();
            bands.lists.clear();
        }
        // The columns holding residents: a visit of a column of a level above a proxy's own is
        // skipped (no table lookup) when it has none.
        let mut n_res = 0;
        let mut res_keys = Vec::new();
        if occupied.count_ones() > 1 {
            for (p, &l) in list.iter().zip(&bands.level) {
                let l = l as usize;
                let (u0, u1) = (band(p.rest[0], 0, l), band(p.rest[1], 0, l));
                let (v0, v1) = (band(p.rest[2], 1, l), band(p.rest[3], 1, l));
                n_res += ((u1 - u0 + 1) * (v1 - v0 + 1)) as usize;
                for bu in u0..=u1 {
                    for bv in v0..=v1 {
                        res_keys.push(key(l, bu, bv));
                    }
                }
            }
        }
        bands.filter.build(n_res, res_keys.into_iter());
        let mut candidates = 0;
        for (i, p) in list.iter().enumerate() {
            let own = bands.level[i] as usize;
            for l in own..LEVELS {
                if occupied >> l & 1 == 0 {
                    continue;
                }
                let visitor = (l > own) as u32;
                let (u0, u1) = (band(p.rest[0], 0, l), band(p.rest[1], 0, l));
                let (v0, v1) = (band(p.rest[2], 1, l), band(p.rest[3], 1, l));
                for bu in u0..=u1 {
                    for bv in v0..=v1 {
                        if visitor != 0 && !bands.filter.may_hold(key(l, bu, bv)) {
                            continue;
                        }
                        let next = bands.lists.len() as u32;
                        let at = *bands.map.entry(key(l, bu, bv)).or_insert(next) as usize;
                        if at == bands.lists.len() {
                            bands.lists.push(Default::default());
                        }
                        let [residents, visitors] = &mut bands.lists[at];
                        let first = ((bu == u0) as u32 * FIRST_U) | ((bv == v0) as u32 * FIRST_V);
                        // `p` meets the column's residents, and at its own level the visitors
                        // (the smaller proxies) too; the pair is kept in the column holding the
                        // larger of the two lower bounds on each axis (`p`'s or the entry's
                        // first column there).
                        candidates += sweep_column(p, first, residents, &mut keys);
                        if visitor == 0 {
                            candidates += sweep_column(p, first, visitors, &mut keys);
                        }
                        let entry = Active {
                            hi: p.hi,
                            rest: p.rest,
                            slot: p.slot,
                            flags: first,
                        };
                        if visitor == 0 {
                            residents.push(entry);
                        } else {
                            visitors.push(entry);
                        }
                    }
                }
            }
            trim.trim(&mut keys);
        }
        self.found.keys = keys;
        candidates
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
        let dropped = AtomicUsize::new(0);
        let searched = self.dirty || self.frames == 0;
        if searched {
            self.refresh();
            self.stats.candidates = self.sweep(&dropped);
        }
        let counted = searched.then(|| dropped.into_inner());
        self.found.finish(&mut self.store, out, counted);
    }

    fn shrink_buffers(&mut self) {
        self.found.shrink();
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
