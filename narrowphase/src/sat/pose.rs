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

/// The rotation matrix `R` of the unit quaternion `(s, w)` (vector part in lanes, `w` in every
/// lane) as its three wrapped diagonals `[d, p, q]`: lane `r` of `d`, `p`, `q` holds `R[r][r]`,
/// `R[r][r+1]`, `R[r][r+2]` (indices mod 3), so that `R v = d v + p v.next1() + q v.next2()`
/// ([`transform_diagonals`]) takes no shuffle of `R`. From `R = (w² − |s|²) I + 2 s sᵀ + 2w[s]×`
/// and `|s|² + w² = 1`: `d = (s · 2s − 1) + w · 2w`, `p = s · (2s).next1() − w (2s).next2()`,
/// `q = s · (2s).next2() + w (2s).next1()`. `w` arrives before `s` (it takes fewer steps),
/// so `w · 2w` is ready when `s · 2s − 1` is, and no step of `d` permutes lanes.
/// ([`scaled_rotation_diagonals`] with `k = 1`, whose products by 1 are exact and fold away.)
#[inline(always)]
pub(crate) fn rotation_diagonals<L: Lanes>(s: L, w: L) -> [L; 3] {
    scaled_rotation_diagonals(s, w, L::splat(1.0))
}

/// The wrapped diagonals (as [`rotation_diagonals`]) of `diag(k) R`, row `r` of `R` scaled by
/// lane `r` of `k`: the same sums with `s k` and `w k` as the left factors and `k` for the 1,
/// `d = (s k · 2s − k) + w k · 2w`, `p = s k · (2s).next1() − w k (2s).next2()`,
/// `q = s k · (2s).next2() + w k (2s).next1()` (a kernel that works on a box scaled to the
/// unit box gets its corners scaled at the cost of two products; `s k` is ready as soon as
/// `(2s).next1()` is).
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

/// `R v + t` for `R` given by [`rotation_diagonals`] and `v`, `t` in lanes x, y, z, summed as
/// `(p v.next1() + q v.next2()) + (d v + t)` (two sums deep after the products; `d` and `t`
/// come last).
#[inline(always)]
pub(crate) fn transform_diagonals<L: Lanes>([d, p, q]: [L; 3], v: L, t: L) -> L {
    p.mul(v.next1()).add(q.mul(v.next2())).add(d.mul(v).add(t))
}
