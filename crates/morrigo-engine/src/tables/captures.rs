//! The capture rules (`captures:`) as tables: for each rule and point,
//! the point pairs a move there may flank or jump. Built once with the
//! machine; [`crate::captures`] applies them.

use crate::compiled::{lower, Op};
use crate::moves::Point;
use morrigo_rules::{CaptureKind, Rules};

/// Bits (as in `Machine::armed_captures`) of the leap rules.
pub(crate) fn leap_rules(rules: &Rules) -> u64 {
    rules
        .captures
        .iter()
        .enumerate()
        .filter(|(_, c)| c.kind == CaptureKind::Leap)
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

/// One capture rule as tables.
#[derive(Debug)]
pub(crate) struct CompiledCapture {
    pub(crate) kind: CaptureKind,
    pub(crate) when: Op,
    /// For each point `p`, `pairs[start[p]..start[p + 1]]`: custodian and
    /// leap — (the middle point, the far end) of each triple with an end at
    /// `p`; intervention — the two ends of each triple centred on `p`.
    pub(crate) start: Vec<u32>,
    pub(crate) pairs: Vec<(Point, Point)>,
}

/// The triples of consecutive points of the lines in the rule's directions
/// (a line longer than three has several).
pub(crate) fn compile(rules: &Rules) -> Vec<CompiledCapture> {
    let t = &rules.topology;
    rules
        .captures
        .iter()
        .map(|rule| {
            let mut per_point: Vec<Vec<(Point, Point)>> = vec![Vec::new(); t.len()];
            let triples = t
                .lines
                .iter()
                .zip(&t.line_directions)
                .filter(|(_, d)| rule.directions.contains(d))
                .flat_map(|(line, _)| line.windows(3));
            for w in triples {
                let (a, b, c) = (w[0], w[1], w[2]);
                match rule.kind {
                    CaptureKind::Custodian | CaptureKind::Leap => {
                        per_point[usize::from(a)].push((b, c));
                        per_point[usize::from(c)].push((b, a));
                    }
                    CaptureKind::Intervention => per_point[usize::from(b)].push((a, c)),
                }
            }
            let mut start = vec![0u32];
            let mut pairs = Vec::new();
            for p in per_point {
                pairs.extend(p);
                start.push(pairs.len() as u32);
            }
            CompiledCapture {
                kind: rule.kind,
                when: lower(&rule.when.expr),
                start,
                pairs,
            }
        })
        .collect()
}
