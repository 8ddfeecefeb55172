//! Uniform grid / spatial hash, rebuilt from scratch by a counting sort whenever proxies moved.
//!
//! * Cells are cubes of side `cell_size`; a box covers the cells `floor(mins / c) ..=
//!   floor(maxs / c)` on each axis (Ericson RTCD §7.1). The cell function is monotone, so the
//!   scheme stays exact even where `f32` rounding or the clamp to ±2²⁰ cells merges cells.
//! * Each proxy is entered in every cell its box touches. A pair is reported only in the cell
//!   holding the minimum corner of the two boxes' overlap, i.e. the cell `max(loA, loB)` per
//!   axis; both boxes touch that cell, and it is unique, so every pair is reported exactly once
//!   without a global hash set. Each entry carries three flags "this cell is the proxy's first
//!   on axis d"; cell X equals `max(loA, loB)` on axis d iff A or B has the flag, so the test is
//!   `(flags_a | flags_b) == 0b111` — no memory access beyond the entries. A crowded cell (a
//!   settled pile puts dozens of boxes in one) has its entries grouped by flags first, and
//!   only groups whose flags cover the three axes are paired: most of its entry pairs would
//!   fail the test, and are then never looked at. A cell past [`CELL_RESERVE`] entry pairs
//!   (a pile in cells chosen too large) is swept along x instead (Terdiman's sweep and prune
//!   within the cell), so it costs a sort and its overlaps along x, not its entries squared.
//! * When the occupied cell range is small the cells are indexed densely (no collisions, and
//!   spatially coherent memory); otherwise (an unbounded world) cells are hashed into a
//!   power-of-two table and each entry keeps its packed cell key to reject collisions.
//! * Cell size: set by the user, or 1.5 times the median largest side of a sample of proxies
//!   (settled piles, `boxes` and `balls` 10k: fewest broad-phase instructions among factors
//!   0.8, 1, 1.25, 1.5 and 2 — smaller cells mean fewer entry pairs tested per pair found, at
//!   the price of more entries per proxy), or 2.5 times when the last rebuild's occupied cells
//!   held fewer than 6 entries on average (sparse scenes such as `gas`: fewer entries, and the
//!   extra tests are few).
//! * Cell coordinates count from the minimum corner of the occupied bounds of the last rebuild
//!   (not from the world origin), and the cell is never smaller than the bounds' largest side
//!   over 2¹⁹: far from the origin (3·10⁷ m, where an `f32` steps by 2 m) the cells stay as
//!   fine as near it.
//! * The table is the base level of a hierarchy (Mirtich 1996, "Efficient algorithms for
//!   two-phase collision detection", hierarchical spatial hash): it holds the proxies whose
//!   largest side is 1/1024 to 2 times the cell; larger and smaller ones (a ground plane, a
//!   building, specks of debris) go to levels of cells [`LEVEL_RATIO`] times larger or smaller
//!   per level, each proxy in at most 2×2×2 cells of its level, with pairs found within and
//!   across levels (see the `levels` module). A scene of similar sizes has no other level and
//!   pays nothing for them; no proxy is ever tested against every other.
//! * A rebuild keeps per proxy only a copy of its box and a 4-byte code (for a proxy at most
//!   two cells wide per axis, its first cell's bucket and which axes span two cells), from
//!   which the counting and the scatter expand its entries block by block in the core's
//!   cache: at a million proxies, storing every cell range and entry cost more in memory
//!   traffic than recomputing them. The dense layout is guessed from the last rebuild's
//!   occupied region, so the copies, codes and counts are one pass (redone when a proxy
//!   falls outside the guess or the guess is too large).
//! * Everything moving every frame is the common case in large scenes, so there is no
//!   incremental patching: a rebuild is O(n) with no allocation in steady state. Pair finding
//!   runs over chunks of cells in parallel (rayon) and the keys are sorted canonically, so the
//!   output does not depend on the thread count.
//! * Ray casts scan the proxies (a 3D-DDA cell walk would be the next step for long rays).

use crate::budget::Trim;
use crate::handle::Pair;
use crate::math::{Point, Real, Vector};
use crate::par::prelude::*;
use crate::proxies::{pair_key, pairs_of, ProxyStore, Ray, SortScratch};
use crate::{impl_proxy_bookkeeping, Aabb, BroadPhase, BroadPhaseError, ProxyHandle};
use std::sync::atomic::AtomicUsize;

pub use super::levels::LEVEL_RATIO;
use super::levels::{largest_side, CellFilter, Levels, BASE, REGIONS};

/// Cell coordinates are clamped to `[-CELL_LIMIT, CELL_LIMIT - 1]` (21 bits each in a key).
const CELL_LIMIT: i32 = 1 << 20;
/// The base cell is at least the occupied bounds' largest side over this.
const MIN_CELL_SPAN: Real = (1u32 << 19) as Real;
pub(super) const FLAG_SHIFT: u32 = 29;
pub(super) const SLOT_MASK: u32 = (1 << FLAG_SHIFT) - 1;
/// Cell side over the median proxy side (see the module docs). Measured with callgrind over
/// the broad stage of 205 steps, 1 thread: `boxes` 10k 7.59 G instructions at 2.0, 6.97 G at
/// 1.5; `balls` 10k 6.54 G at 2.0, 6.23 G at 1.5 (1.25 was no better for balls, and it brings
/// the mean cell occupancy of a falling pile close to [`SPARSE_OCCUPANCY`]).
const CELL_FACTOR: Real = 1.5;
/// The same when the last rebuild's occupied cells held fewer than [`SPARSE_OCCUPANCY`]
/// entries on average (a sparse scene such as `gas`, 5 % volume fraction: 2.5 measured about
/// 4 % less CPU time there than 2.0).
const SPARSE_CELL_FACTOR: Real = 2.5;
/// Mean entries per occupied cell below which the scene counts as sparse.
const SPARSE_OCCUPANCY: u64 = 6;
/// At most this many chunks of proxies in the counting sort.
const MAX_CHUNKS: usize = 64;
/// Buckets per parallel task of the counting sort's prefix sums.
const PREFIX_BLOCK: usize = 1 << 14;
/// Proxies per block of the rebuild's passes: a block's boxes, codes and entries stay in the
/// core's cache between the loops of a pass.
const BLOCK: usize = 1024;
/// Code of a proxy outside the base level (kept out of the table).
const CODE_OVER: u32 = 1 << 31;
/// Code of a proxy whose cells are walked from its box: hashed mode, or dense mode and wider
/// than two cells on some axis.
const CODE_WALK: u32 = 1 << 30;
/// Code of any other proxy (dense mode, at most two cells per axis): its first cell's bucket
/// in the low [`SPAN_SHIFT`] bits, and bit `SPAN_SHIFT + d` set when it spans two cells on
/// axis d.
const SPAN_SHIFT: u32 = 27;
/// The first-cell bits of a code.
const BASE_MASK: u32 = (1 << SPAN_SHIFT) - 1;
/// At most this many dense cells (so a bucket fits a code's first-cell bits).
const MAX_DENSE_CELLS: u64 = 1 << SPAN_SHIFT;
/// At least this many lookups of the levels are sorted by region (see [`Grid::order_queries`]):
/// with fewer, the levels' tables stay in the core's cache and the sort would not pay
/// (`scene_frames`, `mixed`: CPU time 5 % lower at 100 000 proxies, 4 % higher at 10 000).
const ORDER_QUERIES_MIN: usize = 1 << 15;
/// Fixed number of chunks the entries are split into to compute the next proxy order.
const ORDER_CHUNKS: usize = 16;
/// Cells with at least this many entries have them grouped by flags before pairing (below it
/// the plain all-pairs loop with the flag test costs less than the grouping).
const GROUP_MIN: usize = 8;
/// A cell with at most this many entry pairs to test (91 entries) makes room for their keys
/// in one check and pairs its groups of flags; a more crowded one (a pile in cells chosen too
/// large) is swept along x (see [`Grid::sweep_cell`]), checking room per row, which keeps
/// the key buffers near the pair budget's limit.
const CELL_RESERVE: usize = 1 << 12;
/// The pairs of distinct flag values `(fa, fb)`, `fa < fb`, with `fa | fb == 0b111`: the only
/// groups of a cell whose entries can form a pair reported there (besides `0b111` with itself).
const FLAG_PAIRS: [(usize, usize); 13] = [
    (0, 7),
    (1, 6),
    (1, 7),
    (2, 5),
    (2, 7),
    (3, 4),
    (3, 5),
    (3, 6),
    (3, 7),
    (4, 7),
    (5, 6),
    (5, 7),
    (6, 7),
];

/// How the cells of the last rebuild are indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridMode {
    /// A dense 3D array over the occupied cell range.
    Dense,
    /// A hash table of cells (used when the occupied range is too large for a dense array).
    Hashed,
}

/// Cell range of a box: `lo[d] ..= hi[d]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Range {
    pub lo: [i32; 3],
    pub hi: [i32; 3],
}

impl Range {
    fn cells(&self) -> u64 {
        (0..3)
            .map(|d| (self.hi[d] - self.lo[d]) as u64 + 1)
            .product()
    }
}

/// What a pass over the proxies learns: the cell bounds and the entry count of the proxies in
/// cells, whether some proxy is outside the base level, and whether some proxy fell outside a speculative
/// dense layout. Merging is associative and commutative, so it does not depend on the
/// chunking.
#[derive(Clone, Copy, Debug)]
struct Census {
    lo: [i32; 3],
    hi: [i32; 3],
    total: u64,
    any_big: bool,
    miss: bool,
    /// World-space bounds of every box (metres).
    wlo: [Real; 3],
    whi: [Real; 3],
}

impl Census {
    const EMPTY: Census = Census {
        lo: [i32::MAX; 3],
        hi: [i32::MIN; 3],
        total: 0,
        any_big: false,
        miss: false,
        wlo: [Real::INFINITY; 3],
        whi: [Real::NEG_INFINITY; 3],
    };

    fn merge(self, b: Census) -> Census {
        Census {
            lo: std::array::from_fn(|d| self.lo[d].min(b.lo[d])),
            hi: std::array::from_fn(|d| self.hi[d].max(b.hi[d])),
            total: self.total + b.total,
            any_big: self.any_big | b.any_big,
            miss: self.miss | b.miss,
            wlo: std::array::from_fn(|d| self.wlo[d].min(b.wlo[d])),
            whi: std::array::from_fn(|d| self.whi[d].max(b.whi[d])),
        }
    }

    /// Number of cells of the bounds (0 when no proxy is in cells).
    fn cells(&self) -> u64 {
        self.cells_grown_by(0)
    }

    /// Number of cells of the bounds grown by `g` cells on each side (0 when no proxy is in
    /// cells).
    fn cells_grown_by(&self, g: u64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        (0..3)
            .map(|d| (self.hi[d] - self.lo[d]) as u64 + 1 + 2 * g)
            .product()
    }
}

