//! Replaying a move record through the engine.

use crate::transcript::{GoPly, PlyRecord, ResultRecord, Score, Status, Transcript};
use morrigo_board::Named;
use morrigo_diag::{Diagnostic, Location, SourceFile};
use morrigo_engine::game::Move;
use morrigo_engine::notation::{self, Intent};
use morrigo_engine::{DecidedBy, Game, GameState, Outcome, Owner, Point};
use morrigo_rules::{Rules, Verdict};
use std::sync::Arc;

/// A record that could not be replayed to the end: the located error, and
/// everything that was played before it (work is never lost).
#[derive(Clone, Debug, thiserror::Error)]
#[error("{diagnostic}")]
pub struct ReplayError {
    /// What went wrong, located in the record's source.
    pub diagnostic: Box<Diagnostic>,
    /// The game up to (not including) the failing ply.
    pub transcript: Box<Transcript>,
    /// 1-based number of the ply that failed.
    pub ply: usize,
}

/// Replay `record` from the start of a game.
///
/// `source` names where the record came from, for error locations: pass
/// `SourceFile::new("--moves", record)` for a command-line record, or the
/// file the record was read from (the record may be the file's whole text
/// or a part of it; each token is located by searching the file in order).
pub fn replay(game: &Game, record: &str, source: &SourceFile) -> Result<Transcript, ReplayError> {
    replay_from(game.start(), record, source, 0).map(|(t, _)| t)
}

/// Replay `record` from a given state (a scenario set-up); returns the
/// transcript and the final state. `start` is the byte offset in `source`
/// from which the record's tokens are searched for (for error locations).
pub fn replay_from(
    state: GameState,
    record: &str,
    source: &SourceFile,
    start: usize,
) -> Result<(Transcript, GameState), ReplayError> {
    let t = empty_transcript(state.rules());
    replay_more(t, state, record, source, start)
}

/// Play `record` on after a game already replayed (`t` and `state` from
/// [`replay_from`]), as if it were appended to that game's record: plies
/// are numbered on and the result is the whole game's. A game the players
/// ended (a resignation or an agreement, which a transcript does not
/// carry) must be replayed whole instead: here it would play on.
pub fn replay_more(
    mut t: Transcript,
    mut state: GameState,
    record: &str,
    source: &SourceFile,
    start: usize,
) -> Result<(Transcript, GameState), ReplayError> {
    let mut ended = None;
    let result = play(&mut state, record, source, start, &mut t, &mut ended);
    finish(&state, ended, &mut t);
    match result {
        Ok(()) => Ok((t, state)),
        Err(diagnostic) => {
            let ply = t.plies.len() + 1;
            Err(ReplayError {
                diagnostic: Box::new(diagnostic),
                transcript: Box::new(t),
                ply,
            })
        }
    }
}

fn empty_transcript(rules: &Rules) -> Transcript {
    Transcript {
        ruleset: rules.name.clone(),
        players: rules.players.clone(),
        plies: Vec::new(),
        result: ResultRecord {
            status: Status::Ongoing,
            winner: None,
            reason: None,
            rule: None,
            rule_at: None,
            doc: None,
            to_move: rules.players[rules.start.to_move as usize].clone(),
            score: None,
            no_result: false,
        },
        board: String::new(),
    }
}

/// The most moves (tokens) one record may hold: a longer record is refused
/// before it is played, so its transcript stays within memory.
pub const MAX_RECORD_TOKENS: usize = 1_000_000;

/// Byte offset in `source` of each token of `record`.
fn token_offsets(
    record: &str,
    toks: &[notation::Token],
    source: &SourceFile,
    start: usize,
) -> Vec<usize> {
    let text = &*source.text;
    let start = start.min(text.len());
    if let Some(p) = text[start..].find(record).filter(|_| !record.is_empty()) {
        return toks.iter().map(|t| start + p + t.offset).collect();
    }
    let mut cursor = start;
    toks.iter()
        .map(|t| {
            let at = find_word(text, cursor, &t.text).unwrap_or(cursor);
            cursor = (at + t.text.len()).min(text.len());
            at
        })
        .collect()
}

