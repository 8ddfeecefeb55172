//! The static triangle mesh.

use super::bvh::Bvh;
use super::internal_edges::{edge_neighbours, face_normal, FLIPPED, NO_NEIGHBOUR};
use super::query::{self, MeshContact, MeshRayHit, MeshToi, TriangleSource};
use crate::bounding::Aabb;
use crate::contact::Manifold;
use crate::error::MeshError;
use crate::math::{is_finite_point, Isometry, Point, Real, Vector};
use crate::query::UnsupportedPair;
use crate::ray::{Ray, RayHit};
use crate::shape::{ShapeRef, Triangle};

/// The largest number of triangles of a mesh or heightfield: triangle ids are `u32`, and the
/// edge tables keep the top bit for a flag.
pub const MAX_TRIANGLES: usize = (1 << 31) - 1;

/// A static triangle mesh in its local frame (metres): shared vertices, triangles as index
/// triples, a bounding volume hierarchy over the triangles (see the
/// [module docs](super)) and, per triangle
/// and edge, the triangle across that edge (for the internal-edge correction of
/// [`super::internal_edges`]).
///
/// Triangles are two-sided (no inside); a triangle's normal is `(b − a) × (c − a)` of its
/// corners in index order. Triangle ids are positions in the index slice given to
/// [`TriMesh::new`].
///
/// Build cost, measured 2026-12-01 with
/// `cargo test --release -p tumble-narrowphase --lib mesh::trimesh::tests::million_triangles -- --ignored --nocapture`
/// on a wavy 708 × 707 grid of 1,001,112 triangles, two runs on a 2-core machine shared with
/// other builds (load average 5 to 7, so the building thread's CPU time is given beside wall
/// time): the hierarchy builds in 0.44–0.49 s of CPU (0.84–1.14 s wall) and takes 21.2 bytes
/// per triangle (538,123 nodes); the edge adjacency takes 0.26–0.51 s of CPU; the whole mesh
/// (validation, hierarchy, adjacency) 0.72–0.89 s of CPU (1.4–2.2 s wall).
#[derive(Clone, Debug)]
pub struct TriMesh {
    vertices: Vec<Point>,
    indices: Vec<[u32; 3]>,
    /// Per triangle and edge: the neighbour's id, [`FLIPPED`] when its winding disagrees,
    /// [`NO_NEIGHBOUR`] on boundary edges.
    neighbours: Vec<[u32; 3]>,
    bvh: Bvh,
    /// The growth of the hierarchy's boxes, metres.
    pad: Real,
}

impl TriMesh {
    /// A mesh from vertices (local frame, metres) and triangles (three vertex indices each).
    ///
    /// Errors: [`MeshError::Empty`] without vertices or triangles,
    /// [`MeshError::TooManyTriangles`] beyond [`MAX_TRIANGLES`],
    /// [`MeshError::NonFiniteVertex`], [`MeshError::IndexOutOfRange`], and
    /// [`MeshError::DegenerateTriangle`] for a triangle [`Triangle::new`] refuses (repeated or
    /// collinear corners). Unreferenced vertices are allowed.
    pub fn new(vertices: &[Point], indices: &[[u32; 3]]) -> Result<Self, MeshError> {
        Self::with_limit(vertices, indices, MAX_TRIANGLES)
    }

    /// [`TriMesh::new`] with the triangle limit as a parameter (tests reach the limit with
    /// small meshes).
    fn with_limit(vertices: &[Point], indices: &[[u32; 3]], max: usize) -> Result<Self, MeshError> {
        if vertices.is_empty() || indices.is_empty() {
            return Err(MeshError::Empty);
        }
        if indices.len() > max {
            return Err(MeshError::TooManyTriangles {
                count: indices.len(),
                max,
            });
        }
        if let Some(v) = vertices.iter().position(|p| !is_finite_point(p)) {
            return Err(MeshError::NonFiniteVertex(v));
        }
        let mut boxes = Vec::with_capacity(indices.len());
        let mut scale: Real = 0.0;
        for (t, tri) in indices.iter().enumerate() {
            let mut c = [Point::origin(); 3];
            for k in 0..3 {
                let i = tri[k];
                c[k] = *vertices.get(i as usize).ok_or(MeshError::IndexOutOfRange {
                    triangle: t,
                    index: i,
                    vertex_count: vertices.len(),
                })?;
            }
            Triangle::new(c[0], c[1], c[2]).map_err(|_| MeshError::DegenerateTriangle(t))?;
            let b = Aabb::new_unchecked(c[0].inf(&c[1]).inf(&c[2]), c[0].sup(&c[1]).sup(&c[2]));
            scale = scale.max(b.mins.coords.amax()).max(b.maxs.coords.amax());
            boxes.push(b);
        }
        let pad = box_pad(scale);
        let bvh = Bvh::build(&boxes, pad);
        Ok(Self {
            vertices: vertices.to_vec(),
            indices: indices.to_vec(),
            neighbours: edge_neighbours(indices),
            bvh,
            pad,
        })
    }

