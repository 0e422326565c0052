//! Helpers shared by the commands: loading a machine, applying a move
//! record, drawing a position, naming moves and outcomes.

use crate::fail::Failure;
use clap::Args;
use morrigo_diag::{Diagnostic, SourceFile};
use morrigo_engine::notation;
use morrigo_engine::{game, AnyMachine, Game, GameState, Move, Outcome};
use morrigo_record::replay_from;
use morrigo_rules::load::{self, Overrides};
use morrigo_rules::{compile, Rules, Verdict};
use std::sync::Arc;

/// `--size` and `--komi`: command-line changes to a ruleset, merged on top
/// of the file like one more variant.
#[derive(Args, Debug, Clone, Default)]
pub struct RulesetOptions {
    /// Board size of a grid ruleset: `9` (square) or `7x5` (columns x rows),
    /// each from 1 to 25.
    #[arg(long, value_name = "N|WxH", value_parser = parse_size)]
    pub size: Option<(u32, u32)>,
    /// Komi: points added to the second player's score (rulesets with
    /// `scoring:` only).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = parse_komi)]
    pub komi: Option<f64>,
}

/// A komi is a finite number: NaN or an infinity would make every score
/// NaN or infinite.
fn parse_komi(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(k) if k.is_finite() => Ok(k),
        Ok(_) => Err(format!("`{text}` is not a finite number of points")),
        Err(_) => Err(format!(
            "`{text}` is not a number (expected points, such as 6.5)"
        )),
    }
}

fn parse_size(text: &str) -> Result<(u32, u32), String> {
    Overrides::parse_size(text)
}

impl RulesetOptions {
    pub fn overrides(&self) -> Overrides {
        Overrides {
            size: self.size,
            komi: self.komi,
        }
    }
}

/// Load and compile a ruleset with the command-line overrides. A flag
/// the ruleset cannot take (`--size` on a Morris board, `--komi` without
/// `scoring:`) is a usage error (exit 2); the ruleset's own errors exit 1.
pub fn rules(spec: &str, opts: &RulesetOptions) -> Result<Rules, Failure> {
    Ok(compile(&loaded(spec, opts)?)?)
}

/// A ruleset read and merged (its `extends` chain, then the command-line
/// overrides), not yet compiled.
pub fn loaded(spec: &str, opts: &RulesetOptions) -> Result<load::Loaded, Failure> {
    let loaded = load::load(spec)?;
    load::with_overrides(loaded, &opts.overrides()).map_err(Failure::Usage)
}

/// Load and compile the game of a ruleset path or built-in name, with
/// `--size`/`--komi` applied: compiled once, then passed down.
pub fn game(spec: &str, opts: &RulesetOptions) -> Result<Game, Failure> {
    Ok(Game::from(machine(spec, opts)?))
}

/// Load, compile and build the machine for a ruleset path or built-in
/// name, with `--size`/`--komi` applied.
pub fn machine(spec: &str, opts: &RulesetOptions) -> Result<AnyMachine, Failure> {
    machine_of(rules(spec, opts)?)
}

pub fn machine_of(rules: Rules) -> Result<AnyMachine, Failure> {
    Ok(AnyMachine::new(Arc::new(rules))?)
}

/// The letter shown on the board for a player's pieces: the initial of its
/// name (`W`, `B`), or `X`/`O` when the initials clash.
pub fn piece_letters(rules: &Rules) -> [char; 2] {
    let initial = |i: usize| {
        rules
            .players
            .get(i)
            .and_then(|n| n.chars().next())
            .map_or('?', |c| c.to_ascii_uppercase())
    };
    let (a, b) = (initial(0), initial(1));
    if a == b || !a.is_alphanumeric() || !b.is_alphanumeric() || a == '.' {
        ['X', 'O']
    } else {
        [a, b]
    }
}

/// The board with the pieces of `s` drawn as letters and empty points as `.`.
/// (morrigo-record's rendering, the same as in transcripts).
pub fn draw(s: &GameState) -> String {
    morrigo_record::render_board(s.rules(), |p| s.owner(p))
}

/// The empty board.
pub fn draw_empty(rules: &Rules) -> String {
    rules.topology.render(|_| '.')
}

/// Writes the board as SVG to `path`, with what `owner` says stands on
/// each point (a mark of a delayed removal is drawn as a cross).
pub fn write_svg(
    rules: &Rules,
    owner: impl Fn(morrigo_board::PointId) -> Option<morrigo_engine::Owner>,
    path: &str,
) -> Result<(), Failure> {
    let text = rules.topology.svg(owner, &rules.players);
    std::fs::write(path, text)
        .map_err(|e| Failure::game(Diagnostic::new(format!("cannot write `{path}`: {e}"))))
}

/// The text of one turn: its move followed by its removals (`g1xd2`).
pub fn turn_text(rules: &Rules, plies: &[Move]) -> String {
    plies
        .iter()
        .map(|m| notation::format_move_in(rules, m))
        .collect()
}