/// First occurrence of `word` at or after `from` not inside a longer word.
pub(crate) fn find_word(text: &str, from: usize, word: &str) -> Option<usize> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut from = from.min(text.len());
    while let Some(i) = text.get(from..)?.find(word) {
        let at = from + i;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if !before.is_some_and(is_word) && !after.is_some_and(is_word) {
            return Some(at);
        }
        from = at + word.len().max(1);
    }
    None
}

/// A game ended by the players rather than by a rule: resignation or
/// agreement (with the count, for an agreement).
#[derive(Clone, Copy, Debug)]
struct SessionEnd {
    outcome: Outcome,
    score: Option<[f64; 2]>,
    /// 1-based ply of the resignation or agreement.
    ply: usize,
}

/// What one token of a record asks for.
enum Step {
    /// Plies for the engine (a move, or a move and its removal).
    Moves(Vec<Intent>),
    /// The player to move resigns.
    Resign,
    /// The players agree on the end; the dead stones (name, offset in the
    /// token).
    Agree(Vec<(String, usize)>),
}

fn parse_step(rules: &Rules, text: &str, at: Option<Location>) -> Result<Step, Diagnostic> {
    let lower = text.to_ascii_lowercase();
    if lower == "resign" {
        return Ok(Step::Resign);
    }
    if lower == "agree" || lower.starts_with("agree:") {
        let mut dead = Vec::new();
        if let Some((head, list)) = text.split_once(':') {
            let mut offset = head.len() + 1;
            for name in list.split(',') {
                if name.is_empty() {
                    return Err(Diagnostic::new(format!(
                        "cannot read `{text}`: an empty dead-stone name"
                    ))
                    .at_opt(at)
                    .expected("`agree` or `agree:D4,E5` (the dead stones, no spaces)"));
                }
                dead.push((name.to_string(), offset));
                offset += name.len() + 1;
            }
        }
        return Ok(Step::Agree(dead));
    }
    notation::parse_token_in(rules, text, at).map(Step::Moves)
}

/// Tokens of a record, with `agree:D4,E5` kept whole (the record splits at
/// commas; a dead-stone list is written without spaces).
fn record_tokens(record: &str) -> Vec<notation::Token> {
    let mut out: Vec<notation::Token> = Vec::new();
    for t in notation::tokens(record) {
        if let Some(prev) = out.last_mut() {
            let end = prev.offset + prev.text.len();
            let joined = prev.text.to_ascii_lowercase().starts_with("agree:")
                && t.offset == end + 1
                && record[end..].starts_with(',');
            if joined {
                prev.text.push(',');
                prev.text.push_str(&t.text);
                continue;
            }
        }
        out.push(t);
    }
    out
}

/// Class, D mark and the next player's legal passes after a move.
fn go_ply(s: &GameState, moves: &mut Vec<Move>) -> GoPly {
    s.legal_moves_into(moves);
    GoPly {
        class: s.last_class().map(char::from),
        d: s.last_ends_d(),
        legal_passes: pass_letters(s.rules(), moves.iter()),
    }
}

/// The letters of the passes among `moves` (`E`, `P`…), in their order.
pub(crate) fn pass_letters<'a>(
    rules: &Rules,
    moves: impl IntoIterator<Item = &'a Move>,
) -> Vec<String> {
    moves
        .into_iter()
        .filter_map(|mv| match *mv {
            Move::Pass { kind } => rules.passes.kinds.get(usize::from(kind)),
            _ => None,
        })
        .map(|k| (*k as char).to_string())
        .collect()
}

/// Does this ruleset keep a move-class history (board plays or passes)?
pub(crate) fn records_classes(rules: &Rules) -> bool {
    rules.play.is_some() || !rules.passes.kinds.is_empty()
}

fn play(
    s: &mut GameState,
    record: &str,
    source: &SourceFile,
    start: usize,
    t: &mut Transcript,
    ended: &mut Option<SessionEnd>,
) -> Result<(), Diagnostic> {
    let toks = record_tokens(record);
    let offsets = token_offsets(record, &toks, source, start);
    refuse_long_record(&toks, &offsets, source)?;
    let rules = Arc::clone(s.rules());
    let mut replayer = Replayer {
        go: records_classes(&rules),
        rules,
        source,
        s,
        t,
        ended,
        moves: Vec::new(),
        pieces: Vec::new(),
    };
    for (tok, &offset) in toks.iter().zip(&offsets) {
        replayer.play_token(tok, offset)?;
    }
    Ok(())
}

