//! Ray casts: the first body a ray meets, and every body it meets (sorted by `t`).
//!
//! Bodies are solid, as in parry with `solid = true` (and Box2D): a ray that starts inside a
//! body's shape (or on its surface) hits that body at `t = 0`, with the normal `−dir/|dir|`
//! and the origin as the point. To see past the body a ray starts in (a gun inside its
//! owner, a probe from a character's centre), exclude that body with the filter
//! ([`QueryFilter::exclude_body`]). A triangle has no inside: a ray starting on it hits at 0,
//! one starting beside it does not.

use super::filter::QueryFilter;
use super::shared::{with_buffer, RAY_PROXIES};
use crate::error::WorldError;
use crate::handle::BodyHandle;
use crate::world::World;
use tumble_broadphase::BroadPhase;
use tumble_narrowphase::math::{Point, Real, Vector};
use tumble_narrowphase::ray::Ray;

/// Where a ray meets a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCastHit {
    /// The body hit.
    pub body: BodyHandle,
    /// Ray parameter of the hit, in units of the ray's direction (`point = origin + t·dir`),
    /// `0` when the ray starts inside the body.
    pub t: Real,
    /// Unit surface normal at the hit, world frame, facing against the ray (`−dir/|dir|`
    /// when the ray starts inside the body).
    pub normal: Vector,
    /// Hit point, world frame, metres.
    pub point: Point,
}

/// The ray of a query, after the checks every ray query makes.
fn checked_ray(origin: Point, dir: Vector, max_t: Real) -> Result<Ray, WorldError> {
    let ray = Ray::new(origin, dir)?;
    if max_t.is_nan() {
        return Err(WorldError::NonFinite("ray max_t"));
    }
    if max_t < 0.0 {
        return Err(WorldError::Negative("ray max_t", max_t));
    }
    Ok(ray)
}

impl World {
    /// The first body accepted by `filter` that the ray `origin + t·dir`, `t ∈ [0, max_t]`,
    /// meets (`t` in units of `dir`; bodies are solid: see the module docs). Ties in `t` go to
    /// the lower handle. Errors on a non-finite origin or direction, a zero direction, or a
    /// negative or NaN `max_t`.
    pub fn cast_ray(
        &self,
        origin: Point,
        dir: Vector,
        max_t: Real,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<RayCastHit>, WorldError> {
        let ray = checked_ray(origin, dir, max_t)?;
        Ok(with_buffer(&RAY_PROXIES, |candidates| {
            self.proxies
                .broad
                .cast_ray(&origin, &dir, max_t, candidates);
            let mut best: Option<RayCastHit> = None;
            for &(proxy, t_enter) in candidates.iter() {
                // Candidates come by the ray parameter where their box is entered: none
                // further on can beat a hit before it.
                if best.is_some_and(|b| t_enter > b.t) {
                    break;
                }
                let Some((handle, b)) = self.filtered_body(proxy, filter) else {
                    continue;
                };
                let limit = best.map_or(max_t, |h| h.t);
                if let Some(hit) = super::shared::ray_shape(&ray, &b.shape, &b.shape_pose(), limit)
                {
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
            best
        }))
    }

    /// Every body accepted by `filter` that the ray `origin + t·dir`, `t ∈ [0, max_t]`,
    /// meets, one hit per body (where the ray enters it; `t = 0` for a body it starts in),
    /// written into `out` (cleared first) sorted by `t`, then by handle. Errors as
    /// [`World::cast_ray`], leaving `out` empty.
    pub fn cast_ray_all(
        &self,
        origin: Point,
        dir: Vector,
        max_t: Real,
        filter: &QueryFilter<'_>,
        out: &mut Vec<RayCastHit>,
    ) -> Result<(), WorldError> {
        out.clear();
        let ray = checked_ray(origin, dir, max_t)?;
        with_buffer(&RAY_PROXIES, |candidates| {
            self.proxies
                .broad
                .cast_ray(&origin, &dir, max_t, candidates);
            for &(proxy, _) in candidates.iter() {
                let Some((handle, b)) = self.filtered_body(proxy, filter) else {
                    continue;
                };
                if let Some(hit) = super::shared::ray_shape(&ray, &b.shape, &b.shape_pose(), max_t)
                {
                    out.push(RayCastHit {
                        body: handle,
                        t: hit.t,
                        normal: hit.normal,
                        point: hit.point,
                    });
                }
            }
        });
        out.sort_unstable_by(|a, b| a.t.total_cmp(&b.t).then(a.body.cmp(&b.body)));
        Ok(())
    }
}
