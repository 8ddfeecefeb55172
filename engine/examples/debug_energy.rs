//! Energy in an elastic box (a development aid).
use tumble::math::{Real, Vector};
use tumble::narrowphase::shape::{Ball, Cuboid};
use tumble::{BodyBuilder, World, WorldConfig};

fn main() {
    let mut w = World::new(WorldConfig { gravity: Vector::zeros(), restitution_threshold: 0.0, ..WorldConfig::default() }).unwrap();
    let a = 3.0;
    for axis in 0..3 {
        for sign in [-1.0, 1.0] {
            let mut he = Vector::repeat(a + 1.0);
            he[axis] = 0.5;
            let mut c = Vector::zeros();
            c[axis] = sign * (a + 0.5);
            w.insert(BodyBuilder::fixed(Cuboid::new(he).unwrap()).translation(c).restitution(1.0).friction(0.0)).unwrap();
        }
    }
    let mut hs = Vec::new();
    let corners = [(-1.5, -1.5, -1.5), (1.5, 1.5, -1.5), (1.5, -1.5, 1.5), (-1.5, 1.5, 1.5)];
    for (i, (x, y, z)) in corners.into_iter().enumerate() {
        let v = Vector::new(3.0 - i as Real, 2.0 + 0.5 * i as Real, -1.5 + 0.7 * i as Real);
        hs.push(w.insert(BodyBuilder::dynamic(Ball::new(0.3).unwrap()).translation(Vector::new(x, y, z)).linvel(v).restitution(1.0).friction(0.0)).unwrap());
    }
    let energy = |w: &World| -> Real { hs.iter().map(|h| w.body(*h).unwrap().kinetic_energy()).sum() };
    let mut e = energy(&w);
    for s in 0..10000 {
        w.step();
        let e1 = energy(&w);
        if (e1 - e).abs() > 1e-4 * e {
            print!("{s}: {e} -> {e1}:");
            for c in w.contacts() { if c.touching { print!(" ({},{}) n={:.2?} d={:?}", c.a.index(), c.b.index(), c.manifold.normal.as_slice(), c.manifold.points().iter().map(|p| p.depth).collect::<Vec<_>>()); } }
            println!();
        }
        e = e1;
    }
}
