//! The ball-and-socket joint without limits, four joints of one colour at a time (one per
//! lane, as the contacts' bundles), in the solver's scaled coordinates.
//!
//! With the anchors `r_a`, `r_b` (from the centres of mass, world frame) and
//! `H = [r]×ᵀ·Uᵀ` (`U = Lᵀ`, `I⁻¹ = L·Lᵀ`), the point's relative velocity reads the scaled
//! angular velocities `w̃ = L⁻¹·w` directly, `Ċ = v_b − v_a + H_b·w̃_b − H_a·w̃_a`, an impulse
//! `λ` on B changes `w̃_b` by `H_bᵀ·λ`, and the block's mass matrix is
//! `K = (m_a + m_b)·1 + H_a·H_aᵀ + H_b·H_bᵀ` — consistent with the rows, so Gauss–Seidel on it
//! is stable however the anchors' directions weigh the inertia. The rows and `K` are made
//! again from the anchors as they are at the start of each substep (in its warm start): a
//! swinging chain keeps its joints twice as tight as with the step's. So is the position
//! error `C = C₀ + Δx_b − Δx_a + (r_b − r⁰_b) − (r_a − r⁰_a)`, with the anchors `r` of the
//! substep turned from the step's `r⁰` by the bodies' rotations
//! ([`turned`](super::rows::turned)): the biased pass comes before the substep moves the
//! bodies, so it reads the error the warm start left. A pass then costs a few 3 × 3 products
//! and no change of coordinates, where the general path (`kinds`) turns velocities to the
//! world frame and back.
//!
//! **Lanes.** A [`SocketBundle`] holds four joints of one colour (no two share a dynamic
//! body), stored by component, and a pass solves them lane by lane with the four-wide
//! arithmetic of `lanes`; an empty lane repeats lane 0's joint and writes nothing. A lane
//! sums what a one-joint scalar solve with nalgebra sums, in the same order, leaving out only
//! the products with an entry that is zero by construction (of `[r]×` and the triangular
//! `U`), so a joint gets the same result in any lane and beside any other joints: the tests
//! check every lane against such a scalar twin, bit for bit. A bundle's bodies are loaded
//! with one transpose per body array (the contacts' `velocity_lanes`), and its rows and
//! state are about a kilobyte per four joints, so a pass streams little memory per joint.

use super::constraint::factor;
use super::rows::{invert_mass, Ctx};
use super::JointResult;
use crate::body::Body;
use crate::joint::{Joint, JointImpulses, JointKind};
use crate::solver::body::BodyMass;
use crate::solver::lanes::{F4, LANES, M3W, M4, V4};
use crate::solver::params::Pass;
use crate::solver::shared::BodiesPtr;
use tumble_narrowphase::math::{Matrix, Real, Vector};

/// One ball-and-socket joint for one step, as a lane of a [`SocketBundle`] is made from it
/// (the default: between two static bodies of slot 0, a lane that moves nothing).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SocketJoint {
    /// The joint's slot in the world.
    pub joint: u32,
    /// Slots of its bodies A and B.
    pub slots: [u32; 2],
    /// Their inverse masses, 1/kg (0 unless dynamic).
    pub inv_mass: [Real; 2],
    /// Their `U = Lᵀ` (world frame at the step's start; the identity unless they spin).
    pub u: [Matrix; 2],
    /// Whether the solver scales and changes their angular velocities.
    pub spin: [bool; 2],
    /// The anchors at the start of the step, from the centres of mass, metres.
    pub ra0: Vector,
    pub rb0: Vector,
    /// `p_b − p_a` of the anchors at the start of the step, metres.
    pub c0: Vector,
    /// The accumulated impulse on B, N·s (warm-started from the last step).
    pub acc: Vector,
}

/// Whether a joint of kind `kind` is solved here: a ball-and-socket joint without limits.
pub(crate) fn plain(kind: &JointKind) -> bool {
    matches!(
        kind,
        JointKind::Spherical {
            cone: None,
            twist: None
        }
    )
}

