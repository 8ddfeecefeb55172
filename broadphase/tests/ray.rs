//! Ray casts against the brute force and against the exact answer: every structure agrees on
//! rays whose direction has subnormal or huge components, and the per-box test is monotone (a
//! ray that meets a box meets every box containing it, never later).

use proptest::prelude::*;
use tumble_broadphase::math::{Point, Real, Vector};
use tumble_broadphase::{Aabb, AnyBroadPhase, BroadPhase, BroadPhaseKind, ProxyHandle};

fn boxed(lo: [Real; 3], hi: [Real; 3]) -> Aabb {
    Aabb::new(Point::from(lo), Point::from(hi)).unwrap()
}

/// Every structure's hits for one ray over `boxes`.
fn cast_all(
    boxes: &[Aabb],
    origin: Point,
    dir: Vector,
    max_t: Real,
) -> Vec<(BroadPhaseKind, Vec<(ProxyHandle, Real)>)> {
    BroadPhaseKind::ALL
        .iter()
        .map(|&kind| {
            let mut bp = AnyBroadPhase::new(kind);
            let items: Vec<(Aabb, u64)> = boxes.iter().map(|&b| (b, 0)).collect();
            bp.insert_batch(&items).unwrap();
            bp.find_pairs(&mut Vec::new());
            let mut out = Vec::new();
            bp.cast_ray(&origin, &dir, max_t, &mut out);
            (kind, out)
        })
        .collect()
}

/// A direction component of 10⁻⁴⁰ (subnormal): its reciprocal overflows. The ray runs along
/// the face plane y = 0 of a flat box [0,1]×[0,0]×[0,1] and, a hair above y = 0, through the
/// box [0,1]×[0,1]×[2,3]: exactly, y(t) = 10⁻⁴⁰·t > 0 for t > 0, so it leaves the flat box's
/// slab at once (it starts in it at t = 0 but meets it in z only from t = 1) and enters the
/// second box at t = 3.
#[test]
fn subnormal_direction_component_is_exact_in_every_structure() {
    let boxes = [
        boxed([0.0, 0.0, 0.0], [1.0, 0.0, 1.0]),
        boxed([0.0, 0.0, 2.0], [1.0, 1.0, 3.0]),
    ];
    let origin = Point::new(0.5, 0.0, -1.0);
    let dir = Vector::new(0.0, 1.0e-40, 1.0);
    assert!(dir.y > 0.0 && dir.y < Real::MIN_POSITIVE);
    for (kind, hits) in cast_all(&boxes, origin, dir, 10.0) {
        assert_eq!(hits.len(), 1, "{kind}: {hits:?}");
        assert_eq!(hits[0].0.index(), 1, "{kind}: {hits:?}");
        assert_eq!(hits[0].1, 3.0, "{kind}: {hits:?}");
    }
}

fn coord() -> impl Strategy<Value = Real> {
    prop_oneof![(-4i32..=4).prop_map(|v| v as Real * 0.5), -3.0f32..3.0,]
}

/// A direction component: zero, subnormal, tiny, ordinary or huge, either sign.
fn component() -> impl Strategy<Value = Real> {
    prop_oneof![
        Just(0.0),
        Just(1.0e-40),
        Just(-1.0e-40),
        Just(Real::from_bits(1)),
        Just(-1.0e-30),
        Just(3.0e-38),
        -2.0f32..2.0,
        Just(3.0e38),
        Just(-1.0e30),
    ]
}

/// An extent or a growth: often zero (flat boxes, faces on the ray's origin).
fn extent() -> impl Strategy<Value = Real> {
    prop_oneof![Just(0.0), Just(1.0), 0.0f32..2.0]
}

fn a_box() -> impl Strategy<Value = Aabb> {
    ([coord(), coord(), coord()], [extent(), extent(), extent()])
        .prop_map(|(lo, e)| boxed(lo, [lo[0] + e[0], lo[1] + e[1], lo[2] + e[2]]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Monotone: a ray that meets a box meets every box containing it, entering it no later
    /// and leaving it no sooner (the BVH culls its nodes with this test).
    #[test]
    fn a_ray_meeting_a_box_meets_every_box_containing_it(
        inner in a_box(),
        grow in [extent(), extent(), extent(), extent(), extent(), extent()],
        origin in [coord(), coord(), coord()],
        on_face in [0u8..3, 0u8..3, 0u8..3],
        dir in [component(), component(), component()],
        max_t in prop_oneof![Just(Real::INFINITY), 0.0f32..20.0],
    ) {
        // The origin often on a face plane of the inner box (where 0·∞ used to arise).
        let origin: [Real; 3] = std::array::from_fn(|i| match on_face[i] {
            0 => inner.mins[i],
            1 => inner.maxs[i],
            _ => origin[i],
        });
        let outer = boxed(
            [inner.mins.x - grow[0], inner.mins.y - grow[1], inner.mins.z - grow[2]],
            [inner.maxs.x + grow[3], inner.maxs.y + grow[4], inner.maxs.z + grow[5]],
        );
        let hits = cast_all(&[inner, outer], Point::from(origin), Vector::from(dir), max_t);
        let (_, reference) = &hits[0];
        let t_of = |i: u32, h: &[(ProxyHandle, Real)]| h.iter().find(|x| x.0.index() == i).map(|x| x.1);
        if let Some(t_inner) = t_of(0, reference) {
            let t_outer = t_of(1, reference);
            prop_assert!(t_outer.is_some(), "inner hit at {}, outer missed", t_inner);
            prop_assert!(t_outer.unwrap() <= t_inner);
        }
        for (kind, h) in &hits[1..] {
            prop_assert_eq!(h, reference, "{}", kind);
        }
    }
}
