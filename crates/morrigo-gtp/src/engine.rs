//! `morrigo gtp`: a GTP engine playing a Go-style ruleset with a built-in
//! agent.
//!
//! Passes: `play b pass:E` plays a pass of kind `E`; a plain `pass` is the
//! **first pass kind of the ruleset's `passes.kinds` that is legal there**
//! (refused, with the rule, when none is). `genmove` answers a pass by its
//! kind (`pass:E`) when the ruleset has several kinds, else `pass`.
//! Consecutive moves of one colour (which GTP allows, and GUIs send to set
//! up a position) hand the turn over first: the move is judged by every
//! rule as that player's, and the skipped turn leaves nothing in the
//! history (no move class, no pass stone); `undo` takes both back.
//!
//! Handicap (`fixed_handicap`, `place_free_handicap`, `set_free_handicap`):
//! on an empty board before the first move, the stones become Black's
//! set-up stones and White is to move, as SGF `AB` with `PL[W]`; they are
//! not moves (`undo` does not take them back) and `clear_board` removes
//! them. `place_free_handicap` chooses the fixed placement where the
//! standard has one (see [`crate::handicap::free`]).

use crate::game::{diag_line, new_game, outcome_words, Game};
use crate::handicap;
use crate::protocol::{parse_colour, parse_vertex, vertex_text, Command, Reply, MAX_LINE};
use morrigo_diag::{read_line_limited, Diagnostic, LineRead};
use morrigo_engine::game::Move;
use morrigo_engine::notation::{self, Intent};
use morrigo_engine::AnyMachine;
use morrigo_play::{game_rng, AgentSpec, Player};
use morrigo_rules::load::Overrides;
use morrigo_rules::Rules;
use morrigo_sgf::{GameResult, Turns};
use rand::rngs::SmallRng;
use std::io::{self, BufRead, Write};
use std::sync::Arc;

/// The name `name` answers.
pub const ENGINE_NAME: &str = "Morrigo";

/// Playouts of the ownership estimate `final_status_list dead` answers
/// with, and the time it may take at most.
pub const DEAD_PLAYOUTS: u32 = 256;
/// The most time (seconds) that estimate may take.
pub const DEAD_SECS: f64 = 2.0;

/// Largest SGF file `loadsgf` reads (bytes).
pub const MAX_SGF_BYTES: u64 = 16 * 1024 * 1024;

/// The standard commands, then Morrigo's extensions, as `list_commands`
/// lists them.
pub const COMMANDS: [&str; 26] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "play",
    "genmove",
    "kgs-genmove_cleanup",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "loadsgf",
    "printsgf",
    "time_settings",
    "time_left",
    "morrigo-explain",
    "morrigo-legal",
    "morrigo-classes",
];

/// What the session was started with.
#[derive(Clone, Debug)]
pub struct Config {
    /// Ruleset path or built-in name.
    pub ruleset: String,
    /// `--size` / `--komi` from the command line.
    pub overrides: Overrides,
    /// The agent that answers `genmove`.
    pub agent: AgentSpec,
    /// Seeds the agent's random choices; each new game reseeds from it.
    pub seed: u64,
    /// `genmove` answers every pass as GTP's plain `pass` (for GUIs that
    /// know no other), and the agent passes only by the kind a plain `pass`
    /// stands for, so the GUI's record replays to the same game.
    pub plain_passes: bool,
}

/// A GTP session.
pub struct Engine {
    cfg: Config,
    /// The size and komi in force (the command line's, then `boardsize`
    /// and `komi`).
    overrides: Overrides,
    game: Game,
    player: Player,
    rng: SmallRng,
    /// Games started (`clear_board`, `boardsize`, `loadsgf`, the handicap
    /// commands): the agent's generator of each game is its own.
    games: u64,
    /// The handicap stones placed by a handicap command (`HA` in
    /// `printsgf`).
    handicap: Option<u32>,
    /// The last dead-stone estimate and the board it is of (black's and
    /// white's stones): `alive`, `dead` and `seki` of one board agree.
    dead: Option<([Vec<u16>; 2], Vec<u16>)>,
}

/// Load a Go-style ruleset for GTP: a Morris ruleset or a board that is
/// not a GTP grid is refused.
pub fn load(spec: &str, overrides: &Overrides) -> Result<AnyMachine, Diagnostic> {
    let rules = morrigo_rules::load_rules_with(spec, overrides).map_err(first)?;
    go_board(&rules)?;
    AnyMachine::new(Arc::new(rules))
}

