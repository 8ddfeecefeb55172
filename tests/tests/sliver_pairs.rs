//! Dense random triangle pairs in the neighbourhood of the fuzz inputs
//! `triangle_triangle_depth_not_minimal` and `triangle_triangle_point_outside_the_aabbs`:
//! nearly coplanar, often sliver triangles whose corners lie within a millimetre of a common
//! corner, checked by the narrow-phase fuzz oracle (`check_pair`: depth minimal against the
//! exact SAT over every face, in-plane and edge × edge direction plus 26 fixed ones, points
//! inside both AABBs, symmetry). Also triangles sharing an edge, hinged, with poses a hair
//! apart (`triangle_triangle_shared_edge_depth_not_minimal`).

mod common;

use common::unit_vector as unit;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble::math::{Isometry, Point, Real, Rotation, Vector};
use tumble_tests::fuzz_checks::input::ShapeRecipe;
use tumble_tests::fuzz_checks::{check_pair, PairCase};

/// `10^e` for `e` uniform in `lo..hi`.
fn log_uniform(rng: &mut ChaCha8Rng, lo: Real, hi: Real) -> Real {
    (10.0 as Real).powf(rng.gen_range(lo..hi))
}

/// A triangle with corner `c` in the plane ⟂ `n`: one edge along `u`, the third corner near
/// that edge's line (a sliver) or anywhere in the plane.
fn triangle_at(rng: &mut ChaCha8Rng, c: Point, n: &Vector) -> [Point; 3] {
    let u = unit(rng);
    let u = (u - n * n.dot(&u)).normalize();
    let v = n.cross(&u);
    let len = rng.gen_range(0.2..2.0);
    let along = rng.gen_range(-1.0..2.0) * len;
    let off = if rng.gen_bool(0.5) {
        log_uniform(rng, -3.5, -0.5) * if rng.gen_bool(0.5) { 1.0 } else { -1.0 }
    } else {
        rng.gen_range(-1.5..1.5)
    };
    [c, c + u * len, c + u * along + v * off]
}

/// The pose translated by `t` and turned by the unit quaternion written `[x, y, z, w]`, as the
/// fuzz triage prints them.
fn pose(t: Vector, q: [Real; 4]) -> Isometry {
    let rotation = Rotation::new_unchecked(nalgebra::Quaternion::new(q[3], q[0], q[1], q[2]));
    Isometry::from_parts(t.into(), rotation)
}

/// A point uniform in the cube [−2, 2)³.
fn point_in_cube(rng: &mut ChaCha8Rng) -> Point {
    Point::new(
        rng.gen_range(-2.0..2.0),
        rng.gen_range(-2.0..2.0),
        rng.gen_range(-2.0..2.0),
    )
}

/// Checks `TUMBLE_SLIVER_CASES` (default 20 000) pairs drawn by `pair` from the seed `seed`.
fn check_random_pairs(seed: u64, pair: fn(&mut ChaCha8Rng) -> PairCase) {
    let cases = common::case_count("TUMBLE_SLIVER_CASES", 20_000);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..cases {
        check_pair(&pair(&mut rng));
    }
}

fn sliver_pair(rng: &mut ChaCha8Rng) -> PairCase {
    let n = unit(rng);
    let c = Point::new(
        rng.gen_range(-0.5..0.5),
        rng.gen_range(-0.5..0.5),
        rng.gen_range(-0.5..0.5),
    );
    let a = triangle_at(rng, c, &n);
    // B's plane turned from A's by 10⁻⁵..0.5 rad, its corner within a millimetre of A's.
    let axis = unit(rng);
    let nb = Rotation::new(axis * log_uniform(rng, -5.0, -0.3)) * n;
    let cb = c + unit(rng) * log_uniform(rng, -6.0, -3.0);
    let b = triangle_at(rng, cb, &nb);
    let t = Vector::repeat(rng.gen_range(-0.5..0.5));
    PairCase {
        a: ShapeRecipe::Triangle(a),
        pose_a: Isometry::translation(t.x, t.y, t.z),
        b: ShapeRecipe::Triangle(b),
        pose_b: Isometry::translation(t.x, t.y, t.z),
    }
}

#[test]
fn nearly_coplanar_slivers_meeting_at_a_corner() {
    check_random_pairs(7, sliver_pair);
}

