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
//! For the same points: minimal radius ≤ Ritter radius, and minimal ≤ centroid radius
//! (Ritter is usually, not always, tighter than the centroid sphere).
//!
//! ```
//! use tumble_narrowphase::bounding::BoundingSphere;
//! use tumble_narrowphase::math::Point;
//!
//! let pts = [Point::new(-1.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 0.5, 0.0)];
//! let s = BoundingSphere::from_points_minimal(&pts).unwrap();
//! assert!((s.radius - 1.0).abs() < 1e-5 && pts.iter().all(|p| s.contains_point(p)));
//! ```

mod aabb;
mod sphere;
mod welzl;

pub use aabb::Aabb;
pub use sphere::BoundingSphere;