fn first(ds: morrigo_diag::Diagnostics) -> Diagnostic {
    ds.0.into_iter()
        .next()
        .unwrap_or_else(|| Diagnostic::new("the ruleset cannot be loaded"))
}

/// GTP plays on a grid named as GTP names points, with board plays.
pub fn go_board(rules: &Rules) -> Result<(), Diagnostic> {
    if rules.play.is_none() {
        return Err(Diagnostic::new(format!(
            "GTP plays Go-style games, and ruleset `{}` has no board plays (a Morris-family ruleset)",
            rules.name
        ))
        .expected("a Go-style ruleset (with a `play:` section), such as `chinese` or `jk-final`"));
    }
    if let Some(what) = inexpressible(rules) {
        return Err(Diagnostic::new(format!(
            "GTP names a move by one vertex or `pass`, and ruleset `{}` has {what}, which GTP cannot express",
            rules.name
        ))
        .expected("a Go-style ruleset whose moves are board plays and passes, such as `chinese` or `jk-final`"));
    }
    let t = &rules.topology;
    let named = (0..t.width).all(|c| (0..t.height).all(|r| t.point(&vertex_text(c, r)).is_some()));
    if !named || t.len() as u64 != u64::from(t.width) * u64::from(t.height) {
        return Err(Diagnostic::new(format!(
            "GTP needs a grid board named as GTP names points (`A1`, columns skipping `I`), and ruleset `{}` has another board",
            rules.name
        ))
        .expected("`board: grid: { …, naming: gtp }`"));
    }
    Ok(())
}

/// The first part of a ruleset that makes moves other than board plays
/// (or placements) and passes: a removal, a slide, a fly or a leap names
/// a second point or an opposing piece, which a GTP vertex cannot.
pub fn inexpressible(rules: &Rules) -> Option<String> {
    use morrigo_rules::{ActionKind, CaptureKind, CaptureTake};
    if rules.line_rule.is_some() {
        return Some("a line rule (completed lines earn removals)".into());
    }
    for phase in &rules.phases {
        if phase.remove.is_some() || phase.remove_own.is_some() {
            return Some(format!("removals in phase `{}`", phase.name));
        }
        if let Some(a) = phase
            .actions
            .iter()
            .find(|a| matches!(a.kind, ActionKind::Slide | ActionKind::Fly))
        {
            return Some(format!("{} moves in phase `{}`", a.kind.name(), phase.name));
        }
    }
    for c in &rules.captures {
        if c.kind == CaptureKind::Leap {
            return Some(format!(
                "the leap capture `{}` (a move from one point to another)",
                c.name
            ));
        }
        if c.take != CaptureTake::All {
            return Some(format!(
                "the capture `{}` taken one removal at a time (`take: {}`)",
                c.name,
                c.take.name()
            ));
        }
    }
    None
}

impl Engine {
    /// Start a session: load the ruleset and prepare the agent, or return
    /// the diagnostic of why it cannot start.
    pub fn new(cfg: Config) -> Result<Self, Diagnostic> {
        let any = load(&cfg.ruleset, &cfg.overrides)?;
        morrigo_play::prepare_agents(any.rules(), &[cfg.agent], morrigo_play::ON_THE_FLY_MEMORY)
            .map_err(Diagnostic::new)?;
        let rules = any.rules().clone();
        Ok(Engine {
            overrides: cfg.overrides,
            player: Player::new(cfg.agent),
            rng: game_rng(cfg.seed, 0),
            game: new_game(any, rules.start.stones.clone(), rules.start.to_move)
                .map_err(Diagnostic::new)?,
            cfg,
            games: 0,
            handicap: None,
            dead: None,
        })
    }

    /// The rules in force.
    pub fn rules(&self) -> &Arc<Rules> {
        self.game.rules()
    }

