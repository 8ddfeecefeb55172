//! The same queries on a [`CollisionWorld`]: first ray hit, every ray hit, shape cast, point
//! projection and shape overlap, each with a predicate on the collider handle (collision
//! worlds have no body kinds, sensors or groups to filter on).
//!
//! Candidates: the colliders whose broad-phase box overlaps the query's box (the ray's, the
//! swept shape's, the growing cube of the point projection), plus every collider moved since
//! the last [`CollisionWorld::update`], whose box in the broad phase is stale: so the queries
//! see the poses set last, with or without an update in between.

use super::cast::checked_swept_box;
use super::overlap::clipped_to_world;
use super::point::{project_point_on_shape, PointProjection};
use super::shared::{with_buffer, PROXIES};
use crate::collision_world::{ColliderHandle, CollisionWorld};
use crate::error::{check_isometry, check_vector, WorldError};
use tumble_narrowphase::math::{Isometry, Point, Real, Vector};
use tumble_narrowphase::ray::{Ray, RayHit};
use tumble_narrowphase::shape::Shape;
use tumble_narrowphase::sweep::{CastHit, CastOptions};
use tumble_narrowphase::Aabb;

/// Which colliders a [`CollisionWorld`] query may report: `None` all, `Some(f)` those for
/// which `f` returns `true`.
pub type ColliderFilter<'a> = Option<&'a dyn Fn(ColliderHandle) -> bool>;

impl CollisionWorld {
    /// Calls `f` with every collider accepted by `filter` that a query over `aabb` must test
    /// (see the module docs), in handle order.
    fn for_each_collider(
        &self,
        aabb: &Aabb,
        filter: ColliderFilter<'_>,
        mut f: impl FnMut(ColliderHandle, &Shape, &Isometry),
    ) {
        let Some(clipped) = clipped_to_world(aabb) else {
            return;
        };
        with_buffer(&PROXIES, |found| {
            self.query_candidates(&clipped, found);
            for &p in found.iter() {
                if let Some((h, s, pose)) = self.collider_at(p) {
                    if filter.is_none_or(|keep| keep(h)) {
                        f(h, s, pose);
                    }
                }
            }
        });
    }

    /// The ray of a query and the box the candidates are looked for in (the ray's own box,
    /// its far end capped at the world's edge).
    fn ray_and_box(origin: Point, dir: Vector, max_t: Real) -> Result<(Ray, Aabb), WorldError> {
        let ray = Ray::new(origin, dir)?;
        if max_t.is_nan() {
            return Err(WorldError::NonFinite("ray max_t"));
        }
        if max_t < 0.0 {
            return Err(WorldError::Negative("ray max_t", max_t));
        }
        let m = crate::state::MAX_COORDINATE;
        let far = origin + dir * max_t;
        let far = Point::from(far.coords.map(|x| x.clamp(-m, m)));
        let aabb = Aabb::new_unchecked(origin.inf(&far), origin.sup(&far));
        if !aabb.is_valid() {
            return Err(WorldError::NonFinite("ray box"));
        }
        Ok((ray, aabb))
    }

    /// Every collider accepted by `filter` that the ray `origin + t·dir`, `t ∈ [0, max_t]`,
    /// meets (`t` in units of `dir`; solid shapes: `t = 0` for a collider the ray starts in),
    /// one hit each, written into `out` (cleared first) sorted by `t`, then by handle. The
    /// candidates are the colliders whose box overlaps the ray's box. Errors on a non-finite
    /// origin or direction, a zero direction, or a negative or NaN `max_t`.
    pub fn cast_ray_all(
        &self,
        origin: Point,
        dir: Vector,
        max_t: Real,
        filter: ColliderFilter<'_>,
        out: &mut Vec<(ColliderHandle, RayHit)>,
    ) -> Result<(), WorldError> {
        out.clear();
        let (ray, aabb) = Self::ray_and_box(origin, dir, max_t)?;
        self.for_each_collider(&aabb, filter, |h, s, pose| {
            if let Some(hit) = tumble_narrowphase::ray::ray_shape(&ray, pose, s, max_t) {
                out.push((h, hit));
            }
        });
        out.sort_unstable_by(|a, b| a.1.t.total_cmp(&b.1.t).then(a.0.cmp(&b.0)));
        Ok(())
    }

