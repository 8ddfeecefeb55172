//! `HeightField` (`tumble_narrowphase::mesh`): every query against a brute force over all its
//! triangles and against the `TriMesh` of the same samples, the seams of a flat field,
//! constructor errors, and hand-picked cases from the terrain definition of
//! `/work/shared/peers/rapier-bench/README.md` (scenes `terrain` and `terrain_mesh`).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::error::MeshError;
use tumble_narrowphase::math::{Isometry, Point, Real, Translation, Vector};
use tumble_narrowphase::mesh::{HeightField, TriMesh};
use tumble_narrowphase::ray::Ray;
use tumble_narrowphase::shape::{Ball, ConvexPolyhedron, Cuboid, ShapeRef};

mod mesh_util;
use mesh_util::{
    check_against_brute_force, direction, point_in, pose_in, rotation, slide_across_seams,
    MeshLike, Shapes, Slide,
};

/// A random field: `rows × cols` samples in `[−1, 1]`, scale drawn per axis.
fn random_field(r: &mut ChaCha8Rng) -> HeightField {
    let rows = r.gen_range(2..10);
    let cols = r.gen_range(2..10);
    let h: Vec<Real> = (0..rows * cols).map(|_| r.gen_range(-1.0..1.0)).collect();
    let scale = Vector::new(
        r.gen_range(2.0..6.0),
        r.gen_range(0.1..0.8),
        r.gen_range(2.0..6.0),
    );
    HeightField::new(rows, cols, &h, scale).unwrap()
}

