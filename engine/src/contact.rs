//! The contact cache: one [`ContactPair`] per pair of bodies whose shapes are touching or
//! within the prediction distance, with each point's accumulated impulse kept from step to step
//! for warm starting, and the candidate pairs of a step that are matched against it.
//!
//! Invariant (checked by `World::validate`): the cache is sorted strictly by
//! `(a.index, b.index)` with `a.index < b.index`, and every manifold has a finite unit normal
//! and finite points and depths ([`validate_manifold`]).

use crate::handle::BodyHandle;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use tumble_narrowphase::math::{Real, Vector};
use tumble_narrowphase::Manifold;

/// Accumulated impulse of one contact point, kept from step to step for warm starting.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub(crate) struct PointImpulse {
    /// Normal impulse, N·s, ≥ 0.
    pub normal: Real,
    /// Friction impulse, world frame, N·s (perpendicular to the normal).
    pub tangent: Vector,
}

/// A pair of bodies with a contact manifold (touching or speculative), in the contact cache.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub(crate) struct ContactPair {
    pub a: BodyHandle,
    pub b: BodyHandle,
    /// Normal from `a` to `b`, world frame.
    pub manifold: Manifold,
    pub impulses: [PointImpulse; 4],
    /// Some point penetrates deeper than `−linear_slop`.
    pub touching: bool,
}

/// A candidate pair for the narrow phase: slot indices `a < b`, the index of the same pair in
/// last step's contact cache (or `u32::MAX`), and the speculative distance (metres). A `kept`
/// candidate (two inactive bodies, see [`crate::island`]) is last step's pair copied as it
/// is, without the narrow phase.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    pub a: u32,
    pub b: u32,
    pub prev: u32,
    pub prediction: Real,
    pub kept: bool,
}

/// A contact pair as users see it (from [`World::contacts`](crate::World::contacts)).
#[derive(Clone, Copy, Debug)]
pub struct ContactInfo<'a> {
    /// Lower body handle.
    pub a: BodyHandle,
    /// Higher body handle.
    pub b: BodyHandle,
    /// The manifold: normal from `a` to `b` (world frame), points in world space, depth
    /// positive when penetrating (negative: a speculative point).
    pub manifold: &'a Manifold,
    /// True when some point penetrates deeper than `−linear_slop`.
    pub touching: bool,
}

/// Checks a manifold: finite unit normal, finite points and depths.
pub(crate) fn validate_manifold(m: &Manifold) -> Result<(), String> {
    checked_max_depth(m).map(|_| ()).map_err(Into::into)
}

/// The largest point depth of `m` (metres; −∞ without a point: the same as
/// [`Manifold::max_depth`]) once [`validate_manifold`]'s checks pass, or the reason they fail.
/// One pass over the points, without a branch per coordinate: the narrow phase runs it on
/// every manifold.
#[inline]
pub(crate) fn checked_max_depth(m: &Manifold) -> Result<Real, &'static str> {
    if !tumble_narrowphase::math::is_finite_vector(&m.normal)
        || (m.normal.norm() - 1.0).abs() > 1e-3
    {
        return Err("contact normal not a finite unit vector");
    }
    let (mut finite, mut depth) = (true, Real::NEG_INFINITY);
    for p in m.points() {
        let (q, d) = (&p.point, p.depth);
        finite &= q.x.is_finite() & q.y.is_finite() & q.z.is_finite() & d.is_finite();
        depth = depth.max(d);
    }
    if finite {
        Ok(depth)
    } else {
        Err("contact point not finite")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tumble_narrowphase::math::Point;
    use tumble_narrowphase::ContactPoint;

    fn manifold(normal: Vector, points: &[([Real; 3], Real)]) -> Manifold {
        let mut m = Manifold::new(normal);
        for (i, &(p, depth)) in points.iter().enumerate() {
            m.push(ContactPoint {
                point: Point::new(p[0], p[1], p[2]),
                depth,
                id: i as u32,
            });
        }
        m
    }

    /// `checked_max_depth` is `Manifold::max_depth` on valid manifolds and rejects exactly what
    /// the per-coordinate checks rejected: any non-finite coordinate or depth of any point,
    /// a non-finite or non-unit normal.
    #[test]
    fn checked_max_depth_matches_max_depth_and_rejects_non_finite() {
        let pts = [
            ([0.5, -1.0, 2.0], -0.01),
            ([1.0, 0.0, 0.0], 0.03),
            ([-2.0, 4.0, 1.0], 0.02),
            ([0.0, 0.0, 3.0], -0.2),
        ];
        for n in 0..=pts.len() {
            let m = manifold(Vector::y(), &pts[..n]);
            assert_eq!(checked_max_depth(&m), Ok(m.max_depth()));
            assert!(validate_manifold(&m).is_ok());
            for k in 0..n {
                for coord in 0..4 {
                    for bad in [Real::NAN, Real::INFINITY, Real::NEG_INFINITY] {
                        let mut p = pts;
                        if coord < 3 {
                            p[k].0[coord] = bad;
                        } else {
                            p[k].1 = bad;
                        }
                        let m = manifold(Vector::y(), &p[..n]);
                        assert_eq!(checked_max_depth(&m), Err("contact point not finite"));
                        assert!(validate_manifold(&m).is_err());
                    }
                }
            }
        }
        for normal in [
            Vector::new(Real::NAN, 1.0, 0.0),
            Vector::new(0.0, Real::INFINITY, 0.0),
            Vector::new(0.0, 1.01, 0.0),
        ] {
            let m = manifold(normal, &pts);
            assert_eq!(
                checked_max_depth(&m),
                Err("contact normal not a finite unit vector")
            );
        }
    }
}

/// The contact cache's positions grouped by the slot of body `b` (see `query::contacts`).
#[derive(Debug, Default)]
pub(crate) struct ContactIndex {
    /// Per slot `s`, `order[start[s]..start[s + 1]]` are the pairs whose `b` is slot `s`;
    /// `slots + 1` entries.
    pub(crate) start: Vec<u32>,
    /// Positions in the contact cache, grouped by `b` slot, increasing within a group (so by
    /// `a.index`).
    pub(crate) order: Vec<u32>,
}

impl ContactIndex {
    /// The index of `contacts` for a world of `slots` body slots.
    pub(crate) fn build(contacts: &[ContactPair], slots: usize) -> Self {
        let mut start = vec![0u32; slots + 1];
        for c in contacts {
            if let Some(s) = start.get_mut(c.b.index() as usize + 1) {
                *s += 1;
            }
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut next = start.clone();
        let mut order = vec![0u32; contacts.len()];
        for (k, c) in contacts.iter().enumerate() {
            if let Some(n) = next.get_mut(c.b.index() as usize) {
                order[*n as usize] = k as u32;
                *n += 1;
            }
        }
        Self { start, order }
    }
}
