//! `rapier-scenes`: rapier3d stepped on one scene of `shared/peers/rapier-bench/README.md`
//! (the normative scene definitions), one JSON line on stdout.
//!
//! Warm-up steps (default 30; 600 for `settle`) are not counted; each counted step (default
//! 200) times the engine call alone with `std::time::Instant`: `PhysicsPipeline::step`, or for
//! `gas` `CollisionPipeline::step`. The line carries the median, mean, min and max ms per
//! counted step, then the state after the last step (pair and contact counts and the scene's
//! own figures).

mod gas;
mod scenes;
mod world;

use clap::{Parser, ValueEnum};
use gas::{Gas, GasMode};
use scenes::{Drawn, JointGrid, Lattice, Pyramid, Stacks, Terrain, Tumbler, TUMBLER_MAX_N};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tumble_peers::json::Line;
use tumble_peers::stats::Summary;
use tumble_peers::{PARRY_VERSION, RAPIER_VERSION};
use world::{rotation, v3};

/// A scene being stepped.
pub trait Bench {
    /// One step; returns the time of the timed engine call.
    fn step(&mut self) -> Duration;
    /// The fields after the timings: state after the last step and the scene's figures.
    fn report(&self, line: &mut Line);
}

/// The scenes, by the names of the scene definitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Scene {
    /// Balls falling into an open box.
    Balls,
    /// Randomly rotated unit cubes falling into an open box.
    Boxes,
    /// Collision detection only: balls in a periodic box.
    Gas,
    /// A square pyramid of unit cubes (`--n` = base side).
    Pyramid,
    /// 100 towers of unit cubes (`--n` = tower height, default 20).
    Stacks,
    /// A net of balls hanging by spherical joints.
    #[value(name = "joint_grid")]
    JointGrid,
    /// Balls and cubes falling on a heightfield.
    Terrain,
    /// The same on a triangle mesh of the same surface.
    #[value(name = "terrain_mesh")]
    TerrainMesh,
    /// Small cubes in a closed box turning about z.
    Tumbler,
    /// `boxes` after 600 warm-up steps.
    Settle,
}

impl Scene {
    fn name(self) -> &'static str {
        match self {
            Scene::Balls => "balls",
            Scene::Boxes => "boxes",
            Scene::Gas => "gas",
            Scene::Pyramid => "pyramid",
            Scene::Stacks => "stacks",
            Scene::JointGrid => "joint_grid",
            Scene::Terrain => "terrain",
            Scene::TerrainMesh => "terrain_mesh",
            Scene::Tumbler => "tumbler",
            Scene::Settle => "settle",
        }
    }
}

/// rapier3d on one peer scene; prints one JSON line.
#[derive(Parser, Debug)]
#[command(name = "rapier-scenes", version)]
struct Args {
    /// Scene.
    #[arg(long, value_enum)]
    scene: Scene,
    /// Bodies (pyramid: base side; stacks: tower height, default 20; joint_grid: rounded up
    /// to a square).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    n: Option<u64>,
    /// Counted steps.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    steps: u64,
    /// Warm-up steps, not counted [default: 30; settle: 600].
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    warmup: Option<u64>,
    /// Seed of the random recipe.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Dynamic bodies never fall asleep.
    #[arg(long)]
    no_sleep: bool,
    /// gas: contact manifolds or sensor intersection tests.
    #[arg(long, value_enum, default_value_t = GasMode::Contact)]
    gas_mode: GasMode,
    /// gas: also count the pairs independently of rapier (`brute_force_pairs_last_step`).
    #[arg(long)]
    verify: bool,
    /// Turns `terrain` into `terrain_mesh`.
    #[arg(long)]
    terrain_mesh: bool,
    /// Prints each step's ms on stderr (`step K MS`, warm-up included).
    #[arg(long)]
    trace: bool,
    /// Runs rapier on a rayon pool of every core (needs the `parallel` feature; a `parallel`
    /// build without this flag runs on a 1-thread pool).
    #[arg(long)]
    parallel: bool,
    /// Accepted for symmetry with Tumble's runners: the output is always one JSON line.
    #[arg(long)]
    json: bool,
    /// Writes the recipe's bodies as handed to rapier (f32: centre, rotation x y z w, linear
    /// velocity; gas: initial positions and velocities) to this CSV file, to compare a scene
    /// with another engine's.
    #[arg(long)]
    dump_bodies: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("rapier-scenes: error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn threads(parallel: bool) -> Result<usize, String> {
    if !parallel {
        return Ok(1);
    }
    if cfg!(feature = "parallel") {
        Ok(std::thread::available_parallelism().map_or(1, |n| n.get()))
    } else {
        Err("--parallel needs a build with `--features parallel`".into())
    }
}

#[cfg(feature = "parallel")]
fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> Result<T, String> {
    let pool = rapier3d::rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} rayon threads: {e}"))?;
    Ok(pool.install(f))
}