/// A record over [`MAX_RECORD_TOKENS`] is refused before any of it is played.
fn refuse_long_record(
    toks: &[notation::Token],
    offsets: &[usize],
    source: &SourceFile,
) -> Result<(), Diagnostic> {
    if let Some(&offset) = offsets.get(MAX_RECORD_TOKENS) {
        return Err(Diagnostic::new(format!(
            "the record has {} moves, more than the limit of {MAX_RECORD_TOKENS} moves per record",
            toks.len()
        ))
        .at(source.location(offset))
        .expected(format!(
            "at most {MAX_RECORD_TOKENS} moves (split the record)"
        )));
    }
    Ok(())
}

/// A record being played: the game so far, and what each token is played
/// with.
struct Replayer<'a> {
    /// The game's ruleset (held apart from the state it is played on).
    rules: Arc<Rules>,
    source: &'a SourceFile,
    /// Does each ply get a Go record (see [`records_classes`])?
    go: bool,
    s: &'a mut GameState,
    t: &'a mut Transcript,
    /// Set once the players end the game (resignation or agreement).
    ended: &'a mut Option<SessionEnd>,
    /// Room for the legal moves, reused from ply to ply.
    moves: Vec<Move>,
    /// Room for the opponent's pieces before a move, reused likewise.
    pieces: Vec<Point>,
}

