//! The brute force: every pair is tested, O(n²). The reference every other structure is
//! compared against (Jolt's `BroadPhaseBruteForce` plays the same role).

use crate::handle::Pair;
use crate::math::{Point, Real, Vector};
use crate::proxies::{finish_pairs, pair_key, ProxyStore, Ray, SortScratch};
use crate::{impl_proxy_bookkeeping, Aabb, BroadPhase, ProxyHandle};

/// Tests every pair of live proxies; queries scan every proxy.
#[derive(Clone, Debug, Default)]
pub struct BruteForce {
    store: ProxyStore,
    keys: Vec<u64>,
    sort: SortScratch,
}

impl BruteForce {
    /// An empty brute force.
    pub fn new() -> Self {
        Self::default()
    }

    fn on_insert(&mut self, _slot: usize) {}
    fn on_remove(&mut self, _slot: usize) {}
    fn on_moved(&mut self) {}
}

impl BroadPhase for BruteForce {
    impl_proxy_bookkeeping!();

    fn find_pairs(&mut self, out: &mut Vec<Pair>) {
        let live: Vec<u32> = self.store.arena.live_indices().collect();
        let budget = &self.store.budget;
        budget.start();
        self.keys.clear();
        for (k, &a) in live.iter().enumerate() {
            let ba = &self.store.aabbs[a as usize];
            for &b in &live[k + 1..] {
                if ba.intersects(&self.store.aabbs[b as usize]) {
                    self.keys.push(pair_key(a, b));
                }
            }
            budget.trim(&mut self.keys);
        }
        finish_pairs(&mut self.keys, &self.store, out, &mut self.sort);
    }

    fn shrink_buffers(&mut self) {
        self.keys.shrink_to_fit();
        self.sort = Default::default();
    }

    fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<ProxyHandle>) {
        self.store.scan_aabb(aabb, out);
    }

    fn query_point(&self, p: &Point, out: &mut Vec<ProxyHandle>) {
        self.store.scan_point(p, out);
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
        self.store.validate()
    }
}
