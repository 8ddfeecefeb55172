use tumble::WorldConfig;
use tumble_benches::scenes::{BuiltScene, SceneKind};
fn main() {
    let n: usize = std::env::args().nth(1).map_or(1000, |s| s.parse().unwrap());
    let steps: usize = std::env::args().nth(2).map_or(600, |s| s.parse().unwrap());
    let sleep = std::env::args().nth(3).map_or(true, |s| s == "1");
    let mut s = BuiltScene::new(SceneKind::Settle, n, 42, WorldConfig { sleep, sleep_linear_speed: std::env::var("LIN").map_or(0.05, |v| v.parse().unwrap()), contact_hertz: std::env::var("HZ").map_or(60.0, |v| v.parse().unwrap()), sleep_angular_speed: std::env::var("ANG").map_or(0.05, |v| v.parse().unwrap()), ..WorldConfig::default() }).unwrap();
    for k in 0..steps {
        s.world.step();
        if k % 30 == 29 {
            let mut vs: Vec<(f32, f32)> = s.world.bodies().filter(|(_, b)| b.kind() == tumble::BodyKind::Dynamic).map(|(_, b)| (b.linvel().norm(), b.angvel().norm())).collect();
            let above = vs.iter().filter(|(v, w)| *v >= 0.05 || *w >= 0.05).count();
            let maxv = vs.iter().map(|x| x.0).fold(0.0, f32::max);
            let maxw = vs.iter().map(|x| x.1).fold(0.0, f32::max);
            vs.sort_by(|a, b| b.0.total_cmp(&a.0));
            let asleep = s.world.sleeping_body_count();
            let ready = s.world.bodies().filter(|(_, b)| b.sleep_time() >= 0.5).count();
            let zero = s.world.bodies().filter(|(_, b)| b.kind() == tumble::BodyKind::Dynamic && b.sleep_time() < 0.1).count();
            print!("ready {ready} recent {zero} ");
            println!("step {k}: asleep {asleep} above {above} maxv {maxv:.4} maxw {maxw:.4} top5v {:?}", &vs[..5.min(vs.len())]);
        }
    }
}
