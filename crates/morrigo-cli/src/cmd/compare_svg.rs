//! `compare --svg`: a chart of outcomes and lengths per variant, drawn with
//! plotters' SVG backend. Left: each row's games split into first-seat wins,
//! second-seat wins, draws and unfinished games. Right: game length in plies,
//! the box from Q1 to Q3 with the median, the whiskers to the shortest and
//! longest game, and the mean as a dot.

use morrigo_play::SimReport;
use plotters::prelude::*;

const ROW_HEIGHT: u32 = 34;
const COLOURS: [RGBColor; 4] = [
    RGBColor(0x4c, 0x72, 0xb0),
    RGBColor(0xdd, 0x84, 0x52),
    RGBColor(0x8c, 0x8c, 0x8c),
    RGBColor(0xd0, 0xd0, 0xd0),
];

fn row_label(r: &SimReport, mixed: bool) -> String {
    if mixed {
        format!("{} ({} vs {})", r.ruleset, r.agents[0], r.agents[1])
    } else {
        r.ruleset.clone()
    }
}

/// The chart as SVG text.
pub fn chart(reports: &[SimReport]) -> Result<String, String> {
    let mixed = reports
        .first()
        .is_some_and(|r0| reports.iter().any(|r| r.agents != r0.agents));
    let n = reports.len().max(1);
    let height = 120 + ROW_HEIGHT * n as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1200, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (left, right) = root.split_horizontally(760);
        let labels: Vec<String> = reports.iter().map(|r| row_label(r, mixed)).collect();
        let y_label = |y: &f64| -> String {
            let i = y.floor() as usize;
            if (*y - i as f64 - 0.5).abs() < 1e-6 {
                labels.get(n - 1 - i).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        let seats = reports
            .first()
            .map(|r| r.players.clone())
            .unwrap_or_default();
        let mut outcomes = ChartBuilder::on(&left)
            .caption("Outcomes (% of games)", ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(330)
            .build_cartesian_2d(0f64..100f64, 0f64..n as f64)
            .map_err(|e| e.to_string())?;
        outcomes
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(2 * n + 1)
            .y_label_formatter(&y_label)
            .draw()
            .map_err(|e| e.to_string())?;
        let names = [
            format!("{} wins", seats[0]),
            format!("{} wins", seats[1]),
            "draws".to_string(),
            "unfinished".to_string(),
        ];
        for (k, name) in names.iter().enumerate() {
            let mut bars = Vec::new();
            for (i, r) in reports.iter().enumerate() {
                let parts = [r.wins[0], r.wins[1], r.draws, r.unfinished].map(|c| r.pct(c));
                let x0: f64 = parts[..k].iter().sum();
                let y = (n - 1 - i) as f64;
                bars.push(Rectangle::new(
                    [(x0, y + 0.15), (x0 + parts[k], y + 0.85)],
                    COLOURS[k].filled(),
                ));
            }
            outcomes
                .draw_series(bars)
                .map_err(|e| e.to_string())?
                .label(name.clone())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], COLOURS[k].filled())
                });
        }
        outcomes
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;

        let longest = reports
            .iter()
            .map(|r| r.length.max)
            .max()
            .unwrap_or(1)
            .max(1);
        let mut lengths = ChartBuilder::on(&right)
            .caption("Length (plies)", ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(10)
            .build_cartesian_2d(0f64..f64::from(longest) * 1.05, 0f64..n as f64)
            .map_err(|e| e.to_string())?;
        lengths
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, r) in reports.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let l = &r.length;
            let f = f64::from;
            lengths
                .draw_series([PathElement::new(
                    vec![(f(l.min), y + 0.5), (f(l.max), y + 0.5)],
                    BLACK,
                )])
                .map_err(|e| e.to_string())?;
            lengths
                .draw_series([Rectangle::new(
                    [(f(l.q1), y + 0.2), (f(l.q3).max(f(l.q1) + 0.5), y + 0.8)],
                    COLOURS[0].mix(0.5).filled(),
                )])
                .map_err(|e| e.to_string())?;
            lengths
                .draw_series([PathElement::new(
                    vec![(f(l.median), y + 0.2), (f(l.median), y + 0.8)],
                    BLACK.stroke_width(2),
                )])
                .map_err(|e| e.to_string())?;
            lengths
                .draw_series([Circle::new((l.mean, y + 0.5), 3, COLOURS[1].filled())])
                .map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
