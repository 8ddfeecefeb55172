//! Queries against the world: ray casts, AABB and shape overlaps. They read the state at the
//! end of the last step (or after the last teleport); the broad phase prunes, exact tests decide.

use crate::error::{check_isometry, WorldError};
use crate::handle::BodyHandle;
use crate::world::World;
use tumble_broadphase::BroadPhase;
use tumble_narrowphase::math::{Isometry, Point, Real, Vector};
use tumble_narrowphase::ray::{Ray, RayHit};
use tumble_narrowphase::shape::Shape;
use tumble_narrowphase::Aabb;

/// The first body a ray meets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCastHit {
    /// The body hit.
    pub body: BodyHandle,
    /// Ray parameter of the hit, in units of the ray's direction (`point = origin + t·dir`).
    pub t: Real,
    /// Unit surface normal at the hit, world frame, facing against the ray.
    pub normal: Vector,
    /// Hit point, world frame, metres.
    pub point: Point,
}

/// Exact ray cast against one shape at `pose` (solid shapes: a ray starting inside hits at 0).
/// Every shape is exact; see [`tumble_narrowphase::ray::ray_shape`].
pub fn ray_shape(ray: &Ray, shape: &Shape, pose: &Isometry, max_t: Real) -> Option<RayHit> {
    tumble_narrowphase::ray::ray_shape(ray, pose, shape, max_t)
}

impl World {
    /// The first body (sensors included unless `skip_sensors`) that the ray
    /// `origin + t·dir`, `t ∈ [0, max_t]` meets; `t` is in units of `dir`. Errors on a
    /// non-finite origin or direction, a zero direction, or a negative or NaN `max_t`.
    pub fn cast_ray(
        &self,
        origin: Point,
        dir: Vector,
        max_t: Real,
        skip_sensors: bool,
    ) -> Result<Option<RayCastHit>, WorldError> {
        let ray = Ray::new(origin, dir)?;
        if max_t.is_nan() {
            return Err(WorldError::NonFinite("ray max_t"));
        }
        if max_t < 0.0 {
            return Err(WorldError::Negative("ray max_t", max_t));
        }
        let mut candidates = Vec::new();
        self.proxies
            .broad
            .cast_ray(&origin, &dir, max_t, &mut candidates);
        let mut best: Option<RayCastHit> = None;
        for (proxy, t_enter) in candidates {
            if best.is_some_and(|b| t_enter > b.t) {
                break;
            }
            let Some(&i) = self.proxies.body_of_proxy.get(proxy.index() as usize) else {
                continue;
            };
            let slot = &self.state.slots[i as usize];
            let Some(b) = &slot.body else { continue };
            if skip_sensors && b.sensor {
                continue;
            }
            let limit = best.map_or(max_t, |h| h.t);
            if let Some(hit) = ray_shape(&ray, &b.shape, &b.shape_pose(), limit) {
                let handle = BodyHandle::new(i, slot.generation);
                let better = match best {
                    None => true,
                    Some(h) => hit.t < h.t || (hit.t == h.t && handle < h.body),
                };
                if better {
                    best = Some(RayCastHit {
                        body: handle,
                        t: hit.t,
                        normal: hit.normal,
                        point: hit.point,
                    });
                }
            }
        }
        Ok(best)
    }

    /// Bodies whose shape's world AABB overlaps `aabb` (closed), in handle order.
    pub fn query_aabb(&self, aabb: &Aabb) -> Result<Vec<BodyHandle>, WorldError> {
        if !aabb.is_valid() {
            return Err(WorldError::NonFinite("query AABB (or min > max)"));
        }
        // Bodies live within ±MAX_COORDINATE: clip the query box to it.
        let m = crate::state::MAX_COORDINATE;
        let lim = Aabb::new_unchecked(Point::new(-m, -m, -m), Point::new(m, m, m));
        if !aabb.intersects(&lim) {
            return Ok(Vec::new());
        }
        let clipped = Aabb::new_unchecked(aabb.mins.sup(&lim.mins), aabb.maxs.inf(&lim.maxs));
        let mut found = Vec::new();
        self.proxies.broad.query_aabb(&clipped, &mut found);
        let mut out: Vec<BodyHandle> = found
            .into_iter()
            .filter_map(|p| {
                let i = *self.proxies.body_of_proxy.get(p.index() as usize)?;
                let s = &self.state.slots[i as usize];
                let b = s.body.as_ref()?;
                b.shape
                    .aabb(&b.shape_pose())
                    .intersects(aabb)
                    .then(|| BodyHandle::new(i, s.generation))
            })
            .collect();
        out.sort_unstable();
        Ok(out)
    }

    /// Bodies whose shape overlaps `shape` placed at `pose` (exact test, touching counts), in
    /// handle order. Pairs of shapes the narrow phase cannot test are left out.
    pub fn query_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
    ) -> Result<Vec<BodyHandle>, WorldError> {
        check_isometry("query pose", pose)?;
        crate::state::validate_shape(shape).map_err(|_| WorldError::NonFinite("query shape"))?;
        let aabb = shape.aabb(pose);
        let mut out = self.query_aabb(&aabb)?;
        out.retain(|h| {
            self.get(*h).is_ok_and(|b| {
                tumble_narrowphase::query::intersects_any(pose, shape, &b.shape_pose(), &b.shape)
                    == Some(true)
            })
        });
        Ok(out)
    }
}