    /// Serve commands from `input` until `quit` or the end of the input.
    pub fn run(&mut self, input: &mut impl BufRead, out: &mut impl Write) -> io::Result<()> {
        let mut bytes = Vec::new();
        loop {
            match read_line_limited(input, &mut bytes, MAX_LINE)? {
                LineRead::End => return Ok(()),
                LineRead::Line => {}
                LineRead::TooLong => {
                    let reply =
                        Reply::Failure(format!("command line longer than {MAX_LINE} bytes"));
                    out.write_all(reply.format(None).as_bytes())?;
                    out.flush()?;
                    continue;
                }
            }
            let line = String::from_utf8_lossy(&bytes);
            let Some(cmd) = crate::protocol::parse_line(&line) else {
                continue;
            };
            let reply = self.handle(&cmd);
            out.write_all(reply.format(cmd.id).as_bytes())?;
            out.flush()?;
            if cmd.name == "quit" {
                return Ok(());
            }
        }
    }

    /// Answer one command.
    pub fn handle(&mut self, cmd: &Command) -> Reply {
        match self.answer(cmd) {
            Ok(text) => Reply::Success(text),
            Err(text) => Reply::Failure(text),
        }
    }

    fn answer(&mut self, cmd: &Command) -> Result<String, String> {
        let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        match (cmd.name.as_str(), args.as_slice()) {
            ("protocol_version", []) => Ok("2".into()),
            ("name", []) => Ok(ENGINE_NAME.into()),
            ("version", []) => Ok(env!("CARGO_PKG_VERSION").into()),
            ("known_command", [name]) => Ok(COMMANDS.contains(name).to_string()),
            ("list_commands", []) => Ok(COMMANDS.join("\n")),
            ("quit", []) => Ok(String::new()),
            ("boardsize", [n]) => self.boardsize(n),
            ("clear_board", []) => self.restart(),
            ("komi", [k]) => self.komi(k),
            ("fixed_handicap", [n]) => self.fixed_handicap(n),
            ("place_free_handicap", [n]) => self.place_free_handicap(n),
            ("set_free_handicap", vertices) => self.set_free_handicap(vertices),
            ("play", [colour, mv]) => self.play(colour, mv),
            ("genmove" | "kgs-genmove_cleanup", [colour]) => self.genmove(colour),
            ("undo", []) => match self.game.undo() {
                true => Ok(String::new()),
                false => Err("cannot undo".into()),
            },
            ("showboard", []) => Ok(self.game.board()),
            ("final_score", []) => self.final_score(),
            ("final_status_list", [status]) => self.final_status_list(status),
            ("loadsgf", [file]) => self.loadsgf(file, None),
            ("loadsgf", [file, n]) => {
                let n = n
                    .parse::<usize>()
                    .map_err(|_| format!("syntax error: `{n}` is not a move number"))?;
                self.loadsgf(file, Some(n))
            }
            ("printsgf", []) => self.sgf(),
            ("printsgf", [file]) => {
                let text = self.sgf()?;
                write_regular(std::path::Path::new(file), text.as_bytes())
                    .map_err(|e| format!("cannot write `{file}`: {e}"))?;
                Ok(String::new())
            }
            ("time_settings", [a, b, c]) => {
                for n in [a, b, c] {
                    n.parse::<u64>()
                        .map_err(|_| format!("syntax error: `{n}` is not a whole number"))?;
                }
                Ok(String::new())
            }
            ("time_left", [colour, t, stones]) => {
                self.colour(colour)?;
                for n in [t, stones] {
                    n.parse::<u64>()
                        .map_err(|_| format!("syntax error: `{n}` is not a whole number"))?;
                }
                Ok(String::new())
            }
            ("morrigo-explain", [mv]) => {
                let intent = self.intent(mv, self.game.to_move())?;
                Ok(self.game.explain(intent))
            }
            ("morrigo-legal", []) => match self.game.legal() {
                Ok(moves) => Ok(moves
                    .iter()
                    .map(|mv| self.move_text(mv))
                    .collect::<Vec<_>>()
                    .join(" ")),
                Err(o) => Err(format!(
                    "the game is over ({})",
                    outcome_words(self.rules(), &o)
                )),
            },
            ("morrigo-classes", []) => Ok(self.game.classes()),
            ("", _) => Err("syntax error: no command after the id".into()),
            (name, _) if COMMANDS.contains(&name) => Err(format!(
                "syntax error: wrong number of arguments to `{name}` ({} given)",
                args.len()
            )),
            _ => Err("unknown command".into()),
        }
    }

    /// A new game with the current settings.
    fn restart(&mut self) -> Result<String, String> {
        let any = AnyMachine::new(self.rules().clone()).map_err(|d| diag_line(&d))?;
        let rules = any.rules().clone();
        self.game = new_game(any, rules.start.stones.clone(), rules.start.to_move)?;
        self.new_game_rng();
        Ok(String::new())
    }