    /// The vertices, local frame.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// The triangles as vertex index triples; a triangle's id is its position here.
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.indices
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len()
    }

    /// Triangle `id` in the local frame, or None for an id out of range.
    pub fn triangle(&self, id: u32) -> Option<Triangle> {
        let t = self.indices.get(id as usize)?;
        Some(self.corners_triangle(t))
    }

    fn corners_triangle(&self, t: &[u32; 3]) -> Triangle {
        let v = &self.vertices;
        Triangle::new_unchecked(v[t[0] as usize], v[t[1] as usize], v[t[2] as usize])
    }

    /// The ids of the triangles across edges 0, 1, 2 of triangle `id` (edge `k` runs from its
    /// corner `k` to corner `k + 1 mod 3`); None on a boundary edge (one triangle, or more than
    /// two, on it) and for an id out of range.
    pub fn edge_neighbours(&self, id: u32) -> [Option<u32>; 3] {
        match self.neighbours.get(id as usize) {
            Some(n) => n.map(|e| (e != NO_NEIGHBOUR).then_some(e & !FLIPPED)),
            None => [None; 3],
        }
    }

    /// The local box holding every triangle (grown by about 10⁻⁵ of the mesh's size, the pad
    /// of the hierarchy's boxes).
    pub fn local_aabb(&self) -> Aabb {
        self.bvh.root_aabb()
    }

    /// The world box of the mesh placed by `pose` (the local box rotated, so not tight).
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        query::world_aabb(&self.local_aabb(), pose)
    }

    /// Heap bytes of the bounding volume hierarchy (nodes and leaf order).
    pub fn bvh_bytes(&self) -> usize {
        self.bvh.heap_bytes()
    }

    /// Appends to `out` the contact of every triangle (placed by `mesh_pose`) that penetrates
    /// `other` (at `other_pose`) or is closer to it than `prediction` metres (finite and
    /// ≥ 0; otherwise, or for a non-finite pose, nothing is appended), sorted by triangle id.
    /// Each contact follows [`crate::contact`]: world space, normal from the mesh to `other`,
    /// depth positive when penetrating; normals that would catch on internal edges are
    /// corrected ([`super::internal_edges`]).
    ///
    /// The triangles tried are those whose boxes come within `prediction` of `other`'s box, so
    /// every triangle truly within `prediction` is tried; the per-triangle kernel
    /// ([`crate::query::contact_any`]) on a triangle farther away can still report a
    /// speculative contact (its separating-axis gap is a lower bound of the distance), and
    /// such a triangle may not be tried. `other` may be any shape of [`ShapeRef`]; the error
    /// is that of the per-triangle kernel for a pair it lacks (`out` is then left as it was).
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

    /// The contact of the single triangle `id` with `other`, corrected at internal edges as in
    /// [`TriMesh::contacts`] (None for an id out of range): what `contacts` reports for that
    /// triangle.
    pub fn triangle_contact<'b>(
        &self,
        id: u32,
        mesh_pose: &Isometry,
        other_pose: &Isometry,
        other: impl Into<ShapeRef<'b>>,
        prediction: Real,
    ) -> Result<Option<Manifold>, UnsupportedPair> {
        if id as usize >= self.indices.len() {
            return Ok(None);
        }
        query::triangle_contact(self, id, mesh_pose, other_pose, other.into(), prediction)
    }

    /// The contacts of [`TriMesh::contacts`] reduced to one manifold of at most four points
    /// ([`super::reduce`](mod@super::reduce)): world space, normal from the mesh to `other`, depth positive when
    /// penetrating, each point's feature id mixing its triangle's id with the point's own
    /// ([`super::mesh_feature_id`]). `Ok(None)` when no triangle is within `prediction`
    /// metres; the error is that of [`TriMesh::contacts`].
    pub fn contact<'b>(
        &self,
        mesh_pose: &Isometry,
        other_pose: &Isometry,
        other: impl Into<ShapeRef<'b>>,
        prediction: Real,
    ) -> Result<Option<Manifold>, UnsupportedPair> {
        query::reduced_contact(self, mesh_pose, other_pose, other.into(), prediction)
    }

    /// True when some triangle (placed by `mesh_pose`) overlaps or touches `other` at
    /// `other_pose` (the per-triangle test of [`crate::query::intersects_any`]). False for a
    /// non-finite pose.
    pub fn intersection_test<'b>(
        &self,
        mesh_pose: &Isometry,
        other_pose: &Isometry,
        other: impl Into<ShapeRef<'b>>,
    ) -> Result<bool, UnsupportedPair> {
        query::intersection_test(self, mesh_pose, other_pose, other.into())
    }

    /// The first triangle the world-space `ray` meets within `t ∈ [0, max_t]` (units of the
    /// ray's direction), with the hit in world space (normal facing against the ray); None
    /// when it meets none, or for a NaN or negative `max_t` or a non-finite pose.
    pub fn cast_ray(&self, mesh_pose: &Isometry, ray: &Ray, max_t: Real) -> Option<MeshRayHit> {
        query::cast_ray(self, mesh_pose, ray, max_t)
    }

    /// The first triangle that `shape`, starting at `pose0` and translating by `motion`
    /// (world space, metres over the motion `t ∈ [0, 1]`, no rotation), touches, and when.
    /// A ball is swept exactly ([`crate::sweep::sweep_sphere_triangle`]); other shapes by
    /// conservative advancement ([`crate::sweep::time_of_impact`]), and count as touching
    /// within `slop` metres (≥ 0). A triangle touched (within `slop`) at the start gives
    /// `t = 0`. Ties on `t` go to the lower triangle id. None for non-finite input.
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
}