impl Replayer<'_> {
    /// Play one token of the record, at `offset` in the source.
    fn play_token(&mut self, tok: &notation::Token, offset: usize) -> Result<(), Diagnostic> {
        let (rules, source) = (&*self.rules, self.source);
        // Locations are computed only for messages: finding a line and
        // column is a pass over the text, and doing it for every token
        // would make long records quadratic.
        let loc = || source.location(offset);
        let n = self.t.plies.len() + 1;
        let step = parse_step(rules, &tok.text, None)
            .or_else(|_| parse_step(rules, &tok.text, Some(loc())))
            .map_err(|mut d| {
                d.message = format!("ply {n}: {}", d.message);
                d
            })?;
        if let Some(end) = self.ended {
            return Err(after_the_end(rules, end, n, &tok.text).at(loc()));
        }
        match step {
            Step::Moves(intents) => self.play_moves(&tok.text, offset, &intents),
            Step::Resign | Step::Agree(_) => self.end_session(step, n, offset),
        }
    }

    /// A resignation or an agreement: recorded as a ply of its own, after
    /// which the record must end.
    fn end_session(&mut self, step: Step, n: usize, offset: usize) -> Result<(), Diagnostic> {
        let (rules, source) = (Arc::clone(&self.rules), self.source);
        let loc = || source.location(offset);
        let player = rules.players[usize::from(self.s.to_move())].clone();
        if let Some(o) = self.s.legal_moves_into(&mut self.moves) {
            let what = if matches!(step, Step::Resign) {
                "resign"
            } else {
                "agree on the end"
            };
            return Err(decided_by_rule(&rules, o, n, &player, what, loc()));
        }
        let phase = rules.phases[self.s.phase()].name.clone();
        let (mv, note, end) = match step {
            Step::Resign => (
                "resign".to_string(),
                format!("{player} resigns"),
                SessionEnd {
                    outcome: self.s.resign(),
                    score: None,
                    ply: n,
                },
            ),
            Step::Agree(names) => self.agreement(&names, n, &loc())?,
            Step::Moves(_) => unreachable!("handled by play_token"),
        };
        self.t.plies.push(PlyRecord {
            n,
            player,
            mv,
            phase,
            note: Some(note),
            go: self.go.then(|| GoPly {
                class: None,
                d: false,
                legal_passes: Vec::new(),
            }),
        });
        *self.ended = Some(end);
        Ok(())
    }

    /// An agreement on the end with its dead stones (`names`): the ply as
    /// written back, its note, and the end with the count.
    fn agreement(
        &self,
        names: &[(String, usize)],
        n: usize,
        at: &Location,
    ) -> Result<(String, String, SessionEnd), Diagnostic> {
        let (rules, s) = (&*self.rules, &*self.s);
        let (dead, canonical) = dead_stones(s, names, at).map_err(|d| d.with_message_prefix(n))?;
        if rules.scoring.is_none() {
            return Err(Diagnostic::new(format!(
                "ply {n}: ruleset `{}` has no scoring, so an agreement cannot be counted",
                rules.name
            ))
            .at(at.clone())
            .expected("a ruleset with a `scoring:` section"));
        }
        let mv = if canonical.is_empty() {
            "agree".to_string()
        } else {
            format!("agree:{}", canonical.join(","))
        };
        let note = if canonical.is_empty() {
            "the players agree on the end; no dead stones".to_string()
        } else {
            format!(
                "the players agree on the end; dead stones: {}",
                canonical.join(", ")
            )
        };
        let end = SessionEnd {
            outcome: s.agree(&dead),
            score: Some(s.score_with_dead(&dead)),
            ply: n,
        };
        Ok((mv, note, end))
    }

    /// Play the plies of one token (`text`, at `offset`): a move and the
    /// removals written after it.
    fn play_moves(
        &mut self,
        text: &str,
        offset: usize,
        intents: &[Intent],
    ) -> Result<(), Diagnostic> {
        let lines = self.rules.line_rule.is_some();
        // Each removal is located at its own `x` (`g1xd2xb4`).
        let xs: Vec<usize> = text.match_indices(['x', 'X']).map(|(i, _)| i).collect();
        let lead = usize::from(!text.starts_with(['x', 'X']));
        for (i, intent) in intents.iter().enumerate() {
            let part_offset = match xs.get(i.wrapping_sub(lead)) {
                Some(x) if lines && matches!(intent, Intent::Remove(_)) => offset + x,
                _ => offset,
            };
            let n = self.t.plies.len() + 1;
            if i > 0 && matches!(intent, Intent::Remove(_)) && self.s.pending_removals() == 0 {
                return Err(no_removal_owed(
                    &self.rules,
                    &intents[..i],
                    *intent,
                    self.s.lines_formed(),
                    n,
                )
                .at(self.source.location(part_offset)));
            }
            self.play_ply(*intent, n, part_offset)?;
        }
        Ok(())
    }

    /// Play ply `n` (`intent`, written at `offset`) and record it.
    fn play_ply(&mut self, intent: Intent, n: usize, offset: usize) -> Result<(), Diagnostic> {
        let rules = &*self.rules;
        let me = self.s.to_move();
        let player = rules.players[usize::from(me)].clone();
        let outcome = self.s.legal_moves_into(&mut self.moves);
        let Some(mv) = self
            .moves
            .iter()
            .copied()
            .find(|mv| intent.matches(&mv.packed()))
        else {
            return Err(refused(self.s, intent, n, &self.moves, outcome.is_some())
                .at(self.source.location(offset)));
        };
        let phase = if self.s.pending_removals() > 0 {
            "remove".to_string()
        } else {
            rules.phases[self.s.phase()].name.clone()
        };
        let ply = Applied::before(self.s, mv, &mut self.pieces);
        self.s.apply_unchecked(mv);
        let notes = ply_notes(self.s, &ply);
        let go = self.go.then(|| go_ply(self.s, &mut self.moves));
        self.t.plies.push(PlyRecord {
            n,
            player,
            mv: notation::format_move_in(rules, &mv.packed()),
            phase,
            note: (!notes.is_empty()).then(|| notes.join("; ")),
            go,
        });
        Ok(())
    }
}

/// A token after a resignation or an agreement: the game is over.
fn after_the_end(rules: &Rules, end: &SessionEnd, n: usize, text: &str) -> Diagnostic {
    let how = match end.outcome.decided_by() {
        DecidedBy::Resignation => format!(
            "{} resigned at ply {}",
            rules.players[(end.outcome.winner.unwrap_or(0) ^ 1) as usize],
            end.ply
        ),
        _ => format!("the players agreed on the end at ply {}", end.ply),
    };
    Diagnostic::new(format!(
        "ply {n}: `{text}` cannot be played: the game is over: {how}"
    ))
    .expected("the end of the record")
}

