//! The path from the start of the game to the node being searched, and the
//! transposition key derived from it.
//!
//! **Epochs.** The path is cut into epochs at every move that removes
//! stones (a capture or a removed suicide). Within an epoch no stone
//! leaves the board, so each board of the epoch lies between its first
//! board `B` and its last `T` in the subset order of coloured stones.
//!
//! **Skeleton.** Rules that read earlier boards (superko, board
//! occurrence counts) are keyed by the multiset of the epochs' end boards
//! `(B, T)` with what the rules can ask of them (the sides to move seen
//! with them under situational superko, whether they are board-play
//! results, the prisoners while they stood) — not by the boards in
//! between, so orders of the same non-capturing moves share a key.
//!
//! **Guard.** A board `Y` the rules look up that lies strictly inside an
//! epoch's interval (`B ⊊ Y ⊊ T`) may be an omitted board on one path and
//! absent on another with the same key, so the answer is not a function
//! of the key: every path node whose skeleton omits it is tainted
//! ([`PathStack::taint_threshold`]), and a tainted node's value is never
//! stored. Any other board `Y` is on either both paths or neither (it is an
//! end board, counted the same, or outside every interval), so the value
//! of an untainted node holds for every path with its key.

use super::keyspec::{ClassWindow, KeySpec};
use crate::symmetry::Symmetry;
use morrigo_engine::{Bits, Machine, Move, MoveKind, State};
use morrigo_rules::Superko;

/// A 128-bit key accumulator: two independent 64-bit mixes, so a wrong
/// transposition needs both halves to collide.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Key128 {
    a: u64,
    b: u64,
}

const SEED_A: u64 = 0x6d6f_7272_6967_6f31;
const SEED_B: u64 = 0x9e37_79b9_7f4a_7c15;

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Key128 {
    pub(crate) fn new(tag: u64) -> Self {
        Key128 {
            a: mix(SEED_A ^ tag),
            b: mix(SEED_B.wrapping_add(tag)),
        }
    }

    pub(crate) fn feed(&mut self, v: u64) {
        self.a = mix(self.a.rotate_left(23) ^ v).wrapping_add(SEED_B);
        self.b = mix(self.b.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ v ^ SEED_A);
    }

    pub(crate) fn feed128(&mut self, v: u128) {
        self.feed(v as u64);
        self.feed((v >> 64) as u64);
    }

    pub(crate) fn get(self) -> u128 {
        (u128::from(self.a) << 64) | u128::from(self.b)
    }
}

/// A board symmetry applied to point sets and moves (boards of up to 64
/// points; larger ones keep the identity alone).
#[derive(Clone, Debug)]
pub(crate) struct BoardMap {
    perm: Vec<u16>,
    inverse: Vec<u16>,
    /// `None`: the identity.
    sym: Option<Symmetry>,
}

impl BoardMap {
    fn identity(n: usize) -> Self {
        let perm: Vec<u16> = (0..n as u16).collect();
        BoardMap {
            inverse: perm.clone(),
            perm,
            sym: None,
        }
    }

    fn new(sym: Symmetry) -> Self {
        if sym.is_identity() {
            return Self::identity(sym.perm.len());
        }
        let perm: Vec<u16> = sym.perm.iter().map(|&q| u16::from(q)).collect();
        let mut inverse = vec![0; perm.len()];
        for (p, &q) in perm.iter().enumerate() {
            inverse[q as usize] = p as u16;
        }
        BoardMap {
            perm,
            inverse,
            sym: Some(sym),
        }
    }

    fn bits<const W: usize>(&self, b: &Bits<W>) -> Bits<W> {
        match &self.sym {
            None => *b,
            // Symmetries exist for boards of up to 64 points: one word.
            Some(sym) => {
                let mut out = Bits::EMPTY;
                out.0[0] = sym.apply(b.0[0]);
                out
            }
        }
    }

