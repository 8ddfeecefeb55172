//! The GJK simplex: up to four points of the Minkowski difference with the support points of
//! A and B that made them, reduced to the smallest sub-simplex holding the point closest to
//! the origin: a segment by projection (Ericson, RTCD §5.1.2), a triangle by signed areas
//! (Montanari et al. 2017), a tetrahedron by its faces (RTCD §5.1.6).

use crate::math::Point;

/// The simplex's scalar: `f64`. Its vertices are differences of `f32` support points, exact
/// in `f64`; solving in `f64` keeps the closest point's direction accurate when the distance
/// is many orders of magnitude below the simplex's size (slivers, nearly touching shapes),
/// where `f32` rounding of `u |w|` would turn the next search direction off the normal and
/// stop the iteration early on a vertex already in the simplex.
pub(super) type Real = f64;
/// A point of the Minkowski difference, in [`Real`].
pub(super) type Vector = nalgebra::Vector3<Real>;

#[derive(Clone, Copy)]
struct Vertex {
    w: Vector,
    a: Point,
    b: Point,
}

/// 1 to 4 vertices and, after [`Simplex::reduce_closest`], the barycentric weights of the
/// closest point.
#[derive(Clone, Copy)]
pub(super) struct Simplex {
    v: [Vertex; 4],
    weights: [Real; 4],
    len: usize,
}

impl Simplex {
    pub(super) fn new(w: Vector, a: Point, b: Point) -> Self {
        let vx = Vertex { w, a, b };
        Self {
            v: [vx; 4],
            weights: [1.0, 0.0, 0.0, 0.0],
            len: 1,
        }
    }

    pub(super) fn push(&mut self, w: Vector, a: Point, b: Point) {
        if self.len < 4 {
            self.v[self.len] = Vertex { w, a, b };
            self.len += 1;
        }
    }

    /// True when the simplex is a tetrahedron holding the origin.
    pub(super) fn is_full(&self) -> bool {
        self.len == 4
    }

    /// True when `w` is (nearly) one of the vertices already.
    pub(super) fn contains(&self, w: &Vector) -> bool {
        let eps = f32::EPSILON as Real;
        self.v[..self.len]
            .iter()
            .any(|x| (x.w - w).norm_squared() <= eps * eps * w.norm_squared())
    }

    /// Largest squared norm of a vertex (for relative tolerances).
    pub(super) fn max_norm_squared(&self) -> Real {
        self.v[..self.len]
            .iter()
            .map(|x| x.w.norm_squared())
            .fold(0.0, Real::max)
    }

    /// The closest points of A and B (A's frame), from the weights.
    pub(super) fn witnesses(&self) -> (Point, Point) {
        let mut a = Vector::zeros();
        let mut b = Vector::zeros();
        for k in 0..self.len {
            a += self.v[k].a.coords.cast::<Real>() * self.weights[k];
            b += self.v[k].b.coords.cast::<Real>() * self.weights[k];
        }
        (a.cast::<f32>().into(), b.cast::<f32>().into())
    }

    /// Keeps the vertices of the sub-simplex closest to the origin, sets the weights, and
    /// returns the closest point. A tetrahedron holding the origin is kept whole.
    pub(super) fn reduce_closest(&mut self) -> Vector {
        match self.len {
            1 => {
                self.weights[0] = 1.0;
                self.v[0].w
            }
            2 => self.segment(0, 1),
            3 => self.triangle(0, 1, 2),
            _ => self.tetrahedron(),
        }
    }

    fn keep(&mut self, idx: &[usize], w: &[Real]) -> Vector {
        let old = self.v;
        let mut p = Vector::zeros();
        for (k, (&i, &wi)) in idx.iter().zip(w).enumerate() {
            self.v[k] = old[i];
            self.weights[k] = wi;
            p += old[i].w * wi;
        }
        self.len = idx.len();
        p
    }

    fn segment(&mut self, i: usize, j: usize) -> Vector {
        let (a, b) = (self.v[i].w, self.v[j].w);
        let ab = b - a;
        let t = -a.dot(&ab);
        if t <= 0.0 {
            return self.keep(&[i], &[1.0]);
        }
        let l = ab.norm_squared();
        if t >= l {
            return self.keep(&[j], &[1.0]);
        }
        let t = t / l;
        self.keep(&[i, j], &[1.0 - t, t])
    }

