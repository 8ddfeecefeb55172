//! The wide socket pass against a one-joint scalar twin (the same formulas with nalgebra's
//! operations), bit for bit in every lane.

use super::*;
use crate::solver::body::SolverBody;
use crate::solver::joints::rows::{turned, JointBody};
use crate::solver::params::Softness;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::math::Matrix;

/// One socket solved on its own, with nalgebra's vectors and matrices, on its bodies as the
/// general joints hold them.
struct Scalar {
    j: SocketJoint,
    a: JointBody,
    b: JointBody,
    ra: Vector,
    rb: Vector,
    h_a: Matrix,
    h_b: Matrix,
    k_inv: Matrix,
    acc: Vector,
    pb_sum: Vector,
    tb_sum: Vector,
}

fn lever(body: &JointBody, r: &Vector) -> Matrix {
    -(r.cross_matrix() * body.u.transpose())
}

impl Scalar {
    fn new(j: SocketJoint) -> Self {
        let end = |i: usize| JointBody {
            slot: j.slots[i],
            inv_mass: j.inv_mass[i],
            inv_inertia: j.u[i].transpose() * j.u[i],
            u: j.u[i],
            spin: j.spin[i],
        };
        Self {
            j,
            a: end(0),
            b: end(1),
            ra: j.ra0,
            rb: j.rb0,
            h_a: Matrix::zeros(),
            h_b: Matrix::zeros(),
            k_inv: Matrix::zeros(),
            acc: j.acc,
            pb_sum: Vector::zeros(),
            tb_sum: Vector::zeros(),
        }
    }

    fn pass(&mut self, bodies: &mut [SolverBody], deltas: &[SolverBody], ctx: &Ctx) {
        let (a, b) = (self.a, self.b);
        let (mut ba, mut bb) = (bodies[a.slot as usize], bodies[b.slot as usize]);
        let (da, db) = (deltas[a.slot as usize], deltas[b.slot as usize]);
        let (wa, wb) = (ba.w(), bb.w());
        let lambda = if ctx.pass == Pass::WarmStart {
            self.ra = turned(&a.unscale(da.w()), &self.j.ra0);
            self.rb = turned(&b.unscale(db.w()), &self.j.rb0);
            self.h_a = lever(&a, &self.ra);
            self.h_b = lever(&b, &self.rb);
            let mut k = Matrix::identity() * (a.inv_mass + b.inv_mass);
            if a.spin {
                k += self.h_a * self.h_a.transpose();
            }
            if b.spin {
                k += self.h_b * self.h_b.transpose();
            }
            self.k_inv = invert_mass(&k);
            self.acc
        } else {
            let cdot = bb.v() - ba.v() + self.h_b * wb - self.h_a * wa;
            let (bias, ms, is) = if ctx.pass == Pass::Solve {
                let c =
                    self.j.c0 + (db.v() - da.v()) + (self.rb - self.j.rb0) - (self.ra - self.j.ra0);
                ctx.rigid_vec(&c)
            } else {
                (Vector::zeros(), 1.0, 0.0)
            };
            let lambda = -(self.k_inv * (cdot + bias)) * ms - self.acc * is;
            self.acc += lambda;
            lambda
        };
        if a.inv_mass > 0.0 {
            let v = ba.v() - lambda * a.inv_mass;
            ba.lin[..3].copy_from_slice(v.as_slice());
            if a.spin {
                let w = wa - self.h_a.tr_mul(&lambda);
                ba.ang[..3].copy_from_slice(w.as_slice());
            }
            bodies[a.slot as usize] = ba;
        }
        if b.inv_mass > 0.0 {
            let v = bb.v() + lambda * b.inv_mass;
            bb.lin[..3].copy_from_slice(v.as_slice());
            if b.spin {
                let w = wb + self.h_b.tr_mul(&lambda);
                bb.ang[..3].copy_from_slice(w.as_slice());
            }
            bodies[b.slot as usize] = bb;
        }
        self.pb_sum += lambda;
        self.tb_sum = self.j.rb0.cross(&self.pb_sum);
    }
}

fn vector(rng: &mut ChaCha8Rng, scale: Real) -> Vector {
    Vector::from_fn(|_, _| rng.gen_range(-scale..scale))
}

fn body(rng: &mut ChaCha8Rng, scale: Real) -> SolverBody {
    let (v, w) = (vector(rng, scale), vector(rng, scale));
    SolverBody {
        lin: [v.x, v.y, v.z, 0.0],
        ang: [w.x, w.y, w.z, 0.0],
    }
}

