//! Checks a [`RawBoard`] with a petgraph graph and compiles it to flat tables.

use std::collections::{HashMap, HashSet};

use morrigo_diag::{did_you_mean, Location};
use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::visit::Bfs;

use crate::error::{BoardError, Usage};
use crate::generate::RawBoard;
use crate::{LineDirection, Named, PointId, Topology};

/// Ids and line indices are u16; keep every index representable.
const MAX_POINTS: usize = u16::MAX as usize;
const MAX_LINES: usize = u16::MAX as usize;

/// Edge weights remember where the edge was first written, for duplicate notes.
type Graph = UnGraph<(), Option<Location>>;

pub(crate) fn compile(raw: RawBoard) -> Result<Topology, BoardError> {
    let ids = index_points(&raw.nodes)?;
    let coords = coordinates(&raw.nodes)?;
    let graph = build_graph(&raw, &ids)?;
    let lines = check_lines(&raw, &ids, &graph)?;
    check_connected(&graph, &raw.nodes)?;
    Ok(tables(raw, ids, coords, &graph, lines))
}

/// Name -> id, rejecting empty boards, bad names and duplicates.
fn index_points(
    nodes: &[(Named, Option<(i32, i32)>)],
) -> Result<HashMap<String, PointId>, BoardError> {
    if nodes.is_empty() {
        return Err(BoardError::Empty { at: None });
    }
    if nodes.len() > MAX_POINTS {
        let at = nodes.get(MAX_POINTS).and_then(|(n, _)| n.at.clone());
        return Err(BoardError::TooManyPoints {
            count: nodes.len(),
            max: MAX_POINTS,
            at,
        });
    }
    let mut ids: HashMap<String, PointId> = HashMap::with_capacity(nodes.len());
    for (id, (named, _)) in numbered(nodes) {
        check_name(named)?;
        if let Some(&first) = ids.get(&named.name) {
            return Err(BoardError::DuplicatePoint {
                name: named.name.clone(),
                at: named.at.clone(),
                first: nodes
                    .get(usize::from(first))
                    .and_then(|(n, _)| n.at.clone())
                    .map(Box::new),
            });
        }
        ids.insert(named.name.clone(), id);
    }
    Ok(ids)
}

/// Items with u16 indices; callers have checked the length fits, and a
/// plain `(0u16..).zip(..)` would overflow after the last index.
fn numbered<T>(items: &[T]) -> impl Iterator<Item = (u16, &T)> {
    items
        .iter()
        .enumerate()
        .filter_map(|(i, x)| Some((u16::try_from(i).ok()?, x)))
}

/// Names are written in move records, which separate moves with spaces,
/// `,` and `;`, moves from their parts with `-` and `:`, and tokenize on
/// ASCII letters, digits and `_`; `pass` and `resign` are move words.
fn check_name(named: &Named) -> Result<(), BoardError> {
    let bad = named.name.is_empty()
        || !named
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        || ["pass", "resign"]
            .iter()
            .any(|w| named.name.eq_ignore_ascii_case(w));
    if bad {
        return Err(BoardError::BadName {
            name: named.name.clone(),
            at: named.at.clone(),
        });
    }
    Ok(())
}

/// All points have coordinates, or none do (a mix is almost surely a slip).
fn coordinates(
    nodes: &[(Named, Option<(i32, i32)>)],
) -> Result<Option<Vec<(i32, i32)>>, BoardError> {
    let with = nodes.iter().find(|(_, c)| c.is_some());
    let without = nodes.iter().find(|(_, c)| c.is_none());
    match (with, without) {
        (Some((other, _)), Some((named, _))) => Err(BoardError::MissingCoords {
            name: named.name.clone(),
            other: other.name.clone(),
            at: named.at.clone(),
        }),
        (Some(_), None) => Ok(Some(nodes.iter().filter_map(|(_, c)| *c).collect())),
        _ => Ok(None),
    }
}

/// Name lookup; suggestions come from the nodes in definition order, so the
/// same board always gets the same suggestion.
fn lookup(
    raw: &RawBoard,
    ids: &HashMap<String, PointId>,
    named: &Named,
    usage: Usage,
) -> Result<PointId, BoardError> {
    ids.get(&named.name)
        .copied()
        .ok_or_else(|| BoardError::UnknownPoint {
            name: named.name.clone(),
            usage,
            at: named.at.clone(),
            suggestion: did_you_mean(&named.name, raw.nodes.iter().map(|(n, _)| n.name.as_str()))
                .map(String::from),
            hint: None,
        })
}

fn node(p: PointId) -> NodeIndex {
    NodeIndex::new(usize::from(p))
}

fn build_graph(raw: &RawBoard, ids: &HashMap<String, PointId>) -> Result<Graph, BoardError> {
    let mut graph = Graph::with_capacity(raw.nodes.len(), raw.edges.len());
    for _ in &raw.nodes {
        graph.add_node(());
    }
    for (a, b) in &raw.edges {
        let (pa, pb) = (
            lookup(raw, ids, a, Usage::Edge)?,
            lookup(raw, ids, b, Usage::Edge)?,
        );
        if pa == pb {
            return Err(BoardError::SelfEdge {
                name: a.name.clone(),
                at: b.at.clone().or_else(|| a.at.clone()),
            });
        }
        if let Some(e) = graph.find_edge(node(pa), node(pb)) {
            return Err(BoardError::DuplicateEdge {
                a: a.name.clone(),
                b: b.name.clone(),
                at: a.at.clone(),
                first: graph.edge_weight(e).cloned().flatten().map(Box::new),
            });
        }
        graph.add_edge(node(pa), node(pb), a.at.clone());
    }
    Ok(graph)
}

