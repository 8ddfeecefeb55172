//! Unit tests of the solver's parts.

use super::body::{cholesky_upper, mat_mul, mat_vec};
use super::bundle::{tangent_basis, NO_PAIR};
use super::lanes::V4;
use super::*;
use crate::material::Material;
use tumble_narrowphase::math::Matrix;

/// The step parameters of the solver tests: 60 Hz in four substeps, contact softness 30 Hz with damping
/// ratio 10, 5 mm allowed penetration, push-out at most 3 m/s, restitution above 1 m/s.
fn test_params() -> SolverParams {
    let h = 1.0 / 240.0;
    SolverParams {
        h,
        inv_h: 1.0 / h,
        substeps: 4,
        iterations: 1,
        relax_iterations: 1,
        restitution_iterations: 1,
        soft: Softness::new(30.0, 10.0, h),
        static_soft: Softness::new(60.0, 10.0, h),
        joint_soft: Softness::new(60.0, 2.0, h),
        allowed_penetration: 0.005,
        max_push: 3.0,
        restitution_threshold: 1.0,
    }
}

#[test]
fn tangent_basis_is_orthonormal() {
    let dirs = [
        Vector::x(),
        Vector::y(),
        Vector::z(),
        -Vector::z(),
        Vector::new(1.0, 2.0, -3.0).normalize(),
        Vector::new(-0.3, 0.1, -0.9).normalize(),
    ];
    for n in dirs {
        let [t1, t2] = tangent_basis(&n);
        assert!((t1.norm() - 1.0).abs() < 1e-5);
        assert!((t2.norm() - 1.0).abs() < 1e-5);
        assert!(t1.dot(&n).abs() < 1e-5 && t2.dot(&n).abs() < 1e-5 && t1.dot(&t2).abs() < 1e-5);
    }
}

/// The lanes' tangents are the scalar ones bit for bit, awkward normals included.
#[test]
fn tangent_lanes_match_tangent_basis() {
    let mut normals = vec![
        Vector::x(),
        -Vector::y(),
        Vector::z(),
        -Vector::z(),
        Vector::new(0.0, 0.0, -0.0),
        Vector::new(-0.0, 0.0, 0.0),
        Vector::zeros(),
        Vector::new(Real::NAN, 0.5, -0.5),
        Vector::new(0.3, Real::NAN, 1.0),
        Vector::new(1.0e-20, -1.0e-20, -1.0),
        Vector::new(0.0, 1.0e-45, -1.0),
    ];
    for i in 0..200 {
        let t = i as Real * 0.37;
        normals.push(Vector::new(t.sin() * t.cos(), t.cos(), (3.0 * t).sin()).normalize());
    }
    for four in normals.chunks(LANES) {
        let n = V4::from_lanes(|l| four.get(l).copied().unwrap_or_else(Vector::zeros));
        let lanes = tangent_lanes(&n);
        for (l, n) in four.iter().enumerate() {
            let scalar = tangent_basis(n);
            for i in 0..2 {
                let (x, y) = (lanes[i].lane(l), scalar[i]);
                let same = x
                    .iter()
                    .zip(y.iter())
                    .all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "{n:?}: {x:?} vs {y:?}");
            }
        }
    }
}

#[test]
fn written_out_products_match_nalgebra() {
    let m = Matrix::new(1.5, -0.25, 3.0, 0.125, 2.0, -7.5, 0.3, 0.7, -1.1);
    let r = tumble_narrowphase::math::Rotation::from_euler_angles(0.3, -1.2, 2.0)
        .to_rotation_matrix()
        .into_inner();
    let v = Vector::new(0.2, -3.0, 1.7);
    assert_eq!(mat_vec(&m, &v), m * v);
    assert_eq!(mat_mul(&m, &r), m * r);
    assert_eq!(rotate_tensor(&r, &m), r * m * r.transpose());
}

