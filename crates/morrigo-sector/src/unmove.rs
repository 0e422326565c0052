//! Turns, forwards and backwards, from the compiled rules.
//!
//! A *turn* is a placement, slide or flight and the removals the lines it
//! completes owe; the solver works on positions at the start of a turn (no
//! removal owed). Forward, [`Moves::successors`] plays every legal move and
//! removal through the engine. Backward, [`Moves::predecessors`] undoes
//! slides and flights (the solver needs only the turns that stay in a
//! sector undone; a placement or a removal always leaves it, and is met
//! forward from the sector it leads out of): the player who just moved had a
//! piece on an empty point next to one of its pieces (or anywhere, when
//! some phase allows flying), and, when that piece now closes a line, may
//! have had opposing pieces on empty points that the line's removals took
//! (un-removals). Each candidate is kept only if the engine says the move
//! (and each removal) was legal and leads to the position: the un-moves are
//! exactly the inverse of the moves, whatever the phase guards, flying
//! counts, removal counts and `removable` conditions say. Tests check the
//! two directions against each other on random positions.

use morrigo_engine::{Bits, Machine, Move, MoveKind, State};
use morrigo_rules::{reads_piece_counts_only, ActionKind, Rules};

/// A position at the start of a turn: both players' points, the pieces
/// each still has in hand and the player to move (no removal owed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// Each player's points, one bit per point.
    pub occ: [u64; 2],
    /// Pieces each player still has to place.
    pub in_hand: [u32; 2],
    /// The player to move: 0 the first, 1 the second.
    pub to_move: u8,
}

impl Board {
    /// A moving-phase position: nothing in hand.
    pub fn moving(occ: [u64; 2], to_move: u8) -> Self {
        Board {
            occ,
            in_hand: [0, 0],
            to_move,
        }
    }

    /// The board of an engine position at a turn start (its first 64
    /// points: the sector solver's boards have at most 64).
    pub fn of_position<const W: usize>(pos: &morrigo_engine::Position<W>) -> Self {
        Board {
            occ: [pos.occ[0].0[0], pos.occ[1].0[0]],
            in_hand: pos.in_hand,
            to_move: pos.to_move & 1,
        }
    }

    /// The same position with the colours exchanged (the other player to
    /// move): its value for its player to move is this one's when the
    /// rules treat the players alike.
    pub fn swapped(&self) -> Self {
        Board {
            occ: [self.occ[1], self.occ[0]],
            in_hand: [self.in_hand[1], self.in_hand[0]],
            to_move: self.to_move ^ 1,
        }
    }

    /// Pieces on the board per player.
    pub fn counts(&self) -> [u32; 2] {
        self.occ.map(u64::count_ones)
    }

    /// The unit of the solve this position belongs to.
    pub fn sector(&self) -> Sector {
        Sector {
            on_board: self.counts(),
            in_hand: self.in_hand,
        }
    }
}

/// A unit of the solve: the pieces each player has on the board and in
/// hand. Every turn keeps a position in its sector or leads to one with
/// fewer pieces in hand or on the board, so sectors are solved lowest
/// first; within one, only moves that place and remove nothing (slides and
/// flights, Lasker's too while pieces wait in hand) lead back in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sector {
    /// Pieces each player has on the board.
    pub on_board: [u32; 2],
    /// Pieces each player still has to place.
    pub in_hand: [u32; 2],
}

impl Sector {
    /// The moving-phase sector of `w` and `b` pieces on the board.
    pub fn moving(w: u32, b: u32) -> Self {
        Sector {
            on_board: [w, b],
            in_hand: [0, 0],
        }
    }

    /// Nothing in hand.
    pub fn is_moving(&self) -> bool {
        self.in_hand == [0, 0]
    }

    /// The same counts with the colours exchanged.
    pub fn swapped(&self) -> Self {
        Sector {
            on_board: [self.on_board[1], self.on_board[0]],
            in_hand: [self.in_hand[1], self.in_hand[0]],
        }
    }
}

impl std::fmt::Display for Sector {
    /// `5-4` on the board, then ` +2-3` in hand when any is.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.on_board[0], self.on_board[1])?;
        if !self.is_moving() {
            write!(f, " +{}-{}", self.in_hand[0], self.in_hand[1])?;
        }
        Ok(())
    }
}

