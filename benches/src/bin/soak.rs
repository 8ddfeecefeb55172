//! Soak test: steps one closed scene for a long time and watches for slow failures — memory
//! growth, energy creep, NaNs, bodies escaping through walls.
//!
//! Scene: `--bodies` balls and boxes (half and half, 0.2–0.35 m) dropped into a closed box
//! (floor, four walls, lid; inner half-size 5 m, walls 1 m thick) stirred by a kinematic
//! paddle turning about the vertical axis, so contacts keep being made and broken.
//!
//! Every `--report-every` steps it prints: step, resident memory (from `/proc/self/statm`,
//! MiB), largest body speed (m/s), total mechanical energy (kinetic + gravitational about
//! y = 0, J), NaN count (bodies with a non-finite pose or velocity), escaped bodies (centre
//! outside the inner box by more than 0.5 m), frozen bodies, contact pairs and wall time.
//!
//! Exits with status 1 when, after the warm-up report, resident memory grows by more than
//! `--max-growth-mib`, or when any NaN, escape or frozen body appears.

use clap::Parser;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use std::time::Instant;
use tumble::math::{Real, Vector};
use tumble::narrowphase::shape::{Ball, Cuboid};
use tumble::{BodyBuilder, BodyKind, BroadPhaseKind, World, WorldConfig};

/// Long-running stability test of one closed, stirred scene.
#[derive(Parser, Debug)]
#[command(name = "soak", version, about, long_about = None)]
struct Args {
    /// Steps to run.
    #[arg(long, default_value_t = 1_000_000)]
    steps: u64,
    /// Steps between reports (the first report ends the warm-up).
    #[arg(long, default_value_t = 100_000)]
    report_every: u64,
    /// Dynamic bodies (balls and boxes, half each).
    #[arg(long, default_value_t = 500)]
    bodies: usize,
    /// Broad phase: brute, grid, sap or bvh (default: the engine's default).
    #[arg(long)]
    broad: Option<BroadPhaseKind>,
    /// Rayon threads (0: rayon's default).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Allowed growth of resident memory after the first report, MiB.
    #[arg(long, default_value_t = 16.0)]
    max_growth_mib: f64,
    /// Seed of the initial placement.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Inner half-size of the closed box, metres.
const HALF: Real = 5.0;

/// Resident memory of this process, MiB (second field of `/proc/self/statm`, in 4 KiB pages);
/// None where `/proc` is not available.
fn resident_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: f64 = s.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096.0 / (1024.0 * 1024.0))
}

fn build(args: &Args) -> Result<World, String> {
    let mut config = WorldConfig::default();
    if let Some(b) = args.broad {
        config.broad_phase = b;
    }
    let mut w = World::new(config).map_err(|e| e.to_string())?;
    let wall = |he: Vector, at: Vector| -> Result<BodyBuilder, String> {
        Ok(
            BodyBuilder::fixed(Cuboid::new(he).map_err(|e| e.to_string())?)
                .translation(at)
                .friction(0.5)
                .restitution(0.3),
        )
    };
    let t = HALF + 0.5;
    let (long, h) = (HALF + 1.0, HALF + 1.0);
    for (he, at) in [
        (Vector::new(long, 0.5, long), Vector::new(0.0, -0.5, 0.0)),
        (
            Vector::new(long, 0.5, long),
            Vector::new(0.0, 2.0 * HALF + 0.5, 0.0),
        ),
        (Vector::new(0.5, h, long), Vector::new(-t, HALF, 0.0)),
        (Vector::new(0.5, h, long), Vector::new(t, HALF, 0.0)),
        (Vector::new(long, h, 0.5), Vector::new(0.0, HALF, -t)),
        (Vector::new(long, h, 0.5), Vector::new(0.0, HALF, t)),
    ] {
        w.insert(wall(he, at)?).map_err(|e| e.to_string())?;
    }
    let paddle = Cuboid::new(Vector::new(HALF - 0.3, 0.25, 0.15)).map_err(|e| e.to_string())?;
    w.insert(
        BodyBuilder::kinematic(paddle)
            .translation(Vector::new(0.0, 0.4, 0.0))
            .angvel(Vector::new(0.0, 0.8, 0.0)),
    )
    .map_err(|e| e.to_string())?;
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let per_layer = 14usize;
    for i in 0..args.bodies {
        let (gx, gz, layer) = (
            i % per_layer,
            (i / per_layer) % per_layer,
            i / (per_layer * per_layer),
        );
        let at = Vector::new(
            -HALF + 0.5 + 0.7 * gx as Real,
            1.2 + 0.8 * layer as Real,
            -HALF + 0.5 + 0.7 * gz as Real,
        );
        let s: Real = rng.gen_range(0.2..0.35);
        let v = Vector::new(rng.gen_range(-1.0..1.0), 0.0, rng.gen_range(-1.0..1.0));
        let b = if i % 2 == 0 {
            BodyBuilder::dynamic(Ball::new(s).map_err(|e| e.to_string())?)
        } else {
            BodyBuilder::dynamic(
                Cuboid::new(Vector::new(s, 0.8 * s, 0.9 * s)).map_err(|e| e.to_string())?,
            )
        };
        w.insert(b.translation(at).linvel(v).friction(0.4).restitution(0.3))
            .map_err(|e| e.to_string())?;
    }
    Ok(w)
}

