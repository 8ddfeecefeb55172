//! Bad input is refused with a typed error and changes nothing; nothing panics.

use tumble_broadphase::math::{Point, Real};
use tumble_broadphase::{
    Aabb, AnyBroadPhase, BroadPhase, BroadPhaseError, BroadPhaseKind, ProxyHandle,
};

fn unit_box(x: Real) -> Aabb {
    Aabb::new(Point::new(x, 0.0, 0.0), Point::new(x + 1.0, 1.0, 1.0)).unwrap()
}

#[test]
fn bad_boxes_and_handles_are_refused_by_every_structure() {
    for kind in BroadPhaseKind::ALL {
        let mut bp = AnyBroadPhase::new(kind);
        let nan = Aabb::new_unchecked(Point::new(Real::NAN, 0.0, 0.0), Point::new(1.0, 1.0, 1.0));
        let inf = Aabb::new_unchecked(
            Point::new(0.0, 0.0, 0.0),
            Point::new(Real::INFINITY, 1.0, 1.0),
        );
        let inverted = Aabb::new_unchecked(Point::new(2.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0));
        assert_eq!(
            bp.insert(nan, 0),
            Err(BroadPhaseError::NonFiniteAabb(None)),
            "{kind}"
        );
        assert_eq!(
            bp.insert(inf, 0),
            Err(BroadPhaseError::NonFiniteAabb(None)),
            "{kind}"
        );
        assert_eq!(
            bp.insert(inverted, 0),
            Err(BroadPhaseError::InvertedAabb),
            "{kind}"
        );
        assert!(bp.is_empty());

        let a = bp.insert(unit_box(0.0), 1).unwrap();
        let b = bp.insert(unit_box(0.5), 2).unwrap();
        // A batch with one bad item inserts nothing.
        assert!(bp
            .insert_batch(&[(unit_box(3.0), 3), (inverted, 4)])
            .is_err());
        assert_eq!(bp.len(), 2, "{kind}");
        // A batch update with one bad item changes nothing.
        assert!(bp.update_batch(&[(a, unit_box(9.0)), (b, nan)]).is_err());
        assert_eq!(bp.aabb(a).unwrap(), unit_box(0.0), "{kind}");
        assert_eq!(
            bp.update(a, nan),
            Err(BroadPhaseError::NonFiniteAabb(Some(a)))
        );

        let unknown = ProxyHandle::from_raw_parts(99, 0);
        assert_eq!(
            bp.remove(unknown),
            Err(BroadPhaseError::UnknownHandle(unknown))
        );
        assert_eq!(
            bp.remove(ProxyHandle::invalid()),
            Err(BroadPhaseError::UnknownHandle(ProxyHandle::invalid()))
        );
        bp.remove(a).unwrap();
        assert_eq!(bp.remove(a), Err(BroadPhaseError::StaleHandle(a)));
        assert_eq!(
            bp.update(a, unit_box(0.0)),
            Err(BroadPhaseError::StaleHandle(a))
        );
        assert_eq!(bp.aabb(a), Err(BroadPhaseError::StaleHandle(a)));
        // The slot is reused with a new generation; the old handle stays stale.
        let c = bp.insert(unit_box(0.2), 5).unwrap();
        assert_eq!(c.index(), a.index());
        assert_ne!(c, a);
        assert_eq!(bp.user_data(a), Err(BroadPhaseError::StaleHandle(a)));
        assert_eq!(bp.user_data(c), Ok(5));
        let mut pairs = Vec::new();
        bp.find_pairs(&mut pairs);
        assert_eq!(pairs, vec![(c, b)], "{kind}");
        bp.validate().unwrap();
        // Degenerate rays hit nothing and do not panic.
        let mut hits = Vec::new();
        let o = Point::new(0.5, 0.5, 0.5);
        bp.cast_ray(
            &o,
            &tumble_broadphase::math::Vector::new(Real::NAN, 0.0, 0.0),
            1.0,
            &mut hits,
        );
        assert!(hits.is_empty());
        bp.cast_ray(
            &o,
            &tumble_broadphase::math::Vector::zeros(),
            -1.0,
            &mut hits,
        );
        assert!(hits.is_empty());
        bp.cast_ray(
            &o,
            &tumble_broadphase::math::Vector::zeros(),
            0.0,
            &mut hits,
        );
        assert_eq!(
            hits.len(),
            2,
            "{kind}: a zero ray inside two boxes hits both at t = 0"
        );
    }
}

#[test]
fn kinds_parse_and_default() {
    for kind in BroadPhaseKind::ALL {
        assert_eq!(kind.name().parse::<BroadPhaseKind>().unwrap(), kind);
    }
    assert!("octree".parse::<BroadPhaseKind>().is_err());
    assert_eq!(AnyBroadPhase::default().kind(), BroadPhaseKind::default());
}

/// Same insert/remove sequence, same handles, whichever structure.
#[test]
fn handles_agree_across_structures() {
    let mut seqs = Vec::new();
    for kind in BroadPhaseKind::ALL {
        let mut bp = AnyBroadPhase::new(kind);
        let mut hs: Vec<ProxyHandle> = (0..5)
            .map(|i| bp.insert(unit_box(i as Real), i).unwrap())
            .collect();
        bp.remove(hs[1]).unwrap();
        bp.remove(hs[3]).unwrap();
        hs.push(bp.insert(unit_box(7.0), 9).unwrap());
        hs.extend(
            bp.insert_batch(&[(unit_box(8.0), 10), (unit_box(9.0), 11)])
                .unwrap(),
        );
        seqs.push(hs);
    }
    assert!(seqs.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(
        seqs[0][5].index(),
        3,
        "LIFO free list: the last freed slot is reused first"
    );
}