/// Uniform grid / spatial hash broad phase. See the module documentation.
///
/// Layout: the proxies are processed in a spatially coherent order (`live[k]` is the slot of
/// the k-th proxy; the order is the cell order of the previous rebuild), and their boxes are
/// copied into `boxes[k]`, so the counting sort writes and the per-cell tests read memory
/// nearly sequentially. Entries name proxies by `k`.
#[derive(Clone, Debug)]
pub struct Grid {
    store: ProxyStore,
    user_cell_size: Option<Real>,
    cell_size: Real,
    inv: Real,
    /// True when the table no longer matches the stored boxes.
    dirty: bool,
    /// True when the last rebuild's occupied cells held few entries (see
    /// [`SPARSE_CELL_FACTOR`]).
    sparse: bool,
    /// False when proxies were inserted or removed since `next_live` was computed.
    order_ok: bool,
    mode: GridMode,
    origin: [i32; 3],
    dims: [u64; 3],
    hash_bits: u32,
    /// `starts[b]..starts[b + 1]` are the entries of bucket `b`.
    starts: Vec<u32>,
    /// Entries sorted by bucket: proxy `k` in the low 29 bits; bit 29 + d set when this cell
    /// is the proxy's first on axis d.
    items: Vec<u32>,
    /// Hashed mode only: the packed cell key of each entry (to reject hash collisions).
    cell_keys: Vec<u64>,
    /// `k` of the proxies outside the base level, and those levels.
    others: Vec<u32>,
    levels: Levels,
    /// The proxies that look up the levels and their boxes, by region from
    /// [`ORDER_QUERIES_MIN`] of them (see [`Grid::order_queries`]), with the counting sort's
    /// buffers.
    queries: Vec<u32>,
    query_boxes: Vec<Aabb>,
    query_regions: Vec<u16>,
    sorted_queries: Vec<u32>,
    sorted_boxes: Vec<Aabb>,
    region_counts: Vec<u32>,
    /// Hashed mode with proxies below the base level: the occupied cells (their lookups in the
    /// table are mostly of empty cells).
    base_filter: CellFilter,
    /// Cell coordinates count from this point (metres): the minimum corner of the occupied
    /// bounds `bounds` of the last rebuild.
    origin_w: [Real; 3],
    bounds: Option<([Real; 3], [Real; 3])>,
    /// Per `k`: slot, box copy, code (`CODE_OVER`, `CODE_WALK` or first cell and spans).
    live: Vec<u32>,
    boxes: Vec<Aabb>,
    codes: Vec<u32>,
    /// World-space bounds (metres) of the cells occupied at the last rebuild, if it was
    /// dense: this rebuild's dense layout is first guessed from them (see [`Grid::rebuild`]).
    last_region: Option<([Real; 3], [Real; 3])>,
    /// The live slots in cell order, for the next rebuild.
    next_live: Vec<u32>,
    /// Per fixed chunk of the entries: the slots of the proxies whose first cell it holds.
    order_parts: Vec<Vec<u32>>,
    /// Per chunk of proxies: entry counts, then write cursors, per bucket; and (dense mode)
    /// a block's entries `bucket << 32 | entry`, in a buffer that keeps its largest length
    /// (so a warm rebuild never zero-fills it).
    chunks: Vec<(Vec<u32>, Vec<u64>)>,
    /// Per block of [`PREFIX_BLOCK`] buckets: its first entry position.
    block_runs: Vec<u32>,
    /// Sorted pair keys of the last rebuild (reused while nothing changes).
    keys: Vec<u64>,
    /// Per-task pair keys of the last search, and the sort's buffers (kept so that a warm
    /// frame allocates nothing).
    parts: Vec<Vec<u64>>,
    part_lens: Vec<usize>,
    sort: SortScratch,
}

impl Default for Grid {
    fn default() -> Self {
        Self::new()
    }
}

impl Grid {
    /// An empty grid whose cell size is chosen from the proxies' sizes at each rebuild.
    pub fn new() -> Self {
        Self {
            store: ProxyStore::default(),
            user_cell_size: None,
            cell_size: 1.0,
            inv: 1.0,
            dirty: true,
            sparse: false,
            order_ok: false,
            mode: GridMode::Dense,
            origin: [0; 3],
            dims: [0; 3],
            hash_bits: 0,
            starts: Vec::new(),
            items: Vec::new(),
            cell_keys: Vec::new(),
            others: Vec::new(),
            levels: Levels::default(),
            queries: Vec::new(),
            query_boxes: Vec::new(),
            sorted_queries: Vec::new(),
            sorted_boxes: Vec::new(),
            query_regions: Vec::new(),
            region_counts: Vec::new(),
            base_filter: CellFilter::default(),
            origin_w: [0.0; 3],
            bounds: None,
            live: Vec::new(),
            boxes: Vec::new(),
            codes: Vec::new(),
            last_region: None,
            next_live: Vec::new(),
            order_parts: Vec::new(),
            chunks: Vec::new(),
            block_runs: Vec::new(),
            keys: Vec::new(),
            parts: Vec::new(),
            part_lens: Vec::new(),
            sort: SortScratch::default(),
        }
    }

    /// An empty grid with a fixed cell side (metres, finite and positive).
    pub fn with_cell_size(cell_size: Real) -> Result<Self, BroadPhaseError> {
        let mut g = Self::new();
        g.set_cell_size(Some(cell_size))?;
        Ok(g)
    }

    /// Fixes the cell side (metres), or `None` to choose it from the proxies' sizes.
    pub fn set_cell_size(&mut self, cell_size: Option<Real>) -> Result<(), BroadPhaseError> {
        if let Some(c) = cell_size {
            if !(c.is_finite() && c > 0.0 && (1.0 / c).is_finite()) {
                return Err(BroadPhaseError::InvalidParameter("grid cell size"));
            }
        }
        self.user_cell_size = cell_size;
        self.dirty = true;
        Ok(())
    }

    /// The cell side (metres) of the last rebuild.
    pub fn cell_size(&self) -> Real {
        self.cell_size
    }

    /// How the cells of the last rebuild are indexed.
    pub fn mode(&self) -> GridMode {
        self.mode
    }

    /// Number of proxies outside the base level (in the levels of larger or smaller cells) at
    /// the last rebuild.
    pub fn off_base_count(&self) -> usize {
        self.others.len()
    }

    fn on_insert(&mut self, _slot: usize) {
        self.dirty = true;
        self.order_ok = false;
    }
    /// A removal invalidates what an insert does.
    fn on_remove(&mut self, slot: usize) {
        self.on_insert(slot);
    }
    fn on_moved(&mut self) {
        self.dirty = true;
    }

    /// The base cell: [`CELL_FACTOR`] (or [`SPARSE_CELL_FACTOR`]) times the median largest
    /// side of up to 1024 proxies sampled at a fixed stride; for point-like proxies, twice the
    /// mean spacing; 1 m if everything is one point. Also whether proxies much smaller than
    /// the cell go to levels below the base (not when the cell comes from the spacing of
    /// points: they all stay in the base level).
    fn choose_cell_size(&self) -> (Real, bool) {
        if let Some(c) = self.user_cell_size {
            return (c, true);
        }
        let n = self.live.len();
        if n == 0 {
            return (1.0, true);
        }
        let stride = n.div_ceil(1024);
        let sample = || {
            self.live
                .iter()
                .step_by(stride)
                .map(|&s| &self.store.aabbs[s as usize])
        };
        let mut sides: Vec<Real> = sample()
            .map(|b| {
                let e = b.maxs - b.mins;
                e.x.max(e.y).max(e.z)
            })
            .collect();
        let mid = sides.len() / 2;
        let (_, median, _) = sides.select_nth_unstable_by(mid, |a, b| a.total_cmp(b));
        let factor = if self.sparse {
            SPARSE_CELL_FACTOR
        } else {
            CELL_FACTOR
        };
        let mut c = factor * *median;
        let small_levels = c > 0.0 && c.is_finite();
        if !small_levels {
            // Points: about one proxy per cell over the sampled bounds.
            let bounds = sample().fold(
                *sample()
                    .next()
                    .unwrap_or(&Aabb::new_unchecked(Point::origin(), Point::origin())),
                |acc, b| acc.merged(b),
            );
            let e = bounds.maxs - bounds.mins;
            let vol = e.iter().filter(|&&x| x > 0.0).product::<Real>();
            c = 2.0 * (vol / n as Real).cbrt();
        }
        // The clamp to ±2²⁰ cells stays exact whatever the size; just keep 1/c finite.
        let c = if c.is_finite() && c > 1.0e-30 { c } else { 1.0 };
        (c, small_levels)
    }

    /// World-space bounds of the live proxies (metres; inverted when there is none).
    fn measure_bounds(&self) -> ([Real; 3], [Real; 3]) {
        let empty = ([Real::INFINITY; 3], [Real::NEG_INFINITY; 3]);
        let aabbs = &self.store.aabbs;
        let (lo, hi) = self
            .live
            .par_iter()
            .with_min_len(4096)
            .par_fold(
                || empty,
                |(lo, hi), &s| {
                    let b = &aabbs[s as usize];
                    (
                        std::array::from_fn(|d| lo[d].min(b.mins[d])),
                        std::array::from_fn(|d| hi[d].max(b.maxs[d])),
                    )
                },
            )
            .par_reduce(
                || empty,
                |a, b| {
                    (
                        std::array::from_fn(|d| a.0[d].min(b.0[d])),
                        std::array::from_fn(|d| a.1[d].max(b.1[d])),
                    )
                },
            );
        if lo[0] > hi[0] {
            ([0.0; 3], [0.0; 3])
        } else {
            (lo, hi)
        }
    }

    /// The cell coordinate of `x` on axis `d`.
    #[inline]
    fn cell_of(&self, x: Real, d: usize) -> i32 {
        cell_index(x - self.origin_w[d], self.inv, CELL_LIMIT)
    }

    #[inline]
    fn range_of(&self, b: &Aabb) -> Range {
        Range {
            lo: [
                self.cell_of(b.mins.x, 0),
                self.cell_of(b.mins.y, 1),
                self.cell_of(b.mins.z, 2),
            ],
            hi: [
                self.cell_of(b.maxs.x, 0),
                self.cell_of(b.maxs.y, 1),
                self.cell_of(b.maxs.z, 2),
            ],
        }
    }

    /// The (key, bucket) of a cell, or None for a cell outside the dense array.
    #[inline]
    fn locate(&self, c: [i32; 3]) -> Option<(u64, usize)> {
        match self.mode {
            GridMode::Dense => {
                let mut lin = 0u64;
                for ((&c, &o), &dim) in c.iter().zip(&self.origin).zip(&self.dims) {
                    let off = c as i64 - o as i64;
                    if off < 0 || off as u64 >= dim {
                        return None;
                    }
                    lin = lin * dim + off as u64;
                }
                Some((lin, lin as usize))
            }
            GridMode::Hashed => {
                let key = pack(c);
                Some((key, hash_bucket(key, self.hash_bits)))
            }
        }
    }