impl SocketJoint {
    /// The socket of `joint` (slot `index`) between bodies `ba` (slot `sa`) and `bb`, with
    /// their solver masses `ma`, `mb`; `None` unless it is a ball-and-socket joint without
    /// limits.
    pub fn of(
        index: u32,
        joint: &Joint,
        ((sa, ba, ma), (sb, bb, mb)): ((u32, &Body, BodyMass), (u32, &Body, BodyMass)),
    ) -> Option<Self> {
        if !plain(&joint.kind) {
            return None;
        }
        let ra0 = ba.pose.rotation * (joint.anchor_a - ba.com_local);
        let rb0 = bb.pose.rotation * (joint.anchor_b - bb.com_local);
        let ((ua, ia), (ub, ib)) = (factor(&ma), factor(&mb));
        Some(Self {
            joint: index,
            slots: [sa, sb],
            inv_mass: [ia, ib],
            u: [ua, ub],
            spin: [ma.spin, mb.spin],
            ra0,
            rb0,
            c0: (mb.com() - ma.com()) + rb0 - ra0,
            acc: joint.impulses.linear,
        })
    }
}

/// Up to four ball-and-socket joints of one colour, one per lane.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SocketBundle {
    /// Body slots of each lane.
    a: [u32; LANES],
    b: [u32; LANES],
    /// Whether the lane's body A (B) is written back: a dynamic body of a live lane.
    write_a: [bool; LANES],
    write_b: [bool; LANES],
    /// Joint slot of each live lane.
    joint: [u32; LANES],
    /// Number of live lanes (1 to 4).
    len: u8,
    /// 1/kg, 0 for a body that is not dynamic.
    inv_mass_a: F4,
    inv_mass_b: F4,
    /// The lanes whose body's angular velocity the solver scales and changes.
    spin_a: M4,
    spin_b: M4,
    /// Whether every lane's two bodies spin (the masks above all true).
    spin_all: bool,
    /// `U` of each body (identity for a body the solver does not turn).
    u_a: M3W,
    u_b: M3W,
    /// The anchors at the start of the step, from the centres of mass, metres.
    ra0: V4,
    rb0: V4,
    /// `p_b − p_a` of the anchors at the start of the step, metres.
    c0: V4,
    /// The position error of the current substep before the bodies move in it, metres:
    /// `C = C₀ + Δx_b − Δx_a + (r_b − r⁰_b) − (r_a − r⁰_a)` (the solve pass comes before the
    /// substep's positions are integrated).
    c: V4,
    /// The rows of the current substep: `[r_a]×ᵀ·U_aᵀ` and `[r_b]×ᵀ·U_bᵀ` of its anchors.
    h_a: M3W,
    h_b: M3W,
    /// `K⁻¹` of the substep's rows, its upper triangle (`00, 01, 02, 11, 12, 22`).
    k_inv: [F4; 6],
    /// The accumulated impulse on B, N·s.
    acc: V4,
    /// Impulse applied to B over the step, N·s (its moment about B's centre of mass is
    /// `r⁰_b × pb_sum`: the anchor does not move within the step).
    pb_sum: V4,
}

impl SocketBundle {
    /// The bundle of `joints` (up to four; lanes beyond them repeat the first, or move
    /// nothing when there is none).
    pub fn new(joints: &[SocketJoint]) -> Self {
        debug_assert!(joints.len() <= LANES);
        let none = SocketJoint::default();
        let lane = |l: usize| joints.get(l).or(joints.first()).unwrap_or(&none);
        let live = |l: usize| l < joints.len();
        let mask =
            |f: &dyn Fn(&SocketJoint) -> bool| M4::from_array(std::array::from_fn(|l| f(lane(l))));
        let vec = |f: &dyn Fn(&SocketJoint) -> Vector| V4::from_lanes(|l| f(lane(l)));
        Self {
            a: std::array::from_fn(|l| lane(l).slots[0]),
            b: std::array::from_fn(|l| lane(l).slots[1]),
            write_a: std::array::from_fn(|l| live(l) && lane(l).inv_mass[0] > 0.0),
            write_b: std::array::from_fn(|l| live(l) && lane(l).inv_mass[1] > 0.0),
            joint: std::array::from_fn(|l| lane(l).joint),
            len: joints.len().min(LANES) as u8,
            inv_mass_a: F4::from_array(std::array::from_fn(|l| lane(l).inv_mass[0])),
            inv_mass_b: F4::from_array(std::array::from_fn(|l| lane(l).inv_mass[1])),
            spin_a: mask(&|j| j.spin[0]),
            spin_b: mask(&|j| j.spin[1]),
            spin_all: (0..LANES).all(|l| lane(l).spin[0] && lane(l).spin[1]),
            u_a: M3W::from_lanes(|l| lane(l).u[0]),
            u_b: M3W::from_lanes(|l| lane(l).u[1]),
            ra0: vec(&|j| j.ra0),
            rb0: vec(&|j| j.rb0),
            c0: vec(&|j| j.c0),
            c: vec(&|j| j.c0),
            h_a: M3W::default(),
            h_b: M3W::default(),
            k_inv: [F4::ZERO; 6],
            acc: vec(&|j| j.acc),
            pb_sum: V4::ZERO,
        }
    }