/// `player` cannot `what` (resign, agree on the end): end rule `o` has
/// already decided the game.
fn decided_by_rule(
    rules: &Rules,
    o: Outcome,
    n: usize,
    player: &str,
    what: &str,
    at: Location,
) -> Diagnostic {
    let mut d = Diagnostic::new(format!(
        "ply {n}: {player} cannot {what}: the game is over: end rule `{}` decided it",
        o.rule_name(rules)
    ))
    .at(at);
    if let Some(rule) = rules.end.get(o.rule as usize) {
        d = d.note(match &rule.when.at {
            Some(l) => format!("rule: `{}` ({l})", rule.when.text),
            None => format!("rule: `{}`", rule.when.text),
        });
    }
    d
}

/// A move about to be applied, with what its notes compare against in the
/// position before it.
struct Applied<'a> {
    mv: Move,
    /// The mover.
    me: u8,
    /// The opponent's pieces before the move, for a move that can take
    /// some by itself (a placement, slide, fly or leap); empty otherwise.
    theirs: &'a [Point],
    /// A removal of one of the mover's own pieces (a `remove_own` action).
    removes_own: bool,
    /// Prisoners each player had taken.
    captured: [u32; 2],
    /// Pieces each player had in hand.
    in_hand: [u32; 2],
}

impl<'a> Applied<'a> {
    /// `mv`, about to be played on `s` (`room` holds the opponent's pieces).
    fn before(s: &GameState, mv: Move, room: &'a mut Vec<Point>) -> Self {
        let me = s.to_move();
        room.clear();
        if matches!(
            mv,
            Move::Place { .. } | Move::Slide { .. } | Move::Fly { .. } | Move::Leap { .. }
        ) {
            s.pieces_into(me ^ 1, room);
        }
        let removes_own = match mv {
            Move::Remove { at } => s.owner(at) == Some(Owner::Player(me)),
            _ => false,
        };
        Applied {
            mv,
            me,
            theirs: room,
            removes_own,
            captured: s.captured(),
            in_hand: s.in_hand(),
        }
    }
}

/// The note of a ply, part by part: what the move did beyond moving
/// (`s` is the state after it).
fn ply_notes(s: &GameState, ply: &Applied) -> Vec<String> {
    let (mv, me) = (ply.mv, usize::from(ply.me));
    let mut notes = Vec::new();
    if matches!(mv, Move::Fly { .. }) {
        notes.push("flies".to_string());
    }
    if matches!(mv, Move::Leap { .. }) {
        notes.push("leaps".to_string());
    }
    let by_removal = capture_notes(s, ply, &mut notes);
    line_notes(s, ply, by_removal, &mut notes);
    if ply.removes_own {
        notes.push("removes own piece".to_string());
    }
    let pending = s.pending_removals();
    if matches!(mv, Move::Remove { .. }) && pending > 0 {
        notes.push(format!("{pending} more to remove"));
    }
    // The turn ended and the ruleset gave the same player the next
    // one (an `extra_turn`, or `first` on entering a phase).
    if pending == 0 && s.to_move() == ply.me {
        notes.push("moves again".to_string());
    }
    if matches!(mv, Move::Play { .. }) {
        let captured = s.captured();
        let took = captured[me] - ply.captured[me];
        if took > 0 {
            notes.push(format!("captures {took}"));
        }
        let lost = captured[me ^ 1] - ply.captured[me ^ 1];
        if lost > 0 {
            notes.push(format!("suicide: removes {lost} own"));
        } else if s.last_suicide() {
            notes.push("suicide".to_string());
        }
    }
    notes
}

/// Notes of the captures a move made or owes; whether it owes a capture by
/// removal (the line notes say which removals it chooses between).
fn capture_notes(s: &GameState, ply: &Applied, notes: &mut Vec<String>) -> bool {
    let (rules, mv) = (s.rules(), ply.mv);
    // Captures of `captures:` rules (a leap's, a custodian's...):
    // opposing pieces gone after a move that is not a removal.
    let theirs = Owner::Player(ply.me ^ 1);
    let taken: Vec<&str> = ply
        .theirs
        .iter()
        .filter(|&&p| s.owner(p) != Some(theirs))
        .map(|&p| rules.topology.name(p))
        .collect();
    if !taken.is_empty() {
        notes.push(format!("takes {}", taken.join(", ")));
    }
    // A capture by removal (`take: choose`): what it made removable.
    let by_removal = !matches!(mv, Move::Remove { .. }) && s.capture_owed();
    if by_removal {
        let names: Vec<&str> = s
            .capture_targets()
            .into_iter()
            .map(|p| rules.topology.name(p))
            .collect();
        notes.push(format!("captures by removal: {}", names.join(", ")));
    }
    by_removal
}

