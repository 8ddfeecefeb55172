//! Ray casts against solids.
//!
//! A [`Ray`] is `origin + t · dir` with a validated non-zero `dir` that need not be unit; every
//! cast takes the ray, the shape's raw geometry (centres, radii, half-extents and a pose,
//! corners, planes — not the [`Shape`](crate::shape::Shape) enum) and a bound `max_t ≥ 0`, and
//! returns the first hit with `t ∈ [0, max_t]` as a [`RayHit`] (`t` in units of `dir`; unit
//! world-space normal facing against the ray; world-space point), or `None`.
//!
//! Shapes are **solid**: a ray starting inside (or on) one reports `t = 0` with
//! `normal = −dir/|dir|`, as Box2D and parry do. The triangle is two-sided with no inside.
//!
//! | function | shape | method |
//! |---|---|---|
//! | [`ray_sphere`] | sphere | quadratic, RTCD §5.3.2 |
//! | [`ray_aabb`] | axis-aligned box | slabs, RTCD §5.3.3 (zero direction components safe) |
//! | [`ray_cuboid`] | oriented box (pose + half-extents) | slabs in the box frame |
//! | [`ray_triangle`] | triangle | Möller–Trumbore 1997 |
//! | [`ray_capsule`] | capsule (segment + radius) | cylinder side + end spheres, RTCD §5.3.7 |
//! | [`ray_convex_polyhedron`] | intersection of half-spaces ([`Plane`]s) | Cyrus–Beck, RTCD §5.3.8 |
//!
//! Non-finite geometry or a NaN/negative `max_t` never produce a hit or a NaN; a hit whose
//! fields would overflow is not reported.
//!
//! ```
//! use tumble_narrowphase::math::{Point, Vector};
//! use tumble_narrowphase::ray::{ray_sphere, Ray};
//!
//! let ray = Ray::new(Point::new(-5.0, 0.0, 0.0), Vector::new(2.0, 0.0, 0.0)).unwrap();
//! let hit = ray_sphere(&ray, &Point::origin(), 1.0, 10.0).unwrap();
//! assert_eq!(hit.t, 2.0); // in units of dir: 4 m along a 2 m dir
//! assert_eq!(hit.normal, -Vector::x());
//! assert!(ray_sphere(&ray, &Point::origin(), 1.0, 1.5).is_none()); // beyond max_t
//! ```

mod aabb;
mod capsule;
mod plane;
mod shape;
mod sphere;
mod triangle;
mod types;

pub use aabb::{ray_aabb, ray_cuboid};
pub use capsule::ray_capsule;
pub use plane::{ray_convex_polyhedron, Plane};
pub use shape::ray_shape;
pub use sphere::ray_sphere;
pub use triangle::ray_triangle;
pub(crate) use types::earlier;
pub use types::{Ray, RayHit};