    pub(crate) fn board<const W: usize>(&self, occ: &[Bits<W>; 2]) -> [Bits<W>; 2] {
        [self.bits(&occ[0]), self.bits(&occ[1])]
    }

    /// A board's image under the inverse map.
    pub(crate) fn board_back<const W: usize>(&self, occ: &[Bits<W>; 2]) -> [Bits<W>; 2] {
        if self.sym.is_none() {
            return *occ;
        }
        occ.map(|colour| {
            let mut out = Bits::EMPTY;
            colour
                .iter()
                .for_each(|q| out.set(usize::from(self.inverse[q])));
            out
        })
    }

    /// A move's image (`inverse`: under the inverse map).
    pub(crate) fn mv(&self, mv: Move, inverse: bool) -> Move {
        if mv.kind != MoveKind::Play {
            return mv;
        }
        let table = if inverse { &self.inverse } else { &self.perm };
        Move::play(table[mv.to as usize])
    }
}

pub(crate) fn board_hash<const W: usize>(occ: &[Bits<W>; 2]) -> u128 {
    let mut k = Key128::new(1);
    for colour in occ {
        for w in colour.0 {
            k.feed(w);
        }
    }
    k.get()
}

/// `a ⊊ b` for both colours together.
fn strictly_within<const W: usize>(a: &[Bits<W>; 2], b: &[Bits<W>; 2]) -> bool {
    a[0].within(&b[0]) && a[1].within(&b[1]) && a != b
}

#[derive(Clone, Copy, Debug)]
struct PathNode<const W: usize> {
    occ: [Bits<W>; 2],
    board: u128,
    to_move: u8,
    stones: u32,
    /// The board is a board play's result.
    by_play: bool,
}

/// The identity first, then the board's symmetries under the rules (the
/// game is the same seen through any of them, history included).
fn board_maps<const W: usize>(m: &Machine<W>) -> Vec<BoardMap> {
    if m.points() > 64 {
        return vec![BoardMap::identity(m.points())];
    }
    crate::symmetry::symmetries(&m.rules)
        .into_iter()
        .map(BoardMap::new)
        .collect()
}

#[derive(Clone, Copy, Debug)]
struct Epoch {
    /// Index of its first node.
    start: usize,
    /// Its first board is a board-play result (not the game's start).
    by_play: bool,
    /// Prisoners while it stood (they change only by removals).
    captured: [u32; 2],
}

/// The path's boards, epochs and key parts, pushed and popped with the
/// search's `apply` and `undo` (node `i` is the position after `i` moves).
#[derive(Clone, Debug)]
pub(crate) struct PathStack<const W: usize> {
    spec: KeySpec,
    nodes: Vec<PathNode<W>>,
    epochs: Vec<Epoch>,
    /// `closed[k]`: the wrapping sum of the records of epochs `0..k`.
    closed: Vec<u128>,
    /// Rolling hash of the class history per node (`ClassWindow::Whole`).
    classes: Vec<u128>,
    maps: Vec<BoardMap>,
    /// Per node, its board's hash seen through each map.
    mapped: Vec<u128>,
    /// `closed_mapped[k * maps + j]`: `closed[k]` seen through map `j`.
    closed_mapped: Vec<u128>,
}

impl<const W: usize> PathStack<W> {
    /// The path of `s`, a state with no move made yet, keyed up to the
    /// board's symmetries when `symmetric`.
    pub(crate) fn new(spec: KeySpec, m: &Machine<W>, s: &State<W>, symmetric: bool) -> Self {
        let mut maps = board_maps(m);
        if !symmetric {
            maps.truncate(1);
        }
        let mut path = PathStack {
            spec,
            nodes: Vec::new(),
            epochs: vec![Epoch {
                start: 0,
                by_play: false,
                captured: s.pos.captured,
            }],
            closed: Vec::new(),
            classes: vec![0],
            closed_mapped: vec![0; maps.len()],
            mapped: Vec::new(),
            maps,
        };
        path.closed = vec![0];
        path.push_node(s, false);
        path
    }

