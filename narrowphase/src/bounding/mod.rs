//! Bounding volumes: axis-aligned boxes (the broad phase's currency) and bounding spheres.

mod aabb;

pub use aabb::Aabb;