pub fn player_name(rules: &Rules, player: u8) -> &str {
    rules
        .players
        .get(player as usize)
        .map_or("?", String::as_str)
}

/// "white wins (end rule `blocked`: a player who cannot move loses)".
pub fn outcome_text(rules: &Rules, o: &Outcome) -> String {
    let head = match o.winner {
        Some(w) => format!("{} wins", player_name(rules, w)),
        None if o.is_no_result(rules) => "no result".to_string(),
        None => "draw".to_string(),
    };
    let Some(rule) = rules.end.get(o.rule as usize) else {
        return format!("{head} by {}", o.rule_name(rules));
    };
    let verdict = match rule.verdict {
        Verdict::Lose => "the player to move loses",
        Verdict::Win => "the player to move wins",
        Verdict::Draw => "draw",
        Verdict::Score => "the game ends and is counted",
        Verdict::CompareCaptures => "more captured prisoners since the first occurrence wins",
        Verdict::NoResult => "the game ends with no result",
    };
    let why = rule.doc.clone().unwrap_or_else(|| verdict.to_string());
    format!(
        "{head} by end rule `{}`: {why}\n  rule: `{}`{}",
        rule.name,
        rule.when.text,
        rule.when
            .at
            .as_ref()
            .map(|l| format!(" ({l})"))
            .unwrap_or_default()
    )
}

/// "score: black 12, white 13.5 (komi 7.5)" for a counted game (no dead
/// stones), `None` for other endings.
pub fn score_text(s: &GameState, o: &Outcome) -> Option<String> {
    let rules = s.rules();
    let scoring = rules.scoring.as_ref()?;
    if !o.is_counted(rules) {
        return None;
    }
    let score = s.score();
    let komi = if scoring.komi != 0.0 {
        format!(" (komi {} included)", scoring.komi)
    } else {
        String::new()
    };
    Some(format!(
        "score: {} {}, {} {}{komi}",
        player_name(rules, 0),
        score[0],
        player_name(rules, 1),
        score[1]
    ))
}

/// The position a command starts from: the start of the game, or the
/// position after a `--position` record.
pub struct Start {
    pub state: GameState,
    /// Plies played from the start.
    pub plies: usize,
    /// Set when the game is over: why, as `show` says it ("black wins by
    /// resignation"). A record may end the game by a rule or by the players
    /// (`resign`, `agree`), which the engine state alone does not carry.
    pub over: Option<String>,
    /// The score of a counted ending.
    pub score: Option<String>,
    /// The moves played from the start, when every ply of the record is a
    /// move (not a resignation or an agreement).
    pub moves: Option<Vec<Move>>,
}

impl Start {
    /// The position at its game's width `W`: where a hot-loop command
    /// (perft, states, solve) runs the width-generic machine from it.
    pub fn state_at<const W: usize>(&self) -> &morrigo_engine::State<W> {
        self.state
            .parts::<W>()
            .expect("a state has its game's width")
            .1
    }
}

/// The starting position of `perft`, `show` and `states`: one code path, so
/// a record that ends the game (`a1 resign`) is honoured by each of them.
/// The hot loops take the state at their width with `state.parts()`.
pub fn start(game: &Game, position: Option<&str>) -> Result<Start, Diagnostic> {
    let rules = game.rules();
    let (state, t) = match position {
        None => (game.start(), None),
        Some(record) => {
            let file = SourceFile::new("--position", record);
            let (t, s) = replay_from(game.start(), record, &file, 0).map_err(|e| *e.diagnostic)?;
            (s, Some(t))
        }
    };
    let plies = t.as_ref().map_or(0, |t| t.plies.len());
    let (over, score) = match state.legal_moves().err() {
        Some(o) => (Some(outcome_text(rules, &o)), score_text(&state, &o)),
        None => match t.as_ref().map(|t| &t.result) {
            // Ended by the players: the record's last ply says how.
            Some(r) if r.status == morrigo_record::Status::Over => {
                let head = match &r.winner {
                    Some(w) => format!("{w} wins"),
                    None => "draw".to_string(),
                };
                let how = r.reason.clone().unwrap_or_default();
                let score = r.score.map(|sc| {
                    format!(
                        "score: {} {}, {} {}",
                        player_name(rules, 0),
                        sc.0[0],
                        player_name(rules, 1),
                        sc.0[1]
                    )
                });
                (Some(format!("{head} by {how} at ply {plies}")), score)
            }
            _ => (None, None),
        },
    };
    let moves = match &t {
        None => Some(Vec::new()),
        Some(t) => moves_of(rules, t).ok(),
    };
    Ok(Start {
        state,
        plies,
        over,
        score,
        moves,
    })
}