    /// Rebuilds the cell table from the stored boxes (counting sort).
    ///
    /// Per proxy in the order of the last rebuild, and over contiguous chunks of proxies in
    /// parallel, block by block: its box is copied (a gather: the slots are scattered, and
    /// alone in its loop many of its cache misses are in flight at once), its cells computed
    /// and summed up in a 4-byte code (for most proxies the first cell's bucket and which axes
    /// span two cells), and its entries counted per bucket. Counting needs the layout of the
    /// cells, which needs the bounds of every proxy's cells: it is guessed from the last
    /// rebuild's occupied region, one cell wider on each side, and kept if every proxy fell
    /// inside and it is at most twice as large as needed; otherwise (the first rebuild, or the
    /// proxies spread out) the codes and counts are redone with the right layout. The scatter
    /// expands the codes again; the cell ranges and entries of all proxies are never stored,
    /// so at a million proxies the rebuild moves far fewer bytes through memory.
    fn rebuild(&mut self) {
        if self.order_ok && self.next_live.len() == self.store.arena.len() {
            std::mem::swap(&mut self.live, &mut self.next_live);
        } else {
            self.live.clear();
            self.live.extend(self.store.arena.live_indices());
        }
        // Cells count from the last rebuild's occupied bounds (the first rebuild measures them).
        let (lo, hi) = match self.bounds {
            Some(b) => b,
            None => self.measure_bounds(),
        };
        let span = (0..3).map(|d| hi[d] - lo[d]).fold(0.0, Real::max);
        self.origin_w = if span.is_finite() { lo } else { [0.0; 3] };
        let span = if span.is_finite() { span } else { Real::MAX };
        let (c, small_levels) = self.choose_cell_size();
        self.cell_size = c.max(span / MIN_CELL_SPAN);
        self.inv = 1.0 / self.cell_size;
        self.levels
            .setup(self.cell_size, self.origin_w, span, small_levels);

        let n = self.live.len();
        let (mut boxes, mut codes) = (
            std::mem::take(&mut self.boxes),
            std::mem::take(&mut self.codes),
        );
        // Unchanged lengths make the resizes free.
        boxes.resize(n, Aabb::new_unchecked(Point::origin(), Point::origin()));
        codes.resize(n, 0);
        let t = crate::par::current_num_threads()
            .clamp(1, MAX_CHUNKS)
            .min(n / 8192 + 1);
        let bounds: [(usize, usize); MAX_CHUNKS] =
            std::array::from_fn(|i| ((i * n / t).min(n), ((i + 1) * n / t).min(n)));
        let bounds = &bounds[..t];
        let mut chunks = std::mem::take(&mut self.chunks);
        chunks.resize_with(t, Default::default);

        // Pass 1: copies, codes, census, and the counts when the guessed layout is dense.
        let guessed = self.guess_layout();
        let buckets = self.buckets();
        let census = {
            let mut bs: [&mut [Aabb]; MAX_CHUNKS] = std::array::from_fn(|_| Default::default());
            let mut cs: [&mut [u32]; MAX_CHUNKS] = std::array::from_fn(|_| Default::default());
            let (mut brest, mut crest) = (&mut boxes[..], &mut codes[..]);
            for ((b, c), &(k0, k1)) in bs.iter_mut().zip(cs.iter_mut()).zip(bounds) {
                (*b, brest) = std::mem::take(&mut brest).split_at_mut(k1 - k0);
                (*c, crest) = std::mem::take(&mut crest).split_at_mut(k1 - k0);
            }
            let (this, aabbs) = (&*self, &self.store.aabbs);
            chunks
                .par_iter_mut()
                .zip(bounds)
                .zip(bs.par_iter_mut())
                .zip(cs.par_iter_mut())
                .map(|((((count, e), &(k0, k1)), bs), cs)| {
                    if guessed {
                        count.clear();
                        count.resize(buckets, 0);
                    }
                    let mut acc = Census::EMPTY;
                    for b0 in (k0..k1).step_by(BLOCK) {
                        let b1 = (b0 + BLOCK).min(k1);
                        let (bb, cc) = (&mut bs[b0 - k0..b1 - k0], &mut cs[b0 - k0..b1 - k0]);
                        for (b, &s) in bb.iter_mut().zip(&this.live[b0..b1]) {
                            *b = aabbs[s as usize];
                        }
                        acc = acc.merge(this.code_block(bb, cc));
                        if guessed && !acc.miss {
                            let len = this.dense_entries(b0, bb, cc, e);
                            for &x in &e[..len] {
                                count[(x >> 32) as usize] += 1;
                            }
                        }
                    }
                    acc
                })
                .par_reduce(|| Census::EMPTY, Census::merge)
        };
        self.boxes = boxes;
        self.codes = codes;
        let total = census.total;
        self.bounds = (n > 0).then_some((census.wlo, census.whi));

        // The layout the census calls for: dense when the occupied range is not much larger
        // than the entry count.
        let cells = census.cells();
        let dense = total > 0 && cells <= (4 * total).clamp(1 << 12, MAX_DENSE_CELLS);
        // The guess is kept unless it is much larger than the guess the next rebuild will make
        // from these bounds (grown by one cell per side): a flat scene, one cell deep, is three
        // deep in its guess, and redoing pass 1 costs more than its empty buckets.
        let kept = guessed
            && !census.miss
            && dense
            && self.buckets() as u64 <= 2 * census.cells_grown_by(1).max(1 << 12);
        if !kept {
            if dense {
                self.mode = GridMode::Dense;
                self.origin = census.lo;
                for d in 0..3 {
                    self.dims[d] = (census.hi[d] - census.lo[d]) as u64 + 1;
                }
            } else {
                self.mode = GridMode::Hashed;
                // About one bucket per entry (a collision costs a key compare; half the
                // buckets of two per entry halve the prefix sums and the bucket walks:
                // callgrind, `mixed` 10 000, 2 % fewer instructions).
                self.hash_bits = total.max(1).next_power_of_two().trailing_zeros().max(4);
            }
            // Pass 1 again without the copies: codes for this layout (unless pass 1 ran
            // hashed and the layout stays hashed: a hashed code does not depend on the table
            // size), then the counts.
            if dense || guessed {
                let mut codes = std::mem::take(&mut self.codes);
                let this = &*self;
                codes
                    .par_chunks_mut(BLOCK)
                    .zip(this.boxes.par_chunks(BLOCK))
                    .for_each(|(cc, bb)| {
                        this.code_block(bb, cc);
                    });
                self.codes = codes;
            }
            let (this, buckets) = (&*self, self.buckets());
            chunks
                .par_iter_mut()
                .zip(bounds)
                .for_each(|((count, e), &(k0, k1))| {
                    count.clear();
                    count.resize(buckets, 0);
                    this.for_each_block(k0, k1, e, |_, b, _| count[b] += 1);
                });
        }
        self.last_region = None;
        if self.mode == GridMode::Dense {
            // Cells count from `origin_w`: back to world coordinates, which the next rebuild
            // turns into its own cells (its origin is this rebuild's bounds).
            let (c, o) = (self.cell_size, self.origin_w);
            self.last_region = Some((
                std::array::from_fn(|d| o[d] + census.lo[d] as Real * c),
                std::array::from_fn(|d| o[d] + (census.hi[d] as Real + 1.0) * c),
            ));
        }
        self.others.clear();
        if census.any_big {
            self.others.extend(
                self.codes
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| c == CODE_OVER)
                    .map(|(k, _)| k as u32),
            );
        }
        self.levels.build(&self.others, &self.boxes, total > 0);
        self.order_queries();
        let buckets = self.buckets();
        let hashed = self.mode == GridMode::Hashed;

        // Prefix sums: bucket starts, and each chunk's first position in each bucket. Over
        // fixed blocks of buckets in parallel: each block's entry count, their (few) prefix
        // sums, then each block's own running sum from its offset.
        let blocks = buckets.div_ceil(PREFIX_BLOCK).max(1);
        let mut block_runs = std::mem::take(&mut self.block_runs);
        (0..blocks)
            .into_par_iter()
            .map(|k| {
                let r = k * PREFIX_BLOCK..((k + 1) * PREFIX_BLOCK).min(buckets);
                chunks
                    .iter()
                    .map(|(c, _)| c[r.clone()].iter().sum::<u32>())
                    .sum::<u32>()
            })
            .collect_into_vec(&mut block_runs);
        let mut run = 0u32;
        for r in block_runs.iter_mut() {
            let k = *r;
            *r = run;
            run += k;
        }
        let mut starts = std::mem::take(&mut self.starts);
        starts.resize(buckets + 1, 0);
        starts[buckets] = run;
        let mut lists: [&mut [u32]; MAX_CHUNKS] = std::array::from_fn(|_| Default::default());
        for (l, (c, _)) in lists.iter_mut().zip(chunks.iter_mut()) {
            *l = &mut c[..buckets];
        }
        let occupied = prefix_blocks(
            &block_runs,
            0,
            blocks,
            &mut starts[..buckets],
            &mut lists[..t],
        );
        self.block_runs = block_runs;
        self.sparse = total < SPARSE_OCCUPANCY * occupied;
        // Every position is written below: resizing only sets the length.
        let mut items = std::mem::take(&mut self.items);
        items.resize(total as usize, 0);
        let mut cell_keys = std::mem::take(&mut self.cell_keys);
        cell_keys.resize(if hashed { total as usize } else { 0 }, 0);
        let out = Scatter {
            items: items.as_mut_ptr(),
            keys: cell_keys.as_mut_ptr(),
            len: items.len(),
        };
        // Within a bucket the entries end up in ascending `k` whatever the chunking, so the
        // table does not depend on the thread count.
        let this = &*self;
        chunks
            .par_iter_mut()
            .zip(bounds)
            .for_each(|((cursor, e), &(k0, k1))| {
                this.for_each_block(k0, k1, e, |key, b, item| {
                    let p = cursor[b] as usize;
                    cursor[b] += 1;
                    // SAFETY: chunk `c` writes only positions `offset[c][b] .. offset[c][b] +
                    // count[c][b]` of bucket `b`; these ranges are disjoint across chunks and
                    // buckets by construction of the prefix sums, so no two threads write the
                    // same element, and nothing reads the buffers until the scatter is done.
                    unsafe { out.write(p, item, hashed.then_some(key)) };
                });
            });
        self.chunks = chunks;
        if hashed && self.levels.any_below() {
            self.base_filter
                .build(cell_keys.len(), cell_keys.iter().copied());
        }
        self.cell_keys = cell_keys;

