//! The levels of the [`Grid`](super::Grid) other than its base level: the hierarchical spatial
//! hash of Mirtich (1996, "Efficient algorithms for two-phase collision detection", §4.2).
//!
//! Level `L` (from −8 to 7; the base level 0 is the grid's own table) holds as *residents*
//! the proxies whose largest side falls in its size class, the classes growing by
//! [`LEVEL_RATIO`] per level; its cells are cubes of the largest side among its residents, so a
//! proxy is in at most 2×2×2 cells of its own level whatever its size. The base level holds
//! the sizes from 1/1024 to 2 times the base cell (every proxy of a scene of similar sizes: the
//! grid then has no other level and nothing here costs anything).
//!
//! A pair of proxies of levels `a ≤ b` is found at level `b`, in the cell holding the minimum
//! corner of the overlap of their level-`b` cell ranges (the grid's flag rule): a cell pairs
//! its residents, and each proxy looks up its own cells (at most 2×2×2, being smaller than the
//! cells there) in every occupied level above its own, the base level's table included, and
//! pairs itself with the residents found. A bit filter over the occupied cells (a one-hash
//! Bloom filter, 8 bits per entry, in the core's cache) answers most lookups of empty cells
//! without touching the table: in a sparse level most are. No proxy is ever tested against
//! every other.
//!
//! Cell coordinates count from the minimum corner of the occupied bounds (not from the world
//! origin), 19 bits per axis, and no level's cell is smaller than the bounds' largest side over
//! 2¹⁷, so coordinates never clamp while the bounds hold (far coordinates, a huge world with
//! specks in it). The entries are bucketed by a hash of their cell key with a counting sort.

use super::grid::{cell_index, hash_bucket, overlaps, Range, FLAG_SHIFT, SLOT_MASK};
use crate::budget::Trim;
use crate::math::Real;
use crate::proxies::pair_key;
use crate::Aabb;

/// Size-class ratio between consecutive levels of the grid. Fewer levels mean fewer lookups
/// per proxy and more residents per looked-up cell: on the `mixed` scene (sizes over six
/// decades, `scene_frames`, one thread, CPU time per frame at 100 000 proxies) 32 measured
/// 29.5 ms, 16 32.5 ms, 64 30.5 ms and 8 33.5 ms.
pub const LEVEL_RATIO: Real = 32.0;
/// Levels below the base level.
const BELOW: usize = 8;
/// Number of levels, the base one included; level `L` has index `L + BELOW`.
pub(super) const LEVELS: usize = 16;
/// Index of the base level.
pub(super) const BASE: usize = BELOW;
/// The base level holds largest sides in `(base cell / SMALL_DIV, BIG_MUL · base cell]`.
/// Small proxies stay in the base down to 1/1024 of its cell: a level below costs every one
/// of its proxies lookups in the base table and the levels above, while a small proxy in a
/// base cell costs tests against that cell's few entries (a crowded cell is swept). On the
/// `mixed` scene (`scene_frames`, one thread, CPU time per frame) 1024 measured 2.30 ms at
/// 10 000 proxies and 25.8 ms at 100 000, against 2.57 and 27.8 ms at 64; `specks` (1–3 mm
/// beside 5–10 m boxes, below 1/1024) is unchanged. A larger base multiple (`BIG_MUL` 4)
/// measured 25 % slower on `mixed`.
const BIG_MUL: Real = 2.0;
const SMALL_DIV: Real = 1024.0;
/// Bits per axis of a cell coordinate in a key; coordinates are clamped to `±COORD_LIMIT`.
const COORD_BITS: u32 = 19;
const COORD_LIMIT: i32 = 1 << (COORD_BITS - 1);
/// A level's cell is at least the bounds' largest side over this (so coordinates fit).
pub(super) const MIN_CELLS_SPAN: Real = (1u32 << 17) as Real;
const LEVEL_SHIFT: u32 = 3 * COORD_BITS;
/// Cells per axis of the grid that orders the lookups of the levels above (see
/// [`Levels::region`]), and their number.
const REGION_DIM: usize = 32;
pub(super) const REGIONS: usize = REGION_DIM * REGION_DIM * REGION_DIM;
/// Buckets of at least this many entries are swept along x rather than paired all with all.
const SWEEP_MIN: usize = 12;
/// Bits of the occupied-cell filter per entry.
const FILTER_BITS_PER_ENTRY: usize = 8;

