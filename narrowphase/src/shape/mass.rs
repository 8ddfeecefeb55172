//! Mass properties of solid shapes of uniform density: mass, centre of mass and inertia tensor.
//!
//! Closed forms for the ball, the box and the capsule (a cylinder plus two hemispheres, each
//! hemisphere's inertia moved to the capsule's centre by the parallel-axis theorem). A convex
//! polyhedron is split into tetrahedra from its centroid to each face's triangle fan; each
//! tetrahedron's covariance is `det(A) · A C₀ Aᵀ` with `C₀` the covariance of the canonical
//! tetrahedron (Blow and Binstock, "How to find the inertia tensor (or other mass properties)
//! of a 3D solid body represented by a triangle mesh", 2004), and the inertia is
//! `I = tr(C) 1 − C`. A triangle has no volume and a mesh or heightfield encloses none: their
//! mass is zero.
//!
//! A compound sums its children (each treated as its own solid of the same density, so
//! overlapping children count their shared volume twice): mass `M = Σ mᵢ`, centre of mass
//! `c = Σ mᵢ cᵢ / M` with `cᵢ` child `i`'s centre of mass placed by its pose, and inertia about
//! `c` by the parallel-axis theorem, `I = Σ Rᵢ Iᵢ Rᵢᵀ + mᵢ (|dᵢ|² 1 − dᵢ dᵢᵀ)`, `Rᵢ` the
//! child's rotation and `dᵢ = cᵢ − c` (summed in `f64`, then rounded).

use super::{Compound, ConvexPolyhedron, Shape};
use crate::math::{Matrix, Point, Real, Vector};

/// Mass properties of a shape in its local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    /// Mass in kilograms (density × volume); 0 for a shape without volume.
    pub mass: Real,
    /// Centre of mass, local frame, metres.
    pub local_center: Point,
    /// Inertia tensor about `local_center`, local axes, kg·m².
    pub inertia: Matrix,
}

impl Shape {
    /// Mass properties for a uniform `density` (kg/m³). A triangle, a triangle mesh and a
    /// heightfield give mass 0 (no enclosed volume): they can only be the shape of a static or
    /// kinematic body. A compound gives the sum of its children (see the module docs); its
    /// centre of mass is generally not its origin.
    pub fn mass_properties(&self, density: Real) -> MassProperties {
        let at_origin = |mass: Real, inertia: Matrix| MassProperties {
            mass,
            local_center: Point::origin(),
            inertia,
        };
        match self {
            Shape::Ball(b) => {
                let r = b.radius();
                let m = density * (4.0 / 3.0) * std::f32::consts::PI * r * r * r;
                at_origin(m, Matrix::from_diagonal_element(0.4 * m * r * r))
            }
            Shape::Cuboid(c) => {
                let he = c.half_extents();
                let m = density * 8.0 * he.x * he.y * he.z;
                let (x2, y2, z2) = (he.x * he.x, he.y * he.y, he.z * he.z);
                let d = Vector::new(y2 + z2, x2 + z2, x2 + y2) * (m / 3.0);
                at_origin(m, Matrix::from_diagonal(&d))
            }
            Shape::Capsule(c) => {
                let (r, h) = (c.radius(), c.half_height());
                let pi = std::f32::consts::PI;
                // Cylinder of height 2h along y, and two hemispheres (together one ball).
                let mc = density * pi * r * r * 2.0 * h;
                let ms = density * (4.0 / 3.0) * pi * r * r * r;
                let iy = mc * r * r / 2.0 + ms * 0.4 * r * r;
                // Each hemisphere's centroid sits 3r/8 beyond the segment's end.
                let hemi_about_centre = ms * (0.4 * r * r + h * h + 0.75 * h * r);
                let ix = mc * (3.0 * r * r + 4.0 * h * h) / 12.0 + hemi_about_centre;
                at_origin(mc + ms, Matrix::from_diagonal(&Vector::new(ix, iy, ix)))
            }
            // No volume (a triangle) or not closed (a mesh): massless, for static and
            // kinematic bodies only.
            Shape::Triangle(_) | Shape::TriMesh(_) | Shape::HeightField(_) => {
                at_origin(0.0, Matrix::zeros())
            }
            Shape::Convex(p) => polyhedron_mass(p, density),
            Shape::Compound(c) => compound_mass(c, density),
        }
    }
}

