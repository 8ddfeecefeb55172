//! The other planar shapes: circles, oriented rectangles, segments and lines.

use crate::error::ShapeError;
use crate::math::{Point2, Real, Vector2};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

fn finite2(p: &Vector2) -> bool {
    p.x.is_finite() && p.y.is_finite()
}

/// A solid disc (metres). Invariant: finite centre, finite `radius > 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Circle {
    center: Point2,
    radius: Real,
}

impl Circle {
    /// A validated circle.
    pub fn new(center: Point2, radius: Real) -> Result<Self, ShapeError> {
        if !finite2(&center.coords) {
            return Err(ShapeError::NonFinite("circle centre"));
        }
        if !radius.is_finite() {
            return Err(ShapeError::NonFinite("circle radius"));
        }
        if radius <= 0.0 {
            return Err(ShapeError::NonPositive("circle radius", radius));
        }
        Ok(Self { center, radius })
    }

    /// Centre.
    #[inline]
    pub fn center(&self) -> Point2 {
        self.center
    }

    /// Radius (metres, > 0).
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }
}

/// A solid rectangle of half-sizes `half_extents` centred at `center`, turned by `angle`
/// radians counter-clockwise. Invariant: finite, half-extents > 0.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Rect {
    center: Point2,
    half_extents: Vector2,
    axes: [Vector2; 2],
}

impl Rect {
    /// A validated rectangle: finite centre and angle, positive finite half-extents, and corners
    /// that are finite too (sizes near the largest `f32` are refused).
    pub fn new(center: Point2, half_extents: Vector2, angle: Real) -> Result<Self, ShapeError> {
        if !finite2(&center.coords) || !angle.is_finite() {
            return Err(ShapeError::NonFinite("rectangle centre or angle"));
        }
        if !finite2(&half_extents) {
            return Err(ShapeError::NonFinite("rectangle half-extents"));
        }
        let m = half_extents.min();
        if m <= 0.0 {
            return Err(ShapeError::NonPositive("rectangle half-extent", m));
        }
        let (s, c) = angle.sin_cos();
        let rect = Self {
            center,
            half_extents,
            axes: [Vector2::new(c, s), Vector2::new(-s, c)],
        };
        // Finite parts near the largest f32 can still sum to an infinite corner.
        if !rect.corners().iter().all(|p| finite2(&p.coords)) {
            return Err(ShapeError::NonFinite("rectangle corner"));
        }
        Ok(rect)
    }

    /// Centre.
    #[inline]
    pub fn center(&self) -> Point2 {
        self.center
    }

    /// Half-sizes along the rectangle's own axes.
    #[inline]
    pub fn half_extents(&self) -> Vector2 {
        self.half_extents
    }

    /// The rectangle's two unit axes (its local x and y in the plane).
    #[inline]
    pub fn axes(&self) -> [Vector2; 2] {
        self.axes
    }

    /// The four corners, counter-clockwise.
    pub fn corners(&self) -> [Point2; 4] {
        let (u, v) = (
            self.axes[0] * self.half_extents.x,
            self.axes[1] * self.half_extents.y,
        );
        let c = self.center;
        [c - u - v, c + u - v, c + u + v, c - u + v]
    }
}

/// A segment `a`–`b`. Invariant: finite, `a ≠ b`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Segment {
    a: Point2,
    b: Point2,
}

impl Segment {
    /// A validated segment.
    pub fn new(a: Point2, b: Point2) -> Result<Self, ShapeError> {
        if !finite2(&a.coords) || !finite2(&b.coords) {
            return Err(ShapeError::NonFinite("segment end"));
        }
        if a == b {
            return Err(ShapeError::Degenerate("segment ends coincide"));
        }
        if !finite2(&(b - a)) {
            return Err(ShapeError::NonFinite("segment direction (b − a overflows)"));
        }
        Ok(Self { a, b })
    }

    /// The two ends.
    #[inline]
    pub fn ends(&self) -> [Point2; 2] {
        [self.a, self.b]
    }

    /// Unit normal (the direction turned +90°). The direction is scaled to a largest component
    /// of 1 first, so ends a few subnormals apart still give a unit normal.
    pub fn normal(&self) -> Vector2 {
        let d = self.b - self.a;
        let d = d / d.amax();
        Vector2::new(-d.y, d.x).normalize()
    }
}

/// The infinite line `{x : normal · x = offset}`, `normal` unit. Invariant: finite.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Line {
    normal: Vector2,
    offset: Real,
}

impl Line {
    /// The line through `point` along `dir` (any non-zero length).
    pub fn new(point: Point2, dir: Vector2) -> Result<Self, ShapeError> {
        if !finite2(&point.coords) || !finite2(&dir) {
            return Err(ShapeError::NonFinite("line point or direction"));
        }
        let m = dir.amax();
        if m == 0.0 {
            return Err(ShapeError::Degenerate("line direction is zero"));
        }
        // Scaled to a largest component of 1 first: a huge direction's norm would overflow.
        let normal = Vector2::new(-dir.y / m, dir.x / m).normalize();
        let offset = normal.dot(&point.coords);
        if !offset.is_finite() {
            return Err(ShapeError::NonFinite(
                "line offset (the point is too far out)",
            ));
        }
        Ok(Self { normal, offset })
    }

    /// Unit normal (the direction turned +90°).
    #[inline]
    pub fn normal(&self) -> Vector2 {
        self.normal
    }

    /// Offset: the line is `normal · x = offset`.
    #[inline]
    pub fn offset(&self) -> Real {
        self.offset
    }
}
