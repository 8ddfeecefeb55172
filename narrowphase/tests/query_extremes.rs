//! The distance, shape-cast and planar queries fed extreme, degenerate and non-finite poses,
//! velocities, options, points and rays: each answers with finite fields or refuses (`Err` /
//! `None`), and returns (the casts make at most `CAST_MAX_ITERATIONS` distance queries).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::math::{
    Isometry, Point, Point2, Real, Rotation, Translation, Vector, Vector2,
};
use tumble_narrowphase::planar::{self, Circle, ConvexPolygon, Line, Ray2, Rect, Segment};
use tumble_narrowphase::query::{self, QueryError};
use tumble_narrowphase::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape, Triangle};
use tumble_narrowphase::sweep::{cast_shape, CastOptions};

const POOL: [Real; 15] = [
    0.0,
    -0.0,
    1.0e-40,
    Real::MIN_POSITIVE,
    1.0e-20,
    1.0e-7,
    0.5,
    1.0,
    2.0,
    1.0e7,
    1.0e18,
    1.0e30,
    Real::MAX,
    Real::INFINITY,
    Real::NAN,
];

fn scalar(r: &mut ChaCha8Rng) -> Real {
    if r.gen_bool(0.5) {
        return r.gen_range(-2.0..2.0);
    }
    let v = POOL[r.gen_range(0..POOL.len())];
    if r.gen_bool(0.5) {
        -v
    } else {
        v
    }
}

fn vector(r: &mut ChaCha8Rng) -> Vector {
    Vector::new(scalar(r), scalar(r), scalar(r))
}

fn pose(r: &mut ChaCha8Rng) -> Isometry {
    let rot = if r.gen_bool(0.8) {
        Rotation::from_euler_angles(r.gen_range(-3.0..3.0), r.gen_range(-3.0..3.0), 0.5)
    } else {
        Rotation::new_unchecked(nalgebra::Quaternion::new(scalar(r), scalar(r), 0.0, 0.0))
    };
    Isometry::from_parts(Translation::from(vector(r)), rot)
}

fn shapes() -> Vec<Shape> {
    let p = |x, y, z| Point::new(x, y, z);
    vec![
        Shape::from(Ball::new(0.5).unwrap()),
        Shape::from(Cuboid::new(Vector::new(0.5, 0.2, 1.0)).unwrap()),
        Shape::from(Capsule::new(0.5, 0.3).unwrap()),
        Shape::from(Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.2)).unwrap()),
        Shape::from(
            ConvexPolyhedron::from_points(&[
                p(0.0, 0.0, 0.0),
                p(1.0, 0.0, 0.0),
                p(0.0, 1.0, 0.0),
                p(0.0, 0.0, 1.0),
                p(0.4, 0.4, 0.4),
            ])
            .unwrap(),
        ),
    ]
}

#[test]
fn distance_and_cast_refuse_or_stay_finite() {
    let mut r = ChaCha8Rng::seed_from_u64(61);
    let all = shapes();
    let (mut answered, mut refused) = (0, 0);
    for _ in 0..4000 {
        let (a, b) = (&all[r.gen_range(0..5)], &all[r.gen_range(0..5)]);
        let (pa, pb) = (pose(&mut r), pose(&mut r));
        match query::closest_points(&pa, a, &pb, b) {
            Ok(c) => {
                answered += 1;
                assert!(c.is_finite(), "{c:?}");
                assert!((c.normal.norm() - 1.0).abs() < 1e-3, "{c:?}");
            }
            Err(QueryError::NonFinite(_)) | Err(QueryError::NotUnitRotation(_)) => refused += 1,
            Err(e) => panic!("{e:?}"),
        }
        match query::distance(&pa, a, &pb, b) {
            Ok(d) => assert!(d.is_finite() && d >= 0.0, "{d}"),
            Err(QueryError::NonFinite(_)) | Err(QueryError::NotUnitRotation(_)) => {}
            Err(e) => panic!("{e:?}"),
        }
        let o = CastOptions {
            t_max: scalar(&mut r).abs(),
            skin: scalar(&mut r),
            stop_at_penetration: r.gen_bool(0.5),
            tolerance: if r.gen_bool(0.8) {
                1e-4
            } else {
                scalar(&mut r)
            },
        };
        let (va, vb) = (vector(&mut r), vector(&mut r));
        match cast_shape(&pa, &va, a, &pb, &vb, b, &o) {
            Ok(Some(h)) => {
                assert!(h.is_finite(), "{h:?}");
                assert!(h.toi >= 0.0 && h.toi <= o.t_max, "{h:?} {o:?}");
            }
            Ok(None)
            | Err(QueryError::NonFinite(_))
            | Err(QueryError::NotUnitRotation(_))
            | Err(QueryError::InvalidOption(_)) => {}
            Err(e) => panic!("{e:?}"),
        }
    }
    assert!(answered > 500 && refused > 500, "{answered} {refused}");
}

