//! Ray casts in the plane: a [`Ray2`] `origin + t · dir` against a circle (the quadratic of
//! Ericson, RTCD §5.3.2 in 2D), a segment (two orientation determinants, RTCD §5.1.9.1), a
//! line (its offset along the normal, RTCD §5.3.1 in 2D), and a convex polygon or a
//! rectangle (Cyrus–Beck clipping against the edges' half-planes, RTCD §5.3.8).
//!
//! Conventions, as the 3D casts of [`crate::ray`]: `t` is in units of `dir` (which need not be
//! unit) and the first hit with `t ∈ [0, max_t]` is reported; the normal is unit and faces
//! against the ray. Circles, polygons and rectangles are solid: a ray starting inside or on
//! one hits at `t = 0` with `normal = −dir/|dir|`. A segment has no inside: the ray hits it
//! where it crosses it, with the segment's normal turned against the ray; a ray running along
//! the segment hits it at the first point of it that it reaches (`t = 0` when it starts on it),
//! with `normal = −dir/|dir|`. A line is hit the same way (it has no ends). A negative or NaN
//! `max_t` gives no hit, and so does a hit whose fields would not be finite.

use super::convex::ConvexPolygon;
use super::shapes::{Circle, Line, Rect, Segment};
use crate::error::ShapeError;
use crate::math::{Point2, Real, Vector2};

/// A half-line `origin + t · dir`, `t ≥ 0`, in the plane (metres). Invariant (checked by
/// [`Ray2::new`]): finite origin and direction, `|dir|²` a positive normal float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray2 {
    origin: Point2,
    dir: Vector2,
}

impl Ray2 {
    /// A validated ray: errors on non-finite input or a zero (or overflowing) direction.
    pub fn new(origin: Point2, dir: Vector2) -> Result<Self, ShapeError> {
        if !(origin.x.is_finite() && origin.y.is_finite()) {
            return Err(ShapeError::NonFinite("ray origin"));
        }
        if !(dir.x.is_finite() && dir.y.is_finite()) {
            return Err(ShapeError::NonFinite("ray direction"));
        }
        let n2 = dir.norm_squared();
        if !(n2 >= Real::MIN_POSITIVE && n2.is_finite()) {
            return Err(ShapeError::Degenerate(
                "ray direction is zero, too short or too long",
            ));
        }
        Ok(Self { origin, dir })
    }

    /// Start point.
    #[inline]
    pub fn origin(&self) -> Point2 {
        self.origin
    }

    /// Direction (not necessarily unit).
    #[inline]
    pub fn dir(&self) -> Vector2 {
        self.dir
    }

    /// The point `origin + t · dir`.
    #[inline]
    pub fn point_at(&self, t: Real) -> Point2 {
        self.origin + self.dir * t
    }

    fn back(&self) -> Vector2 {
        let d = -self.dir / self.dir.amax();
        d / d.norm()
    }
}

/// Where a [`Ray2`] first meets a shape: `t ≥ 0` in units of the ray's `dir`; `normal` unit,
/// facing against the ray (`normal · dir ≤ 0`); `point = origin + t · dir` (metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit2 {
    /// Ray parameter of the hit, in units of `dir` (≥ 0).
    pub t: Real,
    /// Unit normal at the hit, facing against the ray.
    pub normal: Vector2,
    /// Hit point, metres.
    pub point: Point2,
}

fn hit(ray: &Ray2, t: Real, normal: Vector2, max_t: Real) -> Option<RayHit2> {
    let point = ray.point_at(t);
    let ok = t >= 0.0
        && t <= max_t
        && t.is_finite()
        && normal.x.is_finite()
        && normal.y.is_finite()
        && point.x.is_finite()
        && point.y.is_finite();
    ok.then_some(RayHit2 { t, normal, point })
}

