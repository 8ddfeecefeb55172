//! The convex polyhedron, built from a point cloud by a convex hull ([`super::hull`]) or
//! converted from a box or a triangle.

use super::hull::{convex_hull, MAX_HULL_VERTICES};
use super::{Cuboid, Obb, Triangle};
use crate::bounding::Aabb;
use crate::error::ShapeError;
use crate::math::{Isometry, Point, Real, Vector};
use serde::{Deserialize, Serialize};

/// Two unit directions are "the same" (up to sign) when `‖a × b‖ = sin θ ≤ DIRECTION_TOLERANCE`.
///
/// Every SAT over these lists tests the kept direction in place of the merged one, so a
/// separation is misjudged by up to `sin θ` times the extent of the pair: 10⁻⁵ keeps that
/// below 10⁻⁵ of the scene's size (about 100 f32 ulps, the accuracy the contact tests ask
/// for), while staying above the rounding of unit vectors (a few 10⁻⁸). The former test,
/// `|a · b| > 1 − 10⁻⁶`, merged directions up to 1.4·10⁻³ rad apart: a sliver triangle's two
/// long edges then shared one direction, and its box contact came out 1.5 mm too deep.
const DIRECTION_TOLERANCE: Real = 1e-5;

/// One face: a counter-clockwise loop (seen from outside) of vertex indices, and its outward
/// unit normal (local frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolyFace {
    /// Outward unit normal, local frame.
    pub normal: Vector,
    first: u32,
    len: u32,
    /// Index of this face's normal direction in [`ConvexPolyhedron::face_normals`].
    pub direction: u16,
}

/// A convex polyhedron in its local frame: corners, faces (polygon loops), edges, and — what
/// the separating axis test needs — each distinct face normal direction and each distinct
/// edge direction listed once (directions equal up to sign count once).
///
/// A polyhedron may be *flat* (a triangle turned into a polyhedron: two faces back to back);
/// it is then still convex and closed in the sense of Euler's formula (V − E + F = 3 − 3 + 2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "PolyhedronRepr", into = "PolyhedronRepr")]
pub struct ConvexPolyhedron {
    vertices: Vec<Point>,
    faces: Vec<PolyFace>,
    face_vertices: Vec<u32>,
    edges: Vec<[u32; 2]>,
    edge_faces: Vec<[u32; 2]>,
    edge_direction_of: Vec<u16>,
    face_normals: Vec<Vector>,
    edge_directions: Vec<Vector>,
    centroid: Point,
}

/// The serialised form: corners and face loops exactly as built, so that a polyhedron read
/// back is bit-for-bit the one written (re-running the hull could renumber corners and faces,
/// and with them the contact feature ids — a restored world would then step differently).
#[derive(Serialize, Deserialize)]
struct PolyhedronRepr {
    vertices: Vec<Point>,
    faces: Vec<Vec<u32>>,
}

impl TryFrom<PolyhedronRepr> for ConvexPolyhedron {
    type Error = ShapeError;
    /// Rebuilds a polyhedron from its corners and face loops, checking everything a corrupt
    /// input could break (finite corners, indices in range, the hull invariants).
    fn try_from(r: PolyhedronRepr) -> Result<Self, ShapeError> {
        if r.vertices.len() < 3 {
            return Err(ShapeError::TooFewPoints(r.vertices.len(), 3));
        }
        if !r.vertices.iter().all(crate::math::is_finite_point) {
            return Err(ShapeError::NonFinite("polyhedron corner"));
        }
        if r.vertices.len() > MAX_HULL_VERTICES {
            return Err(ShapeError::TooManyVertices(MAX_HULL_VERTICES));
        }
        // A closed convex surface of V corners has at most 2V − 4 faces and 3V − 6 edges, each
        // edge in two face loops: anything more is not a hull (and would cost time to check).
        let v = r.vertices.len();
        if r.faces.len() > (2 * v).saturating_sub(4).max(2)
            || r.faces.iter().map(Vec::len).sum::<usize>() > (6 * v).saturating_sub(12).max(6)
        {
            return Err(ShapeError::Degenerate(
                "polyhedron has more faces or face corners than a hull of its corners can have",
            ));
        }
        let n = r.vertices.len() as u32;
        if r.faces.len() < 2
            || r.faces
                .iter()
                .any(|f| f.len() < 3 || f.iter().any(|&i| i >= n))
        {
            return Err(ShapeError::Degenerate("polyhedron face loops are invalid"));
        }
        let p = Self::from_loops(r.vertices, &r.faces);
        p.validate()
            .map_err(|_| ShapeError::Degenerate("polyhedron fails its invariants"))?;
        Ok(p)
    }
}

