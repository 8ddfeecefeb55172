//! Point projection: the point of a shape's surface nearest a given point, and the body of the
//! world whose surface is nearest.
//!
//! Per shape (in the shape's frame): a ball and a capsule push the point radially from their
//! core (centre, segment) onto the surface; a box clamps the point to the box, or, from inside,
//! moves it to the nearest face; a triangle (and a flat polyhedron, a fan of triangles) takes
//! the closest point of the triangle by Voronoi regions (Ericson, RTCD §5.1.5), and has no
//! inside; a polyhedron moves a point inside every face plane onto the nearest face plane (for a
//! convex solid the nearest plane's foot lies on that face), and projects an outside point by
//! GJK against the point (van den Bergen 2004, §4.3); a compound takes the child with the least
//! signed distance (a point inside the compound is inside one of its children).
//!
//! The world's [`World::project_point`] looks in a cube around the point that grows four-fold
//! until it holds a body whose surface is nearer than the cube's half-side: a body farther
//! than that cannot be nearer, and none is missed (its surface within `r` puts its box
//! within the cube of half-side `r`).

use super::filter::QueryFilter;
use crate::error::{check_vector, WorldError};
use crate::handle::BodyHandle;
use crate::world::World;
use tumble_narrowphase::contact::closest::closest_point_on_triangle as closest_on_triangle;
use tumble_narrowphase::gjk::{self, GjkResult, SinglePoint};
use tumble_narrowphase::math::{Isometry, Point, Real, Vector};
use tumble_narrowphase::shape::{ConvexPolyhedron, Shape};
use tumble_narrowphase::Aabb;

/// Where a point projects onto a shape's surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointProjection {
    /// The surface point nearest the query point, world frame, metres.
    pub point: Point,
    /// True when the query point lies inside the solid (or on its surface); always false for a
    /// triangle and a flat polyhedron, which have no inside.
    pub inside: bool,
    /// Distance from the query point to `point`, metres (≥ 0).
    pub distance: Real,
}

impl PointProjection {
    /// The distance signed as the queries order bodies: negative inside, positive outside.
    #[inline]
    pub fn signed_distance(&self) -> Real {
        if self.inside {
            -self.distance
        } else {
            self.distance
        }
    }
}

/// A point pushed from a core point `core` onto a sphere of `radius` about it; `fallback`
/// (unit) is the direction used when the point is the core point itself.
fn round_projection(p: &Point, core: &Point, radius: Real, fallback: Vector) -> PointProjection {
    let d = p - core;
    let len = d.norm();
    let dir = if len > 0.0 { d / len } else { fallback };
    PointProjection {
        point: core + dir * radius,
        inside: len <= radius,
        distance: (len - radius).abs(),
    }
}

/// Projection on a polyhedron in its local frame (`q` local); the result in the local frame.
fn project_local_polyhedron(poly: &ConvexPolyhedron, q: &Point) -> PointProjection {
    let v = poly.vertices();
    if poly.is_flat() {
        let best = (1..v.len().saturating_sub(1))
            .map(|i| closest_on_triangle(q, &v[0], &v[i], &v[i + 1]))
            .min_by(|x, y| (x - q).norm_squared().total_cmp(&(y - q).norm_squared()))
            .unwrap_or(v[0]);
        return PointProjection {
            point: best,
            inside: false,
            distance: (best - q).norm(),
        };
    }
    // The largest signed distance to a face plane, and that face's normal.
    let mut worst = (Real::NEG_INFINITY, Vector::y());
    for f in poly.faces() {
        let corner = v[poly.face_loop(f)[0] as usize];
        let s = f.normal.dot(&(q - corner));
        if s > worst.0 {
            worst = (s, f.normal);
        }
    }
    let (s, n) = worst;
    if s <= 0.0 {
        return PointProjection {
            point: q - n * s,
            inside: true,
            distance: -s,
        };
    }
    let id = Isometry::identity();
    match gjk::distance(
        &id,
        poly,
        &Isometry::translation(q.x, q.y, q.z),
        &SinglePoint(Point::origin()),
    ) {
        GjkResult::Separated { point_a, .. } => PointProjection {
            point: point_a,
            inside: false,
            distance: (point_a - q).norm(),
        },
        // Within GJK's tolerance of the surface: the foot on the nearest plane.
        GjkResult::Intersecting => PointProjection {
            point: q - n * s,
            inside: false,
            distance: s,
        },
    }
}