/// The first sibling the test above found (seed 7, 1 000 000 cases): normals 1.4·10⁻³ rad
/// apart, 0.88 mm apart in their near-common plane, separated on the 11 normal and edge × edge
/// axes by only 9·10⁻⁷ m, and `intersection_test` (`sat::triangle_triangle`) said touching.
/// Fixed there: the in-plane side normals are always candidates.
#[test]
fn nearly_coplanar_triangles_apart_in_plane_are_apart() {
    let p = |x: Real, y: Real, z: Real| Point::new(x, y, z);
    let t = -0.058_897_257;
    check_pair(&PairCase {
        a: ShapeRecipe::Triangle([
            p(-0.064_320_21, -0.068_306_446, -0.282_628_9),
            p(-1.733_853_3, 0.203_934_79, -0.680_684_8),
            p(1.041_671_2, -0.252_319_78, -0.021_588_828),
        ]),
        pose_a: Isometry::translation(t, t, t),
        b: ShapeRecipe::Triangle([
            p(-0.064_700_27, -0.067_534_305, -0.282_204_12),
            p(-0.356_829_05, 1.073_448_4, 0.440_562_75),
            p(-0.276_147_84, 1.636_631_6, 0.877_907),
        ]),
        pose_b: Isometry::translation(t, t, t),
    });
}

/// The second sibling (found after the fix above): nearly coplanar triangles meeting at a
/// corner, apart by 3.9·10⁻⁶ m on B's normal, got A's normal (within the face preference's
/// tolerance, separation −3.5·10⁻⁶), a penetrating manifold and a point 0.5 mm outside A's
/// AABB. Fixed in `sat::convex::deepest_axis`: a separating axis always beats one that does
/// not.
#[test]
fn triangles_apart_by_a_hair_at_a_corner_get_no_point_outside() {
    let p = |x: Real, y: Real, z: Real| Point::new(x, y, z);
    let t = 0.469_957_23;
    check_pair(&PairCase {
        a: ShapeRecipe::Triangle([
            p(-0.302_149_06, 0.422_113_42, -0.098_317_504),
            p(0.476_865_47, 0.347_343_5, 0.891_196_97),
            p(0.358_094_13, 0.341_918_8, 0.617_079_73),
        ]),
        pose_a: Isometry::translation(t, t, t),
        b: ShapeRecipe::Triangle([
            p(-0.302_147_15, 0.422_107_85, -0.098_324_65),
            p(-0.452_588_32, 0.484_644_65, 0.062_878_99),
            p(-0.057_700_396, 0.391_234_25, 0.158_482_7),
        ]),
        pose_b: Isometry::translation(t, t, t),
    });
}

/// Triangles sharing an edge (B's first two corners are A's last two), hinged at any angle
/// (mostly nearly flat open or nearly folded shut), B's pose turned from A's by 10⁻⁶..0.1 rad:
/// the neighbourhood of the fuzz input `triangle_triangle_shared_edge_depth_not_minimal`,
/// where the two copies of the shared edge are a hair from parallel.
fn hinged_pair(rng: &mut ChaCha8Rng) -> PairCase {
    let (p, q) = (point_in_cube(rng), point_in_cube(rng));
    let e = (q - p).normalize();
    let side = {
        let u = unit(rng);
        (u - e * e.dot(&u)).normalize()
    };
    let along = rng.gen_range(-0.5..1.5);
    let width = log_uniform(rng, -3.0, 0.5);
    let a_free = p + (q - p) * along + side * width;
    // The hinge: B's free corner on the other side (open, nearly flat), the same side (folded
    // nearly shut) or anywhere around the edge.
    let hinge = match rng.gen_range(0..3) {
        0 => std::f32::consts::PI + rng.gen_range(-1.0..1.0) * log_uniform(rng, -5.0, -1.0),
        1 => rng.gen_range(-1.0..1.0) * log_uniform(rng, -5.0, -1.0),
        _ => rng.gen_range(-3.2..3.2),
    };
    let b_side = Rotation::new(e * hinge) * side;
    let b_free = p + (q - p) * rng.gen_range(-0.5..1.5) + b_side * log_uniform(rng, -3.0, 0.5);
    let rot_a = Rotation::new(unit(rng) * rng.gen_range(0.0..3.1));
    let rot_b = Rotation::new(unit(rng) * log_uniform(rng, -6.0, -1.0)) * rot_a;
    let t = Vector::repeat(rng.gen_range(-3.0..3.0));
    PairCase {
        a: ShapeRecipe::Triangle([a_free, p, q]),
        pose_a: Isometry::from_parts(t.into(), rot_a),
        b: ShapeRecipe::Triangle([p, q, b_free]),
        pose_b: Isometry::from_parts(t.into(), rot_b),
    }
}

#[test]
fn hinged_triangles_sharing_an_edge() {
    check_random_pairs(11, hinged_pair);
}