/// The pad of the hierarchy's boxes for a mesh whose largest coordinate magnitude is `scale`:
/// 10⁻⁵ of it, far above the rounding of the box tests and far below any contact tolerance.
pub(crate) fn box_pad(scale: Real) -> Real {
    1e-5 * scale.max(1e-3)
}

impl TriangleSource for TriMesh {
    fn bounds(&self) -> Aabb {
        self.local_aabb()
    }

    fn visit(&self, q: &Aabb, f: &mut dyn FnMut(u32) -> bool) {
        // Leaves hold up to four triangles: each one's own box is checked before the kernel
        // (grown by the hierarchy's pad, as the node boxes are).
        let pad = self.pad;
        self.bvh.visit_aabb(q, |id| {
            let [a, b, c] = *self.tri(id).corners();
            let bx = Aabb::new_unchecked(a.inf(&b).inf(&c), a.sup(&b).sup(&c)).loosened(pad);
            !bx.intersects(q) || f(id)
        });
    }

    fn tri(&self, id: u32) -> Triangle {
        self.corners_triangle(&self.indices[id as usize])
    }

    fn neighbour_normals(&self, id: u32) -> [Option<Vector>; 3] {
        self.neighbours[id as usize].map(|e| {
            if e == NO_NEIGHBOUR {
                return None;
            }
            let t = self.corners_triangle(&self.indices[(e & !FLIPPED) as usize]);
            let n = face_normal(t.corners());
            Some(if e & FLIPPED != 0 { -n } else { n })
        })
    }