/// Two bodies of 10³⁸ kg meeting at 100 m/s with 50 m/s of slip: without the effective
/// mass cap the rows' masses (~10³⁸ kg) times those speeds overflow; with it every impulse
/// and velocity stays finite.
#[test]
fn very_heavy_bodies_make_finite_impulses() {
    use crate::contact::PointImpulse;
    use tumble_narrowphase::contact::{ContactPoint, Manifold};
    let heavy = |at: Vector| {
        BodyMass::new(
            1.0e-38,
            &(Matrix::identity() * 1.0e-38),
            &at,
            &Material::new(1.0, 0.5, 0.5).unwrap(),
            true,
        )
    };
    let mut solver = Solver {
        masses: vec![heavy(Vector::zeros()), heavy(Vector::new(0.0, 1.0, 0.0))],
        ..Solver::default()
    };
    let mut bodies = vec![
        SolverBody::new(Vector::new(50.0, 50.0, 0.0), Vector::zeros()),
        SolverBody::new(Vector::new(0.0, -50.0, 0.0), Vector::new(0.0, 0.0, 3.0)),
        SolverBody::ZERO,
    ];
    let mut manifold = Manifold::new(Vector::y());
    for x in [-0.5, 0.5] {
        manifold.push(ContactPoint {
            point: tumble_narrowphase::math::Point::new(x, 0.5, 0.2),
            depth: 0.01,
            id: x.to_bits(),
        });
    }
    let pair = ContactPair {
        a: crate::handle::BodyHandle::new(0, 0),
        b: crate::handle::BodyHandle::new(1, 0),
        manifold,
        impulses: [PointImpulse::default(); 4],
        touching: true,
    };
    solver.colour(std::slice::from_ref(&pair), 2, |_| true);
    solver.build(&[pair], &bodies, &[SolverBody::ZERO; 3], 1.0, 2);
    let p = test_params();
    let mut accel = vec![SolverBody::ZERO; bodies.len()];
    let mut deltas = vec![SolverBody::ZERO; bodies.len()];
    solver.solve(&mut bodies, &mut accel, &mut deltas, &p);
    let mut seen = [0usize];
    solver.store_results(&mut seen, |seen, _, r| {
        *seen += 1;
        assert!(r.normal.is_finite() && r.normal > 0.0, "{r:?}");
        assert!(r.tangent.iter().all(|t| t.is_finite()), "{r:?}");
    });
    assert_eq!(seen, [2]);
    for b in &bodies {
        assert!(b.v().iter().chain(b.w().iter()).all(|x| x.is_finite()));
    }
}