/// Play one token typed by a player (`d1`, `g1xd2`, `D4`, `pass:E`) on
/// `s`, all or nothing, through morrigo-record (the same parsing and the
/// same refusal messages, quoting the rule, as `replay`). Returns the plies
/// played as engine moves.
pub fn play_token(s: &mut GameState, token: &str) -> Result<Vec<Move>, Diagnostic> {
    let file = SourceFile::new("input", token);
    match replay_from(s.clone(), token, &file, 0) {
        Ok((t, next)) => {
            let plies = moves_of(s.rules(), &t)?;
            *s = next;
            Ok(plies)
        }
        Err(e) => {
            let mut d = *e.diagnostic;
            // One token at a time: the ply number and the echo of the
            // typed line say nothing the player does not know.
            if let Some(rest) = d.message.strip_prefix("ply ") {
                if let Some((_, msg)) = rest.split_once(": ") {
                    d.message = msg.to_string();
                }
            }
            d.location = None;
            Err(d)
        }
    }
}

/// The engine moves of a transcript's plies (its canonical move texts).
fn moves_of(rules: &Rules, t: &morrigo_record::Transcript) -> Result<Vec<Move>, Diagnostic> {
    let mut out = Vec::new();
    for p in &t.plies {
        for intent in notation::parse_token_in(rules, &p.mv, None)? {
            out.push(intent_move(rules, intent));
        }
    }
    Ok(out)
}

pub use morrigo_engine::notation::intent_move;

/// The legal moves as text, removals included (`d1 d2 …` or `xd2 xa4`).
pub fn legal_text(rules: &Rules, moves: &[game::Move]) -> String {
    moves
        .iter()
        .map(|mv| notation::format_move_in(rules, &mv.packed()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A Go-style ruleset: board plays with captures (stones, prisoners, passes).
pub fn is_go(rules: &Rules) -> bool {
    rules.play.is_some()
}

/// The status line of a position: for Morris-style rulesets the phase and
/// the pieces in hand and on the board; for Go-style rulesets the last
/// move's class, the prisoners and pass stones.
pub fn status(s: &GameState) -> String {
    let rules = s.rules();
    let p = |i: u8| player_name(rules, i);
    let to_move = s.to_move();
    if !is_go(rules) {
        let (in_hand, on_board) = (s.in_hand(), s.on_board());
        return format!(
            "{} to move, phase {}; in hand: {} {}, {} {}; on board: {} {}, {} {}",
            p(to_move),
            s.phase_name(),
            p(0),
            in_hand[0],
            p(1),
            in_hand[1],
            p(0),
            on_board[0],
            p(1),
            on_board[1],
        );
    }
    let letters = piece_letters(rules);
    let mut text = format!(
        "{} ({}) to move, move {}",
        p(to_move),
        letters[to_move as usize],
        s.turn() + 1
    );
    if let Some(c) = s.last_class() {
        let d = if s.last_ends_d() { ", ending a D" } else { "" };
        text += &format!("; last move class {}{d}", class_name(rules, c));
    }
    let (captured, pass_stones) = (s.captured(), s.pass_stones());
    for pl in 0..2u8 {
        let i = pl as usize;
        text += &format!(
            "; {}: {} captured, {} pass stone{}",
            p(pl),
            captured[i],
            pass_stones[i],
            if pass_stones[i] == 1 { "" } else { "s" }
        );
    }
    text
}

/// `N (normal play)`, `C (ko capture)`, `E (pass)`.
pub fn class_name(rules: &Rules, class: u8) -> String {
    let c = class as char;
    let what = match class {
        morrigo_rules::CLASS_NORMAL => "normal play",
        morrigo_rules::CLASS_KO_CAPTURE => "ko capture",
        _ if rules.passes.kinds.contains(&class) => match class {
            b'P' if rules.passes.kinds.len() > 1 => "normal pass",
            b'E' => "ending pass",
            _ => "pass",
        },
        _ => "?",
    };
    format!("{c} ({what})")
}

/// The legal moves for a prompt: every move for Morris-style rulesets; for
/// Go-style ones the number of board plays and the passes allowed, with the
/// forbid rule that refuses each other pass kind.
pub fn legal_summary(s: &GameState, moves: &[game::Move]) -> String {
    let rules = s.rules();
    if !is_go(rules) || s.pending_removals() > 0 {
        return legal_text(rules, moves);
    }
    let plays = moves
        .iter()
        .filter(|mv| matches!(mv, game::Move::Play { .. }))
        .count();
    let mut parts = vec![format!(
        "{plays} board play{}",
        if plays == 1 { "" } else { "s" }
    )];
    for (k, _) in rules.passes.kinds.iter().enumerate() {
        let text = notation::pass_text(rules, k as u8);
        if moves.contains(&game::Move::Pass { kind: k as u8 }) {
            parts.push(text);
        } else if let Some(f) = s.pass_forbidden_by(k).and_then(|i| rules.forbid.get(i)) {
            parts.push(format!("no {text} (forbidden by `{}`)", f.name));
        }
    }
    parts.join(", ")
}