/// Notes of the lines a move completed: what they owe, and those that do
/// not count.
fn line_notes(s: &GameState, ply: &Applied, by_removal: bool, notes: &mut Vec<String>) {
    let (rules, mv, me) = (s.rules(), ply.mv, usize::from(ply.me));
    let lines_formed = s.lines_formed();
    if !matches!(mv, Move::Remove { .. }) && lines_formed > 0 {
        let lines = match lines_formed {
            1 => "completes a line".to_string(),
            k => format!("completes {k} lines"),
        };
        if by_removal {
            notes.push(if s.capture_owed_lines() {
                format!("{lines}: its removals or the capture, the first removal chooses")
            } else {
                format!("{lines}: no removal")
            });
        } else {
            // `from_hand` removals: the opponent's hand shrank.
            let taken = ply.in_hand[me ^ 1] - s.in_hand()[me ^ 1];
            let opp = &rules.players[me ^ 1];
            notes.push(match (&rules.line_rule, taken, s.pending_removals()) {
                (None, _, _) => lines,
                (Some(_), 0, 0) => format!("{lines}: no removal"),
                (Some(_), 0, k) => format!("{lines}: removes {k}"),
                (Some(_), t, 0) => format!("{lines}: takes {t} from {opp}'s hand"),
                (Some(_), t, k) => {
                    format!("{lines}: takes {t} from {opp}'s hand, removes {k}")
                }
            });
        }
    }
    let on_board = matches!(
        mv,
        Move::Place { .. } | Move::Slide { .. } | Move::Fly { .. } | Move::Play { .. }
    );
    if let (true, Some(to), Some(_)) = (on_board, mv.to_point(), &rules.line_rule) {
        // Lines `on_line_formed.counts` did not let count.
        let complete = s.lines_at(ply.me, to);
        match complete.saturating_sub(u32::from(lines_formed)) {
            0 => {}
            1 => notes.push("completes a line that does not count".to_string()),
            k => notes.push(format!("completes {k} lines that do not count")),
        }
    }
}

/// A removal written after a move (`g1xd2`) that owes none: the move
/// completed no line, or its removals are all made (`g1xd2xb4` after one line).
fn no_removal_owed(
    rules: &Rules,
    before: &[Intent],
    removal: Intent,
    lines_formed: u16,
    n: usize,
) -> Diagnostic {
    let written: String = before.iter().map(|i| intent_text(rules, *i)).collect();
    let extra = intent_text(rules, removal);
    let why = match before {
        [_] if lines_formed == 0 => format!("`{written}` completes no line, so no removal is owed"),
        [_] => format!("`{written}` completes a line, but no piece can be removed"),
        _ => format!(
            "`{written}` already made the {} removal(s) its move owed",
            before.len() - 1
        ),
    };
    Diagnostic::new(format!("ply {n}: {why}: `{extra}` cannot follow it"))
        .expected(format!("`{written}` alone"))
}

trait Prefixed {
    fn with_message_prefix(self, n: usize) -> Self;
}

impl Prefixed for Diagnostic {
    fn with_message_prefix(mut self, n: usize) -> Self {
        self.message = format!("ply {n}: {}", self.message);
        self
    }
}

/// The dead stones of an agreement, resolved and checked (each must hold a
/// stone), with their canonical names.
fn dead_stones(
    s: &GameState,
    names: &[(String, usize)],
    at: &Location,
) -> Result<(Vec<Point>, Vec<String>), Diagnostic> {
    let topo = &s.rules().topology;
    let mut dead: Vec<Point> = Vec::new();
    let mut canonical = Vec::new();
    for (name, offset) in names {
        let mut here = at.clone();
        here.col += offset;
        let named = Named::located(name.clone(), here.clone());
        let p = topo.resolve(&named).map_err(|e| e.to_diagnostic())?;
        if !matches!(s.owner(p), Some(Owner::Player(_))) {
            return Err(
                Diagnostic::new(format!("dead stone `{name}`: {} is empty", topo.name(p)))
                    .at(here)
                    .expected("points holding stones"),
            );
        }
        if !dead.contains(&p) {
            dead.push(p);
            canonical.push(topo.name(p).to_string());
        }
    }
    Ok((dead, canonical))
}