impl From<ConvexPolyhedron> for PolyhedronRepr {
    fn from(p: ConvexPolyhedron) -> Self {
        let faces = p.faces.iter().map(|f| p.face_loop(f).to_vec()).collect();
        PolyhedronRepr {
            vertices: p.vertices,
            faces,
        }
    }
}

impl ConvexPolyhedron {
    /// The convex hull of `points` (local frame). Errors on fewer than 4 points, non-finite
    /// points, points beyond ±[`crate::planar::MAX_COORDINATE`] (1e15 m: their differences
    /// would overflow f32), clouds spanning less than 1e-12 m, and clouds that are all one
    /// point, collinear or coplanar within a tolerance of 10⁻⁶ of their size (plus the f32
    /// resolution of their coordinates). Any other cloud has a hull, and it keeps the
    /// invariants of [`Self::validate`]; every input point is inside it up to that tolerance.
    pub fn from_points(points: &[Point]) -> Result<Self, ShapeError> {
        let (vertices, loops) = convex_hull(points)?;
        let p = Self::from_loops(vertices, &loops);
        // The builder is exact in its topology and its tolerances are 100 times below those of
        // `validate` (property-tested); this check stays as a last guard so that no hull that
        // breaks the invariants is ever accepted (and then fails to restore from a snapshot).
        p.validate()
            .map_err(|_| ShapeError::Degenerate("point cloud too degenerate for a valid hull"))?;
        Ok(p)
    }

    /// The box `cuboid` centred at the origin, axes along the local axes.
    pub fn from_cuboid(cuboid: &Cuboid) -> Self {
        Self::from_obb(&Obb::from_cuboid(cuboid, &Isometry::identity()))
    }

    /// The oriented box as a polyhedron (in the box's frame of reference: world space).
    /// Corners in the order of [`Obb::corner`].
    pub fn from_obb(obb: &Obb) -> Self {
        let vertices = obb.corners().to_vec();
        let mut loops = Vec::new();
        for i in 0..3 {
            let (j, k) = ((i + 1) % 3, (i + 2) % 3);
            for side in 0..2u32 {
                let c = |bj: u32, bk: u32| side << i | bj << j | bk << k;
                loops.push(vec![c(0, 0), c(1, 0), c(1, 1), c(0, 1)]);
            }
        }
        Self::from_loops(vertices, &loops)
    }

    /// A flat polyhedron from a triangle (local frame kept): 3 corners, 3 edges, 2 faces back
    /// to back.
    pub fn from_triangle(t: &Triangle) -> Self {
        Self::from_loops(t.corners().to_vec(), &[vec![0, 1, 2], vec![0, 2, 1]])
    }

