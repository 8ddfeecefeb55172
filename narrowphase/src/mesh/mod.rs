//! Static triangle meshes and heightfields: concave surfaces collided one triangle at a time.
//!
//! A mesh is not convex, so none of the crate's pair kernels applies to it whole. Every query
//! here works in two steps:
//!
//! 1. **Candidates.** The other shape's box (or the ray, or the box swept by the moving shape)
//!    is taken into the mesh's local frame, and only the triangles whose boxes it overlaps are
//!    visited: for a [`TriMesh`], by a bounding volume hierarchy over its triangles; for a
//!    [`HeightField`], by the grid itself (the cells under the box, or the cells a ray crosses
//!    in order), with the triangles made on the spot from the samples.
//! 2. **Per-triangle kernels.** Each candidate is a [`Triangle`](crate::shape::Triangle) placed by
//!    the mesh's pose, handed to the crate's convex-pair queries: [`crate::query::contact_any`],
//!    [`crate::query::intersects_any`], [`crate::ray::ray_triangle`],
//!    [`crate::sweep::sweep_sphere_triangle`] (balls) or [`crate::sweep::time_of_impact`]
//!    (other shapes). Results are tagged with the triangle's id.
//!
//! The hierarchy is a binary tree of boxes in one flat array, built top-down by the binned
//! surface-area heuristic (Wald, "On fast construction of SAH-based bounding volume
//! hierarchies", IEEE RT 2007; Ericson, RTCD §6.2): at each node the triangles' centroids fall
//! into 16 bins along the longest axis and the split of least `area · count` on both sides is
//! kept, so each level costs time linear in its triangles (O(n log n) in all). A node is 32
//! bytes (its box, then its first triangle and count, or its first child), leaves hold up to 4
//! triangles, plus 4 bytes per triangle of leaf order: at most 68 bytes per triangle (21 on
//! a 10⁶-triangle grid, see [`TriMesh`]). Deeper than 40 levels, nodes split at the median
//! centroid, which bounds the depth and so the fixed stack of the traversals. Boxes are grown by 10⁻⁵ of the mesh's size, so rounding in a box
//! test cannot lose a triangle lying on a box face (a flat mesh has boxes of zero height).
//! Rays visit the nearer child first and skip nodes entered beyond the best hit so far.
//!
//! Contacts then pass through the **internal-edge correction** ([`internal_edges`]): a body
//! sliding over the seam between two triangles must not be pushed sideways by the edge of the
//! triangle it barely overlaps, since the surface has no edge there.
//!
//! [`TriMesh::contact`] and [`HeightField::contact`] reduce the triangles' manifolds to one
//! manifold of at most four points ([`reduce`](mod@reduce)): what [`crate::query::contact`] returns for a
//! mesh against a convex shape, and what a world's contact cache keeps per pair of bodies.
//!
//! Frames and units: mesh data (vertices, heights, boxes of [`TriMesh::local_aabb`]) are in the
//! mesh's local frame, metres; every query takes the mesh's pose and returns world-space
//! results with the crate's conventions ([`crate::contact`], [`crate::ray`],
//! [`crate::sweep`]): contact normals from the mesh toward the other shape, depth positive
//! when penetrating. Triangles are two-sided. The queries compute with both poses moved so
//! that the mesh's position is the origin, so a mesh far from the origin is collided as
//! exactly as at it.
//!
//! ```
//! use tumble_narrowphase::math::{Isometry, Point, Vector};
//! use tumble_narrowphase::mesh::{MeshContact, TriMesh};
//! use tumble_narrowphase::shape::Ball;
//!
//! // Two triangles making the unit square in the plane y = 0.
//! let v = [
//!     Point::new(0.0, 0.0, 0.0),
//!     Point::new(0.0, 0.0, 1.0),
//!     Point::new(1.0, 0.0, 0.0),
//!     Point::new(1.0, 0.0, 1.0),
//! ];
//! let mesh = TriMesh::new(&v, &[[0, 1, 2], [1, 3, 2]]).unwrap();
//! let ball = Ball::new(0.25).unwrap();
//! let mut out: Vec<MeshContact> = Vec::new();
//! let at = Isometry::translation(0.5, 0.2, 0.5); // on the diagonal, 5 cm deep
//! mesh.contacts(&Isometry::identity(), &at, &ball, 0.0, &mut out).unwrap();
//! assert_eq!(out.len(), 2); // both triangles, both pushing straight up
//! for c in &out {
//!     assert!((c.manifold.normal - Vector::y()).norm() < 1e-6);
//!     assert!((c.manifold.depth() - 0.05).abs() < 1e-6);
//! }
//! ```

pub(crate) mod bvh;
pub mod distance;
mod heightfield;
pub mod internal_edges;
mod query;
pub mod reduce;
mod serde_impl;
mod trimesh;

pub use heightfield::HeightField;
pub(crate) use query::{contact_box, local_box, pose_ok, world_aabb};
pub use query::{MeshContact, MeshRayHit, MeshToi};
pub use reduce::{mesh_feature_id, reduce, reduce_parts, PartManifold};
pub(crate) use trimesh::box_pad;
pub use trimesh::{TriMesh, MAX_TRIANGLES};