/// A hub body touched by more constraints than there are colours: the last ones share it
/// in the overflow colour, which must be solved one bundle at a time (never two in
/// lockstep, which would lose one's write to the hub). Every impulse is equal and opposite
/// between bodies of equal mass, so the total linear momentum must not change.
#[test]
fn overflow_colour_conserves_momentum() {
    use crate::contact::PointImpulse;
    use tumble_narrowphase::contact::{ContactPoint, Manifold};
    let spokes = COLOURS + 9;
    let n = spokes + 1;
    let at = |i: usize| Vector::new(i as Real * 0.1, if i == 0 { 0.0 } else { 1.0 }, 0.0);
    let mut solver = Solver {
        masses: (0..n)
            .map(|i| {
                BodyMass::new(
                    1.0,
                    &Matrix::identity(),
                    &at(i),
                    &Material::new(1.0, 0.5, 0.0).unwrap(),
                    true,
                )
            })
            .collect(),
        ..Solver::default()
    };
    let mut bodies: Vec<SolverBody> = (0..n)
        .map(|i| {
            // Faster and faster, so that the overflow's spokes still push the hub.
            let v = -0.01 * (i * i) as Real;
            SolverBody::new(Vector::new(0.02 * i as Real, v, 0.0), Vector::zeros())
        })
        .collect();
    bodies.push(SolverBody::ZERO);
    let pairs: Vec<ContactPair> = (1..n)
        .map(|i| {
            let mut manifold = Manifold::new(Vector::y());
            manifold.push(ContactPoint {
                point: tumble_narrowphase::math::Point::new(i as Real * 0.1, 0.5, 0.0),
                depth: 0.01,
                id: 0,
            });
            ContactPair {
                a: crate::handle::BodyHandle::new(0, 0),
                b: crate::handle::BodyHandle::new(i as u32, 0),
                manifold,
                impulses: [PointImpulse::default(); 4],
                touching: true,
            }
        })
        .collect();
    let momentum = |b: &[SolverBody]| b[..n].iter().fold(Vector::zeros(), |m, b| m + b.v());
    let before = momentum(&bodies);
    let scale: Real = bodies.iter().map(|b| b.v().norm()).sum();
    solver.colour(&pairs, n, |_| true);
    let overflow =
        solver.colouring.bundle_starts[COLOURS + 1] - solver.colouring.bundle_starts[COLOURS];
    assert_eq!(overflow, spokes - COLOURS);
    let accel = vec![SolverBody::ZERO; bodies.len()];
    solver.build(&pairs, &bodies, &accel, 1.0, n as u32);
    let p = test_params();
    let mut accel = vec![SolverBody::ZERO; bodies.len()];
    let mut deltas = vec![SolverBody::ZERO; bodies.len()];
    solver.solve(&mut bodies, &mut accel, &mut deltas, &p);
    let after = momentum(&bodies);
    assert!(
        (after - before).norm() < 1e-5 * scale,
        "{before} -> {after}"
    );
    // The spokes pushed the hub away.
    assert!(bodies[0].v().y < -0.5, "{:?}", bodies[0].v());
}

/// The factor reproduces the inverse inertia (`L·Lᵀ = I⁻¹`), the rows read through it
/// are the ones through the inverse inertia, and scaling angular velocities round-trips.
#[test]
fn inertia_factor_reproduces_the_tensor() {
    let r = tumble_narrowphase::math::Rotation::from_euler_angles(0.7, -0.4, 2.2)
        .to_rotation_matrix()
        .into_inner();
    let local = Matrix::from_diagonal(&Vector::new(2.0, 0.05, 30.0));
    let world = rotate_tensor(&r, &local);
    let m = BodyMass::new(
        1.0,
        &world,
        &Vector::zeros(),
        &Material::new(1.0, 0.5, 0.0).unwrap(),
        true,
    );
    assert!(m.spin);
    let u = Matrix::from_fn(|i, j| m.rows[i][j]);
    assert_eq!(u.lower_triangle(), Matrix::from_diagonal(&u.diagonal()));
    let back = u.transpose() * u;
    assert!(
        (back - world).norm() < 1e-5 * world.norm(),
        "{back} vs {world}"
    );
    let (rv, d) = (Vector::new(0.3, -0.2, 0.9), Vector::new(0.0, 0.6, 0.8));
    let c = rv.cross(&d);
    let through = c.dot(&(world * c));
    assert!(((u * c).norm_squared() - through).abs() < 1e-5 * through);
    let w = [1.5, -4.0, 0.25, 0.0];
    let round = m.unscale_angular(m.scale_angular(w));
    for i in 0..3 {
        assert!((round[i] - w[i]).abs() < 1e-5, "{round:?} vs {w:?}");
    }
    // Bodies that do not spin keep their angular velocity as it is.
    let fixed = BodyMass::new(
        0.0,
        &Matrix::zeros(),
        &Vector::zeros(),
        &Material::new(1.0, 0.5, 0.0).unwrap(),
        false,
    );
    assert!(!fixed.spin);
    assert_eq!(fixed.scale_angular(w), w);
    assert_eq!(fixed.unscale_angular(w), w);
    // No usable factor: the body keeps its linear response only.
    let bad = BodyMass::new(
        1.0,
        &Matrix::zeros(),
        &Vector::zeros(),
        &Material::new(1.0, 0.5, 0.0).unwrap(),
        true,
    );
    assert!(!bad.spin && bad.dynamic);
    assert!(cholesky_upper(&Matrix::from_element(Real::NAN)).is_none());
}