/// Whether the sector solver handles `rules`: retrograde analysis applies
/// ([`morrigo_solve::retrograde_applies`], which refuses rules whose
/// legality reads the history) and the moving phase's turns are slides and
/// flights with line removals, which un-move generation inverts. Boards of
/// more than 64 points, capture rules, removal actions, removals from the
/// hand and unlimited hands are refused with the reason.
pub fn supported(rules: &Rules) -> Result<(), String> {
    morrigo_solve::retrograde_applies(rules)?;
    let name = &rules.name;
    if rules.topology.len() > 64 {
        return Err(format!(
            "{name} has {} points; the sector solver handles boards of up to 64",
            rules.topology.len()
        ));
    }
    if rules.unlimited_hand {
        return Err(format!(
            "{name} has an unlimited supply of pieces, so it has no moving phase for sectors"
        ));
    }
    if rules.in_hand > 255 {
        return Err(format!(
            "{name} gives {} pieces in hand; the sector files hold hands of up to 255",
            rules.in_hand
        ));
    }
    if !rules.captures.is_empty() {
        return Err(format!("{name} has capture rules; the sector solver's un-moves invert slides, flights and line removals only"));
    }
    if rules
        .phases
        .iter()
        .any(|p| p.remove.is_some() || p.remove_own.is_some())
    {
        return Err(format!("{name} has a removal action; the sector solver's un-moves invert slides, flights and line removals only"));
    }
    if rules
        .line_rule
        .as_ref()
        .is_some_and(|l| l.from_hand.is_some() || l.counts.is_some())
    {
        return Err(format!("{name}'s line rule counts lines or takes from the hand; the sector solver does not invert those yet"));
    }
    Ok(())
}

/// Forward and backward turn generation over one engine machine, with
/// scratch buffers so the hot loops do not allocate.
pub struct Moves<'m> {
    m: &'m Machine<1>,
    s: State<1>,
    n: usize,
    all: u64,
    adj: Vec<u64>,
    /// Lines through each point, as masks.
    lines_at: Vec<Vec<u64>>,
    /// Some phase may allow a flight (its guard is not constant false).
    may_fly: bool,
    /// Forbid rules exist: ask the engine about each move in full, where
    /// one of them may apply ([`Machine::forbid_may_apply`]).
    forbid: bool,
    /// Trust [`Machine::forbid_may_apply`] to skip that check in sectors
    /// where no forbid rule can hold (off in [`Moves::engine_only`]).
    forbid_by_counts: bool,
    /// [`Machine::plain_turns`]: a move completing no line is the whole
    /// turn, so it is played (and undone) without the engine.
    plain: bool,
    /// Phase and action conditions read piece counts only, so the actions
    /// allowed are one answer per sector and player (`Moves::sector_facts`).
    count_guards: bool,
    /// Per sector and player: the actions allowed (when `count_guards`)
    /// and whether a forbid rule may apply.
    sector_memo: Vec<(Sector, u8, SectorFacts)>,
    /// Lists come sorted and without repeats (else in any order, a turn
    /// possibly twice: the solver dedups the orbits anyway).
    tidy: bool,
    /// Move buffers per removal depth.
    stack: Vec<Vec<Move>>,
}

/// What the rules fix for a whole sector and player to move.
#[derive(Clone, Copy, Debug)]
struct SectorFacts {
    /// The actions allowed, by [`ActionKind`].
    allowed: [bool; 5],
    /// Some forbid rule may refuse a move.
    forbid: bool,
}

/// The move `from → to` that the actions `allowed` permit: a slide where
/// the points are adjacent and slides are allowed, else a flight.
fn quick_move(allowed: [bool; 5], adjacent: bool, from: usize, to: usize) -> Option<Move> {
    let kind = if adjacent && allowed[ActionKind::Slide as usize] {
        MoveKind::Slide
    } else if allowed[ActionKind::Fly as usize] {
        MoveKind::Fly
    } else {
        return None;
    };
    Some(Move {
        kind,
        from: from as u16,
        to: to as u16,
    })
}

