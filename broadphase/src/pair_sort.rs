//! The canonical order of pair keys: a parallel sort of the keys `(a << 32) | b`, `a < b`
//! (see [`pair_key`](crate::proxies::pair_key)), that a structure's pair search produces in an
//! order of its own, spread over several buffers.
//!
//! The keys are distinct (every pair is reported once), so every correct sort gives the same
//! output: the chunking below may follow the thread count without the result depending on it.
//!
//! An MSD pass, then a counting sort per partition (a bucket sort: Cormen et al., *Introduction
//! to Algorithms*, §8.2 and §8.4):
//! 1. **Binning** (parallel over groups): the input, split into equal groups of positions, is
//!    read once; each group appends every key to its own bin of the key's partition, the
//!    partition `p` holding the keys whose `a` lies in `[p << shift, (p + 1) << shift)`
//!    (at most 2^[`PARTITION_BITS`] partitions).
//! 2. **Per partition** (parallel): its keys, read from the bins of every group, are
//!    counting-sorted on `a` into the partition's range of the output (which starts after the
//!    keys of the lower partitions), then each run of equal `a` (a few keys for most proxies)
//!    is sorted by rank (branch-free, up to 16 keys) or by comparison. A partition holding few keys for its range of `a` is sorted by
//!    comparison instead, so sparse keys never cost a pass over a large count array.
//!
//! On one thread this reads the keys three times and writes them twice, like the counting sort
//! it replaced (which also copied the result back), and fewer than the LSD radix sort it
//! replaced for pair counts below the slot count (four counting passes of 11-bit digits).

use crate::handle::{Pair, ProxyArena, ProxyHandle};
use crate::par::prelude::*;

/// At most `2^PARTITION_BITS` partitions (64: a few per thread, so work stealing balances
/// uneven partitions, and the bins stay few).
const PARTITION_BITS: u32 = 6;
/// Up to this many keys, a single partition sorted by comparison (parallelism would not pay).
const SMALL: usize = 4096;
/// Keys per binning group at least (fewer keys are binned by fewer groups).
const GROUP_MIN: usize = 8192;
/// A partition with at most this many keys, or fewer than a quarter of its range of `a`, is
/// sorted by comparison rather than counted.
const COMPARE_MAX: usize = 64;

/// The buffers of the pair-key sort, kept by each structure from frame to frame so that a warm
/// frame allocates nothing (fresh buffers cost page faults: about 5 % of a 10 000-ball step).
#[derive(Clone, Debug, Default)]
pub(crate) struct SortScratch {
    /// `bins[g * partitions + p]`: the keys of group `g` in partition `p`, in input order.
    bins: Vec<Vec<u64>>,
    /// Per partition: the counting sort's bucket starts (kept for their capacity).
    starts: Vec<Vec<u32>>,
    /// `offsets[p]..offsets[p + 1]`: partition `p`'s range of the output.
    offsets: Vec<usize>,
    /// The input buffer of [`sort_in_place`](Self::sort_in_place) (kept for its capacity).
    spare: Vec<u64>,
}

/// How the keys of one sort are split (fixed before the parallel passes).
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// Total number of keys.
    len: usize,
    /// Number of binning groups.
    groups: usize,
    /// Number of partitions.
    partitions: usize,
    /// Partition of a key: `a >> shift`.
    shift: u32,
    /// Every `a` is below this.
    slots: u64,
}