proptest::proptest! {
    /// Against a brute-force greedy colouring: every pair sits in one lane of one bundle of
    /// the colour the oracle gives it (the lowest colour free on its dynamic bodies, or the
    /// overflow), with its point count, and no two pairs of one colour (but the overflow)
    /// share a dynamic body.
    #[test]
    fn colour_matches_greedy_oracle(
        dynamic in proptest::collection::vec(proptest::bool::ANY, 2..8),
        pairs in proptest::collection::vec((0u32..8, 0u32..8, 1usize..=4), 0..300),
    ) {
        use crate::contact::PointImpulse;
        use tumble_narrowphase::contact::{ContactPoint, Manifold};
        let n = dynamic.len() as u32;
        let contacts: Vec<ContactPair> = pairs
            .iter()
            .map(|&(a, b, len)| {
                let mut manifold = Manifold::new(Vector::y());
                for k in 0..len {
                    manifold.push(ContactPoint {
                        point: tumble_narrowphase::math::Point::new(k as Real, 0.0, 0.0),
                        depth: 0.01,
                        id: k as u32,
                    });
                }
                ContactPair {
                    // Two different bodies.
                    a: crate::handle::BodyHandle::new(a % n, 0),
                    b: crate::handle::BodyHandle::new((a % n + 1 + b % (n - 1)) % n, 0),
                    manifold,
                    impulses: [PointImpulse::default(); 4],
                    touching: true,
                }
            })
            .collect();
        let mut solver = Solver::default();
        solver.colour(&contacts, n as usize, |slot| dynamic[slot as usize]);
        // The oracle.
        let mut masks = vec![0u64; n as usize];
        let expected: Vec<usize> = contacts
            .iter()
            .map(|c| {
                let bodies = [c.a.index() as usize, c.b.index() as usize];
                let written = bodies.iter().filter(|&&i| dynamic[i]);
                let taken = written.clone().fold(0, |m, &i| m | masks[i]);
                let colour = (0..COLOURS).find(|&c| taken & 1 << c == 0).unwrap_or(COLOURS);
                if colour < COLOURS {
                    written.for_each(|&i| masks[i] |= 1 << colour);
                }
                colour
            })
            .collect();
        let mut seen = vec![0; contacts.len()];
        for colour in 0..=COLOURS {
            let heads = &solver.colouring.heads[solver.colouring.bundle_starts[colour]..solver.colouring.bundle_starts[colour + 1]];
            let mut used = vec![false; n as usize];
            for head in heads {
                for (l, &pair) in head.pair.iter().enumerate().filter(|(_, &p)| p != NO_PAIR) {
                    let (pair, c) = (pair as usize, &contacts[pair as usize]);
                    seen[pair] += 1;
                    proptest::prop_assert_eq!(expected[pair], colour);
                    proptest::prop_assert_eq!(head.lens[l] as usize, c.manifold.len());
                    if colour < COLOURS {
                        for i in [c.a.index() as usize, c.b.index() as usize] {
                            if dynamic[i] {
                                proptest::prop_assert!(!used[i], "body {} twice in colour {}", i, colour);
                                used[i] = true;
                            }
                        }
                    }
                }
            }
        }
        proptest::prop_assert!(seen.iter().all(|&k| k == 1));
    }
}

#[test]
fn softness_limits() {
    let s = Softness::new(30.0, 10.0, 1.0 / 60.0);
    assert!(s.mass_scale > 0.0 && s.mass_scale < 1.0);
    assert!(s.impulse_scale > 0.0 && s.impulse_scale < 1.0);
    assert!((s.mass_scale + s.impulse_scale - 1.0).abs() < 1e-6);
    let rigid = Softness::new(0.0, 1.0, 0.1);
    assert_eq!(rigid.mass_scale, 1.0);
}
