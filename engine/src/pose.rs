//! Interpolation between the last two stored poses of a body, for drawing between fixed steps
//! (Fiedler, "Fix Your Timestep!").

use tumble_narrowphase::math::{Isometry, Real, Rotation};

/// `previous` blended with `current` by `alpha ∈ [0, 1]`: translations lerped, rotations
/// slerped along the shorter arc. `alpha ≤ 0` gives `previous` and `alpha ≥ 1` gives `current`
/// exactly. Rotations closer than about 2.3° are blended by a normalised lerp, whose angle
/// error there is below 10⁻⁵ rad (a slerp in `f32` loses the blend for tiny angles: its cosine
/// rounds to 1).
pub fn interpolate_pose(previous: &Isometry, current: &Isometry, alpha: Real) -> Isometry {
    if alpha >= 1.0 {
        return *current;
    }
    // Also a NaN alpha: the previous pose.
    if alpha.is_nan() || alpha <= 0.0 {
        return *previous;
    }
    let t = previous
        .translation
        .vector
        .lerp(&current.translation.vector, alpha);
    let q0 = previous.rotation;
    let mut q1 = current.rotation;
    let mut dot = q0.quaternion().dot(q1.quaternion());
    if dot < 0.0 {
        q1 = Rotation::new_unchecked(-q1.into_inner());
        dot = -dot;
    }
    let r = if dot > 0.9998 {
        q0.nlerp(&q1, alpha)
    } else {
        q0.try_slerp(&q1, alpha, 1e-6)
            .unwrap_or_else(|| q0.nlerp(&q1, alpha))
    };
    Isometry::from_parts(t.into(), r)
}
