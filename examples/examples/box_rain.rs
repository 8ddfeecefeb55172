//! Box rain: the `boxes` benchmark scene at a small size — unit cubes, randomly turned, fall
//! into the peer container and come to rest. Leaves `box_rain.svg`: snapshots side by side and
//! the kinetic energy over time below them.
//!
//! `cargo run --release -p tumble-examples --example box_rain [-- --n 150 --seconds 6 --out DIR]`

use clap::Parser;
use plotters::prelude::*;
use std::process::ExitCode;
use tumble::{BodyKind, WorldConfig};
use tumble_benches::scenes::{boxes, Motion};
use tumble_examples::view::{
    body_colour, draw_items, item_points, label, snapshot, svg_canvas, Camera, Look, Viewport,
};
use tumble_examples::{out_dir, run_example, ExampleResult, OutArgs};

/// Boxes tumbling into a container and coming to rest.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Number of boxes (1 to 2000).
    #[arg(long, default_value_t = 150, value_parser = clap::value_parser!(u64).range(1..=2000))]
    n: u64,
    /// Simulated seconds (0.5 to 60).
    #[arg(long, default_value_t = 6.0)]
    seconds: f64,
    #[command(flatten)]
    out: OutArgs,
}

fn main() -> ExitCode {
    run_example("box_rain", || run(Args::parse()))
}

fn run(args: Args) -> ExampleResult {
    if !(0.5..=60.0).contains(&args.seconds) {
        return Err(format!("--seconds must be between 0.5 and 60, got {}", args.seconds).into());
    }
    let dir = out_dir("box_rain", args.out.out.as_deref())?;
    let n = args.n as usize;
    let built = boxes(n, 42).build(WorldConfig::default())?;
    let (mut world, handles, scene) = (built.world, built.handles, built.scene);
    let dt = f64::from(world.config().dt);
    let steps = (args.seconds / dt).round() as usize;
    let snap_at: Vec<usize> = [0.0, 0.12, 0.25, 0.5, 1.0]
        .iter()
        .map(|f| (f * steps as f64).round() as usize)
        .collect();

    let look = |i: usize, b: &tumble::BodyView<'_>| match b.kind() {
        BodyKind::Static if i == n => Look::Solid(RGBColor(200, 200, 200)),
        BodyKind::Static => Look::Wire(RGBColor(90, 90, 90)),
        _ => Look::Solid(body_colour(i)),
    };
    let mut snaps = Vec::new();
    let mut energy = Vec::with_capacity(steps + 1);
    let kinetic =
        |w: &tumble::World| -> f64 { w.bodies().map(|(_, b)| f64::from(b.kinetic_energy())).sum() };
    for k in 0..=steps {
        if snap_at.contains(&k) && snaps.len() < snap_at.len() {
            snaps.push((k as f64 * dt, snapshot(&world, &handles, look)));
        }
        energy.push((k as f64 * dt, kinetic(&world)));
        if k < steps {
            world.step();
        }
    }

    // Summary.
    let dynamic: Vec<_> = handles
        .iter()
        .zip(&scene.bodies)
        .filter(|(_, s)| s.motion == Motion::Dynamic)
        .map(|(h, _)| *h)
        .collect();
    let max_speed = dynamic
        .iter()
        .filter_map(|h| world.body(*h))
        .map(|b| b.linvel().norm())
        .fold(0.0f32, f32::max);
    let inside = scene.inside;
    let escaped = dynamic
        .iter()
        .filter_map(|h| world.body(*h))
        .filter(|b| {
            let t = b.translation();
            !inside.contains([f64::from(t.x), f64::from(t.y), f64::from(t.z)])
        })
        .count();
    let top = dynamic
        .iter()
        .filter_map(|h| world.body(*h))
        .map(|b| b.translation().y)
        .fold(f32::MIN, f32::max);
    println!(
        "box_rain: {n} boxes, {steps} steps of {:.4} s ({:.1} s simulated)",
        dt,
        steps as f64 * dt
    );
    let peak = energy.iter().map(|e| e.1).fold(0.0, f64::max);
    println!(
        "  kinetic energy: start {:.1} J, peak {peak:.1} J, end {:.4} J ({:.1e} of the peak)",
        energy[0].1,
        energy[steps].1,
        energy[steps].1 / peak.max(1e-12)
    );
    println!(
        "  fastest box at the end: {max_speed:.4} m/s ({})",
        if max_speed < 0.1 {
            "at rest"
        } else {
            "still moving"
        }
    );
    println!("  highest box centre {top:.2} m, escaped boxes {escaped}");

    // Picture: snapshots on top, energy below.
    let path = dir.join("box_rain.svg");
    let (width, height) = (1500u32, 700u32);
    let root = svg_canvas(&path, width, height)?;
    let (top_area, bottom) = root.split_vertically(460);
    let camera = Camera::new(30.0, 28.0);
    let panels = top_area.split_evenly((1, snaps.len()));
    // Fit the view to the boxes and the floor; the tall walls may run off the top.
    let all_points: Vec<[f64; 3]> = snaps[0]
        .1
        .iter()
        .filter(|item| matches!(item.look, Look::Solid(_)))
        .flat_map(item_points)
        .collect();
    let (pw, ph) = panels[0].dim_in_pixel();
    let viewport = Viewport::fit(&camera, &all_points, pw, ph, 14.0);
    for (panel, (t, items)) in panels.iter().zip(&snaps) {
        draw_items(panel, &camera, &viewport, items)?;
        label(panel, &format!("t = {t:.2} s"), (10, 8), 16)?;
    }
    let emax = energy.iter().map(|e| e.1).fold(1e-9, f64::max);
    let mut chart = ChartBuilder::on(&bottom)
        .margin(12)
        .caption(
            "total kinetic energy of the boxes (J, log scale)",
            ("sans-serif", 16),
        )
        .x_label_area_size(35)
        .y_label_area_size(60)
        .build_cartesian_2d(
            0.0..steps as f64 * dt,
            (emax * 1e-6..emax * 2.0).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc("J")
        .draw()?;
    chart.draw_series(LineSeries::new(
        energy.iter().map(|&(t, e)| (t, e.max(emax * 1e-6))),
        BLUE.stroke_width(2),
    ))?;
    for (t, _) in &snaps {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(*t, emax * 1e-6), (*t, emax * 2.0)],
            BLACK.mix(0.3),
        )))?;
    }
    root.present()?;
    println!("  picture: {}", path.display());
    Ok(())
}
