//! Sweeps for continuous collision: the time of first contact of a shape moving linearly over
//! one motion `t ∈ [0, 1]` against an obstacle.
//!
//! A sphere of radius `r` touches a convex obstacle exactly when its centre enters the
//! obstacle grown by `r` (their Minkowski sum), so each sphere sweep is a ray cast of the
//! centre's motion `c1 − c0` (as `dir`, so the ray's `t` is the fraction of the motion)
//! against that rounded shape, built from the [`crate::ray`] casts:
//!
//! | function | obstacle | rounded shape / method |
//! |---|---|---|
//! | [`sweep_sphere_plane`] | half-space ([`Plane`](crate::ray::Plane)) | linear gap, RTCD §5.5.3 |
//! | [`sweep_sphere_sphere`] | moving sphere | relative motion against radius `ra + rb`, RTCD §5.5.5 |
//! | [`sweep_sphere_cuboid`] | oriented box | rounded box: slabs then edge capsules, RTCD §5.5.7 |
//! | [`sweep_sphere_triangle`] | triangle | two offset faces + three edge capsules |
//! | [`sweep_sphere_capsule`] | capsule | capsule of radius `r + r_capsule` |
//! | [`sweep_cuboid_cuboid`] | box vs translating box | swept separating axes (15 axes) |
//! | [`time_of_impact`] | any pair of shapes, both translating | conservative advancement on the contact normal, RTCD §5.5.6 |
//!
//! [`cast_shape`] is the general form: any two shapes, each translating at its own velocity,
//! over `t ∈ [0, t_max]`, with a target distance (`skin`) and a choice for shapes that start
//! within it ([`CastOptions`]); it returns the time of impact, the normal from A to B and the
//! witness points on both shapes ([`CastHit`]), or a typed error for bad input. It advances
//! conservatively on GJK distances (Mirtich 1996), and uses the sphere sweeps above when a
//! ball meets a ball, a box, a capsule or a triangle.
//!
//! The closed-form sweeps of the table return `Option<`[`Toi`]`>`: `t ∈ [0, 1]`, a unit world-space normal from the
//! obstacle toward the mover, and the contact point on the obstacle. Shapes overlapping at the
//! start report `t = 0`. No contact during the motion, or non-finite input, gives `None`.
//!
//! [`swept_aabb()`], [`swept_cuboid_aabb`] and [`swept_sphere_aabb`] bound moving shapes for the
//! broad phase.
//!
//! ```
//! use tumble_narrowphase::math::{Isometry, Point, Vector};
//! use tumble_narrowphase::sweep::sweep_sphere_cuboid;
//!
//! // A 4 cm ball at 30 m/s toward a 5 cm wall: 50 cm in one 1/60 s step, through the wall.
//! let (c0, c1) = (Point::new(-0.3, 0.0, 0.0), Point::new(0.2, 0.0, 0.0));
//! let wall = Vector::new(0.025, 1.0, 1.0);
//! let toi = sweep_sphere_cuboid(&c0, &c1, 0.02, &Isometry::identity(), &wall).unwrap();
//! assert!((toi.t - 0.51).abs() < 1e-5); // first touch after 51 % of the step
//! assert_eq!(toi.normal, -Vector::x()); // from the wall toward the ball
//! ```

mod cast;
mod cast_round;
mod closest;
mod conservative;
mod cuboid_cuboid;
mod sphere_capsule;
mod sphere_cuboid;
mod sphere_plane;
mod sphere_sphere;
mod sphere_triangle;
mod swept_aabb;
mod toi;

pub use cast::{cast_shape, CastHit, CastOptions, CastStatus, CAST_MAX_ITERATIONS};
pub use conservative::time_of_impact;
pub use cuboid_cuboid::sweep_cuboid_cuboid;
pub use sphere_capsule::sweep_sphere_capsule;
pub use sphere_cuboid::sweep_sphere_cuboid;
pub use sphere_plane::sweep_sphere_plane;
pub use sphere_sphere::sweep_sphere_sphere;
pub use sphere_triangle::sweep_sphere_triangle;
pub use swept_aabb::{cuboid_aabb, swept_aabb, swept_cuboid_aabb, swept_sphere_aabb};
pub use toi::Toi;
