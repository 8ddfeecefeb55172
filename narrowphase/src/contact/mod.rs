//! Contact manifolds: what the response needs to push two touching shapes apart.
//!
//! Conventions, kept by every contact function of the crate:
//! - `normal` is unit length, in world space, and points **from shape A to shape B**;
//! - `depth` is in metres, **positive when penetrating** (negative: a gap, reported only when it
//!   is within the caller's `prediction` distance, for speculative contacts);
//! - each point is in world space, midway between the two surfaces along the normal.
//!
//! Moving B along `normal` by `depth + ε` separates a penetrating pair; by `depth − ε` it does not.

pub mod clipping;
pub mod closest;
pub mod features;

use crate::math::{Point, Real, Vector};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The largest number of points in a manifold (a face against a face keeps 4, as in Box2D).
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// One contact point.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ContactPoint {
    /// World-space position, midway between the two surfaces along the normal (metres).
    pub point: Point,
    /// Penetration depth along the normal, metres; positive when penetrating.
    pub depth: Real,
    /// A feature key stable from frame to frame while the same features touch (for warm
    /// starting); 0 when the pair has only one possible point.
    pub id: u32,
}

/// Up to [`MAX_MANIFOLD_POINTS`] contact points sharing one normal.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Manifold {
    /// Unit normal in world space, pointing from shape A to shape B.
    pub normal: Vector,
    points: [ContactPoint; MAX_MANIFOLD_POINTS],
    len: u8,
    depth: Real,
}

impl Manifold {
    /// An empty manifold with the given normal (unit, world space, A → B).
    pub fn new(normal: Vector) -> Self {
        let zero = ContactPoint {
            point: Point::origin(),
            depth: 0.0,
            id: 0,
        };
        Self {
            normal,
            points: [zero; MAX_MANIFOLD_POINTS],
            len: 0,
            depth: Real::NEG_INFINITY,
        }
    }

    /// Adds a point; returns false (and keeps the manifold unchanged) when it is full.
    pub fn push(&mut self, p: ContactPoint) -> bool {
        if (self.len as usize) < MAX_MANIFOLD_POINTS {
            self.points[self.len as usize] = p;
            self.len += 1;
            self.depth = self.depth.max(p.depth);
            true
        } else {
            false
        }
    }

    /// The points, deepest first is **not** guaranteed; order is stable for the same features.
    #[inline]
    pub fn points(&self) -> &[ContactPoint] {
        &self.points[..self.len as usize]
    }

    /// Number of points.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when there is no point.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The largest depth among the points (−∞ for an empty manifold).
    pub fn max_depth(&self) -> Real {
        self.points()
            .iter()
            .map(|p| p.depth)
            .fold(Real::NEG_INFINITY, Real::max)
    }

    /// The pair's penetration depth along `normal`, metres (negative: a gap): moving B along
    /// `normal` by `depth() + ε` separates the shapes, by `depth() − ε` it does not. It is the
    /// largest point depth unless the query set it with [`Manifold::set_depth`] (clipping can
    /// cut the deepest feature away from the points, e.g. a box tipping over an edge).
    #[inline]
    pub fn depth(&self) -> Real {
        self.depth
    }

    /// Sets the pair's penetration depth (see [`Manifold::depth`]); the points keep theirs.
    #[inline]
    pub fn set_depth(&mut self, depth: Real) {
        self.depth = depth;
    }

    /// The same contact seen from B: normal negated, points unchanged.
    pub fn flipped(&self) -> Self {
        let mut m = *self;
        m.normal = -m.normal;
        m
    }

    /// The same manifold with the given `normal` and every point passed through `f`; the
    /// pair's depth ([`Manifold::depth`]) is kept as it is (set it again if `f` changes it).
    #[inline]
    pub(crate) fn map_points(
        &self,
        normal: Vector,
        f: impl Fn(&ContactPoint) -> ContactPoint,
    ) -> Self {
        let mut m = *self;
        m.normal = normal;
        for p in &mut m.points[..m.len as usize] {
            *p = f(p);
        }
        m
    }

    /// Moves every point by `offset` (metres): normal, depths and ids unchanged. A manifold
    /// computed in a frame whose origin is at `offset` (world) is so brought into world space.
    #[inline]
    pub(crate) fn translate(&mut self, offset: &Vector) {
        for p in &mut self.points[..self.len as usize] {
            p.point += offset;
        }
    }
}
