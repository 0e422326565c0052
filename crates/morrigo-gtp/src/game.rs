//! One game under a ruleset: its position (the engine's width-erased
//! [`GameState`], so a session can change the board size between games),
//! the moves from the start and how to take them back.

use morrigo_diag::Diagnostic;
use morrigo_engine::game::{Move, Undo};
use morrigo_engine::notation::{self, Intent};
use morrigo_engine::{DecidedBy, GameState, Outcome};
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
pub struct Game {
    s: GameState,
    setup: [Vec<u16>; 2],
    first_player: u8,
    played: Vec<(u8, Move)>,
    /// How to take each move back, and whether the turn was handed over
    /// before it.
    undos: Vec<(Undo, bool)>,
    /// Moves played when a clean-up resumed the ended game.
    cleanup: Option<usize>,
}

/// Build a game on the start position of `any`, or on set-up stones (a
/// board the engine's set-up check refuses is an error line).
pub fn new_game(
    any: morrigo_engine::AnyMachine,
    setup: [Vec<u16>; 2],
    first_player: u8,
) -> Result<Game, String> {
    let game = morrigo_engine::Game::from(any);
    let rules = game.rules();
    let s = if setup.iter().all(Vec::is_empty) && first_player == rules.start.to_move {
        game.start()
    } else {
        game.set_up(&morrigo_engine::Setup {
            pieces: setup.clone(),
            in_hand: None,
            to_move: Some(first_player),
        })
        .map_err(|e| e.to_string())?
    };
    let setup = if setup.iter().all(Vec::is_empty) {
        rules.start.stones.clone()
    } else {
        setup
    };
    Ok(Game {
        s,
        setup,
        first_player,
        played: Vec::new(),
        undos: Vec::new(),
        cleanup: None,
    })
}

impl Game {
    /// Hand the turn to `player` if it is the other's: true when it did.
    fn hand_over_to(&mut self, player: u8) -> Result<bool, String> {
        if player == self.s.to_move() {
            return Ok(false);
        }
        match self.s.hand_over() {
            true => Ok(true),
            false => Err("the turn cannot be handed over in the middle of a turn".into()),
        }
    }

    /// At the point a clean-up resumed the game: the board as it stands on
    /// a fresh history (prisoners and pass stones kept), where the passes
    /// that ended the game are not in the way.
    fn resumed_state(&self) -> Option<GameState> {
        (self.cleanup == Some(self.played.len())).then(|| self.s.on_fresh_history())
    }

    /// The legal move `intent` names for the player to move.
    fn check_here(&self, intent: Intent) -> Result<Move, String> {
        match self.legal() {
            Err(o) => Err(format!(
                "the game is over ({})",
                outcome_words(self.rules(), &o)
            )),
            Ok(moves) => match moves.iter().find(|mv| intent.matches(&mv.packed())) {
                Some(mv) => Ok(*mv),
                None => {
                    let fresh = self.resumed_state();
                    let s = fresh.as_ref().unwrap_or(&self.s);
                    Err(one_line(&s.explain(intent).to_string()))
                }
            },
        }
    }

    /// The rules in force.
    pub fn rules(&self) -> &Arc<Rules> {
        self.s.rules()
    }

    /// The player to move.
    pub fn to_move(&self) -> u8 {
        self.s.to_move()
    }

    /// The legal moves, or how the game ended.
    pub fn legal(&self) -> Result<Vec<Move>, Outcome> {
        match self.resumed_state() {
            Some(fresh) => fresh.legal_moves(),
            None => self.s.legal_moves(),
        }
    }

    /// The legal move an intent names for `player`, or why there is none
    /// (the refusal on one line, naming the rule). For the player not to
    /// move, the move is judged as if the turn had been handed over; once
    /// the game is over no move of either player is legal.
    pub fn check(&mut self, player: u8, intent: Intent) -> Result<Move, String> {
        // An ended game is judged as it stands: handing the turn over could
        // give the other player a position the end rules have not ended (the
        // winner of atari-go playing on) and name another winner.
        if let Err(o) = self.legal() {
            return Err(format!(
                "the game is over ({})",
                outcome_words(self.rules(), &o)
            ));
        }
        let handed = self.hand_over_to(player)?;
        let checked = self.check_here(intent);
        if handed {
            self.s.hand_over();
        }
        checked
    }

    /// Play a move [`Game::check`] gave for `player`, handing the turn over
    /// first when it is the other player's (see `GameState::hand_over`).
    pub fn play(&mut self, player: u8, mv: Move) {
        // `check` handed the turn over for this move, so this cannot fail.
        let handed = self
            .hand_over_to(player)
            .expect("the turn can be handed over");
        let u = self.s.apply_undoable(mv);
        self.undos.push((u, handed));
        self.played.push((player, mv));
    }