/// Largest side of a box. Stored boxes are finite, so a side is never NaN and a plain
/// compare-and-select (one `maxss`) gives `Real::max` without its NaN handling, which costs
/// several instructions per call on the rebuild's hot loop.
#[inline]
pub(super) fn largest_side(b: &Aabb) -> Real {
    let e = b.maxs - b.mins;
    let m = if e.x > e.y { e.x } else { e.y };
    if m > e.z {
        m
    } else {
        e.z
    }
}

/// An entry of a level: its cell key, its item (proxy `k` and flags), and a copy of the
/// proxy's box, together so that a bucket's tests read one run of memory.
#[derive(Clone, Copy, Debug)]
struct Ent {
    key: u64,
    item: u32,
    aabb: Aabb,
}

impl Default for Ent {
    fn default() -> Self {
        Ent {
            key: 0,
            item: 0,
            aabb: Aabb::new_unchecked(Default::default(), Default::default()),
        }
    }
}

/// The levels other than the base one. See the module documentation.
#[derive(Clone, Debug, Default)]
pub(super) struct Levels {
    /// Base-level residency: largest side in `(lo_limit, hi_limit]`.
    lo_limit: Real,
    hi_limit: Real,
    /// Per level index: upper bound of its residents' largest side, and its cell's inverse side.
    class: [Real; LEVELS],
    inv: [Real; LEVELS],
    /// Least cell side (the bounds' largest side over [`MIN_CELLS_SPAN`]).
    floor: Real,
    /// Largest side of the occupied bounds.
    span: Real,
    origin: [Real; 3],
    /// Bit `i`: level index `i` has residents.
    occupied: u32,
    /// Per non-base proxy (in the order of the grid's list): its level index.
    level: Vec<u8>,
    /// Inverse side of the cells of the query order (see [`Levels::region`]).
    region_inv: Real,
    /// Entries before bucketing: (key, item).
    raw: Vec<(u64, u32)>,
    /// The occupied cells.
    filter: CellFilter,
    /// Bucketed entries: `starts[b]..starts[b + 1]` are bucket `b`'s.
    starts: Vec<u32>,
    ents: Vec<Ent>,
    /// The counting sort's write positions (kept for their capacity).
    cursor: Vec<u32>,
    hash_bits: u32,
}

impl Levels {
    /// Sets the levels for a base cell `c0`, cell coordinates counted from `origin`, occupied
    /// bounds of largest side `span`. `small_levels`: whether proxies much smaller than the base
    /// cell go below it (else the base level takes every small proxy).
    pub fn setup(&mut self, c0: Real, origin: [Real; 3], span: Real, small_levels: bool) {
        self.origin = origin;
        self.hi_limit = BIG_MUL * c0;
        self.lo_limit = if small_levels { c0 / SMALL_DIV } else { 0.0 };
        self.floor = span / MIN_CELLS_SPAN;
        self.span = span;
        for i in 0..LEVELS {
            self.class[i] = if i > BASE {
                self.hi_limit * LEVEL_RATIO.powi((i - BASE) as i32)
            } else if i < BASE {
                self.lo_limit / LEVEL_RATIO.powi((BASE - 1 - i) as i32)
            } else {
                c0
            };
        }
    }

    /// True when a proxy of largest side `s` belongs to the base level.
    #[inline]
    pub fn is_base(&self, s: Real) -> bool {
        (s > self.lo_limit) & (s <= self.hi_limit)
    }

    /// The level index of a proxy of largest side `s`.
    fn level_of(&self, s: Real) -> usize {
        if s > self.hi_limit {
            (BASE + 1..LEVELS - 1)
                .find(|&i| s <= self.class[i])
                .unwrap_or(LEVELS - 1)
        } else if s <= self.lo_limit {
            (1..BASE)
                .rev()
                .find(|&i| s > self.class[i - 1])
                .unwrap_or(0)
        } else {
            BASE
        }
    }

    /// The cell range of `b` at level index `i`.
    #[inline]
    fn range(&self, b: &Aabb, i: usize) -> Range {
        let c = |x: Real, d: usize| cell_index(x - self.origin[d], self.inv[i], COORD_LIMIT);
        Range {
            lo: [c(b.mins.x, 0), c(b.mins.y, 1), c(b.mins.z, 2)],
            hi: [c(b.maxs.x, 0), c(b.maxs.y, 1), c(b.maxs.z, 2)],
        }
    }