/// The point of `shape`'s surface (the shape at `pose`, world frame) nearest `point`, whether
/// `point` lies inside, and the distance between them (see the module docs for the method).
/// `None` when `point` or `pose` is not finite.
pub fn project_point_on_shape(
    point: &Point,
    shape: &Shape,
    pose: &Isometry,
) -> Option<PointProjection> {
    if !(point.coords.iter().all(|x| x.is_finite())
        && pose.translation.vector.iter().all(|x| x.is_finite())
        && pose.rotation.coords.iter().all(|x| x.is_finite()))
    {
        return None;
    }
    let r = match shape {
        Shape::Ball(b) => round_projection(
            point,
            &Point::from(pose.translation.vector),
            b.radius(),
            pose.rotation * Vector::y(),
        ),
        Shape::Capsule(c) => {
            let (a, b) = c.segment(pose);
            let (s, _) =
                tumble_narrowphase::contact::closest::closest_point_on_segment(point, &a, &b);
            round_projection(point, &s, c.radius(), pose.rotation * Vector::x())
        }
        Shape::Cuboid(c) => {
            let e = c.half_extents();
            let q = pose.inverse_transform_point(point);
            let clamped = Point::new(
                q.x.clamp(-e.x, e.x),
                q.y.clamp(-e.y, e.y),
                q.z.clamp(-e.z, e.z),
            );
            if clamped != q {
                PointProjection {
                    point: pose * clamped,
                    inside: false,
                    distance: (clamped - q).norm(),
                }
            } else {
                // Inside: out through the nearest face (the first axis on ties).
                let gaps = e - q.coords.abs();
                let axis = gaps.imin();
                let mut f = q;
                f[axis] = if q[axis] < 0.0 { -e[axis] } else { e[axis] };
                PointProjection {
                    point: pose * f,
                    inside: true,
                    distance: gaps[axis],
                }
            }
        }
        Shape::Triangle(t) => {
            let [a, b, c] = t.world_corners(pose);
            let f = closest_on_triangle(point, &a, &b, &c);
            PointProjection {
                point: f,
                inside: false,
                distance: (f - point).norm(),
            }
        }
        Shape::Convex(p) => {
            let q = pose.inverse_transform_point(point);
            let local = project_local_polyhedron(p, &q);
            PointProjection {
                point: pose * local.point,
                ..local
            }
        }
        // A mesh has no inside: the nearest point of its triangles, by a scan over all of them
        // (O(triangles); a mesh is usually one body among many, found by the broad phase).
        Shape::TriMesh(m) => nearest_triangle(point, pose, m.triangle_count(), |i| m.triangle(i))?,
        Shape::HeightField(h) => {
            nearest_triangle(point, pose, h.triangle_count(), |i| h.triangle(i))?
        }
        // The child with the least signed distance (ties to the lower index): inside when the
        // point is inside some child, projected onto the child it is deepest in (that surface
        // point may lie inside another child where children overlap).
        Shape::Compound(c) => {
            let mut best: Option<PointProjection> = None;
            for (p, s) in c.children() {
                let Some(q) = project_point_on_shape(point, s, &(pose * p)) else {
                    continue;
                };
                if best.is_none_or(|b| q.signed_distance() < b.signed_distance()) {
                    best = Some(q);
                }
            }
            best?
        }
    };
    (r.point.coords.iter().all(|x| x.is_finite()) && r.distance.is_finite()).then_some(r)
}

/// The nearest point to `point` on the triangles `0..count` (`triangle(i)`, in the shape's
/// frame) of a shape at `pose`; `None` without a triangle.
fn nearest_triangle(
    point: &Point,
    pose: &Isometry,
    count: usize,
    triangle: impl Fn(u32) -> Option<tumble_narrowphase::shape::Triangle>,
) -> Option<PointProjection> {
    let mut best: Option<PointProjection> = None;
    for i in 0..count as u32 {
        let Some(t) = triangle(i) else { continue };
        let [a, b, c] = t.world_corners(pose);
        let f = closest_on_triangle(point, &a, &b, &c);
        let d = (f - point).norm();
        if best.is_none_or(|p| d < p.distance) {
            best = Some(PointProjection {
                point: f,
                inside: false,
                distance: d,
            });
        }
    }
    best
}

impl World {
    /// The body accepted by `filter` whose surface is nearest `point` (world frame), with the
    /// projection of `point` on it: bodies are ordered by the signed distance (negative inside,
    /// see [`PointProjection::signed_distance`]), so a body containing the point comes first
    /// (the one it is deepest in), then the nearest; ties go to the lower handle. `Ok(None)`
    /// when no body passes the filter. Errors on a non-finite point.
    pub fn project_point(
        &self,
        point: &Point,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<(BodyHandle, PointProjection)>, WorldError> {
        check_vector("query point", &point.coords)?;
        // A cube of this half-side about the point holds the whole world.
        let m = crate::state::MAX_COORDINATE;
        let all = point.coords.amax() + 2.0 * m;
        let mut r: Real = 1.0;
        loop {
            let r_now = r.min(all);
            let cube =
                Aabb::new_unchecked(point - Vector::repeat(r_now), point + Vector::repeat(r_now));
            let mut best: Option<(BodyHandle, PointProjection)> = None;
            self.for_each_candidate(&cube, filter, |h, b| {
                let Some(p) = project_point_on_shape(point, &b.shape, &b.shape_pose()) else {
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
}
