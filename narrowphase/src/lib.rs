//! # tumble-narrowphase
//!
//! Exact collision tests and contacts, knowing nothing of bodies or worlds: does shape A under
//! pose A touch shape B under pose B, and if so along which normal, how deep, and where.
//!
//! Concave static geometry — triangle meshes and heightfields — lives in [`mesh`], collided one
//! triangle at a time with the same kernels. A shape made of several convex ones is a
//! [`shape::Compound`], collided one child at a time.
//!
//! Conventions for every output: world space unless stated, metres, contact normals unit length
//! and pointing **from A to B**, depth **positive when penetrating**.
//!
//! ```
//! use tumble_narrowphase::math::{Isometry, Vector};
//! use tumble_narrowphase::shape::{Ball, Shape};
//! use tumble_narrowphase::query;
//!
//! let a = Shape::from(Ball::new(1.0).unwrap());
//! let b = Shape::from(Ball::new(1.0).unwrap());
//! let pa = Isometry::identity();
//! let pb = Isometry::translation(1.5, 0.0, 0.0);
//! let m = query::contact(&pa, &a, &pb, &b, 0.0).unwrap().expect("they overlap");
//! assert!((m.normal - Vector::x()).norm() < 1e-6);
//! assert!((m.points()[0].depth - 0.5).abs() < 1e-6);
//! ```

#![warn(missing_docs)]

pub mod bounding;
pub mod contact;
pub mod error;
pub mod gjk;
pub mod math;
pub mod mesh;
pub mod planar;
pub mod query;
pub mod ray;
pub mod sat;
pub mod shape;
#[doc(hidden)]
pub mod simd;
pub mod sweep;
#[cfg(test)]
mod test_util;

pub use bounding::Aabb;
pub use contact::{ContactPoint, Manifold};
pub use error::{MeshError, ShapeError};
pub use query::UnsupportedPair;
pub use shape::Shape;