    fn local_ray(&self, ray: &Ray, max_t: Real) -> Option<(u32, RayHit)> {
        let mut best: Option<(u32, RayHit)> = None;
        self.bvh
            .visit_ray(&ray.origin(), &ray.dir(), max_t, |id, bound| {
                if let Some(h) = query::ray_on(&self.tri(id), ray, bound) {
                    // Ties go to the lower id, whatever the visiting order.
                    let better = match best {
                        None => true,
                        Some((bid, bh)) => h.t < bh.t || (h.t == bh.t && id < bid),
                    };
                    if better {
                        best = Some((id, h));
                    }
                }
                best.map_or(bound, |b| b.1.t)
            });
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid of `nx × nz` cells of 1 m in the plane y = 0, two triangles per cell.
    pub(crate) fn grid(nx: u32, nz: u32) -> (Vec<Point>, Vec<[u32; 3]>) {
        let mut v = Vec::new();
        for j in 0..=nz {
            for i in 0..=nx {
                v.push(Point::new(i as Real, 0.0, j as Real));
            }
        }
        let at = |i: u32, j: u32| j * (nx + 1) + i;
        let mut t = Vec::new();
        for j in 0..nz {
            for i in 0..nx {
                t.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
                t.push([at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]);
            }
        }
        (v, t)
    }

    /// The triangle limit is checked before anything else (a 2³¹-triangle slice cannot be
    /// allocated in a test, so the limit is lowered).
    #[test]
    fn too_many_triangles_is_an_error() {
        let (v, t) = grid(2, 2);
        assert_eq!(
            TriMesh::with_limit(&v, &t, 7).unwrap_err(),
            MeshError::TooManyTriangles { count: 8, max: 7 }
        );
        assert!(TriMesh::with_limit(&v, &t, 8).is_ok());
    }

    /// CPU time of this thread, seconds (from `/proc/thread-self/schedstat`, nanoseconds on
    /// the CPU: unlike wall time, not inflated by other processes on a shared machine); None
    /// where the file is missing.
    fn thread_cpu_s() -> Option<f64> {
        let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
        Some(ns * 1e-9)
    }

    /// Runs `f`, returning its result, wall seconds and CPU seconds (NaN when unknown).
    fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
        let (w, c) = (std::time::Instant::now(), thread_cpu_s());
        let out = f();
        let cpu = match (c, thread_cpu_s()) {
            (Some(a), Some(b)) => b - a,
            _ => f64::NAN,
        };
        (out, w.elapsed().as_secs_f64(), cpu)
    }

    /// The build figures of the doc comment of [`TriMesh`]: a 10⁶-triangle grid with a wavy
    /// surface. Run in release:
    /// `cargo test --release -p tumble-narrowphase --lib mesh::trimesh::tests::million_triangles -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn million_triangles() {
        let (mut v, t) = grid(708, 707);
        for p in &mut v {
            p.y = (p.x * 0.3).sin() * (p.z * 0.2).cos();
        }
        let boxes: Vec<Aabb> = t
            .iter()
            .map(|tri| {
                let c = tri.map(|i| v[i as usize]);
                Aabb::new_unchecked(c[0].inf(&c[1]).inf(&c[2]), c[0].sup(&c[1]).sup(&c[2]))
            })
            .collect();
        let (bvh, bvh_wall, bvh_cpu) = timed(|| Bvh::build(&boxes, 1e-3));
        let (adjacency, adj_wall, adj_cpu) = timed(|| edge_neighbours(&t));
        assert_eq!(adjacency.len(), t.len());
        let (mesh, all_wall, all_cpu) = timed(|| TriMesh::new(&v, &t).unwrap());
        let per_tri = bvh.heap_bytes() as f64 / t.len() as f64;
        let mesh_per_tri = mesh.bvh_bytes() as f64 / t.len() as f64;
        println!(
            "{} triangles, {} nodes, {per_tri:.1} B/triangle (the mesh's own: {mesh_per_tri:.1})",
            t.len(),
            bvh.node_count()
        );
        println!("hierarchy: {bvh_wall:.3} s wall, {bvh_cpu:.3} s CPU");
        println!("edge adjacency: {adj_wall:.3} s wall, {adj_cpu:.3} s CPU");
        println!("whole mesh (validation, hierarchy, adjacency): {all_wall:.3} s wall, {all_cpu:.3} s CPU");
        assert!(
            per_tri < 100.0 && mesh_per_tri < 100.0,
            "{per_tri} bytes per triangle"
        );
        // CPU time where the machine reports it (wall time is at the mercy of other builds).
        let build = if bvh_cpu.is_nan() { bvh_wall } else { bvh_cpu };
        assert!(build < 1.0, "hierarchy build {build} s");
    }
}
