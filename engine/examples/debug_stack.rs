//! Prints the drift of a 5-box stack (a development aid).
use tumble::math::{Real, Vector};
use tumble::narrowphase::shape::Cuboid;
use tumble::{BodyBuilder, World, WorldConfig};

fn main() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    w.insert(
        BodyBuilder::fixed(Cuboid::new(Vector::new(20.0, 0.5, 20.0)).unwrap())
            .translation(Vector::new(0.0, -0.5, 0.0))
            .friction(0.6),
    )
    .unwrap();
    let hs: Vec<_> = (0..5)
        .map(|i| {
            w.insert(
                BodyBuilder::dynamic(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).unwrap())
                    .translation(Vector::new(0.0, 0.5 + i as Real, 0.0))
                    .friction(0.6),
            )
            .unwrap()
        })
        .collect();
    for s in 0..600 {
        w.step();
        if s % 60 == 0 || s == 599 {
            let line: Vec<String> = hs
                .iter()
                .map(|h| {
                    let b = w.body(*h).unwrap();
                    let t = b.translation();
                    format!("({:.4},{:.4},{:.4})", t.x, t.y, t.z)
                })
                .collect();
            println!("{s}: {} contacts {}", line.join(" "), w.contact_count());
        }
    }
}

#[allow(dead_code)]
fn dump(w: &World) {
    for c in w.contacts() {
        println!(
            "{:?}-{:?} n={:?}",
            c.a.index(),
            c.b.index(),
            c.manifold.normal
        );
        for p in c.manifold.points() {
            println!(
                "   p=({:.4},{:.4},{:.4}) d={:.5} id={}",
                p.point.x, p.point.y, p.point.z, p.depth, p.id
            );
        }
    }
}