fn check_lines(
    raw: &RawBoard,
    ids: &HashMap<String, PointId>,
    graph: &Graph,
) -> Result<Vec<Vec<PointId>>, BoardError> {
    if raw.lines.len() > MAX_LINES {
        let at = raw
            .lines
            .get(MAX_LINES)
            .and_then(|l| l.first())
            .and_then(|n| n.at.clone());
        return Err(BoardError::TooManyLines {
            count: raw.lines.len(),
            max: MAX_LINES,
            at,
        });
    }
    let mut seen: HashMap<Vec<PointId>, Option<Location>> = HashMap::new();
    let mut lines = Vec::with_capacity(raw.lines.len());
    for line in &raw.lines {
        let points = check_line(raw, line, ids, graph)?;
        let at = line.first().and_then(|n| n.at.clone());
        if let Some(first) = seen.insert(unordered(&points), at.clone()) {
            return Err(BoardError::DuplicateLine {
                line: join(line),
                at,
                first: first.map(Box::new),
            });
        }
        lines.push(points);
    }
    Ok(lines)
}

/// One line: at least 2 known points, none twice, consecutive ones adjacent.
fn check_line(
    raw: &RawBoard,
    line: &[Named],
    ids: &HashMap<String, PointId>,
    graph: &Graph,
) -> Result<Vec<PointId>, BoardError> {
    if line.len() < 2 {
        return Err(BoardError::ShortLine {
            len: line.len(),
            at: line.first().and_then(|n| n.at.clone()),
        });
    }
    let mut points = Vec::with_capacity(line.len());
    let mut seen = HashSet::new();
    for named in line {
        let p = lookup(raw, ids, named, Usage::Line)?;
        if !seen.insert(p) {
            return Err(BoardError::RepeatedInLine {
                name: named.name.clone(),
                at: named.at.clone(),
            });
        }
        points.push(p);
    }
    for (pair, names) in points.windows(2).zip(line.windows(2)) {
        if graph.find_edge(node(pair[0]), node(pair[1])).is_none() {
            return Err(BoardError::NotAPath {
                a: names[0].name.clone(),
                b: names[1].name.clone(),
                at: names[1].at.clone(),
            });
        }
    }
    Ok(points)
}

/// The same line read either way round.
fn unordered(points: &[PointId]) -> Vec<PointId> {
    let mut key = points.to_vec();
    if key.first() > key.last() {
        key.reverse();
    }
    key
}

fn join(line: &[Named]) -> String {
    line.iter()
        .map(|n| n.name.as_str())
        .collect::<Vec<_>>()
        .join("-")
}

/// Names the first point (in id order) that a BFS from point 0 cannot reach.
fn check_connected(graph: &Graph, nodes: &[(Named, Option<(i32, i32)>)]) -> Result<(), BoardError> {
    if petgraph::algo::connected_components(graph) <= 1 {
        return Ok(());
    }
    let mut reached = vec![false; graph.node_count()];
    let mut bfs = Bfs::new(graph, NodeIndex::new(0));
    while let Some(n) = bfs.next(graph) {
        if let Some(r) = reached.get_mut(n.index()) {
            *r = true;
        }
    }
    let lost = reached.iter().position(|r| !r).and_then(|i| nodes.get(i));
    match (lost, nodes.first()) {
        (Some((lost, _)), Some((from, _))) => Err(BoardError::Disconnected {
            unreachable: lost.name.clone(),
            from: from.name.clone(),
            at: lost.at.clone(),
        }),
        _ => Ok(()),
    }
}

fn tables(
    raw: RawBoard,
    by_name: HashMap<String, PointId>,
    coords: Option<Vec<(i32, i32)>>,
    graph: &Graph,
    lines: Vec<Vec<PointId>>,
) -> Topology {
    let n = raw.nodes.len();
    let neighbours: Vec<Vec<PointId>> = (0..n)
        .map(|i| {
            let mut ns: Vec<PointId> = graph
                .neighbors(NodeIndex::new(i))
                .filter_map(|m| PointId::try_from(m.index()).ok())
                .collect();
            ns.sort_unstable();
            ns
        })
        .collect();
    let mut lines_through = vec![Vec::new(); n];
    for (li, line) in numbered(&lines) {
        for &p in line {
            if let Some(through) = lines_through.get_mut(usize::from(p)) {
                through.push(li);
            }
        }
    }
    let has_coords = coords.is_some();
    let coords = coords.unwrap_or_else(|| (0..).zip(0..n).map(|(x, _)| (x, 0)).collect());
    let line_directions = lines
        .iter()
        .map(|line| {
            if !has_coords {
                return LineDirection::Unknown;
            }
            let at: Vec<(i32, i32)> = line.iter().map(|&p| coords[usize::from(p)]).collect();
            LineDirection::of(&at, raw.cross_axis)
        })
        .collect();
    let (width, height) = raw.size.unwrap_or_else(|| bounding_box(&coords));
    Topology {
        names: raw.nodes.into_iter().map(|(n, _)| n.name).collect(),
        coords,
        has_coords,
        neighbours,
        lines,
        lines_through,
        line_directions,
        width,
        height,
        naming: raw.naming,
        by_name,
        edges: graph.edge_count(),
    }
}

fn bounding_box(coords: &[(i32, i32)]) -> (u32, u32) {
    (
        span(coords.iter().map(|c| c.0)),
        span(coords.iter().map(|c| c.1)),
    )
}

fn span(vals: impl Iterator<Item = i32> + Clone) -> u32 {
    match (vals.clone().min(), vals.max()) {
        (Some(lo), Some(hi)) => {
            u32::try_from(i64::from(hi) - i64::from(lo) + 1).unwrap_or(u32::MAX)
        }
        _ => 0,
    }
}
