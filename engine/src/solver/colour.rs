//! Greedy graph colouring of the contact constraints (see the module docs of `solver`).

use super::bundle::{BundleHead, NO_PAIR};
use super::lanes::LANES;
use super::params::{COLOURS, MAX_POINTS};
use crate::contact::ContactPair;
use tumble_broadphase::par::prelude::*;

/// Bundle heads made per rayon task by the colouring.
const HEAD_CHUNK: usize = 512;
/// Most regions a colour's constraints are sorted into (see [`Solver::colour`]).
const MAX_REGIONS: usize = 16;
/// Fewest contact pairs per task when gathering the colouring's inputs.
const GATHER_MIN: usize = 1024;

/// What [`Colouring::colour`] reads of one contact pair, packed (12 bytes).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ColourInput {
    /// Body slots.
    pub(super) a: u32,
    pub(super) b: u32,
    /// Sort key in colour 0 (region and decreasing point count); colour `c` adds `c·stride`.
    pub(super) base: u16,
    /// Point count, clamped to `1..=MAX_POINTS`.
    pub(super) len: u8,
    /// Bit 0: body `a` is dynamic (written by the solver); bit 1: body `b` is.
    pub(super) write: u8,
}

/// The colouring of the last step's constraints: their order by colour, region and point
/// count, and the bundle heads it groups them into.
#[derive(Default)]
pub(super) struct Colouring {
    /// One per bundle.
    pub(super) heads: Vec<BundleHead>,
    /// `bundle_starts[c]..bundle_starts[c+1]` is colour `c` in `heads` (and in the bundles).
    pub(super) bundle_starts: Vec<usize>,
    /// Contact-pair indices sorted by colour, then by decreasing point count.
    order: Vec<u32>,
    /// Per contact pair, its sort key: colour, region, decreasing point count.
    key_of: Vec<u32>,
    /// Regions of the last colouring, and where region `r` of colour `c` starts (bundles from
    /// the colour's first) at `region_starts[c·regions + r]`.
    pub(super) regions: usize,
    pub(super) region_starts: Vec<usize>,
    /// Per contact pair, what the colouring reads (gathered by `colour`).
    inputs: Vec<ColourInput>,
    masks: Vec<u64>,
    counts: Vec<usize>,
}

