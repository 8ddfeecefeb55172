//! Numerical accuracy of the closed-form queries against `f64` references computed from the
//! same `f32` inputs: grazing rays against spheres and capsules, sphere sweeps, and GJK
//! distances between slivers.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::gjk::{self, GjkResult};
use tumble_narrowphase::math::{Isometry, Point, Real, Rotation, Translation, Vector};
use tumble_narrowphase::ray::{ray_capsule, ray_sphere, Ray};
use tumble_narrowphase::shape::Triangle;
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

/// A random centre in the 10 m cube about the origin and a radius from 1 cm to 10 m
/// (log-uniform), drawn in that order.
fn centre_and_radius(rng: &mut ChaCha8Rng) -> (Point, Real) {
    let c = Point::new(
        rng.gen_range(-5.0..5.0),
        rng.gen_range(-5.0..5.0),
        rng.gen_range(-5.0..5.0),
    );
    (c, 10f32.powf(rng.gen_range(-2.0..1.0)))
}

/// Random grazing rays against spheres and capsules stay within the error bound of a
/// backward-stable cast (see [`bound`], with `k = 8`) of an `f64` reference from the same
/// `f32` inputs.
#[test]
fn grazing_rays_within_the_stable_bound() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5e11);
    let mut checked = 0;
    for _ in 0..20_000 {
        let (c, r) = centre_and_radius(&mut rng);
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

/// Closest point to `p` of the triangle `a b c` (Ericson RTCD §5.1.5), in `f64`.
fn closest_on_triangle(p: V64, a: V64, b: V64, c: V64) -> V64 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// Distance between the segments `p1 q1` and `p2 q2` (Ericson RTCD §5.1.9), in `f64`.
fn segment_segment(p1: V64, q1: V64, p2: V64, q2: V64) -> f64 {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let c = d1.dot(&r);
    let b = d1.dot(&d2);
    let denom = a * e - b * b;
    let mut s = if denom > 0.0 {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    ((p1 + d1 * s) - (p2 + d2 * t)).norm()
}

/// True when the segment `p q` crosses the plane of triangle `t` at a point inside `t`.
fn segment_crosses(p: V64, q: V64, t: &[V64; 3]) -> bool {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let (sp, sq) = (n.dot(&(p - t[0])), n.dot(&(q - t[0])));
    if sp * sq > 0.0 || sp == sq {
        return false;
    }
    let x = p + (q - p) * (sp / (sp - sq));
    // Nearly parallel planes make `x` uncertain by far more than f64's unit roundoff.
    (x - closest_on_triangle(x, t[0], t[1], t[2])).norm() <= 1e-9
}

/// Distance between two triangles in `f64`: zero when an edge of one crosses the other, else
/// the least of the six corner–triangle and nine edge–edge distances (the closest pair of two
/// disjoint triangles is one of these).
fn triangle_distance(x: &[V64; 3], y: &[V64; 3]) -> f64 {
    for (p, t) in [(x, y), (y, x)] {
        if (0..3).any(|i| segment_crosses(p[i], p[(i + 1) % 3], t)) {
            return 0.0;
        }
    }
    let mut best = f64::INFINITY;
    for (p, t) in [(x, y), (y, x)] {
        for q in p {
            best = best.min((q - closest_on_triangle(*q, t[0], t[1], t[2])).norm());
        }
    }
    for i in 0..3 {
        for j in 0..3 {
            best = best.min(segment_segment(x[i], x[(i + 1) % 3], y[j], y[(j + 1) % 3]));
        }
    }
    best
}

/// A triangle's corners placed by `pose`, in `f64` from the `f32` pose.
fn world64(t: &Triangle, pose: &Isometry) -> [V64; 3] {
    let rot = pose.rotation.cast::<f64>();
    let tr = pose.translation.vector.cast::<f64>();
    t.corners().map(|c| rot * c.coords.cast::<f64>() + tr)
}

/// The GJK distance of both orders of a pair.
fn gjk_both(ta: &Triangle, pa: &Isometry, tb: &Triangle, pb: &Isometry) -> [Real; 2] {
    let d = |r| match r {
        GjkResult::Separated { distance, .. } => distance,
        GjkResult::Intersecting => 0.0,
    };
    [
        d(gjk::distance(pa, ta, pb, tb)),
        d(gjk::distance(pb, tb, pa, ta)),
    ]
}

fn pose(t: [Real; 3], q: [Real; 4]) -> Isometry {
    Isometry::from_parts(
        Translation::new(t[0], t[1], t[2]),
        Rotation::from_quaternion(nalgebra::Quaternion::new(q[3], q[0], q[1], q[2])),
    )
}

/// GJK's error allowance for a pair of shapes of size `size` (largest |coordinate|): a few
/// dozen roundings of the coordinates, whatever the distance.
fn gjk_tol(size: f64) -> f64 {
    32.0 * Real::EPSILON as f64 * size
}

/// The two slivers of the issue report: GJK must not stop while its duality gap is larger
/// than the distance, in either order.
#[test]
fn gjk_sliver_distance_converges_both_ways() {
    let ta = Triangle::new(
        Point::new(-0.284453, 0.00022329598, 0.0),
        Point::new(0.27205145, 0.00022329598, 0.0),
        Point::new(0.012401541, -0.00044659196, 0.0),
    )
    .unwrap();
    let pa = pose([0.0; 3], [-0.48272023, 0.69746524, -0.07106864, -0.5248549]);
    let tb = Triangle::new(
        Point::new(-0.4986537, -0.00066213193, 0.0),
        Point::new(0.2584725, -0.00066213193, 0.0),
        Point::new(0.24018124, 0.0013242639, 0.0),
    )
    .unwrap();
    let pb = pose(
        [0.0010624123, -0.0006822523, 0.0036158653],
        [-0.6355311, 0.6772863, -0.17668769, -0.32582957],
    );
    let exact = triangle_distance(&world64(&ta, &pa), &world64(&tb, &pb));
    assert!((exact - 2.0282e-5).abs() < 1e-9, "reference {exact}");
    for got in gjk_both(&ta, &pa, &tb, &pb) {
        let err = (got as f64 - exact).abs();
        assert!(
            err <= gjk_tol(0.5),
            "gjk {got} exact {exact}: error {err:e}"
        );
    }
}

/// Random thin slivers near each other: GJK's distance in both orders against the `f64`
/// brute force.
#[test]
fn gjk_slivers_match_brute_force_both_ways() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x511e);
    let mut checked = 0;
    for _ in 0..20_000 {
        let tri = |rng: &mut ChaCha8Rng| {
            let len: Real = rng.gen_range(0.2..1.0);
            let thin: Real = len * 10f32.powf(rng.gen_range(-4.0..-1.0));
            let x0 = rng.gen_range(-len..0.0);
            let x1 = x0 + len;
            Triangle::new(
                Point::new(x0, thin * rng.gen_range(-1.0..1.0), 0.0),
                Point::new(x1, thin * rng.gen_range(-1.0..1.0), 0.0),
                Point::new(rng.gen_range(x0..x1), thin * rng.gen_range(-2.0..2.0), 0.0),
            )
            .ok()
        };
        let (Some(ta), Some(tb)) = (tri(&mut rng), tri(&mut rng)) else {
            continue;
        };
        let rot = |rng: &mut ChaCha8Rng| -> [Real; 4] { [(); 4].map(|_| rng.gen_range(-1.0..1.0)) };
        let gap: Real = 10f32.powf(rng.gen_range(-5.0..-2.0));
        let off = [(); 3].map(|_| rng.gen_range(-gap..gap));
        let pa = pose([0.0; 3], rot(&mut rng));
        let pb = pose(off, rot(&mut rng));
        let exact = triangle_distance(&world64(&ta, &pa), &world64(&tb, &pb));
        if exact < 1e-6 {
            continue; // touching or crossing: not a distance query
        }
        for got in gjk_both(&ta, &pa, &tb, &pb) {
            let err = (got as f64 - exact).abs();
            assert!(
                err <= gjk_tol(1.0),
                "gjk {got} exact {exact}: error {err:e}\n{ta:?} {pa:?}\n{tb:?} {pb:?}"
            );
        }
        checked += 1;
    }
    assert!(checked > 5_000, "only {checked} pairs checked");
}

