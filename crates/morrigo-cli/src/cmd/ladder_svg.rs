//! `ladder --svg`: each agent's draw rate and decisive rate (y, % of its
//! games) against its Elo (x), with the Elo interval as a horizontal bar:
//! how a variant's games change as the players get better.

use morrigo_play::ladder::LadderReport;
use plotters::prelude::*;

const DRAWS: RGBColor = RGBColor(0x8c, 0x8c, 0x8c);
const DECISIVE: RGBColor = RGBColor(0x4c, 0x72, 0xb0);

/// The chart as SVG text.
pub fn chart(r: &LadderReport) -> Result<String, String> {
    let mut agents: Vec<_> = r.agents.iter().collect();
    agents.sort_by(|a, b| a.elo.total_cmp(&b.elo));
    // The x range holds every interval that is finite, with a margin.
    let finite = |x: f64| x.is_finite().then_some(x);
    let lo = agents
        .iter()
        .filter_map(|a| finite(a.elo_ci95[0]))
        .fold(-100.0f64, f64::min);
    let hi = agents
        .iter()
        .filter_map(|a| finite(a.elo_ci95[1]))
        .fold(100.0f64, f64::max);
    let margin = (hi - lo) * 0.05;
    let (x0, x1) = (lo - margin, hi + margin);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{}: draws and decisive games against strength", r.ruleset),
                ("sans-serif", 18),
            )
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(x0..x1, 0f64..105f64)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("Elo (mean 0), bars: 95% interval")
            .y_desc("% of the agent's games")
            .draw()
            .map_err(|e| e.to_string())?;
        for (name, colour, value) in [
            ("draw rate", DRAWS, 0usize),
            ("decisive rate", DECISIVE, 1usize),
        ] {
            let y = |a: &morrigo_play::ladder::AgentRow| {
                if value == 0 {
                    a.draw_pct()
                } else {
                    a.decisive_pct()
                }
            };
            let points: Vec<(f64, f64)> = agents.iter().map(|a| (a.elo, y(a))).collect();
            chart
                .draw_series([PathElement::new(points.clone(), colour.stroke_width(2))])
                .map_err(|e| e.to_string())?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour));
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 5, colour.filled())))
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(agents.iter().filter_map(|a| {
                    let [l, h] = a.elo_ci95;
                    (l.is_finite() && h.is_finite())
                        .then(|| PathElement::new(vec![(l, y(a)), (h, y(a))], colour.mix(0.4)))
                }))
                .map_err(|e| e.to_string())?;
        }
        // Agent names above the higher of their two points.
        chart
            .draw_series(agents.iter().map(|a| {
                let top = a.draw_pct().max(a.decisive_pct()).min(97.0);
                Text::new(
                    a.agent.to_string(),
                    (a.elo, top + 3.0),
                    ("sans-serif", 13).into_font(),
                )
            }))
            .map_err(|e| e.to_string())?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::MiddleRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