/// The mass properties of a compound: its children's summed (see the module docs). Children
/// without mass (triangles, flat polyhedra) add nothing; a compound of only such children has
/// mass 0, its centre of mass at the centre of its box.
fn compound_mass(c: &Compound, density: Real) -> MassProperties {
    type V64 = nalgebra::Vector3<f64>;
    type M64 = nalgebra::Matrix3<f64>;
    let parts: Vec<(f64, V64, M64)> = c
        .children()
        .iter()
        .map(|(pose, s)| {
            let p = s.mass_properties(density);
            let r = pose
                .rotation
                .to_rotation_matrix()
                .into_inner()
                .cast::<f64>();
            let com = (pose * p.local_center).coords.cast::<f64>();
            (
                p.mass as f64,
                com,
                r * p.inertia.cast::<f64>() * r.transpose(),
            )
        })
        .collect();
    let mass: f64 = parts.iter().map(|p| p.0).sum();
    if mass.is_nan() || mass <= 0.0 {
        return MassProperties {
            mass: 0.0,
            local_center: c.local_aabb().center(),
            inertia: Matrix::zeros(),
        };
    }
    let com = parts.iter().fold(V64::zeros(), |a, p| a + p.1 * p.0) / mass;
    let inertia = parts.iter().fold(M64::zeros(), |acc, (m, ci, ii)| {
        let d = ci - com;
        acc + ii + (M64::identity() * d.norm_squared() - d * d.transpose()) * *m
    });
    MassProperties {
        mass: mass as Real,
        local_center: Point::from(com.cast::<Real>()),
        inertia: inertia.cast::<Real>(),
    }
}

