//! Numerical accuracy of the closed-form queries against `f64` references computed from the
//! same `f32` inputs: grazing rays against spheres and capsules, sphere sweeps, and GJK
//! distances between slivers.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::math::{Point, Real, Vector};
use tumble_narrowphase::ray::{ray_capsule, ray_sphere, Ray};
use tumble_narrowphase::sweep::sweep_sphere_sphere;

type V64 = nalgebra::Vector3<f64>;

fn v64(v: &Vector) -> V64 {
    v.cast::<f64>()
}

fn p64(p: &Point) -> V64 {
    p.coords.cast::<f64>()
}

/// Unit roundoff of `Real`.
const U: f64 = Real::EPSILON as f64 / 2.0;

/// Smaller root in `[0, ∞)` of `|m + t d|² = r²` in `f64` (None when the line misses or the
/// sphere is behind), with `a s = |p·d|` at the hit point `p` (`s` the half-chord in units of
/// `t`, `a = |d|²`), for the error bound.
fn sphere_ref(m: V64, d: V64, r: f64) -> Option<(f64, f64)> {
    let a = d.norm_squared();
    let b = m.dot(&d);
    let w = m - d * (b / a);
    let disc = r * r - w.norm_squared();
    if disc < 0.0 {
        return None;
    }
    let s = (disc / a).sqrt();
    let t = -b / a - s;
    (t >= 0.0).then_some((t, a * s))
}

/// First entry `t ≥ 0` of the ray into the capsule of axis `p`–`q` and radius `r`, in `f64`,
/// with `|p·d|` of the piece hit (side or end sphere; for the side, `p` and `d` with their axial
/// components projected out).
fn capsule_ref(o: V64, d: V64, p: V64, q: V64, r: f64) -> Option<(f64, f64)> {
    let axis = q - p;
    let dd = axis.norm_squared();
    let m = o - p;
    let mp = m - axis * (m.dot(&axis) / dd);
    let dp = d - axis * (d.dot(&axis) / dd);
    let mut best: Option<(f64, f64)> = None;
    if let Some((t, s)) = sphere_ref(mp, dp, r) {
        let along = (m + d * t).dot(&axis);
        if (0.0..=dd).contains(&along) {
            best = Some((t, s));
        }
    }
    for end in [p, q] {
        if let Some((t, s)) = sphere_ref(o - end, d, r) {
            if best.is_none_or(|(bt, _)| t < bt) {
                best = Some((t, s));
            }
        }
    }
    best
}

/// The error bound of a backward-stable cast: the rounding of the answer itself plus `t`'s
/// sensitivity to relative perturbations of size `k·u` of the offset `m` of the origin from the
/// shape, of `d` and of `r`. At the hit point `p` (`|p| = r`, relative to the centre or the
/// axis), `p·(δm + t δd + δt d) = r δr`, so `|δt| ≤ r (|δm| + t |δd| + |δr|) / |p·d|`, where
/// `|p·d| = a s` for the half-chord `s`: the bound grows as the ray grazes.
fn bound(t: f64, pd: f64, m: f64, d: f64, r: f64, k: f64) -> f64 {
    k * U * (t + r * (m + t * d + r) / pd)
}

/// The grazing ray of the issue report against the capsule at the origin, axis y.
#[test]
fn grazing_ray_capsule_keeps_its_digits() {
    let hh: Real = 0.831_110_2;
    let r: Real = 0.237_876_15;
    let a = Point::new(0.0, -hh, 0.0);
    let b = Point::new(0.0, hh, 0.0);
    let o = Point::new(5.579222, 3.6763246, 5.0692143);
    let d = Vector::new(-0.6984557, -0.39661768, -0.59569633);
    let (exact, s) = capsule_ref(p64(&o), v64(&d), p64(&a), p64(&b), r as f64).unwrap();
    assert!((exact - 8.1797882).abs() < 1e-6, "reference {exact}");
    let hit = ray_capsule(&Ray::new(o, d).unwrap(), &a, &b, r, 100.0).expect("hits");
    let err = (hit.t as f64 - exact).abs();
    let tol = bound(exact, s, p64(&o).norm(), v64(&d).norm(), r as f64, 4.0);
    assert!(
        err <= tol,
        "t {} exact {exact}: error {err:e} > {tol:e}",
        hit.t
    );
}