    /// Builds the derived data from corners and face loops (loops whose Newell normal points
    /// inwards are reversed).
    fn from_loops<L: AsRef<[u32]>>(vertices: Vec<Point>, loops: &[L]) -> Self {
        let centroid = Point::from(
            vertices.iter().map(|p| p.coords).sum::<Vector>() / vertices.len().max(1) as Real,
        );
        let centroid64 = vertices
            .iter()
            .map(|p| p.coords.cast::<f64>())
            .sum::<nalgebra::Vector3<f64>>()
            / vertices.len().max(1) as f64;
        let mut faces = Vec::new();
        let mut face_vertices = Vec::new();
        let mut face_normals: Vec<Vector> = Vec::new();
        let mut edges: Vec<[u32; 2]> = Vec::new();
        let mut edge_faces: Vec<[u32; 2]> = Vec::new();
        let mut edge_direction_of = Vec::new();
        let mut edge_directions: Vec<Vector> = Vec::new();
        let flat = loops.len() == 2;
        for l in loops {
            let l = l.as_ref();
            let mut ordered: Vec<u32> = l.to_vec();
            let n64 = newell(&vertices, &ordered);
            let fc = ordered
                .iter()
                .map(|&i| vertices[i as usize].coords.cast::<f64>())
                .sum::<nalgebra::Vector3<f64>>()
                / ordered.len() as f64;
            let mut n: Vector = n64.cast::<Real>();
            if !flat && n64.dot(&(fc - centroid64)) < 0.0 {
                ordered.reverse();
                n = -n;
            }
            let direction = find_or_push(&mut face_normals, n);
            faces.push(PolyFace {
                normal: n,
                first: face_vertices.len() as u32,
                len: ordered.len() as u32,
                direction,
            });
            for k in 0..ordered.len() {
                let (a, b) = (ordered[k], ordered[(k + 1) % ordered.len()]);
                let key = [a.min(b), a.max(b)];
                if let Some(e) = edges.iter().position(|x| *x == key) {
                    edge_faces[e][1] = faces.len() as u32 - 1;
                } else {
                    edges.push(key);
                    edge_faces.push([faces.len() as u32 - 1; 2]);
                    let d = (vertices[key[1] as usize] - vertices[key[0] as usize]).normalize();
                    edge_direction_of.push(find_or_push(&mut edge_directions, d));
                }
            }
            face_vertices.extend_from_slice(&ordered);
        }
        Self {
            vertices,
            faces,
            face_vertices,
            edges,
            edge_faces,
            edge_direction_of,
            face_normals,
            edge_directions,
            centroid,
        }
    }

    /// Corners, local frame.
    #[inline]
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// Faces.
    #[inline]
    pub fn faces(&self) -> &[PolyFace] {
        &self.faces
    }

    /// The vertex indices of `face`, counter-clockwise seen from outside.
    #[inline]
    pub fn face_loop(&self, face: &PolyFace) -> &[u32] {
        &self.face_vertices[face.first as usize..(face.first + face.len) as usize]
    }

