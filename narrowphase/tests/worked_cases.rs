//! Named worked cases, each checked against an independent oracle (GJK distance, the generic
//! SAT) rather than against a stored answer alone.

mod common;

use std::f32::consts::{FRAC_PI_4, FRAC_PI_6};
use tumble_narrowphase::gjk::{self, GjkResult};
use tumble_narrowphase::math::{Isometry, Point, Real, Rotation, Vector};
use tumble_narrowphase::query::{
    contact, intersection_ball_aabb, intersection_ball_obb, intersection_test,
};
use tumble_narrowphase::sat::{self, AxisReport, SeparatingAxis};
use tumble_narrowphase::shape::{Ball, ConvexPolyhedron, Cuboid, Obb, Shape, Triangle};
use tumble_narrowphase::Aabb;

fn gjk_gap<A: gjk::SupportMap, B: gjk::SupportMap>(a: &A, b: &B) -> Real {
    let id = Isometry::identity();
    match gjk::distance(&id, a, &id, b) {
        GjkResult::Intersecting => 0.0,
        GjkResult::Separated { distance, .. } => distance,
    }
}

fn p(x: Real, y: Real, z: Real) -> Point {
    Point::new(x, y, z)
}

#[test]
fn ericson_spheres_apart_through_the_general_entry() {
    let b = Shape::from(Ball::new(2.0).unwrap());
    let pa = Isometry::identity();
    let pb = Isometry::translation(3.0, 3.0, 0.0);
    // |c|² = 18 > (2 + 2)² = 16.
    assert!(!intersection_test(&pa, &b, &pb, &b).unwrap());
    assert!(contact(&pa, &b, &pb, &b, 0.0).unwrap().is_none());
    // Within a prediction of √18 − 4 ≈ 0.243 m, a speculative contact.
    let m = contact(&pa, &b, &pb, &b, 0.25).unwrap().unwrap();
    assert!((m.depth() - (4.0 - (18.0 as Real).sqrt())).abs() < 1e-5);
}

#[test]
fn ericson_aabbs_separated_on_y_as_oriented_boxes() {
    let a = Aabb::new(p(0.0, 0.0, 0.0), p(2.0, 2.0, 2.0)).unwrap();
    let b = Aabb::new(p(1.0, 2.5, 0.0), p(3.0, 4.0, 1.0)).unwrap();
    let (oa, ob) = (Obb::from_aabb(&a).unwrap(), Obb::from_aabb(&b).unwrap());
    let r = sat::cuboid_cuboid::obb_obb(&oa, &ob).unwrap();
    assert_eq!(r.axis, SeparatingAxis::FaceA(1));
    assert_eq!(r.to_string(), "face 2 of A (2nd of 15)");
    // Sphere against AABB and OBB on squared distances: the sphere at (1, 3.2, 0.5) of
    // radius 0.8 reaches y = 2.4 < 2.5 from above B's bottom... it touches B, not A.
    let c = p(1.0, 3.2, 0.5);
    assert!(oa.distance_squared_to_point(&c) > 0.8 * 0.8);
    assert!(ob.distance_squared_to_point(&c) <= 0.8 * 0.8);
    assert!(!intersection_ball_aabb(&c, 0.8, &a) && intersection_ball_aabb(&c, 0.8, &b));
    assert!(!intersection_ball_obb(&c, 0.8, &oa) && intersection_ball_obb(&c, 0.8, &ob));
}

