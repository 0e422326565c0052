//! One game under a ruleset, behind an object-safe trait so a session can
//! change the board size (and so the machine's width) between games.

use morrigo_engine::notation::{self, Intent};
use morrigo_engine::{
    with_machine, AnyMachine, Bits, DecidedBy, Machine, Move, MoveKind, Outcome, State,
};
use morrigo_play::Player;
use morrigo_rules::Rules;
use morrigo_sgf::GameResult;
use rand::rngs::SmallRng;
use std::sync::Arc;
use std::time::Instant;

/// Share of the ownership playouts in which the opponent must own a
/// chain's points for [`Game::dead_estimate`] to call it dead.
pub const DEAD_THRESHOLD: f64 = 0.7;

/// A game in progress: the position, the moves from the start and how to
/// take them back.
pub trait Game {
    fn rules(&self) -> &Arc<Rules>;
    fn to_move(&self) -> u8;
    /// The legal moves, or how the game ended.
    fn legal(&self) -> Result<Vec<Move>, Outcome>;
    /// The legal move an intent names for `player`, or why there is none
    /// (the refusal on one line, naming the rule). For the player not to
    /// move, the move is judged as if the turn had been handed over; once
    /// the game is over no move of either player is legal.
    fn check(&mut self, player: u8, intent: Intent) -> Result<Move, String>;
    /// Play a move [`Game::check`] gave for `player`, handing the turn over
    /// first when it is the other player's (see `Machine::hand_over`).
    fn play(&mut self, player: u8, mv: Move);
    /// Take back the last move (and its hand-over); false when there is
    /// none.
    fn undo(&mut self) -> bool;
    /// The kind a plain `pass` by `player` stands for: the first kind of
    /// the ruleset's `passes.kinds` legal here (the first kind when none
    /// is, so the refusal names its rule).
    fn plain_pass(&mut self, player: u8) -> u8 {
        (0..self.rules().passes.kinds.len() as u8)
            .find(|&k| self.check(player, Intent::Pass(k)).is_ok())
            .unwrap_or(0)
    }
    /// The agent's move for `player` (`None` when the game is over). With
    /// `plain_pass_only` its passes are limited to the kind a plain `pass`
    /// stands for, so a record of plain passes replays to the same game.
    fn choose(
        &mut self,
        player: u8,
        agent: &mut Player,
        rng: &mut SmallRng,
        plain_pass_only: bool,
    ) -> Option<Move>;
    /// The board as text, with a status line.
    fn board(&self) -> String;
    /// Each player's count now (no dead stones), komi included.
    fn score(&self) -> [f64; 2];
    /// The count with `dead` stones removed (each the opponent's prisoner
    /// under territory scoring), komi included.
    fn score_with(&self, dead: &[u16]) -> [f64; 2];
    /// Whether an end rule with a `score` verdict (a count) ended the game.
    fn ended_by_count(&self) -> bool;
    /// Start the clean-up of a dead-stone dispute: a game a count ended
    /// plays on from the board as it stands, the player to move moving,
    /// every rule judging the moves (the move just after the resumption is
    /// judged on a fresh history: the passes that ended the game do not end
    /// it again unless another pass follows). False, and nothing changes,
    /// when no count ended the game or a clean-up has already begun.
    fn resume(&mut self) -> bool;
    /// Moves played before the clean-up began (`None`: no clean-up).
    fn cleanup_from(&self) -> Option<usize>;
    /// The stones of the chains that ownership playouts from this board
    /// call dead (see [`morrigo_play::ownership`]); chains in seki never.
    fn dead_estimate(&self, playouts: u32, seed: u64, deadline: Instant) -> Vec<u16>;
    /// The result an ended game has (`Ongoing` while it goes on).
    fn result(&self) -> GameResult;
    /// The move-class history (`N C P E`), and where each D ends.
    fn classes(&self) -> String;
    /// Prisoners each player has taken.
    fn captured(&self) -> [u32; 2];
    /// The stones of a player.
    fn stones(&self, player: u8) -> Vec<u16>;
    /// The stones of the chains in seki (the reading `seki: nobody` scores
    /// with).
    fn seki(&self) -> Vec<u16>;
    /// The moves from the start position, each with its player.
    fn played(&self) -> &[(u8, Move)];
    /// The set-up stones and first player of the start position.
    fn setup(&self) -> (&[Vec<u16>; 2], u8);
    /// Why `intent` is or is not legal, as `morrigo-explain` answers.
    fn explain(&mut self, intent: Intent) -> String;
}