    /// Edges, each once, as pairs of vertex indices.
    #[inline]
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.edges
    }

    /// The two faces (indices into [`Self::faces`]) that share each edge, same order as
    /// [`Self::edges`]: the edge's arc on the Gauss map joins their normals. For a flat
    /// polyhedron these are its two back-to-back faces.
    #[inline]
    pub fn edge_faces(&self) -> &[[u32; 2]] {
        &self.edge_faces
    }

    /// Index into [`Self::edge_directions`] of each edge (same order as [`Self::edges`]).
    #[inline]
    pub fn edge_direction_of(&self) -> &[u16] {
        &self.edge_direction_of
    }

    /// Each distinct face normal direction once (unit, local frame; a direction and its
    /// opposite count once).
    #[inline]
    pub fn face_normals(&self) -> &[Vector] {
        &self.face_normals
    }

    /// Each distinct edge direction once (unit, local frame, up to sign).
    #[inline]
    pub fn edge_directions(&self) -> &[Vector] {
        &self.edge_directions
    }

    /// The mean of the corners (a point inside), local frame.
    #[inline]
    pub fn centroid(&self) -> Point {
        self.centroid
    }

    /// True for a polyhedron with two faces back to back (from a triangle).
    #[inline]
    pub fn is_flat(&self) -> bool {
        self.faces.len() == 2
    }

    /// The corner farthest along `dir` (local frame), and its index.
    #[inline]
    pub fn support(&self, dir: &Vector) -> (usize, Point) {
        let mut best = 0;
        let mut bv = Real::NEG_INFINITY;
        for (k, v) in self.vertices.iter().enumerate() {
            let d = v.coords.dot(dir);
            if d > bv {
                bv = d;
                best = k;
            }
        }
        (best, self.vertices[best])
    }

    /// `[min, max]` of the corners projected on `dir` (local frame).
    #[inline]
    pub fn project(&self, dir: &Vector) -> (Real, Real) {
        let mut lo = Real::INFINITY;
        let mut hi = Real::NEG_INFINITY;
        for v in &self.vertices {
            let d = v.coords.dot(dir);
            lo = lo.min(d);
            hi = hi.max(d);
        }
        (lo, hi)
    }

    /// World-space AABB at `pose` (exact: from the corners).
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        let mut lo = pose * self.vertices[0];
        let mut hi = lo;
        for v in &self.vertices[1..] {
            let w = pose * v;
            lo = lo.inf(&w);
            hi = hi.sup(&w);
        }
        Aabb::new_unchecked(lo, hi)
    }

    /// Checks the invariants, naming the first that fails: every corner on or inside every
    /// face plane (within a tolerance scaled by the size), finite unit face normals and edge
    /// directions, face loops of at least 3 corners
    /// and planar, each edge shared by exactly two faces (and [`Self::edge_faces`] naming
    /// them), Euler's V − E + F = 2, and at most [`MAX_HULL_VERTICES`] corners.
    pub fn validate(&self) -> Result<(), String> {
        let size = self
            .vertices
            .iter()
            .map(|v| (v - self.centroid).norm())
            .fold(0.0, Real::max);
        let scale = size.max(self.centroid.coords.abs().max());
        let tol = 1e-4 * scale;
        if !tol.is_finite() {
            return Err(format!("size {scale} is not finite"));
        }
        if self.vertices.len() > MAX_HULL_VERTICES {
            return Err(format!(
                "{} corners, more than {MAX_HULL_VERTICES}",
                self.vertices.len()
            ));
        }
        if let Some(d) = self
            .edge_directions
            .iter()
            .position(|d| !at_most((d.norm() - 1.0).abs(), 1e-4))
        {
            return Err(format!("edge direction {d} is not unit"));
        }
        let mut edge_uses = vec![0usize; self.edges.len()];
        for (f, face) in self.faces.iter().enumerate() {
            let l = self.face_loop(face);
            if l.len() < 3 {
                return Err(format!("face {f} has {} corners", l.len()));
            }
            if !at_most((face.normal.norm() - 1.0).abs(), 1e-4) {
                return Err(format!("face {f} normal is not unit"));
            }
            let p0 = self.vertices[l[0] as usize];
            for &i in l {
                if !at_most(
                    face.normal.dot(&(self.vertices[i as usize] - p0)).abs(),
                    tol,
                ) {
                    return Err(format!("face {f} is not planar"));
                }
            }
            if !self.is_flat() {
                for (k, v) in self.vertices.iter().enumerate() {
                    if !at_most(face.normal.dot(&(v - p0)), tol) {
                        return Err(format!("corner {k} is outside face {f}"));
                    }
                }
            }
            for k in 0..l.len() {
                let (a, b) = (l[k], l[(k + 1) % l.len()]);
                let key = [a.min(b), a.max(b)];
                match self.edges.iter().position(|e| *e == key) {
                    Some(e) => edge_uses[e] += 1,
                    None => return Err(format!("edge {a}-{b} of face {f} is not listed")),
                }
            }
        }
        if let Some(e) = edge_uses.iter().position(|&u| u != 2) {
            return Err(format!("edge {e} is used by {} faces, not 2", edge_uses[e]));
        }
        for (e, (&[a, b], &[f, g])) in self.edges.iter().zip(&self.edge_faces).enumerate() {
            let has = |f: u32| {
                let l = self.face_loop(&self.faces[f as usize]);
                l.contains(&a) && l.contains(&b)
            };
            if f == g || !has(f) || !has(g) {
                return Err(format!("edge {e} has wrong adjacent faces {f}, {g}"));
            }
        }
        let euler = self.vertices.len() as i64 - self.edges.len() as i64 + self.faces.len() as i64;
        if euler != 2 {
            return Err(format!("V − E + F = {euler}, not 2"));
        }
        Ok(())
    }
}