    /// The first collider accepted by `filter` that the ray meets (see
    /// [`CollisionWorld::cast_ray_all`]); ties go to the lower handle. Errors as
    /// [`CollisionWorld::cast_ray_all`].
    pub fn cast_ray(
        &self,
        origin: Point,
        dir: Vector,
        max_t: Real,
        filter: ColliderFilter<'_>,
    ) -> Result<Option<(ColliderHandle, RayHit)>, WorldError> {
        let (ray, aabb) = Self::ray_and_box(origin, dir, max_t)?;
        let mut best: Option<(ColliderHandle, RayHit)> = None;
        // Candidates come in handle order: a tie keeps the lower handle.
        self.for_each_collider(&aabb, filter, |h, s, pose| {
            let limit = best.map_or(max_t, |b| b.1.t);
            if let Some(hit) = tumble_narrowphase::ray::ray_shape(&ray, pose, s, limit) {
                if best.is_none_or(|b| hit.t < b.1.t) {
                    best = Some((h, hit));
                }
            }
        });
        Ok(best)
    }

    /// The first collider accepted by `filter` that `shape`, starting at `pose` and translating
    /// at `velocity` (world frame), comes within `options.skin` of over `[0, options.t_max]`,
    /// and the hit (A is the cast shape, B the collider: the normal points from the shape
    /// toward the collider); ties go to the lower handle. Errors on a non-finite or non-unit
    /// pose, a non-finite velocity or shape, or options out of range.
    pub fn cast_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
        velocity: &Vector,
        options: &CastOptions,
        filter: ColliderFilter<'_>,
    ) -> Result<Option<(ColliderHandle, CastHit)>, WorldError> {
        let swept = checked_swept_box(shape, pose, velocity, options)?;
        let mut best: Option<(ColliderHandle, CastHit)> = None;
        let zero = Vector::zeros();
        self.for_each_collider(&swept, filter, |h, s, p| {
            let opts = CastOptions {
                t_max: best.map_or(options.t_max, |x| x.1.toi),
                ..*options
            };
            let hit =
                tumble_narrowphase::sweep::cast_shape(pose, velocity, shape, p, &zero, s, &opts);
            let Ok(Some(hit)) = hit else { return };
            if best.is_none_or(|x| hit.toi < x.1.toi) {
                best = Some((h, hit));
            }
        });
        Ok(best)
    }

    /// The collider accepted by `filter` whose surface is nearest `point` (ordered by signed
    /// distance, negative inside; ties to the lower handle), with the projection. Errors on a
    /// non-finite point.
    pub fn project_point(
        &self,
        point: &Point,
        filter: ColliderFilter<'_>,
    ) -> Result<Option<(ColliderHandle, PointProjection)>, WorldError> {
        check_vector("query point", &point.coords)?;
        let all = point.coords.amax() + 2.0 * crate::state::MAX_COORDINATE;
        let mut r: Real = 1.0;
        loop {
            let r_now = r.min(all);
            let cube =
                Aabb::new_unchecked(point - Vector::repeat(r_now), point + Vector::repeat(r_now));
            let mut best: Option<(ColliderHandle, PointProjection)> = None;
            self.for_each_collider(&cube, filter, |h, s, pose| {
                let Some(p) = project_point_on_shape(point, s, pose) else {
                    return;
                };
                if best.is_none_or(|(_, x)| p.signed_distance() < x.signed_distance()) {
                    best = Some((h, p));
                }
            });
            if best.is_some_and(|(_, x)| x.signed_distance() <= r_now) || r_now >= all {
                return Ok(best);
            }
            r *= 4.0;
        }
    }

    /// Colliders accepted by `filter` whose shape overlaps `shape` at `pose` (exact test,
    /// touching counts; pairs without an algorithm left out), written into `out` (cleared
    /// first) in handle order. Errors on a non-finite pose or shape.
    pub fn intersections_with_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
        filter: ColliderFilter<'_>,
        out: &mut Vec<ColliderHandle>,
    ) -> Result<(), WorldError> {
        out.clear();
        check_isometry("query pose", pose)?;
        crate::state::validate_shape(shape).map_err(|_| WorldError::NonFinite("query shape"))?;
        let aabb = shape.aabb(pose);
        if !aabb.is_valid() {
            return Err(WorldError::NonFinite("query shape's box"));
        }
        self.for_each_collider(&aabb, filter, |h, s, p| {
            if s.aabb(p).intersects(&aabb)
                && tumble_narrowphase::query::intersects_any(pose, shape, p, s) == Some(true)
            {
                out.push(h);
            }
        });
        Ok(())
    }
}
