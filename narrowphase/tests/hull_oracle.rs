//! `ConvexPolyhedron::from_points` against a brute-force oracle, on clouds chosen to be hard:
//! uniform clouds at 10⁻³, 1 and 10⁶ m (and offset by 10⁶ m), near-coplanar slabs, clouds
//! with duplicated and one-ulp-apart points, grids (many exactly coplanar points), knife edges
//! (points near a line) and points on a sphere.
//!
//! The oracle tests every triple of input points as a candidate face plane (O(n⁴)):
//! - a hull that is built passes `validate`, its corners are input points, every input point
//!   is inside every face plane within a scale-aware tolerance `tol` (so, with the corners
//!   being inputs, the hull is the true hull up to `tol`), and every *oracle facet* (a
//!   well-shaped input triangle whose plane has every input point below it, within `tol`) has
//!   a hull face of nearly the same normal;
//! - a cloud is refused only when the oracle finds it flat: some triple plane holds every
//!   point within twice the builder's ε (or no triple spans a plane);
//! - a cloud thicker than 10 ε is never refused.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::math::{Point, Real};
use tumble_narrowphase::shape::ConvexPolyhedron;

type V = nalgebra::Vector3<f64>;

fn v64(p: &Point) -> V {
    V::new(p.x as f64, p.y as f64, p.z as f64)
}

/// A random cloud of one of the hard families, and a name for messages.
fn cloud(r: &mut ChaCha8Rng) -> (Vec<Point>, &'static str) {
    let n = r.gen_range(4..=28);
    let scale: Real = *[1e-3, 1.0, 1e6].choose(r).unwrap();
    let offset: Real = *[0.0, 0.0, 1e6, -37.5].choose(r).unwrap();
    let unit = |r: &mut ChaCha8Rng| {
        Point::new(
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
        )
    };
    let place = |p: Point| Point::from(p.coords * scale + nalgebra::Vector3::repeat(offset));
    let family = r.gen_range(0..7);
    let mut pts: Vec<Point> = match family {
        0 => (0..n).map(|_| place(unit(r))).collect(),
        1 => {
            // Slab: thickness 10⁻⁷ … 10⁻² of the size, a few points off it.
            let t: Real = 10f32.powf(r.gen_range(-7.0..-2.0));
            (0..n)
                .map(|_| {
                    let mut p = unit(r);
                    p.z *= t;
                    place(p)
                })
                .collect()
        }
        2 => {
            // Duplicates and one-ulp neighbours of a few base points.
            let base: Vec<Point> = (0..r.gen_range(4..8)).map(|_| place(unit(r))).collect();
            (0..n)
                .map(|_| {
                    let mut p = *base.choose(r).unwrap();
                    if r.gen_bool(0.5) {
                        let k = r.gen_range(0..3);
                        p[k] = Real::from_bits(p[k].to_bits().wrapping_add(r.gen_range(0..3)));
                    }
                    p
                })
                .collect()
        }
        3 => {
            // Grid points: many exactly coplanar and collinear.
            let k = r.gen_range(1..4) as Real;
            (0..n)
                .map(|_| {
                    let g = |r: &mut ChaCha8Rng| r.gen_range(-(k as i32)..=(k as i32)) as Real / k;
                    place(Point::new(g(r), g(r), g(r)))
                })
                .collect()
        }
        4 => {
            // Knife edge: near the diagonal, a tiny spread.
            let spread: Real = 10f32.powf(r.gen_range(-5.0..-1.0));
            (0..n)
                .map(|_| {
                    let s = r.gen_range(-1.0..1.0);
                    let e = unit(r).coords * spread;
                    place(Point::new(s + e.x, s + e.y, s + e.z))
                })
                .collect()
        }
        5 => {
            // On a sphere: every point on the hull, faces nearly coplanar when n is large.
            (0..n)
                .map(|_| {
                    let p = unit(r).coords;
                    place(Point::from(p / p.norm().max(1e-3)))
                })
                .collect()
        }
        _ => {
            // A box's corners plus points on its faces (coplanar with them).
            let mut v: Vec<Point> = (0..8)
                .map(|k| {
                    place(Point::new(
                        if k & 1 == 1 { 1.0 } else { -1.0 },
                        if k & 2 == 2 { 0.5 } else { -0.5 },
                        if k & 4 == 4 { 0.25 } else { -0.25 },
                    ))
                })
                .collect();
            for _ in 0..n {
                let mut p = unit(r);
                let k = r.gen_range(0..3);
                p[k] = if r.gen_bool(0.5) { 1.0 } else { -1.0 };
                p.y *= 0.5;
                p.z *= 0.25;
                v.push(place(p));
            }
            v
        }
    };
    pts.shuffle(r);
    let name = [
        "uniform",
        "slab",
        "duplicates",
        "grid",
        "knife",
        "sphere",
        "box",
    ][family];
    (pts, name)
}