/// Found by the test above at 400 000 cases (seed 11, after the shared-edge fix): A is a
/// needle (its three corners within 10⁻⁴ rad of one line, the shared edge's), B turned
/// 2·10⁻⁶ rad from A's pose. The SAT's axis is A's face (penetration 7·10⁻⁶ m, a minimal
/// depth), but clipping B's face against A's side planes put a point about 1 mm beyond A's
/// needle tip along the shared line, outside A's AABB: the two side planes at the tip meet at
/// 10⁻⁴ rad, so a point within f32 rounding (10⁻⁷ m) of both can lie 10⁻³ m beyond the tip.
/// Fixed in `face_manifold` (`narrowphase/src/query/convex_convex.rs`): the face clipping is
/// done in f64, where that overshoot is 10⁻¹² m.
#[test]
fn needle_sharing_an_edge_gets_points_inside_the_aabbs() {
    let p = |x: Real, y: Real, z: Real| Point::new(x, y, z);
    let t = Vector::repeat(0.873_803_6);
    let shared = [
        p(1.712_617_9, -1.110_265_3, -1.722_115),
        p(-1.890_446_2, 0.684_399_1, -1.784_476_8),
    ];
    check_pair(&PairCase {
        a: ShapeRecipe::Triangle([
            p(2.140_093, -1.323_238_3, -1.715_793_7),
            shared[0],
            shared[1],
        ]),
        pose_a: pose(t, [0.800_071_1, 0.394_902_86, -0.127_467_24, 0.433_232]),
        b: ShapeRecipe::Triangle([
            shared[0],
            shared[1],
            p(-3.042_601_3, 1.258_782_6, -1.808_831_2),
        ]),
        pose_b: pose(t, [0.800_073_27, 0.394_902_08, -0.127_464_92, 0.433_229_42]),
    });
}

/// A point `p + e·along + (perpendicular offset of length `off`)`, the offset in a random
/// direction ⟂ `e`.
fn near_line(rng: &mut ChaCha8Rng, p: Point, e: &Vector, along: Real, off: Real) -> Point {
    let u = unit(rng);
    let side = (u - e * e.dot(&u)).normalize();
    p + e * along + side * off
}

/// A needle along the segment `p`–`q`: a triangle whose third corner lies within an angle of
/// 10⁻⁶..10⁻² rad of the segment's line (beyond either end or between them), or a thin hull
/// of `p`, `q` and two to four points that close to the line.
fn needle(rng: &mut ChaCha8Rng, p: Point, q: Point) -> ShapeRecipe {
    let len = (q - p).norm();
    let e = (q - p) / len;
    let far = |rng: &mut ChaCha8Rng| {
        let along = rng.gen_range(-0.6..1.6) * len;
        let off = log_uniform(rng, -6.0, -2.0) * len;
        near_line(rng, p, &e, along, off)
    };
    if rng.gen_bool(0.6) {
        let c = far(rng);
        // Either winding, so that either face of the needle may face B.
        if rng.gen_bool(0.5) {
            ShapeRecipe::Triangle([c, p, q])
        } else {
            ShapeRecipe::Triangle([q, p, c])
        }
    } else {
        let extra = rng.gen_range(2..=4);
        let mut pts = vec![p, q];
        pts.extend((0..extra).map(|_| far(rng)));
        ShapeRecipe::Hull(pts)
    }
}

/// A needle A and a shape B sharing its edge `p`–`q` or only its corner `p`: B a needle along
/// the same line or a turned one, a wide triangle hinged on the edge, or a hull; B's pose a
/// hair from A's (turned by 10⁻⁷..10⁻² rad, moved by up to 10⁻³ m, or neither). Where clipping
/// meets the worst conditioning: reference faces whose side planes meet at needle tips, and
/// incident edges along the needle's line.
fn needle_pair(rng: &mut ChaCha8Rng) -> PairCase {
    let (p, q) = (point_in_cube(rng), point_in_cube(rng));
    let a = needle(rng, p, q);
    let len = (q - p).norm();
    let e = (q - p) / len;
    let b = match rng.gen_range(0..4) {
        // The same line: an edge shared along a needle.
        0 => needle(rng, p, q),
        // A needle sharing only the corner `p`, nearly along A's line or anywhere.
        1 => {
            let dir = if rng.gen_bool(0.5) {
                let tilt = log_uniform(rng, -6.0, -1.0);
                Rotation::new(unit(rng) * tilt) * e * if rng.gen_bool(0.5) { 1.0 } else { -1.0 }
            } else {
                unit(rng)
            };
            let reach = rng.gen_range(0.2..3.0);
            needle(rng, p, p + dir * reach)
        }
        // A wide triangle hinged on the edge.
        2 => {
            let along = rng.gen_range(-0.5..1.5) * len;
            let off = log_uniform(rng, -2.0, 0.3);
            let c = near_line(rng, p, &e, along, off);
            ShapeRecipe::Triangle([p, q, c])
        }
        // A hull with A's edge (or only its corner `p`) among its corners.
        _ => {
            let mut pts = vec![p];
            if rng.gen_bool(0.5) {
                pts.push(q);
            }
            let n = rng.gen_range(4..=6);
            while pts.len() < n {
                pts.push(p + unit(rng) * rng.gen_range(0.05..2.0));
            }
            ShapeRecipe::Hull(pts)
        }
    };
    let rot_a = Rotation::new(unit(rng) * rng.gen_range(0.0..3.1));
    let rot_b = if rng.gen_bool(0.8) {
        Rotation::new(unit(rng) * log_uniform(rng, -7.0, -2.0)) * rot_a
    } else {
        rot_a
    };
    let t = Vector::repeat(rng.gen_range(-3.0..3.0));
    let shift = if rng.gen_bool(0.5) {
        unit(rng) * log_uniform(rng, -7.0, -3.0)
    } else {
        Vector::zeros()
    };
    PairCase {
        a,
        pose_a: Isometry::from_parts(t.into(), rot_a),
        b,
        pose_b: Isometry::from_parts((t + shift).into(), rot_b),
    }
}