    fn push_node(&mut self, s: &State<W>, by_play: bool) {
        let node = Self::node(s, by_play);
        for map in &self.maps {
            self.mapped.push(board_hash(&map.board(&node.occ)));
        }
        self.nodes.push(node);
    }

    /// The number of maps keys are taken under (1: the identity alone).
    #[allow(dead_code)]
    pub(crate) fn map_count(&self) -> usize {
        self.maps.len()
    }

    pub(crate) fn map(&self, j: usize) -> &BoardMap {
        &self.maps[j]
    }

    fn mapped_board(&self, node: usize, j: usize) -> u128 {
        self.mapped[node * self.maps.len() + j]
    }

    fn node(s: &State<W>, by_play: bool) -> PathNode<W> {
        PathNode {
            occ: s.pos.occ,
            board: board_hash(&s.pos.occ),
            to_move: s.pos.to_move,
            stones: s.pos.on_board[0] + s.pos.on_board[1],
            by_play,
        }
    }

    /// Index of the last node.
    pub(crate) fn top(&self) -> usize {
        self.nodes.len() - 1
    }

    /// Record the move just applied to `s` (`was_play`: a board play).
    pub(crate) fn push(&mut self, s: &State<W>, was_play: bool) {
        let stones = s.pos.on_board[0] + s.pos.on_board[1];
        let before = self.nodes[self.top()].stones + u32::from(was_play);
        if stones < before {
            let k = self.epochs.len() - 1;
            let top = self.top();
            for j in 0..self.maps.len() {
                let record = self.epoch_record(k, top, j);
                let sum = self.closed_mapped[k * self.maps.len() + j].wrapping_add(record);
                self.closed_mapped.push(sum);
            }
            self.closed.push(0);
            self.epochs.push(Epoch {
                start: self.nodes.len(),
                by_play: was_play,
                captured: s.pos.captured,
            });
        }
        self.push_node(s, was_play);
        if self.spec.classes == ClassWindow::Whole {
            let n = s.recorded_moves();
            let mut k = Key128::new(2);
            k.feed128(self.classes[self.classes.len() - 1]);
            if n > 0 {
                k.feed(u64::from(s.last_class().unwrap_or(0)));
                k.feed(u64::from(s.d_len(n - 1).unwrap_or(0)));
            }
            self.classes.push(k.get());
        }
    }

    /// Take back the last [`push`](Self::push).
    pub(crate) fn pop(&mut self) {
        let top = self.top();
        self.nodes.pop();
        self.mapped.truncate(self.nodes.len() * self.maps.len());
        if self.epochs.len() > 1 && self.epochs[self.epochs.len() - 1].start == top {
            self.epochs.pop();
            self.closed.pop();
            self.closed_mapped
                .truncate(self.epochs.len() * self.maps.len());
        }
        if self.spec.classes == ClassWindow::Whole {
            self.classes.pop();
        }
    }

    /// Last node of epoch `k`.
    fn epoch_end(&self, k: usize) -> usize {
        self.epochs
            .get(k + 1)
            .map_or(self.top(), |next| next.start - 1)
    }

    /// What the rules can ask of epoch `k`'s end boards, its last node
    /// being `end`, seen through map `j`.
    fn epoch_record(&self, k: usize, end: usize, j: usize) -> u128 {
        let e = self.epochs[k];
        let (first, last) = (&self.nodes[e.start], &self.nodes[end]);
        let mut key = Key128::new(3);
        key.feed128(self.mapped_board(e.start, j));
        key.feed128(self.mapped_board(end, j));
        if self.spec.superko == Superko::Situational {
            let sides = |board: u128| {
                self.nodes[e.start..=end]
                    .iter()
                    .filter(|n| n.board == board)
                    .fold(0u64, |m, n| m | 1 << n.to_move)
            };
            key.feed(sides(first.board));
            key.feed(sides(last.board));
        }
        if self.spec.occurrences {
            key.feed(u64::from(e.by_play));
            key.feed(u64::from(first.board != last.board));
        }
        if self.spec.occurrence_captures {
            key.feed(u64::from(e.captured[0]));
            key.feed(u64::from(e.captured[1]));
        }
        key.get()
    }