impl SortScratch {
    /// Replaces `keys` by the keys of `part(0) .. part(count - 1)` sorted ascending, and
    /// `pairs` by their handle pairs (`arena`'s handles of `a` and `b`). Every key is
    /// `(a << 32) | b` with `a`, `b` live slots of `arena`, no key repeated. Parallel on the
    /// current rayon pool; the result does not depend on its thread count.
    pub fn sort<'a>(
        &mut self,
        count: usize,
        part: impl Fn(usize) -> &'a [u64] + Sync,
        arena: &ProxyArena,
        keys: &mut Vec<u64>,
        pairs: &mut Vec<Pair>,
    ) {
        let len = (0..count).map(|i| part(i).len()).sum::<usize>();
        let groups = crate::par::current_num_threads()
            .clamp(1, 64)
            .min(len / GROUP_MIN + 1);
        self.sort_with(count, part, arena, groups, keys, pairs);
    }

    /// Sorts `keys` (as [`sort`](Self::sort) does) in place, and writes their pairs.
    pub fn sort_in_place(
        &mut self,
        keys: &mut Vec<u64>,
        arena: &ProxyArena,
        pairs: &mut Vec<Pair>,
    ) {
        let input = std::mem::replace(keys, std::mem::take(&mut self.spare));
        self.sort(1, |_| &input, arena, keys, pairs);
        self.spare = input;
    }

    /// [`sort`](Self::sort) with `groups` binning groups (any number from 1 on gives the same
    /// output; the tests try several).
    fn sort_with<'a>(
        &mut self,
        count: usize,
        part: impl Fn(usize) -> &'a [u64] + Sync,
        arena: &ProxyArena,
        groups: usize,
        out: &mut Vec<u64>,
        pairs: &mut Vec<Pair>,
    ) {
        let slots = arena.slot_count() as u64;
        let len = (0..count).map(|i| part(i).len()).sum::<usize>();
        // Bits of the largest `a`; partitions split its top `PARTITION_BITS`.
        let bits = 64 - slots.saturating_sub(1).leading_zeros();
        let (shift, partitions) = if len <= SMALL {
            (bits, 1)
        } else {
            let shift = bits.saturating_sub(PARTITION_BITS);
            (shift, (slots.saturating_sub(1) >> shift) as usize + 1)
        };
        let lay = Layout {
            len,
            groups: groups.max(1),
            partitions,
            shift,
            slots,
        };
        let SortScratch {
            bins,
            starts,
            offsets,
            ..
        } = self;
        let nbins = lay.groups * partitions;
        if bins.len() < nbins {
            bins.resize_with(nbins, Vec::new);
        }
        let bins = &mut bins[..nbins];
        bins.par_chunks_mut(partitions)
            .enumerate()
            .for_each(|(g, own)| bin_group(&lay, g, count, &part, own));

        offsets.clear();
        offsets.push(0);
        let mut run = 0;
        for p in 0..partitions {
            run += (0..lay.groups)
                .map(|g| bins[g * partitions + p].len())
                .sum::<usize>();
            offsets.push(run);
        }
        if starts.len() < partitions {
            starts.resize_with(partitions, Vec::new);
        }
        // Every position is written by its partition: resizing only sets the length (no
        // zero-filling once the buffer has grown).
        out.resize(len, 0);
        pairs.resize(len, (ProxyHandle::invalid(), ProxyHandle::invalid()));
        let to = Output { keys: out, pairs };
        sort_partitions(
            &lay,
            bins,
            offsets,
            arena,
            0,
            partitions,
            to,
            &mut starts[..partitions],
        );
    }
}

/// Appends the keys at positions `g·len/groups .. (g + 1)·len/groups` of the concatenated
/// input to `own[partition]`.
fn bin_group<'a>(
    lay: &Layout,
    g: usize,
    count: usize,
    part: &(impl Fn(usize) -> &'a [u64] + Sync),
    own: &mut [Vec<u64>],
) {
    own.iter_mut().for_each(Vec::clear);
    let (lo, hi) = (g * lay.len / lay.groups, (g + 1) * lay.len / lay.groups);
    let mut at = 0;
    for i in 0..count {
        let keys = part(i);
        let (s, e) = (at, at + keys.len());
        at = e;
        if e <= lo {
            continue;
        }
        if s >= hi {
            break;
        }
        for &k in &keys[lo.max(s) - s..hi.min(e) - s] {
            own[(k >> 32 >> lay.shift) as usize].push(k);
        }
    }
}

