//! 2D collision tests on convex polygons, in the plane (metres, [`Point2`](crate::math::Point2)
//! and [`Vector2`](crate::math::Vector2)).
//!
//! - [`ConvexPolygon`]: validated corner list in either winding (stored counter-clockwise with
//!   unit outward edge normals); [`ConvexPolygon::contains_point`] is the sign-agreement test
//!   (a point on an edge is inside).
//! - [`Circle`], [`Rect`] (centre, half-extents, angle), [`Segment`] and [`Line`].
//! - Pair tests, all by the separating axis theorem over each pair's candidate axes, all
//!   returning a [`SatResult`] (signed separation, unit normal from A toward B, and which
//!   [`Axis`] gave it — so an intersecting pair also gets its minimal translation):
//!   [`polygon_polygon`], [`polygon_rect`] (the rectangle's two axes, each once),
//!   [`polygon_segment`], [`polygon_circle`] (edge normals + nearest corner axis) and
//!   [`polygon_line`].
//! - [`ConcavePolygon`]: a validated simple polygon split into triangles by ear clipping;
//!   it collides with a shape when any piece does.
//! - Distances ([`distance`], [`closest_points`]): the exact distance and closest points of
//!   any two of points, segments, lines, circles, convex polygons and rectangles (all taken as
//!   [`PlanarShape`]), by corner-against-edge search on the shapes' cores. A [`SatResult`]'s
//!   `separation` is exact for overlapping pairs (minus the penetration depth) but only a
//!   lower bound of the distance for apart ones: use [`distance`] for that.
//! - Segments: [`segments_intersect`] and [`closest_points_segments`] (exact orientation
//!   tests).
//! - Ray casts ([`Ray2`], [`RayHit2`]): [`ray_circle`], [`ray_segment`], [`ray_line`],
//!   [`ray_polygon`], [`ray_rect`], first hit `t` and the normal facing the ray, solids hit at `t = 0` from
//!   inside, as the 3D casts of [`crate::ray`].
//!
//! Touching counts as intersecting everywhere (closed shapes).
//!
//! ```
//! use tumble_narrowphase::math::{Point2, Vector2};
//! use tumble_narrowphase::planar::{polygon_polygon, ConvexPolygon};
//!
//! let square = |x: f32| {
//!     let c = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
//!     ConvexPolygon::new(&c.map(|(a, b)| Point2::new(a + x, b))).unwrap()
//! };
//! let r = polygon_polygon(&square(0.0), &square(0.75));
//! assert!(r.intersects());
//! assert!((r.depth() - 0.25).abs() < 1e-6 && r.normal == Vector2::x()); // push B by +x 0.25
//! ```

mod concave;
mod convex;
mod distance;
mod polygon_pairs;
mod ray;
mod sat;
mod segments;
mod shapes;

pub use concave::ConcavePolygon;
pub use convex::{ConvexPolygon, MAX_COORDINATE};
pub use distance::{closest_points, distance, PlanarProximity, PlanarShape};
pub use polygon_pairs::{
    polygon_circle, polygon_line, polygon_polygon, polygon_rect, polygon_segment,
};
pub use ray::{ray_circle, ray_line, ray_polygon, ray_rect, ray_segment, Ray2, RayHit2};
pub use sat::{Axis, SatResult};
pub use segments::{closest_points_segments, segments_intersect};
pub use shapes::{Circle, Line, Rect, Segment};