    /// The skeleton of the path up to the top node seen through map `j`
    /// (0 when no rule reads earlier boards).
    fn skeleton(&self, j: usize) -> u128 {
        if !self.spec.reads_boards() {
            return 0;
        }
        let k = self.epochs.len() - 1;
        self.closed_mapped[k * self.maps.len() + j].wrapping_add(self.epoch_record(
            k,
            self.top(),
            j,
        ))
    }

    /// The first node index from which every node's skeleton omits board
    /// `y` although `y` lies strictly inside one of its epoch intervals
    /// (`usize::MAX` if none): looking `y` up taints those nodes.
    pub(crate) fn taint_threshold(&self, y: &[Bits<W>; 2]) -> usize {
        let mut first = usize::MAX;
        for (k, e) in self.epochs.iter().enumerate() {
            if e.start >= first || !strictly_within(&self.nodes[e.start].occ, y) {
                continue;
            }
            // The epoch's boards grow: the first node strictly above `y`
            // starts the suffix whose intervals hold `y` inside.
            if let Some(g) =
                (e.start..=self.epoch_end(k)).find(|&g| strictly_within(y, &self.nodes[g].occ))
            {
                first = first.min(g);
            }
        }
        first
    }

    /// The transposition key of the top node, whose state is `s`, under
    /// the board map `j` ([`canonical_key`](Self::canonical_key) takes the
    /// least over the maps that give the least board hash).
    pub(crate) fn key(&self, s: &State<W>, j: usize) -> u128 {
        let spec = &self.spec;
        let top = self.top();
        let pos = &s.pos;
        let mut key = Key128::new(4);
        key.feed128(self.mapped_board(top, j));
        key.feed(u64::from(pos.to_move));
        key.feed(u64::from(pos.last_suicide));
        key.feed(u64::from(pos.last_immediate_repetition));
        key.feed(u64::from(pos.last_board_repetitions));
        key.feed(u64::from(pos.in_hand[0]) | u64::from(pos.in_hand[1]) << 32);
        if spec.turn0 {
            key.feed(u64::from(pos.turn == 0));
        }
        if spec.prisoners {
            key.feed(u64::from(pos.captured[0]) | u64::from(pos.captured[1]) << 32);
            key.feed(u64::from(pos.pass_stones[0]) | u64::from(pos.pass_stones[1]) << 32);
        }
        let n = s.recorded_moves();
        if spec.lookback {
            // Both readings of an immediate repetition look at the last two
            // moves' kinds and the board before the last move.
            for back in 1..=2 {
                let kind = n
                    .checked_sub(back)
                    .and_then(|i| s.move_was_play(i))
                    .map_or(2, u64::from);
                key.feed(kind);
            }
            if top >= 1 {
                key.feed128(self.mapped_board(top - 1, j));
            }
        }
        match spec.classes {
            ClassWindow::None => {}
            ClassWindow::Last(w) => {
                key.feed(n.min(w) as u64);
                for (class, _) in s.class_history().rev().take(w) {
                    key.feed(u64::from(class));
                }
            }
            ClassWindow::Whole => key.feed128(self.classes[self.classes.len() - 1]),
        }
        if spec.ko_runs {
            // What a later ko capture's D test reads: the stones placed by
            // the trailing run of ko captures, by offset from the end (a
            // sum, so the order the map puts the points in does not count).
            let run_start = n - s
                .class_history()
                .rev()
                .take_while(|&(c, _)| c == morrigo_rules::CLASS_KO_CAPTURE)
                .count();
            let mut placed = 0u64;
            for p in pos.occ[0].or(pos.occ[1]).iter() {
                if let Some(i) = s.placed_at(p) {
                    if i as usize >= run_start && (i as usize) < n {
                        let image = u64::from(self.maps[j].perm[p]);
                        placed = placed.wrapping_add(mix(image << 32 | (n - i as usize) as u64));
                    }
                }
            }
            key.feed(placed);
        }
        key.feed128(self.skeleton(j));
        key.get()
    }

