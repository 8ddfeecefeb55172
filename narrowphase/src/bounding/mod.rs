//! Bounding volumes: axis-aligned boxes (the broad phase's currency) and bounding spheres.
//!
//! [`Aabb`] is a closed box `[mins, maxs]`. [`BoundingSphere`] is a closed ball with three
//! constructors from points, in increasing cost and tightness:
//!
//! - [`BoundingSphere::from_points_centroid`]: mean + farthest point, two passes;
//! - [`BoundingSphere::from_points_ritter`]: Ritter's 1990 two-pass growth, a few % larger
//!   than the minimum;
//! - [`BoundingSphere::from_points_minimal`]: the exact minimal sphere by Welzl's algorithm
//!   (incremental form, fixed-seed shuffle: deterministic, expected linear time).
//!
//! For the same points: minimal radius ≤ Ritter radius, and minimal ≤ centroid radius.

mod aabb;
mod sphere;
mod welzl;

pub use aabb::Aabb;
pub use sphere::BoundingSphere;