#[cfg(not(feature = "parallel"))]
fn in_pool<T: Send>(_threads: usize, f: impl FnOnce() -> T + Send) -> Result<T, String> {
    Ok(f())
}

fn run(args: &Args) -> Result<String, String> {
    let scene = if args.terrain_mesh && args.scene == Scene::Terrain {
        Scene::TerrainMesh
    } else {
        args.scene
    };
    let n = match (args.n, scene) {
        (Some(n), _) => n as usize,
        (None, Scene::Stacks) => 20,
        (None, _) => return Err(format!("--n is required for {}", scene.name())),
    };
    if scene == Scene::Tumbler && n > TUMBLER_MAX_N {
        return Err(format!(
            "tumbler holds at most {TUMBLER_MAX_N} cubes (lattice side 21), not {n}"
        ));
    }
    let warmup = args
        .warmup
        .unwrap_or(if scene == Scene::Settle { 600 } else { 30 }) as usize;
    let threads = threads(args.parallel)?;
    in_pool(threads, || simulate(args, scene, n, warmup, threads))?
}

fn simulate(
    args: &Args,
    scene: Scene,
    n: usize,
    warmup: usize,
    threads: usize,
) -> Result<String, String> {
    let sleep = !args.no_sleep;
    let setup = Instant::now();
    let (mut bench, drawn): (Box<dyn Bench>, Vec<Drawn>) = match scene {
        Scene::Balls | Scene::Boxes | Scene::Settle => {
            let (s, d) = Lattice::new(n, args.seed, scene != Scene::Balls, sleep);
            (Box::new(s), d)
        }
        Scene::Gas => {
            let g = Gas::new(n, args.seed, args.gas_mode, args.verify);
            let d = g.drawn();
            (Box::new(g), d)
        }
        Scene::Pyramid => (Box::new(Pyramid::new(n, sleep)), vec![]),
        Scene::Stacks => (Box::new(Stacks::new(n, sleep)), vec![]),
        Scene::JointGrid => (Box::new(JointGrid::new(n, sleep)), vec![]),
        Scene::Terrain | Scene::TerrainMesh => {
            let (s, d) = Terrain::new(n, args.seed, scene == Scene::TerrainMesh, sleep);
            (Box::new(s), d)
        }
        Scene::Tumbler => {
            let (s, d) = Tumbler::new(n, args.seed, sleep);
            (Box::new(s), d)
        }
    };
    let setup_ms = setup.elapsed().as_secs_f64() * 1e3;
    if let Some(path) = &args.dump_bodies {
        dump_bodies(path, &drawn).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }

    let steps = args.steps as usize;
    let mut counted = Vec::with_capacity(steps);
    for k in 0..warmup + steps {
        let ms = bench.step().as_secs_f64() * 1e3;
        if args.trace {
            eprintln!("step {k} {ms:.3}");
        }
        if k >= warmup {
            counted.push(ms);
        }
    }
    let t = Summary::of(&counted);

    let mut line = Line::new();
    line.str("engine", "rapier3d")
        .str("version", RAPIER_VERSION)
        .str("parry_version", PARRY_VERSION)
        .str("scene", scene.name())
        .int("n", n as u64)
        .int("steps", steps as u64)
        .int("warmup", warmup as u64)
        .num("ms_per_step_median", t.median, 4)
        .num("ms_per_step_mean", t.mean, 4)
        .num("ms_per_step_min", t.min, 4)
        .num("ms_per_step_max", t.max, 4);
    bench.report(&mut line);
    line.bool("parallel", args.parallel)
        .int("threads", threads as u64)
        .num("setup_ms", setup_ms, 4)
        .str(
            "api",
            if scene == Scene::Gas {
                "CollisionPipeline::step (prediction 0)"
            } else {
                "PhysicsPipeline::step"
            },
        );
    Ok(line.finish())
}

/// The drawn bodies as rapier receives them (f32), one CSV row each.
fn dump_bodies(path: &PathBuf, drawn: &[Drawn]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(out, "i,x,y,z,qx,qy,qz,qw,vx,vy,vz")?;
    for (i, d) in drawn.iter().enumerate() {
        let (c, q, v) = (v3(d.centre), rotation(d.rotation), v3(d.linvel));
        let f: Vec<String> = [c.x, c.y, c.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z]
            .iter()
            .map(|x| format!("{x:?}"))
            .collect();
        writeln!(out, "{i},{}", f.join(","))?;
    }
    out.flush()
}