    fn new_game_rng(&mut self) {
        self.handicap = None;
        self.games += 1;
        self.rng = game_rng(self.cfg.seed, self.games);
        self.player.new_game();
    }

    fn reload(&self, overrides: &Overrides) -> Result<AnyMachine, String> {
        load(&self.cfg.ruleset, overrides).map_err(|d| diag_line(&d))
    }

    fn boardsize(&mut self, n: &str) -> Result<String, String> {
        let n: u32 = n
            .parse()
            .map_err(|_| format!("syntax error: `{n}` is not a board size"))?;
        let overrides = Overrides {
            size: Some((n, n)),
            ..self.overrides
        };
        if !(1..=25).contains(&n) {
            return Err("unacceptable size".into());
        }
        let any = self
            .reload(&overrides)
            .map_err(|_| "unacceptable size".to_string())?;
        let rules = any.rules().clone();
        self.overrides = overrides;
        self.game = new_game(any, rules.start.stones.clone(), rules.start.to_move)?;
        self.new_game_rng();
        Ok(String::new())
    }

    /// `komi`: a ruleset without scoring takes it and counts nothing; the
    /// moves played so far are kept.
    fn komi(&mut self, k: &str) -> Result<String, String> {
        let komi: f64 = k
            .parse()
            .ok()
            .filter(|k: &f64| k.is_finite())
            .ok_or_else(|| format!("syntax error: `{k}` is not a komi"))?;
        if self.rules().scoring.is_none() {
            return Ok(String::new());
        }
        let overrides = Overrides {
            komi: Some(komi),
            ..self.overrides
        };
        let any = self.reload(&overrides)?;
        let (setup, first) = {
            let (s, f) = self.game.setup();
            (s.clone(), f)
        };
        let played = self.game.played().to_vec();
        let mut game = new_game(any, setup, first)?;
        for (player, mv) in played {
            game.play(player, mv);
        }
        self.game = game;
        self.overrides = overrides;
        Ok(String::new())
    }

    /// Handicap stones go on an empty board before the first move.
    fn handicap_allowed(&self) -> Result<(), String> {
        if (0..2).any(|p| !self.game.stones(p).is_empty()) {
            let rules = self.rules();
            if self.game.played().is_empty() && rules.start.stones.iter().any(|s| !s.is_empty()) {
                return Err(format!(
                    "board not empty: ruleset `{}` starts with set-up stones",
                    rules.name
                ));
            }
            return Err("board not empty".into());
        }
        match self.game.played().len() {
            0 => Ok(()),
            n => Err(format!(
                "handicap stones go on before the first move, and {n} move{} been played (clear_board first)",
                if n == 1 { " has" } else { "s have" }
            )),
        }
    }

    /// Start the handicap game: `points` as Black's set-up stones, White
    /// to move. Answers the vertices.
    fn place_handicap(&mut self, points: &[(u32, u32)]) -> Result<String, String> {
        let rules = self.rules().clone();
        let mut stones = Vec::with_capacity(points.len());
        let mut names = Vec::with_capacity(points.len());
        for &(c, r) in points {
            let name = vertex_text(c, r);
            let p = rules
                .topology
                .point(&name)
                .ok_or_else(|| format!("bad vertex list: {name} is not on the board"))?;
            stones.push(p);
            names.push(name);
        }
        let any = AnyMachine::new(rules).map_err(|d| diag_line(&d))?;
        self.game = new_game(any, [stones, Vec::new()], 1)?;
        self.new_game_rng();
        self.handicap = Some(points.len() as u32);
        Ok(names.join(" "))
    }

    fn fixed_handicap(&mut self, n: &str) -> Result<String, String> {
        let n = stone_count(n)?;
        self.handicap_allowed()?;
        let t = &self.rules().topology;
        let (w, h) = (t.width, t.height);
        let max = handicap::fixed_max(w);
        let points = u32::try_from(n)
            .ok()
            .filter(|_| w == h)
            .and_then(|n| handicap::fixed(w, n));
        match points {
            Some(points) => self.place_handicap(&points),
            None if w != h => Err(format!(
                "invalid number of stones: fixed handicap is defined on square boards only, and this one is {w}x{h} (place_free_handicap or set_free_handicap place stones on any board)"
            )),
            None if max == 0 => Err(format!(
                "invalid number of stones: fixed handicap is defined from 7x7 up, and this board is {w}x{h} (place_free_handicap or set_free_handicap place stones on any board)"
            )),
            None => Err(format!(
                "invalid number of stones: fixed handicap on {w}x{h} is 2 to {max} stones"
            )),
        }
    }