/// The sweep of the issue report: a small ball grazing a small sphere.
#[test]
fn grazing_sphere_sweep_keeps_its_digits() {
    let ra: Real = 0.018306734;
    let rb: Real = 0.016451435;
    let a0 = Point::new(4.8365145, 5.0474353, 1.8278437);
    let a1 = Point::new(3.7454374, 3.599724, 0.6874775);
    let c = Point::new(4.295223, 4.36757, 1.2612038);
    let m = p64(&a0) - p64(&c);
    let d = p64(&a1) - p64(&a0);
    let r = ra as f64 + rb as f64;
    let (exact, s) = sphere_ref(m, d, r).unwrap();
    assert!((exact - 0.4750751610).abs() < 1e-9, "reference {exact}");
    let toi = sweep_sphere_sphere(&a0, &a1, ra, &c, &c, rb).expect("hits");
    let err = (toi.t as f64 - exact).abs();
    let tol = bound(exact, s, m.norm(), d.norm(), r, 4.0);
    assert!(
        err <= tol,
        "t {} exact {exact}: error {err:e} > {tol:e}",
        toi.t
    );
}

/// A ray that passes at distance `h = r (1 − g)` from `centre` for a tiny `g`, from a random
/// far origin.
fn grazing(rng: &mut ChaCha8Rng, centre: V64, r: f64) -> (Point, Vector) {
    loop {
        let u = V64::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        );
        let v = V64::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        );
        let (Some(u), Some(side)) = (u.try_normalize(0.1), v.cross(&u).try_normalize(0.1)) else {
            continue;
        };
        let g: f64 = 10f64.powf(rng.gen_range(-7.0..-1.0));
        let h = r * (1.0 - g);
        let far = r * 10f64.powf(rng.gen_range(0.5..2.5));
        let len = 10f64.powf(rng.gen_range(-1.0..1.0));
        let o = centre + side * h - u * far;
        let o = Point::new(o.x as Real, o.y as Real, o.z as Real);
        let d = u * len;
        return (o, Vector::new(d.x as Real, d.y as Real, d.z as Real));
    }
}

/// Random grazing rays against spheres and capsules stay within the error bound of a
/// backward-stable cast (see [`bound`], with `k = 8`) of an `f64` reference from the same
/// `f32` inputs.
#[test]
fn grazing_rays_within_the_stable_bound() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5e11);
    let mut checked = 0;
    for _ in 0..20_000 {
        let c = Point::new(
            rng.gen_range(-5.0..5.0),
            rng.gen_range(-5.0..5.0),
            rng.gen_range(-5.0..5.0),
        );
        let r: Real = 10f32.powf(rng.gen_range(-2.0..1.0));
        let capsule = rng.gen_bool(0.5);
        let (o, d) = grazing(&mut rng, p64(&c), r as f64);
        let ray = Ray::new(o, d).unwrap();
        let (got, want) = if capsule {
            let half = Vector::new(
                rng.gen_range(-1.0..1.0),
                rng.gen_range(-1.0..1.0),
                rng.gen_range(-1.0..1.0),
            ) * r;
            let (a, b) = (c - half, c + half);
            (
                ray_capsule(&ray, &a, &b, r, 1e6),
                capsule_ref(p64(&o), v64(&d), p64(&a), p64(&b), r as f64),
            )
        } else {
            (
                ray_sphere(&ray, &c, r, 1e6),
                sphere_ref(p64(&o) - p64(&c), v64(&d), r as f64),
            )
        };
        let (Some(got), Some((t, s))) = (got, want) else {
            continue;
        };
        let m = (p64(&o) - p64(&c)).norm() + 2.0 * r as f64;
        let tol = bound(t, s, m, v64(&d).norm(), r as f64, 8.0);
        let err = (got.t as f64 - t).abs();
        assert!(
            err <= tol,
            "{} cast from {o:?} along {d:?}, r {r}: t {} exact {t}, error {err:e} > {tol:e}",
            if capsule { "capsule" } else { "sphere" },
            got.t
        );
        checked += 1;
    }
    assert!(checked > 10_000, "only {checked} hits checked");
}