fn point2(r: &mut ChaCha8Rng) -> Point2 {
    Point2::new(scalar(r), scalar(r))
}

#[test]
fn planar_queries_refuse_or_stay_finite() {
    let mut r = ChaCha8Rng::seed_from_u64(62);
    let mut answered = 0;
    for _ in 0..20000 {
        let (p, q) = (point2(&mut r), point2(&mut r));
        let seg = Segment::new(p, q).ok();
        let line = Line::new(p, q.coords).ok();
        let circle = Circle::new(p, scalar(&mut r)).ok();
        let rect = Rect::new(
            p,
            Vector2::new(scalar(&mut r), scalar(&mut r)),
            scalar(&mut r),
        )
        .ok();
        let poly = ConvexPolygon::new(&[p, q, point2(&mut r)]).ok();
        let mut views: Vec<planar::PlanarShape> = vec![point2(&mut r).into()];
        views.extend(seg.as_ref().map(planar::PlanarShape::from));
        views.extend(line.as_ref().map(planar::PlanarShape::from));
        views.extend(circle.as_ref().map(planar::PlanarShape::from));
        views.extend(rect.as_ref().map(planar::PlanarShape::from));
        views.extend(poly.as_ref().map(planar::PlanarShape::from));
        for a in &views {
            for b in &views {
                if let Some(d) = planar::closest_points(*a, *b) {
                    answered += 1;
                    assert!(d.distance().is_finite() && d.distance() >= 0.0, "{d:?}");
                    if let planar::PlanarProximity::Apart {
                        point_a,
                        point_b,
                        normal,
                        ..
                    } = d
                    {
                        assert!(point_a.x.is_finite() && point_b.y.is_finite(), "{d:?}");
                        assert!((normal.norm() - 1.0).abs() < 1e-3, "{d:?}");
                    }
                }
            }
        }
        if let Ok(ray) = Ray2::new(point2(&mut r), Vector2::new(scalar(&mut r), scalar(&mut r))) {
            let max_t = scalar(&mut r);
            let hits = [
                seg.as_ref()
                    .and_then(|s| planar::ray_segment(&ray, s, max_t)),
                circle
                    .as_ref()
                    .and_then(|c| planar::ray_circle(&ray, c, max_t)),
                rect.as_ref().and_then(|x| planar::ray_rect(&ray, x, max_t)),
                poly.as_ref()
                    .and_then(|x| planar::ray_polygon(&ray, x, max_t)),
                line.as_ref().and_then(|x| planar::ray_line(&ray, x, max_t)),
            ];
            for (k, h) in hits.into_iter().enumerate() {
                let Some(h) = h else { continue };
                assert!(h.t >= 0.0 && h.t <= max_t, "{h:?}");
                assert!(h.point.x.is_finite() && h.point.y.is_finite(), "{h:?}");
                assert!(
                    (h.normal.norm() - 1.0).abs() < 1e-3,
                    "{k} {h:?} {ray:?} {max_t} {seg:?} {circle:?} {rect:?} {poly:?}"
                );
            }
        }
        if let (Some(a), Some(b)) = (seg, Segment::new(point2(&mut r), point2(&mut r)).ok()) {
            let (x, y) = planar::closest_points_segments(&a, &b);
            assert!(!x.x.is_nan() && !y.y.is_nan(), "{a:?} {b:?}");
        }
    }
    assert!(answered > 10000, "{answered}");
}