    /// Take back the last move (and its hand-over); false when there is
    /// none.
    pub fn undo(&mut self) -> bool {
        match self.undos.pop() {
            Some((u, handed)) => {
                self.s.undo(u);
                if handed {
                    self.s.hand_over();
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

    /// The kind a plain `pass` by `player` stands for: the first kind of
    /// the ruleset's `passes.kinds` legal here (the first kind when none
    /// is, so the refusal names its rule).
    pub fn plain_pass(&mut self, player: u8) -> u8 {
        (0..self.rules().passes.kinds.len() as u8)
            .find(|&k| self.check(player, Intent::Pass(k)).is_ok())
            .unwrap_or(0)
    }

    /// The agent's move for `player` (`None` when the game is over). With
    /// `plain_pass_only` its passes are limited to the kind a plain `pass`
    /// stands for, so a record of plain passes replays to the same game.
    pub fn choose(
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
            let pass_kind = |m: &Move| match *m {
                Move::Pass { kind } => Some(kind),
                _ => None,
            };
            let plain = moves.iter().filter_map(pass_kind).min();
            moves.retain(|m| pass_kind(m).is_none() || pass_kind(m) == plain);
        }
        // At the resumption the agent searches the fresh history, where the
        // game goes on.
        let fresh = self.resumed_state();
        let s = fresh.as_ref().unwrap_or(&self.s);
        let chosen = (!moves.is_empty()).then(|| agent.choose_in(s, &moves, rng));
        if handed {
            self.s.hand_over();
        }
        chosen
    }

    /// The board as text, with a status line.
    pub fn board(&self) -> String {
        let rules = self.rules();
        let who = |p: u8| rules.players.get(p as usize).map_or("?", String::as_str);
        let s = &self.s;
        let mut status = format!(
            "{} to move, move {}",
            who(s.to_move()),
            self.played.len() + 1
        );
        if let Some(c) = s.last_class() {
            status += &format!("; last move class {}", c as char);
        }
        let (captured, pass_stones) = (s.captured(), s.pass_stones());
        for p in 0..2u8 {
            let i = p as usize;
            status += &format!(
                "; {}: {} captured, {} pass stones",
                who(p),
                captured[i],
                pass_stones[i]
            );
        }
        format!(
            "\n{}\n{status}",
            morrigo_record::render_board(rules, |p| s.owner(p))
        )
    }

    /// Each player's count now (no dead stones), komi included.
    pub fn score(&self) -> [f64; 2] {
        self.s.score()
    }

    /// The count with `dead` stones removed (each the opponent's prisoner
    /// under territory scoring), komi included.
    pub fn score_with(&self, dead: &[u16]) -> [f64; 2] {
        self.s.score_with_dead(dead)
    }

    /// Whether an end rule with a `score` verdict (a count) ended the game.
    pub fn ended_by_count(&self) -> bool {
        self.legal().err().is_some_and(|o| {
            self.rules()
                .end
                .get(o.rule as usize)
                .is_some_and(|e| e.verdict == morrigo_rules::Verdict::Score)
        })
    }

    /// Start the clean-up of a dead-stone dispute: a game a count ended
    /// plays on from the board as it stands, the player to move moving,
    /// every rule judging the moves (the move just after the resumption is
    /// judged on a fresh history: the passes that ended the game do not end
    /// it again unless another pass follows). False, and nothing changes,
    /// when no count ended the game or a clean-up has already begun.
    pub fn resume(&mut self) -> bool {
        if self.cleanup.is_some() || !self.ended_by_count() {
            return false;
        }
        self.cleanup = Some(self.played.len());
        true
    }

    /// Moves played before the clean-up began (`None`: no clean-up).
    pub fn cleanup_from(&self) -> Option<usize> {
        self.cleanup
    }

    /// The stones of the chains that ownership playouts from this board
    /// call dead (see [`morrigo_play::dead_stones`]); chains in seki never.
    pub fn dead_estimate(&self, playouts: u32, seed: u64, deadline: Instant) -> Vec<u16> {
        let plies = morrigo_play::MCTS_PLAYOUT_PLIES;
        let mut dead =
            morrigo_play::dead_stones(&self.s, playouts, plies, seed, deadline, DEAD_THRESHOLD);
        let seki = self.s.seki_stones();
        dead.retain(|p| !seki.contains(p));
        dead
    }

    /// The result an ended game has (`Ongoing` while it goes on).
    pub fn result(&self) -> GameResult {
        morrigo_sgf::result_of(&self.s, self.legal().err())
    }

    /// The move-class history (`N C P E`), and where each D ends.
    pub fn classes(&self) -> String {
        self.s
            .classes()
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let d = if self.s.ends_d(i) { "(D)" } else { "" };
                format!("{}{d}", c as char)
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Prisoners each player has taken.
    pub fn captured(&self) -> [u32; 2] {
        self.s.captured()
    }

    /// The stones of a player.
    pub fn stones(&self, player: u8) -> Vec<u16> {
        self.s.pieces(player)
    }

    /// The stones of the chains in seki (the reading `seki: nobody` scores
    /// with).
    pub fn seki(&self) -> Vec<u16> {
        self.s.seki_stones()
    }

    /// The moves from the start position, each with its player.
    pub fn played(&self) -> &[(u8, Move)] {
        &self.played
    }

    /// The game as SGF (`HA` when `handicap` is given), ending in `result`.
    pub fn sgf(&self, handicap: Option<u32>, result: &GameResult) -> Result<String, Diagnostic> {
        let played: Vec<_> = self
            .played
            .iter()
            .map(|&(p, mv)| (p, mv.packed()))
            .collect();
        let (setup, first) = (&self.setup, self.first_player);
        morrigo_sgf::export_played(self.rules(), setup, first, handicap, &played, result)
    }

    /// The set-up stones and first player of the start position.
    pub fn setup(&self) -> (&[Vec<u16>; 2], u8) {
        (&self.setup, self.first_player)
    }

    /// Why `intent` is or is not legal, as `morrigo-explain` answers.
    pub fn explain(&mut self, intent: Intent) -> String {
        let rules = self.rules();
        let text = match intent {
            Intent::Pass(k) => notation::pass_text(rules, k),
            _ => intent.format(&rules.topology),
        };
        match self.check(self.s.to_move(), intent) {
            Ok(_) => format!("{text} is legal here"),
            Err(why) => format!("{text} is illegal: {why}"),
        }
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