/// Build a game on the start position of `any`, or on set-up stones (a
/// board the engine's set-up check refuses is an error line).
pub fn new_game(
    any: AnyMachine,
    setup: [Vec<u16>; 2],
    first_player: u8,
) -> Result<Box<dyn Game>, String> {
    with_machine!(any, m => GameW::new(m, setup, first_player)
        .map(|g| Box::new(g) as Box<dyn Game>)
        .map_err(|e| e.to_string()))
}

struct GameW<const W: usize> {
    m: Machine<W>,
    s: State<W>,
    setup: [Vec<u16>; 2],
    first_player: u8,
    played: Vec<(u8, Move)>,
    /// How to take each move back, and whether the turn was handed over
    /// before it.
    undos: Vec<(morrigo_engine::Undo<W>, bool)>,
    /// Moves played when a clean-up resumed the ended game.
    cleanup: Option<usize>,
}

impl<const W: usize> GameW<W> {
    /// Hand the turn to `player` if it is the other's: true when it did.
    fn hand_over_to(&mut self, player: u8) -> Result<bool, String> {
        if player == self.s.pos.to_move {
            return Ok(false);
        }
        match self.m.hand_over(&mut self.s) {
            true => Ok(true),
            false => Err("the turn cannot be handed over in the middle of a turn".into()),
        }
    }

    /// At the point a clean-up resumed the game: the board as it stands on
    /// a fresh history (prisoners and pass stones kept), where the passes
    /// that ended the game are not in the way.
    fn resumed_state(&self) -> Option<State<W>> {
        if self.cleanup != Some(self.played.len()) {
            return None;
        }
        let pos = &self.s.pos;
        let mut st = self
            .m
            .state_from(pos.occ[0], pos.occ[1], pos.in_hand, pos.to_move);
        st.pos.captured = pos.captured;
        st.pos.pass_stones = pos.pass_stones;
        Some(st)
    }

    /// The legal move `intent` names for the player to move.
    fn check_here(&self, intent: Intent) -> Result<Move, String> {
        match self.legal() {
            Err(o) => Err(format!(
                "the game is over ({})",
                outcome_words(&self.m.rules, &o)
            )),
            Ok(moves) => match moves.iter().find(|mv| intent.matches(mv)) {
                Some(mv) => Ok(*mv),
                None => {
                    let fresh = self.resumed_state();
                    let s = fresh.as_ref().unwrap_or(&self.s);
                    Err(one_line(
                        &morrigo_engine::explain(&self.m, s, intent).to_string(),
                    ))
                }
            },
        }
    }

    fn new(
        m: Machine<W>,
        setup: [Vec<u16>; 2],
        first_player: u8,
    ) -> Result<Self, morrigo_engine::SetupError> {
        let s = if setup.iter().all(Vec::is_empty) && first_player == m.rules.start.to_move {
            m.initial()
        } else {
            m.set_up(&morrigo_engine::Setup {
                pieces: setup.clone(),
                in_hand: None,
                to_move: Some(first_player),
            })?
        };
        let setup = if setup.iter().all(Vec::is_empty) {
            m.rules.start.stones.clone()
        } else {
            setup
        };
        Ok(GameW {
            m,
            s,
            setup,
            first_player,
            played: Vec::new(),
            undos: Vec::new(),
            cleanup: None,
        })
    }
}