    fn place_free_handicap(&mut self, n: &str) -> Result<String, String> {
        let n = stone_count(n)?;
        self.handicap_allowed()?;
        let t = &self.rules().topology;
        let (w, h) = (t.width, t.height);
        let max = i64::from(w * h) - 1;
        if !(2..=max).contains(&n) {
            return Err(format!(
                "invalid number of stones: 2 to {max} on a {w}x{h} board"
            ));
        }
        self.place_handicap(&handicap::free(w, h, n as u32))
    }

    fn set_free_handicap(&mut self, vertices: &[&str]) -> Result<String, String> {
        let mut points = Vec::with_capacity(vertices.len());
        for v in vertices {
            if v.eq_ignore_ascii_case("pass") {
                points.push(None);
                continue;
            }
            let p =
                parse_vertex(v).ok_or_else(|| format!("syntax error: `{v}` is not a vertex"))?;
            points.push(Some(p));
        }
        self.handicap_allowed()?;
        let t = &self.rules().topology;
        let (w, h) = (t.width, t.height);
        let max = (w * h) as usize - 1;
        if !(2..=max).contains(&points.len()) {
            return Err(format!(
                "bad vertex list: 2 to {max} stones on a {w}x{h} board, {} given",
                points.len()
            ));
        }
        let mut seen = Vec::with_capacity(points.len());
        for (v, p) in vertices.iter().zip(&points) {
            let name = v.to_ascii_uppercase();
            let Some((c, r)) = *p else {
                return Err("bad vertex list: pass is not a handicap stone".into());
            };
            if c >= w || r >= h {
                return Err(format!("bad vertex list: {name} is off the {w}x{h} board"));
            }
            if seen.contains(&(c, r)) {
                return Err(format!("bad vertex list: {name} is given twice"));
            }
            seen.push((c, r));
        }
        self.place_handicap(&seen).map(|_| String::new())
    }

    fn colour(&self, text: &str) -> Result<u8, String> {
        parse_colour(text).ok_or_else(|| format!("syntax error: `{text}` is not a colour"))
    }

    /// The intent a GTP move names: a vertex, `pass` (the first pass kind
    /// legal here, when `plain_pass` says so) or `pass:K`.
    fn intent(&mut self, text: &str, colour: u8) -> Result<Intent, String> {
        let rules = self.rules().clone();
        let lower = text.to_ascii_lowercase();
        if lower == "pass" {
            return Ok(Intent::Pass(self.game.plain_pass(colour)));
        }
        if lower.starts_with("pass:") {
            return notation::parse_token_in(&rules, text, None)
                .map(|i| i[0])
                .map_err(|d| format!("syntax error: {}", diag_line(&d)));
        }
        let (col, row) = parse_vertex(text).ok_or_else(|| {
            let hint = match text.starts_with(['i', 'I']) {
                true => " (GTP column letters skip `I`: `H` is followed by `J`)",
                false => " (a vertex such as `D4`, `pass` or `pass:E`)",
            };
            format!("syntax error: `{text}` is not a vertex{hint}")
        })?;
        match rules.topology.point(&vertex_text(col, row)) {
            Some(p) => Ok(Intent::Place(p)),
            None => Err(format!(
                "illegal move: {} is off the {}x{} board",
                text.to_ascii_uppercase(),
                rules.topology.width,
                rules.topology.height
            )),
        }
    }

    fn move_text(&self, mv: &Move) -> String {
        notation::format_move_in(self.rules(), &mv.packed())
    }

    /// Under `dead_stones: agreement` a game a count ended plays on when a
    /// move comes (the clean-up of a dead-stone dispute, as `morrigo match`
    /// and the KGS server play it).
    fn resume_for_cleanup(&mut self) {
        let agreement = self
            .rules()
            .scoring
            .as_ref()
            .is_some_and(|s| s.dead_stones == morrigo_rules::DeadStones::Agreement);
        if agreement {
            self.game.resume();
        }
    }

