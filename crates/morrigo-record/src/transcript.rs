//! The annotated record of a replayed game, for people (`to_text`) and for
//! programs (`to_json`, a stable shape).

use serde_json::{json, Value};
use std::fmt::Write as _;

/// A replayed game: every ply, the result, and the final board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    /// Name of the ruleset (`nine-mens-morris`).
    pub ruleset: String,
    /// Player names, first to move first.
    pub players: Vec<String>,
    /// Every ply played, in order.
    pub plies: Vec<PlyRecord>,
    /// How the game stands after the last ply.
    pub result: ResultRecord,
    /// The final board (`Topology::render`, one letter per player, `.` empty).
    pub board: String,
}

/// One ply of a transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyRecord {
    /// 1-based ply number (a removal is a ply of its own).
    pub n: usize,
    /// The player who made it.
    pub player: String,
    /// Canonical move text (`d1`, `d1-d2`, `xd2`).
    pub mv: String,
    /// The phase the player was in, or `remove` for a removal step.
    pub phase: String,
    /// What else the ply did: "completes a line: removes 1", "flies"…
    pub note: Option<String>,
    /// Go family (rulesets with board plays or passes): the move class.
    pub go: Option<GoPly>,
}

/// What a ply is in the move-class history of a Go-family ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoPly {
    /// `N`, `C` or the pass kind letter (`P`, `E`); `None` for a resignation
    /// or an agreement, which are not moves.
    pub class: Option<char>,
    /// A D (a run of ko captures returning to its start) ends at this move.
    pub d: bool,
    /// The pass kinds the next player may use after this ply (`pass` texts
    /// are `pass:<letter>`; here the letters alone), in ruleset order.
    pub legal_passes: Vec<String>,
}

/// Each player's score when the game was counted (index = player).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score(pub [f64; 2]);

// Scores are sums of counts and the komi: never NaN.
impl Eq for Score {}

/// Whether the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Not over yet.
    Ongoing,
    /// Decided: a win, a draw, no result, a resignation or an agreement.
    Over,
}

impl Status {
    /// `ongoing` or `over`, as the JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Over => "over",
        }
    }
}

/// How the game stands after the last ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultRecord {
    /// Whether the game is over.
    pub status: Status,
    /// The winner's name; `None` while ongoing or for a draw.
    pub winner: Option<String>,
    /// Name of the end rule that decided the game.
    pub reason: Option<String>,
    /// That rule's condition text.
    pub rule: Option<String>,
    /// Where the rule is written (`file:line:col`).
    pub rule_at: Option<String>,
    /// The rule's one-line description, if the ruleset gives one.
    pub doc: Option<String>,
    /// The player to move (or who would move, when the game is over).
    pub to_move: String,
    /// The count, when the game ended by a scoring rule or by agreement.
    pub score: Option<Score>,
    /// The game ended with no result (an end rule with `no_result:`):
    /// `winner` is `None` and it is not a draw.
    pub no_result: bool,
}

impl ResultRecord {
    /// `ongoing`, `draw`, `no result` or `<player> wins` (the
    /// scenario-file spelling).
    pub fn summary(&self) -> String {
        match (self.status, &self.winner) {
            (Status::Ongoing, _) => "ongoing".into(),
            (Status::Over, None) if self.no_result => "no result".into(),
            (Status::Over, None) => "draw".into(),
            (Status::Over, Some(w)) => format!("{w} wins"),
        }
    }
}

impl Transcript {
    /// An annotated transcript for people: one line per ply, the result with
    /// the rule that decided it, and the final board.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "ruleset: {}", self.ruleset);
        let _ = writeln!(out, "players: {}", self.players.join(", "));
        let width = self.players.iter().map(String::len).max().unwrap_or(5);
        for p in &self.plies {
            let _ = write!(
                out,
                "{:>4}. {:<width$}  {:<8} [{}]",
                p.n, p.player, p.mv, p.phase
            );
            if let Some(go) = &p.go {
                let class = go.class.map_or("-".to_string(), |c| c.to_string());
                let d = if go.d { " D" } else { "" };
                let passes = if go.legal_passes.is_empty() {
                    "none".to_string()
                } else {
                    go.legal_passes.join(" ")
                };
                let _ = write!(out, "  {class}{d}; next may pass: {passes}");
            }
            if let Some(note) = &p.note {
                let _ = write!(out, "  {note}");
            }
            out.push('\n');
        }
        let r = &self.result;
        match r.status {
            Status::Ongoing => {
                let _ = writeln!(out, "result: ongoing, {} to move", r.to_move);
            }
            Status::Over => {
                let verdict = r.summary();
                let reason = r.reason.as_deref().unwrap_or("?");
                let _ = match reason {
                    "resignation" | "agreement" => write!(out, "result: {verdict} by {reason}"),
                    _ => write!(out, "result: {verdict} by rule `{reason}`"),
                };
                if let Some(doc) = &r.doc {
                    let _ = write!(out, " ({doc})");
                }
                out.push('\n');
                if let Some(Score(score)) = &r.score {
                    let parts: Vec<String> = self
                        .players
                        .iter()
                        .zip(score)
                        .map(|(p, v)| format!("{p} {v}"))
                        .collect();
                    let _ = writeln!(out, "  score: {}", parts.join(", "));
                }
                if let Some(rule) = &r.rule {
                    let _ = write!(out, "  rule: `{rule}`");
                    if let Some(at) = &r.rule_at {
                        let _ = write!(out, " ({at})");
                    }
                    let _ = writeln!(out, ", checked at {}'s turn", r.to_move);
                }
            }
        }
        out.push_str(&self.board);
        if !self.board.ends_with('\n') {
            out.push('\n');
        }
        out
    }

    /// The stable machine-readable form:
    /// `{"plies":[{"n":1,"player":"white","move":"d1","phase":"placing"}…],
    ///   "result":{"status":"ongoing"|"over","winner":…|null,"reason":…|null}}`.
    /// Extra keys (`note`, `rule`, `ruleset`, `board`) may be added; the
    /// ones above keep their names and meanings. Go-family rulesets add
    /// `class`, `d` and `legal_passes` to each ply and `score` to a counted
    /// result (see `JSON.md`).
    pub fn to_json(&self) -> Value {
        let plies: Vec<Value> = self
            .plies
            .iter()
            .map(|p| {
                let mut v = json!({
                    "n": p.n,
                    "player": p.player,
                    "move": p.mv,
                    "phase": p.phase,
                });
                if let Some(note) = &p.note {
                    v["note"] = json!(note);
                }
                if let Some(go) = &p.go {
                    v["class"] = json!(go.class.map(String::from));
                    v["d"] = json!(go.d);
                    v["legal_passes"] = json!(go.legal_passes);
                }
                v
            })
            .collect();
        let mut result = json!({
            "status": self.result.status.as_str(),
            "winner": self.result.winner,
            "reason": self.result.reason,
            "rule": self.result.rule,
            "to_move": self.result.to_move,
        });
        if self.result.no_result {
            result["no_result"] = json!(true);
        }
        if let Some(Score(score)) = &self.result.score {
            let map: serde_json::Map<String, Value> = self
                .players
                .iter()
                .zip(score)
                .map(|(p, v)| (p.clone(), number(*v)))
                .collect();
            result["score"] = Value::Object(map);
        }
        json!({
            "ruleset": self.ruleset,
            "plies": plies,
            "result": result,
            "board": self.board,
        })
    }
}

/// A score as JSON: an integer when it is whole (`12`), else a float (`7.5`).
fn number(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        json!(v as i64)
    } else {
        json!(v)
    }
}
