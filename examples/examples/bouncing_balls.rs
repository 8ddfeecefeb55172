//! Bouncing balls: five balls with restitution e = 0, 0.25, 0.5, 0.75, 1 dropped side by side
//! from the same height onto a ground of restitution 0 (pairs combine by the maximum, so each
//! ball's own e rules). Newton's law of restitution gives a rebound speed e·v, hence apex
//! heights (above the ground) in the ratio h₊/h = e². Prints the measured ratios against e² and
//! leaves `bouncing_balls.svg`: height over time, one curve per e.
//!
//! `cargo run --release -p tumble-examples --example bouncing_balls [-- --seconds 6 --out DIR]`

use clap::Parser;
use plotters::prelude::*;
use std::process::ExitCode;
use tumble::math::Vector;
use tumble::{Ball, BodyBuilder, Cuboid, World, WorldConfig};
use tumble_examples::view::{body_colour, draw_legend, legend_line, svg_canvas};
use tumble_examples::{out_dir, run_example, ExampleResult, OutArgs};

/// Balls of restitution 0 to 1 side by side; apex ratios against e².
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Simulated seconds (1 to 60).
    #[arg(long, default_value_t = 6.0)]
    seconds: f64,
    /// Drop height of the ball's bottom above the ground, metres (0.1 to 100).
    #[arg(long, default_value_t = 2.0)]
    height: f64,
    #[command(flatten)]
    out: OutArgs,
}

const RESTITUTIONS: [f32; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
const RADIUS: f32 = 0.25;

fn main() -> ExitCode {
    run_example("bouncing_balls", || run(Args::parse()))
}

/// Heights of the local maxima of `ys` that lie above `floor` (a bounce's apex), with the
/// sample before and after for a parabola through the three (exact for free flight).
fn apexes(ys: &[f64], floor: f64) -> Vec<f64> {
    let mut out = Vec::new();
    for i in 1..ys.len().saturating_sub(1) {
        let (a, b, c) = (ys[i - 1], ys[i], ys[i + 1]);
        if b > a && b >= c && b > floor {
            let denom = a - 2.0 * b + c;
            let peak = if denom < 0.0 {
                b - (c - a).powi(2) / (8.0 * denom)
            } else {
                b
            };
            out.push(peak);
        }
    }
    out
}

fn run(args: Args) -> ExampleResult {
    if !(1.0..=60.0).contains(&args.seconds) || !(0.1..=100.0).contains(&args.height) {
        return Err("--seconds must be in [1, 60] and --height in [0.1, 100]".into());
    }
    let dir = out_dir("bouncing_balls", args.out.out.as_deref())?;
    // Restitution applies to every approach speed down to 1 cm/s, so small bounces count too.
    let config = WorldConfig {
        restitution_threshold: 0.01,
        ..WorldConfig::default()
    };
    let mut world = World::new(config)?;
    world.insert(
        BodyBuilder::fixed(Cuboid::new(Vector::new(8.0, 0.5, 2.0))?)
            .translation(Vector::new(0.0, -0.5, 0.0))
            .restitution(0.0),
    )?;
    let drop = args.height as f32 + RADIUS;
    let mut balls = Vec::new();
    for (i, &e) in RESTITUTIONS.iter().enumerate() {
        let x = (i as f32 - 2.0) * 1.5;
        balls.push(
            world.insert(
                BodyBuilder::dynamic(Ball::new(RADIUS)?)
                    .translation(Vector::new(x, drop, 0.0))
                    .restitution(e)
                    .friction(0.0),
            )?,
        );
    }
    let dt = f64::from(world.config().dt);
    let steps = (args.seconds / dt).round() as usize;
    // Height of each ball's bottom above the ground, per step.
    let mut heights = vec![Vec::with_capacity(steps + 1); balls.len()];
    for k in 0..=steps {
        for (h, series) in balls.iter().zip(&mut heights) {
            let y = world
                .body(*h)
                .map_or(f64::NAN, |b| f64::from(b.translation().y - RADIUS));
            series.push(y);
        }
        if k < steps {
            world.step();
        }
    }

    println!(
        "bouncing_balls: drop from {:.2} m, dt = {dt:.4} s, {:.1} s simulated",
        args.height,
        steps as f64 * dt
    );
    println!(
        "  {:>5} {:>7}   measured apex ratios h(k+1)/h(k) (first five)   apex heights (m)",
        "e", "e²"
    );
    for (e, ys) in RESTITUTIONS.iter().zip(&heights) {
        // The start counts as the first apex; later apexes must clear 1 mm.
        let mut peaks = vec![args.height];
        peaks.extend(apexes(ys, 1e-3));
        let ratios: Vec<String> = peaks
            .windows(2)
            .take(5)
            .map(|w| format!("{:.3}", w[1] / w[0]))
            .collect();
        let hs: Vec<String> = peaks.iter().take(5).map(|h| format!("{h:.3}")).collect();
        println!(
            "  {:>5.2} {:>7.4}   {:<46} {}",
            e,
            e * e,
            if ratios.is_empty() {
                "no rebound".to_string()
            } else {
                ratios.join(" ")
            },
            hs.join(" ")
        );
    }

    let path = dir.join("bouncing_balls.svg");
    let root = svg_canvas(&path, 1100, 560)?;
    let ymax = heights
        .iter()
        .flatten()
        .filter(|y| y.is_finite())
        .fold(args.height, |m, &y| m.max(y))
        * 1.08;
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .caption(
            "bouncing balls: height of the ball's bottom over time, by restitution e",
            ("sans-serif", 18),
        )
        .x_label_area_size(38)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..steps as f64 * dt, -0.02..ymax)?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc("height (m)")
        .draw()?;
    for (i, (e, ys)) in RESTITUTIONS.iter().zip(&heights).enumerate() {
        let colour = body_colour(i);
        chart
            .draw_series(LineSeries::new(
                ys.iter().enumerate().map(|(k, &y)| (k as f64 * dt, y)),
                colour.stroke_width(2),
            ))?
            .label(format!("e = {e:.2} (e² = {:.4})", e * e))
            .legend(legend_line(colour.stroke_width(2)));
    }
    draw_legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    root.present()?;
    println!("  picture: {}", path.display());
    Ok(())
}
