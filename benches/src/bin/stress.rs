//! Headless stress runner: builds one scene, steps it, times every step and each stage of it,
//! and reports a summary table (or, with `--json`, one JSON line in the form of the peer
//! harness of shared/peers/rapier-bench), a CSV of per-step times and an SVG plot.
//!
//! Counting follows the peer README: the warm-up steps are not counted; each counted step
//! times the engine call only (for `gas`, the broad and narrow phase only).

use clap::{Parser, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tumble::{BroadPhaseKind, WorldConfig};
use tumble_benches::measure::{ms, Report, RunInfo, Timeline};
use tumble_benches::plot::stacked_stage_svg;
use tumble_benches::scenes::SceneKind;
use tumble_benches::sim::{broad_phase_name, Sim};

/// A broad phase by its command-line name.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum BroadArg {
    /// Uniform grid (spatial hashing).
    Grid,
    /// Sweep and prune.
    Sap,
    /// Dynamic AABB tree.
    Bvh,
    /// Every pair tested (reference; O(n²)).
    Brute,
}

impl BroadArg {
    fn kind(self) -> BroadPhaseKind {
        match self {
            BroadArg::Grid => BroadPhaseKind::Grid,
            BroadArg::Sap => BroadPhaseKind::SweepAndPrune,
            BroadArg::Bvh => BroadPhaseKind::Bvh,
            BroadArg::Brute => BroadPhaseKind::BruteForce,
        }
    }
}

/// Stress run of one Tumble scene. With no arguments: boxes, N = 10000, 30 warm-up + 200
/// counted steps on every core, summary on stdout, CSV and SVG plot in out/stress/.
/// The scenes of resting contact and a moving container also report their fidelity figures
/// (`bodies`, `awake_bodies_last_step`, `max_displacement`, `top_drop`, `fallen`, `towers`,
/// `box_angle_rad`, `box_centre_drift`, as the peer names them).
#[derive(Parser, Debug)]
#[command(name = "stress", version)]
struct Args {
    /// Scene (balls, boxes, gas, pyramid, stacks, tumbler, settle: as defined in
    /// shared/peers/rapier-bench/README.md; pyramid_cubes, mixed, projectiles: Tumble's own).
    #[arg(long, value_enum, default_value_t = SceneKind::Boxes)]
    scene: SceneKind,
    /// Scene size, 1 to 1000000: the number of bodies; for pyramid the base side b
    /// (b(b+1)(2b+1)/6 cubes), for stacks the tower height (100 towers) [default: 20 for
    /// pyramid and stacks, 4000 for tumbler, 10000 otherwise].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    n: Option<u64>,
    /// Counted steps (1 to 1000000).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    steps: u64,
    /// Warm-up steps, not counted, 0 to 1000000 [default: 600 for settle, 30 otherwise].
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    warmup: Option<u64>,
    /// Bodies never fall asleep (`WorldConfig::sleep` off), as the peer harness's flag: the
    /// reference for solver cost in the scenes of resting contact.
    #[arg(long)]
    no_sleep: bool,
    /// Broad phase [default: the engine's default].
    #[arg(long, value_enum)]
    broadphase: Option<BroadArg>,
    /// Rayon threads (1 to 256) [default: every core].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Print one JSON line on stdout (the summary goes to stderr).
    #[arg(long)]
    json: bool,
    /// Folder for the CSV of per-step times and the SVG plot (created if missing).
    #[arg(long, default_value = "out/stress")]
    out: PathBuf,
    /// Write no CSV and no plot.
    #[arg(long, conflicts_with = "out")]
    no_out: bool,
    /// Seed of the scene's random recipe (the peer figures use 42).
    #[arg(long, default_value_t = 42)]
    seed: u64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("stress: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Creates the output folder and checks that a file can be written there, before the run.
fn prepare_out(dir: &Path, stem: &str) -> Result<(PathBuf, PathBuf), String> {
    fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the output folder {}: {e}", dir.display()))?;
    let csv = dir.join(format!("{stem}.csv"));
    let svg = dir.join(format!("{stem}.svg"));
    File::create(&csv).map_err(|e| format!("cannot write {}: {e}", csv.display()))?;
    Ok((csv, svg))
}

fn run(args: &Args) -> Result<(), String> {
    let n = args.n.map_or(args.scene.default_n(), |n| n as usize);
    let warmup = args
        .warmup
        .map_or(args.scene.default_warmup(), |w| w as usize);
    let steps = args.steps as usize;
    let threads = match args.threads {
        Some(t) => t as usize,
        None => std::thread::available_parallelism().map_or(1, |p| p.get()),
    };
    let stem = format!("{}-{}", args.scene, n);
    let files = if args.no_out {
        None
    } else {
        Some(prepare_out(&args.out, &stem)?)
    };
    // The whole run happens inside the pool, as a game loop on a worker thread would: a
    // parallel section started from outside a pool waits on a lock that each section pays a
    // futex wake-up and a context switch for (3 % of `balls` at 10 000 bodies, 1 thread).
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} rayon threads: {e}"))?;
    pool.install(|| simulate(args, n, steps, warmup, threads, files))
}

/// The run itself, on a thread of the rayon pool of `threads` threads.
fn simulate(
    args: &Args,
    n: usize,
    steps: usize,
    warmup: usize,
    threads: usize,
    files: Option<(PathBuf, PathBuf)>,
) -> Result<(), String> {
    let mut config = WorldConfig {
        sleep: !args.no_sleep,
        ..WorldConfig::default()
    };
    if let Some(b) = args.broadphase {
        config.broad_phase = b.kind();
    }
    let broadphase = broad_phase_name(config.broad_phase).to_string();

    let setup = Instant::now();
    let mut sim = Sim::new(args.scene, n, args.seed, config).map_err(|e| e.to_string())?;
    let setup_ms = ms(setup.elapsed());

    let bar =
        ProgressBar::with_draw_target(Some((warmup + steps) as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:32}] {pos}/{len} steps, {elapsed} elapsed, eta {eta} {msg}",
        )
        .map_err(|e| e.to_string())?
        .progress_chars("=> "),
    );
    bar.set_prefix(format!("{} n={n}", args.scene));

    let mut timeline = Timeline::new(sim.stage_names());
    for k in 0..warmup + steps {
        let (total, stages) = sim.step().map_err(|e| e.to_string())?;
        if k >= warmup {
            timeline.push(total, &stages);
        }
        let phase = if k < warmup { "warm-up" } else { "counted" };
        bar.set_message(format!("{phase}, {:.2} ms/step", ms(total)));
        bar.inc(1);
    }
    bar.finish_and_clear();

    let info = RunInfo {
        scene: args.scene.name(),
        n,
        warmup,
        threads,
        broadphase,
        seed: args.seed,
        setup_ms,
        api: sim.api(),
    };
    let report = Report::new(&info, &timeline, &sim.end_state());
    if args.json {
        println!("{}", report.to_json_line());
        eprint!("{}", report.summary_table());
    } else {
        print!("{}", report.summary_table());
    }

    if let Some((csv, svg)) = files {
        let file =
            File::create(&csv).map_err(|e| format!("cannot write {}: {e}", csv.display()))?;
        timeline
            .write_csv(BufWriter::new(file))
            .map_err(|e| format!("cannot write {}: {e}", csv.display()))?;
        let title = format!(
            "tumble {}: {} n={n}, {threads} thread(s), {} broad phase — ms per step by stage",
            report.version, args.scene, report.broadphase
        );
        stacked_stage_svg(&svg, &title, &timeline)?;
        eprintln!("wrote {} and {}", csv.display(), svg.display());
    }
    Ok(())
}
