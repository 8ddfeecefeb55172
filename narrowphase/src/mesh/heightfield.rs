//! The heightfield: a grid of height samples whose triangles are made on demand.

use super::internal_edges::face_normal;
use super::query::{self, MeshContact, MeshRayHit, MeshToi, TriangleSource};
use super::trimesh::{box_pad, TriMesh, MAX_TRIANGLES};
use crate::bounding::Aabb;
use crate::contact::Manifold;
use crate::error::MeshError;
use crate::math::{is_finite_vector, Isometry, Point, Real, Vector};
use crate::query::UnsupportedPair;
use crate::ray::{Ray, RayHit};
use crate::shape::{ShapeRef, Triangle};

/// A static heightfield in its local frame: `rows × cols` height samples on a regular grid,
/// rows along z and columns along x, centred on the local origin in x and z (the layout of
/// parry's `HeightField`).
///
/// With `scale = (sx, sy, sz)` (metres; `sx`, `sz` the total extents, `sy` a height
/// multiplier), sample `(row j, col i)` is the vertex
/// `(−sx/2 + i·sx/(cols−1), sy·h[j·cols + i], −sz/2 + j·sz/(rows−1))`
/// ([`HeightField::point`]). Cell `(i, j)` (column `i < cols − 1`, row `j < rows − 1`) is cut
/// by the diagonal from vertex `(i, j+1)` to vertex `(i+1, j)` into two triangles, in this
/// corner order (vertices named `(column, row)`):
///
/// - triangle 0: `(i, j)`, `(i, j+1)`, `(i+1, j)`;
/// - triangle 1: `(i, j+1)`, `(i+1, j+1)`, `(i+1, j)`;
///
/// both with normals toward +y. Triangle ids run over the cells row by row:
/// `2·(j·(cols−1) + i) + k` ([`HeightField::triangle_index`]), so the [`TriMesh`] of the same
/// vertices (vertex `(i, j)` at index `j·cols + i`) and triangles in id order
/// ([`HeightField::to_trimesh`]) answers every query identically.
///
/// No triangle is stored: the queries visit the cells under a box (or along a ray) and make
/// their triangles there.
#[derive(Clone, Debug)]
pub struct HeightField {
    rows: usize,
    cols: usize,
    heights: Vec<Real>,
    scale: Vector,
    /// Lowest and highest scaled height (local y, metres).
    y_range: (Real, Real),
    pad: Real,
}

impl HeightField {
    /// A heightfield of `rows × cols` samples `heights` (row-major: sample `(row j, col i)`
    /// at `j·cols + i`, unitless, multiplied by `scale.y`) spanning `scale.x` metres in x and
    /// `scale.z` in z.
    ///
    /// Errors: [`MeshError::TooFewSamples`] below 2 rows or columns,
    /// [`MeshError::SampleCountMismatch`], [`MeshError::NonFiniteScale`],
    /// [`MeshError::NonPositiveScale`], [`MeshError::TooManyTriangles`] beyond
    /// [`MAX_TRIANGLES`], [`MeshError::NonFiniteHeight`] (also when the scaled height
    /// overflows) and [`MeshError::DegenerateTriangle`] for a cell whose triangle
    /// [`Triangle::new`] refuses (heights huge against a tiny cell).
    pub fn new(
        rows: usize,
        cols: usize,
        heights: &[Real],
        scale: Vector,
    ) -> Result<Self, MeshError> {
        if rows < 2 || cols < 2 {
            return Err(MeshError::TooFewSamples { rows, cols });
        }
        let expected = rows.saturating_mul(cols);
        if heights.len() != expected {
            return Err(MeshError::SampleCountMismatch {
                expected,
                got: heights.len(),
            });
        }
        if !is_finite_vector(&scale) {
            return Err(MeshError::NonFiniteScale);
        }
        if let Some(&v) = scale.iter().find(|v| **v <= 0.0) {
            return Err(MeshError::NonPositiveScale(v));
        }
        let count = (rows - 1)
            .checked_mul(cols - 1)
            .and_then(|c| c.checked_mul(2))
            .unwrap_or(usize::MAX);
        if count > MAX_TRIANGLES {
            return Err(MeshError::TooManyTriangles {
                count,
                max: MAX_TRIANGLES,
            });
        }
        let mut y_range = (Real::INFINITY, Real::NEG_INFINITY);
        for (k, h) in heights.iter().enumerate() {
            let y = h * scale.y;
            if !y.is_finite() {
                return Err(MeshError::NonFiniteHeight(k));
            }
            y_range = (y_range.0.min(y), y_range.1.max(y));
        }
        let size = (0.5 * scale.x)
            .max(0.5 * scale.z)
            .max(y_range.0.abs())
            .max(y_range.1.abs());
        let hf = Self {
            rows,
            cols,
            heights: heights.to_vec(),
            scale,
            y_range,
            pad: box_pad(size),
        };
        for id in 0..count as u32 {
            let c = *hf.tri(id).corners();
            Triangle::new(c[0], c[1], c[2])
                .map_err(|_| MeshError::DegenerateTriangle(id as usize))?;
        }
        Ok(hf)
    }

