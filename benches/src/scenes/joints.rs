//! `joint_grid` (peer README, "Scene `joint_grid`"): s × s balls of radius 0.25, 1 m apart in
//! the plane z = 0, the top row fixed, joined to their right and lower neighbours by
//! ball-and-socket joints anchored at the midpoints. The start is the equilibrium of an ideal
//! net (each column hangs from its fixed ball); what moves is the solver's error. No random
//! draws.

use super::{BodySpec, JointSpec, Motion, Region, Scene, SceneKind, ShapeSpec};

/// The grid's side for `n` balls: the smallest `s` with `s² ≥ n` (2500 → 50).
pub fn grid_side(n: usize) -> usize {
    let mut s = (n as f64).sqrt() as usize;
    while s * s < n {
        s += 1;
    }
    while s > 1 && (s - 1) * (s - 1) >= n {
        s -= 1;
    }
    s.max(2)
}

/// The `joint_grid` scene for `n` balls (rounded up to s²). Ball (i, j), column i and row j
/// (0 at the top), is centred at (i, 100 − j, 0); order j, then i. Joints: (i, j)–(i+1, j) for
/// rows j ≥ 1, anchors (0.5, 0, 0) and (−0.5, 0, 0); (i, j)–(i, j+1) for j < s − 1, anchors
/// (0, −0.5, 0) and (0, 0.5, 0); order j, then i, the right joint before the lower one.
/// Density 1, friction 0.5, restitution 0.
pub fn joint_grid(n: usize) -> Scene {
    let s = grid_side(n);
    let ball = ShapeSpec::Ball { radius: 0.25 };
    let mut bodies = Vec::with_capacity(s * s);
    for j in 0..s {
        for i in 0..s {
            let spec = BodySpec::dynamic(ball, [i as f64, 100.0 - j as f64, 0.0]);
            let motion = if j == 0 {
                Motion::Static
            } else {
                Motion::Dynamic
            };
            bodies.push(BodySpec {
                motion,
                ..spec.with_material(0.5, 0.0)
            });
        }
    }
    let mut joints = Vec::with_capacity(2 * s * s);
    for j in 0..s {
        for i in 0..s {
            let me = j * s + i;
            if j >= 1 && i + 1 < s {
                joints.push(JointSpec {
                    a: me,
                    b: me + 1,
                    anchor_a: [0.5, 0.0, 0.0],
                    anchor_b: [-0.5, 0.0, 0.0],
                });
            }
            if j + 1 < s {
                joints.push(JointSpec {
                    a: me,
                    b: me + s,
                    anchor_a: [0.0, -0.5, 0.0],
                    anchor_b: [0.0, 0.5, 0.0],
                });
            }
        }
    }
    let sf = s as f64;
    Scene {
        kind: SceneKind::JointGrid,
        bodies,
        joints,
        inside: Region {
            min: [-1.0, 100.0 - sf, -1.0],
            max: [sf, 101.0, 1.0],
        },
        container: None,
        spin: None,
        wants_ccd: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The peer README's counts: s = 50 for N = 2500, (s − 1)² + s(s − 1) = 4851 joints.
    #[test]
    fn joint_grid_counts_match_the_peer_definition() {
        assert_eq!(grid_side(2500), 50);
        assert_eq!(grid_side(2501), 51);
        assert_eq!(grid_side(4), 2);
        let scene = joint_grid(2500);
        assert_eq!(scene.bodies.len(), 2500);
        assert_eq!(scene.joints.len(), 4851);
        assert_eq!(scene.dynamic_count(), 2450);
        assert_eq!(scene.bodies[51].translation, [1.0, 99.0, 0.0]);
    }
}