    /// The results of the live lanes: only the linear impulses of a socket are stored.
    pub fn results(&self) -> impl Iterator<Item = JointResult> + '_ {
        (0..self.len as usize).map(|l| {
            let impulse = self.pb_sum.lane(l);
            JointResult {
                joint: self.joint[l],
                imp: JointImpulses {
                    linear: self.acc.lane(l),
                    ..Default::default()
                },
                impulse,
                angular_impulse: self.rb0.lane(l).cross(&impulse),
            }
        })
    }

    /// The rows and position error of the substep that starts with the bodies moved by
    /// `xa`, `xb` and turned by the scaled rotation vectors `ta`, `tb` since the step's start:
    /// the anchors turned by the bodies' rotations `Uᵀ·Δθ̃` ([`turned`](super::rows::turned)), `H = −[r]×·Uᵀ`,
    /// `K⁻¹`, and `C`.
    /// `ALL` is `spin_all`.
    #[inline(always)]
    fn update_rows<const ALL: bool>(&mut self, (xa, ta): (&V4, &V4), (xb, tb): (&V4, &V4)) {
        let theta_a = spun::<ALL>(self.spin_a, upper_tr_mul(&self.u_a, ta), *ta);
        let theta_b = spun::<ALL>(self.spin_b, upper_tr_mul(&self.u_b, tb), *tb);
        let ra = turned_lanes(&theta_a, &self.ra0);
        let rb = turned_lanes(&theta_b, &self.rb0);
        self.c = self.c0 + (*xb - *xa) + (rb - self.rb0) - (ra - self.ra0);
        self.h_a = lever(&ra, &self.u_a);
        self.h_b = lever(&rb, &self.u_b);
        let s = self.inv_mass_a + self.inv_mass_b;
        let z = F4::ZERO;
        let mut k = [s, z, z, s, z, s];
        for (spin, h) in [(self.spin_a, &self.h_a), (self.spin_b, &self.h_b)] {
            let o = outer(h);
            for (k, o) in k.iter_mut().zip(o) {
                *k = if ALL { *k + o } else { spin.select(*k + o, *k) };
            }
        }
        self.k_inv = invert_mass_lanes(&k);
    }
}

/// `Uᵀ·v` for upper-triangular `U` (the entries below the diagonal are zero and not read).
#[inline(always)]
fn upper_tr_mul(u: &M3W, v: &V4) -> V4 {
    let m = &u.m;
    V4 {
        x: m[0][0] * v.x,
        y: m[0][1] * v.x + m[1][1] * v.y,
        z: m[0][2] * v.x + m[1][2] * v.y + m[2][2] * v.z,
    }
}

/// `H = −[r]×·Uᵀ` for upper-triangular `U`: entry `(i, j)` is `−Σₖ [r]×_ik·U_jk`, summed over
/// the `k` where neither factor is zero (`k ≠ i`, `k ≥ j`).
#[inline(always)]
fn lever(r: &V4, u: &M3W) -> M3W {
    let u = &u.m;
    // Rows of `[r]×`: (0, −z, y), (z, 0, −x), (−y, x, 0).
    let (x, y, z) = (r.x, r.y, r.z);
    M3W {
        m: [
            [
                z * u[0][1] - y * u[0][2],
                z * u[1][1] - y * u[1][2],
                -(y * u[2][2]),
            ],
            [x * u[0][2] - z * u[0][0], x * u[1][2], x * u[2][2]],
            [y * u[0][0] - x * u[0][1], -(x * u[1][1]), F4::ZERO],
        ],
    }
}