/// The builder's ε (the same formula as `shape/hull.rs`): 10⁻⁶ of the bounding-box diagonal
/// plus 4 f32 ulps of the largest coordinate.
fn builder_eps(p: &[V]) -> (f64, f64, f64) {
    let (mut lo, mut hi) = (p[0], p[0]);
    for q in p {
        lo = lo.inf(q);
        hi = hi.sup(q);
    }
    let diag = (hi - lo).norm();
    let max_abs = lo.abs().max().max(hi.abs().max());
    (
        1e-6 * diag + 4.0 * (Real::EPSILON as f64) * max_abs,
        diag,
        max_abs,
    )
}

#[test]
fn hull_matches_the_every_triple_oracle() {
    let mut r = ChaCha8Rng::seed_from_u64(0x4855_4c4c);
    let (mut built, mut refused, mut facets_checked) = (0, 0, 0);
    for case in 0..1500 {
        let (pts, family) = cloud(&mut r);
        let p: Vec<V> = pts.iter().map(v64).collect();
        let (eps, diag, _) = builder_eps(&p);
        // Ten times the builder's ε, plus the f32 rounding of normals (≈ 10⁻⁷ · size).
        let tol = 10.0 * eps + 1e-6 * diag;
        let n = p.len();
        // The thinnest triple plane: max distance of the cloud to it, least over triples.
        let mut thinnest = f64::INFINITY;
        let mut facets: Vec<V> = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    let (e1, e2) = (p[j] - p[i], p[k] - p[i]);
                    let c = e1.cross(&e2);
                    let len = c.norm();
                    if len == 0.0 {
                        continue;
                    }
                    let nrm = c / len;
                    let (mut lo, mut hi) = (0.0f64, 0.0f64);
                    for q in &p {
                        let d = nrm.dot(&(q - p[i]));
                        lo = lo.min(d);
                        hi = hi.max(d);
                    }
                    thinnest = thinnest.min(hi.max(-lo));
                    // Oracle facets: well-shaped triangles only (their normal is accurate).
                    if len >= 0.05 * diag * diag {
                        if hi <= tol && lo < -100.0 * tol {
                            facets.push(nrm);
                        } else if lo >= -tol && hi > 100.0 * tol {
                            facets.push(-nrm);
                        }
                    }
                }
            }
        }
        if thinnest == f64::INFINITY {
            thinnest = 0.0; // no triple spans a plane: collinear or one point
        }
        let ctx = || format!("case {case} ({family}, {n} points): {pts:?}");
        let h = match ConvexPolyhedron::from_points(&pts) {
            Ok(h) => h,
            Err(e) => {
                refused += 1;
                assert!(
                    thinnest <= 2.0 * eps,
                    "refused ({e}) a cloud {thinnest} thick (ε = {eps}): {}",
                    ctx()
                );
                continue;
            }
        };
        built += 1;
        assert!(
            thinnest > 0.1 * eps,
            "built a hull of a cloud only {thinnest} thick (ε = {eps}): {}",
            ctx()
        );
        if let Err(e) = h.validate() {
            panic!("hull fails validate: {e}: {}", ctx());
        }
        assert!(
            h.vertices().iter().all(|v| pts.contains(v)),
            "a hull corner is not an input point: {}",
            ctx()
        );
        for f in h.faces() {
            let nrm = V::new(f.normal.x as f64, f.normal.y as f64, f.normal.z as f64);
            let p0 = v64(&h.vertices()[h.face_loop(f)[0] as usize]);
            for q in &p {
                let out = nrm.dot(&(q - p0));
                assert!(
                    out <= tol,
                    "input {q:?} is {out} outside a face (tol {tol}): {}",
                    ctx()
                );
            }
        }
        for nrm in &facets {
            facets_checked += 1;
            let best = h
                .faces()
                .iter()
                .map(|f| {
                    nrm.dot(&V::new(
                        f.normal.x as f64,
                        f.normal.y as f64,
                        f.normal.z as f64,
                    ))
                })
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(
                best >= (0.01f64).cos(),
                "oracle facet {nrm:?} has no hull face within 0.01 rad (best cos {best}): {}",
                ctx()
            );
        }
    }
    eprintln!("built {built}, refused {refused}, oracle facets {facets_checked}");
    // Both branches are exercised, and the facet comparison is not vacuous.
    assert!(
        built > 600 && refused > 20,
        "built {built}, refused {refused}"
    );
    assert!(facets_checked > 2000, "only {facets_checked} oracle facets");
}