    /// Number of sample rows (along z).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of sample columns (along x).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The scale: total extent in x and z (metres), height multiplier in y.
    pub fn scale(&self) -> Vector {
        self.scale
    }

    /// The raw samples, row-major (`j·cols + i`).
    pub fn heights(&self) -> &[Real] {
        &self.heights
    }

    /// Number of triangles, `2·(rows − 1)·(cols − 1)`.
    pub fn triangle_count(&self) -> usize {
        2 * (self.rows - 1) * (self.cols - 1)
    }

    /// Cell width along x and depth along z, metres.
    fn cell_size(&self) -> (Real, Real) {
        (
            self.scale.x / (self.cols - 1) as Real,
            self.scale.z / (self.rows - 1) as Real,
        )
    }

    /// The vertex of sample `(row, col)`, local frame (see [`HeightField`]); rows and columns
    /// beyond the grid are clamped to its last ones.
    pub fn point(&self, row: usize, col: usize) -> Point {
        let (row, col) = (row.min(self.rows - 1), col.min(self.cols - 1));
        let (dx, dz) = self.cell_size();
        Point::new(
            -0.5 * self.scale.x + col as Real * dx,
            self.heights[row * self.cols + col] * self.scale.y,
            -0.5 * self.scale.z + row as Real * dz,
        )
    }

    /// The id of triangle `k` (0 or 1) of cell (column `col`, row `row`):
    /// `2·(row·(cols−1) + col) + k`.
    pub fn triangle_index(&self, row: usize, col: usize, k: usize) -> u32 {
        (2 * (row * (self.cols - 1) + col) + k) as u32
    }

    /// Triangle `id` in the local frame, or None for an id out of range.
    pub fn triangle(&self, id: u32) -> Option<Triangle> {
        ((id as usize) < self.triangle_count()).then(|| self.tri(id))
    }

    /// The triangle mesh of the same surface: vertex `(col i, row j)` at index `j·cols + i`,
    /// triangles in id order. Errors as [`TriMesh::new`] (none for a valid heightfield).
    pub fn to_trimesh(&self) -> Result<TriMesh, MeshError> {
        let mut v = Vec::with_capacity(self.rows * self.cols);
        for j in 0..self.rows {
            for i in 0..self.cols {
                v.push(self.point(j, i));
            }
        }
        let at = |i: usize, j: usize| (j * self.cols + i) as u32;
        let mut t = Vec::with_capacity(self.triangle_count());
        for j in 0..self.rows - 1 {
            for i in 0..self.cols - 1 {
                t.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
                t.push([at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]);
            }
        }
        TriMesh::new(&v, &t)
    }

    /// The local box of the surface: `[−sx/2, sx/2] × [lowest, highest] × [−sz/2, sz/2]`,
    /// grown by about 10⁻⁵ of the field's size.
    pub fn local_aabb(&self) -> Aabb {
        let h = Vector::new(0.5 * self.scale.x, 0.0, 0.5 * self.scale.z);
        Aabb::new_unchecked(
            Point::new(-h.x, self.y_range.0, -h.z),
            Point::new(h.x, self.y_range.1, h.z),
        )
        .loosened(self.pad)
    }

