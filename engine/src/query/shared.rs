//! What the queries share: the ray cast against one shape, and per-thread buffers for the
//! broad phase's candidates (no fresh `Vec` per call).

use std::cell::RefCell;
use std::thread::LocalKey;
use tumble_broadphase::ProxyHandle;
use tumble_narrowphase::math::{Isometry, Real};
use tumble_narrowphase::ray::{Ray, RayHit};
use tumble_narrowphase::shape::Shape;

/// Exact ray cast against one shape at `pose` (solid shapes: a ray starting inside hits at 0).
/// Every shape is exact; see [`tumble_narrowphase::ray::ray_shape`].
pub fn ray_shape(ray: &Ray, shape: &Shape, pose: &Isometry, max_t: Real) -> Option<RayHit> {
    tumble_narrowphase::ray::ray_shape(ray, pose, shape, max_t)
}

thread_local! {
    /// Broad-phase candidates of box and point queries.
    pub(super) static PROXIES: RefCell<Vec<ProxyHandle>> = const { RefCell::new(Vec::new()) };
    /// Broad-phase candidates of ray casts, with the ray parameter where each box is entered.
    pub(super) static RAY_PROXIES: RefCell<Vec<(ProxyHandle, Real)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` on this thread's buffer `key`, or on a fresh one when the buffer is in use (a
/// filter's predicate that runs a query of its own).
pub(super) fn with_buffer<T: 'static, R>(
    key: &'static LocalKey<RefCell<Vec<T>>>,
    f: impl FnOnce(&mut Vec<T>) -> R,
) -> R {
    key.with(|cell| match cell.try_borrow_mut() {
        Ok(mut v) => f(&mut v),
        Err(_) => f(&mut Vec::new()),
    })
}