/// Whether every phase and action condition reads only piece counts and
/// who is who, so that it is constant over a sector.
fn guards_read_counts_only(rules: &Rules) -> bool {
    rules.phases.iter().all(|phase| {
        phase
            .when
            .as_ref()
            .is_none_or(|w| reads_piece_counts_only(&w.expr))
            && phase
                .actions
                .iter()
                .all(|a| reads_piece_counts_only(&a.guard.expr))
    })
}

impl<'m> Moves<'m> {
    /// Turn generation for a machine built from [`morrigo_solve::solver_rules`].
    pub fn new(m: &'m Machine<1>) -> Self {
        let rules = &m.rules;
        let t = &rules.topology;
        let n = t.len();
        let mask = |pts: &[u16]| pts.iter().fold(0u64, |acc, &p| acc | 1 << p);
        let adj = t.neighbours.iter().map(|ns| mask(ns)).collect();
        let lines_at = (0..n)
            .map(|p| {
                t.lines_through[p]
                    .iter()
                    .map(|&l| mask(&t.lines[l as usize]))
                    .collect()
            })
            .collect();
        let may_fly = rules.phases.iter().any(|p| {
            p.actions
                .iter()
                .any(|a| a.kind == ActionKind::Fly && a.guard.expr.as_const() != Some(0))
        });
        Moves {
            m,
            s: m.initial(),
            n,
            all: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
            adj,
            lines_at,
            may_fly,
            forbid: !rules.forbid.is_empty(),
            forbid_by_counts: true,
            plain: m.plain_turns(),
            count_guards: guards_read_counts_only(rules),
            sector_memo: Vec::new(),
            tidy: true,
            stack: Vec::new(),
        }
    }

    /// Turn generation that asks the engine about every move, without the
    /// shortcuts for plain turns: the reference the shortcuts are tested
    /// against.
    pub fn engine_only(m: &'m Machine<1>) -> Self {
        Moves {
            plain: false,
            count_guards: false,
            forbid_by_counts: false,
            ..Moves::new(m)
        }
    }

    /// Lists in any order, possibly with repeats: what a caller that
    /// dedups the orbits itself needs, without a sort per position.
    pub fn untidy(self) -> Self {
        Moves {
            tidy: false,
            ..self
        }
    }

