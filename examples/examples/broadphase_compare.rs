//! Broad phases compared: every structure (hierarchical grid, sweep and prune, BVH, brute
//! force) on the benchmark scenes `gas` (balls in straight flight, collision detection only)
//! and `balls` (a settling pile, full dynamics), over N, timing the broad-phase stage only
//! (median over the measured steps); then on the box scenes of `tumble::broadphase::scenes`
//! (uniform, sizes over six decades, far coordinates, specks beside boxes, dense piles), timing
//! one frame (update every box + find the pairs) and printing each structure's cost per
//! (proxy + pair) over its own uniform cost. Checks that every structure reports the same
//! pairs. Leaves `broadphase_compare.svg` (log–log, one panel per engine scene) and prints the
//! tables.
//!
//! `cargo run --release -p tumble-examples --example broadphase_compare [-- --max-n 10000 --out DIR]`

use clap::Parser;
use plotters::prelude::*;
use std::process::ExitCode;
use std::time::Instant;
use tumble::broadphase::scenes::{self as boxes, Scene};
use tumble::broadphase::{Aabb, AnyBroadPhase, BroadPhase, ProxyHandle};
use tumble::WorldConfig;
use tumble_benches::measure::{ms, Stats};
use tumble_benches::scenes::SceneKind;
use tumble_benches::sim::{Sim, BROAD_PHASES};
use tumble_examples::view::{body_colour, draw_legend, legend_line, svg_canvas};
use tumble_examples::{out_dir, run_example, ExampleResult, OutArgs};

/// Every broad phase over N on a few scenes.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Largest N (from 500 to 100000); N runs over 500, 1000, 2000, 5000, 10000, ... up to it.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(500..=100_000))]
    max_n: u64,
    /// Largest N given to the brute-force broad phase (O(N²) per step).
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    max_brute_n: u64,
    /// Measured steps per run (after the warm-up), 1 to 1000.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1000))]
    steps: u64,
    #[command(flatten)]
    out: OutArgs,
}

/// Warm-up steps before measuring: the pile must have formed for `balls`.
fn warmup(scene: SceneKind) -> usize {
    match scene {
        SceneKind::Gas => 5,
        _ => 30,
    }
}

/// Labels only the round values 1, 2, 5 × 10^k of a log axis (the others stay blank).
fn round_label(x: &f64) -> String {
    let decade = 10f64.powf(x.log10().floor());
    let m = x / decade;
    if [1.0, 2.0, 5.0].iter().any(|r| (m - r).abs() < 1e-6) {
        format!("{x:.0}")
    } else {
        String::new()
    }
}

fn main() -> ExitCode {
    run_example("broadphase_compare", || run(Args::parse()))
}

/// Median broad-phase ms and the broad-phase pair count of the last step.
fn measure(
    scene: SceneKind,
    n: usize,
    kind: tumble::BroadPhaseKind,
    steps: usize,
) -> ExampleResult<(f64, usize)> {
    let config = WorldConfig {
        broad_phase: kind,
        ..WorldConfig::default()
    };
    let mut sim = Sim::new(scene, n, 42, config)?;
    // The broad phase's two stages: the boxes into it, and its pairs.
    let names = sim.stage_names();
    let stage = |name: &str| names.iter().position(|s| *s == name);
    let (Some(update), Some(pairs)) = (stage("update_broad_phase"), stage("find_pairs")) else {
        return Err("no broad-phase stages".into());
    };
    let mut times = Vec::with_capacity(steps);
    for k in 0..warmup(scene) + steps {
        let (_, stages) = sim.step()?;
        if k >= warmup(scene) {
            times.push(ms(stages[update]) + ms(stages[pairs]));
        }
    }
    Ok((Stats::of(&times).median, sim.end_state().bp_pairs))
}