/// Figures of one report.
struct Figures {
    max_speed: Real,
    energy: f64,
    nans: usize,
    escaped: usize,
    frozen: usize,
}

fn measure(w: &World) -> Figures {
    let g = -w.config().gravity.y as f64;
    let mut f = Figures {
        max_speed: 0.0,
        energy: 0.0,
        nans: 0,
        escaped: 0,
        frozen: 0,
    };
    for (_, b) in w.bodies() {
        if b.kind() != BodyKind::Dynamic {
            continue;
        }
        let p = b.translation();
        let finite = p
            .iter()
            .chain(b.linvel().iter())
            .chain(b.angvel().iter())
            .all(|x| x.is_finite());
        if !finite {
            f.nans += 1;
            continue;
        }
        if b.is_frozen() {
            f.frozen += 1;
        }
        f.max_speed = f.max_speed.max(b.linvel().norm());
        f.energy += b.kinetic_energy() as f64 + b.mass() as f64 * g * p.y as f64;
        let m = HALF + 0.5;
        if p.x.abs() > m || p.z.abs() > m || p.y < -0.5 || p.y > 2.0 * HALF + 0.5 {
            f.escaped += 1;
        }
    }
    f
}

fn run(args: &Args) -> Result<bool, String> {
    let mut w = build(args)?;
    println!(
        "soak: {} bodies, {} steps, broad phase {:?}, {} threads",
        args.bodies,
        args.steps,
        w.config().broad_phase,
        rayon::current_num_threads()
    );
    println!(
        "{:>10} {:>9} {:>9} {:>12} {:>5} {:>7} {:>6} {:>8} {:>8}",
        "step", "rss_MiB", "max|v|", "energy_J", "NaN", "escaped", "frozen", "pairs", "wall_s"
    );
    let start = Instant::now();
    let mut baseline: Option<f64> = None;
    let mut peak_rss: f64 = 0.0;
    let mut ok = true;
    let every = args.report_every.max(1);
    for step in 1..=args.steps {
        w.step();
        if step % every == 0 || step == args.steps {
            let f = measure(&w);
            let rss = resident_mib().unwrap_or(0.0);
            peak_rss = peak_rss.max(rss);
            println!(
                "{:>10} {:>9.1} {:>9.3} {:>12.1} {:>5} {:>7} {:>6} {:>8} {:>8.1}",
                step,
                rss,
                f.max_speed,
                f.energy,
                f.nans,
                f.escaped,
                f.frozen,
                w.contact_pair_count(),
                start.elapsed().as_secs_f64()
            );
            if let Err(e) = w.validate() {
                println!("FAIL: World::validate: {e}");
                ok = false;
            }
            if f.nans > 0 || f.escaped > 0 || f.frozen > 0 {
                println!(
                    "FAIL: {} NaN, {} escaped, {} frozen",
                    f.nans, f.escaped, f.frozen
                );
                ok = false;
            }
            match baseline {
                None => baseline = Some(rss),
                Some(b) if rss - b > args.max_growth_mib => {
                    println!(
                        "FAIL: resident memory grew {:.1} MiB since warm-up (limit {})",
                        rss - b,
                        args.max_growth_mib
                    );
                    ok = false;
                }
                _ => {}
            }
            if !ok {
                return Ok(false);
            }
        }
    }
    println!(
        "PASS: {} steps in {:.1} s, peak resident memory {:.1} MiB",
        args.steps,
        start.elapsed().as_secs_f64(),
        peak_rss
    );
    Ok(true)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = if args.threads > 0 {
        match rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build()
        {
            Ok(pool) => pool.install(|| run(&args)),
            Err(e) => Err(e.to_string()),
        }
    } else {
        run(&args)
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("soak: {e}");
            ExitCode::from(2)
        }
    }
}
