//! The general entry points: any [`Shape`] against any other, each under a pose. These are
//! what the engine and the `micro` benchmark call; they dispatch to one file per shape pair.

mod ball_ball;

pub use ball_ball::{contact_ball_ball, intersection_ball_ball};

use crate::contact::Manifold;
use crate::math::{Isometry, Real};
use crate::shape::Shape;
use std::fmt;

/// A pair of shapes for which the crate has no algorithm (a typed error, never a panic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnsupportedPair {
    /// Name of shape A's kind.
    pub a: &'static str,
    /// Name of shape B's kind.
    pub b: &'static str,
}

impl fmt::Display for UnsupportedPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no collision algorithm for {} against {}",
            self.a, self.b
        )
    }
}

impl std::error::Error for UnsupportedPair {}

fn kind(s: &Shape) -> &'static str {
    match s {
        Shape::Ball(_) => "ball",
        Shape::Cuboid(_) => "cuboid",
    }
}

/// True when shape `a` at `pose_a` and shape `b` at `pose_b` overlap (touching counts).
pub fn intersection_test(
    pose_a: &Isometry,
    a: &Shape,
    pose_b: &Isometry,
    b: &Shape,
) -> Result<bool, UnsupportedPair> {
    match (a, b) {
        (Shape::Ball(ba), Shape::Ball(bb)) => Ok(intersection_ball_ball(
            &pose_a.translation.vector.into(),
            ba.radius(),
            &pose_b.translation.vector.into(),
            bb.radius(),
        )),
        _ => Err(UnsupportedPair {
            a: kind(a),
            b: kind(b),
        }),
    }
}

/// The contact manifold of `a` at `pose_a` against `b` at `pose_b`, if the shapes penetrate or
/// are closer than `prediction` metres (≥ 0). Normal from A to B, world space; depth positive
/// when penetrating. See [`crate::contact`] for the conventions.
pub fn contact(
    pose_a: &Isometry,
    a: &Shape,
    pose_b: &Isometry,
    b: &Shape,
    prediction: Real,
) -> Result<Option<Manifold>, UnsupportedPair> {
    match (a, b) {
        (Shape::Ball(ba), Shape::Ball(bb)) => Ok(contact_ball_ball(
            &pose_a.translation.vector.into(),
            ba.radius(),
            &pose_b.translation.vector.into(),
            bb.radius(),
            prediction,
        )),
        _ => Err(UnsupportedPair {
            a: kind(a),
            b: kind(b),
        }),
    }
}
