//! Poses on lanes for the SAT kernels: the pose of one box in the other's frame and its
//! rotation matrix, computed on three lanes ([`Lanes`], from [`crate::simd`], the crate's one
//! SIMD module) and generic over the backend, so each kernel's tests can compare the SSE and
//! scalar backends. Plain arithmetic on lanes, no `unsafe`.

use crate::math::Isometry;
use crate::simd::Lanes;

/// The pose of B in A's frame, `A⁻¹ B`, all on lanes: the relative quaternion's vector part
/// `s = w_a v_b − w_b v_a − v_a × v_b` (lanes x, y, z), its scalar part
/// `w = w_a w_b + v_a · v_b` in every lane (summed as [`Lanes::rotation_dot`] does), and the
/// translation `t = conj(q_a) (t_b − t_a)` by Rodrigues' form for a unit quaternion, summed as
/// `(d − 2 w_a c) + v_a × 2c` with `d = t_b − t_a`, `2c = v_a × 2d` (the late operand last).
#[inline(always)]
pub(crate) fn relative_pose<L: Lanes>(pose_a: &Isometry, pose_b: &Isometry) -> (L, L, L) {
    let (qa, qb) = (&pose_a.rotation, &pose_b.rotation);
    let va = L::new_w(qa.i, qa.j, qa.k, qa.w);
    let vb = L::new_w(qb.i, qb.j, qb.k, qb.w);
    let wa = L::splat(qa.w);
    let s = wa.mul(vb).sub(L::splat(qb.w).mul(va)).sub(va.cross(vb));
    let d = L::translation_difference(pose_a, pose_b);
    let c2 = va.cross(d.add(d));
    let t = d.sub(wa.mul(c2)).add(va.cross(c2));
    (s, L::rotation_dot(pose_a, pose_b), t)
}

/// Three wrapped diagonals of the rotation matrix `R` of the unit quaternion `(s, w)` (vector
/// part in lanes, `w` in every lane), chosen for a kernel that needs `R` both by rows and by
/// columns:
/// `[d, p, c]` with lane `r` holding `R[r][r]`, `R[r][r+1]` and `R[r+1][r]` (indices mod 3).
/// The other two wrapped diagonals are lane rotations of these: `R[r][r+2] = c.next2()` and
/// `R[r+2][r] = p.next2()`. `p` and `c` share their products: with
/// `A = s · (2s).next1()` (`A[r] = 2 s_r s_{r+1}`) and `B = w (2s).next2()`, `p = A − B`
/// and `c = A + B` (`R = (w² − |s|²) I + 2 s sᵀ + 2w[s]×`, whose antisymmetric part flips
/// sign under transposition), and `d = (s · 2s − 1) + w · 2w` (`|s|² + w² = 1`).
///
/// Bit for bit the values of [`scaled_rotation_diagonals`] with `k = 1`: its `p` is this `p`,
/// its `d` this `d`, and its `q = s · (2s).next2() + w (2s).next1()` is this `c.next2()`,
/// because `s_r · (2 s_{r+2})` and `s_{r+2} · (2 s_r)` are both `2 s_r s_{r+2}` correctly
/// rounded (doubling is exact). Costs two products and one lane permutation fewer than that
/// function plus the permutations that would give its transposed diagonals.
#[inline(always)]
pub(crate) fn rotation_rows_and_columns<L: Lanes>(s: L, w: L) -> [L; 3] {
    let s2 = s.add(s);
    let a = s.mul(s2.next1());
    let b = w.mul(s2.next2());
    let d = s.mul(s2).sub(L::splat(1.0)).add(w.mul(w.add(w)));
    [d, a.sub(b), a.add(b)]
}