fn polyhedron_mass(p: &ConvexPolyhedron, density: Real) -> MassProperties {
    // Work about the vertex centroid (inside a convex solid) to keep the numbers small.
    let o = p.centroid();
    let canonical = Matrix::new(2.0, 1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 2.0) / 120.0;
    let mut volume = 0.0;
    let mut first_moment = Vector::zeros();
    let mut covariance = Matrix::zeros();
    for face in p.faces() {
        let lp = p.face_loop(face);
        let v0 = p.vertices()[lp[0] as usize] - o;
        for w in lp[1..].windows(2) {
            let v1 = p.vertices()[w[0] as usize] - o;
            let v2 = p.vertices()[w[1] as usize] - o;
            let a = Matrix::from_columns(&[v0, v1, v2]);
            let det = a.determinant();
            volume += det / 6.0;
            first_moment += (v0 + v1 + v2) * (det / 24.0);
            covariance += a * canonical * a.transpose() * det;
        }
    }
    if volume <= 0.0 {
        // A flat polyhedron (a triangle turned into one) has no volume.
        return MassProperties {
            mass: 0.0,
            local_center: o,
            inertia: Matrix::zeros(),
        };
    }
    let com = first_moment / volume;
    // Covariance about the centre of mass: C − V c cᵀ.
    let c_com = covariance - com * com.transpose() * volume;
    let inertia = (Matrix::identity() * c_com.trace() - c_com) * density;
    MassProperties {
        mass: density * volume,
        local_center: o + com,
        inertia,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Isometry, Rotation};
    use crate::shape::{Ball, Capsule, Cuboid};

    fn close(a: &Matrix, b: &Matrix, rel: Real) -> bool {
        (a - b).abs().max() <= rel * b.abs().max()
    }

    #[test]
    fn box_as_polyhedron_matches_the_closed_form() {
        let c = Cuboid::new(Vector::new(0.5, 1.0, 2.0)).unwrap();
        let closed = Shape::from(c).mass_properties(3.0);
        let hull = Shape::from(ConvexPolyhedron::from_cuboid(&c)).mass_properties(3.0);
        assert!((closed.mass - hull.mass).abs() < 1e-4 * closed.mass);
        assert!(hull.local_center.coords.norm() < 1e-5);
        assert!(close(&hull.inertia, &closed.inertia, 1e-4));
    }

    #[test]
    fn offset_hull_has_its_centre_of_mass_where_the_solid_is() {
        // A unit cube with one corner at the origin: centre of mass (0.5, 0.5, 0.5).
        let mut pts = Vec::new();
        for i in 0..8 {
            pts.push(Point::new(
                (i & 1) as Real,
                ((i >> 1) & 1) as Real,
                (i >> 2) as Real,
            ));
        }
        let mp = Shape::from(ConvexPolyhedron::from_points(&pts).unwrap()).mass_properties(1.0);
        assert!((mp.mass - 1.0).abs() < 1e-5);
        assert!((mp.local_center - Point::new(0.5, 0.5, 0.5)).norm() < 1e-5);
        assert!((mp.inertia[(0, 0)] - 1.0 / 6.0).abs() < 1e-5);
    }

    /// The capsule's closed form against a midpoint-rule integration over a fine grid.
    #[test]
    fn capsule_matches_numerical_integration() {
        let (h, r): (Real, Real) = (0.7, 0.4);
        let cap = Capsule::new(h, r).unwrap();
        let mp = Shape::from(cap).mass_properties(1.0);
        let n = 120;
        let (h64, r64) = (h as f64, r as f64);
        let (ex, ey) = (r64, h64 + r64);
        let (dx, dy) = (2.0 * ex / n as f64, 2.0 * ey / n as f64);
        let (mut m, mut ixx, mut iyy) = (0.0f64, 0.0f64, 0.0f64);
        for i in 0..n {
            for j in 0..n {
                for k in 0..n {
                    let x = -ex + (i as f64 + 0.5) * dx;
                    let y = -ey + (j as f64 + 0.5) * dy;
                    let z = -ex + (k as f64 + 0.5) * dx;
                    let yc = y.clamp(-h64, h64);
                    if x * x + (y - yc) * (y - yc) + z * z <= r64 * r64 {
                        let dv = dx * dy * dx;
                        m += dv;
                        ixx += dv * (y * y + z * z);
                        iyy += dv * (x * x + z * z);
                    }
                }
            }
        }
        assert!((mp.mass as f64 - m).abs() < 5e-3 * m, "{} vs {m}", mp.mass);
        assert!((mp.inertia[(0, 0)] as f64 - ixx).abs() < 1e-2 * ixx);
        assert!((mp.inertia[(1, 1)] as f64 - iyy).abs() < 1e-2 * iyy);
    }

    /// Two unit cubes side by side are one 2 × 1 × 1 box: same mass, centre and inertia.
    #[test]
    fn two_cubes_make_one_box() {
        let cube = Shape::from(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).unwrap());
        let pair = Shape::compound([
            (Isometry::translation(-0.5, 0.0, 0.0), cube.clone()),
            (Isometry::translation(0.5, 0.0, 0.0), cube),
        ])
        .unwrap();
        let whole = Shape::from(Cuboid::new(Vector::new(1.0, 0.5, 0.5)).unwrap());
        let (a, b) = (pair.mass_properties(2.5), whole.mass_properties(2.5));
        assert!((a.mass - b.mass).abs() < 1e-6 * b.mass);
        assert!(a.local_center.coords.norm() < 1e-6);
        assert!(
            close(&a.inertia, &b.inertia, 1e-6),
            "{} vs {}",
            a.inertia,
            b.inertia
        );
    }

    /// One child under a pose: the child's mass, its centre placed by the pose, its inertia
    /// rotated (`R I Rᵀ`) and about its own centre (no parallel-axis term).
    #[test]
    fn one_offset_child_is_the_child_moved() {
        let hull = ConvexPolyhedron::from_points(&[
            Point::new(0.0, 0.0, 0.0),
            Point::new(1.0, 0.0, 0.0),
            Point::new(0.0, 2.0, 0.0),
            Point::new(0.0, 0.0, 0.5),
            Point::new(0.7, 0.7, 0.7),
        ])
        .unwrap();
        let child = Shape::from(hull);
        let rot = Rotation::from_euler_angles(0.4, -1.2, 2.0);
        let pose = Isometry::from_parts(Vector::new(3.0, -1.0, 0.5).into(), rot);
        let one = Shape::compound([(pose, child.clone())]).unwrap();
        let (c, s) = (one.mass_properties(1.7), child.mass_properties(1.7));
        assert!((c.mass - s.mass).abs() < 1e-6 * s.mass);
        assert!((c.local_center - pose * s.local_center).norm() < 1e-5);
        let r = rot.to_rotation_matrix().into_inner();
        assert!(close(&c.inertia, &(r * s.inertia * r.transpose()), 1e-5));
    }

    /// A dumbbell (two balls on a bar): the parallel-axis theorem by hand.
    #[test]
    fn dumbbell_by_the_parallel_axis_theorem() {
        let ball = Shape::from(Ball::new(0.5).unwrap());
        let bar = Shape::from(Cuboid::new(Vector::new(1.0, 0.1, 0.1)).unwrap());
        let dumbbell = Shape::compound([
            (Isometry::translation(-1.5, 0.0, 0.0), ball.clone()),
            (Isometry::identity(), bar.clone()),
            (Isometry::translation(1.5, 0.0, 0.0), ball.clone()),
        ])
        .unwrap();
        let (mb, bb) = (ball.mass_properties(1.0), bar.mass_properties(1.0));
        let d = dumbbell.mass_properties(1.0);
        assert!((d.mass - (2.0 * mb.mass + bb.mass)).abs() < 1e-5);
        assert!(d.local_center.coords.norm() < 1e-6);
        let ixx = 2.0 * mb.inertia[(0, 0)] + bb.inertia[(0, 0)];
        let iyy = 2.0 * (mb.inertia[(1, 1)] + mb.mass * 1.5 * 1.5) + bb.inertia[(1, 1)];
        assert!((d.inertia[(0, 0)] - ixx).abs() < 1e-5 * ixx);
        assert!((d.inertia[(1, 1)] - iyy).abs() < 1e-5 * iyy);
        assert!((d.inertia[(2, 2)] - iyy).abs() < 1e-5 * iyy);
        // An L of two boxes: the centre of mass off the origin, toward the heavier arm.
        let l = Shape::compound([
            (
                Isometry::translation(1.0, 0.0, 0.0),
                Shape::from(Cuboid::new(Vector::new(1.0, 0.25, 0.25)).unwrap()),
            ),
            (
                Isometry::translation(0.0, 0.75, 0.0),
                Shape::from(Cuboid::new(Vector::new(0.25, 0.5, 0.25)).unwrap()),
            ),
        ])
        .unwrap()
        .mass_properties(1.0);
        // Masses 0.5 and 0.25 (volumes 2·0.5·0.5 and 0.5·1·0.5).
        assert!((l.mass - 0.75).abs() < 1e-6);
        let expected = Vector::new(0.5 * 1.0 + 0.25 * 0.0, 0.25 * 0.75, 0.0) / 0.75;
        assert!((l.local_center.coords - expected).norm() < 1e-6);
    }
}
