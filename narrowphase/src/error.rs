//! Typed errors of the narrow phase. Every constructor validates its input and says what is wrong.

use crate::math::Real;
use std::fmt;

/// Why a shape (or other geometric input) was refused at construction.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeError {
    /// A coordinate, size or angle was NaN or infinite. Names the field.
    NonFinite(&'static str),
    /// A size, radius or half-extent was zero or negative. Names the field and its value.
    NonPositive(&'static str, Real),
    /// An AABB whose minimum corner exceeds its maximum corner on some axis.
    Inverted,
    /// Box axes that are not unit length or not mutually perpendicular (tolerance given).
    NotOrthonormal(Real),
    /// Fewer points than the shape needs (got, needed).
    TooFewPoints(usize, usize),
    /// Points that are all on a line (or all on a plane for a 3D hull), or repeated.
    Degenerate(&'static str),
    /// A polygon given where a convex one is required is not convex.
    NotConvex,
    /// A convex hull with more vertices than a collision hull may have (the limit is given:
    /// [`MAX_HULL_VERTICES`](crate::shape::MAX_HULL_VERTICES)).
    TooManyVertices(usize),
    /// A polygon whose edges cross each other.
    SelfIntersecting,
    /// A compound ([`crate::shape::Compound`]) given no child, or more than `max`
    /// ([`crate::shape::MAX_COMPOUND_CHILDREN`]); split a larger one into several bodies.
    CompoundSize {
        /// Children given.
        count: usize,
        /// The largest count allowed.
        max: usize,
    },
    /// Child `index` (its position in the list given) of a compound was refused: `reason`
    /// says why (a triangle mesh, a heightfield or a compound, which are not convex children;
    /// a pose that is not finite or not a unit rotation; a size that is not positive; a box
    /// that is not finite).
    CompoundChild {
        /// The child's position in the list given.
        index: usize,
        /// Why it was refused.
        reason: &'static str,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::NonFinite(what) => write!(f, "{what} is not finite (NaN or infinite)"),
            ShapeError::NonPositive(what, v) => {
                write!(f, "{what} must be positive, got {v}")
            }
            ShapeError::Inverted => write!(f, "AABB minimum corner exceeds its maximum corner"),
            ShapeError::NotOrthonormal(tol) => write!(
                f,
                "box axes must be unit length and mutually perpendicular (tolerance {tol})"
            ),
            ShapeError::TooFewPoints(got, need) => {
                write!(f, "need at least {need} points, got {got}")
            }
            ShapeError::Degenerate(why) => write!(f, "degenerate input: {why}"),
            ShapeError::NotConvex => write!(f, "polygon is not convex (use a concave split)"),
            ShapeError::SelfIntersecting => write!(f, "polygon edges cross each other"),
            ShapeError::TooManyVertices(max) => write!(
                f,
                "the hull has more than {max} vertices, the most a collision hull may have \
                 (simplify the point cloud, or split the shape into a compound)"
            ),
            ShapeError::CompoundSize { count, max } => write!(
                f,
                "a compound needs 1 to {max} children, got {count} (split a larger one into \
                 several bodies)"
            ),
            ShapeError::CompoundChild { index, reason } => {
                write!(f, "compound child {index} refused: {reason}")
            }
        }
    }
}

impl std::error::Error for ShapeError {}

/// Makes a type with a checking constructor deserialise only through that constructor:
/// `serde_via_new! { Ray, RayParts { origin: Point, dir: Vector } }` defines the private plain
/// struct `RayParts` of those fields (named in the constructor's argument order) and the
/// conversions `Ray → RayParts` (the fields) and `RayParts → Ray` (`Ray::new(origin, dir)`,
/// so bad input is a [`ShapeError`]). The type itself carries
/// `#[serde(try_from = "RayParts", into = "RayParts")]`.
macro_rules! serde_via_new {
    ($ty:ident, $parts:ident { $($field:ident: $fty:ty),+ $(,)? }) => {
        #[doc = concat!("The serialised form of a [`", stringify!($ty), "`].")]
        #[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
        struct $parts {
            $($field: $fty,)+
        }

        impl TryFrom<$parts> for $ty {
            type Error = $crate::error::ShapeError;
            fn try_from(p: $parts) -> Result<Self, Self::Error> {
                $ty::new($(p.$field),+)
            }
        }

        impl From<$ty> for $parts {
            fn from(v: $ty) -> Self {
                $parts {
                    $($field: v.$field),+
                }
            }
        }
    };
}
pub(crate) use serde_via_new;

/// Why a triangle mesh ([`crate::mesh::TriMesh`]) or a heightfield ([`crate::mesh::HeightField`])
/// was refused at construction. Indices are 0-based positions in the caller's slices.
#[derive(Clone, Debug, PartialEq)]
pub enum MeshError {
    /// No vertex, no triangle, or no height sample was given.
    Empty,
    /// Triangle `triangle` names vertex `index`, but there are only `vertex_count` vertices.
    IndexOutOfRange {
        /// The triangle's position in the index slice.
        triangle: usize,
        /// The offending vertex index.
        index: u32,
        /// How many vertices the mesh has.
        vertex_count: usize,
    },
    /// Vertex `vertex` has a NaN or infinite coordinate.
    NonFiniteVertex(usize),
    /// Triangle `triangle` has (nearly) zero area: repeated or collinear corners, by the test of
    /// [`crate::shape::Triangle::new`] (relative tolerance
    /// [`crate::shape::DEGENERATE_TOLERANCE`]). For a heightfield, the triangle index of
    /// [`crate::mesh::HeightField::triangle_index`].
    DegenerateTriangle(usize),
    /// More triangles than triangle ids can name: `count` given, at most `max`
    /// ([`crate::mesh::MAX_TRIANGLES`]).
    TooManyTriangles {
        /// Triangles asked for.
        count: usize,
        /// The largest count allowed.
        max: usize,
    },
    /// A heightfield needs at least 2 rows and 2 columns of samples.
    TooFewSamples {
        /// Rows given (along z).
        rows: usize,
        /// Columns given (along x).
        cols: usize,
    },
    /// The heightfield's sample slice does not hold `rows × cols` heights.
    SampleCountMismatch {
        /// `rows × cols`.
        expected: usize,
        /// The slice's length.
        got: usize,
    },
    /// Height sample `sample` (row-major index) is NaN or infinite, or becomes infinite once
    /// multiplied by the vertical scale.
    NonFiniteHeight(usize),
    /// The heightfield's scale has a NaN or infinite component.
    NonFiniteScale,
    /// The heightfield's scale has a zero or negative component (given).
    NonPositiveScale(Real),
}

impl fmt::Display for MeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeshError::Empty => write!(f, "mesh or heightfield has no vertex, triangle or sample"),
            MeshError::IndexOutOfRange {
                triangle,
                index,
                vertex_count,
            } => write!(
                f,
                "triangle {triangle} names vertex {index}, but there are {vertex_count} vertices"
            ),
            MeshError::NonFiniteVertex(v) => write!(f, "vertex {v} is not finite"),
            MeshError::DegenerateTriangle(t) => {
                write!(f, "triangle {t} is degenerate (zero area)")
            }
            MeshError::TooManyTriangles { count, max } => {
                write!(f, "{count} triangles given, at most {max} allowed")
            }
            MeshError::TooFewSamples { rows, cols } => write!(
                f,
                "heightfield needs at least 2 × 2 samples, got {rows} rows × {cols} columns"
            ),
            MeshError::SampleCountMismatch { expected, got } => {
                write!(f, "heightfield needs {expected} samples, got {got}")
            }
            MeshError::NonFiniteHeight(i) => write!(f, "height sample {i} is not finite"),
            MeshError::NonFiniteScale => write!(f, "heightfield scale is not finite"),
            MeshError::NonPositiveScale(v) => {
                write!(f, "heightfield scale must be positive, got {v}")
            }
        }
    }
}

impl std::error::Error for MeshError {}
