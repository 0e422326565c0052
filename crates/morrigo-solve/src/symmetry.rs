//! The board's symmetry group, computed from the rules, never written per
//! game: every permutation of the points that keeps adjacency, maps lines
//! onto lines, and keeps what the rules read about particular points
//! (points named in conditions stay put; line directions are kept when a
//! rule reads them). Positions related by such a permutation have the same
//! value, so the solver stores one per orbit.
//!
//! The search is a backtracking over the points in breadth-first order:
//! once a point and a neighbour are placed, adjacency leaves few choices,
//! so boards of a few dozen points take microseconds.

use morrigo_dsl::{BinOp, Expr};
use morrigo_rules::{Prim, Rules};

/// One automorphism of the board, with byte tables to map point sets fast.
#[derive(Clone, Debug)]
pub struct Symmetry {
    /// `perm[p]` is the image of point `p`.
    pub perm: Vec<u8>,
    /// `tables[k][byte]`: the image of the points `8k..8k+8` in `byte`.
    tables: Vec<[u64; 256]>,
}

impl Symmetry {
    fn new(perm: Vec<u8>) -> Self {
        let chunks = perm.len().div_ceil(8);
        let tables = (0..chunks)
            .map(|k| {
                let mut t = [0u64; 256];
                for (byte, slot) in t.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let p = 8 * k + bit;
                        if byte >> bit & 1 == 1 && p < perm.len() {
                            *slot |= 1 << perm[p];
                        }
                    }
                }
                t
            })
            .collect();
        Symmetry { perm, tables }
    }

    /// The image of a set of points.
    #[inline]
    pub fn apply(&self, set: u64) -> u64 {
        let mut out = 0;
        for (k, t) in self.tables.iter().enumerate() {
            out |= t[(set >> (8 * k)) as usize & 255];
        }
        out
    }

    /// Whether this is the identity.
    pub fn is_identity(&self) -> bool {
        self.perm.iter().enumerate().all(|(p, &q)| p == q as usize)
    }
}

/// What the rules read about particular points and lines, so a symmetry
/// must keep it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PointConditions {
    /// Points named in a condition (`to == c3`): each maps to itself.
    pub fixed: Vec<u16>,
    /// Some rule reads a line's direction: lines keep their direction.
    pub directions: bool,
    /// Some rule reads points in a way this analysis does not follow
    /// (ordering points): only the identity is kept.
    pub opaque: bool,
}

fn point_typed(e: &Expr<Prim>) -> bool {
    matches!(e, Expr::Var(Prim::To | Prim::From | Prim::Target))
}

fn scan(e: &Expr<Prim>, out: &mut PointConditions) {
    match e {
        Expr::Const(_) => {}
        Expr::Var(p) => {
            if matches!(p, Prim::Direction | Prim::DirectionOf) {
                out.directions = true;
            }
        }
        Expr::Call(f, args) => {
            if matches!(f, Prim::DirectionOf | Prim::Direction) {
                out.directions = true;
            }
            // Functions of a point (`in_line(c3)`) called on a named point.
            if matches!(f, Prim::InLine | Prim::OwnNeighbours) {
                for a in args.iter() {
                    if let Expr::Const(c) = a {
                        out.fixed.push(*c as u16);
                    }
                }
            }
            args.iter().for_each(|a| scan(a, out));
        }
        Expr::Not(a) | Expr::Neg(a) => scan(a, out),
        Expr::Bin(op, a, b) => {
            if point_typed(a) || point_typed(b) {
                match op {
                    BinOp::Eq | BinOp::Ne => {
                        for side in [a, b] {
                            if let Expr::Const(c) = **side {
                                out.fixed.push(c as u16);
                            }
                        }
                    }
                    _ => out.opaque = true,
                }
            }
            scan(a, out);
            scan(b, out);
        }
        Expr::If(parts) => parts.iter().for_each(|p| scan(p, out)),
    }
}

/// What every condition of the rules reads about points.
pub fn point_conditions(rules: &Rules) -> PointConditions {
    let mut out = PointConditions::default();
    for c in rules.conds() {
        scan(&c.expr, &mut out);
    }
    out.fixed.sort_unstable();
    out.fixed.dedup();
    out
}

/// Whether the rules treat the two players alike, so that swapping the
/// colours of a position (and who is to move) keeps its value: every
/// condition names players only as `me` or `opponent` given to a function
/// of a player (`on_board(me)`), never a colour (`on_board(white)`,
/// `me == white`), and turns are plain ([`morrigo_engine::Machine::plain_turns`]:
/// no turn-order rule names who moves). Both players start with the same
/// hand by construction.
pub fn colour_blind(rules: &Rules, plain_turns: bool) -> bool {
    fn blind(e: &Expr<Prim>) -> bool {
        match e {
            Expr::Const(_) => true,
            // A player as a value: compared with a colour, or counted.
            Expr::Var(p) => !matches!(p, Prim::Me | Prim::Opponent),
            Expr::Call(f, args) => {
                let params = morrigo_rules::vocab::VOCABULARY
                    .iter()
                    .find(|entry| entry.prim == *f && entry.params.len() == args.len())
                    .map_or(&[][..], |entry| entry.params);
                args.iter().enumerate().all(|(i, a)| {
                    if params.get(i) == Some(&morrigo_dsl::Type::Player) {
                        matches!(a, Expr::Var(Prim::Me | Prim::Opponent))
                    } else {
                        blind(a)
                    }
                })
            }
            Expr::Not(a) | Expr::Neg(a) => blind(a),
            Expr::Bin(_, a, b) => blind(a) && blind(b),
            Expr::If(parts) => parts.iter().all(blind),
        }
    }
    plain_turns && rules.conds().all(|c| blind(&c.expr))
}

