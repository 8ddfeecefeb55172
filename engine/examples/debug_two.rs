//! Two balls colliding (a development aid).
use tumble::math::Vector;
use tumble::narrowphase::shape::Ball;
use tumble::{BodyBuilder, World, WorldConfig};

fn main() {
    let mut w = World::new(WorldConfig { gravity: Vector::zeros(), ..WorldConfig::default() }).unwrap();
    let a = w.insert(BodyBuilder::dynamic(Ball::new(0.5).unwrap()).translation(Vector::new(-2.0, 0.0, 0.0)).linvel(Vector::new(6.0, 0.0, 0.0))).unwrap();
    let b = w.insert(BodyBuilder::dynamic(Ball::new(0.5).unwrap()).translation(Vector::new(2.0, 0.0, 0.0)).linvel(Vector::new(-3.0, 0.0, 0.0))).unwrap();
    for s in 0..40 {
        w.step();
        println!("{s}: xa {:.3} xb {:.3} va {:.3} vb {:.3} pairs {} contacts {} touching {}", w.body(a).unwrap().translation().x, w.body(b).unwrap().translation().x, w.body(a).unwrap().linvel().x, w.body(b).unwrap().linvel().x, w.pair_count(), w.contact_count(), w.touching_pair_count());
    }
}