    /// The key of the top node in a frame every position symmetric to
    /// this one (history included) shares, and the map that gives it:
    /// the least (board, key) over the maps, since the maps form a group
    /// and so give the same set of pairs for every symmetric position.
    /// Only the maps giving the least board hash have their key computed:
    /// one map, unless the board is itself symmetric.
    pub(crate) fn canonical_key(&self, s: &State<W>) -> (u128, usize) {
        let top = self.top();
        let maps = self.maps.len();
        let least = (0..maps)
            .map(|j| self.mapped_board(top, j))
            .min()
            .expect("the identity is a map");
        (0..maps)
            .filter(|&j| self.mapped_board(top, j) == least)
            .map(|j| (self.key(s, j), j))
            .min()
            .expect("a map gives the least board")
    }

    /// The boards the rules look up at the top node, whose state is `s`,
    /// that taint path nodes: every candidate play's result under superko
    /// (legal because unseen, or refused because seen), and the node's own
    /// board when it is a play result and occurrences are counted. Calls
    /// `read` with each such board and its threshold.
    pub(crate) fn tainting_lookups(
        &self,
        m: &Machine<W>,
        s: &State<W>,
        by_play: bool,
        mut read: impl FnMut(&[Bits<W>; 2], usize),
    ) {
        let occ = s.pos.occ;
        let mut look = |y: &[Bits<W>; 2]| {
            let at = self.taint_threshold(y);
            if at != usize::MAX {
                read(y, at);
            }
        };
        if self.spec.occurrences && by_play {
            look(&occ);
        }
        if self.spec.superko != Superko::None {
            let me = s.pos.to_move as usize;
            for p in m.empty(s).iter() {
                let e = m.play_effect(s, p as morrigo_engine::Point);
                let mut y = occ;
                y[me].set(p);
                y[me ^ 1] = y[me ^ 1].without(e.captured);
                if e.suicide && e.suicide_effect == morrigo_rules::SuicideEffect::Remove {
                    y[me] = y[me].without(e.own_chain);
                }
                look(&y);
            }
        }
    }