#[test]
fn needles_sharing_an_edge_or_a_corner() {
    // `check_pair` also swaps A and B, so B's needle faces are reference faces too.
    check_random_pairs(13, needle_pair);
}

/// Found by the test above (seed 13, within 100 000 cases): two needle hulls sharing an edge,
/// their long edges 9·10⁻⁴ rad from parallel, overlapped by 3.6·10⁻⁴ m across that edge pair
/// and by 1.08 mm on every face; the contact said 1.08 mm because `sat::convex` skipped edge
/// pairs below sine 10⁻³ for solids. Fixed there: every pair above sine 10⁻⁵ is a candidate.
#[test]
fn needle_hulls_sharing_an_edge_get_the_edge_axis() {
    let p = |x: Real, y: Real, z: Real| Point::new(x, y, z);
    let shared = [
        p(-1.347_662, -1.183_742_5, 1.239_174_8),
        p(0.380_403_52, 0.170_268_06, -1.343_467_7),
    ];
    check_pair(&PairCase {
        a: ShapeRecipe::Hull(vec![
            shared[0],
            shared[1],
            p(-0.056_468_54, -0.183_515_03, -0.667_863_8),
            p(0.612_170_04, 0.351_724_77, -1.689_806),
            p(-1.803_673_7, -1.541_062, 1.920_719_7),
        ]),
        pose_a: pose(
            Vector::repeat(-0.405_578_6),
            [-0.027_049_372, 0.061_070_938, 0.096_297_76, 0.993_109],
        ),
        b: ShapeRecipe::Hull(vec![
            shared[0],
            shared[1],
            p(-0.519_109_96, -0.534_537_7, 0.000_868_218_25),
            p(0.991_388_44, 0.649_842_7, -2.265_162_2),
            p(-1.367_603_5, -1.199_390_5, 1.268_997_3),
            p(-2.153_609_5, -1.815_234_7, 2.443_693_9),
        ]),
        pose_b: pose(
            Vector::new(-0.405_578_8, -0.405_578_58, -0.405_578_5),
            [-0.027_642_202, 0.060_850_97, 0.096_432_604, 0.993_093_1],
        ),
    });
}

/// Found by `needles_sharing_an_edge_or_a_corner` (seed 13, about 200 000 cases): two needle
/// triangles sharing only a corner, B's pose a hair from A's. The axis is an edge × edge axis
/// whose direction comes from A's two long edges merged into one direction (10⁻⁵ rad apart):
/// along it the pair overlaps by 3·10⁻⁶ m, but another axis separates it by 10⁻⁵ m. The
/// slices as thick as the overlap held A's far end and B's corner, 1.5 m apart seen along the
/// normal, and the point, midway between their nearest approach, lay 4.5 cm outside B's AABB.
/// Fixed in `convex_convex::meeting_point_of`: slices that do not overlap prove the shapes
/// apart, and the point is then the midpoint of their closest points.
#[test]
fn needles_touching_at_a_corner_get_the_point_at_the_corner() {
    let p = |x: Real, y: Real, z: Real| Point::new(x, y, z);
    let corner = p(1.569_115_6, -1.915_207_9, 1.474_650_9);
    check_pair(&PairCase {
        a: ShapeRecipe::Triangle([
            p(0.097_173_184, -1.724_762_2, 0.226_620_75),
            corner,
            p(0.164_367_68, -1.733_461_9, 0.283_577_92),
        ]),
        pose_a: pose(
            Vector::repeat(0.094_575_405),
            [0.341_826_9, -0.840_242_15, -0.239_131_51, 0.346_357_7],
        ),
        b: ShapeRecipe::Triangle([
            p(1.516_293_3, -1.473_023_4, 1.265_937_2),
            corner,
            p(1.378_289_7, -0.100_125_55, 0.653_531_3),
        ]),
        pose_b: pose(
            Vector::new(0.094_579_11, 0.094_572_78, 0.094_574_52),
            [0.341_875_1, -0.840_239_76, -0.239_122_21, 0.346_322_2],
        ),
    });
}