/// Two sticks crossed at right angles, each turned 45° about its long axis (diamond
/// cross-sections), one 0.3 m above the other: their edges come within 0.3 − 2·0.1·√2 ≈
/// 0.0172 m. No face normal of either separates them (the sticks are long); only the cross
/// product of their long edges (the y axis) does.
#[test]
fn crossed_sticks_apart_only_by_an_edge_pair() {
    let a = Obb::from_rotation(
        Point::origin(),
        &Rotation::from_axis_angle(&Vector::x_axis(), FRAC_PI_4),
        Vector::new(2.0, 0.1, 0.1),
    )
    .unwrap();
    let b = Obb::from_rotation(
        p(0.0, 0.3, 0.0),
        &Rotation::from_axis_angle(&Vector::z_axis(), FRAC_PI_4),
        Vector::new(0.1, 0.1, 2.0),
    )
    .unwrap();
    let r = sat::cuboid_cuboid::obb_obb(&a, &b).expect("apart");
    assert_eq!(r.axis, SeparatingAxis::EdgeEdge(0, 2));
    assert_eq!(r.to_string(), "edge 1 of A × edge 3 of B (9th of 15)");
    // Independent checks: the generic SAT on the polyhedra, and GJK's distance.
    let (ha, hb) = (
        ConvexPolyhedron::from_obb(&a),
        ConvexPolyhedron::from_obb(&b),
    );
    let id = Isometry::identity();
    let g = sat::convex::convex_convex(
        &sat::convex::Posed::new(&ha, &id),
        &sat::convex::Posed::new(&hb, &id),
    )
    .expect("apart");
    assert!(matches!(g.axis, SeparatingAxis::EdgeEdge(..)), "{g}");
    let want = 0.3 - 0.2 * (2.0 as Real).sqrt();
    assert!((gjk_gap(&ha, &hb) - want).abs() < 1e-5);
    // With a prediction the contact is the single edge–edge point, midway in the gap.
    let ca = Cuboid::new(a.half_extents()).unwrap();
    let cb = Cuboid::new(b.half_extents()).unwrap();
    let pa = Isometry::from_parts(
        Vector::zeros().into(),
        Rotation::from_axis_angle(&Vector::x_axis(), FRAC_PI_4),
    );
    let pb = Isometry::from_parts(
        Vector::new(0.0, 0.3, 0.0).into(),
        Rotation::from_axis_angle(&Vector::z_axis(), FRAC_PI_4),
    );
    let m = contact(&pa, &Shape::from(ca), &pb, &Shape::from(cb), 0.05)
        .unwrap()
        .unwrap();
    assert_eq!(m.len(), 1);
    assert!((m.normal - Vector::y()).norm() < 1e-5);
    assert!((m.points()[0].depth + want).abs() < 1e-5);
    assert!((m.points()[0].point - p(0.0, 0.15, 0.0)).norm() < 1e-5);
    // The cached variant confirms the same axis first.
    let again = sat::cuboid_cuboid::obb_obb_cached(&a, &b, Some(r.axis)).unwrap();
    assert_eq!(again, r);
}

/// Two triangles that only the last of their 11 axes (edge 3 × edge 3) separates.
#[test]
fn triangles_that_need_all_eleven_axes() {
    let a = [
        p(0.19, -1.0, -0.31),
        p(0.44, -0.88, -0.7),
        p(-0.43, 0.54, -0.13),
    ];
    let b = [
        p(-0.81, -0.02, 0.47),
        p(-0.43, 0.37, 0.69),
        p(0.74, -0.65, -0.97),
    ];
    let r = sat::triangle_triangle::triangle_triangle(&a, &b).expect("apart");
    assert_eq!(r.to_string(), "edge 3 of A × edge 3 of B (11th of 17)");
    let ta = Triangle::new(a[0], a[1], a[2]).unwrap();
    let tb = Triangle::new(b[0], b[1], b[2]).unwrap();
    assert!(gjk_gap(&ta, &tb) > 1e-4, "GJK must see them apart");
    let (ha, hb) = (
        ConvexPolyhedron::from_triangle(&ta),
        ConvexPolyhedron::from_triangle(&tb),
    );
    let id = Isometry::identity();
    let g = sat::convex::convex_convex(
        &sat::convex::Posed::new(&ha, &id),
        &sat::convex::Posed::new(&hb, &id),
    )
    .expect("the generic SAT agrees");
    assert!(matches!(g.axis, SeparatingAxis::EdgeEdge(..)));
    // The cached axis is tried first and confirmed.
    let c = sat::triangle_triangle::triangle_triangle_cached(&a, &b, Some(r.axis)).unwrap();
    assert_eq!(c, r);
    // Pushed together along that axis they touch.
    assert!(!intersection_test(&id, &Shape::from(ta), &id, &Shape::from(tb)).unwrap());
}