/// `x ≤ bound`, false for a NaN: every check of [`ConvexPolyhedron::validate`] goes through it
/// so that a NaN normal or distance fails (a hull of points near `f32::MAX` once passed with
/// NaN face normals, every `NaN > tol` being false).
fn at_most(x: Real, bound: Real) -> bool {
    x <= bound
}

/// Newell's normal of a polygon loop (robust for slightly non-planar loops), unit, computed in
/// f64 about the loop's first corner: in f32 a sliver face's normal could be off by
/// `ε·size/height`, enough to put far corners outside it.
fn newell(vertices: &[Point], l: &[u32]) -> nalgebra::Vector3<f64> {
    let o = vertices[l[0] as usize].coords.cast::<f64>();
    let at = |k: usize| vertices[l[k % l.len()] as usize].coords.cast::<f64>() - o;
    let mut n = nalgebra::Vector3::<f64>::zeros();
    for k in 0..l.len() {
        let (a, b) = (at(k), at(k + 1));
        n.x += (a.y - b.y) * (a.z + b.z);
        n.y += (a.z - b.z) * (a.x + b.x);
        n.z += (a.x - b.x) * (a.y + b.y);
    }
    n.try_normalize(0.0).unwrap_or_else(nalgebra::Vector3::z)
}

/// The index of `d` (up to sign) in `list`, pushing it when new.
fn find_or_push(list: &mut Vec<Vector>, d: Vector) -> u16 {
    if let Some(k) = list
        .iter()
        .position(|e| e.cross(&d).norm() <= DIRECTION_TOLERANCE)
    {
        return k as u16;
    }
    list.push(d);
    (list.len() - 1) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_hull_has_six_quads_three_normals() {
        let mut pts = Vec::new();
        for k in 0..8 {
            pts.push(Point::new(
                if k & 1 == 1 { 1.0 } else { -1.0 },
                if k & 2 == 2 { 2.0 } else { -2.0 },
                if k & 4 == 4 { 0.5 } else { -0.5 },
            ));
        }
        pts.push(Point::origin());
        pts.push(Point::new(0.3, 0.2, 0.1));
        let h = ConvexPolyhedron::from_points(&pts).unwrap();
        h.validate().unwrap();
        assert_eq!(h.vertices().len(), 8);
        assert_eq!(h.faces().len(), 6);
        assert_eq!(h.edges().len(), 12);
        assert_eq!(h.face_normals().len(), 3);
        assert_eq!(h.edge_directions().len(), 3);
        let c = ConvexPolyhedron::from_cuboid(&Cuboid::new(Vector::new(1.0, 2.0, 0.5)).unwrap());
        c.validate().unwrap();
        assert_eq!(c.face_normals().len(), 3);
    }

    #[test]
    fn rejects_degenerate_clouds() {
        let o = Point::origin();
        let x = Point::new(1.0, 0.0, 0.0);
        let y = Point::new(0.0, 1.0, 0.0);
        assert_eq!(
            ConvexPolyhedron::from_points(&[o, x, y]),
            Err(ShapeError::TooFewPoints(3, 4))
        );
        assert!(matches!(
            ConvexPolyhedron::from_points(&[o, o, o, o]),
            Err(ShapeError::Degenerate(_))
        ));
        assert!(matches!(
            ConvexPolyhedron::from_points(&[o, x, x * 2.0, x * 3.0]),
            Err(ShapeError::Degenerate(_))
        ));
        assert!(matches!(
            ConvexPolyhedron::from_points(&[o, x, y, x + y.coords]),
            Err(ShapeError::Degenerate(_))
        ));
        assert!(matches!(
            ConvexPolyhedron::from_points(&[o, x, y, Point::new(0.0, 0.0, Real::NAN)]),
            Err(ShapeError::NonFinite(_))
        ));
    }

    #[test]
    fn triangle_polyhedron_is_flat_and_valid() {
        let p = crate::test_util::right_triangle_hull();
        p.validate().unwrap();
        assert!(p.is_flat());
        assert_eq!(p.face_normals().len(), 1);
        assert_eq!(p.edge_directions().len(), 3);
    }
}