    /// Key of cell `c` of level index `i`.
    #[inline]
    fn key(i: usize, c: [i32; 3]) -> u64 {
        let m = |v: i32| (v + COORD_LIMIT) as u64;
        (i as u64) << LEVEL_SHIFT | m(c[0]) << (2 * COORD_BITS) | m(c[1]) << COORD_BITS | m(c[2])
    }

    /// Calls `f(cell, flags)` for every cell of `r`, `flags` bit `d` set in the first cell of
    /// the range on axis `d`.
    #[inline]
    fn cells(r: &Range, mut f: impl FnMut([i32; 3], u32)) {
        for x in r.lo[0]..r.hi[0] + 1 {
            for y in r.lo[1]..r.hi[1] + 1 {
                for z in r.lo[2]..r.hi[2] + 1 {
                    let flags = (x == r.lo[0]) as u32
                        | ((y == r.lo[1]) as u32) << 1
                        | ((z == r.lo[2]) as u32) << 2;
                    f([x, y, z], flags);
                }
            }
        }
    }

    /// The region of `b` in the query order: its minimum corner's cell in a grid of at most
    /// [`REGION_DIM`]³ cells over the bounds (clamped), as a linear index below
    /// [`REGIONS`].
    #[inline]
    pub fn region(&self, b: &Aabb) -> usize {
        let c = |d: usize| {
            cell_index(b.mins[d] - self.origin[d], self.region_inv, COORD_LIMIT)
                .clamp(0, REGION_DIM as i32 - 1) as usize
        };
        (c(0) * REGION_DIM + c(1)) * REGION_DIM + c(2)
    }

    /// Whether some proxy lives outside the base level.
    pub fn is_empty(&self) -> bool {
        self.level.is_empty()
    }

    /// Level index of the non-base proxy number `j` (in the grid's list of them).
    pub fn level(&self, j: usize) -> usize {
        self.level[j] as usize
    }

    /// Enters the non-base proxies `others` (indices into `boxes`) in their levels, and as
    /// visitors in the occupied levels above. `base_occupied`: whether the base level holds
    /// some proxy.
    pub fn build(&mut self, others: &[u32], boxes: &[Aabb], base_occupied: bool) {
        let mut level = std::mem::take(&mut self.level);
        level.clear();
        level.extend(
            others
                .iter()
                .map(|&k| self.level_of(largest_side(&boxes[k as usize])) as u8),
        );
        self.level = level;
        self.occupied = (base_occupied as u32) << BASE;
        for &l in &self.level {
            self.occupied |= 1 << l;
        }
        // Each level's cell is the largest side of its residents (so each is in at most 2×2×2
        // cells, and so is a visitor from below, being smaller), or the floor.
        let mut side = [self.floor; LEVELS];
        for (&k, &l) in others.iter().zip(&self.level) {
            let s = &mut side[l as usize];
            *s = s.max(largest_side(&boxes[k as usize]));
        }
        for (inv, s) in self.inv.iter_mut().zip(side) {
            *inv = if s > 0.0 && (1.0 / s).is_finite() {
                1.0 / s
            } else {
                // A zero-size world: every proxy in one cell.
                0.0
            };
        }
        // The query order's cells: as large as the top occupied level's (the queries of one
        // such cell then scan its entries while they are in the core's cache), at most
        // REGION_DIM per axis over the bounds.
        let top = 31 - self.occupied.max(1).leading_zeros() as usize;
        let region = (REGION_DIM as Real).recip() * self.span;
        let region = region.max(if self.inv[top] > 0.0 {
            self.inv[top].recip()
        } else {
            0.0
        });
        self.region_inv = if region > 0.0 && region.recip().is_finite() {
            region.recip()
        } else {
            0.0
        };
        self.raw.clear();
        for (&k, &l) in others.iter().zip(&self.level) {
            let (r, raw) = (self.range(&boxes[k as usize], l as usize), &mut self.raw);
            Self::cells(&r, |c, flags| {
                raw.push((Self::key(l as usize, c), k | flags << FLAG_SHIFT));
            });
        }
        self.filter
            .build(self.raw.len(), self.raw.iter().map(|e| e.0));
        // Counting sort by bucket (stable: a bucket's entries stay in proxy order).
        // About one bucket per entry, as the base table (see `Grid::rebuild`).
        self.hash_bits = self
            .raw
            .len()
            .max(1)
            .next_power_of_two()
            .trailing_zeros()
            .max(4);
        let buckets = 1usize << self.hash_bits;
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        for &(key, _) in &self.raw {
            self.starts[hash_bucket(key, self.hash_bits) + 1] += 1;
        }
        for b in 0..buckets {
            self.starts[b + 1] += self.starts[b];
        }
        self.ents.resize(self.raw.len(), Ent::default());
        let mut cursor = std::mem::take(&mut self.cursor);
        cursor.clear();
        cursor.extend_from_slice(&self.starts[..buckets]);
        for &(key, item) in &self.raw {
            let b = hash_bucket(key, self.hash_bits);
            let p = cursor[b] as usize;
            cursor[b] += 1;
            self.ents[p] = Ent {
                key,
                item,
                aabb: boxes[(item & SLOT_MASK) as usize],
            };
        }
        self.cursor = cursor;
    }

