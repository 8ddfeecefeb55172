//! The separating axis theorem, drawn like a textbook figure: two convex shapes are disjoint
//! exactly when some axis exists on which their shadows (projection intervals) do not overlap
//! (Ericson, *Real-Time Collision Detection*, §4.4 and §5.2.1). For polygons the candidates are
//! the edge normals of both; for boxes the 3 face normals of each and the 9 cross products of
//! an edge of one with an edge of the other.
//!
//! Each panel shows both shapes, the axis the narrow phase's SAT reports (planar:
//! `polygon_polygon`; boxes: `sat::cuboid_cuboid::obb_obb`), both shadows on it, and dashed lines
//! from the extreme corners down to the shadows' ends. Cases: polygons apart by an edge of A,
//! by an edge of B, touching, overlapping (the axis of least penetration); boxes apart by a
//! face, apart only by an edge × edge axis, touching. Leaves `separating_axis.svg`.
//!
//! `cargo run --release -p tumble-examples --example separating_axis [-- --out DIR]`

use clap::Parser;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use std::f64::consts::FRAC_1_SQRT_2;
use std::process::ExitCode;
use tumble::math::{Isometry, Matrix, Point2, Rotation, Translation, Vector};
use tumble::narrowphase::planar::{polygon_polygon, Axis, ConvexPolygon};
use tumble::narrowphase::sat::cuboid_cuboid::obb_obb;
use tumble::narrowphase::sat::SeparatingAxis;
use tumble::narrowphase::shape::Obb;
use tumble::{Cuboid, Shape};
use tumble_examples::view::{
    body_colour, draw_items, label, svg_canvas, Camera, Item, Look, Viewport,
};
use tumble_examples::{out_dir, run_example, ExampleResult, OutArgs};

/// Separating axes and shadows of polygons and boxes.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    #[command(flatten)]
    out: OutArgs,
}

fn main() -> ExitCode {
    run_example("separating_axis", || run(Args::parse()))
}

/// How a shape of a figure is drawn.
enum Body {
    /// A planar polygon (z = 0), its corners.
    Polygon(Vec<[f64; 3]>),
    /// A box, drawn solid, with its eight corners.
    Box(Item, Vec<[f64; 3]>),
}

impl Body {
    fn corners(&self) -> &[[f64; 3]] {
        match self {
            Body::Polygon(c) | Body::Box(_, c) => c,
        }
    }
}