/// A refusal on one line: a GTP response may not hold an empty line, and
/// a controller shows the first line.
pub fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// A diagnostic on one line: where (when located), the message, what was
/// expected and the notes.
pub fn diag_line(d: &morrigo_diag::Diagnostic) -> String {
    let mut text = match &d.location {
        Some(l) => format!("{l}: {}", d.message),
        None => d.message.clone(),
    };
    if let Some(e) = &d.expected {
        text += &format!(" (expected {e})");
    }
    for n in &d.notes {
        text += &format!("; {n}");
    }
    one_line(&text)
}

/// "black wins by end rule `two-passes`" for an outcome.
pub fn outcome_words(rules: &Rules, o: &Outcome) -> String {
    let who = |p: u8| rules.players.get(p as usize).map_or("?", String::as_str);
    let head = match o.winner {
        Some(w) => format!("{} wins", who(w)),
        None if o.is_no_result(rules) => "no result".to_string(),
        None => "draw".to_string(),
    };
    match o.decided_by() {
        DecidedBy::Rule(_) => format!("{head} by end rule `{}`", o.rule_name(rules)),
        DecidedBy::Resignation | DecidedBy::Agreement => {
            format!("{head} by {}", o.rule_name(rules))
        }
    }
}

impl<const W: usize> Game for GameW<W> {
    fn rules(&self) -> &Arc<Rules> {
        &self.m.rules
    }

    fn to_move(&self) -> u8 {
        self.s.pos.to_move
    }

    fn legal(&self) -> Result<Vec<Move>, Outcome> {
        let mut moves = Vec::new();
        let fresh = self.resumed_state();
        match self
            .m
            .legal_moves(fresh.as_ref().unwrap_or(&self.s), &mut moves)
        {
            Some(o) => Err(o),
            None => Ok(moves),
        }
    }

    fn check(&mut self, player: u8, intent: Intent) -> Result<Move, String> {
        // An ended game is judged as it stands: handing the turn over could
        // give the other player a position the end rules have not ended (the
        // winner of atari-go playing on) and name another winner.
        if let Err(o) = self.legal() {
            return Err(format!(
                "the game is over ({})",
                outcome_words(&self.m.rules, &o)
            ));
        }
        let handed = self.hand_over_to(player)?;
        let checked = self.check_here(intent);
        if handed {
            self.m.hand_over(&mut self.s);
        }
        checked
    }

    fn play(&mut self, player: u8, mv: Move) {
        // `check` handed the turn over for this move, so this cannot fail.
        let handed = self
            .hand_over_to(player)
            .expect("the turn can be handed over");
        let u = self.m.apply(&mut self.s, mv);
        self.undos.push((u, handed));
        self.played.push((player, mv));
    }

    fn undo(&mut self) -> bool {
        match self.undos.pop() {
            Some((u, handed)) => {
                self.m.undo(&mut self.s, u);
                if handed {
                    self.m.hand_over(&mut self.s);
                }
                self.played.pop();
                if self.cleanup.is_some_and(|c| c > self.played.len()) {
                    self.cleanup = None;
                }
                true
            }
            None => false,
        }
    }

    fn choose(
        &mut self,
        player: u8,
        agent: &mut Player,
        rng: &mut SmallRng,
        plain_pass_only: bool,
    ) -> Option<Move> {
        if self.legal().is_err() {
            return None;
        }
        let handed = self.hand_over_to(player).ok()?;
        let mut moves = self.legal().unwrap_or_default();
        if plain_pass_only {
            // A plain pass is the first legal kind (see `plain_pass`).
            let is_pass = |m: &Move| m.kind == MoveKind::Pass;
            let plain = moves.iter().filter(|m| is_pass(m)).map(|m| m.to).min();
            moves.retain(|m| !is_pass(m) || Some(m.to) == plain);
        }
        // At the resumption the agent searches the fresh history, where the
        // game goes on.
        let mut fresh = self.resumed_state();
        let s = fresh.as_mut().unwrap_or(&mut self.s);
        let chosen = (!moves.is_empty()).then(|| agent.choose(&self.m, s, &moves, rng));
        if handed {
            self.m.hand_over(&mut self.s);
        }
        chosen
    }