/// One partition range of the output: its keys and their handle pairs (same length).
struct Output<'o> {
    keys: &'o mut [u64],
    pairs: &'o mut [Pair],
}

/// Sorts partitions `p0..p1` into `to` (exactly their keys' range of the output), splitting
/// the range in halves between rayon tasks; each partition then writes its pairs while its
/// keys are in the core's cache.
#[allow(clippy::too_many_arguments)]
fn sort_partitions(
    lay: &Layout,
    bins: &[Vec<u64>],
    offsets: &[usize],
    arena: &ProxyArena,
    p0: usize,
    p1: usize,
    to: Output,
    starts: &mut [Vec<u32>],
) {
    if p1 - p0 > 1 {
        let mid = (p0 + p1) / 2;
        let at = offsets[mid] - offsets[p0];
        let (klo, khi) = to.keys.split_at_mut(at);
        let (plo, phi) = to.pairs.split_at_mut(at);
        let (slo, shi) = starts.split_at_mut(mid - p0);
        let (lo, hi) = (
            Output {
                keys: klo,
                pairs: plo,
            },
            Output {
                keys: khi,
                pairs: phi,
            },
        );
        crate::par::join(
            || sort_partitions(lay, bins, offsets, arena, p0, mid, lo, slo),
            || sort_partitions(lay, bins, offsets, arena, mid, p1, hi, shi),
        );
    } else if p1 > p0 {
        sort_partition(lay, bins, p0, to.keys, &mut starts[0]);
        for (p, &k) in to.pairs.iter_mut().zip(to.keys.iter()) {
            *p = (arena.handle_of((k >> 32) as u32), arena.handle_of(k as u32));
        }
    }
}