/// One panel: two shapes, an axis (unit, from A toward B) and what the test said.
struct Figure {
    title: String,
    verdict: String,
    camera: Camera,
    shapes: [Body; 2],
    axis: [f64; 3],
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn scale(a: [f64; 3], k: f64) -> [f64; 3] {
    [a[0] * k, a[1] * k, a[2] * k]
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn normalize(a: [f64; 3]) -> [f64; 3] {
    let n = dot(a, a).sqrt();
    if n > 1e-12 {
        scale(a, 1.0 / n)
    } else {
        [1.0, 0.0, 0.0]
    }
}

fn v3(v: &Vector) -> [f64; 3] {
    [f64::from(v.x), f64::from(v.y), f64::from(v.z)]
}

/// The shadow of `corners` on the axis `l`: (min, max, index of the min corner, of the max).
fn shadow(corners: &[[f64; 3]], l: [f64; 3]) -> (f64, f64, usize, usize) {
    let mut s = (f64::INFINITY, f64::NEG_INFINITY, 0, 0);
    for (i, c) in corners.iter().enumerate() {
        let t = dot(*c, l);
        if t < s.0 {
            (s.0, s.2) = (t, i);
        }
        if t > s.1 {
            (s.1, s.3) = (t, i);
        }
    }
    s
}

fn polygon(points: &[(f32, f32)]) -> ExampleResult<ConvexPolygon> {
    let pts: Vec<Point2> = points.iter().map(|&(x, y)| Point2::new(x, y)).collect();
    Ok(ConvexPolygon::new(&pts)?)
}

fn planar_figure(a: &ConvexPolygon, b: &ConvexPolygon) -> Figure {
    let r = polygon_polygon(a, b);
    let side = match r.axis {
        Axis::EdgeOfA(_) | Axis::CornerOfA(_) => "A",
        Axis::EdgeOfB(_) => "B",
    };
    let title = if r.separation > 0.0 {
        format!("polygons apart by an edge of {side}")
    } else if r.separation == 0.0 {
        "polygons touching along an edge".to_string()
    } else {
        format!("polygons overlapping (least depth on an edge of {side})")
    };
    let corners = |p: &ConvexPolygon| {
        p.corners()
            .iter()
            .map(|c| [f64::from(c.x), f64::from(c.y), 0.0])
            .collect::<Vec<_>>()
    };
    let axis = [f64::from(r.normal.x), f64::from(r.normal.y), 0.0];
    let verdict = if r.separation > 0.0 {
        format!("separated by {:?}: gap {:.3} m", r.axis, r.separation)
    } else if r.separation == 0.0 {
        format!(
            "touching (counts as intersecting): best axis {:?}, gap 0",
            r.axis
        )
    } else {
        format!(
            "overlapping by {:.3} m: least-penetration axis {:?}",
            -r.separation, r.axis
        )
    };
    Figure {
        title,
        verdict,
        camera: Camera::front(),
        shapes: [Body::Polygon(corners(a)), Body::Polygon(corners(b))],
        axis,
    }
}

/// A box of half-extents `half` at `centre` with rotation columns `axes` (right-handed).
fn obb(
    half: [f32; 3],
    centre: [f32; 3],
    axes: Option<[Vector; 3]>,
) -> ExampleResult<(Obb, Item, Vec<[f64; 3]>, usize)> {
    let rot = axes.map_or_else(Rotation::identity, |a| {
        Rotation::from_rotation_matrix(&nalgebra::Rotation3::from_matrix_unchecked(
            Matrix::from_columns(&a),
        ))
    });
    let cuboid = Cuboid::new(Vector::new(half[0], half[1], half[2]))?;
    let pose = Isometry::from_parts(Translation::new(centre[0], centre[1], centre[2]), rot);
    let o = Obb::from_cuboid(&cuboid, &pose);
    let corners = o.corners().iter().map(|c| v3(&c.coords)).collect();
    let item = Item {
        shape: Shape::from(cuboid),
        pose,
        look: Look::Solid(RGBColor(0, 0, 0)),
    };
    Ok((o, item, corners, 0))
}

fn box_figure(
    title: &str,
    camera: Camera,
    a: (Obb, Item, Vec<[f64; 3]>, usize),
    b: (Obb, Item, Vec<[f64; 3]>, usize),
) -> Figure {
    let (oa, mut ia, ca, _) = a;
    let (ob, mut ib, cb, _) = b;
    ia.look = Look::Solid(body_colour(0));
    ib.look = Look::Solid(body_colour(1));
    let report = obb_obb(&oa, &ob);
    let (axis, verdict) = match report {
        Some(r) => {
            let l = match r.axis {
                SeparatingAxis::FaceA(i) => v3(&oa.axis(usize::from(i))),
                SeparatingAxis::FaceB(j) => v3(&ob.axis(usize::from(j))),
                SeparatingAxis::EdgeEdge(i, j) => normalize(cross(
                    v3(&oa.axis(usize::from(i))),
                    v3(&ob.axis(usize::from(j))),
                )),
                SeparatingAxis::InPlaneA(_) | SeparatingAxis::InPlaneB(_) => [1.0, 0.0, 0.0],
            };
            (l, format!("separated by {r}"))
        }
        None => (
            v3(&oa.axis(0)),
            "no axis of the 15 separates: touching counts as intersecting (shown on face 1 of A)"
                .to_string(),
        ),
    };
    // Orient the axis from A toward B.
    let towards_b = v3(&(ob.center() - oa.center()));
    let axis = if dot(axis, towards_b) < 0.0 {
        scale(axis, -1.0)
    } else {
        axis
    };
    Figure {
        title: title.to_string(),
        verdict,
        camera,
        shapes: [Body::Box(ia, ca), Body::Box(ib, cb)],
        axis,
    }
}

/// Draws one figure into `area`; returns the gap between the shadows (B's min − A's max).
fn draw_figure<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    fig: &Figure,
) -> Result<f64, DrawingAreaErrorKind<DB::ErrorType>> {
    let l = fig.axis;
    let all: Vec<[f64; 3]> = fig
        .shapes
        .iter()
        .flat_map(|s| s.corners().iter().copied())
        .collect();
    let centre = scale(
        all.iter().fold([0.0; 3], |acc, c| add(acc, *c)),
        1.0 / all.len() as f64,
    );
    // The axis line runs beside the shapes: offset along o, perpendicular to L and to the view.
    let mut o = normalize(cross(l, fig.camera.toward_viewer()));
    if dot(
        cross(l, fig.camera.toward_viewer()),
        cross(l, fig.camera.toward_viewer()),
    ) < 1e-9
    {
        o = normalize(cross(l, [0.0, 0.0, 1.0]));
    }
    // Put the line on the side of o that points down the picture.
    if fig.camera.project(o)[1] > 0.0 {
        o = scale(o, -1.0);
    }
    let reach = all
        .iter()
        .map(|c| dot(add(*c, scale(centre, -1.0)), o))
        .fold(0.0f64, |m, d| m.max(d.abs()));
    let c_perp = add(centre, scale(l, -dot(centre, l)));
    let base = add(c_perp, scale(o, reach + 0.9));
    let on_line = |t: f64, lift: f64| add(add(base, scale(l, t)), scale(o, -lift));
    let shadows: Vec<_> = fig.shapes.iter().map(|s| shadow(s.corners(), l)).collect();
    let (tmin, tmax) = shadows
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), s| {
            (a.min(s.0), b.max(s.1))
        });

    let (w, h) = area.dim_in_pixel();
    let mut fit = all.clone();
    fit.push(on_line(tmin - 0.6, 0.0));
    fit.push(on_line(tmax + 0.6, 0.0));
    let vp = Viewport::fit(&fig.camera, &fit, w, h.saturating_sub(70), 24.0).shifted(0.0, 34.0);
    let px = |p: [f64; 3]| vp.pixel(fig.camera.project(p));

    // Shapes.
    let mut items = Vec::new();
    for (k, s) in fig.shapes.iter().enumerate() {
        match s {
            Body::Polygon(c) => {
                let pts: Vec<(i32, i32)> = c.iter().map(|p| px(*p)).collect();
                area.draw(&Polygon::new(
                    pts.clone(),
                    body_colour(k).mix(0.35).filled(),
                ))?;
                let mut closed = pts;
                closed.push(closed[0]);
                area.draw(&PathElement::new(closed, body_colour(k).stroke_width(2)))?;
            }
            Body::Box(item, _) => items.push(item.clone()),
        }
    }
    if !items.is_empty() {
        draw_items(area, &fig.camera, &vp, &items)?;
    }
    // The axis, the shadows and the projection lines.
    area.draw(&PathElement::new(
        vec![px(on_line(tmin - 0.5, 0.0)), px(on_line(tmax + 0.5, 0.0))],
        BLACK.stroke_width(1),
    ))?;
    let tip = px(on_line(tmax + 0.5, 0.0));
    label(area, "L", (tip.0 + 4, tip.1 - 8), 16)?;
    for (k, (s, shape)) in shadows.iter().zip(&fig.shapes).enumerate() {
        let lift = if k == 0 { 0.06 } else { -0.06 };
        let colour = body_colour(k);
        area.draw(&PathElement::new(
            vec![px(on_line(s.0, lift)), px(on_line(s.1, lift))],
            colour.stroke_width(6),
        ))?;
        for (t, idx) in [(s.0, s.2), (s.1, s.3)] {
            let corner = shape.corners()[idx];
            area.draw(&DashedPathElement::new(
                vec![px(corner), px(on_line(t, lift))],
                5,
                4,
                colour.mix(0.8).stroke_width(1),
            ))?;
        }
    }
    label(area, &fig.title, (10, 6), 16)?;
    let gap = shadows[1].0 - shadows[0].1;
    let gap_text = if gap.abs() < 1e-6 {
        "shadows touch (gap 0)".to_string()
    } else if gap > 0.0 {
        format!("shadows apart by {gap:.3} m")
    } else {
        format!("shadows overlap by {:.3} m", -gap)
    };
    label(area, &fig.verdict, (10, h as i32 - 44), 13)?;
    label(area, &gap_text, (10, h as i32 - 24), 13)?;
    area.draw(&Rectangle::new(
        [(0, 0), (w as i32 - 1, h as i32 - 1)],
        BLACK.mix(0.2),
    ))?;
    Ok(gap)
}