/// A joint body of slot `slot`: static (`None`), or dynamic and spinning or not.
fn joint_body(rng: &mut ChaCha8Rng, slot: u32, kind: Option<bool>) -> JointBody {
    let Some(spin) = kind else {
        return JointBody {
            slot,
            inv_mass: 0.0,
            inv_inertia: Matrix::zeros(),
            u: Matrix::identity(),
            spin: false,
        };
    };
    // Now and then a body so heavy that the point block's mass matrix underflows: the lane
    // then takes the scalar eigen-decomposition.
    let inv_mass = if rng.gen_bool(0.05) {
        1e-30
    } else {
        rng.gen_range(0.01..20.0)
    };
    if !spin {
        return JointBody {
            slot,
            inv_mass,
            inv_inertia: Matrix::zeros(),
            u: Matrix::identity(),
            spin,
        };
    }
    // An upper-triangular `U` with a positive diagonal, as the Cholesky factor gives.
    let mut u = Matrix::from_fn(|i, j| match i.cmp(&j) {
        std::cmp::Ordering::Greater => 0.0,
        std::cmp::Ordering::Equal => rng.gen_range(0.1..30.0),
        std::cmp::Ordering::Less => rng.gen_range(-5.0..5.0),
    });
    if rng.gen_bool(0.1) {
        u[(2, 2)] = 1e-20; // nearly singular about one axis
    }
    if inv_mass < 1e-20 {
        u *= 1e-20;
    }
    JointBody {
        slot,
        inv_mass,
        inv_inertia: u.transpose() * u,
        u,
        spin,
    }
}

fn ctx(pass: Pass, max_push: Real) -> Ctx {
    let h = 1.0 / 240.0;
    Ctx {
        pass,
        inv_h: 1.0 / h,
        h,
        soft: Softness::new(60.0, 5.0, h),
        max_push,
    }
}

#[test]
fn every_lane_matches_the_scalar_socket_bit_for_bit() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for case in 0..2000 {
        let n = 1 + case % LANES;
        // Body 0 is static and shared; each joint has its own dynamic bodies.
        let bodies_n = 1 + 2 * n;
        let scale = if case % 7 == 0 { 100.0 } else { 2.0 };
        let mut bodies: Vec<SolverBody> = (0..bodies_n).map(|_| body(&mut rng, scale)).collect();
        let deltas: Vec<SolverBody> = (0..bodies_n).map(|_| body(&mut rng, 0.3)).collect();
        let joints: Vec<SocketJoint> = (0..n)
            .map(|l| {
                let (sa, sb) = (1 + 2 * l as u32, 2 + 2 * l as u32);
                // Every third case has only spinning bodies (the bundle's `spin_all` path).
                let kind = |rng: &mut ChaCha8Rng| match rng.gen_range(0..4) {
                    _ if case % 3 == 1 => Some(true),
                    0 => None,
                    1 => Some(false),
                    _ => Some(true),
                };
                let ka = kind(&mut rng);
                let kb = if ka.is_none() {
                    Some(true)
                } else {
                    kind(&mut rng)
                };
                let a = joint_body(&mut rng, if ka.is_none() { 0 } else { sa }, ka);
                let b = joint_body(&mut rng, if kb.is_none() { 0 } else { sb }, kb);
                SocketJoint {
                    joint: 10 + l as u32,
                    slots: [a.slot, b.slot],
                    inv_mass: [a.inv_mass, b.inv_mass],
                    u: [a.u, b.u],
                    spin: [a.spin, b.spin],
                    ra0: vector(&mut rng, 1.0),
                    rb0: vector(&mut rng, 1.0),
                    c0: vector(&mut rng, 0.05),
                    acc: vector(&mut rng, 0.5),
                }
            })
            .collect();
        let mut scalar: Vec<Scalar> = joints.iter().map(|&j| Scalar::new(j)).collect();
        let mut bundle = [SocketBundle::new(&joints)];
        let mut wide = bodies.clone();
        let max_push = if case % 3 == 0 { 0.01 } else { 3.0 };
        for pass in [
            Pass::WarmStart,
            Pass::Solve,
            Pass::Solve,
            Pass::Relax,
            Pass::Relax,
        ] {
            let c = ctx(pass, max_push);
            for s in &mut scalar {
                s.pass(&mut bodies, &deltas, &c);
            }
            let mut d = deltas.clone();
            // SAFETY: the arrays hold every slot the bundle names, and nothing else runs.
            unsafe {
                solve_sockets(
                    &mut bundle,
                    BodiesPtr(wide.as_mut_ptr()),
                    BodiesPtr(d.as_mut_ptr()),
                    &c,
                )
            };
            let bits = |b: &[SolverBody]| -> Vec<u32> {
                b.iter()
                    .flat_map(|b| b.lin.iter().chain(&b.ang).map(|x| x.to_bits()))
                    .collect()
            };
            assert_eq!(bits(&bodies), bits(&wide), "case {case}, {pass:?}");
        }
        let results: Vec<JointResult> = bundle[0].results().collect();
        assert_eq!(results.len(), n);
        for (s, r) in scalar.iter().zip(&results) {
            assert_eq!(r.joint, s.j.joint);
            let bits = |v: &Vector| v.map(|x| x.to_bits());
            assert_eq!(bits(&r.imp.linear), bits(&s.acc), "case {case}");
            assert_eq!(bits(&r.impulse), bits(&s.pb_sum), "case {case}");
            assert_eq!(bits(&r.angular_impulse), bits(&s.tb_sum), "case {case}");
        }
    }
}
