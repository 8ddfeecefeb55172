//! The pair budget: the most pairs one [`find_pairs`](crate::BroadPhase::find_pairs) reports,
//! and the memory bound that comes with it.
//!
//! A pile-up (thousands of proxies at one spot) has a number of overlapping pairs quadratic in
//! its size: 10 000 proxies at one spot overlap in 5·10⁷ pairs, more memory than a process
//! may have. Jolt bounds the same thing with `maxBodyPairs`; here, with a budget of `max`
//! pairs, every structure keeps **the `max` smallest pair keys** `(a.index << 32) | b.index`
//! of the overlapping pairs and drops the others:
//!
//! - **Deterministic and the same for every structure.** Which pairs survive depends only on
//!   the set of overlapping pairs, never on the order a structure or a thread finds them in:
//!   the pairs of the lowest proxy slots are kept.
//! - **Bounded memory.** A buffer of keys is trimmed to its `max` smallest whenever it reaches
//!   [`PairBudget::limit`] keys (about `2·max`), with a selection in linear time
//!   (`select_nth_unstable`), so each key costs amortised O(1) and no buffer holds more than
//!   the limit plus the keys of one row of the search (one proxy's pairs). The smallest `max`
//!   keys of the union of several buffers lie among the smallest `max` of each, so trimming
//!   each buffer alone loses none of them.
//! - **Counted.** Keys are distinct, so the number dropped is exact:
//!   [`BroadPhase::dropped_pairs`](crate::BroadPhase::dropped_pairs) gives it.

use crate::handle::Pair;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Buffers are not trimmed below this many keys (a small budget would otherwise trim every
/// few keys).
const MIN_LIMIT: usize = 4096;

/// The pair budget of a structure and the count of pairs its last search dropped. Plain data,
/// no atomics: a structure holding one keeps no interior mutability, so a shared reference to
/// it keeps the no-alias guarantee that lets the compiler hoist its fields out of the pair
/// loops (an atomic counter in here cost the `balls` step 2 % more instructions). The
/// parallel part of a search counts into a [`Trim`]'s counter instead.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairBudget {
    /// The most pairs reported ([`usize::MAX`]: no bound).
    max: usize,
    /// Pairs the last search dropped.
    dropped: usize,
}

impl Default for PairBudget {
    fn default() -> Self {
        Self {
            max: usize::MAX,
            dropped: 0,
        }
    }
}

impl PairBudget {
    /// The most pairs reported.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Sets the most pairs reported (at least 1).
    pub fn set_max(&mut self, max: usize) {
        self.max = max.max(1);
    }

    /// Pairs dropped by the last search.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// Starts a search: the trimming of its buffers, counting what it drops into `counter`.
    pub fn start<'a>(&self, counter: &'a AtomicUsize) -> Trim<'a> {
        Trim {
            max: self.max,
            limit: self.max.saturating_mul(2).max(MIN_LIMIT),
            dropped: counter,
        }
    }

    /// Ends a search: the sorted `keys` and their `pairs` cut to the budget (the smallest
    /// keys kept), and the count of dropped pairs recorded: `counted` (what the search's
    /// trimming dropped) plus the cut, or, when the keys are those of an earlier search
    /// (`counted` is `None`), that search's count.
    pub fn finish(&mut self, counted: Option<usize>, keys: &mut Vec<u64>, pairs: &mut Vec<Pair>) {
        let cut = keys.len().saturating_sub(self.max);
        keys.truncate(self.max);
        pairs.truncate(self.max);
        if let Some(c) = counted {
            self.dropped = c + cut;
        }
    }
}

/// The trimming of one search's key buffers (see the [module docs](self)).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Trim<'a> {
    /// The budget.
    max: usize,
    /// A buffer of this many keys or more is trimmed: `2·max`, at least [`MIN_LIMIT`].
    limit: usize,
    /// Keys dropped so far (parallel tasks add to it; the sum does not depend on their order).
    dropped: &'a AtomicUsize,
}

impl Trim<'_> {
    /// The length at which a buffer is trimmed.
    #[inline]
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Trims `keys` to its `max` smallest keys (in some order) when it reached the limit.
    #[inline]
    pub fn trim(&self, keys: &mut Vec<u64>) {
        if keys.len() >= self.limit {
            let kept = self.keep_smallest(keys);
            keys.truncate(kept);
        }
    }

    /// Makes room for `n` more keys after `keys[..len]`: trims them to the `max` smallest
    /// first when `len + n` would pass the limit; returns the length kept.
    #[inline]
    pub fn trim_for(&self, keys: &mut [u64], len: usize, n: usize) -> usize {
        if len + n <= self.limit {
            return len;
        }
        self.keep_smallest(&mut keys[..len])
    }

    /// Moves the `max` smallest of `keys` to its front and counts the rest as dropped;
    /// returns the number kept.
    #[cold]
    #[inline(never)]
    fn keep_smallest(&self, keys: &mut [u64]) -> usize {
        if keys.len() <= self.max {
            return keys.len();
        }
        keys.select_nth_unstable(self.max);
        self.dropped
            .fetch_add(keys.len() - self.max, Ordering::Relaxed);
        self.max
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Trimming buffers of distinct keys as they grow, in any split, then sorting and
    /// finishing, keeps exactly the `max` smallest keys of the whole set (the sorted set's
    /// prefix) and counts every other key as dropped.
    #[test]
    fn trimmed_buffers_keep_the_smallest_keys_of_the_union() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for case in 0..40 {
            let n = rng.gen_range(0..40_000usize);
            let mut all: Vec<u64> = (0..n as u64).map(|k| k * 7 + (k % 3)).collect();
            // Shuffle (Fisher–Yates) so the buffers see keys in no order.
            for i in (1..all.len()).rev() {
                all.swap(i, rng.gen_range(0..=i));
            }
            let mut budget = PairBudget::default();
            budget.set_max(rng.gen_range(1..20_000));
            let counter = AtomicUsize::new(0);
            let trim = budget.start(&counter);
            let parts = rng.gen_range(1..6);
            let mut bufs: Vec<Vec<u64>> = vec![Vec::new(); parts];
            for (i, &k) in all.iter().enumerate() {
                let b = &mut bufs[(i * 31 + case) % parts];
                b.push(k);
                trim.trim(b);
                assert!(b.len() < trim.limit());
            }
            let mut keys: Vec<u64> = bufs.concat();
            keys.sort_unstable();
            let h = crate::ProxyHandle::invalid();
            let mut pairs = vec![(h, h); keys.len()];
            budget.finish(Some(counter.into_inner()), &mut keys, &mut pairs);
            let mut expect = all.clone();
            expect.sort_unstable();
            let kept = n.min(budget.max());
            assert_eq!(keys, expect[..kept], "case {case}");
            assert_eq!(pairs.len(), kept);
            assert_eq!(budget.dropped(), n - kept, "case {case}");
        }
    }
}