    /// The world box of the heightfield placed by `pose` (the local box rotated, so not
    /// tight).
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        query::world_aabb(&self.local_aabb(), pose)
    }

    /// Contacts of the triangles under `other`'s box: as [`TriMesh::contacts`].
    pub fn contacts<'b>(
        &self,
        mesh_pose: &Isometry,
        other_pose: &Isometry,
        other: impl Into<ShapeRef<'b>>,
        prediction: Real,
        out: &mut Vec<MeshContact>,
    ) -> Result<(), UnsupportedPair> {
        query::contacts(self, mesh_pose, other_pose, other.into(), prediction, out)
    }

    /// The corrected contact of the single triangle `id`: as [`TriMesh::triangle_contact`].
    pub fn triangle_contact<'b>(
        &self,
        id: u32,
        mesh_pose: &Isometry,
        other_pose: &Isometry,
        other: impl Into<ShapeRef<'b>>,
        prediction: Real,
    ) -> Result<Option<Manifold>, UnsupportedPair> {
        if id as usize >= self.triangle_count() {
            return Ok(None);
        }
        query::triangle_contact(self, id, mesh_pose, other_pose, other.into(), prediction)
    }

    /// The reduced manifold of the triangles under `other`: as [`TriMesh::contact`].
    pub fn contact<'b>(
        &self,
        mesh_pose: &Isometry,
        other_pose: &Isometry,
        other: impl Into<ShapeRef<'b>>,
        prediction: Real,
    ) -> Result<Option<Manifold>, UnsupportedPair> {
        query::reduced_contact(self, mesh_pose, other_pose, other.into(), prediction)
    }

    /// Overlap test: as [`TriMesh::intersection_test`].
    pub fn intersection_test<'b>(
        &self,
        mesh_pose: &Isometry,
        other_pose: &Isometry,
        other: impl Into<ShapeRef<'b>>,
    ) -> Result<bool, UnsupportedPair> {
        query::intersection_test(self, mesh_pose, other_pose, other.into())
    }

    /// First ray hit: as [`TriMesh::cast_ray`]. The ray walks the cells it crosses, in
    /// order (a 2D grid traversal, Amanatides & Woo, "A fast voxel traversal algorithm",
    /// Eurographics 1987), and stops after the cell of the first hit.
    pub fn cast_ray(&self, mesh_pose: &Isometry, ray: &Ray, max_t: Real) -> Option<MeshRayHit> {
        query::cast_ray(self, mesh_pose, ray, max_t)
    }

    /// First impact of a translating shape: as [`TriMesh::cast_shape`].
    pub fn cast_shape<'b>(
        &self,
        mesh_pose: &Isometry,
        pose0: &Isometry,
        shape: impl Into<ShapeRef<'b>>,
        motion: &Vector,
        slop: Real,
    ) -> Option<MeshToi> {
        query::cast_shape(self, mesh_pose, pose0, shape.into(), motion, slop)
    }

    /// The cell (column, row) and triangle (0, 1) of id `id`.
    fn cell_of_id(&self, id: u32) -> (usize, usize, usize) {
        let cell = id as usize / 2;
        let w = self.cols - 1;
        (cell % w, cell / w, id as usize % 2)
    }

    /// The range of cells along one axis touched by `[lo, hi]` (local metres), cells of width
    /// `step` starting at `origin`, `n` cells; None when the range misses the grid.
    fn cell_range(
        lo: Real,
        hi: Real,
        origin: Real,
        step: Real,
        n: usize,
    ) -> Option<(usize, usize)> {
        let a = ((lo - origin) / step).floor();
        let b = ((hi - origin) / step).floor();
        if b < 0.0 || a > (n - 1) as Real {
            return None;
        }
        // Casts saturate; the clamps bring both into [0, n − 1].
        Some((
            (a.max(0.0) as usize).min(n - 1),
            (b.max(0.0) as usize).min(n - 1),
        ))
    }

    /// Tests the two triangles of cell (i, j) against the local ray, keeping the best hit.
    fn ray_cell(
        &self,
        i: usize,
        j: usize,
        ray: &Ray,
        max_t: Real,
        best: &mut Option<(u32, RayHit)>,
    ) {
        for k in 0..2 {
            let id = self.triangle_index(j, i, k);
            let bound = best.map_or(max_t, |b| b.1.t);
            if let Some(h) = query::ray_on(&self.tri(id), ray, bound) {
                let better = match *best {
                    None => true,
                    Some((bid, bh)) => h.t < bh.t || (h.t == bh.t && id < bid),
                };
                if better {
                    *best = Some((id, h));
                }
            }
        }
    }
}