    fn play(&mut self, colour: &str, mv: &str) -> Result<String, String> {
        let colour = self.colour(colour)?;
        self.resume_for_cleanup();
        let intent = self.intent(mv, colour)?;
        let mv = self
            .game
            .check(colour, intent)
            .map_err(|why| format!("illegal move: {why}"))?;
        self.game.play(colour, mv);
        Ok(String::new())
    }

    fn genmove(&mut self, colour: &str) -> Result<String, String> {
        let colour = self.colour(colour)?;
        self.resume_for_cleanup();
        if let Err(o) = self.game.legal() {
            return Err(format!(
                "the game is over ({})",
                outcome_words(self.rules(), &o)
            ));
        }
        let plain = self.cfg.plain_passes;
        match self
            .game
            .choose(colour, &mut self.player, &mut self.rng, plain)
        {
            Some(mv) => {
                self.game.play(colour, mv);
                Ok(match mv {
                    Move::Pass { .. } if plain => "pass".into(),
                    _ => self.move_text(&mv),
                })
            }
            // The rules leave the player no move and end nothing: resign.
            None => Ok("resign".into()),
        }
    }

    fn final_score(&mut self) -> Result<String, String> {
        let result = match self.game.legal() {
            Err(_) => match self.dead_count() {
                Some(r) => r,
                None => self.game.result(),
            },
            Ok(_) => match self.rules().scoring {
                None => {
                    return Err(
                        "cannot score: the ruleset has no scoring and the game is not over".into(),
                    )
                }
                Some(_) => {
                    let [b, w] = self.game.score();
                    self.counted(b, w)
                }
            },
        };
        self.result_text(result)
    }

    /// The count of a game a count ended, with this engine's dead stones
    /// removed under `dead_stones: agreement` (as a controller that scores
    /// with `final_status_list dead` would count it).
    fn dead_count(&mut self) -> Option<GameResult> {
        if !self.game.ended_by_count() {
            return None;
        }
        let dead = self.dead_stones();
        if dead.is_empty() {
            return None;
        }
        let [b, w] = self.game.score_with(&dead);
        Some(self.counted(b, w))
    }

    fn counted(&self, b: f64, w: f64) -> GameResult {
        match morrigo_engine::winner([b, w]) {
            None => GameResult::Draw,
            Some(player) => GameResult::Win {
                player,
                margin: morrigo_sgf::Margin::Score((b - w).abs()),
            },
        }
    }

    fn result_text(&self, result: GameResult) -> Result<String, String> {
        match result {
            GameResult::Void => Err("cannot score: the game ended with no result".into()),
            // A win by an end rule that does not count (a capture in
            // atari-go, a suicide that loses) has no margin: `B+F`, SGF's
            // win by forfeit, says it was not counted (`B+` would read as
            // an unknown margin).
            GameResult::Win {
                player,
                margin: morrigo_sgf::Margin::Rule,
            } => Ok(format!("{}+F", if player == 0 { 'B' } else { 'W' })),
            r => Ok(r.to_sgf().unwrap_or_else(|| "0".into())),
        }
    }

