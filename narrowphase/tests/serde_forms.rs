//! The serialised forms of the types that validate on deserialising (`Ray`, `Plane`,
//! `Capsule`, `ConvexPolygon`, `ConcavePolygon`, `Compound`): a value round-trips through JSON, and input
//! its constructor refuses is refused by deserialising too, with the constructor's error.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use tumble_narrowphase::math::{Isometry, Point, Point2, Vector};
use tumble_narrowphase::planar::{ConcavePolygon, ConvexPolygon};
use tumble_narrowphase::ray::{Plane, Ray};
use tumble_narrowphase::shape::{Capsule, Compound, Cuboid, Shape};

/// `good` round-trips; its JSON with `from` replaced by `to` does not deserialise, and the
/// error names `why` (the constructor's message).
fn check<T: Serialize + DeserializeOwned + PartialEq + Debug>(
    good: T,
    from: &str,
    to: &str,
    why: &str,
) {
    let json = serde_json::to_string(&good).unwrap();
    assert_eq!(serde_json::from_str::<T>(&json).unwrap(), good, "{json}");
    assert!(json.contains(from), "{json} lacks {from}");
    let bad = json.replacen(from, to, 1);
    let err = serde_json::from_str::<T>(&bad).expect_err(&bad).to_string();
    assert!(err.contains(why), "{bad}: {err}");
}

#[test]
fn ray_refuses_a_zero_direction() {
    let ray = Ray::new(Point::new(1.0, 2.0, 3.0), Vector::new(0.0, 0.0, 4.0)).unwrap();
    check(ray, "4.0", "0.0", "ray direction is zero");
}

#[test]
fn plane_refuses_a_zero_normal() {
    let plane = Plane::new(Vector::new(0.0, 0.0, 1.0), 2.0).unwrap();
    check(plane, "1.0", "0.0", "plane normal is zero");
}

#[test]
fn capsule_refuses_a_negative_radius() {
    check(
        Capsule::new(0.75, 0.25).unwrap(),
        "0.25",
        "-0.25",
        "capsule radius",
    );
}

#[test]
fn convex_polygon_refuses_an_l() {
    let p = |x, y| Point2::new(x, y);
    let square = [p(0.0, 0.0), p(3.0, 0.0), p(3.0, 3.0), p(0.0, 3.0)];
    let poly = ConvexPolygon::new(&square).unwrap();
    // The L of three squares: the square's top-right corner pushed into the notch.
    check(
        poly,
        "[3.0,3.0]",
        "[3.0,1.0],[1.0,1.0],[1.0,3.0]",
        "not convex",
    );
}

#[test]
fn concave_polygon_refuses_crossing_edges() {
    let p = |x, y| Point2::new(x, y);
    // An arrowhead pointing along +x, its notch at (1, 1).
    let dart = [p(0.0, 0.0), p(2.0, 1.0), p(0.0, 2.0), p(1.0, 1.0)];
    let poly = ConcavePolygon::new(&dart).unwrap();
    // The notch moved to (1, 3): its edge back to the origin crosses the edge (2, 1)–(0, 2).
    check(poly, "[1.0,1.0]", "[1.0,3.0]", "cross");
}

#[test]
fn compound_refuses_a_mesh_child_and_a_bad_box() {
    let boxed = Shape::from(Cuboid::new(Vector::new(0.5, 0.25, 0.125)).unwrap());
    let c = Compound::new(vec![
        (Isometry::translation(1.0, 0.0, 0.0), boxed.clone()),
        (Isometry::translation(-1.0, 0.0, 0.0), boxed),
    ])
    .unwrap();
    check(
        c.clone(),
        "0.125",
        "-0.125",
        "compound child 0 refused: its half-extents are not finite and positive",
    );
    // A child kind the constructor refuses, written by other means.
    let tri = r#"{"TriMesh":{"vertices":[[0.0,0.0,0.0],[1.0,0.0,0.0],[0.0,0.0,1.0]],"indices":[[0,1,2]]}}"#;
    let json = serde_json::to_string(&c).unwrap();
    let cut = json.find(r#"{"Cuboid""#).unwrap();
    let bad = format!(
        "{}{}{}",
        &json[..cut],
        tri,
        &json[json.find("}}").unwrap() + 2..]
    );
    let err = serde_json::from_str::<Compound>(&bad)
        .expect_err(&bad)
        .to_string();
    assert!(
        err.contains("compound child 0 refused: a triangle mesh"),
        "{bad}: {err}"
    );
}
