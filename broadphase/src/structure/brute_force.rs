//! The brute force: every pair is tested, O(n²). The reference every other structure is
//! compared against (Jolt's `BroadPhaseBruteForce` plays the same role).

use crate::handle::Pair;
use crate::math::{Point, Real, Vector};
use crate::proxies::{pair_key, PairKeys, ProxyStore, Ray};
use crate::{impl_proxy_bookkeeping, Aabb, BroadPhase, ProxyHandle};
use std::sync::atomic::AtomicUsize;

/// Tests every pair of live proxies; queries scan every proxy.
#[derive(Clone, Debug, Default)]
pub struct BruteForce {
    store: ProxyStore,
    found: PairKeys,
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
        let dropped = AtomicUsize::new(0);
        let trim = self.store.budget.start(&dropped);
        self.found.keys.clear();
        for (k, &a) in live.iter().enumerate() {
            let ba = &self.store.aabbs[a as usize];
            for &b in &live[k + 1..] {
                if ba.intersects(&self.store.aabbs[b as usize]) {
                    self.found.keys.push(pair_key(a, b));
                }
            }
            trim.trim(&mut self.found.keys);
        }
        let counted = Some(dropped.into_inner());
        self.found.finish(&mut self.store, out, counted);
    }

    fn shrink_buffers(&mut self) {
        self.found.shrink();
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