#[test]
fn coplanar_triangles_apart_get_an_in_plane_axis() {
    let a = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)];
    let b = [p(0.6, 0.6, 0.0), p(1.6, 0.6, 0.0), p(0.6, 1.6, 0.0)];
    let r = sat::triangle_triangle::triangle_triangle(&a, &b).expect("apart in their plane");
    assert_eq!(r.count, 17);
    assert!(matches!(r.axis, SeparatingAxis::InPlaneA(1)), "{r}");
    let b2 = [p(0.4, 0.4, 0.0), p(1.4, 0.4, 0.0), p(0.4, 1.4, 0.0)];
    assert!(sat::triangle_triangle::intersects(&a, &b2));
}

/// A triangle against a box turned 30° about x and 45° about z, first separated by an
/// edge × edge axis (after the box faces and the triangle's normal failed).
#[test]
fn triangle_against_turned_box_first_gap_is_an_edge_pair() {
    let rot = Rotation::from_euler_angles(FRAC_PI_6, 0.0, FRAC_PI_4);
    let obb = Obb::from_rotation(Point::origin(), &rot, Vector::new(1.0, 0.5, 0.25)).unwrap();
    let tri = [
        p(0.32, 1.18, 0.07),
        p(-0.45, 0.84, -0.08),
        p(-1.03, -0.63, -0.76),
    ];
    let r: AxisReport = sat::triangle_cuboid::triangle_obb(&tri, &obb).expect("apart");
    assert_eq!(r.axis, SeparatingAxis::EdgeEdge(1, 0));
    assert_eq!(r.to_string(), "edge 2 of A × edge 1 of B (8th of 13)");
    let t = Triangle::new(tri[0], tri[1], tri[2]).unwrap();
    let c = Cuboid::new(obb.half_extents()).unwrap();
    let pb = Isometry::from_parts(Vector::zeros().into(), rot);
    let id = Isometry::identity();
    match gjk::distance(&id, &t, &pb, &c) {
        GjkResult::Separated { distance, .. } => assert!(distance > 1e-4),
        GjkResult::Intersecting => panic!("GJK must see them apart"),
    }
    assert!(!intersection_test(&id, &Shape::from(t), &pb, &Shape::from(c)).unwrap());
    // Last frame's axis, tried first.
    assert_eq!(
        sat::triangle_cuboid::triangle_obb_cached(&tri, &obb, Some(r.axis)),
        Some(r)
    );
}

#[test]
fn hull_of_a_cube_with_inner_and_edge_points() {
    let mut pts = Vec::new();
    for x in [-1.0, 0.0, 1.0] {
        for y in [-1.0, 0.0, 1.0] {
            for z in [-1.0, 0.0, 1.0] {
                pts.push(p(x, y, z));
            }
        }
    }
    let h = ConvexPolyhedron::from_points(&pts).unwrap();
    h.validate().unwrap();
    // 27 points on a 3×3×3 grid: the hull is the cube; V − E + F = 2 holds whatever points
    // of the face centres and edge middles it kept.
    assert_eq!(h.faces().len(), 6);
    assert_eq!(h.face_normals().len(), 3);
    assert_eq!(h.edge_directions().len(), 3);
    let v = h.vertices().len() as i64;
    let e = h.edges().len() as i64;
    assert_eq!(v - e + 6, 2);
}

#[test]
fn conversions_keep_the_shape() {
    let aabb = Aabb::new(p(-1.0, 0.0, 2.0), p(1.0, 3.0, 2.5)).unwrap();
    let obb = Obb::from_aabb(&aabb).unwrap();
    let poly = ConvexPolyhedron::from_obb(&obb);
    poly.validate().unwrap();
    assert_eq!(poly.aabb(&Isometry::identity()), aabb);
    let t = Triangle::new(p(0.0, 0.0, 0.0), p(2.0, 0.0, 0.0), p(0.0, 0.0, 1.0)).unwrap();
    let tp = ConvexPolyhedron::from_triangle(&t);
    tp.validate().unwrap();
    assert_eq!(tp.vertices(), t.corners());
    // Sphere–OBB: a turned box and the sphere at its corner's outside diagonal.
    let rot = Rotation::from_axis_angle(&Vector::y_axis(), 0.3);
    let ob = Obb::from_rotation(p(1.0, 2.0, 3.0), &rot, Vector::new(1.0, 1.0, 1.0)).unwrap();
    let corner = ob.corner(7);
    let out = corner + (corner - ob.center()).normalize() * 0.5;
    assert!((ob.distance_squared_to_point(&out) - 0.25).abs() < 1e-4);
}