impl TriangleSource for HeightField {
    fn bounds(&self) -> Aabb {
        self.local_aabb()
    }

    fn visit(&self, q: &Aabb, f: &mut dyn FnMut(u32) -> bool) {
        let q = q.loosened(self.pad);
        if !q.intersects(&self.local_aabb()) {
            return;
        }
        let (dx, dz) = self.cell_size();
        let Some((i0, i1)) =
            Self::cell_range(q.mins.x, q.maxs.x, -0.5 * self.scale.x, dx, self.cols - 1)
        else {
            return;
        };
        let Some((j0, j1)) =
            Self::cell_range(q.mins.z, q.maxs.z, -0.5 * self.scale.z, dz, self.rows - 1)
        else {
            return;
        };
        for j in j0..=j1 {
            for i in i0..=i1 {
                for k in 0..2 {
                    let id = self.triangle_index(j, i, k);
                    let c = self.tri(id);
                    let c = c.corners();
                    let (lo, hi) = (
                        c[0].y.min(c[1].y).min(c[2].y),
                        c[0].y.max(c[1].y).max(c[2].y),
                    );
                    if hi < q.mins.y || lo > q.maxs.y {
                        continue;
                    }
                    if !f(id) {
                        return;
                    }
                }
            }
        }
    }

    fn tri(&self, id: u32) -> Triangle {
        let (i, j, k) = self.cell_of_id(id);
        // point(row, col)
        let (p00, p01, p10) = (self.point(j, i), self.point(j + 1, i), self.point(j, i + 1));
        if k == 0 {
            Triangle::new_unchecked(p00, p01, p10)
        } else {
            Triangle::new_unchecked(p01, self.point(j + 1, i + 1), p10)
        }
    }

    fn neighbour_normals(&self, id: u32) -> [Option<Vector>; 3] {
        let (i, j, k) = self.cell_of_id(id);
        let (w, h) = (self.cols - 1, self.rows - 1);
        let across = |cond: bool, row: usize, col: usize, kk: usize| {
            cond.then(|| face_normal(self.tri(self.triangle_index(row, col, kk)).corners()))
        };
        if k == 0 {
            // Edge 0 (x = x_i) borders triangle 1 of cell (i − 1, j); edge 1 (the diagonal)
            // triangle 1 of this cell; edge 2 (z = z_j) triangle 1 of cell (i, j − 1).
            [
                across(i > 0, j, i.saturating_sub(1), 1),
                across(true, j, i, 1),
                across(j > 0, j.saturating_sub(1), i, 1),
            ]
        } else {
            // Edge 0 (z = z_{j+1}) borders triangle 0 of cell (i, j + 1); edge 1
            // (x = x_{i+1}) triangle 0 of cell (i + 1, j); edge 2 (the diagonal) triangle 0
            // of this cell.
            [
                across(j + 1 < h, j + 1, i, 0),
                across(i + 1 < w, j, i + 1, 0),
                across(true, j, i, 0),
            ]
        }
    }

