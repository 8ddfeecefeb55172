//! The world's broad phase: one proxy per body, whose user data is the body's slot index and
//! whose box is the body's [`broad_aabb`](crate::state::broad_aabb), and the mapping back from
//! proxies to bodies.

use tumble_broadphase::{AnyBroadPhase, BroadPhase, BroadPhaseKind, ProxyHandle};

/// The broad phase and the two-way mapping between its proxies and the body slots.
pub(crate) struct BodyProxies {
    pub broad: AnyBroadPhase,
    /// Proxy of each slot (invalid for free slots).
    pub of_body: Vec<ProxyHandle>,
    /// Slot of each proxy index (`u32::MAX` for none).
    pub body_of_proxy: Vec<u32>,
}

impl BodyProxies {
    /// An empty broad phase of kind `kind` with a budget of `max_pairs` pairs.
    pub fn new(kind: BroadPhaseKind, max_pairs: u32) -> Self {
        let mut broad = AnyBroadPhase::new(kind);
        broad.set_max_pairs(max_pairs as usize);
        Self {
            broad,
            of_body: Vec::new(),
            body_of_proxy: Vec::new(),
        }
    }

    /// Records that `proxy` belongs to slot `index`.
    pub fn set_body_of_proxy(&mut self, proxy: ProxyHandle, index: u32) {
        let p = proxy.index() as usize;
        if self.body_of_proxy.len() <= p {
            self.body_of_proxy.resize(p + 1, u32::MAX);
        }
        self.body_of_proxy[p] = index;
    }
}