/// The first hit of `ray` on the solid disc `circle` with `t ∈ [0, max_t]`.
///
/// ```
/// use tumble_narrowphase::math::{Point2, Vector2};
/// use tumble_narrowphase::planar::{ray_circle, Circle, Ray2};
///
/// let ray = Ray2::new(Point2::new(-5.0, 0.0), Vector2::new(2.0, 0.0)).unwrap();
/// let c = Circle::new(Point2::origin(), 1.0).unwrap();
/// let h = ray_circle(&ray, &c, 10.0).unwrap();
/// assert_eq!((h.t, h.normal), (2.0, -Vector2::x()));
/// ```
pub fn ray_circle(ray: &Ray2, circle: &Circle, max_t: Real) -> Option<RayHit2> {
    // In f64: squares of f32 coordinates and their products cannot overflow there.
    let w = |v: Vector2| nalgebra::Vector2::new(v.x as f64, v.y as f64);
    let m = w(ray.origin.coords) - w(circle.center().coords);
    let d = w(ray.dir);
    let r = circle.radius() as f64;
    if m.norm_squared() <= r * r {
        return hit(ray, 0.0, ray.back(), max_t);
    }
    let a = d.norm_squared();
    let b = m.dot(&d);
    if b >= 0.0 {
        return None; // outside and moving away
    }
    // The disc's chord along the ray, from the perpendicular distance: stable when the ray
    // passes far from the centre relative to its length.
    let along = -b / a;
    let closest = m + d * along;
    let h2 = r * r - closest.norm_squared();
    if h2.is_nan() || h2 < 0.0 {
        return None;
    }
    let t = (along - (h2 / a).sqrt()).max(0.0);
    let n = (m + d * t) / r;
    let normal = Vector2::new(n.x as Real, n.y as Real);
    let normal = (normal / normal.amax()).try_normalize(0.0)?;
    hit(ray, t as Real, normal, max_t)
}

/// The first hit of `ray` on `segment` with `t ∈ [0, max_t]` (see the module docs for a ray
/// along the segment).
pub fn ray_segment(ray: &Ray2, segment: &Segment, max_t: Real) -> Option<RayHit2> {
    let [a, b] = segment.ends();
    let o = ray.origin;
    let d = ray.dir;
    // Which side of the ray's line each end is on: `dir × (p − o)`, exact in sign in f64.
    let side = |p: &Point2| {
        d.x as f64 * (p.y as f64 - o.y as f64) - d.y as f64 * (p.x as f64 - o.x as f64)
    };
    let (sa, sb) = (side(&a), side(&b));
    if sa == 0.0 && sb == 0.0 {
        // Collinear: the first end ahead, or the origin when it is on the segment.
        let d2 = d.norm_squared();
        let (ta, tb) = ((a - o).dot(&d) / d2, (b - o).dot(&d) / d2);
        let t = if ta.min(tb) <= 0.0 && ta.max(tb) >= 0.0 {
            0.0
        } else if ta.min(tb) > 0.0 {
            ta.min(tb)
        } else {
            return None;
        };
        return hit(ray, t, ray.back(), max_t);
    }
    if sa * sb > 0.0 {
        return None; // both ends on one side of the ray's line
    }
    // The ray's parameter where it meets the segment's line: (a − o) × e / (dir × e).
    let (ex, ey) = (b.x as f64 - a.x as f64, b.y as f64 - a.y as f64);
    let (ax, ay) = (a.x as f64 - o.x as f64, a.y as f64 - o.y as f64);
    let denom = d.x as f64 * ey - d.y as f64 * ex;
    if denom == 0.0 {
        return None;
    }
    let t = ((ax * ey - ay * ex) / denom) as Real;
    if t < 0.0 {
        return None;
    }
    let n = segment.normal();
    let normal = if n.dot(&d) > 0.0 { -n } else { n };
    hit(ray, t, normal, max_t)
}