    fn board(&self) -> String {
        let rules = &self.m.rules;
        let who = |p: u8| rules.players.get(p as usize).map_or("?", String::as_str);
        let pos = &self.s.pos;
        let mut status = format!(
            "{} to move, move {}",
            who(pos.to_move),
            self.played.len() + 1
        );
        if let Some(c) = self.s.last_class() {
            status += &format!("; last move class {}", c as char);
        }
        for p in 0..2u8 {
            let i = p as usize;
            status += &format!(
                "; {}: {} captured, {} pass stones",
                who(p),
                pos.captured[i],
                pos.pass_stones[i]
            );
        }
        format!(
            "\n{}\n{status}",
            morrigo_record::render_board(&self.m.rules, |p| self.m.occupant(&self.s, p))
        )
    }

    fn score(&self) -> [f64; 2] {
        self.m.score(&self.s, &Bits::EMPTY)
    }

    fn score_with(&self, dead: &[u16]) -> [f64; 2] {
        let mut bits = Bits::EMPTY;
        for &p in dead {
            bits.set(p as usize);
        }
        self.m.score(&self.s, &bits)
    }

    fn ended_by_count(&self) -> bool {
        self.legal().err().is_some_and(|o| {
            self.m
                .rules
                .end
                .get(o.rule as usize)
                .is_some_and(|e| e.verdict == morrigo_rules::Verdict::Score)
        })
    }

    fn resume(&mut self) -> bool {
        if self.cleanup.is_some() || !self.ended_by_count() {
            return false;
        }
        self.cleanup = Some(self.played.len());
        true
    }

    fn cleanup_from(&self) -> Option<usize> {
        self.cleanup
    }

    fn dead_estimate(&self, playouts: u32, seed: u64, deadline: Instant) -> Vec<u16> {
        let own = morrigo_play::ownership(
            &self.m,
            &self.s,
            playouts,
            morrigo_play::MCTS_PLAYOUT_PLIES,
            seed,
            deadline,
        );
        let seki = self.m.seki_stones(&self.s);
        morrigo_play::dead_chains(&self.m, &self.s, &own, DEAD_THRESHOLD)
            .iter()
            .filter(|&p| !seki.has(p))
            .map(|p| p as u16)
            .collect()
    }

    fn result(&self) -> GameResult {
        morrigo_sgf::result_of(&self.m, &self.s, self.legal().err())
    }

    fn classes(&self) -> String {
        let classes: Vec<u8> = self.s.classes().collect();
        classes
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let d = if self.s.ends_d(i) { "(D)" } else { "" };
                format!("{}{d}", c as char)
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn captured(&self) -> [u32; 2] {
        self.s.pos.captured
    }

    fn stones(&self, player: u8) -> Vec<u16> {
        (0..self.m.points() as u16)
            .filter(|&p| self.s.owner(p) == Some(player))
            .collect()
    }

    fn seki(&self) -> Vec<u16> {
        self.m
            .seki_stones(&self.s)
            .iter()
            .map(|p| p as u16)
            .collect()
    }

    fn played(&self) -> &[(u8, Move)] {
        &self.played
    }

    fn setup(&self) -> (&[Vec<u16>; 2], u8) {
        (&self.setup, self.first_player)
    }

    fn explain(&mut self, intent: Intent) -> String {
        let rules = &self.m.rules;
        let text = match intent {
            Intent::Pass(k) => notation::pass_text(rules, k),
            _ => intent.format(&rules.topology),
        };
        match self.check(self.s.pos.to_move, intent) {
            Ok(_) => format!("{text} is legal here"),
            Err(why) => format!("{text} is illegal: {why}"),
        }
    }
}