impl Colouring {
    /// Greedy graph colouring of the constraints `(a, b, write_a, write_b, points)` given in
    /// pair order: each takes the lowest colour free on both of its dynamic bodies. Within a
    /// colour, constraints are sorted by region, then by decreasing point count (pair order
    /// kept among equals; the order within a colour does not change the result), and grouped
    /// four by four into bundles (one by one in the overflow colour, whose constraints may
    /// share bodies). The regions split the body slots into as many ranges as the pool has
    /// threads (a constraint goes by its first dynamic body): the parallel passes hand each
    /// thread the same stretch of every colour, so a thread keeps meeting the same bodies from
    /// colour to colour and finds them in its own cache, instead of in the core that wrote them
    /// in the colour before. `n_bodies` bounds the slot indices.
    ///
    /// A constraint's inputs (its two slots, which of them are dynamic (`dynamic(slot)`: written
    /// by the solver), its point count) are first gathered from `contacts` in parallel into a compact array, so
    /// that the serial greedy pass reads 12 bytes per constraint in order instead of the
    /// scattered contact pairs and masses. Only the greedy pass, the counting sort's scatter and
    /// a running sum over the bundles are serial; the bundle heads are filled in parallel.
    #[inline(never)]
    pub fn colour(
        &mut self,
        contacts: &[ContactPair],
        n_bodies: usize,
        dynamic: impl Fn(u32) -> bool + Sync,
    ) -> usize {
        let regions = tumble_broadphase::par::current_num_threads().clamp(1, MAX_REGIONS);
        let stride = regions * MAX_POINTS;
        let keys = (COLOURS + 1) * stride;
        let key = |colour: usize, region: usize, len: usize| {
            colour * stride + region * MAX_POINTS + (MAX_POINTS - len)
        };
        // `slot·regions/n_bodies` by a multiply and a shift (no division per pair).
        let scale = ((regions as u64) << 32) / n_bodies.max(1) as u64;
        let region_of = |slot: u32| match regions {
            1 => 0,
            _ => (((slot as u64 * scale) >> 32) as usize).min(regions - 1),
        };
        contacts
            .par_iter()
            .with_min_len(GATHER_MIN)
            .map(|c| {
                let (a, b) = (c.a.index(), c.b.index());
                let (write_a, write_b) = (dynamic(a), dynamic(b));
                let len = c.manifold.len().clamp(1, MAX_POINTS);
                ColourInput {
                    a,
                    b,
                    base: key(0, region_of(if write_a { a } else { b }), len) as u16,
                    len: len as u8,
                    write: write_a as u8 | (write_b as u8) << 1,
                }
            })
            .collect_into_vec(&mut self.inputs);
        self.masks.clear();
        self.masks.resize(n_bodies, 0);
        // The greedy pass writes every key, the sort every place of `order`, and the bundles
        // below every head: resizing without clearing writes only the new tail.
        self.key_of.resize(self.inputs.len(), 0);
        self.counts.clear();
        self.counts.resize(keys, 0);
        let (masks, counts) = (&mut self.masks[..], &mut self.counts[..]);
        for (p, key) in self.inputs.iter().zip(&mut self.key_of) {
            let (write_a, write_b) = (p.write & 1 != 0, p.write & 2 != 0);
            let ma = if write_a { masks[p.a as usize] } else { 0 };
            let mb = if write_b { masks[p.b as usize] } else { 0 };
            let free = !(ma | mb);
            // The lowest free colour (`COLOURS`, the overflow, if none is free) and its bit
            // (0 if none).
            let colour = free.trailing_zeros() as usize;
            let bit = free & free.wrapping_neg();
            if write_a {
                masks[p.a as usize] |= bit;
            }
            if write_b {
                masks[p.b as usize] |= bit;
            }
            let k = colour * stride + p.base as usize;
            *key = k as u32;
            counts[k] += 1;
        }
        // Counting sort by (colour, region, decreasing length), stable.
        let mut start = 0;
        for n in self.counts.iter_mut() {
            let here = *n;
            *n = start;
            start += here;
        }
        // Where each region starts in its colour, in bundles (rounded up).
        self.regions = regions;
        self.region_starts.clear();
        for colour in 0..=COLOURS {
            let first = self.counts[key(colour, 0, MAX_POINTS)];
            for region in 0..regions {
                let at = self.counts[key(colour, region, MAX_POINTS)] - first;
                self.region_starts.push(at.div_ceil(LANES));
            }
        }
        self.order.resize(self.key_of.len(), 0);
        for (k, &key) in self.key_of.iter().enumerate() {
            self.order[self.counts[key as usize]] = k as u32;
            self.counts[key as usize] += 1;
        }
        // Bundles, colour by colour (`counts[key]` is now the end of bucket `key`): first
        // where each colour's bundles start, then the bundles' pairs and point counts in
        // parallel (each colour's pairs are a range of `order`), then where each bundle's
        // points start (a running sum, in bundle order).
        self.bundle_starts.clear();
        let mut jobs = Vec::with_capacity(COLOURS + 1);
        let (mut from, mut bundles) = (0, 0);
        for colour in 0..=COLOURS {
            self.bundle_starts.push(bundles);
            let to = self.counts[key(colour, regions - 1, 1)];
            let width = if colour < COLOURS { LANES } else { 1 };
            jobs.push((from..to, width));
            bundles += (to - from).div_ceil(width);
            from = to;
        }
        self.bundle_starts.push(bundles);
        let empty = BundleHead {
            pair: [NO_PAIR; LANES],
            lens: [0; LANES],
            first: 0,
        };
        self.heads.resize(bundles, empty);
        let (order, inputs) = (&self.order[..], &self.inputs[..]);
        let mut rest = &mut self.heads[..];
        let mut tasks = Vec::with_capacity(jobs.len());
        for (range, width) in jobs {
            let (heads, tail) = std::mem::take(&mut rest).split_at_mut(range.len().div_ceil(width));
            rest = tail;
            tasks.push((heads, order.get(range).unwrap_or_default(), width));
        }
        tasks.into_par_iter().for_each(|(heads, order, width)| {
            heads
                .par_chunks_mut(HEAD_CHUNK)
                .zip(order.par_chunks(HEAD_CHUNK * width))
                .for_each(|(heads, order)| {
                    for (head, group) in heads.iter_mut().zip(order.chunks(width)) {
                        *head = empty;
                        for (l, &k) in group.iter().enumerate() {
                            head.pair[l] = k;
                            head.lens[l] = inputs.get(k as usize).map_or(0, |p| p.len);
                        }
                    }
                });
        });
        let mut first = 0u32;
        for head in &mut self.heads {
            head.first = first;
            first += head.lens.iter().copied().max().unwrap_or(0) as u32;
        }
        first as usize
    }
}