    /// Number of buckets of the entries.
    pub fn buckets(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// Pairs of the entries in buckets `b0..b1`: two residents of one cell (same key), the cell
    /// holding the minimum corner of their overlap (flags), boxes overlapping. Keys
    /// `pair_key(live[a], live[b])` appended to `out`.
    pub fn cell_pairs(&self, b0: usize, b1: usize, live: &[u32], trim: &Trim, out: &mut Vec<u64>) {
        let mut swept: Vec<(Real, u32)> = Vec::new();
        for b in b0..b1 {
            let (s, e) = (self.starts[b] as usize, self.starts[b + 1] as usize);
            if e - s < SWEEP_MIN {
                // Few pairs: all of them (the buffer passes the budget's limit by at most
                // SWEEP_MIN² / 2 keys).
                trim.trim(out);
                for i in s..e {
                    for j in i + 1..e {
                        self.test_entries(i, j, live, out);
                    }
                }
                continue;
            }
            // A crowded bucket (the cells of the top level hold dozens of residents) is swept
            // along x (Terdiman's sweep and prune): its entries sorted by `mins.x`, each is
            // tested against those that start before it ends.
            swept.clear();
            swept.extend((s..e).map(|i| (self.ents[i].aabb.mins.x, i as u32)));
            swept.sort_unstable_by(|p, q| p.0.total_cmp(&q.0));
            for (p, &(_, i)) in swept.iter().enumerate() {
                trim.trim(out);
                let max_x = self.ents[i as usize].aabb.maxs.x;
                for &(min_x, j) in &swept[p + 1..] {
                    if min_x > max_x {
                        break;
                    }
                    self.test_entries(i as usize, j as usize, live, out);
                }
            }
        }
    }

    /// Appends the pair key of entries `i` and `j` if they are of one cell, that cell holds
    /// the minimum corner of their overlap (flags), and their boxes overlap.
    #[inline(always)]
    fn test_entries(&self, i: usize, j: usize, live: &[u32], out: &mut Vec<u64>) {
        let (ei, ej) = (&self.ents[i], &self.ents[j]);
        if ei.key == ej.key
            && (ei.item | ej.item) >> FLAG_SHIFT == 0b111
            && overlaps(&ei.aabb, &ej.aabb)
        {
            let (a, c) = (
                (ei.item & SLOT_MASK) as usize,
                (ej.item & SLOT_MASK) as usize,
            );
            out.push(pair_key(live[a], live[c]));
        }
    }

    /// True when some proxy lives below the base level.
    pub fn any_below(&self) -> bool {
        self.occupied & ((1 << BASE) - 1) != 0
    }

    /// True when some level above the level index `l` (other than the base) has residents.
    #[inline]
    pub fn any_above(&self, l: usize) -> bool {
        self.occupied & !(1 << BASE) & !((2u32 << l) - 1) != 0
    }

    /// Pairs of proxy `k` (box `b`, level index `l`) with the residents of the occupied levels
    /// above `l` other than the base, each found in the cell holding the minimum corner of the
    /// overlap of the two cell ranges at the resident's level.
    pub fn upper_pairs(&self, k: u32, l: usize, b: &Aabb, live: &[u32], out: &mut Vec<u64>) {
        let a = live[k as usize];
        let mut above = self.occupied & !(1 << BASE) & !((2u32 << l) - 1);
        while above != 0 {
            let i = above.trailing_zeros() as usize;
            above &= above - 1;
            let r = self.range(b, i);
            Self::cells(&r, |c, flags| {
                let key = Self::key(i, c);
                if !self.filter.may_hold(key) {
                    return;
                }
                let bucket = hash_bucket(key, self.hash_bits);
                let (s, e) = (
                    self.starts[bucket] as usize,
                    self.starts[bucket + 1] as usize,
                );
                for ent in &self.ents[s..e] {
                    let item = ent.item;
                    if ent.key == key && (flags | item >> FLAG_SHIFT) == 0b111 {
                        let o = (item & SLOT_MASK) as usize;
                        if overlaps(b, &ent.aabb) {
                            out.push(pair_key(a, live[o]));
                        }
                    }
                }
            });
        }
    }

    /// Checks the entries against the ones `others` (non-base proxies, indices into `boxes`)
    /// call for.
    pub fn validate(&self, others: &[u32], boxes: &[Aabb]) -> Result<(), String> {
        if others.len() != self.level.len() {
            return Err("grid levels: level list does not match the non-base proxies".into());
        }
        let mut expect: Vec<(u64, u32)> = Vec::new();
        for (j, &k) in others.iter().enumerate() {
            let b = &boxes[k as usize];
            let l = self.level_of(largest_side(b));
            if l == BASE || l != self.level[j] as usize {
                return Err(format!("grid levels: proxy {k} is at the wrong level"));
            }
            Self::cells(&self.range(b, l), |c, flags| {
                expect.push((Self::key(l, c), k | flags << FLAG_SHIFT))
            });
        }
        let mut got: Vec<(u64, u32)> = Vec::with_capacity(self.ents.len());
        for b in 0..self.buckets() {
            for e in self.starts[b] as usize..self.starts[b + 1] as usize {
                if hash_bucket(self.ents[e].key, self.hash_bits) != b {
                    return Err(format!("grid levels: entry {e} is in the wrong bucket"));
                }
                if !self.filter.may_hold(self.ents[e].key) {
                    return Err(format!("grid levels: entry {e} is not in the filter"));
                }
                got.push((self.ents[e].key, self.ents[e].item));
            }
        }
        expect.sort_unstable();
        got.sort_unstable();
        if expect != got {
            return Err("grid levels: the entries are not the cells of the proxies".into());
        }
        Ok(())
    }
}

/// A set of cell keys that may answer "maybe" for a key not in it, never "no" for a key in
/// it (a Bloom filter with one hash, [`FILTER_BITS_PER_ENTRY`] bits per key): small enough to
/// stay in the core's cache, it spares a lookup of an empty cell the misses of the table.
#[derive(Clone, Debug, Default)]
pub(super) struct CellFilter {
    words: Vec<u64>,
    bits: u32,
}

impl CellFilter {
    /// Sets the filter to the `n` keys `keys`.
    pub fn build(&mut self, n: usize, keys: impl Iterator<Item = u64>) {
        self.bits = (FILTER_BITS_PER_ENTRY * n.max(1))
            .next_power_of_two()
            .trailing_zeros()
            .max(12);
        self.words.clear();
        self.words.resize(1 << (self.bits - 6), 0);
        for key in keys {
            let f = self.bit(key);
            self.words[f >> 6] |= 1 << (f & 63);
        }
    }

    /// The filter bit of a key: the top bits of the product [`hash_bucket`] takes its bucket
    /// from (Fibonacci hashing), so that a lookup of the filter and then of the table
    /// multiplies once. The filter has more bits than the table has buckets, so its answer
    /// refines the bucket's: "maybe" when some key of the set shares these top bits.
    #[inline]
    fn bit(&self, key: u64) -> usize {
        hash_bucket(key, self.bits)
    }

    /// False when `key` is certainly not in the set.
    #[inline]
    pub fn may_hold(&self, key: u64) -> bool {
        let f = self.bit(key);
        self.words[f >> 6] >> (f & 63) & 1 != 0
    }
}
