use tumble::WorldConfig;
use tumble_benches::scenes::{BuiltScene, SceneKind};
fn main() {
    let n: usize = std::env::args().nth(1).map_or(1000, |s| s.parse().unwrap());
    let mut s = BuiltScene::new(SceneKind::Settle, n, 42, WorldConfig { sleep: false, ..WorldConfig::default() }).unwrap();
    let mut start = std::collections::HashMap::new();
    for k in 0..600 {
        s.world.step();
        if k == 299 { for (h, b) in s.world.bodies() { start.insert(h, b.translation()); } }
        if k >= 300 && k % 20 == 0 {
            let mut vs: Vec<_> = s.world.bodies().filter(|(_, b)| b.kind() == tumble::BodyKind::Dynamic).map(|(h, b)| (b.linvel().norm(), h, b.translation(), b.linvel())).collect();
            vs.sort_by(|a, b| b.0.total_cmp(&a.0));
            let (v, h, t, lv) = vs[0];
            let moved = (t - start[&h]).norm();
            let big = s.world.bodies().filter(|(h, b)| (b.translation() - start[h]).norm() > 0.05).count();
            println!("step {k}: top {:?} v={v:.3} p=({:.2},{:.2},{:.2}) lv=({:.2},{:.2},{:.2}) moved since 300: {moved:.3}; bodies moved >5cm since 300: {big}", h.index(), t.x, t.y, t.z, lv.x, lv.y, lv.z);
        }
    }
}