        // Next frame's order: proxies by first cell, then those outside the base level.
        // Fixed chunks of the entries, each filtered into its own kept buffer, then
        // concatenated in order (no allocation in steady state).
        let live = &self.live;
        let per = items.len().div_ceil(ORDER_CHUNKS).max(1);
        let mut order_parts = std::mem::take(&mut self.order_parts);
        order_parts.resize_with(ORDER_CHUNKS, Vec::new);
        order_parts
            .par_iter_mut()
            .zip(items.par_chunks(per))
            .for_each(|(part, chunk)| {
                part.clear();
                part.extend(
                    chunk
                        .iter()
                        .filter(|&&it| it >> FLAG_SHIFT == 0b111)
                        .map(|&it| live[(it & SLOT_MASK) as usize]),
                );
            });
        // Concatenated in parallel: each part copied to its own slice of the output.
        let parts = &order_parts[..items.len().div_ceil(per)];
        let in_cells: usize = parts.iter().map(Vec::len).sum();
        self.next_live.resize(in_cells, 0);
        let mut outs: [&mut [u32]; ORDER_CHUNKS] = std::array::from_fn(|_| Default::default());
        let mut rest = &mut self.next_live[..];
        for (o, part) in outs.iter_mut().zip(parts) {
            (*o, rest) = std::mem::take(&mut rest).split_at_mut(part.len());
        }
        outs.par_iter_mut()
            .zip(parts)
            .for_each(|(o, part)| o.copy_from_slice(part));
        self.next_live
            .extend(self.others.iter().map(|&k| self.live[k as usize]));
        self.order_parts = order_parts;
        self.order_ok = true;
        self.starts = starts;
        self.items = items;
        self.dirty = false;
    }

    /// Lists the proxies that look up the levels (the base proxies when a level above the
    /// base is occupied, and every proxy outside the base) with copies of their boxes, and
    /// from [`ORDER_QUERIES_MIN`] of them orders them by region (a counting sort): the
    /// lookups of one region then find the cells of the levels above, and their entries, in
    /// the core's cache. In `queries`, `k < live.len()` is base proxy `k` and
    /// `live.len() + j` the non-base proxy `others[j]`.
    fn order_queries(&mut self) {
        let (mut queries, mut query_boxes) = (
            std::mem::take(&mut self.queries),
            std::mem::take(&mut self.query_boxes),
        );
        queries.clear();
        query_boxes.clear();
        if !self.levels.is_empty() {
            let n = self.live.len() as u32;
            let base_queries = self.levels.any_above(BASE);
            let (codes, boxes, others) = (&self.codes, &self.boxes, &self.others);
            // Every query with its box, in `k` order.
            if base_queries {
                for (k, (&code, b)) in codes.iter().zip(boxes).enumerate() {
                    if code != CODE_OVER {
                        queries.push(k as u32);
                        query_boxes.push(*b);
                    }
                }
            }
            for (j, &k) in others.iter().enumerate() {
                queries.push(n + j as u32);
                query_boxes.push(boxes[k as usize]);
            }
            if queries.len() >= ORDER_QUERIES_MIN {
                self.sort_queries(&mut queries, &mut query_boxes);
            }
        }
        self.queries = queries;
        self.query_boxes = query_boxes;
    }

    /// Sorts the queries and their boxes by region (a stable counting sort).
    fn sort_queries(&mut self, queries: &mut Vec<u32>, query_boxes: &mut Vec<Aabb>) {
        let levels = &self.levels;
        let counts = &mut self.region_counts;
        counts.clear();
        counts.resize(REGIONS + 1, 0);
        let mut regions = std::mem::take(&mut self.query_regions);
        regions.clear();
        regions.extend(query_boxes.iter().map(|b| levels.region(b) as u16));
        for &r in &regions {
            counts[r as usize + 1] += 1;
        }
        for r in 0..REGIONS {
            counts[r + 1] += counts[r];
        }
        let (mut to_q, mut to_b) = (
            std::mem::take(&mut self.sorted_queries),
            std::mem::take(&mut self.sorted_boxes),
        );
        to_q.resize(queries.len(), 0);
        to_b.resize(
            queries.len(),
            Aabb::new_unchecked(Point::origin(), Point::origin()),
        );
        for ((&r, &q), b) in regions.iter().zip(queries.iter()).zip(query_boxes.iter()) {
            let p = counts[r as usize] as usize;
            counts[r as usize] += 1;
            to_q[p] = q;
            to_b[p] = *b;
        }
        std::mem::swap(queries, &mut to_q);
        std::mem::swap(query_boxes, &mut to_b);
        self.sorted_queries = to_q;
        self.sorted_boxes = to_b;
        self.query_regions = regions;
    }

    /// Number of buckets of the current layout.
    fn buckets(&self) -> usize {
        match self.mode {
            GridMode::Dense => self.dims.iter().product::<u64>() as usize,
            GridMode::Hashed => 1 << self.hash_bits,
        }
    }

    /// Sets a dense layout over the last rebuild's occupied region, grown by one cell on each
    /// side, in this rebuild's cells; returns whether there was one (else the layout is
    /// hashed, standing for "unknown": pass 1 then only computes codes and the census).
    fn guess_layout(&mut self) -> bool {
        if let Some((lo, hi)) = self.last_region {
            let c = self.cell_size;
            let lo: [i32; 3] = std::array::from_fn(|d| self.cell_of(lo[d] - c, d));
            let hi: [i32; 3] = std::array::from_fn(|d| self.cell_of(hi[d], d));
            let dims: [u64; 3] = std::array::from_fn(|d| (hi[d] - lo[d]) as u64 + 1);
            if dims.iter().product::<u64>() <= MAX_DENSE_CELLS {
                self.mode = GridMode::Dense;
                self.origin = lo;
                self.dims = dims;
                return true;
            }
        }
        self.mode = GridMode::Hashed;
        self.hash_bits = 4;
        false
    }

    /// Computes the codes of a block of proxies (`boxes`, box copies of consecutive `k`)
    /// under the current layout, and their census (in a dense layout, a proxy outside it is a
    /// miss and its code is meaningless).
    fn code_block(&self, boxes: &[Aabb], codes: &mut [u32]) -> Census {
        debug_assert!(boxes.len() <= BLOCK && codes.len() == boxes.len());
        // The cell ranges first, in a loop of their own (it vectorises), into the core's cache.
        let mut ranges = [Range::default(); BLOCK];
        let ranges = &mut ranges[..boxes.len()];
        for (r, b) in ranges.iter_mut().zip(boxes) {
            *r = self.range_of(b);
        }
        let mut acc = Census::EMPTY;
        // Compare-and-select (`minss`/`maxss`): the boxes are finite, so `Real::min`'s NaN
        // handling would only cost instructions.
        for b in boxes {
            for d in 0..3 {
                if b.mins[d] < acc.wlo[d] {
                    acc.wlo[d] = b.mins[d];
                }
                if b.maxs[d] > acc.whi[d] {
                    acc.whi[d] = b.maxs[d];
                }
            }
        }
        let dense = self.mode == GridMode::Dense;
        let [ox, oy, oz] = self.origin.map(|v| v as i64);
        let (dy, dz) = (self.dims[1] as i64, self.dims[2] as i64);
        for ((code, r), b) in codes.iter_mut().zip(ranges.iter()).zip(boxes) {
            if !self.levels.is_base(largest_side(b)) {
                *code = CODE_OVER;
                acc.any_big = true;
                continue;
            }
            acc.total += r.cells();
            for d in 0..3 {
                acc.lo[d] = acc.lo[d].min(r.lo[d]);
                acc.hi[d] = acc.hi[d].max(r.hi[d]);
            }
            let span = [0, 1, 2].map(|d| (r.hi[d] - r.lo[d]) as u32);
            let base =
                ((r.lo[0] as i64 - ox) * dy + r.lo[1] as i64 - oy) * dz + r.lo[2] as i64 - oz;
            // Truncated when outside the layout (a miss): the code is then not used.
            let packed =
                base as u32 & BASE_MASK | (span[0] | span[1] << 1 | span[2] << 2) << SPAN_SHIFT;
            *code = if dense & ((span[0] | span[1] | span[2]) <= 1) {
                packed
            } else {
                CODE_WALK
            };
        }
        if dense {
            let inside = (0..3).all(|d| {
                acc.lo[d] >= self.origin[d]
                    && (acc.hi[d] as i64) < self.origin[d] as i64 + self.dims[d] as i64
            });
            acc.miss = acc.total > 0 && !inside;
        }
        acc
    }

    /// Calls `f(key, bucket, item)` for every cell of every base-level proxy `k0..k1`, in
    /// blocks (dense mode: through [`dense_entries`](Self::dense_entries) into the buffer `e`).
    #[inline]
    fn for_each_block(
        &self,
        k0: usize,
        k1: usize,
        e: &mut Vec<u64>,
        mut f: impl FnMut(u64, usize, u32),
    ) {
        match self.mode {
            GridMode::Dense => {
                for b0 in (k0..k1).step_by(BLOCK) {
                    let b1 = (b0 + BLOCK).min(k1);
                    let len = self.dense_entries(b0, &self.boxes[b0..b1], &self.codes[b0..b1], e);
                    for &x in &e[..len] {
                        f(x >> 32, (x >> 32) as usize, x as u32);
                    }
                }
            }
            GridMode::Hashed => self.for_each_entry(k0, k1, f),
        }
    }

    /// Calls `f(key, bucket, item)` for every cell of every base-level proxy `k0..k1`.
    #[inline]
    fn for_each_entry(&self, k0: usize, k1: usize, mut f: impl FnMut(u64, usize, u32)) {
        for k in k0..k1 {
            if self.codes[k] != CODE_OVER {
                self.walk(&self.range_of(&self.boxes[k]), k as u32, &mut f);
            }
        }
    }

    /// Calls `f(key, bucket, item)` for every cell of the range `r` of proxy `k`.
    #[inline]
    fn walk(&self, r: &Range, k: u32, mut f: impl FnMut(u64, usize, u32)) {
        let flags = |x: i32, y: i32, z: i32| {
            ((x == r.lo[0]) as u32 | ((y == r.lo[1]) as u32) << 1 | ((z == r.lo[2]) as u32) << 2)
                << FLAG_SHIFT
        };
        // Exclusive ranges (`hi + 1` cannot overflow: `hi < 2²⁰`) iterate faster than
        // inclusive ones.
        match self.mode {
            GridMode::Dense => {
                // Linear index ((x - ox)·dy + (y - oy))·dz + (z - oz), built axis by axis.
                let [ox, oy, oz] = self.origin.map(|v| v as i64);
                let (dy, dz) = (self.dims[1] as i64, self.dims[2] as i64);
                for x in r.lo[0]..r.hi[0] + 1 {
                    let bx = (x as i64 - ox) * dy;
                    for y in r.lo[1]..r.hi[1] + 1 {
                        let bxy = (bx + y as i64 - oy) * dz;
                        for z in r.lo[2]..r.hi[2] + 1 {
                            let lin = (bxy + z as i64 - oz) as usize;
                            f(lin as u64, lin, k | flags(x, y, z));
                        }
                    }
                }
            }
            GridMode::Hashed => {
                for x in r.lo[0]..r.hi[0] + 1 {
                    for y in r.lo[1]..r.hi[1] + 1 {
                        for z in r.lo[2]..r.hi[2] + 1 {
                            let key = pack([x, y, z]);
                            f(key, hash_bucket(key, self.hash_bits), k | flags(x, y, z));
                        }
                    }
                }
            }
        }
    }

    /// Dense mode: writes the entries of the proxies `k0..k0 + codes.len()` (their box copies
    /// `boxes` and codes `codes`; proxies outside the base level have none) to the start of `out` as
    /// `bucket << 32 | entry`, in ascending `k` (the entries of
    /// [`for_each_entry`](Self::for_each_entry)); returns how many. `out` is a buffer: it only
    /// grows, and values past the returned count are garbage.
    ///
    /// A proxy no wider than two cells on every axis (all of them when the cell is at least
    /// the proxy size, the usual case) takes the branch-free path: its 8 corner cells are
    /// always written, to a window of 8 values past the kept entries, and the write position
    /// advances only for the corners inside its range. The nested loops of one or two trips
    /// each cost a mispredicted branch per proxy and axis.
    fn dense_entries(&self, k0: usize, boxes: &[Aabb], codes: &[u32], out: &mut Vec<u64>) -> usize {
        let (dy, dz) = (self.dims[1] as i64, self.dims[2] as i64);
        // Corner `c`'s entry is `(first cell's bucket) << 32 | k` plus `corner[c]`: its bucket
        // offset from the first cell (+1 cell on x, y, z for bits 0, 1, 2) in the high half,
        // its flags in bits 29..32 (flag d: first cell on axis d, i.e. offset 0 on that axis).
        // `k < 2²⁹` and the flags do not overlap, so the sum is the bitwise or.
        let corner: [u64; 8] = std::array::from_fn(|c| {
            let off = ((c & 1) as i64 * dy + (c >> 1 & 1) as i64) * dz + (c >> 2) as i64;
            (off as u64) << 32 | ((!c as u64 & 0b111) << FLAG_SHIFT)
        });
        // Bit c of `INSIDE[spans]`: corner `c` is inside a range whose axes of two cells are
        // the bits of `spans` (it steps only along those axes).
        const INSIDE: [u32; 8] = {
            let mut t = [0u32; 8];
            let mut spans = 0;
            while spans < 8 {
                let mut c = 0;
                while c < 8 {
                    if c & !spans == 0 {
                        t[spans] |= 1 << c;
                    }
                    c += 1;
                }
                spans += 1;
            }
            t
        };
        let mut len = 0;
        for (i, (&code, b)) in codes.iter().zip(boxes).enumerate() {
            let k = (k0 + i) as u32;
            if code >= CODE_WALK {
                if code == CODE_WALK {
                    self.walk(&self.range_of(b), k, |_, b, item| {
                        if out.len() <= len {
                            out.resize((len + 1).max(2 * out.len()), 0);
                        }
                        out[len] = (b as u64) << 32 | item as u64;
                        len += 1;
                    });
                }
                continue;
            }
            if out.len() < len + 8 {
                out.resize((len + 8).max(2 * out.len()), 0);
            }
            let inside = INSIDE[(code >> SPAN_SHIFT) as usize];
            let first = ((code & BASE_MASK) as u64) << 32 | k as u64;
            let window: &mut [u64; 8] = (&mut out[len..len + 8]).try_into().expect("8 values");
            let mut w = 0usize;
            for (c, &add) in corner.iter().enumerate() {
                // A corner outside the range yields an unused (possibly out-of-array) bucket:
                // it is overwritten or lies past the kept entries.
                window[w & 7] = first + add;
                w += (inside >> c & 1) as usize;
            }
            len += w;
        }
        len
    }

    /// The cell key of entry `i` of bucket `b`.
    #[inline]
    fn key_at(&self, i: usize, b: usize) -> u64 {
        match self.mode {
            GridMode::Dense => b as u64,
            GridMode::Hashed => self.cell_keys[i],
        }
    }

    /// Writes the pair keys of the cells in buckets `b0..b1` to the start of `out` (used as a
    /// buffer, see [`KeySink`]); returns how many.
    fn cell_pairs(&self, b0: usize, b1: usize, trim: &Trim, out: &mut Vec<u64>) -> usize {
        match self.mode {
            GridMode::Dense => self.dense_cell_pairs(b0, b1, trim, out),
            GridMode::Hashed => self.hashed_cell_pairs(b0, b1, trim, out),
        }
    }

    /// The buckets among `b0..b1` holding two entries or more (the only ones that can give a
    /// pair), each as its first index into `items` and its entries.
    #[inline(always)]
    fn shared_buckets(&self, b0: usize, b1: usize) -> impl Iterator<Item = (usize, &[u32])> {
        (b0..b1).filter_map(move |b| {
            let (s, e) = (self.starts[b] as usize, self.starts[b + 1] as usize);
            (e - s >= 2).then(|| (s, &self.items[s..e]))
        })
    }

    /// Dense mode: a bucket is one cell. A pair is reported only where `(fa | fb) == 0b111`;
    /// in a crowded cell (a settled pile puts dozens of proxies in one) most entry pairs fail
    /// that test, so the entries of a cell of at least [`GROUP_MIN`] are first grouped by
    /// their flags and only the groups in [`FLAG_PAIRS`] (and group `0b111` with itself) are
    /// paired: the failing pairs are never looked at.
    fn dense_cell_pairs(&self, b0: usize, b1: usize, trim: &Trim, out: &mut Vec<u64>) -> usize {
        let mut grouped: Vec<u32> = Vec::new();
        let mut sink = KeySink::new(out, trim);
        for (_, cell) in self.shared_buckets(b0, b1) {
            if cell.len() < GROUP_MIN {
                // The flag test is folded into the kept bit too: it fails for about a third
                // of the entry pairs, again unpredictably.
                // At most GROUP_MIN²/2 keys: room for all of them in one check.
                sink.reserve(cell.len() * (cell.len() - 1) / 2);
                for (i, &ii) in cell.iter().enumerate() {
                    let fi = ii >> FLAG_SHIFT;
                    let ki = (ii & SLOT_MASK) as usize;
                    for &ij in &cell[i + 1..] {
                        let kj = (ij & SLOT_MASK) as usize;
                        let keep = ((fi | ij >> FLAG_SHIFT) == 0b111)
                            & overlaps(&self.boxes[ki], &self.boxes[kj]);
                        sink.push_if(pair_key(self.live[ki], self.live[kj]), keep);
                    }
                }
                continue;
            }
            // Counting sort of the cell's entries by flags: group f is `at[f]..at[f + 1]`.
            let mut at = [0usize; 9];
            for &it in cell {
                at[(it >> FLAG_SHIFT) as usize + 1] += 1;
            }
            for f in 0..8 {
                at[f + 1] += at[f];
            }
            grouped.clear();
            grouped.resize(cell.len(), 0);
            let mut cursor = at;
            for &it in cell {
                let f = (it >> FLAG_SHIFT) as usize;
                grouped[cursor[f]] = it & SLOT_MASK;
                cursor[f] += 1;
            }
            // Room for all the cell's tests in one check (at most CELL_RESERVE); a more
            // crowded cell is swept instead, with a check per row, so that the buffer passes
            // the pair budget's limit by a row at most.
            if cell.len() * (cell.len() - 1) / 2 <= CELL_RESERVE {
                sink.reserve(cell.len() * (cell.len() - 1) / 2);
                self.group_pairs(&Groups { at, keys: &grouped }, &mut sink);
            } else {
                // The sink is passed by parts: a reference to it escaping into an out-of-line
                // call keeps its count out of registers in every loop here.
                sink.len = self.sweep_cell(cell, sink.buf, sink.len, sink.trim);
            }
        }
        sink.len
    }

    /// The pairs of a very crowded cell (over [`CELL_RESERVE`] entry pairs: a pile in cells
    /// chosen too large), swept along x (Terdiman's sweep and prune within the cell): its
    /// entries sorted by `mins.x`, each tested only against those that start before it ends,
    /// so the cell costs about its entries' sort and its overlaps along x, not the square of
    /// its entries.
    // Cold and out of line: inlined, it slows the loops of the common cells.
    #[cold]
    #[inline(never)]
    fn sweep_cell(&self, cell: &[u32], buf: &mut Vec<u64>, len: usize, trim: &Trim) -> usize {
        let mut sink = KeySink::new(buf, trim);
        sink.len = len;
        let mut swept: Vec<(Real, u32)> = cell
            .iter()
            .map(|&it| (self.boxes[(it & SLOT_MASK) as usize].mins.x, it))
            .collect();
        swept.sort_unstable_by(|p, q| p.0.total_cmp(&q.0));
        for (p, &(_, ii)) in swept.iter().enumerate() {
            let (fi, ki) = (ii >> FLAG_SHIFT, (ii & SLOT_MASK) as usize);
            let max_x = self.boxes[ki].maxs.x;
            let rest = &swept[p + 1..];
            let row = &rest[..rest.partition_point(|q| q.0 <= max_x)];
            sink.reserve(row.len());
            for &(_, ij) in row {
                let kj = (ij & SLOT_MASK) as usize;
                let keep =
                    ((fi | ij >> FLAG_SHIFT) == 0b111) & overlaps(&self.boxes[ki], &self.boxes[kj]);
                sink.push_if(pair_key(self.live[ki], self.live[kj]), keep);
            }
        }
        sink.len
    }

    /// The pairs of a crowded cell's groups (see [`dense_cell_pairs`](Self::dense_cell_pairs)):
    /// group `0b111` with itself and the groups of [`FLAG_PAIRS`]. The caller made room in
    /// `sink` for all of them.
    #[inline(always)]
    fn group_pairs(&self, groups: &Groups, sink: &mut KeySink) {
        let all = groups.get(0b111);
        for (i, &ki) in all.iter().enumerate() {
            for &kj in &all[i + 1..] {
                self.test_pair(ki as usize, kj as usize, sink);
            }
        }
        for &(fa, fb) in &FLAG_PAIRS {
            let gb = groups.get(fb);
            for &ki in groups.get(fa) {
                for &kj in gb {
                    self.test_pair(ki as usize, kj as usize, sink);
                }
            }
        }
    }

    /// Hashed mode: a bucket may hold entries of several cells (a collision), told apart by
    /// their cell keys.
    fn hashed_cell_pairs(&self, b0: usize, b1: usize, trim: &Trim, out: &mut Vec<u64>) -> usize {
        let mut sink = KeySink::new(out, trim);
        for (s, cell) in self.shared_buckets(b0, b1) {
            for (i, &ii) in cell.iter().enumerate() {
                sink.reserve(cell.len() - i - 1);
                let fi = ii >> FLAG_SHIFT;
                let ki = (ii & SLOT_MASK) as usize;
                for (j, &ij) in cell.iter().enumerate().skip(i + 1) {
                    if (fi | ij >> FLAG_SHIFT) == 0b111
                        && self.cell_keys[s + i] == self.cell_keys[s + j]
                    {
                        self.test_pair(ki, (ij & SLOT_MASK) as usize, &mut sink);
                    }
                }
            }
        }
        sink.len
    }

    /// Appends the pair key of proxies `ki` and `kj` (indices into `live`) if their boxes
    /// overlap (no branch on the outcome: see [`KeySink`]).
    #[inline(always)]
    fn test_pair(&self, ki: usize, kj: usize, sink: &mut KeySink) {
        let hit = overlaps(&self.boxes[ki], &self.boxes[kj]);
        sink.push_if(pair_key(self.live[ki], self.live[kj]), hit);
    }

    /// The pair keys involving the proxies outside the base level, per task: within each
    /// other level, every proxy with the residents of the other levels above its own, and
    /// proxies of the levels below the base with the base proxies (each looking its base cells
    /// up in the table).
    fn level_pairs(&self, trim: &Trim) -> Vec<Vec<u64>> {
        const GRAIN: usize = 4096;
        let levels = &self.levels;
        let live = &self.live;
        let buckets = levels.buckets();
        let per = buckets.div_ceil(16).max(GRAIN);
        let n = live.len();
        let queries = &self.queries;
        let tasks = (buckets.div_ceil(per), queries.len().div_ceil(GRAIN));
        (0..tasks.0 + tasks.1)
            .into_par_iter()
            .map(|t| {
                let mut v = Vec::new();
                if t < tasks.0 {
                    let b0 = t * per;
                    levels.cell_pairs(b0, (b0 + per).min(buckets), live, trim, &mut v);
                } else {
                    let q0 = (t - tasks.0) * GRAIN;
                    let q1 = (q0 + GRAIN).min(queries.len());
                    for (&q, b) in queries[q0..q1].iter().zip(&self.query_boxes[q0..q1]) {
                        let q = q as usize;
                        if q < n {
                            levels.upper_pairs(q as u32, BASE, b, live, &mut v);
                        } else {
                            let j = q - n;
                            let (k, l) = (self.others[j], levels.level(j));
                            if levels.any_above(l) {
                                levels.upper_pairs(k, l, b, live, &mut v);
                            }
                            if l < BASE {
                                self.below_pairs(k as usize, b, &mut v);
                            }
                        }
                        trim.trim(&mut v);
                    }
                }
                v
            })
            .collect()
    }

    /// Pair keys of proxy `k` (box `b`), of a level below the base, with the base proxies: looked up in
    /// the base cells of its box.
    fn below_pairs(&self, k: usize, b: &Aabb, out: &mut Vec<u64>) {
        let r = self.range_of(b);
        let (a, hashed) = (self.live[k], self.mode == GridMode::Hashed);
        for x in r.lo[0]..r.hi[0] + 1 {
            for y in r.lo[1]..r.hi[1] + 1 {
                for z in r.lo[2]..r.hi[2] + 1 {
                    let c = [x, y, z];
                    // In hashed mode most of these cells are empty: the filter answers
                    // without the table.
                    if hashed && !self.base_filter.may_hold(pack(c)) {
                        continue;
                    }
                    let Some((key, bucket)) = self.locate(c) else {
                        continue;
                    };
                    let mine = (x == r.lo[0]) as u32
                        | ((y == r.lo[1]) as u32) << 1
                        | ((z == r.lo[2]) as u32) << 2;
                    let (s, e) = (
                        self.starts[bucket] as usize,
                        self.starts[bucket + 1] as usize,
                    );
                    for i in s..e {
                        let item = self.items[i];
                        if self.key_at(i, bucket) == key && (mine | item >> FLAG_SHIFT) == 0b111 {
                            let o = (item & SLOT_MASK) as usize;
                            if overlaps(b, &self.boxes[o]) {
                                out.push(pair_key(a, self.live[o]));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The pair keys of the table, sorted into `keys`, and their pairs into `out`.
    fn find_pair_keys(&mut self, out: &mut Vec<Pair>) {
        let buckets = self.starts.len().saturating_sub(1);
        let chunks = if self.items.len() < 4096 { 1 } else { 64 };
        let per = buckets.div_ceil(chunks).max(1);
        // Each chunk's buffer keeps its length (its largest output so far) from frame to
        // frame, so the branch-free writes need no zero-filling in steady state; `lens` holds
        // how many keys of each buffer this frame kept.
        let dropped = AtomicUsize::new(0);
        let trim = self.store.budget.start(&dropped);
        let mut parts = std::mem::take(&mut self.parts);
        parts.resize_with(chunks, Vec::new);
        let mut lens = std::mem::take(&mut self.part_lens);
        parts
            .par_iter_mut()
            .enumerate()
            .map(|(c, v)| {
                let (b0, b1) = ((c * per).min(buckets), ((c + 1) * per).min(buckets));
                self.cell_pairs(b0, b1, &trim, v)
            })
            .collect_into_vec(&mut lens);
        if !self.levels.is_empty() {
            let sub = self.level_pairs(&trim);
            lens.extend(sub.iter().map(Vec::len));
            parts.extend(sub);
        }
        // Sorted straight from the per-task buffers (no concatenation first).
        self.sort.sort(
            parts.len(),
            |i| &parts[i][..lens[i]],
            &self.store.arena,
            &mut self.keys,
            out,
        );
        self.store
            .budget
            .finish(Some(dropped.into_inner()), &mut self.keys, out);
        parts.truncate(chunks);
        self.parts = parts;
        self.part_lens = lens;
    }

    /// Visits the table entries of every cell of `r` (which must be a few cells), calling
    /// `f(entry, cell)`.
    fn visit_cells(&self, r: &Range, mut f: impl FnMut(u32, [i32; 3])) {
        for x in r.lo[0]..=r.hi[0] {
            for y in r.lo[1]..=r.hi[1] {
                for z in r.lo[2]..=r.hi[2] {
                    let c = [x, y, z];
                    if let Some((key, b)) = self.locate(c) {
                        let (s, e) = (self.starts[b] as usize, self.starts[b + 1] as usize);
                        for i in s..e {
                            if self.key_at(i, b) == key {
                                f(self.items[i], c);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Adds to `ks` (indices into `live`) the proxies outside the base level whose box passes
    /// `hit` (by a scan), and writes the handles of them all to `out`, sorted by slot index.
    fn finish_query(
        &self,
        mut ks: Vec<u32>,
        hit: impl Fn(&Aabb) -> bool,
        out: &mut Vec<ProxyHandle>,
    ) {
        ks.extend(
            self.others
                .iter()
                .copied()
                .filter(|&o| hit(&self.boxes[o as usize])),
        );
        let mut slots: Vec<u32> = ks.iter().map(|&k| self.live[k as usize]).collect();
        slots.sort_unstable();
        out.clear();
        out.extend(slots.iter().map(|&s| self.store.arena.handle_of(s)));
    }
}

/// The counting sort's prefix sums over blocks `k0..k1` of [`PREFIX_BLOCK`] buckets:
/// `starts` and `counts[c]` hold these blocks' buckets; block `k` starts at position
/// `runs[k]`. Writes each bucket's start to `starts` and turns each chunk's count into its
/// first position in the bucket; returns the number of occupied buckets. Halves the blocks
/// between rayon tasks (each half owns its parts of the arrays).
fn prefix_blocks(
    runs: &[u32],
    k0: usize,
    k1: usize,
    starts: &mut [u32],
    counts: &mut [&mut [u32]],
) -> u64 {
    if k1 - k0 > 1 {
        let mid = (k0 + k1) / 2;
        let at = (mid - k0) * PREFIX_BLOCK;
        let (slo, shi) = starts.split_at_mut(at);
        let mut lo: [&mut [u32]; MAX_CHUNKS] = std::array::from_fn(|_| Default::default());
        let mut hi: [&mut [u32]; MAX_CHUNKS] = std::array::from_fn(|_| Default::default());
        for ((c, l), h) in counts.iter_mut().zip(&mut lo).zip(&mut hi) {
            (*l, *h) = std::mem::take(c).split_at_mut(at);
        }
        let n = counts.len();
        let (a, b) = crate::par::join(
            || prefix_blocks(runs, k0, mid, slo, &mut lo[..n]),
            || prefix_blocks(runs, mid, k1, shi, &mut hi[..n]),
        );
        return a + b;
    }
    let mut run = runs[k0];
    let mut occupied = 0;
    for (b, start) in starts.iter_mut().enumerate() {
        *start = run;
        for c in counts.iter_mut() {
            let k = c[b];
            c[b] = run;
            run += k;
        }
        occupied += (run > *start) as u64;
    }
    occupied
}

/// A crowded cell's entries grouped by flags: group `f` is `keys[at[f]..at[f + 1]]`.
struct Groups<'a> {
    at: [usize; 9],
    keys: &'a [u32],
}

impl Groups<'_> {
    #[inline(always)]
    fn get(&self, f: usize) -> &[u32] {
        &self.keys[self.at[f]..self.at[f + 1]]
    }
}

/// Raw output pointers of the parallel scatter (see the SAFETY note at its use).
struct Scatter {
    items: *mut u32,
    keys: *mut u64,
    len: usize,
}

// SAFETY: the pointers are only written at disjoint positions by the scatter's chunks.
unsafe impl Sync for Scatter {}

impl Scatter {
    /// Writes entry `p` (and its key in hashed mode). Panics if `p` is out of bounds.
    ///
    /// # Safety
    /// No other thread may access position `p` concurrently.
    #[inline]
    unsafe fn write(&self, p: usize, item: u32, key: Option<u64>) {
        assert!(p < self.len, "grid scatter out of bounds");
        // SAFETY: in bounds (checked), exclusive by the caller's contract.
        unsafe {
            *self.items.add(p) = item;
            if let Some(k) = key {
                *self.keys.add(p) = k;
            }
        }
    }
}

/// Writes keys to a buffer without branching on whether each key is kept: the key is always
/// written after the kept ones, and the count advances only when it is kept. In the cell loops
/// about one test in three overlaps, an outcome no branch predictor can learn.
///
/// The vector is only a buffer: the sink writes from its start, [`reserve`](Self::reserve)
/// grows it (zero-filled, safe indexing) before a run of at most `n` writes, and the caller
/// reads the first `len` keys. Its length is the largest output so far, so a warm frame
/// neither allocates nor zero-fills.
struct KeySink<'a> {
    buf: &'a mut Vec<u64>,
    /// Number of keys kept.
    len: usize,
    /// The pair budget's trimming: the kept keys are trimmed before they pass its limit.
    trim: &'a Trim<'a>,
    /// The trimming limit (see [`Trim::limit`]).
    limit: usize,
}

impl<'a> KeySink<'a> {
    /// A sink writing from the start of `buf`, within `budget`.
    fn new(buf: &'a mut Vec<u64>, trim: &'a Trim<'a>) -> Self {
        Self {
            buf,
            len: 0,
            trim,
            limit: trim.limit(),
        }
    }

    /// Makes room for `n` more keys.
    #[inline]
    fn reserve(&mut self, n: usize) {
        if self.buf.len() < self.len + n {
            self.grow(n);
        }
    }

    /// Makes room for `n` more keys when the buffer is too short: first trims the kept keys
    /// to the budget if `n` more would pass its limit (so the pair budget costs the hot loop
    /// nothing: the buffer, at most twice the limit plus a row or [`CELL_RESERVE`] keys, is
    /// only checked when it must grow), then grows the buffer.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, n: usize) {
        if self.len + n > self.limit {
            self.len = self.trim.trim_for(self.buf, self.len, n);
        }
        let need = self.len + n;
        if self.buf.len() < need {
            self.buf.resize(need.max(2 * self.buf.len()), 0);
        }
    }

    /// Writes `key` after the kept keys; keeps it iff `keep`. Needs room (see `reserve`).
    #[inline(always)]
    fn push_if(&mut self, key: u64, keep: bool) {
        self.buf[self.len] = key;
        self.len += keep as usize;
    }
}

/// `floor(v · inv)` clamped to `[-limit, limit - 1]`: the cell coordinate of `v` (a coordinate
/// relative to the cells' origin) for cells of side `1 / inv`. Monotone in `v` (every step
/// is), so two overlapping boxes always share a cell, whatever the rounding or the clamp.
#[inline]
pub(super) fn cell_index(v: Real, inv: Real, limit: i32) -> i32 {
    // floor without a libm call: truncate, then step down for negative non-integers. The
    // float is clamped first so that the step down cannot overflow at `i32::MIN` (far
    // coordinates over tiny cells: fuzz regression `grid_cell_of_overflow_far_negative`).
    // `max`/`min` (unlike `clamp`) map NaN to a bound, so `y` is always a finite float in
    // `[-limit - 1, limit]` and the unchecked conversion below is exact.
    let lim = limit as Real;
    let y = (v * inv).max(-lim - 1.0).min(lim);
    // SAFETY: `y` is finite (never NaN, see above) and within the `i32` range.
    let t: i32 = unsafe { y.to_int_unchecked() };
    let f = t - ((t as Real) > y) as i32;
    f.clamp(-limit, limit - 1)
}

/// Closed-box overlap, the same predicate as [`Aabb::intersects`] evaluated without branches
/// (in the cell loops the outcome is unpredictable).
#[inline]
pub(super) fn overlaps(a: &Aabb, b: &Aabb) -> bool {
    (a.mins.x <= b.maxs.x)
        & (b.mins.x <= a.maxs.x)
        & (a.mins.y <= b.maxs.y)
        & (b.mins.y <= a.maxs.y)
        & (a.mins.z <= b.maxs.z)
        & (b.mins.z <= a.maxs.z)
}

/// Packs clamped cell coordinates into 63 bits (21 per axis).
#[inline]
fn pack(c: [i32; 3]) -> u64 {
    let m = (1u64 << 21) - 1;
    ((c[0] as u64 & m) << 42) | ((c[1] as u64 & m) << 21) | (c[2] as u64 & m)
}

/// The multiplier of Fibonacci hashing (2⁶⁴ over the golden ratio).
pub(super) const FIBONACCI: u64 = 0x9E37_79B9_7F4A_7C15;

/// Fibonacci hashing of a packed key into `2^bits` buckets.
#[inline]
pub(super) fn hash_bucket(key: u64, bits: u32) -> usize {
    (key.wrapping_mul(FIBONACCI) >> (64 - bits)) as usize
}

impl BroadPhase for Grid {
    impl_proxy_bookkeeping!();

    fn find_pairs(&mut self, out: &mut Vec<Pair>) {
        if self.dirty {
            self.rebuild();
            self.find_pair_keys(out);
        } else {
            // Nothing changed since the last rebuild: the sorted keys still hold.
            pairs_of(&self.keys, &self.store.arena, out);
        }
    }

    fn shrink_buffers(&mut self) {
        self.keys.shrink_to_fit();
        self.parts = Vec::new();
        self.part_lens = Vec::new();
        self.sort = Default::default();
    }

    fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<ProxyHandle>) {
        if self.dirty || !aabb.is_valid() {
            return self.store.scan_aabb(aabb, out);
        }
        let q = self.range_of(aabb);
        if q.cells() > 64.max(self.items.len() as u64 / 16) {
            return self.store.scan_aabb(aabb, out);
        }
        let mut ks = Vec::new();
        self.visit_cells(&q, |item, c| {
            // Report a proxy only in the cell max(q.lo, its lo): once.
            let f = item >> FLAG_SHIFT;
            let first = (0..3).all(|d| c[d] == q.lo[d] || f & (1 << d) != 0);
            let k = item & SLOT_MASK;
            if first && self.boxes[k as usize].intersects(aabb) {
                ks.push(k);
            }
        });
        self.finish_query(ks, |b| b.intersects(aabb), out);
    }

    fn query_point(&self, p: &Point, out: &mut Vec<ProxyHandle>) {
        if self.dirty || !crate::math::is_finite_point(p) {
            return self.store.scan_point(p, out);
        }
        let c = [
            self.cell_of(p.x, 0),
            self.cell_of(p.y, 1),
            self.cell_of(p.z, 2),
        ];
        let mut ks = Vec::new();
        self.visit_cells(&Range { lo: c, hi: c }, |item, _| {
            let k = item & SLOT_MASK;
            if self.boxes[k as usize].contains_point(p) {
                ks.push(k);
            }
        });
        self.finish_query(ks, |b| b.contains_point(p), out);
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
        if self.dirty {
            return Ok(());
        }
        let n = self.live.len();
        if n != self.store.arena.len() || self.boxes.len() != n || self.codes.len() != n {
            return Err("grid: per-proxy arrays do not cover the live proxies".into());
        }
        let mut seen = vec![false; self.store.arena.slot_count()];
        for (k, &s) in self.live.iter().enumerate() {
            let s = s as usize;
            if !self.store.arena.is_alive(s) || std::mem::replace(&mut seen[s], true) {
                return Err(format!(
                    "grid: order entry {k} names dead or repeated slot {s}"
                ));
            }
            if self.boxes[k] != self.store.aabbs[s] {
                return Err(format!("grid: box copy of slot {s} is stale"));
            }
        }
        let buckets = self.starts.len().saturating_sub(1);
        if self.starts.first().copied().unwrap_or(0) != 0
            || self.starts.windows(2).any(|w| w[0] > w[1])
            || self.starts.last().copied().unwrap_or(0) as usize != self.items.len()
            || (self.mode == GridMode::Hashed && self.cell_keys.len() != self.items.len())
        {
            return Err("grid: bucket starts are not a prefix sum of the entries".into());
        }
        // Per proxy: the cells it was entered in, each checked against its box's cells.
        let mut cells: Vec<Vec<u64>> = vec![Vec::new(); n];
        for b in 0..buckets {
            for i in self.starts[b] as usize..self.starts[b + 1] as usize {
                let (item, key) = (self.items[i], self.key_at(i, b));
                let k = (item & SLOT_MASK) as usize;
                if k >= n || self.codes[k] == CODE_OVER {
                    return Err(format!(
                        "grid: bucket {b} holds a bad or non-base proxy {k}"
                    ));
                }
                cells[k].push(key);
                let r = self.range_of(&self.boxes[k]);
                let found = (r.lo[0]..=r.hi[0]).any(|x| {
                    (r.lo[1]..=r.hi[1]).any(|y| {
                        (r.lo[2]..=r.hi[2]).any(|z| {
                            let flags = (x == r.lo[0]) as u32
                                | ((y == r.lo[1]) as u32) << 1
                                | ((z == r.lo[2]) as u32) << 2;
                            self.locate([x, y, z]) == Some((key, b)) && item >> FLAG_SHIFT == flags
                        })
                    })
                });
                if !found {
                    return Err(format!(
                        "grid: slot {} is in bucket {b} (key {}) outside its box's cells or with wrong flags",
                        self.live[k], key
                    ));
                }
            }
        }
        for (k, cells) in cells.iter_mut().enumerate() {
            let r = self.range_of(&self.boxes[k]);
            let big = !self.levels.is_base(largest_side(&self.boxes[k]));
            if big != (self.codes[k] == CODE_OVER) || big != self.others.contains(&(k as u32)) {
                return Err(format!(
                    "grid: slot {} base-level flag is wrong",
                    self.live[k]
                ));
            }
            if !big {
                let spans = (0..3).map(|d| r.hi[d] - r.lo[d]).collect::<Vec<_>>();
                let code = self.codes[k];
                let expect = match self.locate(r.lo) {
                    Some((_, b))
                        if self.mode == GridMode::Dense && spans.iter().all(|&s| s <= 1) =>
                    {
                        b as u32 | ((spans[0] | spans[1] << 1 | spans[2] << 2) as u32) << SPAN_SHIFT
                    }
                    _ => CODE_WALK,
                };
                if code != expect {
                    return Err(format!(
                        "grid: slot {} has code {code:#x}, its box calls for {expect:#x}",
                        self.live[k]
                    ));
                }
            }
            let entered = cells.len();
            cells.sort_unstable();
            cells.dedup();
            let expect = if big { 0 } else { r.cells() as usize };
            if cells.len() != expect || entered != expect {
                return Err(format!(
                    "grid: slot {} is in {entered} cells ({} distinct), its box touches {expect}",
                    self.live[k],
                    cells.len()
                ));
            }
        }
        self.levels.validate(&self.others, &self.boxes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `FLAG_PAIRS` lists exactly the distinct flag values whose union covers the three axes.
    #[test]
    fn flag_pairs_are_every_covering_pair() {
        let expect: Vec<(usize, usize)> = (0..8)
            .flat_map(|a| (a + 1..8).map(move |b| (a, b)))
            .filter(|&(a, b)| a | b == 0b111)
            .collect();
        assert_eq!(FLAG_PAIRS.to_vec(), expect);
    }

    /// A sparse scene (unit boxes at 5 % volume fraction) gets the larger cell factor from its
    /// second rebuild on, a crowded one keeps the default; both report the brute-force pairs.
    #[test]
    fn sparse_scenes_get_larger_cells() {
        use crate::structure::BruteForce;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for (side, sparse) in [(58.5f32, true), (6.0, false)] {
            let mut grid = Grid::new();
            let mut brute = BruteForce::new();
            let mut handles = Vec::new();
            for k in 0..10_000u64 {
                let c = Point::new(
                    rng.gen_range(0.0..side),
                    rng.gen_range(0.0..side),
                    rng.gen_range(0.0..side),
                );
                let b = Aabb::new(c - Vector::repeat(0.5), c + Vector::repeat(0.5)).unwrap();
                let h = grid.insert(b, k).unwrap();
                assert_eq!(h, brute.insert(b, k).unwrap());
                handles.push(h);
            }
            let (mut got, mut expect) = (Vec::new(), Vec::new());
            grid.find_pairs(&mut got);
            brute.find_pairs(&mut expect);
            assert_eq!(got, expect);
            assert_eq!(grid.cell_size(), CELL_FACTOR);
            // Move one box so that the grid rebuilds.
            let b = Aabb::new(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0)).unwrap();
            grid.update(handles[0], b).unwrap();
            brute.update(handles[0], b).unwrap();
            grid.find_pairs(&mut got);
            brute.find_pairs(&mut expect);
            assert_eq!(got, expect);
            let factor = if sparse {
                SPARSE_CELL_FACTOR
            } else {
                CELL_FACTOR
            };
            assert_eq!(grid.cell_size(), factor, "side {side}");
            grid.validate().unwrap();
        }
    }

    /// The dense walk (the branch-free corner window, and the nested loops for boxes wider
    /// than two cells) yields exactly the entries of `for_each_entry`, also when its buffer is
    /// reused longer than needed.
    #[test]
    fn dense_entries_equal_the_cell_walk() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut grid = Grid::with_cell_size(1.0).unwrap();
        for k in 0..500u64 {
            let c = Point::new(
                rng.gen_range(-5.0..5.0),
                rng.gen_range(-5.0..5.0),
                rng.gen_range(-5.0..5.0),
            );
            let h = Vector::new(
                rng.gen_range(0.01..1.6),
                rng.gen_range(0.01..1.6),
                rng.gen_range(0.01..1.6),
            );
            grid.insert(Aabb::new(c - h, c + h).unwrap(), k).unwrap();
        }
        grid.find_pairs(&mut Vec::new());
        assert_eq!(grid.mode(), GridMode::Dense);
        let n = grid.codes.len();
        let mut expect = Vec::new();
        grid.for_each_entry(0, n, |_, b, item| {
            expect.push((b as u64) << 32 | item as u64)
        });
        expect.sort_unstable();
        let wide = (0..n)
            .filter(|&k| {
                let r = grid.range_of(&grid.boxes[k]);
                (0..3).any(|d| r.hi[d] - r.lo[d] > 1)
            })
            .count();
        assert!(
            wide > 0 && wide < n,
            "{wide} of {n} boxes wider than two cells"
        );
        let mut buf = vec![u64::MAX; 3 * expect.len()];
        for _ in 0..2 {
            let len = grid.dense_entries(0, &grid.boxes, &grid.codes, &mut buf);
            let mut got = buf[..len].to_vec();
            got.sort_unstable();
            assert_eq!(got, expect);
        }
    }

    /// The dense layout guessed from the last rebuild is kept while every proxy stays inside
    /// it and it is at most twice the size needed, and redone otherwise: a proxy leaving it,
    /// the proxies gathering in a corner, one proxy so far away that the table turns hashed,
    /// and back. The same near the world origin and far from it (the cells count from the
    /// occupied bounds, the guess is in world coordinates). Every frame reports the
    /// brute-force pairs and passes `validate`.
    #[test]
    fn guessed_layouts_are_kept_or_redone() {
        for offset in [Vector::zeros(), Vector::new(310.0, -47.5, 1250.0)] {
            use GridMode::*;
            let seen = guessed_layouts(
                offset,
                Vector::new(20.0, 20.0, 20.0),
                Vector::repeat(0.4),
                9,
                |frame, centres| match frame {
                    3 => centres[0] = Vector::new(60.0, 1.0, 1.0),
                    5 => centres.iter_mut().for_each(|c| *c *= 0.3),
                    6 => centres[1] = Vector::new(1.0e5, 1.0, 1.0),
                    8 => centres[1] = Vector::new(1.0, 1.0, 1.0),
                    _ => {}
                },
            );
            assert_eq!(
                seen,
                [
                    (Dense, true),  // first rebuild: no guess
                    (Dense, false), // the guess, one cell wider per side, is kept
                    (Dense, false),
                    (Dense, true), // a proxy left the guess
                    (Dense, false),
                    (Dense, true),   // the guess is over twice the size needed
                    (Hashed, false), // a proxy far away
                    (Hashed, false), // no guess after a hashed rebuild
                    (Dense, true),
                ],
                "offset {offset:?}"
            );
        }
    }

    /// A flat scene (a net of boxes one cell deep, as `joint_grid`) keeps its guess, three
    /// cells deep, rather than redoing the first pass at every rebuild.
    #[test]
    fn flat_scenes_keep_their_guess() {
        let seen = guessed_layouts(
            Vector::new(-20.0, 80.0, 0.5),
            Vector::new(80.0, 80.0, 0.0),
            Vector::new(0.2, 0.2, 0.1),
            4,
            |_, _| {},
        );
        use GridMode::*;
        assert_eq!(
            seen,
            [
                (Dense, true),
                (Dense, false),
                (Dense, false),
                (Dense, false)
            ]
        );
    }

    /// Runs `frames` rebuilds of 2000 boxes of half-extents `half` centred at `offset` plus a
    /// random point of `[0, extent]` (cell side 1), each frame first changed by `change` (in
    /// coordinates relative to `offset`) and jittered by up to 5 cm; checks every frame's
    /// pairs against brute force and `validate`, and returns per frame the layout's mode and
    /// whether it is exactly the occupied cell range (the guess was redone).
    fn guessed_layouts(
        offset: Vector,
        extent: Vector,
        half: Vector,
        frames: usize,
        change: impl Fn(usize, &mut Vec<Vector>),
    ) -> Vec<(GridMode, bool)> {
        use crate::structure::BruteForce;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
        let mut grid = Grid::with_cell_size(1.0).unwrap();
        let mut brute = BruteForce::new();
        let mut centres: Vec<Vector> = (0..2000)
            .map(|_| Vector::from_fn(|d, _| rng.gen_range(0.0..=extent[d])))
            .collect();
        let boxed = |c: &Vector| {
            let c = c + offset;
            Aabb::new((c - half).into(), (c + half).into()).unwrap()
        };
        let handles: Vec<ProxyHandle> = centres
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let h = grid.insert(boxed(c), k as u64).unwrap();
                assert_eq!(h, brute.insert(boxed(c), k as u64).unwrap());
                h
            })
            .collect();
        let mut seen = Vec::new();
        for frame in 0..frames {
            change(frame, &mut centres);
            for c in centres.iter_mut() {
                *c += Vector::from_fn(|d, _| {
                    if extent[d] > 0.0 {
                        rng.gen_range(-0.05..0.05)
                    } else {
                        0.0
                    }
                });
            }
            let moves: Vec<(ProxyHandle, Aabb)> = handles
                .iter()
                .zip(&centres)
                .map(|(&h, c)| (h, boxed(c)))
                .collect();
            grid.update_batch(&moves).unwrap();
            brute.update_batch(&moves).unwrap();
            let (mut got, mut expect) = (Vec::new(), Vec::new());
            grid.find_pairs(&mut got);
            brute.find_pairs(&mut expect);
            assert_eq!(got, expect, "frame {frame}");
            grid.validate().unwrap();
            let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
            for b in &grid.boxes {
                let r = grid.range_of(b);
                for d in 0..3 {
                    lo[d] = lo[d].min(r.lo[d]);
                    hi[d] = hi[d].max(r.hi[d]);
                }
            }
            let tight = (0..3)
                .map(|d| (hi[d] - lo[d]) as usize + 1)
                .product::<usize>();
            seen.push((grid.mode(), grid.buckets() == tight));
        }
        seen
    }

    /// Crowded dense cells (a pile: dozens of entries per cell, boxes spanning one to three
    /// cells per axis, so every flag group occurs) report exactly the brute-force pairs.
    #[test]
    fn crowded_level_cells_equal_brute_force() {
        use crate::structure::BruteForce;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        let mut grid = Grid::new();
        let mut brute = BruteForce::new();
        // Large boxes crowding the cells of a level above the base (its buckets are swept),
        // over small ones.
        for k in 0..1600u64 {
            let half = if k % 5 == 0 {
                rng.gen_range(25.0..50.0)
            } else {
                rng.gen_range(0.3..0.6)
            };
            let c = Point::new(
                rng.gen_range(0.0..200.0),
                rng.gen_range(0.0..200.0),
                rng.gen_range(0.0..200.0),
            );
            let h = Vector::repeat(half);
            let b = Aabb::new(c - h, c + h).unwrap();
            assert_eq!(grid.insert(b, k).unwrap(), brute.insert(b, k).unwrap());
        }
        let (mut got, mut expect) = (Vec::new(), Vec::new());
        grid.find_pairs(&mut got);
        brute.find_pairs(&mut expect);
        assert_eq!(grid.off_base_count(), 320, "cell {}", grid.cell_size());
        assert!(expect.len() > 1000);
        assert_eq!(got, expect);
        grid.validate().unwrap();
    }

    #[test]
    fn crowded_cells_equal_brute_force() {
        use crate::structure::BruteForce;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for cell in [1.0, 2.0, 4.0] {
            let mut grid = Grid::with_cell_size(cell).unwrap();
            let mut brute = BruteForce::new();
            for k in 0..1500u64 {
                let c = Point::new(
                    rng.gen_range(0.0..8.0),
                    rng.gen_range(0.0..8.0),
                    rng.gen_range(0.0..8.0),
                );
                let h = Vector::new(
                    rng.gen_range(0.05..1.0),
                    rng.gen_range(0.05..1.0),
                    rng.gen_range(0.05..1.0),
                );
                let b = Aabb::new(c - h, c + h).unwrap();
                assert_eq!(grid.insert(b, k).unwrap(), brute.insert(b, k).unwrap());
            }
            let (mut got, mut expect) = (Vec::new(), Vec::new());
            grid.find_pairs(&mut got);
            brute.find_pairs(&mut expect);
            assert_eq!(grid.mode(), GridMode::Dense);
            let crowded = (0..grid.starts.len() - 1)
                .filter(|&b| (grid.starts[b + 1] - grid.starts[b]) as usize >= 4 * GROUP_MIN)
                .count();
            assert!(crowded > 0, "cell {cell}: no crowded cell");
            let swept = (0..grid.starts.len() - 1)
                .filter(|&b| (grid.starts[b + 1] - grid.starts[b]) as usize > 91)
                .count();
            assert!(cell < 4.0 || swept > 0, "cell {cell}: no cell swept");
            assert!(!expect.is_empty());
            assert_eq!(got, expect, "cell size {cell}");
        }
    }
}