/// The rotation matrix `R` of the unit quaternion `(s, w)` (vector part in lanes, `w` in every
/// lane), row `r` scaled by lane `r` of `k`, as the three wrapped diagonals `[d, p, q]` of
/// `diag(k) R`: lane `r` of `d`, `p`, `q` holds `kᵣ R[r][r]`, `kᵣ R[r][r+1]`, `kᵣ R[r][r+2]`
/// (indices mod 3), so that `R v = d v + p v.next1() + q v.next2()` ([`transform_diagonals`])
/// takes no shuffle of `R`. From `R = (w² − |s|²) I + 2 s sᵀ + 2w[s]×` and `|s|² + w² = 1`:
/// `d = (s k · 2s − k) + w k · 2w`, `p = s k · (2s).next1() − w k (2s).next2()`,
/// `q = s k · (2s).next2() + w k (2s).next1()` (a kernel that works on a box scaled to the
/// unit box gets its corners scaled at the cost of two products; `s k` is ready as soon as
/// `(2s).next1()` is). `w` arrives before `s` (it takes fewer steps), so `w k · 2w` is ready
/// when `s k · 2s − k` is, and no step of `d` permutes lanes.
#[inline(always)]
pub(crate) fn scaled_rotation_diagonals<L: Lanes>(s: L, w: L, k: L) -> [L; 3] {
    let s2 = s.add(s);
    let (s2n1, s2n2) = (s2.next1(), s2.next2());
    let (sk, wk) = (s.mul(k), w.mul(k));
    let d = sk.mul(s2).sub(k).add(wk.mul(w.add(w)));
    let p = sk.mul(s2n1).sub(wk.mul(s2n2));
    let q = sk.mul(s2n2).add(wk.mul(s2n1));
    [d, p, q]
}

/// `R v + t` for `R` given by [`scaled_rotation_diagonals`] and `v`, `t` in lanes x, y, z, summed as
/// `(p v.next1() + q v.next2()) + (d v + t)` (two sums deep after the products; `d` and `t`
/// come last).
#[inline(always)]
pub(crate) fn transform_diagonals<L: Lanes>([d, p, q]: [L; 3], v: L, t: L) -> L {
    p.mul(v.next1()).add(q.mul(v.next2())).add(d.mul(v).add(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Real, Translation, Vector};
    use crate::simd::{Fast, Scalar};
    use crate::test_util::unit_quaternion;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn same(a: [Real; 3], b: [Real; 3]) -> bool {
        a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits())
    }

    /// `rotation_rows_and_columns` gives, on both backends, the bits of
    /// `scaled_rotation_diagonals` with `k = 1` (`d`, `p`, and `q` as `c.next2()`), and `c`,
    /// `p.next2()` are the transposed diagonals of nalgebra's matrix of the relative rotation.
    #[test]
    fn rows_and_columns_match_the_diagonals() {
        fn check<L: Lanes>(a: &Isometry, b: &Isometry) -> [[Real; 3]; 5] {
            let (s, w, _) = relative_pose::<L>(a, b);
            let [d, p, c] = rotation_rows_and_columns(s, w);
            let [d1, p1, q1] = scaled_rotation_diagonals(s, w, L::splat(1.0));
            assert!(same(d.to_array(), d1.to_array()));
            assert!(same(p.to_array(), p1.to_array()));
            assert!(same(c.next2().to_array(), q1.to_array()));
            [d, p, c, p.next2(), c.next2()].map(L::to_array)
        }
        let mut r = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..20_000 {
            let t = |r: &mut ChaCha8Rng| {
                Translation::from(Vector::new(r.gen_range(-9.0..9.0), 0.5, -2.0))
            };
            let a = Isometry::from_parts(t(&mut r), unit_quaternion(&mut r));
            let b = Isometry::from_parts(t(&mut r), unit_quaternion(&mut r));
            let fast = check::<Fast>(&a, &b);
            let scalar = check::<Scalar>(&a, &b);
            for (x, y) in fast.iter().zip(&scalar) {
                assert!(same(*x, *y));
            }
            let m = a.inv_mul(&b).rotation.to_rotation_matrix().into_inner();
            let [d, p, c, c2, q] = scalar;
            for k in 0..3 {
                let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
                for (got, want) in [
                    (d[k], m[(k, k)]),
                    (p[k], m[(k, k1)]),
                    (q[k], m[(k, k2)]),
                    (c[k], m[(k1, k)]),
                    (c2[k], m[(k2, k)]),
                ] {
                    assert!((got - want).abs() < 1e-5, "{got} vs {want}");
                }
            }
        }
    }
}
