//! Overlap queries: the bodies whose box overlaps a query box, and the bodies whose shape
//! overlaps a query shape (exact test, touching counts).

use super::filter::QueryFilter;
use super::shared::{with_buffer, PROXIES};
use crate::error::{check_isometry, WorldError};
use crate::handle::BodyHandle;
use crate::world::World;
use tumble_broadphase::BroadPhase;
use tumble_narrowphase::math::{Isometry, Point};
use tumble_narrowphase::shape::Shape;
use tumble_narrowphase::Aabb;

/// `aabb` clipped to the world's limits (`±MAX_COORDINATE`), or `None` when it lies beyond.
pub(crate) fn clipped_to_world(aabb: &Aabb) -> Option<Aabb> {
    let m = crate::state::MAX_COORDINATE;
    let lim = Aabb::new_unchecked(Point::new(-m, -m, -m), Point::new(m, m, m));
    aabb.intersects(&lim)
        .then(|| Aabb::new_unchecked(aabb.mins.sup(&lim.mins), aabb.maxs.inf(&lim.maxs)))
}

impl World {
    /// Calls `f` with every body accepted by `filter` whose broad-phase box (the shape's box
    /// grown by the speculative margin) overlaps `aabb`, in handle order. `aabb` must be valid.
    pub(crate) fn for_each_candidate(
        &self,
        aabb: &Aabb,
        filter: &QueryFilter<'_>,
        mut f: impl FnMut(BodyHandle, &crate::body::Body),
    ) {
        let Some(clipped) = clipped_to_world(aabb) else {
            return;
        };
        with_buffer(&PROXIES, |found| {
            self.proxies.broad.query_aabb(&clipped, found);
            // Proxies come sorted by index; bodies in the same order in practice, sorted
            // here only when not.
            let sorted = found.windows(2).all(|w| {
                self.proxies.body_of_proxy.get(w[0].index() as usize)
                    < self.proxies.body_of_proxy.get(w[1].index() as usize)
            });
            if !sorted {
                found.sort_unstable_by_key(|p| self.proxies.body_of_proxy.get(p.index() as usize));
            }
            for &p in found.iter() {
                if let Some((h, b)) = self.filtered_body(p, filter) {
                    f(h, b);
                }
            }
        });
    }

    /// Bodies accepted by `filter` whose shape's world AABB overlaps `aabb` (closed), written
    /// into `out` (cleared first) in handle order. Errors on a non-finite box or one with
    /// `min > max`, leaving `out` empty.
    pub fn query_aabb_into(
        &self,
        aabb: &Aabb,
        filter: &QueryFilter<'_>,
        out: &mut Vec<BodyHandle>,
    ) -> Result<(), WorldError> {
        out.clear();
        if !aabb.is_valid() {
            return Err(WorldError::NonFinite("query AABB (or min > max)"));
        }
        self.for_each_candidate(aabb, filter, |h, b| {
            if b.shape.aabb(&b.shape_pose()).intersects(aabb) {
                out.push(h);
            }
        });
        Ok(())
    }

    /// Bodies whose shape's world AABB overlaps `aabb` (closed), in handle order: a new
    /// `Vec` each call (see [`World::query_aabb_into`] for the filtered form into a buffer).
    pub fn query_aabb(&self, aabb: &Aabb) -> Result<Vec<BodyHandle>, WorldError> {
        let mut out = Vec::new();
        self.query_aabb_into(aabb, &QueryFilter::default(), &mut out)?;
        Ok(out)
    }

    /// Bodies accepted by `filter` whose shape overlaps `shape` placed at `pose` (world frame;
    /// exact test, touching counts), written into `out` (cleared first) in handle order.
    /// Pairs of shapes the narrow phase cannot test are left out. Errors on a non-finite pose
    /// or shape, leaving `out` empty.
    pub fn intersections_with_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
        filter: &QueryFilter<'_>,
        out: &mut Vec<BodyHandle>,
    ) -> Result<(), WorldError> {
        out.clear();
        check_isometry("query pose", pose)?;
        crate::state::validate_shape(shape).map_err(|_| WorldError::NonFinite("query shape"))?;
        let aabb = shape.aabb(pose);
        if !aabb.is_valid() {
            return Err(WorldError::NonFinite("query shape's box"));
        }
        self.for_each_candidate(&aabb, filter, |h, b| {
            let bp = b.shape_pose();
            if b.shape.aabb(&bp).intersects(&aabb)
                && tumble_narrowphase::query::intersects_any(pose, shape, &bp, &b.shape)
                    == Some(true)
            {
                out.push(h);
            }
        });
        Ok(())
    }

    /// Bodies whose shape overlaps `shape` placed at `pose` (exact test, touching counts), in
    /// handle order: a new `Vec` each call (see [`World::intersections_with_shape`] for the
    /// filtered form into a buffer).
    pub fn query_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
    ) -> Result<Vec<BodyHandle>, WorldError> {
        let mut out = Vec::new();
        self.intersections_with_shape(shape, pose, &QueryFilter::default(), &mut out)?;
        Ok(out)
    }
}