/// The mesh of the same samples, built here from `HeightField::point` with the split of the
/// definition (not with `HeightField::to_trimesh`).
fn mesh_of(hf: &HeightField) -> TriMesh {
    let (rows, cols) = (hf.rows(), hf.cols());
    let mut v = Vec::new();
    for j in 0..rows {
        for i in 0..cols {
            v.push(hf.point(j, i));
        }
    }
    let at = |i: usize, j: usize| (j * cols + i) as u32;
    let mut t = Vec::new();
    for j in 0..rows - 1 {
        for i in 0..cols - 1 {
            t.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
            t.push([at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    TriMesh::new(&v, &t).unwrap()
}

fn random_pose(r: &mut ChaCha8Rng) -> Isometry {
    Isometry::from_parts(
        Translation::new(
            r.gen_range(-3.0..3.0),
            r.gen_range(-3.0..3.0),
            r.gen_range(-3.0..3.0),
        ),
        rotation(r),
    )
}

/// The world box around the field (at `mp`) where shapes and rays are placed.
fn around(hf: &HeightField, mp: &Isometry) -> (Point, Point) {
    let s = hf.scale();
    let lo = mp * Point::new(-0.5 * s.x - 0.5, -s.y - 0.6, -0.5 * s.z - 0.5);
    let hi = mp * Point::new(0.5 * s.x + 0.5, s.y + 0.6, 0.5 * s.z + 0.5);
    (lo.inf(&hi), lo.sup(&hi))
}

/// Random fields under random poses: every query agrees with the brute force over all
/// triangles (see `mesh_util::check_against_brute_force`).
#[test]
fn random_fields_match_brute_force() {
    let mut r = ChaCha8Rng::seed_from_u64(0x4f1e);
    let (mut touching, mut rays, mut sweeps) = (0, 0, 0);
    for _ in 0..8 {
        let hf = random_field(&mut r);
        let mp = random_pose(&mut r);
        let (lo, hi) = around(&hf, &mp);
        let (a, b, c) = check_against_brute_force(&hf, &mp, &mut r, &lo, &hi, 20);
        touching += a;
        rays += b;
        sweeps += c;
    }
    assert!(touching > 100, "{touching} placements touched");
    assert!(rays > 20, "{rays} rays hit");
    assert!(sweeps > 100, "{sweeps} sweeps hit");
}

/// Random fields and the TriMesh of the same samples: identical contacts (every manifold,
/// bit for bit), boolean tests, ray hits and sweeps, for every shape kind.
#[test]
fn field_and_mesh_of_its_samples_agree() {
    let mut r = ChaCha8Rng::seed_from_u64(0x7e5a);
    let shapes = Shapes::new();
    let (mut contacts, mut hits) = (0, 0);
    for _ in 0..8 {
        let hf = random_field(&mut r);
        let mesh = mesh_of(&hf);
        assert_eq!(mesh.triangle_count(), hf.triangle_count());
        // `to_trimesh` builds the same mesh.
        let other = hf.to_trimesh().unwrap();
        assert_eq!(other.vertices(), mesh.vertices());
        assert_eq!(other.indices(), mesh.indices());
        for id in 0..hf.triangle_count() as u32 {
            assert_eq!(hf.triangle(id), mesh.triangle(id));
        }
        let mp = random_pose(&mut r);
        let (lo, hi) = around(&hf, &mp);
        for _ in 0..30 {
            for s in shapes.views() {
                let op = pose_in(&mut r, &lo, &hi);
                let pred = r.gen_range(0.0..0.1);
                let a = MeshLike::contacts(&hf, &mp, &op, s, pred);
                let b = MeshLike::contacts(&mesh, &mp, &op, s, pred);
                assert_eq!(a, b, "{} at {op}", s.kind_name());
                contacts += a.len();
                assert_eq!(hf.intersects(&mp, &op, s), mesh.intersects(&mp, &op, s));
                let motion = point_in(&mut r, &lo, &hi) - Point::from(op.translation.vector);
                assert_eq!(
                    hf.sweep(&mp, &op, s, &motion, 1e-3),
                    mesh.sweep(&mp, &op, s, &motion, 1e-3),
                    "{}",
                    s.kind_name()
                );
            }
            let origin = point_in(&mut r, &lo, &hi);
            let ray = Ray::new(origin, direction(&mut r)).unwrap();
            let a = hf.cast_ray(&mp, &ray, Real::INFINITY);
            assert_eq!(a, mesh.cast_ray(&mp, &ray, Real::INFINITY), "{ray:?}");
            hits += a.is_some() as usize;
        }
    }
    assert!(contacts > 200, "{contacts} contacts");
    assert!(hits > 30, "{hits} ray hits");
}

/// Boxes resting on or just above random fields (centre within 0.3 m of the surface under
/// it, random turn, predictions up to 10 cm): the field and the TriMesh of the same samples
/// give the same contacts, bit for bit. The two sources visit different supersets of the
/// triangles under a box (cells against leaves), so a triangle beyond `prediction` must be
/// refused by the kernel itself, by its distance, not by the separating axes' lower bound.
#[test]
fn field_and_mesh_agree_for_boxes_near_the_surface() {
    let mut r = ChaCha8Rng::seed_from_u64(0x51de);
    let mut contacts = 0;
    for _ in 0..12 {
        let hf = random_field(&mut r);
        let mesh = mesh_of(&hf);
        let s = hf.scale();
        for _ in 0..400 {
            let (x, z) = (
                r.gen_range(-0.45..0.45) * s.x,
                r.gen_range(-0.45..0.45) * s.z,
            );
            let down = Ray::new(Point::new(x, 10.0, z), -Vector::y()).unwrap();
            let Some(hit) = hf.cast_ray(&Isometry::identity(), &down, Real::INFINITY) else {
                continue;
            };
            let e = Vector::new(
                r.gen_range(0.1..0.6),
                r.gen_range(0.1..0.6),
                r.gen_range(0.1..0.6),
            );
            let y = hit.hit.point.y + e.min() + r.gen_range(-0.3..0.3);
            let op = Isometry::from_parts(Translation::new(x, y, z), rotation(&mut r));
            let cube = Cuboid::new(e).unwrap();
            let pred = r.gen_range(0.0..0.1);
            let id = Isometry::identity();
            let a = MeshLike::contacts(&hf, &id, &op, ShapeRef::from(&cube), pred);
            let b = MeshLike::contacts(&mesh, &id, &op, ShapeRef::from(&cube), pred);
            assert_eq!(a, b, "box {e:?} at {op}, prediction {pred}");
            contacts += a.len();
        }
    }
    assert!(contacts > 2000, "{contacts} contacts");
}

/// Rays down a large field from above: the cell walk crosses many cells before the hit
/// (grazing rays at a shallow angle), and still agrees with the brute force.
#[test]
fn long_grazing_rays_match_brute_force() {
    let mut r = ChaCha8Rng::seed_from_u64(0x9a2e);
    let (rows, cols) = (40, 33);
    let h: Vec<Real> = (0..rows * cols).map(|_| r.gen_range(-1.0..1.0)).collect();
    let hf = HeightField::new(rows, cols, &h, Vector::new(30.0, 0.3, 40.0)).unwrap();
    let id = Isometry::identity();
    let mut hits = 0;
    for _ in 0..300 {
        let origin = Point::new(
            r.gen_range(-16.0..16.0),
            r.gen_range(0.0..0.6),
            r.gen_range(-21.0..21.0),
        );
        let a = r.gen_range(0.0..std::f32::consts::TAU);
        let dir = Vector::new(a.cos(), -r.gen_range(0.0..0.05), a.sin());
        let ray = Ray::new(origin, dir).unwrap();
        let got = hf.cast_ray(&id, &ray, Real::INFINITY);
        let want = mesh_util::brute_ray(&hf, &id, &ray, Real::INFINITY);
        match (got, want) {
            (None, None) => {}
            (Some(g), Some((_, t))) => {
                hits += 1;
                assert!(
                    (g.hit.t - t).abs() <= 1e-5 * t.max(1.0),
                    "{} vs {t}",
                    g.hit.t
                );
            }
            (g, w) => panic!("{ray:?}: {g:?} vs {w:?}"),
        }
    }
    assert!(hits > 150, "{hits} hits");
}

/// A flat field (all heights 0.5, scale y 2: the plane y = 1) of 0.25 m cells: a box, a ball
/// and a hull sliding across the seams get normals within 10⁻³ of +y and the right depth;
/// the raw per-triangle kernel gives sideways normals there.
#[test]
fn flat_field_seams_give_normals_straight_up() {
    let hf = HeightField::new(17, 21, &[0.5; 17 * 21], Vector::new(5.0, 2.0, 4.0)).unwrap();
    let cuboid = Cuboid::new(Vector::new(0.5, 0.2, 0.3)).unwrap();
    let ball = Ball::new(0.3).unwrap();
    let hull = ConvexPolyhedron::from_cuboid(&Cuboid::new(Vector::new(0.35, 0.1, 0.2)).unwrap());
    let plan = Slide {
        top: 1.0,
        sink: 0.01,
        prediction: 0.0,
        xs: -1.0..1.0,
        zs: vec![-0.5, -0.4, -0.25, -0.07],
    };
    let mut raw_total = 0;
    for yaw in [0.0, 0.3, 0.785, 1.2] {
        for (s, bottom) in [
            (ShapeRef::from(&cuboid), 0.2),
            (ShapeRef::from(&ball), 0.3),
            (ShapeRef::from(&hull), 0.1),
        ] {
            let (worst, raw, depth_err) = slide_across_seams(&hf, s, bottom, &plan, yaw);
            assert!(worst <= 1e-3, "{}: normal {worst} from +y", s.kind_name());
            assert!(
                depth_err <= 1e-4,
                "{}: depth off by {depth_err}",
                s.kind_name()
            );
            raw_total += raw;
        }
    }
    assert!(raw_total > 0, "the raw kernel never gave a sideways normal");
}

/// Every constructor error.
#[test]
fn constructor_errors() {
    let s = Vector::new(1.0, 1.0, 1.0);
    assert_eq!(
        HeightField::new(1, 3, &[0.0; 3], s).unwrap_err(),
        MeshError::TooFewSamples { rows: 1, cols: 3 }
    );
    assert_eq!(
        HeightField::new(3, 1, &[0.0; 3], s).unwrap_err(),
        MeshError::TooFewSamples { rows: 3, cols: 1 }
    );
    assert_eq!(
        HeightField::new(0, 0, &[], s).unwrap_err(),
        MeshError::TooFewSamples { rows: 0, cols: 0 }
    );
    assert_eq!(
        HeightField::new(2, 3, &[0.0; 5], s).unwrap_err(),
        MeshError::SampleCountMismatch {
            expected: 6,
            got: 5
        }
    );
    let mut h = [0.0; 6];
    h[4] = Real::NAN;
    assert_eq!(
        HeightField::new(2, 3, &h, s).unwrap_err(),
        MeshError::NonFiniteHeight(4)
    );
    h[4] = Real::NEG_INFINITY;
    assert_eq!(
        HeightField::new(2, 3, &h, s).unwrap_err(),
        MeshError::NonFiniteHeight(4)
    );
    // Finite, but infinite once scaled.
    h[4] = 1e30;
    assert_eq!(
        HeightField::new(2, 3, &h, Vector::new(1.0, 1e10, 1.0)).unwrap_err(),
        MeshError::NonFiniteHeight(4)
    );
    let z = [0.0; 6];
    for bad in [
        Vector::new(Real::NAN, 1.0, 1.0),
        Vector::new(1.0, Real::INFINITY, 1.0),
        Vector::new(1.0, 1.0, Real::NEG_INFINITY),
    ] {
        assert_eq!(
            HeightField::new(2, 3, &z, bad).unwrap_err(),
            MeshError::NonFiniteScale
        );
    }
    assert_eq!(
        HeightField::new(2, 3, &z, Vector::new(0.0, 1.0, 1.0)).unwrap_err(),
        MeshError::NonPositiveScale(0.0)
    );
    assert_eq!(
        HeightField::new(2, 3, &z, Vector::new(1.0, -2.0, 1.0)).unwrap_err(),
        MeshError::NonPositiveScale(-2.0)
    );
    // Heights huge against the cells: triangles too thin to be a triangle.
    assert_eq!(
        HeightField::new(2, 2, &[0.0, 1e7, 0.0, 0.0], Vector::new(1e-3, 1.0, 1e-3)).unwrap_err(),
        MeshError::DegenerateTriangle(0)
    );
    // (TooManyTriangles needs 2³¹ triangles, 8 GiB of samples: checked on the mesh type with a
    // lowered limit in the crate's unit tests.)
}

/// The surface of the `terrain` scene (README of the rapier peer):
/// h(x, z) = 2·sin(x/7)·cos(z/5) + 0.5·sin(x/2.3 + z/3.1), 257 × 257 samples over
/// [−100, 100]², scale (200, 1, 200). A ray straight down at sample (i, j) hits y = h(x_i, z_j)
/// on a triangle of a cell touching that corner; down at a quarter of cell (i, j) it hits
/// triangle 0 of the cell, at three quarters triangle 1 (the split by the diagonal from
/// (i, j+1) to (i+1, j)).
#[test]
fn terrain_scene_surface() {
    let n = 257;
    let surf =
        |x: f64, z: f64| 2.0 * (x / 7.0).sin() * (z / 5.0).cos() + 0.5 * (x / 2.3 + z / 3.1).sin();
    let coord = |k: usize| -100.0 + 200.0 * k as f64 / 256.0;
    let mut h = Vec::with_capacity(n * n);
    for j in 0..n {
        for i in 0..n {
            h.push(surf(coord(i), coord(j)) as Real);
        }
    }
    let hf = HeightField::new(n, n, &h, Vector::new(200.0, 1.0, 200.0)).unwrap();
    assert_eq!(hf.triangle_count(), 131_072);
    let id = Isometry::identity();
    for &(i, j) in &[
        (0usize, 0usize),
        (128, 128),
        (200, 37),
        (13, 255),
        (256, 256),
    ] {
        let (x, z) = (coord(i) as Real, coord(j) as Real);
        assert_eq!(hf.point(j, i), Point::new(x, h[j * n + i], z));
        let ray = Ray::new(Point::new(x, 10.0, z), -Vector::y()).unwrap();
        let hit = hf.cast_ray(&id, &ray, 100.0).unwrap();
        assert!(
            (hit.hit.point.y - h[j * n + i]).abs() < 1e-5,
            "{:?}",
            hit.hit.point
        );
    }
    let cell = 200.0 / 256.0;
    for &(i, j) in &[(0usize, 0usize), (100, 150), (255, 255), (17, 240)] {
        for (f, k) in [(0.25, 0), (0.75, 1)] {
            let x = coord(i) as Real + f * cell;
            let z = coord(j) as Real + f * cell;
            let ray = Ray::new(Point::new(x, 10.0, z), -Vector::y()).unwrap();
            let hit = hf.cast_ray(&id, &ray, 100.0).unwrap();
            assert_eq!(
                hit.triangle,
                hf.triangle_index(j, i, k),
                "cell ({i}, {j}) at {f}"
            );
            assert!(hit.hit.normal.y > 0.0);
        }
    }
    // A ball of 0.5 m centred 0.49 m above the sample (128, 128) (x = z = 0, h = 0), where
    // the surface slopes by ∂h/∂x = 2/7 + 0.5/2.3, ∂h/∂z = 0.5/3.1: its depth is that against
    // the tangent plane, 0.5 − 0.49/√(1 + hx² + hz²) = 0.0669, up to the surface's curvature
    // over the contact (about 10⁻³), and the deepest normal is the plane's.
    let ball = Ball::new(0.5).unwrap();
    let mut out = Vec::new();
    hf.contacts(
        &id,
        &Isometry::translation(0.0, 0.49, 0.0),
        &ball,
        0.0,
        &mut out,
    )
    .unwrap();
    assert!(!out.is_empty());
    let (hx, hz): (Real, Real) = (2.0 / 7.0 + 0.5 / 2.3, 0.5 / 3.1);
    let tangent = Vector::new(-hx, 1.0, -hz).normalize();
    let want = 0.5 - 0.49 * tangent.y;
    let deepest = out
        .iter()
        .max_by(|a, b| a.manifold.depth().total_cmp(&b.manifold.depth()))
        .unwrap();
    assert!(
        (deepest.manifold.depth() - want).abs() < 2e-3,
        "{deepest:?} vs {want}"
    );
    assert!(
        (deepest.manifold.normal - tangent).norm() < 0.02,
        "{deepest:?}"
    );
    // The world box: the field's extent and height range.
    let b = hf.local_aabb();
    assert!(b.mins.x <= -100.0 && b.maxs.x >= 100.0 && b.maxs.x < 100.01);
    let (lo, hi) = h
        .iter()
        .fold((Real::MAX, Real::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    assert!(b.mins.y <= lo && b.maxs.y >= hi && b.maxs.y < hi + 0.01);
}

/// Queries off the field (beside it, above it out of reach) find nothing; a ray from outside
/// the field's box toward it enters and hits.
#[test]
fn off_field_queries() {
    let hf = HeightField::new(3, 3, &[0.0; 9], Vector::new(2.0, 1.0, 2.0)).unwrap();
    let id = Isometry::identity();
    let ball = Ball::new(0.2).unwrap();
    let mut out = Vec::new();
    hf.contacts(
        &id,
        &Isometry::translation(1.5, 0.0, 0.0),
        &ball,
        0.1,
        &mut out,
    )
    .unwrap();
    assert!(out.is_empty());
    assert!(!hf
        .intersection_test(&id, &Isometry::translation(0.0, 0.5, 0.0), &ball)
        .unwrap());
    assert!(hf
        .intersection_test(&id, &Isometry::translation(0.0, 0.15, 0.0), &ball)
        .unwrap());
    // From far outside, aimed at the centre.
    let ray = Ray::new(Point::new(-10.0, 5.0, -10.0), Vector::new(10.0, -5.0, 10.0)).unwrap();
    let hit = hf.cast_ray(&id, &ray, 2.0).unwrap();
    assert!((hit.hit.t - 1.0).abs() < 1e-6 && hit.hit.point.y.abs() < 1e-6);
    // Parallel to the surface, above it: no hit.
    let ray = Ray::new(Point::new(-10.0, 0.1, 0.3), Vector::x()).unwrap();
    assert!(hf.cast_ray(&id, &ray, Real::INFINITY).is_none());
    // Vertical ray beside the field: no hit.
    let ray = Ray::new(Point::new(1.2, 5.0, 0.0), -Vector::y()).unwrap();
    assert!(hf.cast_ray(&id, &ray, Real::INFINITY).is_none());
    // A box swept down onto it from 1 m: impact after 0.8 of the motion.
    let cube = Cuboid::new(Vector::repeat(0.2)).unwrap();
    let toi = hf
        .cast_shape(
            &id,
            &Isometry::translation(0.3, 1.0, -0.4),
            &cube,
            &Vector::new(0.0, -1.0, 0.0),
            1e-3,
        )
        .unwrap();
    assert!((toi.toi.t - 0.8).abs() < 2e-3, "{}", toi.toi.t);
    assert!(toi.toi.normal.y > 0.99);
}

/// Hostile input: samples and scales from extreme magnitudes (some non-finite). Construction
/// gives a field or a typed error; queries on the fields that build, from extreme poses, give
/// only finite results.
#[test]
fn hostile_input_gives_errors_or_finite_results() {
    let mut r = ChaCha8Rng::seed_from_u64(0xbad2);
    let pick = |r: &mut ChaCha8Rng| -> Real {
        match r.gen_range(0..24) {
            0 => Real::NAN,
            1 => Real::INFINITY,
            2 => r.gen_range(-1.0..1.0) * 1e30,
            3 => r.gen_range(-1.0..1.0) * 1e-30,
            4 => 0.0,
            _ => r.gen_range(-3.0..3.0),
        }
    };
    let shapes = Shapes::new();
    let (mut built, mut refused, mut outputs) = (0, 0, 0);
    for _ in 0..300 {
        let (rows, cols) = (r.gen_range(1..6), r.gen_range(1..6));
        let h: Vec<Real> = (0..rows * cols).map(|_| pick(&mut r)).collect();
        let scale = Vector::new(pick(&mut r).abs(), pick(&mut r).abs(), pick(&mut r).abs());
        let hf = match HeightField::new(rows, cols, &h, scale) {
            Ok(hf) => hf,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                refused += 1;
                continue;
            }
        };
        built += 1;
        for _ in 0..10 {
            let c = Vector::new(pick(&mut r), pick(&mut r), pick(&mut r));
            let pose = Isometry::from_parts(Translation::from(c), rotation(&mut r));
            for s in shapes.views() {
                let mut out = Vec::new();
                hf.contacts(&Isometry::identity(), &pose, s, 0.1, &mut out)
                    .unwrap();
                for m in &out {
                    assert!(m.manifold.normal.iter().all(|x| x.is_finite()), "{m:?}");
                    assert!(m.manifold.depth().is_finite());
                    outputs += 1;
                }
                let _ = hf
                    .intersection_test(&Isometry::identity(), &pose, s)
                    .unwrap();
                let motion = Vector::new(pick(&mut r), pick(&mut r), pick(&mut r));
                if let Some(t) = hf.cast_shape(&Isometry::identity(), &pose, s, &motion, 1e-3) {
                    assert!(t.toi.is_finite() && (0.0..=1.0).contains(&t.toi.t), "{t:?}");
                    outputs += 1;
                }
            }
            let d = Vector::new(pick(&mut r), pick(&mut r), pick(&mut r));
            if let Ok(ray) = Ray::new(Point::from(c), d) {
                if let Some(h) = hf.cast_ray(&Isometry::identity(), &ray, Real::INFINITY) {
                    assert!(h.hit.is_finite(), "{h:?}");
                    outputs += 1;
                }
            }
        }
    }
    assert!(
        built > 20 && refused > 50,
        "{built} built, {refused} refused"
    );
    assert!(outputs > 0, "no query produced anything");
}