/// Every symmetry of the board under `rules`, the identity first. Boards
/// of more than 64 points get the identity alone (the sector solver
/// handles up to 64).
pub fn symmetries(rules: &Rules) -> Vec<Symmetry> {
    let t = &rules.topology;
    let n = t.len();
    let identity = || Symmetry::new((0..n as u8).collect());
    let cond = point_conditions(rules);
    if n > 64 || cond.opaque {
        return vec![identity()];
    }
    let adj: Vec<u64> = t
        .neighbours
        .iter()
        .map(|ns| ns.iter().fold(0u64, |m, &q| m | 1 << q))
        .collect();
    let mut fixed = vec![false; n];
    for &p in &cond.fixed {
        if (p as usize) < n {
            fixed[p as usize] = true;
        }
    }
    // A point's colour: what any image must share.
    let colour: Vec<(u32, usize, bool)> = (0..n)
        .map(|p| (adj[p].count_ones(), t.lines_through[p].len(), fixed[p]))
        .collect();
    let line_masks: Vec<u64> = t
        .lines
        .iter()
        .map(|l| l.iter().fold(0u64, |m, &q| m | 1 << q))
        .collect();
    let mut sorted_lines: Vec<(u64, usize)> = line_masks
        .iter()
        .enumerate()
        .map(|(i, &m)| (m, i))
        .collect();
    sorted_lines.sort_unstable();
    let order = bfs_order(n, &adj);
    let mut s = Search {
        n,
        adj: &adj,
        colour: &colour,
        fixed: &fixed,
        order: &order,
        perm: vec![u8::MAX; n],
        used: 0,
        found: Vec::new(),
        nodes: 0,
    };
    s.extend(0);
    if s.nodes > SEARCH_NODES || s.found.len() > MAX_GROUP {
        // A board this symmetric (few edges) is not worth a search: the
        // identity alone is still a group, so the solve stays exact.
        return vec![identity()];
    }
    let mut group: Vec<Symmetry> = s
        .found
        .into_iter()
        .map(Symmetry::new)
        .filter(|g| {
            line_masks.iter().enumerate().all(|(i, &m)| {
                let image = g.apply(m);
                match sorted_lines.binary_search_by_key(&image, |&(mask, _)| mask) {
                    Ok(k) => {
                        !cond.directions
                            || t.line_directions[sorted_lines[k].1] == t.line_directions[i]
                    }
                    Err(_) => false,
                }
            })
        })
        .collect();
    group.sort_by_key(|g| !g.is_identity());
    group
}

fn bfs_order(n: usize, adj: &[u64]) -> Vec<usize> {
    let mut seen = 0u64;
    let mut order = Vec::with_capacity(n);
    for start in 0..n {
        if seen >> start & 1 == 1 {
            continue;
        }
        seen |= 1 << start;
        let mut head = order.len();
        order.push(start);
        while head < order.len() {
            let p = order[head];
            head += 1;
            let mut next = adj[p] & !seen;
            while next != 0 {
                let q = next.trailing_zeros() as usize;
                next &= next - 1;
                seen |= 1 << q;
                order.push(q);
            }
        }
    }
    order
}

struct Search<'a> {
    n: usize,
    adj: &'a [u64],
    colour: &'a [(u32, usize, bool)],
    fixed: &'a [bool],
    order: &'a [usize],
    perm: Vec<u8>,
    used: u64,
    found: Vec<Vec<u8>>,
    nodes: u64,
}

/// Search steps before giving up on a board's symmetries (bounded time).
const SEARCH_NODES: u64 = 1 << 22;
/// The most symmetries kept: canonicalising costs one map per symmetry.
pub const MAX_GROUP: usize = 1 << 12;

impl Search<'_> {
    fn extend(&mut self, depth: usize) {
        self.nodes += 1;
        if self.nodes > SEARCH_NODES || self.found.len() > MAX_GROUP {
            return;
        }
        if depth == self.n {
            self.found.push(self.perm.clone());
            return;
        }
        let p = self.order[depth];
        for q in 0..self.n {
            if self.used >> q & 1 == 1 || self.colour[q] != self.colour[p] {
                continue;
            }
            if self.fixed[p] && q != p {
                continue;
            }
            let consistent = self.order[..depth].iter().all(|&r| {
                let img = self.perm[r] as usize;
                (self.adj[p] >> r & 1) == (self.adj[q] >> img & 1)
            });
            if !consistent {
                continue;
            }
            self.perm[p] = q as u8;
            self.used |= 1 << q;
            self.extend(depth + 1);
            self.used &= !(1 << q);
            self.perm[p] = u8::MAX;
        }
    }
}