fn refused(s: &GameState, intent: Intent, n: usize, legal: &[Move], over: bool) -> Diagnostic {
    let rules = s.rules();
    let who = &rules.players[usize::from(s.to_move())];
    let refusal = s.explain(intent);
    let mut d = Diagnostic::new(format!(
        "ply {n}: {who} cannot play `{}`: {}",
        intent_text(rules, intent),
        refusal.reason
    ));
    if let Some((text, at)) = &refusal.rule {
        d = d.note(match at {
            Some(at) => format!("rule: `{text}` ({at})"),
            None => format!("rule: `{text}`"),
        });
    }
    if !over {
        const SHOWN: usize = 12;
        let mut names: Vec<String> = legal
            .iter()
            .map(|mv| notation::format_move_in(rules, &mv.packed()))
            .collect();
        names.sort();
        let more = names.len().saturating_sub(SHOWN);
        names.truncate(SHOWN);
        let mut list = names.join(", ");
        if more > 0 {
            list.push_str(&format!(" … and {more} more"));
        }
        d = d.expected(format!("a legal move: {list}"));
    }
    d
}

/// An intent as the record writes it (`pass:E`, `D4`, `d1-d2`).
pub(crate) fn intent_text(rules: &Rules, intent: Intent) -> String {
    match intent {
        Intent::Pass(k) => notation::pass_text(rules, k),
        _ => intent.format(&rules.topology),
    }
}

/// Fill in the result and the final board.
fn finish(s: &GameState, ended: Option<SessionEnd>, t: &mut Transcript) {
    let rules = s.rules();
    let (outcome, score) = match ended {
        Some(end) => (Some(end.outcome), end.score),
        None => {
            let o = s.legal_moves().err();
            let counted = o
                .and_then(|o| rules.end.get(o.rule as usize))
                .is_some_and(|r| r.verdict == Verdict::Score);
            (o, counted.then(|| s.score()))
        }
    };
    let to_move = rules.players[usize::from(s.to_move())].clone();
    t.result = match outcome {
        None => ResultRecord {
            status: Status::Ongoing,
            winner: None,
            reason: None,
            rule: None,
            rule_at: None,
            doc: None,
            to_move,
            score: None,
            no_result: false,
        },
        Some(o) => {
            let rule = rules.end.get(o.rule as usize);
            ResultRecord {
                status: Status::Over,
                winner: o.winner.map(|w| rules.players[w as usize].clone()),
                reason: Some(o.rule_name(rules).to_string()),
                rule: rule.map(|r| r.when.text.clone()),
                rule_at: rule.and_then(|r| r.when.at.as_ref().map(|l| l.to_string())),
                doc: rule.and_then(|r| r.doc.clone()),
                to_move,
                score: score.map(Score),
                no_result: o.is_no_result(rules),
            }
        }
    };
    t.board = render_board(rules, |p| s.owner(p));
}

/// The board with one letter per player (initials upper-cased, or `X`/`O`
/// when the initials clash), `.` for an empty point and `#` for a point
/// blocked by the mark of a delayed removal; `owner` says what stands on
/// each point (`|p| state.owner(p)` for a [`GameState`]).
pub fn render_board(rules: &Rules, owner: impl Fn(Point) -> Option<Owner>) -> String {
    let marks = piece_marks(&rules.players);
    rules.topology.render(|p| match owner(p) {
        Some(Owner::Player(pl)) => marks[usize::from(pl & 1)],
        Some(Owner::Mark) => '#',
        None => '.',
    })
}

pub(crate) fn piece_marks(players: &[String]) -> [char; 2] {
    let initial = |i: usize| {
        players
            .get(i)
            .and_then(|p| p.chars().next())
            .map(|c| c.to_ascii_uppercase())
    };
    match (initial(0), initial(1)) {
        (Some(a), Some(b)) if a != b && a != '.' && b != '.' => [a, b],
        _ => ['X', 'O'],
    }
}
