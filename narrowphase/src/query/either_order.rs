//! The shape-pair queries in whichever order has an algorithm: a caller holding two shapes of
//! any kinds (a world's bodies, a continuous-collision sweep) need not know which of the pair
//! the dispatch of [`contact`] and [`intersection_test`] expects first.

use super::{contact, intersection_test, UnsupportedPair};
use crate::contact::Manifold;
use crate::math::{Isometry, Real};
use crate::shape::ShapeRef;

/// [`contact`] of `a` at `pose_a` against `b` at `pose_b`, trying the pair the other way round
/// (and flipping the manifold back, so its normal still points from A to B) when only that
/// order has an algorithm. `Err` when neither has.
pub fn contact_any<'a, 'b>(
    pose_a: &Isometry,
    a: impl Into<ShapeRef<'a>>,
    pose_b: &Isometry,
    b: impl Into<ShapeRef<'b>>,
    prediction: Real,
) -> Result<Option<Manifold>, UnsupportedPair> {
    let (a, b) = (a.into(), b.into());
    match contact(pose_a, a, pose_b, b, prediction) {
        Ok(m) => Ok(m),
        Err(e) => match contact(pose_b, b, pose_a, a, prediction) {
            Ok(m) => Ok(m.map(|m| m.flipped())),
            Err(_) => Err(e),
        },
    }
}

/// [`intersection_test`] in either order; `None` when neither order has an algorithm.
pub fn intersects_any<'a, 'b>(
    pose_a: &Isometry,
    a: impl Into<ShapeRef<'a>>,
    pose_b: &Isometry,
    b: impl Into<ShapeRef<'b>>,
) -> Option<bool> {
    let (a, b) = (a.into(), b.into());
    intersection_test(pose_a, a, pose_b, b)
        .or_else(|_| intersection_test(pose_b, b, pose_a, a))
        .ok()
}