    /// The closest point of triangle `i j k` to the origin by signed areas (the S2D step of
    /// the signed-volumes subalgorithm, Montanari, Petrinic and Barbieri, "Improving the GJK
    /// algorithm for faster and more reliable distance queries between convex objects", ACM
    /// TOG 36(3), 2017, §3.2): the origin is projected onto the triangle's plane, and its
    /// barycentric coordinates are ratios of 2D areas in the coordinate plane where the
    /// triangle's projection is largest. Those areas are differences of products of
    /// coordinates, accurate to about `u |e|²` for edges `e`, where the Voronoi-region dot
    /// products of RTCD §5.1.5 cancel to `u |e|⁴ / area` on slivers. When the projection falls
    /// outside, the nearest of the edges it is outside of holds the answer.
    fn triangle(&mut self, i: usize, j: usize, k: usize) -> Vector {
        let (a, b, c) = (self.v[i].w, self.v[j].w, self.v[k].w);
        let n = (b - a).cross(&(c - a));
        let nn = n.norm_squared();
        if !(nn.is_finite() && nn > 0.0) {
            return self.best_edge(&[(i, j), (j, k), (k, i)]);
        }
        // Projection of the origin onto the plane, from the vertex nearest to it.
        let base = [a, b, c]
            .into_iter()
            .min_by(|x, y| x.norm_squared().total_cmp(&y.norm_squared()))
            .unwrap_or(a);
        let p = n * (base.dot(&n) / nn);
        // The coordinate plane of the largest projection.
        let axis = n.iamax();
        let (x, y) = ((axis + 1) % 3, (axis + 2) % 3);
        let area =
            |u: &Vector, v: &Vector| (u[x] - p[x]) * (v[y] - p[y]) - (u[y] - p[y]) * (v[x] - p[x]);
        let total = n[axis];
        let weights = [area(&b, &c), area(&c, &a), area(&a, &b)];
        let outside = weights.map(|w| (w * total).is_nan() || w * total <= 0.0);
        if !outside.iter().any(|&o| o) {
            let sum = weights[0] + weights[1] + weights[2];
            let l = weights.map(|w| w / sum);
            // The projection itself, not `Σ λ w`: its direction is the plane's normal to the
            // accuracy of the cross product, while the weighted sum carries an error of
            // `u |w|` that, next to a distance much smaller than the simplex, turns the next
            // search direction away from the normal and stalls the iteration.
            self.keep(&[i, j, k], &l);
            return p;
        }
        // Edges opposite the vertices whose area has the wrong sign.
        let edges = [(j, k), (k, i), (i, j)];
        let candidates: Vec<(usize, usize)> =
            (0..3).filter(|&e| outside[e]).map(|e| edges[e]).collect();
        self.best_edge(&candidates)
    }

    /// The nearest to the origin of the given edges' closest points (ties to the first).
    fn best_edge(&mut self, edges: &[(usize, usize)]) -> Vector {
        let mut best: Option<(Real, Simplex)> = None;
        for &(i, j) in edges {
            let mut tmp = *self;
            let p = tmp.segment(i, j);
            let d = p.norm_squared();
            if !matches!(best, Some((bd, _)) if d >= bd) {
                best = Some((d, tmp));
            }
        }
        match best {
            Some((_, s)) => {
                *self = s;
                self.closest()
            }
            None => self.segment(0, 1),
        }
    }

    /// The point of the kept sub-simplex given by its weights.
    fn closest(&self) -> Vector {
        let mut p = Vector::zeros();
        for k in 0..self.len {
            p += self.v[k].w * self.weights[k];
        }
        p
    }

    /// Ericson's ClosestPtPointTetrahedron (§5.1.6): the origin inside keeps all four.
    fn tetrahedron(&mut self) -> Vector {
        let w: [Vector; 4] = [self.v[0].w, self.v[1].w, self.v[2].w, self.v[3].w];
        // For each face, is the origin on the opposite side from the fourth vertex?
        let faces = [(0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2), (1, 3, 2, 0)];
        // A flat tetrahedron cannot hold the origin: then every face is a candidate.
        let e1 = w[1] - w[0];
        let e2 = w[2] - w[0];
        let e3 = w[3] - w[0];
        let volume = e1.cross(&e2).dot(&e3);
        let flat = volume.abs() <= 1e-6 * e1.norm() * e2.norm() * e3.norm();
        let mut best: Option<(Real, [usize; 3])> = None;
        let mut inside = !flat;
        for &(i, j, k, l) in &faces {
            let n = (w[j] - w[i]).cross(&(w[k] - w[i]));
            let so = -w[i].dot(&n);
            let sd = (w[l] - w[i]).dot(&n);
            if flat || so * sd < 0.0 {
                inside = false;
                let mut tmp = Simplex {
                    v: self.v,
                    weights: [0.0; 4],
                    len: 4,
                };
                let p = tmp.triangle(i, j, k);
                let d = p.norm_squared();
                if !matches!(best, Some((bd, _)) if d >= bd) {
                    best = Some((d, [i, j, k]));
                }
            }
        }
        if inside {
            // Barycentric weights of the origin (for the witnesses): signed volumes.
            let vol =
                |a: Vector, b: Vector, c: Vector, d: Vector| (b - a).cross(&(c - a)).dot(&(d - a));
            let total = vol(w[0], w[1], w[2], w[3]);
            let o = Vector::zeros();
            if total.abs() > 0.0 {
                self.weights = [
                    vol(o, w[1], w[2], w[3]) / total,
                    vol(w[0], o, w[2], w[3]) / total,
                    vol(w[0], w[1], o, w[3]) / total,
                    vol(w[0], w[1], w[2], o) / total,
                ];
            }
            return Vector::zeros();
        }
        let [i, j, k] = best.map(|b| b.1).unwrap_or([0, 1, 2]);
        self.triangle(i, j, k)
    }
}