/// The first hit of `ray` on the infinite `line` with `t ∈ [0, max_t]`: where the ray crosses
/// it, with the line's normal turned against the ray; a ray starting on the line hits at
/// `t = 0` with `normal = −dir/|dir|` when it runs along it, with the line's normal turned
/// against it otherwise. A ray parallel to the line and off it never hits.
pub fn ray_line(ray: &Ray2, line: &Line, max_t: Real) -> Option<RayHit2> {
    let n = line.normal();
    // In f64: the offset of the origin and the closing rate along the normal.
    let (nx, ny) = (n.x as f64, n.y as f64);
    let h = nx * ray.origin.x as f64 + ny * ray.origin.y as f64 - line.offset() as f64;
    let rate = nx * ray.dir.x as f64 + ny * ray.dir.y as f64;
    let against = if rate > 0.0 { -n } else { n };
    if h == 0.0 {
        let normal = if rate == 0.0 { ray.back() } else { against };
        return hit(ray, 0.0, normal, max_t);
    }
    if rate == 0.0 || (h > 0.0) == (rate > 0.0) {
        return None; // parallel, or moving away from the line
    }
    hit(ray, (-h / rate) as Real, against, max_t)
}

/// Cyrus–Beck clipping of `ray` against the half-planes `n · x ≤ n · p` of `(n, p)`: the
/// entering time and normal, or `None` when the ray misses within `[0, max_t]`.
fn clip(
    ray: &Ray2,
    planes: impl Iterator<Item = (Vector2, Point2)>,
    max_t: Real,
) -> Option<RayHit2> {
    if max_t.is_nan() || max_t < 0.0 {
        return None;
    }
    let (mut enter, mut exit) = (0.0, max_t);
    let mut normal: Option<Vector2> = None;
    for (n, p) in planes {
        let dist = n.dot(&(p - ray.origin)); // ≥ 0: the origin is inside this half-plane
        let denom = n.dot(&ray.dir);
        if denom == 0.0 {
            if dist < 0.0 {
                return None;
            }
            continue;
        }
        let t = dist / denom;
        if denom < 0.0 {
            if t > enter {
                enter = t;
                normal = Some(n);
            }
        } else if t < exit {
            exit = t;
        }
        if enter > exit {
            return None;
        }
    }
    hit(ray, enter, normal.unwrap_or_else(|| ray.back()), max_t)
}

/// The first hit of `ray` on the solid convex polygon `polygon` with `t ∈ [0, max_t]`.
pub fn ray_polygon(ray: &Ray2, polygon: &ConvexPolygon, max_t: Real) -> Option<RayHit2> {
    // The outward normals from the edges, each scaled to a largest component of 1 before
    // normalising, so that edges of a few subnormals still give unit normals.
    let c = polygon.corners();
    let planes = (0..c.len()).filter_map(|i| {
        let e = c[(i + 1) % c.len()] - c[i];
        let n = Vector2::new(e.y, -e.x);
        let n = (n / n.amax()).try_normalize(0.0)?;
        Some((n, c[i]))
    });
    clip(ray, planes, max_t)
}

/// The first hit of `ray` on the solid rectangle `rect` with `t ∈ [0, max_t]`.
///
/// ```
/// use tumble_narrowphase::math::{Point2, Vector2};
/// use tumble_narrowphase::planar::{ray_rect, Ray2, Rect};
///
/// let r = Rect::new(Point2::new(3.0, 0.0), Vector2::new(1.0, 2.0), 0.0).unwrap();
/// let ray = Ray2::new(Point2::origin(), Vector2::new(1.0, 0.5)).unwrap();
/// let h = ray_rect(&ray, &r, 100.0).unwrap();
/// assert_eq!((h.t, h.normal), (2.0, -Vector2::x())); // enters the face x = 2 at (2, 1)
/// ```
pub fn ray_rect(ray: &Ray2, rect: &Rect, max_t: Real) -> Option<RayHit2> {
    let [u, v] = rect.axes();
    let h = rect.half_extents();
    let c = rect.center();
    let planes = [
        (u, c + u * h.x),
        (-u, c - u * h.x),
        (v, c + v * h.y),
        (-v, c - v * h.y),
    ];
    clip(ray, planes.into_iter(), max_t)
}
