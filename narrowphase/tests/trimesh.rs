//! `TriMesh` (`tumble_narrowphase::mesh`): every query against a brute force over all its
//! triangles on seeded random meshes, the seams of a flat mesh, constructor errors and
//! hand-picked cases.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::error::MeshError;
use tumble_narrowphase::math::{Isometry, Point, Real, Translation, Vector};
use tumble_narrowphase::mesh::TriMesh;
use tumble_narrowphase::ray::Ray;
use tumble_narrowphase::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, ShapeRef};

mod mesh_util;
use mesh_util::{check_against_brute_force, rotation, slide_across_seams, MeshLike, Slide};

/// A bumpy grid of `n × n` cells over `[0, n·cell]²` with heights in `[−amp, amp]` and the
/// vertices jittered in x and z by up to a fifth of a cell; triangles shuffled and a quarter
/// of them wound the other way (the adjacency must cope with both).
fn bumpy_grid(r: &mut ChaCha8Rng, n: u32, cell: Real, amp: Real) -> (Vec<Point>, Vec<[u32; 3]>) {
    let mut v = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            let jx = r.gen_range(-0.2..0.2) * cell;
            let jz = r.gen_range(-0.2..0.2) * cell;
            v.push(Point::new(
                i as Real * cell + jx,
                r.gen_range(-amp..=amp),
                j as Real * cell + jz,
            ));
        }
    }
    let at = |i: u32, j: u32| j * (n + 1) + i;
    let mut t = Vec::new();
    for j in 0..n {
        for i in 0..n {
            t.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
            t.push([at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    t.shuffle(r);
    for tri in &mut t {
        if r.gen_bool(0.25) {
            tri.swap(1, 2);
        }
    }
    (v, t)
}

/// A soup of `n` unconnected random triangles in `[0, size]³`.
fn soup(r: &mut ChaCha8Rng, n: usize, size: Real) -> (Vec<Point>, Vec<[u32; 3]>) {
    let mut v = Vec::new();
    let mut t = Vec::new();
    while t.len() < n {
        let c = Point::new(
            r.gen_range(0.0..size),
            r.gen_range(0.0..size),
            r.gen_range(0.0..size),
        );
        let k = v.len() as u32;
        let corners: Vec<Point> = (0..3)
            .map(|_| {
                c + Vector::new(
                    r.gen_range(-0.6..0.6),
                    r.gen_range(-0.6..0.6),
                    r.gen_range(-0.6..0.6),
                )
            })
            .collect();
        if tumble_narrowphase::shape::Triangle::new(corners[0], corners[1], corners[2]).is_ok() {
            v.extend(corners);
            t.push([k, k + 1, k + 2]);
        }
    }
    (v, t)
}

fn random_mesh_pose(r: &mut ChaCha8Rng) -> Isometry {
    Isometry::from_parts(
        Translation::new(
            r.gen_range(-3.0..3.0),
            r.gen_range(-3.0..3.0),
            r.gen_range(-3.0..3.0),
        ),
        rotation(r),
    )
}

/// Bumpy grids under random poses: contacts, boolean test, ray and sweep all agree with the
/// brute force over every triangle (see `mesh_util::check_against_brute_force`).
#[test]
fn bumpy_grids_match_brute_force() {
    let mut r = ChaCha8Rng::seed_from_u64(0x3e57);
    let (mut touching, mut rays, mut sweeps) = (0, 0, 0);
    for _ in 0..6 {
        let n = r.gen_range(3..9);
        let cell = r.gen_range(0.3..1.0);
        let (v, t) = bumpy_grid(&mut r, n, cell, 0.3);
        let mesh = TriMesh::new(&v, &t).unwrap();
        let mp = random_mesh_pose(&mut r);
        // Placements around the grid, in its local frame taken to the world.
        let size = n as Real * cell;
        let lo = mp * Point::new(-0.5, -1.0, -0.5);
        let hi = mp * Point::new(size + 0.5, 1.0, size + 0.5);
        let (lo, hi) = (lo.inf(&hi), lo.sup(&hi));
        let (a, b, c) = check_against_brute_force(&mesh, &mp, &mut r, &lo, &hi, 25);
        touching += a;
        rays += b;
        sweeps += c;
    }
    assert!(touching > 100, "{touching} placements touched");
    assert!(rays > 20, "{rays} rays hit");
    assert!(sweeps > 100, "{sweeps} sweeps hit");
}

/// Triangle soups (no shared edges, so no correction, many overlapping boxes in the
/// hierarchy).
#[test]
fn soups_match_brute_force() {
    let mut r = ChaCha8Rng::seed_from_u64(0x50c9);
    let (mut touching, mut rays, mut sweeps) = (0, 0, 0);
    for _ in 0..4 {
        let (v, t) = soup(&mut r, 150, 5.0);
        let mesh = TriMesh::new(&v, &t).unwrap();
        let mp = random_mesh_pose(&mut r);
        let lo = mp * Point::new(-0.5, -0.5, -0.5);
        let hi = mp * Point::new(5.5, 5.5, 5.5);
        let (lo, hi) = (lo.inf(&hi), lo.sup(&hi));
        let (a, b, c) = check_against_brute_force(&mesh, &mp, &mut r, &lo, &hi, 20);
        touching += a;
        rays += b;
        sweeps += c;
    }
    assert!(touching > 100, "{touching} placements touched");
    assert!(rays > 20, "{rays} rays hit");
    assert!(sweeps > 50, "{sweeps} sweeps hit");
}

/// A flat grid of `n × n` cells of `cell` metres in the plane y = 0, with both diagonals in
/// use (alternating), so seams run along x, z and both diagonals.
fn flat_grid(n: u32, cell: Real) -> TriMesh {
    let mut v = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            v.push(Point::new(i as Real * cell, 0.0, j as Real * cell));
        }
    }
    let at = |i: u32, j: u32| j * (n + 1) + i;
    let mut t = Vec::new();
    for j in 0..n {
        for i in 0..n {
            if (i + j) % 2 == 0 {
                t.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
                t.push([at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]);
            } else {
                t.push([at(i, j), at(i, j + 1), at(i + 1, j + 1)]);
                t.push([at(i, j), at(i + 1, j + 1), at(i + 1, j)]);
            }
        }
    }
    TriMesh::new(&v, &t).unwrap()
}

/// A box, a lying capsule, a ball and a hull resting 1 cm deep in a flat grid of 0.25 m
/// cells, slid across the seams in 400 steps per line (several lines in z, several yaw
/// angles): every contact normal is within 10⁻³ of +y and the deepest contact is 1 cm deep,
/// while the raw per-triangle kernel does give sideways normals there (the ghost
/// collisions the correction removes).
#[test]
fn flat_grid_seams_give_normals_straight_up() {
    let mesh = flat_grid(16, 0.25);
    let cuboid = Cuboid::new(Vector::new(0.5, 0.2, 0.3)).unwrap();
    let capsule = Capsule::new(0.4, 0.15).unwrap();
    let ball = Ball::new(0.3).unwrap();
    let hull = ConvexPolyhedron::from_cuboid(&Cuboid::new(Vector::new(0.35, 0.1, 0.2)).unwrap());
    // Lying capsule: its axis turned from y to x.
    let lying = Isometry::rotation(Vector::z() * std::f32::consts::FRAC_PI_2);
    let plan = Slide {
        top: 0.0,
        sink: 0.01,
        prediction: 0.0,
        xs: 1.0..2.5,
        zs: vec![1.5, 1.6, 1.75, 1.93],
    };
    let mut raw_total = 0;
    for yaw in [0.0, 0.3, 0.785, 1.2] {
        for (s, bottom) in [
            (ShapeRef::from(&cuboid), 0.2),
            (ShapeRef::from(&ball), 0.3),
            (ShapeRef::from(&hull), 0.1),
        ] {
            let (worst, raw, depth_err) = slide_across_seams(&mesh, s, bottom, &plan, yaw);
            assert!(worst <= 1e-3, "{}: normal {worst} from +y", s.kind_name());
            assert!(
                depth_err <= 1e-4,
                "{}: depth off by {depth_err}",
                s.kind_name()
            );
            raw_total += raw;
        }
        // The capsule lying along x (its pose built by hand: slide_across_seams turns bodies
        // about y only).
        for k in 0..=200 {
            let x = 1.0 + 1.5 * k as Real / 200.0;
            let pose = Isometry::from_parts(
                Translation::new(x, 0.15 - 0.01, 1.63),
                nalgebra::UnitQuaternion::from_axis_angle(&Vector::y_axis(), yaw) * lying.rotation,
            );
            let mut out = Vec::new();
            mesh.contacts(&Isometry::identity(), &pose, &capsule, 0.0, &mut out)
                .unwrap();
            assert!(!out.is_empty());
            let mut deepest = Real::NEG_INFINITY;
            for c in &out {
                assert!(
                    (c.manifold.normal - Vector::y()).norm() <= 1e-3,
                    "capsule at x = {x}: {:?}",
                    c.manifold.normal
                );
                deepest = deepest.max(c.manifold.depth());
            }
            assert!((deepest - 0.01).abs() <= 1e-4, "capsule depth {deepest}");
        }
    }
    // Hovering 5 mm above the grid, seen through a prediction of 2 cm: speculative contacts
    // straight up too, with depth −5 mm.
    let hover = Slide {
        sink: -0.005,
        prediction: 0.02,
        ..plan
    };
    for yaw in [0.0, 0.5] {
        for (s, bottom) in [
            (ShapeRef::from(&cuboid), 0.2),
            (ShapeRef::from(&ball), 0.3),
            (ShapeRef::from(&hull), 0.1),
        ] {
            let (worst, raw, depth_err) = slide_across_seams(&mesh, s, bottom, &hover, yaw);
            assert!(
                worst <= 1e-3,
                "{} hovering: normal {worst} from +y",
                s.kind_name()
            );
            assert!(
                depth_err <= 1e-4,
                "{} hovering: depth off by {depth_err}",
                s.kind_name()
            );
            raw_total += raw;
        }
    }
    assert!(
        raw_total > 0,
        "the raw kernel never gave a sideways normal: the case is too easy"
    );
}

/// A box whose sides lie exactly on the seams of the flat grid (and 10⁻⁵ m, 10⁻³ m to either
/// side of them, in x and z), at rest 1 cm deep: every normal within 10⁻³ of +y, depth 1 cm.
#[test]
fn box_sides_on_the_seams() {
    let mesh = flat_grid(16, 0.25);
    let cuboid = Cuboid::new(Vector::new(0.5, 0.2, 0.25)).unwrap();
    let mut cases = 0;
    for cx in [1.5, 1.75, 2.0] {
        for cz in [1.5, 1.75] {
            for dx in [0.0, 1e-5, -1e-5, 1e-3, -1e-3] {
                for dz in [0.0, 1e-5, -1e-3] {
                    let pose = Isometry::translation(cx + dx, 0.2 - 0.01, cz + dz);
                    let mut out = Vec::new();
                    mesh.contacts(&Isometry::identity(), &pose, &cuboid, 0.0, &mut out)
                        .unwrap();
                    assert!(!out.is_empty());
                    let mut deepest = Real::NEG_INFINITY;
                    for c in &out {
                        assert!(
                            (c.manifold.normal - Vector::y()).norm() <= 1e-3,
                            "at ({}, {}): {:?}",
                            cx + dx,
                            cz + dz,
                            c.manifold.normal
                        );
                        deepest = deepest.max(c.manifold.depth());
                    }
                    assert!((deepest - 0.01).abs() <= 1e-4, "depth {deepest}");
                    cases += 1;
                }
            }
        }
    }
    assert_eq!(cases, 90);
}

/// The same flat grid under a rotated and translated pose: the normals follow the pose's up.
#[test]
fn flat_grid_seams_under_a_pose() {
    let mesh = flat_grid(8, 0.25);
    let cuboid = Cuboid::new(Vector::new(0.3, 0.1, 0.2)).unwrap();
    let mut r = ChaCha8Rng::seed_from_u64(77);
    for _ in 0..5 {
        let mp = random_mesh_pose(&mut r);
        let up = mp.rotation * Vector::y();
        for k in 0..=300 {
            let x = 0.5 + 1.0 * k as Real / 300.0;
            let local = Isometry::translation(x, 0.1 - 0.005, 1.05);
            let pose = mp * local;
            let mut out = Vec::new();
            mesh.contacts(&mp, &pose, &cuboid, 0.0, &mut out).unwrap();
            assert!(!out.is_empty());
            for c in &out {
                assert!(
                    (c.manifold.normal - up).norm() <= 1e-3,
                    "{:?}",
                    c.manifold.normal
                );
            }
        }
    }
}

/// Every constructor error, and the first offending item named.
#[test]
fn constructor_errors() {
    let p = |x: Real, y: Real, z: Real| Point::new(x, y, z);
    let v = [
        p(0.0, 0.0, 0.0),
        p(1.0, 0.0, 0.0),
        p(0.0, 0.0, 1.0),
        p(2.0, 0.0, 0.0),
    ];
    assert_eq!(
        TriMesh::new(&[], &[[0, 1, 2]]).unwrap_err(),
        MeshError::Empty
    );
    assert_eq!(TriMesh::new(&v, &[]).unwrap_err(), MeshError::Empty);
    assert_eq!(
        TriMesh::new(&v, &[[0, 1, 2], [0, 1, 4]]).unwrap_err(),
        MeshError::IndexOutOfRange {
            triangle: 1,
            index: 4,
            vertex_count: 4
        }
    );
    let mut bad = v;
    bad[2].y = Real::NAN;
    assert_eq!(
        TriMesh::new(&bad, &[[0, 1, 3]]).unwrap_err(),
        MeshError::NonFiniteVertex(2)
    );
    bad[2].y = Real::INFINITY;
    assert_eq!(
        TriMesh::new(&bad, &[[0, 1, 3]]).unwrap_err(),
        MeshError::NonFiniteVertex(2)
    );
    // Collinear corners (0, 1, 3 all on the x axis), and a repeated corner.
    assert_eq!(
        TriMesh::new(&v, &[[0, 1, 2], [0, 1, 3]]).unwrap_err(),
        MeshError::DegenerateTriangle(1)
    );
    assert_eq!(
        TriMesh::new(&v, &[[2, 2, 1]]).unwrap_err(),
        MeshError::DegenerateTriangle(0)
    );
    // The error prints what is wrong.
    assert!(MeshError::DegenerateTriangle(7).to_string().contains('7'));
    // (TooManyTriangles is reached with a lowered limit in the crate's unit tests: a slice of
    // 2³¹ triangles cannot be allocated here.)
}

/// The unit square `[0, 1] × {0} × [0, 1]` as two triangles, facing +y, split along the
/// diagonal from (0, 0, 1) to (1, 0, 0).
fn unit_square() -> TriMesh {
    let v = [
        Point::new(0.0, 0.0, 0.0),
        Point::new(0.0, 0.0, 1.0),
        Point::new(1.0, 0.0, 0.0),
        Point::new(1.0, 0.0, 1.0),
    ];
    TriMesh::new(&v, &[[0, 1, 2], [1, 3, 2]]).unwrap()
}

/// Hand-picked: the module example's figure (a 0.25 m ball 5 cm deep on the diagonal of a
/// unit square of two triangles: both report depth 0.05 straight up), a ray straight down
/// onto the square, and a sweep of the same ball falling onto it from 1 m above.
#[test]
fn unit_square_by_hand() {
    let mesh = unit_square();
    assert_eq!(mesh.edge_neighbours(0), [None, Some(1), None]);
    assert_eq!(mesh.edge_neighbours(1), [None, None, Some(0)]);
    let ball = Ball::new(0.25).unwrap();
    let id = Isometry::identity();
    let mut out = Vec::new();
    mesh.contacts(
        &id,
        &Isometry::translation(0.5, 0.2, 0.5),
        &ball,
        0.0,
        &mut out,
    )
    .unwrap();
    assert_eq!(out.iter().map(|c| c.triangle).collect::<Vec<_>>(), [0, 1]);
    for c in &out {
        assert!((c.manifold.normal - Vector::y()).norm() < 1e-6);
        assert!((c.manifold.depth() - 0.05).abs() < 1e-6);
    }
    // Ray down at (0.8, ·, 0.7): x + z > 1, so triangle 1, at t = 2 (dir of length 1).
    let ray = Ray::new(Point::new(0.8, 2.0, 0.7), -Vector::y()).unwrap();
    let hit = mesh.cast_ray(&id, &ray, 10.0).unwrap();
    assert_eq!(hit.triangle, 1);
    assert!((hit.hit.t - 2.0).abs() < 1e-6);
    assert_eq!(hit.hit.normal, Vector::y());
    assert!(mesh.cast_ray(&id, &ray, 1.5).is_none());
    // The ball's centre from y = 1 down by 1 m: it touches at y = 0.25, t = 0.75.
    let toi = mesh
        .cast_shape(
            &id,
            &Isometry::translation(0.3, 1.0, 0.3),
            &ball,
            &Vector::new(0.0, -1.0, 0.0),
            0.0,
        )
        .unwrap();
    assert_eq!(toi.triangle, 0);
    assert!((toi.toi.t - 0.75).abs() < 1e-6);
    assert!((toi.toi.normal - Vector::y()).norm() < 1e-6);
    // A box dropped the same way, 0.1 high: touches (within the 1 mm slop) at t ≈ 0.9.
    let cube = Cuboid::new(Vector::repeat(0.1)).unwrap();
    let toi = mesh
        .cast_shape(
            &id,
            &Isometry::translation(0.3, 1.0, 0.3),
            &cube,
            &Vector::new(0.0, -1.0, 0.0),
            1e-3,
        )
        .unwrap();
    assert!((toi.toi.t - 0.9).abs() < 1e-3, "{}", toi.toi.t);
    // Boxes: local box, and the world box under a quarter turn about z.
    let b = mesh.local_aabb();
    assert!(b.mins.x <= 0.0 && b.maxs.x >= 1.0 && b.maxs.x < 1.0 + 1e-4);
    let w = mesh.aabb(&Isometry::rotation(
        Vector::z() * std::f32::consts::FRAC_PI_2,
    ));
    assert!(w.mins.y <= 0.0 && w.maxs.y >= 1.0 && w.mins.x < 1e-4 && w.maxs.x > -1e-4);
}

/// A convex ridge (a roof of two 45° slopes meeting along z at x = 0): a ball over the ridge
/// line touches the ridge edge with its normal straight up, between the two slopes' normals,
/// which the correction keeps; a box lying on one slope across the ridge gets that slope's
/// normal from the triangle it rests on.
#[test]
fn convex_ridge_keeps_edge_normals() {
    let v = [
        Point::new(0.0, 1.0, 0.0),
        Point::new(0.0, 1.0, 2.0),
        Point::new(-1.0, 0.0, 0.0),
        Point::new(-1.0, 0.0, 2.0),
        Point::new(1.0, 0.0, 0.0),
        Point::new(1.0, 0.0, 2.0),
    ];
    // Left slope (normal (−1, 1, 0)/√2) and right slope (normal (1, 1, 0)/√2), wound up.
    let mesh = TriMesh::new(&v, &[[0, 2, 1], [1, 2, 3], [0, 1, 4], [1, 5, 4]]).unwrap();
    let ball = Ball::new(0.2).unwrap();
    let id = Isometry::identity();
    let mut out = Vec::new();
    mesh.contacts(
        &id,
        &Isometry::translation(0.0, 1.19, 1.0),
        &ball,
        0.0,
        &mut out,
    )
    .unwrap();
    assert!(!out.is_empty());
    for c in &out {
        assert!(
            (c.manifold.normal - Vector::y()).norm() < 1e-5,
            "{:?}",
            c.manifold.normal
        );
        assert!((c.manifold.depth() - 0.01).abs() < 1e-5);
    }
}

/// Non-finite poses and bounds give nothing, never a panic or a NaN.
#[test]
fn bad_query_input_gives_nothing() {
    let mesh = flat_grid(2, 1.0);
    let ball = Ball::new(0.5).unwrap();
    let nan = Isometry::translation(Real::NAN, 0.0, 0.0);
    let id = Isometry::identity();
    let mut out = Vec::new();
    mesh.contacts(&nan, &id, &ball, 0.1, &mut out).unwrap();
    mesh.contacts(&id, &nan, &ball, 0.1, &mut out).unwrap();
    mesh.contacts(&id, &id, &ball, Real::NAN, &mut out).unwrap();
    assert!(out.is_empty());
    assert!(!mesh.intersection_test(&id, &nan, &ball).unwrap());
    let ray = Ray::new(Point::new(0.5, 1.0, 0.5), -Vector::y()).unwrap();
    assert!(mesh.cast_ray(&nan, &ray, 10.0).is_none());
    assert!(mesh.cast_ray(&id, &ray, Real::NAN).is_none());
    assert!(mesh.cast_ray(&id, &ray, -1.0).is_none());
    let down = Vector::new(0.0, -2.0, 0.0);
    let above = Isometry::translation(0.5, 1.0, 0.5);
    assert!(mesh
        .cast_shape(&id, &above, &ball, &Vector::new(Real::NAN, 0.0, 0.0), 0.0)
        .is_none());
    assert!(mesh
        .cast_shape(&id, &above, &ball, &down, Real::NAN)
        .is_none());
    assert!(mesh.cast_shape(&id, &nan, &ball, &down, 0.0).is_none());
    assert!(mesh.cast_shape(&id, &above, &ball, &down, 0.0).is_some());
    assert!(mesh.triangle(8).is_none());
    assert_eq!(mesh.triangle_contact(8, &id, &id, &ball, 0.0), Ok(None));
}

/// `MeshLike` is used by the shared helpers; the flat grid goes through it too, so the
/// helper's seam check is itself exercised on a mesh whose answer is known.
#[test]
fn helper_trait_covers_trimesh() {
    let mesh = flat_grid(2, 1.0);
    assert_eq!(MeshLike::count(&mesh), 8);
}

/// A gentle convex fold (two slopes of ±5° meeting along z at x = 0, each a grid of 0.25 m
/// triangles): a box, a ball and a hull sliding across the fold and the seams get only normals
/// in the arc between the two slopes' normals (the edge's cone), never sideways.
#[test]
fn convex_fold_normals_stay_in_the_edge_cone() {
    let slope: Real = 5.0_f32.to_radians();
    let (n, cell) = (12u32, 0.25);
    let mut v = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            let x = (i as Real - n as Real / 2.0) * cell;
            v.push(Point::new(x, -x.abs() * slope.tan(), j as Real * cell));
        }
    }
    let at = |i: u32, j: u32| j * (n + 1) + i;
    let mut t = Vec::new();
    for j in 0..n {
        for i in 0..n {
            t.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
            t.push([at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    let mesh = TriMesh::new(&v, &t).unwrap();
    let left = Vector::new(-slope.sin(), slope.cos(), 0.0);
    let right = Vector::new(slope.sin(), slope.cos(), 0.0);
    let arc = left.angle(&right);
    let cuboid = Cuboid::new(Vector::new(0.4, 0.1, 0.3)).unwrap();
    let ball = Ball::new(0.3).unwrap();
    let hull = ConvexPolyhedron::from_cuboid(&Cuboid::new(Vector::new(0.3, 0.1, 0.2)).unwrap());
    let mut checked = 0;
    for (s, bottom) in [
        (ShapeRef::from(&cuboid), 0.1),
        (ShapeRef::from(&ball), 0.3),
        (ShapeRef::from(&hull), 0.1),
    ] {
        for k in 0..=300 {
            let x = -0.8 + 1.6 * k as Real / 300.0;
            // Resting on the fold's surface below its centre (the ridge at x = 0 is highest).
            let y = -x.abs() * slope.tan() + bottom - 0.005;
            let pose = Isometry::translation(x, y, 1.4);
            let mut out = Vec::new();
            mesh.contacts(&Isometry::identity(), &pose, s, 0.0, &mut out)
                .unwrap();
            assert!(!out.is_empty(), "{} at x = {x}", s.kind_name());
            for c in &out {
                let nm = c.manifold.normal;
                assert!(
                    nm.angle(&left) + nm.angle(&right) <= arc + 1e-3,
                    "{} at x = {x}: normal {nm:?} outside the fold's cone",
                    s.kind_name()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 900);
}

/// Hostile input: vertices drawn from extreme magnitudes (10⁻³⁰ to 10³⁰, zeros, signs mixed,
/// some NaN and infinities) and random index triples. Construction gives a mesh or a typed
/// error, never a panic; queries on the meshes that build, from poses as extreme, give only
/// finite results.
#[test]
fn hostile_input_gives_errors_or_finite_results() {
    let mut r = ChaCha8Rng::seed_from_u64(0xbad);
    // Non-finite values in one draw of 16 (one in 4 of the meshes get none at all).
    let pick = |r: &mut ChaCha8Rng| -> Real {
        match r.gen_range(0..16) {
            0 => 0.0,
            1 => Real::NAN,
            2 => Real::INFINITY,
            3 => r.gen_range(-1.0..1.0) * 1e30,
            4 => r.gen_range(-1.0..1.0) * 1e-30,
            _ => r.gen_range(-3.0..3.0),
        }
    };
    let shapes = mesh_util::Shapes::new();
    let (mut built, mut refused, mut outputs) = (0, 0, 0);
    for _ in 0..400 {
        let clean = r.gen_bool(0.25);
        let nv = r.gen_range(0..8);
        let v: Vec<Point> = (0..nv)
            .map(|_| {
                let mut p = Point::new(pick(&mut r), pick(&mut r), pick(&mut r));
                if clean {
                    p.iter_mut()
                        .filter(|x| !x.is_finite())
                        .for_each(|x| *x = 1.0);
                }
                p
            })
            .collect();
        let nt = r.gen_range(0..4);
        // Three distinct indices, sometimes one past the end.
        let top = (nv as u32 + r.gen_bool(0.2) as u32).max(3);
        let t: Vec<[u32; 3]> = (0..nt)
            .map(|_| {
                let a = r.gen_range(0..top);
                let b = (a + r.gen_range(1..top)) % top;
                let c = (0..top).find(|&c| c != a && c != b).unwrap_or(0);
                [a, b, c]
            })
            .collect();
        let mesh = match TriMesh::new(&v, &t) {
            Ok(m) => m,
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
                mesh.contacts(&Isometry::identity(), &pose, s, 0.1, &mut out)
                    .unwrap();
                for m in &out {
                    let n = m.manifold.normal;
                    assert!(n.iter().all(|x| x.is_finite()), "{m:?}");
                    assert!(m.manifold.depth().is_finite());
                    assert!(m
                        .manifold
                        .points()
                        .iter()
                        .all(|p| p.depth.is_finite() && p.point.iter().all(|x| x.is_finite())));
                    outputs += 1;
                }
                let _ = mesh
                    .intersection_test(&Isometry::identity(), &pose, s)
                    .unwrap();
                let motion = Vector::new(pick(&mut r), pick(&mut r), pick(&mut r));
                if let Some(t) = mesh.cast_shape(&Isometry::identity(), &pose, s, &motion, 1e-3) {
                    assert!(t.toi.is_finite() && (0.0..=1.0).contains(&t.toi.t), "{t:?}");
                    outputs += 1;
                }
            }
            if let Ok(ray) = Ray::new(
                Point::from(c),
                Vector::new(pick(&mut r), pick(&mut r), pick(&mut r)),
            ) {
                if let Some(h) = mesh.cast_ray(&Isometry::identity(), &ray, Real::INFINITY) {
                    assert!(h.hit.is_finite(), "{h:?}");
                    outputs += 1;
                }
            }
        }
    }
    assert!(
        built > 20 && refused > 100,
        "{built} built, {refused} refused"
    );
    assert!(outputs > 0, "no query produced anything");
}

/// Distances by hand on the unit square at y = 0: a ball of radius 0.25 centred 2 m above
/// (0.5, ·, 0.5) is 1.75 m away, its closest point on the mesh straight below it; one centred
/// at (3, 0, 0.5) is 2 − 0.25 = 1.75 m from the edge x = 1; far away (10⁴ m) the answer is
/// still exact; a mesh against a mesh has no algorithm.
#[test]
fn distances_to_the_unit_square_by_hand() {
    use tumble_narrowphase::query::{closest_points, distance, QueryError};
    let mesh = unit_square();
    let ball = Ball::new(0.25).unwrap();
    let id = Isometry::identity();
    let above = Isometry::translation(0.5, 2.0, 0.5);
    let c = closest_points(&id, &mesh, &above, &ball).unwrap();
    assert!((c.distance - 1.75).abs() < 1e-6, "{}", c.distance);
    assert!((c.point_a - Point::new(0.5, 0.0, 0.5)).norm() < 1e-6);
    assert!((c.normal - Vector::y()).norm() < 1e-6);
    let beside = Isometry::translation(3.0, 0.0, 0.5);
    assert!((distance(&id, &mesh, &beside, &ball).unwrap() - 1.75).abs() < 1e-6);
    let far = Isometry::translation(0.5, 1.0e4, 0.5);
    let d = distance(&far, &ball, &id, &mesh).unwrap();
    assert!((d - (1.0e4 - 0.25)).abs() < 1e-2, "{d}");
    assert!(matches!(
        closest_points(&id, &mesh, &above, &mesh),
        Err(QueryError::Unsupported(_))
    ));
}

/// A ridge: a flat triangle (normal +y, x ≤ 0) and, across its edge along z at x = 0, a
/// triangle sloping down by 30° (x ≥ 0), a convex edge. A unit cube rests on the slope 1 cm
/// deep, its lowest edge 5 cm beyond the ridge: the flat triangle is 5.8 cm from it along the
/// cube's side axis. Its contact (within a 10 cm prediction) leans over the convex edge and is
/// measured again along the slope's normal, on which the projections overlap by the cube's
/// 1 cm: that triangle must still report the cube apart (depth ≤ −5.8 cm, the gap its own
/// axis proves), not push it 1 cm out of a triangle it does not touch.
#[test]
fn apart_triangle_across_a_convex_edge_never_pushes() {
    let tan30 = (30.0 as Real).to_radians().tan();
    let v = [
        Point::new(0.0, 0.0, -2.0),
        Point::new(0.0, 0.0, 2.0),
        Point::new(-2.0, 0.0, 0.0),
        Point::new(2.0, -2.0 * tan30, 0.0),
    ];
    let mesh = TriMesh::new(&v, &[[0, 2, 1], [0, 1, 3]]).unwrap();
    let slope = (v[1] - v[0]).cross(&(v[3] - v[0])).normalize();
    let rot =
        nalgebra::UnitQuaternion::from_axis_angle(&Vector::z_axis(), -(30.0 as Real).to_radians());
    let (side, up) = (rot * Vector::x(), rot * Vector::y());
    assert!((up - slope).norm() < 1e-6);
    let corner = Point::new(0.05, -0.05 * tan30, 0.0) - slope * 0.01;
    let centre = corner + side * 0.5 + up * 0.5;
    let pose = Isometry::from_parts(Translation::from(centre.coords), rot);
    let cube = Cuboid::new(Vector::repeat(0.5)).unwrap();
    let mut out = Vec::new();
    mesh.contacts(&Isometry::identity(), &pose, &cube, 0.1, &mut out)
        .unwrap();
    let flat = out
        .iter()
        .find(|c| c.triangle == 0)
        .expect("within the prediction");
    let gap = side.dot(&(corner - v[0]));
    assert!(gap > 0.057, "{gap}");
    assert!(
        flat.manifold.depth() <= -gap + 1e-5,
        "flat triangle depth {}",
        flat.manifold.depth()
    );
    for p in flat.manifold.points() {
        assert!(p.depth <= -gap + 1e-5, "point depth {}", p.depth);
    }
    let sloped = out.iter().find(|c| c.triangle == 1).expect("resting on it");
    assert!(
        (sloped.manifold.depth() - 0.01).abs() < 1e-4,
        "{}",
        sloped.manifold.depth()
    );
}