    fn local_ray(&self, ray: &Ray, max_t: Real) -> Option<(u32, RayHit)> {
        let b = self.local_aabb();
        let (o, d) = (ray.origin(), ray.dir());
        // Clip the ray to the field's box: [t0, t1].
        let (mut t0, mut t1): (Real, Real) = (0.0, max_t);
        for a in 0..3 {
            if d[a].abs() < Real::MIN_POSITIVE {
                if o[a] < b.mins[a] || o[a] > b.maxs[a] {
                    return None;
                }
            } else {
                let inv = 1.0 / d[a];
                let (p, q) = ((b.mins[a] - o[a]) * inv, (b.maxs[a] - o[a]) * inv);
                let (p, q) = if p > q { (q, p) } else { (p, q) };
                t0 = t0.max(p);
                t1 = t1.min(q);
                if t0 > t1 {
                    return None;
                }
            }
        }
        let (dx, dz) = self.cell_size();
        let (x0, z0) = (-0.5 * self.scale.x, -0.5 * self.scale.z);
        let (w, h) = (self.cols - 1, self.rows - 1);
        let start = ray.point_at(t0);
        let clamp = |v: Real, n: usize| (v.floor().max(0.0) as usize).min(n - 1);
        let (mut i, mut j) = (clamp((start.x - x0) / dx, w), clamp((start.z - z0) / dz, h));
        let dir_of = |v: Real| -> isize {
            if v >= Real::MIN_POSITIVE {
                1
            } else if v <= -Real::MIN_POSITIVE {
                -1
            } else {
                0
            }
        };
        let (si, sj) = (dir_of(d.x), dir_of(d.z));
        // The ray parameter at which it leaves cell index `c` along an axis.
        let exit = |c: usize, s: isize, origin: Real, step: Real, o: Real, d: Real| -> Real {
            match s {
                1 => (origin + (c + 1) as Real * step - o) / d,
                -1 => (origin + c as Real * step - o) / d,
                _ => Real::INFINITY,
            }
        };
        let mut best: Option<(u32, RayHit)> = None;
        let mut entry = t0;
        loop {
            if best.is_some_and(|b| entry > b.1.t) {
                break;
            }
            self.ray_cell(i, j, ray, max_t, &mut best);
            let tx = exit(i, si, x0, dx, o.x, d.x);
            let tz = exit(j, sj, z0, dz, o.z, d.z);
            let next = tx.min(tz);
            if next > t1 || next.is_nan() {
                break;
            }
            entry = entry.max(next);
            if tx <= tz {
                match i.checked_add_signed(si) {
                    Some(n) if n < w => i = n,
                    _ => break,
                }
            } else {
                match j.checked_add_signed(sj) {
                    Some(n) if n < h => j = n,
                    _ => break,
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cell split of the definition: cell (0, 0) of a 2 × 2 field is the triangles
    /// (0,0),(0,1),(1,0) and (0,1),(1,1),(1,0), both facing +y, and each is the other's
    /// neighbour across the diagonal (edge 1 of the first, edge 2 of the second).
    #[test]
    fn one_cell_split_and_neighbours() {
        let hf = HeightField::new(2, 2, &[0.0, 1.0, 2.0, 3.0], Vector::new(2.0, 1.0, 4.0)).unwrap();
        let a = hf.triangle(0).unwrap();
        let b = hf.triangle(1).unwrap();
        assert_eq!(
            a.corners(),
            &[hf.point(0, 0), hf.point(1, 0), hf.point(0, 1)]
        );
        assert_eq!(
            b.corners(),
            &[hf.point(1, 0), hf.point(1, 1), hf.point(0, 1)]
        );
        assert_eq!(hf.point(1, 1), Point::new(1.0, 3.0, 2.0));
        assert!(a.normal().y > 0.0 && b.normal().y > 0.0);
        let na = hf.neighbour_normals(0);
        assert_eq!(na[0], None);
        assert_eq!(na[1], Some(face_normal(b.corners())));
        assert_eq!(na[2], None);
        let nb = hf.neighbour_normals(1);
        assert_eq!(nb, [None, None, Some(face_normal(a.corners()))]);
        assert!(hf.triangle(2).is_none());
    }
}