    /// Everything the rules can ask of board `y`'s occurrences on the path
    /// (how often it stood, how often as a play's result, with which sides
    /// to move), packed; `None` past the packing's counts. Two paths with
    /// the same key and the same answers for every interior board a search
    /// looked up give that search the same answers throughout.
    pub(crate) fn occurrences(&self, y: &[Bits<W>; 2]) -> Option<u32> {
        let (mut count, mut plays, mut sides) = (0u32, 0u32, 0u32);
        for n in self.nodes.iter().filter(|n| n.occ == *y) {
            count += 1;
            plays += u32::from(n.by_play);
            sides |= 1 << n.to_move;
        }
        (count < 1 << 12).then_some(count | plays << 12 | sides << 24)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use morrigo_engine::Move;
    use morrigo_rules::load::Overrides;
    use std::sync::Arc;

    fn machine() -> Machine<1> {
        let rules = morrigo_rules::load_rules_with(
            "tromp-taylor",
            &Overrides {
                size: Some((3, 2)),
                komi: None,
            },
        )
        .expect("tromp-taylor 3x2");
        Machine::new(Arc::new(rules))
    }

    fn walk(m: &Machine<1>, plays: &[u16]) -> (PathStack<1>, State<1>) {
        let spec = KeySpec::of(&m.rules).expect("a Go key");
        let mut s = m.initial();
        let mut path = PathStack::new(spec, m, &s, false);
        for &p in plays {
            m.apply(&mut s, Move::play(p));
            path.push(&s, true);
        }
        (path, s)
    }

    fn board(black: &[usize], white: &[usize]) -> [Bits<1>; 2] {
        let mut occ = [Bits::EMPTY; 2];
        black.iter().for_each(|&p| occ[0].set(p));
        white.iter().for_each(|&p| occ[1].set(p));
        occ
    }

    /// Two orders of the same non-capturing plays share a key under
    /// positional superko: the boards between are left out of it.
    #[test]
    fn orders_of_the_same_plays_share_a_key() {
        let m = machine();
        let (a, sa) = walk(&m, &[0, 5, 2]);
        let (b, sb) = walk(&m, &[2, 5, 0]);
        assert_eq!(a.key(&sa, 0), b.key(&sb, 0));
        let (c, sc) = walk(&m, &[0, 4, 2]);
        assert_ne!(a.key(&sa, 0), c.key(&sc, 0), "another board");
    }

    /// Looking up a board strictly inside the epoch taints the nodes whose
    /// key leaves it out: from the first node above it. The epoch's end
    /// boards and boards outside it taint nothing.
    #[test]
    fn the_guard_taints_from_the_first_node_above_an_interior_board() {
        let m = machine();
        let (path, _) = walk(&m, &[0, 5, 2]);
        // Node 1 is {B0}, node 2 {B0, W5}, node 3 {B0, W5, B2}.
        assert_eq!(path.taint_threshold(&board(&[0], &[])), 2);
        assert_eq!(
            path.taint_threshold(&board(&[2], &[])),
            3,
            "a board of the other order"
        );
        assert_eq!(
            path.taint_threshold(&board(&[0, 2], &[5])),
            usize::MAX,
            "the top"
        );
        assert_eq!(
            path.taint_threshold(&board(&[], &[])),
            usize::MAX,
            "the start"
        );
        assert_eq!(
            path.taint_threshold(&board(&[], &[0])),
            usize::MAX,
            "outside"
        );
    }

    /// A board taken into a symmetry's frame and back is itself (stored
    /// entries keep their boards in their frame).
    #[test]
    fn a_board_mapped_and_back_is_itself() {
        let m = machine();
        let maps = board_maps(&m);
        assert!(maps.len() > 1, "3x2 has symmetries");
        let y = board(&[0, 4], &[5]);
        for map in &maps {
            assert_eq!(map.board_back(&map.board(&y)), y);
        }
        assert_ne!(maps[1].board(&y), y, "a symmetry moves this board");
    }

    /// A board's occurrences: how often it stood, how often as a play's
    /// result, and with which sides to move (a pass repeats the board
    /// with the other side to move).
    #[test]
    fn occurrences_count_plays_passes_and_sides() {
        let m = machine();
        let (mut path, mut s) = walk(&m, &[0, 5]);
        m.apply(&mut s, Move::pass(0));
        path.push(&s, false);
        let y = board(&[0], &[5]);
        assert_eq!(path.occurrences(&y), Some(2 | 1 << 12 | 0b11 << 24));
        assert_eq!(
            path.occurrences(&board(&[0], &[])),
            Some(1 | 1 << 12 | 0b10 << 24)
        );
        assert_eq!(path.occurrences(&board(&[5], &[])), Some(0));
    }

    /// Popping restores the key exactly.
    #[test]
    fn push_then_pop_restores_the_key() {
        let m = machine();
        let (mut path, mut s) = walk(&m, &[0, 5]);
        let before = path.key(&s, 0);
        let u = m.apply(&mut s, Move::play(2));
        path.push(&s, true);
        path.pop();
        m.undo(&mut s, u);
        assert_eq!(path.key(&s, 0), before);
    }
}