/// Median ms of a frame (update every box + find the pairs) of `kind` on a box scene, and the
/// pairs of the last frame.
fn box_frame(
    scene: boxes::SceneKind,
    n: usize,
    kind: tumble::BroadPhaseKind,
    steps: usize,
) -> (f64, Vec<(ProxyHandle, ProxyHandle)>) {
    let mut scene = Scene::new(scene, n, 42);
    let mut bp = AnyBroadPhase::new(kind);
    let items: Vec<(Aabb, u64)> = scene.boxes().into_iter().map(|b| (b, 0)).collect();
    let handles = bp.insert_batch(&items).expect("valid boxes");
    let mut pairs = Vec::new();
    let mut times = Vec::with_capacity(steps);
    for k in 0..steps + 2 {
        scene.advance();
        let moves: Vec<(ProxyHandle, Aabb)> = handles.iter().copied().zip(scene.boxes()).collect();
        let t = Instant::now();
        bp.update_batch(&moves).expect("valid boxes");
        bp.find_pairs(&mut pairs);
        if k >= 2 {
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    (Stats::of(&times).median, pairs)
}

/// The box scenes: per N and scene, each structure's median frame ms and its cost per (proxy +
/// pair) over its own uniform cost. Returns whether every structure found the same pairs.
fn box_scenes(args: &Args, ns: &[usize]) -> bool {
    println!("box scenes: one frame = update every box + find the pairs, median ms; (x) = cost per (proxy + pair) over the structure's uniform cost");
    println!(
        "  {:<9} {:>7} {:>17} {:>17} {:>17} {:>17} {:>9}  pairs agree",
        "scene", "N", "grid", "sap", "bvh", "brute", "pairs"
    );
    let mut all_agree = true;
    for &n in ns {
        let mut uniform = vec![None; BROAD_PHASES.len()];
        for scene in boxes::SceneKind::ALL {
            let mut cells = Vec::new();
            let mut first: Option<Vec<_>> = None;
            let mut agree = true;
            for (bi, (name, kind)) in BROAD_PHASES.iter().enumerate() {
                if *name == "brute" && n as u64 > args.max_brute_n {
                    cells.push(format!("{:>17}", "-"));
                    continue;
                }
                let (t, pairs) = box_frame(scene, n, *kind, args.steps as usize);
                let cost = t / (n + pairs.len()) as f64;
                let base = *uniform[bi].get_or_insert(cost);
                cells.push(format!("{t:>9.3} ({:>4.2})", cost / base));
                match &first {
                    None => first = Some(pairs),
                    Some(f) => agree &= *f == pairs,
                }
            }
            all_agree &= agree;
            println!(
                "  {:<9} {n:>7} {} {:>9}  {}",
                scene.name(),
                cells.join(" "),
                first.map_or(0, |f| f.len()),
                if agree { "yes" } else { "NO" }
            );
        }
    }
    all_agree
}

fn run(args: Args) -> ExampleResult {
    let dir = out_dir("broadphase_compare", args.out.out.as_deref())?;
    let ns: Vec<usize> = [500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000]
        .into_iter()
        .filter(|&n| n as u64 <= args.max_n)
        .collect();
    let scenes = [SceneKind::Gas, SceneKind::Balls];
    let threads = rayon::current_num_threads();
    println!(
        "broadphase_compare: broad-phase stage, median ms over {} steps, {threads} thread(s)",
        args.steps
    );
    println!(
        "  {:<6} {:>7} {:>10} {:>10} {:>10} {:>10} {:>9}  pairs agree",
        "scene", "N", "grid", "sap", "bvh", "brute", "bp pairs"
    );
    // results[scene][broad phase] = [(n, ms)]
    let mut results = vec![vec![Vec::new(); BROAD_PHASES.len()]; scenes.len()];
    let mut all_agree = true;
    for (si, &scene) in scenes.iter().enumerate() {
        for &n in &ns {
            let mut cells = Vec::new();
            let mut pairs = Vec::new();
            for (bi, (name, kind)) in BROAD_PHASES.iter().enumerate() {
                if *name == "brute" && n as u64 > args.max_brute_n {
                    cells.push(format!("{:>10}", "-"));
                    continue;
                }
                let (t, p) = measure(scene, n, *kind, args.steps as usize)?;
                results[si][bi].push((n as f64, t));
                pairs.push(p);
                cells.push(format!("{t:>10.3}"));
            }
            let agree = pairs.windows(2).all(|w| w[0] == w[1]);
            all_agree &= agree;
            println!(
                "  {:<6} {n:>7} {} {:>9}  {}",
                scene.name(),
                cells.join(" "),
                pairs[0],
                if agree { "yes" } else { "NO" }
            );
        }
    }
    all_agree &= box_scenes(&args, &ns);
    println!(
        "  every structure found the same broad-phase pairs: {}",
        if all_agree { "yes" } else { "NO" }
    );

    let path = dir.join("broadphase_compare.svg");
    let root = svg_canvas(&path, 1200, 520)?;
    let panels = root.split_evenly((1, scenes.len()));
    for (si, panel) in panels.iter().enumerate() {
        let pts = results[si].iter().flatten();
        let tmax = pts.clone().map(|p| p.1).fold(1e-3, f64::max) * 2.0;
        let tmin = pts.map(|p| p.1).filter(|t| *t > 0.0).fold(tmax, f64::min) / 2.0;
        let (n0, n1) = (ns[0] as f64 / 1.2, *ns.last().unwrap_or(&1000) as f64 * 1.2);
        let mut chart = ChartBuilder::on(panel)
            .margin(12)
            .caption(
                format!(
                    "{}: broad-phase ms per step (median) against N",
                    scenes[si].name()
                ),
                ("sans-serif", 16),
            )
            .x_label_area_size(36)
            .y_label_area_size(55)
            .build_cartesian_2d((n0..n1).log_scale(), (tmin..tmax).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("N (bodies)")
            .y_desc("ms")
            .x_label_formatter(&round_label)
            .draw()?;
        for (bi, (name, _)) in BROAD_PHASES.iter().enumerate() {
            let colour = body_colour(bi);
            let series = &results[si][bi];
            chart
                .draw_series(LineSeries::new(
                    series.iter().copied(),
                    colour.stroke_width(2),
                ))?
                .label(*name)
                .legend(legend_line(colour.stroke_width(2)));
            chart.draw_series(series.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
    }
    root.present()?;
    println!("  picture: {}", path.display());
    if all_agree {
        Ok(())
    } else {
        Err("the broad phases disagree on the pair count (see the table)".into())
    }
}