    /// `dead`: under `dead_stones: agreement` the chains ownership
    /// playouts from this board give the opponent (seeded, at most
    /// [`DEAD_PLAYOUTS`] in [`DEAD_SECS`]); elsewhere none, the board
    /// counting as it stands. `seki`: the chains in seki by the reading
    /// `seki: nobody` scores with (never dead). `alive`: the other stones.
    fn final_status_list(&mut self, status: &str) -> Result<String, String> {
        let seki = self.game.seki();
        let status = status.to_ascii_lowercase();
        if !["alive", "dead", "seki"].contains(&status.as_str()) {
            return Err(format!(
                "syntax error: `{status}` is not a status (alive, dead or seki)"
            ));
        }
        let dead = self.dead_stones();
        let t = &self.rules().topology;
        let points: Vec<u16> = match status.as_str() {
            "alive" => [0, 1]
                .iter()
                .flat_map(|&p| self.game.stones(p))
                .filter(|p| !seki.contains(p) && !dead.contains(p))
                .collect(),
            "seki" => seki,
            "dead" => dead,
            _ => {
                return Err(format!(
                    "syntax error: `{status}` is not a status (alive, dead or seki)"
                ))
            }
        };
        Ok(points
            .iter()
            .map(|&p| t.name(p).to_string())
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// The dead-stone estimate of this board, computed once per board.
    fn dead_stones(&mut self) -> Vec<u16> {
        let agreement = self
            .rules()
            .scoring
            .as_ref()
            .is_some_and(|s| s.dead_stones == morrigo_rules::DeadStones::Agreement);
        if !agreement {
            return Vec::new();
        }
        let board = [self.game.stones(0), self.game.stones(1)];
        if let Some((b, dead)) = &self.dead {
            if *b == board {
                return dead.clone();
            }
        }
        // Seeded by the session's seed and the board: the same board, the
        // same answer.
        let mut key = self.cfg.seed;
        for (c, stones) in board.iter().enumerate() {
            for &p in stones {
                key = morrigo_play::splitmix64(key ^ (u64::from(p) << 1 | c as u64));
            }
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(DEAD_SECS);
        let dead = self.game.dead_estimate(DEAD_PLAYOUTS, key, deadline);
        self.dead = Some((board, dead.clone()));
        dead
    }

    fn loadsgf(&mut self, file: &str, until: Option<usize>) -> Result<String, String> {
        let fail = |why: String| format!("cannot load file: {why}");
        let text = read_regular(std::path::Path::new(file), MAX_SGF_BYTES)
            .map_err(|why| fail(format!("`{file}`: {why}")))?;
        let source = morrigo_diag::SourceFile::new(file, text.as_str());
        let info = morrigo_sgf::info(&source).map_err(|d| fail(diag_line(&d)))?;
        let mut overrides = self.overrides;
        overrides.size = Some(info.size.unwrap_or((19, 19)));
        if let (Some(k), Some(_)) = (info.komi, self.rules().scoring.as_ref()) {
            overrides.komi = Some(k);
        }
        let any = self.reload(&overrides).map_err(fail)?;
        let game = morrigo_sgf::import_source_with(&source, any.rules(), Turns::AsRecorded)
            .map_err(|d| fail(diag_line(&d)))?;
        let rules = any.rules().clone();
        let mut g = new_game(any, game.setup.clone(), game.first_player).map_err(fail)?;
        let stop = until.map_or(game.moves.len(), |n| n.saturating_sub(1));
        for m in game.moves.iter().take(stop) {
            let intents = notation::parse_token_in(&rules, &m.token, None)
                .map_err(|d| fail(diag_line(&d)))?;
            for intent in intents {
                let mv = g
                    .check(m.player, intent)
                    .map_err(|why| fail(format!("move {} ({}): {why}", m.move_number, m.sgf)))?;
                g.play(m.player, mv);
            }
        }
        self.overrides = overrides;
        self.game = g;
        self.new_game_rng();
        // Handicap stones are the set-up stones of Black alone.
        self.handicap = info
            .handicap
            .filter(|_| !game.setup[0].is_empty() && game.setup[1].is_empty());
        Ok(String::new())
    }

    fn sgf(&self) -> Result<String, String> {
        self.game
            .sgf(self.handicap, &self.game.result())
            .map(|t| t.trim_end().to_string())
            .map_err(|d| diag_line(&d))
    }
}

/// The text of `path` if it is a regular file of at most `max` bytes.
/// Checked before opening and again on the open file (opened without
/// waiting), so a FIFO or a device is refused at once, never waited on.
fn read_regular(path: &std::path::Path, max: u64) -> Result<String, String> {
    let regular = |m: &std::fs::Metadata| match m.is_file() {
        true => Ok(()),
        false => Err(
            "it is not a regular file (a FIFO, a device or a directory is not read)".to_string(),
        ),
    };
    regular(&std::fs::metadata(path).map_err(|e| e.to_string())?)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| e.to_string())?;
    regular(&file.metadata().map_err(|e| e.to_string())?)?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(file, max + 1), &mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > max {
        return Err(format!(
            "it is larger than {max} bytes, the limit for an input file"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "it is not UTF-8 text (at byte {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Write `path` whole (temporary file, rename); an existing target that
/// is not a regular file (a FIFO would be waited on) is refused.
fn write_regular(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    if let Ok(m) = std::fs::metadata(path) {
        if !m.is_file() {
            return Err("it is not a regular file".into());
        }
    }
    morrigo_store::write_atomic(path, bytes).map_err(|e| match e {
        morrigo_store::StoreError::Io { source, .. } => source.to_string(),
        e => e.to_string(),
    })
}

/// The number argument of a handicap command.
fn stone_count(text: &str) -> Result<i64, String> {
    text.parse()
        .map_err(|_| format!("syntax error: `{text}` is not a number of stones"))
}
