//! Shapes in their local frame. A shape plus an [`Isometry`](crate::math::Isometry) (its pose)
//! places it in the world. Every shape has a validating constructor that returns
//! [`ShapeError`](crate::ShapeError) on bad input.
//!
//! [`Shape`] is the closed set of shapes the general entry points
//! ([`crate::query::intersection_test`], [`crate::query::contact`]) dispatch over.

mod ball;
mod cuboid;

pub use ball::Ball;
pub use cuboid::Cuboid;

use crate::bounding::Aabb;
use crate::math::Isometry;
use serde::{Deserialize, Serialize};

/// Any shape Tumble can collide, in its local frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// A sphere centred at the local origin.
    Ball(Ball),
    /// A box centred at the local origin, edges along the local axes.
    Cuboid(Cuboid),
}

impl Shape {
    /// The world-space AABB of the shape at `pose` (tight for balls and boxes).
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        match self {
            Shape::Ball(b) => b.aabb(pose),
            Shape::Cuboid(c) => c.aabb(pose),
        }
    }
}

impl From<Ball> for Shape {
    fn from(b: Ball) -> Self {
        Shape::Ball(b)
    }
}

impl From<Cuboid> for Shape {
    fn from(c: Cuboid) -> Self {
        Shape::Cuboid(c)
    }
}
