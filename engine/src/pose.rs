//! Interpolation between the last two stored poses of a body, for drawing between fixed steps
//! (Fiedler, "Fix Your Timestep!").

use tumble_narrowphase::math::{Isometry, Real, Rotation};

/// `previous` blended with `current` by `alpha ∈ [0, 1]`: translations lerped, rotations
/// slerped along the shorter arc (normalised lerp when the two are nearly equal or opposite).
/// `alpha = 0` gives `previous`, `alpha = 1` gives `current`.
pub fn interpolate_pose(previous: &Isometry, current: &Isometry, alpha: Real) -> Isometry {
    let a = alpha.clamp(0.0, 1.0);
    let t = previous
        .translation
        .vector
        .lerp(&current.translation.vector, a);
    let q0 = previous.rotation;
    let mut q1 = current.rotation;
    if q0.quaternion().dot(q1.quaternion()) < 0.0 {
        q1 = Rotation::new_unchecked(-q1.into_inner());
    }
    let r = q0
        .try_slerp(&q1, a, 1e-6)
        .unwrap_or_else(|| q0.nlerp(&q1, a));
    Isometry::from_parts(t.into(), r)
}
