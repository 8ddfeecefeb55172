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
    /// A polygon whose edges cross each other.
    SelfIntersecting,
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
