//! What every constraint of a step shares: the soft-constraint coefficients, the step's
//! parameters, the passes, and the limits the colouring and the bundles are built to.

use tumble_narrowphase::math::Real;

/// Soft-constraint coefficients (Box2D v3 `b2MakeSoft`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Softness {
    pub bias_rate: Real,
    pub mass_scale: Real,
    pub impulse_scale: Real,
}

impl Softness {
    /// Spring of `hertz` with damping ratio `zeta`, stepped with `h`.
    pub fn new(hertz: Real, zeta: Real, h: Real) -> Self {
        if hertz <= 0.0 {
            return Self {
                bias_rate: 0.0,
                mass_scale: 1.0,
                impulse_scale: 0.0,
            };
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

/// Parameters shared by every constraint during one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverParams {
    /// Length of one substep, seconds.
    pub h: Real,
    /// `1/h`.
    pub inv_h: Real,
    /// Substeps per step, ≥ 1.
    pub substeps: u32,
    /// Biased passes per substep, ≥ 1.
    pub iterations: u32,
    /// Relaxation passes (without the push-out bias) per substep.
    pub relax_iterations: u32,
    /// Restitution passes after the last substep.
    pub restitution_iterations: u32,
    /// Contact softness between two dynamic bodies, stepped with `h`.
    pub soft: Softness,
    /// Contact softness against a static or kinematic body (twice as stiff), stepped with `h`.
    pub static_soft: Softness,
    /// Joint softness (the push-back of a joint's position error), stepped with `h`.
    pub joint_soft: Softness,
    /// Penetration left uncorrected, metres (keeps resting contacts from jittering).
    pub allowed_penetration: Real,
    /// Largest push-out speed, m/s.
    pub max_push: Real,
    pub restitution_threshold: Real,
}

/// Which pass a constraint is solved in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    WarmStart,
    Solve,
    Relax,
    Restitution,
}

/// Number of colours tried before a constraint goes to the overflow colour (solved last).
pub(super) const COLOURS: usize = 64;
// `Solver::colour` keeps a body's colours in a `u64` and finds the overflow colour as the
// trailing zeros of an all-taken mask.
const _: () = assert!(COLOURS == u64::BITS as usize);
/// Manifolds have at most this many points.
pub(super) const MAX_POINTS: usize = 4;