/// Sorts the keys of partition `p` (in the bins of every group) into `out`, which holds exactly
/// as many values.
fn sort_partition(
    lay: &Layout,
    bins: &[Vec<u64>],
    p: usize,
    out: &mut [u64],
    starts: &mut Vec<u32>,
) {
    let keys = || (0..lay.groups).flat_map(|g| bins[g * lay.partitions + p].iter().copied());
    let base = (p as u64) << lay.shift;
    let range = ((1u64 << lay.shift).min(lay.slots - base.min(lay.slots))) as usize;
    let m = out.len();
    if m <= COMPARE_MAX || 4 * m < range {
        for (o, k) in out.iter_mut().zip(keys()) {
            *o = k;
        }
        out.sort_unstable();
        return;
    }
    // Counts of `a = base + i` in `starts[i + 1]`, then their prefix sums: bucket `i` starts
    // at `starts[i]`.
    starts.clear();
    starts.resize(range + 1, 0);
    for g in 0..lay.groups {
        for &k in &bins[g * lay.partitions + p] {
            starts[((k >> 32) - base) as usize + 1] += 1;
        }
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    // `starts[i]` is bucket `i`'s write cursor; afterwards it is the bucket's end, so
    // `starts[..range]` are the buckets' ends, in order.
    for g in 0..lay.groups {
        for &k in &bins[g * lay.partitions + p] {
            let c = &mut starts[((k >> 32) - base) as usize];
            out[*c as usize] = k;
            *c += 1;
        }
    }
    // The keys are now in runs of equal `a`, in order: `starts[..range]` are the runs' ends.
    // Each run is ordered by `b` on its own: a short one (most: a proxy has a few pairs) by
    // rank (see [`rank_sort`]), a long one (a ground plane's) by comparison.
    let mut begin = 0;
    for &end in &starts[..range] {
        let run = &mut out[begin..end as usize];
        begin = end as usize;
        match run.len() {
            0 | 1 => {}
            2..=8 => rank_sort::<8>(run),
            9..=16 => rank_sort::<16>(run),
            _ => run.sort_unstable(),
        }
    }
}

/// Sorts a run of at most `N` distinct keys: each key goes to the position given by the number
/// of smaller keys. The run is padded to `N` with `u64::MAX` so that the count is always over
/// `N` values (a loop of fixed length the compiler unrolls, no branch on the keys); an
/// insertion sort, which this replaced, mispredicts its loop exit about once per key (profile
/// of `boxes` 10k: most of the sort's time).
fn rank_sort<const N: usize>(run: &mut [u64]) {
    let mut keys = [u64::MAX; N];
    keys[..run.len()].copy_from_slice(run);
    for i in 0..run.len() {
        let x = keys[i];
        let rank: usize = keys.iter().map(|&y| (y < x) as usize).sum();
        run[rank] = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proxies::pair_key;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The rank sort orders every run length it is used for, distinct keys in any order.
    #[test]
    fn rank_sort_orders_short_runs() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for len in 0..=16usize {
            for _ in 0..50 {
                let mut run: Vec<u64> = (0..len).map(|_| rng.gen()).collect();
                run.sort_unstable();
                run.dedup();
                let expect = run.clone();
                for i in (1..run.len()).rev() {
                    run.swap(i, rng.gen_range(0..=i));
                }
                if len <= 8 {
                    let mut r8 = run.clone();
                    rank_sort::<8>(&mut r8);
                    assert_eq!(r8, expect);
                }
                rank_sort::<16>(&mut run);
                assert_eq!(run, expect);
            }
        }
    }

    /// The sort agrees with a comparison sort for several slot counts (partition widths),
    /// key counts (one partition, sparse and dense partitions), splits of the input into
    /// buffers and numbers of binning groups; one scratch serves every case, as a structure
    /// reuses it from frame to frame, so stale contents of a longer earlier sort must not leak
    /// into a later one, and the output buffer starts longer or shorter than the result.
    #[test]
    fn sort_matches_comparison_sort() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut scratch = SortScratch::default();
        let mut out = vec![u64::MAX; 3];
        let mut pairs = Vec::new();
        let mut arena = ProxyArena::default();
        for slots in [1u64, 2, 3, 63, 64, 65, 2047, 2049, 100_000, 1 << 22] {
            // An arena of `slots` slots, some freed and reused (other generations).
            while (arena.slot_count() as u64) < slots {
                arena.alloc().unwrap();
            }
            for i in (0..slots as u32).step_by(7) {
                arena.free(arena.handle_of(i)).unwrap();
                arena.alloc().unwrap();
            }
            for len in [0usize, 1, 5, 5000, 60_000] {
                let mut keys: Vec<u64> = (0..len)
                    .map(|_| {
                        let a = rng.gen_range(0..slots) as u32;
                        let b = rng.gen_range(0..slots) as u32;
                        pair_key(a, b)
                    })
                    .collect();
                keys.sort_unstable();
                keys.dedup();
                let expect = keys.clone();
                // Shuffle, then cut into buffers of random lengths (some empty).
                for i in (1..keys.len()).rev() {
                    keys.swap(i, rng.gen_range(0..=i));
                }
                let mut parts: Vec<&[u64]> = Vec::new();
                let mut rest = &keys[..];
                while !rest.is_empty() {
                    let n = rng.gen_range(0..=rest.len().min(9000));
                    let (head, tail) = rest.split_at(n);
                    parts.push(head);
                    rest = tail;
                }
                for groups in [1, 2, 3, 8] {
                    scratch.sort_with(
                        parts.len(),
                        |i| parts[i],
                        &arena,
                        groups,
                        &mut out,
                        &mut pairs,
                    );
                    assert_eq!(out, expect, "slots {slots}, len {len}, groups {groups}");
                    let expect_pairs: Vec<Pair> = expect
                        .iter()
                        .map(|&k| (arena.handle_of((k >> 32) as u32), arena.handle_of(k as u32)))
                        .collect();
                    assert_eq!(
                        pairs, expect_pairs,
                        "slots {slots}, len {len}, groups {groups}"
                    );
                }
            }
        }
    }
}