    /// The machine.
    pub fn machine(&self) -> &'m Machine<1> {
        self.m
    }

    /// Points on the board.
    pub fn points(&self) -> usize {
        self.n
    }

    /// Put a board into the scratch state.
    fn load(&mut self, b: &Board) {
        let pos = &mut self.s.pos;
        pos.occ = [Bits([b.occ[0]]), Bits([b.occ[1]])];
        pos.on_board = b.counts();
        pos.in_hand = b.in_hand;
        let start = self.m.rules.in_hand;
        pos.lost = [0, 1].map(|p| start.saturating_sub(pos.on_board[p] + b.in_hand[p]));
        pos.to_move = b.to_move;
        pos.pending = 0;
        pos.lines_formed = 0;
    }

    fn board(&self) -> Board {
        Board {
            occ: [self.s.pos.occ[0].0[0], self.s.pos.occ[1].0[0]],
            in_hand: self.s.pos.in_hand,
            to_move: self.s.pos.to_move,
        }
    }

    /// The turns from `p`: each successor position with the plies its turn
    /// took (1 plus the removals), sorted, without repeats. When the game
    /// is over at `p`, `out` is left empty and the winner is returned
    /// (`Some(None)` for a draw).
    pub fn successors(&mut self, p: &Board, out: &mut Vec<(Board, u8)>) -> Option<Option<u8>> {
        out.clear();
        self.load(p);
        if self.stack.is_empty() {
            self.stack.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.stack[0]);
        let over = self.m.legal_moves(&self.s, &mut moves);
        if let Some(o) = over {
            self.stack[0] = moves;
            return Some(o.winner);
        }
        let me = usize::from(p.to_move);
        for &mv in &moves {
            let mine = match mv.kind {
                MoveKind::Slide | MoveKind::Fly => p.occ[me] & !(1 << mv.from) | 1 << mv.to,
                MoveKind::Place => p.occ[me] | 1 << mv.to,
                _ => 0,
            };
            if self.plain
                && mine != 0
                && self.lines_at[mv.to as usize]
                    .iter()
                    .all(|&l| l & !mine != 0)
            {
                let mut next = *p;
                next.occ[me] = mine;
                if mv.kind == MoveKind::Place {
                    next.in_hand[me] -= 1;
                }
                next.to_move ^= 1;
                out.push((next, 1));
                continue;
            }
            let u = self.m.apply(&mut self.s, mv);
            self.finish_turn(1, 1, out);
            self.m.undo(&mut self.s, u);
        }
        self.stack[0] = moves;
        if self.tidy {
            out.sort_unstable();
            out.dedup_by_key(|x| x.0);
        }
        None
    }

    /// Play every sequence of owed removals, then record the position.
    fn finish_turn(&mut self, depth: usize, plies: u8, out: &mut Vec<(Board, u8)>) {
        if self.s.pos.pending == 0 {
            out.push((self.board(), plies));
            return;
        }
        if self.stack.len() <= depth {
            self.stack.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.stack[depth]);
        self.m.legal_moves(&self.s, &mut moves);
        for &mv in &moves {
            let u = self.m.apply(&mut self.s, mv);
            self.finish_turn(depth + 1, plies.saturating_add(1), out);
            self.m.undo(&mut self.s, u);
        }
        self.stack[depth] = moves;
    }

    /// Whether the move `from → to` of the player to move in the scratch
    /// state is legal (the engine's answer; `check_over` also asks whether
    /// the game is over there, which the solver knows already).
    fn move_legal(&self, from: usize, to: usize, check_over: bool) -> Option<Move> {
        let adjacent = self.adj[from] >> to & 1 == 1;
        let slide = Move {
            kind: MoveKind::Slide,
            from: from as u16,
            to: to as u16,
        };
        let fly = Move {
            kind: MoveKind::Fly,
            ..slide
        };
        if self.forbid_live() || check_over {
            // The full check: the game not over, the phase, forbid rules.
            return [slide, fly]
                .into_iter()
                .filter(|mv| mv.kind == MoveKind::Fly || adjacent)
                .find(|&mv| self.m.check_move(&self.s, mv).is_ok());
        }
        let phase = self.m.phase(&self.s);
        quick_move(self.m.allowed_actions(&self.s, phase), adjacent, from, to)
    }

    /// Whether a forbid rule may refuse a move of the player to move in
    /// the scratch state.
    fn forbid_live(&self) -> bool {
        self.forbid && (!self.forbid_by_counts || self.m.forbid_may_apply(&self.s))
    }

    /// What is constant over `b`'s sector for `player` to move: the
    /// actions the rules allow (meaningful when `count_guards`) and whether
    /// a forbid rule may apply; memoised.
    fn sector_facts(&mut self, b: &Board, player: u8) -> SectorFacts {
        let sector = b.sector();
        if let Some(&(_, _, f)) = self
            .sector_memo
            .iter()
            .find(|(c, p, _)| *c == sector && *p == player)
        {
            return f;
        }
        self.load(&Board {
            to_move: player,
            ..*b
        });
        let phase = self.m.phase(&self.s);
        let f = SectorFacts {
            allowed: self.m.allowed_actions(&self.s, phase),
            forbid: self.forbid_live(),
        };
        self.sector_memo.push((sector, player, f));
        f
    }

    /// The positions one turn before `q`, sorted, without repeats. With
    /// `unremovals` false only the turns that removed nothing (the ones that
    /// stay in `q`'s sector) are undone. With `check_over` false a
    /// predecessor where the game is already over may be listed (the solver
    /// has decided those before it asks).
    pub fn predecessors(
        &mut self,
        q: &Board,
        unremovals: bool,
        check_over: bool,
        out: &mut Vec<Board>,
    ) {
        out.clear();
        let x = (q.to_move ^ 1) as usize;
        let empty = self.all & !(q.occ[0] | q.occ[1]);
        // Plain turns under count-only conditions: a move completing no
        // line is legal by its kind alone and owes nothing.
        let quick = if self.plain && self.count_guards && !check_over {
            let facts = self.sector_facts(q, x as u8);
            (!facts.forbid).then_some(facts.allowed)
        } else {
            None
        };
        let mut pieces = q.occ[x];
        while pieces != 0 {
            let to = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let mut froms = if self.may_fly {
                empty
            } else {
                empty & self.adj[to]
            };
            let closes = self.lines_at[to]
                .iter()
                .filter(|&&l| l & q.occ[x] == l)
                .count() as u32;
            while froms != 0 {
                let from = froms.trailing_zeros() as usize;
                froms &= froms - 1;
                let mut p = *q;
                p.to_move = x as u8;
                p.occ[x] = q.occ[x] & !(1 << to) | 1 << from;
                if let (Some(allowed), 0) = (quick, closes) {
                    if quick_move(allowed, self.adj[from] >> to & 1 == 1, from, to).is_some() {
                        out.push(p);
                    }
                    continue;
                }
                // No removal: the move alone must end the turn.
                self.load(&p);
                let legal = match quick {
                    // The kind from the sector's actions; only what the
                    // line owes is asked of the engine.
                    Some(allowed) => quick_move(allowed, self.adj[from] >> to & 1 == 1, from, to),
                    None => self.move_legal(from, to, check_over),
                };
                let Some(mv) = legal else {
                    continue;
                };
                let u = self.m.apply(&mut self.s, mv);
                let owed = u32::from(self.s.pos.pending);
                self.m.undo(&mut self.s, u);
                if owed == 0 {
                    out.push(p);
                }
                if !unremovals || closes == 0 {
                    continue;
                }
                let most = owed.max(closes) as usize;
                let spots = empty & !(1 << from);
                let mut chosen = Vec::with_capacity(most);
                self.unremove(&p, from, to, spots, most, &mut chosen, check_over, out);
            }
        }
        if self.tidy {
            out.sort_unstable();
            out.dedup();
        }
    }

    /// Try every set of up to `most` opposing pieces on `spots` (in
    /// increasing point order) as the ones the turn removed.
    #[allow(clippy::too_many_arguments)]
    fn unremove(
        &mut self,
        p: &Board,
        from: usize,
        to: usize,
        spots: u64,
        most: usize,
        chosen: &mut Vec<usize>,
        check_over: bool,
        out: &mut Vec<Board>,
    ) {
        let mut left = spots;
        while left != 0 {
            let r = left.trailing_zeros() as usize;
            left &= left - 1;
            chosen.push(r);
            let mut cand = *p;
            let y = (p.to_move ^ 1) as usize;
            for &c in chosen.iter() {
                cand.occ[y] |= 1 << c;
            }
            if self.turn_leads_to(&cand, from, to, chosen, check_over) {
                out.push(cand);
            }
            if chosen.len() < most {
                self.unremove(p, from, to, left, most, chosen, check_over, out);
            }
            chosen.pop();
        }
    }

    /// Whether the move `from → to` and the removal of every point of
    /// `taken` (in some legal order) is a turn from `p`.
    fn turn_leads_to(
        &mut self,
        p: &Board,
        from: usize,
        to: usize,
        taken: &[usize],
        check_over: bool,
    ) -> bool {
        self.load(p);
        let Some(mv) = self.move_legal(from, to, check_over) else {
            return false;
        };
        let u = self.m.apply(&mut self.s, mv);
        let ok = usize::from(self.s.pos.pending) == taken.len() && self.remove_all(taken, 0);
        self.m.undo(&mut self.s, u);
        ok
    }

    /// Remove the points of `taken` not yet removed (bit set `done`) in
    /// some order the engine accepts, ending the turn.
    fn remove_all(&mut self, taken: &[usize], done: u32) -> bool {
        if done.count_ones() as usize == taken.len() {
            return self.s.pos.pending == 0;
        }
        if self.s.pos.pending == 0 {
            return false;
        }
        for (i, &r) in taken.iter().enumerate() {
            if done >> i & 1 == 1 {
                continue;
            }
            let mv = Move::remove(r as u16);
            if self.m.check_move(&self.s, mv).is_err() {
                continue;
            }
            let u = self.m.apply(&mut self.s, mv);
            let ok = self.remove_all(taken, done | 1 << i);
            self.m.undo(&mut self.s, u);
            if ok {
                return true;
            }
        }
        false
    }
}