/// The upper triangle of `H·Hᵀ`: entries `00, 01, 02, 11, 12, 22`.
#[inline(always)]
fn outer(h: &M3W) -> [F4; 6] {
    let h = &h.m;
    let dot = |i: usize, j: usize| h[i][0] * h[j][0] + h[i][1] * h[j][1] + h[i][2] * h[j][2];
    [
        dot(0, 0),
        dot(0, 1),
        dot(0, 2),
        dot(1, 1),
        dot(1, 2),
        dot(2, 2),
    ]
}

/// [`turned`](super::rows::turned) in every lane: `v + s·(h × v + h × (h × v))`, `h = θ/2`,
/// `s = 2 / (1 + |h|²)`.
#[inline(always)]
fn turned_lanes(theta: &V4, v: &V4) -> V4 {
    let h = theta.scale(F4::splat(0.5));
    let s = F4::splat(2.0).div(F4::splat(1.0) + h.dot(&h));
    let hv = h.cross(v);
    *v + (hv + h.cross(&hv)).scale(s)
}

/// [`invert_mass`] in every lane of the symmetric matrix whose upper triangle is `k`
/// (entries `00, 01, 02, 11, 12, 22`): the adjugate over the determinant where that is well
/// conditioned and finite, the scalar eigen-decomposition in the (rare) other lanes; the
/// inverse's upper triangle.
#[inline(always)]
fn invert_mass_lanes(k: &[F4; 6]) -> [F4; 6] {
    let [a, b, c, d, e, f] = *k;
    let scale = (a + d + f).abs().max(F4::splat(Real::MIN_POSITIVE));
    let (c00, c01, c02) = (d * f - e * e, c * e - b * f, b * e - c * d);
    let det = a * c00 + b * c01 + c * c02;
    let inv = F4::splat(1.0).div(det);
    let (c11, c12, c22) = (a * f - c * c, b * c - a * e, a * d - b * b);
    let out = [c00, c01, c02, c11, c12, c22].map(|x| x * inv);
    let good = det.abs().gt(F4::splat(1e-9) * scale * scale * scale);
    // `x·0` is zero for a finite `x`, NaN for an infinite or NaN one.
    let finite = out
        .iter()
        .fold(good, |g, &x| g.and((x * F4::ZERO).eq(F4::ZERO)));
    if finite.all() {
        return out;
    }
    let ok = finite.select(F4::splat(1.0), F4::ZERO).to_array();
    let lanes: [[Real; 6]; LANES] = std::array::from_fn(|l| {
        let [a, b, c, d, e, f] = k.map(|x| x.to_array()[l]);
        if ok[l] == 1.0 {
            return out.map(|x| x.to_array()[l]);
        }
        let m = invert_mass(&Matrix::new(a, b, c, b, d, e, c, e, f));
        [
            m[(0, 0)],
            m[(0, 1)],
            m[(0, 2)],
            m[(1, 1)],
            m[(1, 2)],
            m[(2, 2)],
        ]
    });
    std::array::from_fn(|i| F4::from_array(lanes.map(|l| l[i])))
}

/// `K·v` for the symmetric `K` whose upper triangle is `k` (entries `00, 01, 02, 11, 12, 22`),
/// each row summed left to right.
#[inline(always)]
fn sym_mul(k: &[F4; 6], v: &V4) -> V4 {
    let [a, b, c, d, e, f] = *k;
    V4 {
        x: a * v.x + b * v.y + c * v.z,
        y: b * v.x + d * v.y + e * v.z,
        z: c * v.x + e * v.y + f * v.z,
    }
}

/// The bias vector of position error `c` in a pass with bias: `c` times the joints' bias
/// rate, its length within `max_push` ([`Ctx::rigid_vec`] in every lane).
#[inline(always)]
fn bias_lanes(c: &V4, bias_rate: F4, max_push: F4) -> V4 {
    let bias = c.scale(bias_rate);
    let n = bias.dot(&bias).sqrt();
    let capped = bias.scale(max_push.div(n));
    V4::select(n.gt(max_push), capped, bias)
}

/// One pass over the socket bundles `bundles`: warm start (the substep's rows, then the
/// accumulated impulses), solve (with the soft push-back of the position error) or relax.
///
/// # Safety
/// Every body slot the bundles name is below the length of the arrays behind `bodies` and
/// `deltas`; during the call no one else reads or writes the dynamic bodies these joints name,
/// or writes any body they name or any delta (the bundles' joints are of one colour, or one
/// bundle of the overflow colour at a time; the deltas change only in the per-body stages).
pub(crate) unsafe fn solve_sockets(
    bundles: &mut [SocketBundle],
    bodies: BodiesPtr,
    deltas: BodiesPtr,
    ctx: &Ctx,
) {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        match ctx.pass {
            Pass::WarmStart => pass::<WARM>(bundles, bodies, deltas, ctx),
            Pass::Solve => pass::<SOLVE>(bundles, bodies, deltas, ctx),
            Pass::Relax => pass::<RELAX>(bundles, bodies, deltas, ctx),
            Pass::Restitution => {}
        }
    }
}