/// Random grazing sphere sweeps (the two radii summing to the grazing radius, the obstacle
/// still): within the same bound as the casts, the sum `ra + rb` and the offsets `a0 − b0`,
/// `a1 − a0` rounded once each in `f32`.
#[test]
fn grazing_sphere_sweeps_within_the_stable_bound() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5ee9);
    let mut checked = 0;
    for _ in 0..20_000 {
        let (c, r) = centre_and_radius(&mut rng);
        let split: Real = rng.gen_range(0.1..0.9);
        let (ra, rb) = (r * split, r * (1.0 - split));
        let (a0, d) = grazing(&mut rng, p64(&c), r as f64);
        let a1 = a0 + d;
        let m = p64(&a0) - p64(&c);
        let dd = p64(&a1) - p64(&a0);
        let (Some((t, pd)), Some(got)) = (
            sphere_ref(m, dd, ra as f64 + rb as f64),
            sweep_sphere_sphere(&a0, &a1, ra, &c, &c, rb),
        ) else {
            continue;
        };
        if t > 1.0 {
            continue;
        }
        let tol = bound(t, pd, m.norm(), dd.norm(), r as f64, 8.0);
        let err = (got.t as f64 - t).abs();
        assert!(
            err <= tol,
            "sweep from {a0:?} to {a1:?}, radii {ra} {rb} at {c:?}: t {} exact {t}, error {err:e} > {tol:e}",
            got.t
        );
        checked += 1;
    }
    assert!(checked > 1_000, "only {checked} sweeps checked");
}
