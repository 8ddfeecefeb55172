//! Serde and equality for the meshes: a [`TriMesh`] is written as its vertices and triangles,
//! a [`HeightField`] as its sample counts, heights and scale. Reading one back runs the
//! validating constructor ([`TriMesh::new`], [`HeightField::new`]), so a corrupt input is a
//! decoding error (the [`MeshError`](crate::error::MeshError) as its message), never a broken
//! mesh; the hierarchy and edge tables are rebuilt from the same data by the same
//! deterministic build, so the mesh read back answers every query bit for bit as the one
//! written.

use super::{HeightField, TriMesh};
#[cfg(feature = "serde")]
use crate::math::{Point, Real, Vector};
#[cfg(feature = "serde")]
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

#[cfg(feature = "serde")]
#[derive(Serialize)]
struct TriMeshOut<'a> {
    vertices: &'a [Point],
    indices: &'a [[u32; 3]],
}

#[cfg(feature = "serde")]
#[derive(Deserialize)]
struct TriMeshIn {
    vertices: Vec<Point>,
    indices: Vec<[u32; 3]>,
}

#[cfg(feature = "serde")]
impl Serialize for TriMesh {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        TriMeshOut {
            vertices: self.vertices(),
            indices: self.indices(),
        }
        .serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for TriMesh {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = TriMeshIn::deserialize(d)?;
        TriMesh::new(&r.vertices, &r.indices).map_err(de::Error::custom)
    }
}

/// Two meshes are equal when their vertices and triangles are (the rest is built from them).
impl PartialEq for TriMesh {
    fn eq(&self, other: &Self) -> bool {
        self.vertices() == other.vertices() && self.indices() == other.indices()
    }
}

#[cfg(feature = "serde")]
#[derive(Serialize)]
struct HeightFieldOut<'a> {
    rows: usize,
    cols: usize,
    heights: &'a [Real],
    scale: Vector,
}

#[cfg(feature = "serde")]
#[derive(Deserialize)]
struct HeightFieldIn {
    rows: usize,
    cols: usize,
    heights: Vec<Real>,
    scale: Vector,
}

#[cfg(feature = "serde")]
impl Serialize for HeightField {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        HeightFieldOut {
            rows: self.rows(),
            cols: self.cols(),
            heights: self.heights(),
            scale: self.scale(),
        }
        .serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for HeightField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = HeightFieldIn::deserialize(d)?;
        HeightField::new(r.rows, r.cols, &r.heights, r.scale).map_err(de::Error::custom)
    }
}

/// Two heightfields are equal when their sample counts, heights and scale are.
impl PartialEq for HeightField {
    fn eq(&self, other: &Self) -> bool {
        self.rows() == other.rows()
            && self.cols() == other.cols()
            && self.heights() == other.heights()
            && self.scale() == other.scale()
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    /// Both meshes survive a round trip through JSON equal, and corrupt data is refused.
    #[test]
    fn round_trip_and_refusal() {
        let v = [
            Point::new(0.0, 0.0, 0.0),
            Point::new(0.0, 0.0, 1.0),
            Point::new(1.0, 0.0, 0.0),
            Point::new(1.0, 0.0, 1.0),
        ];
        let mesh = TriMesh::new(&v, &[[0, 1, 2], [1, 3, 2]]).unwrap();
        let back: TriMesh = serde_json::from_str(&serde_json::to_string(&mesh).unwrap()).unwrap();
        assert_eq!(back, mesh);
        let bad = r#"{"vertices":[[0,0,0],[1,0,0],[0,0,1]],"indices":[[0,1,7]]}"#;
        assert!(serde_json::from_str::<TriMesh>(bad).is_err());

        let hf = HeightField::new(
            2,
            3,
            &[0.0, 1.0, 0.5, 0.2, 0.1, 0.0],
            Vector::new(2.0, 1.0, 1.0),
        )
        .unwrap();
        let back: HeightField = serde_json::from_str(&serde_json::to_string(&hf).unwrap()).unwrap();
        assert_eq!(back, hf);
        let bad = r#"{"rows":2,"cols":2,"heights":[0,0,0],"scale":[1,1,1]}"#;
        assert!(serde_json::from_str::<HeightField>(bad).is_err());
    }
}