/// The passes of [`solve_sockets`], as constants (each pass is its own loop).
const WARM: u8 = 0;
const SOLVE: u8 = 1;
const RELAX: u8 = 2;

/// Pass `P` over `bundles` ([`solve_sockets`]).
///
/// # Safety
/// As for [`solve_sockets`].
#[inline(never)]
unsafe fn pass<const P: u8>(
    bundles: &mut [SocketBundle],
    bodies: BodiesPtr,
    deltas: BodiesPtr,
    ctx: &Ctx,
) {
    let c = PassConsts {
        bias_rate: F4::splat(ctx.soft.bias_rate),
        max_push: F4::splat(ctx.max_push),
        mass_scale: F4::splat(ctx.soft.mass_scale),
        impulse_scale: F4::splat(ctx.soft.impulse_scale),
    };
    for s in bundles {
        // SAFETY: the caller's contract, passed on.
        unsafe {
            match s.spin_all {
                true => one::<P, true>(s, bodies, deltas, &c),
                false => one::<P, false>(s, bodies, deltas, &c),
            }
        }
    }
}

/// What a pass's bundles share: the joints' softness and push-out cap, in every lane.
struct PassConsts {
    bias_rate: F4,
    max_push: F4,
    mass_scale: F4,
    impulse_scale: F4,
}

/// `a` in the lanes of `mask`, `b` elsewhere; `a` when `ALL` (every lane in the mask).
#[inline(always)]
fn spun<const ALL: bool>(mask: M4, a: V4, b: V4) -> V4 {
    if ALL {
        a
    } else {
        V4::select(mask, a, b)
    }
}

/// Pass `P` of one bundle `s` ([`solve_sockets`]); `ALL` is its `spin_all`.
///
/// # Safety
/// As for [`solve_sockets`].
#[inline(always)]
unsafe fn one<const P: u8, const ALL: bool>(
    s: &mut SocketBundle,
    bodies: BodiesPtr,
    deltas: BodiesPtr,
    c: &PassConsts,
) {
    // SAFETY (all four loads): the caller's contract: the slots are in bounds and no one
    // writes these bodies or the deltas meanwhile.
    let ((va, wa), (vb, wb)) = unsafe { (bodies.lanes(&s.a), bodies.lanes(&s.b)) };
    let lambda = if P == WARM {
        let ((xa, ta), (xb, tb)) = unsafe { (deltas.lanes(&s.a), deltas.lanes(&s.b)) };
        s.update_rows::<ALL>((&xa, &ta), (&xb, &tb));
        s.acc
    } else {
        let cdot = vb - va + s.h_b.mul_vec(&wb) - s.h_a.mul_vec(&wa);
        let lambda = if P == SOLVE {
            let bias = bias_lanes(&s.c, c.bias_rate, c.max_push);
            let k = sym_mul(&s.k_inv, &(cdot + bias));
            V4::ZERO - k.scale(c.mass_scale) - s.acc.scale(c.impulse_scale)
        } else {
            V4::ZERO - sym_mul(&s.k_inv, &cdot)
        };
        s.acc = s.acc + lambda;
        lambda
    };
    let va = va - lambda.scale(s.inv_mass_a);
    let wa = spun::<ALL>(s.spin_a, wa - s.h_a.tr_mul_vec(&lambda), wa);
    let vb = vb + lambda.scale(s.inv_mass_b);
    let wb = spun::<ALL>(s.spin_b, wb + s.h_b.tr_mul_vec(&lambda), wb);
    s.pb_sum = s.pb_sum + lambda;
    // SAFETY: the written bodies are this bundle's dynamic bodies (the caller's contract).
    unsafe {
        bodies.write_lanes(&s.a, &s.write_a, &va, &wa);
        bodies.write_lanes(&s.b, &s.write_b, &vb, &wb);
    }
}

#[cfg(test)]
mod tests;