fn run(args: Args) -> ExampleResult {
    let dir = out_dir("separating_axis", args.out.out.as_deref())?;
    let hexagon = polygon(&[
        (0.0, -1.0),
        (0.9, -0.5),
        (0.9, 0.5),
        (0.0, 1.0),
        (-0.9, 0.5),
        (-0.9, -0.5),
    ])?;
    let mut figures = vec![
        planar_figure(
            &polygon(&[(-1.0, -0.8), (0.6, -0.8), (0.6, 0.8), (-1.0, 0.8)])?,
            &polygon(&[(1.7, -0.2), (2.9, 1.0), (2.0, 1.9), (0.9, 0.6)])?,
        ),
        planar_figure(&hexagon, &polygon(&[(1.3, -0.6), (2.8, -0.2), (1.6, 0.9)])?),
        planar_figure(
            &polygon(&[(-1.0, -0.8), (0.5, -0.8), (0.5, 0.8), (-1.0, 0.8)])?,
            &polygon(&[(0.5, -0.3), (1.8, -0.9), (2.1, 0.6), (0.5, 0.5)])?,
        ),
        planar_figure(&hexagon, &polygon(&[(0.6, -0.4), (2.0, -0.1), (1.2, 1.1)])?),
    ];

    // Boxes apart by a face: B turned about y and z, 0.3 m beyond A's +x face.
    let (ya, za) = (30f32.to_radians(), 20f32.to_radians());
    let rb = Rotation::from_euler_angles(0.0, ya, za);
    let axes_b = [rb * Vector::x(), rb * Vector::y(), rb * Vector::z()];
    let radius_b_on_x: f32 = (0..3).map(|i| axes_b[i].x.abs()).sum();
    figures.push(box_figure(
        "boxes apart by a face",
        Camera::new(20.0, 25.0),
        obb([1.0; 3], [0.0; 3], None)?,
        obb([1.0; 3], [1.3 + radius_b_on_x, 0.3, 0.0], Some(axes_b))?,
    ));
    // Boxes apart only by an edge × edge axis: A's edge along z at (1, −1, ·) faces B's edge
    // along (1, 1, 0)/√2 across the diagonal n = (1, −1, 0)/√2, gap g; on every face axis the
    // shadows overlap.
    let s = FRAC_1_SQRT_2 as f32;
    let n = Vector::new(s, -s, 0.0);
    let u1 = Vector::new(s, s, 0.0);
    let u2 = (n + Vector::z()) * s;
    let u3 = (n - Vector::z()) * s;
    let g = 0.25f32;
    let c = n * (2.0 * std::f32::consts::SQRT_2 + g);
    figures.push(box_figure(
        "boxes apart only by an edge × edge axis",
        Camera::new(14.0, 13.6),
        obb([1.0; 3], [0.0; 3], None)?,
        obb([1.0; 3], [c.x, c.y, c.z], Some([u1, u2, u3]))?,
    ));
    figures.push(box_figure(
        "boxes touching face to face",
        Camera::new(20.0, 25.0),
        obb([1.0; 3], [0.0; 3], None)?,
        obb([1.0, 0.6, 0.8], [2.0, 0.5, 0.3], None)?,
    ));

    let path = dir.join("separating_axis.svg");
    let root = svg_canvas(&path, 1600, 1000)?;
    let (top, bottom) = root.split_vertically(480);
    let top_panels = top.split_evenly((1, 4));
    let bottom_panels = bottom.split_evenly((1, 3));
    println!("separating_axis: first separating axis and shadows (gap = B's shadow start − A's shadow end)");
    for (fig, panel) in figures
        .iter()
        .zip(top_panels.iter().chain(bottom_panels.iter()))
    {
        let gap = draw_figure(panel, fig)?;
        println!("  {:<42} {:<80} gap {gap:+.3} m", fig.title, fig.verdict);
    }
    root.present()?;
    println!("  picture: {}", path.display());
    Ok(())
}
