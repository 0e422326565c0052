//! SGF (FF\[4\], GM\[1\]) for Morrigo's Go-style rulesets.
//!
//! * [`import`] reads the main line of an SGF game and gives one
//!   [`SgfMove`] per move: its Morrigo token (`D4`, `pass`, `pass:E`) and its
//!   move number, so a rule-breaking file can be reported at its move
//!   ("move 17 (W\[cd\]): …"). Parsing is done by the `sgf-parse` crate; a
//!   small scanner ([`scan`]) locates structural errors as `file:line:col`.
//! * [`export`] writes a game: `GM[1] FF[4] SZ RU[<ruleset>]`, `KM` when the
//!   ruleset is scored, the moves, and `RE` when the game is over.
//!
//! # Coordinates
//! SGF points are two letters, column then row, `a` = left column and top
//! row; Morrigo uses the board's own names (GTP `D4`: column letters without
//! `I`, rows counted from the bottom). `B[]` and `W[]` are passes, and so is
//! `B[tt]` / `W[tt]` on boards up to 19×19 (the FF\[3\] convention).
//!
//! # Pass kinds: the private property `PK`
//! Rulesets with several pass kinds (the JK rules: a normal pass `P` and an
//! ending pass `E`) need to say which pass a node is. Morrigo writes the
//! kind letter in the private property **`PK`** ("pass kind") on the node
//! of the pass: `;W[]PK[E]`. On import, a pass in such a ruleset must carry
//! `PK`; in a ruleset with one pass kind `PK` may be left out (if present
//! it must name that kind). `PK` on a node without a pass is an error.
//!
//! # Not supported
//! Setup properties (`AB`, `AW`, `AE`) and so handicap stones: the engine's
//! games start from the empty board. Only the first game tree of a
//! collection and only its main line (first variation) are read.

pub mod scan;

use morrigo_diag::{Diagnostic, SourceFile};
use morrigo_engine::{Bits, Machine, Move, MoveKind, Outcome, State};
use morrigo_rules::{Rules, Verdict};
use sgf_parse::go::{Move as SgfMv, Prop};
use sgf_parse::{SgfNode, SgfProp};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The private property naming the kind of a pass (`;B[]PK[E]`).
pub const PASS_KIND_PROPERTY: &str = "PK";

/// One move of an imported game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfMove {
    /// The Morrigo token (`D4`, `pass`, `pass:E`).
    pub token: String,
    /// 1-based move number in the SGF main line.
    pub move_number: usize,
    /// 0 for `B`, 1 for `W` (the ruleset's first and second player).
    pub player: u8,
    /// The property as written, for messages (`W[cd]`, `B[]PK[E]`).
    pub sgf: String,
    /// Byte offset of the move property in the SGF text, when known.
    pub offset: Option<usize>,
}

/// The game-information properties a front end may want before it loads
/// the ruleset (the board size to pass as `--size`, the komi).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SgfInfo {
    /// `SZ` as (columns, rows); `None` when absent (19×19 by the standard).
    pub size: Option<(u32, u32)>,
    pub komi: Option<f64>,
    /// `RU`, the rules the game was played under.
    pub rules: Option<String>,
    /// `RE`, the result as written.
    pub result: Option<String>,
}

/// How a game ended, as `RE` writes it.
#[derive(Clone, Debug, PartialEq)]
pub enum GameResult {
    /// Still going: no `RE`.
    Ongoing,
    /// `RE[0]`.
    Draw,
    /// `RE[B+R]`, `RE[W+3.5]`, `RE[B+]`.
    Win { player: u8, margin: Margin },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Margin {
    /// By resignation: `+R`.
    Resign,
    /// By counting, with this difference: `+3.5`.
    Score(f64),
    /// By a rule (a suicide or a forbidden repetition that loses): `+` alone.
    Rule,
}

impl GameResult {
    /// The `RE` value (`None` while the game goes on).
    pub fn to_sgf(&self) -> Option<String> {
        let colour = |p: u8| if p == 0 { 'B' } else { 'W' };
        match self {
            GameResult::Ongoing => None,
            GameResult::Draw => Some("0".to_string()),
            GameResult::Win { player, margin } => Some(match margin {
                Margin::Resign => format!("{}+R", colour(*player)),
                Margin::Score(d) => format!("{}+{}", colour(*player), number(*d)),
                Margin::Rule => format!("{}+", colour(*player)),
            }),
        }
    }
}

/// The result of a game in state `s` that ended with `outcome` (`None`:
/// still going). Scored endings (an end rule with the `score` verdict, or
/// an agreement) carry the margin, counted with no dead stones.
pub fn result_of<const W: usize>(
    m: &Machine<W>,
    s: &State<W>,
    outcome: Option<Outcome>,
) -> GameResult {
    let Some(o) = outcome else {
        return GameResult::Ongoing;
    };
    let scored = o.rule == Outcome::AGREEMENT
        || m.rules
            .end
            .get(o.rule as usize)
            .is_some_and(|e| e.verdict == Verdict::Score);
    match o.winner {
        None => GameResult::Draw,
        Some(player) => {
            let margin = if o.rule == Outcome::RESIGNATION {
                Margin::Resign
            } else if scored && m.rules.scoring.is_some() {
                let score = m.score(s, &Bits::EMPTY);
                Margin::Score((score[0] - score[1]).abs())
            } else {
                Margin::Rule
            };
            GameResult::Win { player, margin }
        }
    }
}

/// A number as SGF writes reals: `7`, `6.5`.
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// The board as an SGF grid: SGF (column, row-from-top) <-> point.
struct Grid {
    width: u32,
    height: u32,
    point_at: HashMap<(u32, u32), u16>,
    sgf_of: Vec<(u32, u32)>,
}

fn grid(rules: &Rules) -> Result<Grid, Diagnostic> {
    let t = &rules.topology;
    let not_grid = || {
        Diagnostic::new(format!(
            "SGF needs a rectangular grid board, and ruleset `{}` has another board",
            rules.name
        ))
        .expected("a Go-style ruleset with `board: grid:`")
    };
    if rules.play.is_none() {
        return Err(Diagnostic::new(format!(
            "SGF records Go games, and ruleset `{}` has no board plays",
            rules.name
        ))
        .expected("a Go-style ruleset (with a `play:` section)"));
    }
    if t.naming.is_none() || t.len() as u64 != u64::from(t.width) * u64::from(t.height) {
        return Err(not_grid());
    }
    if t.width > 52 || t.height > 52 {
        return Err(not_grid().note("SGF points name at most 52 columns and rows"));
    }
    let mut point_at = HashMap::new();
    let mut sgf_of = Vec::with_capacity(t.len());
    for (p, &(x, y)) in t.coords.iter().enumerate() {
        let (x, y) = (u32::try_from(x), u32::try_from(y));
        let (Ok(x), Ok(y)) = (x, y) else {
            return Err(not_grid());
        };
        if x >= t.width || y >= t.height {
            return Err(not_grid());
        }
        let at = (x, t.height - 1 - y);
        point_at.insert(at, p as u16);
        sgf_of.push(at);
    }
    if point_at.len() != t.len() {
        return Err(not_grid());
    }
    Ok(Grid {
        width: t.width,
        height: t.height,
        point_at,
        sgf_of,
    })
}

fn letter(i: u32) -> char {
    let i = i as u8;
    if i < 26 {
        (b'a' + i) as char
    } else {
        (b'A' + i - 26) as char
    }
}

/// Escape a SimpleText value.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Parse SGF text: the first game tree's root node, or a located error.
fn parse_root(source: &SourceFile) -> Result<(SgfNode<Prop>, Vec<scan::ScannedNode>), Diagnostic> {
    let (scanned, syntax) = scan::scan(&source.text);
    let parsed = sgf_parse::go::parse(&source.text);
    match (parsed, syntax) {
        (Ok(mut roots), _) if !roots.is_empty() => Ok((roots.swap_remove(0), scanned)),
        (Ok(_), _) => Err(Diagnostic::new(format!(
            "{}: no game in the file",
            source.name
        ))),
        (Err(e), Some(se)) => Err(Diagnostic::new(format!("malformed SGF: {}", se.message))
            .at(source.location(se.offset))
            .note(format!("sgf-parse: {e}"))),
        (Err(e), None) => Err(
            Diagnostic::new(format!("{}: malformed SGF: {e}", source.name))
                .expected("an SGF FF[4] Go game (GM[1])"),
        ),
    }
}

/// Read the game-information properties of the root node.
pub fn info(source: &SourceFile) -> Result<SgfInfo, Diagnostic> {
    let (root, _) = parse_root(source)?;
    let mut info = SgfInfo::default();
    for prop in root.properties() {
        match prop {
            Prop::SZ((w, h)) => info.size = Some((u32::from(*w), u32::from(*h))),
            Prop::KM(k) => info.komi = Some(*k),
            Prop::RU(t) => info.rules = Some(t.text.clone()),
            Prop::RE(t) => info.result = Some(t.text.clone()),
            _ => {}
        }
    }
    Ok(info)
}

/// Import the main line of an SGF game for `rules` (errors are located in
/// a source named `sgf`). See [`import_source`].
pub fn import(sgf_text: &str, rules: &Rules) -> Result<Vec<SgfMove>, Diagnostic> {
    import_source(&SourceFile::new("sgf", sgf_text), rules)
}

/// Import the main line of the SGF game in `source` for `rules`.
///
/// Checks that `SZ` matches the ruleset's board, that the colours alternate
/// starting with Black, that every point is on the board, and that passes
/// name a pass kind of the ruleset (see the crate docs on `PK`). Whether the
/// moves are legal is for a replay to say.
pub fn import_source(source: &SourceFile, rules: &Rules) -> Result<Vec<SgfMove>, Diagnostic> {
    let g = grid(rules)?;
    let (root, scanned) = parse_root(source)?;
    let at = |node: usize, id: Option<&str>| {
        let n = scanned.get(node)?;
        let offset = match id {
            Some(id) => n.props.iter().find(|p| p.id == id)?.offset,
            None => n.offset,
        };
        Some(offset)
    };
    let loc = |offset: Option<usize>| offset.map(|o| source.location(o));
    let (sw, sh) = root
        .properties()
        .find_map(|p| match p {
            Prop::SZ((w, h)) => Some((u32::from(*w), u32::from(*h))),
            _ => None,
        })
        .unwrap_or((19, 19));
    if (sw, sh) != (g.width, g.height) {
        let written = if sw == sh {
            format!("SZ[{sw}]")
        } else {
            format!("SZ[{sw}:{sh}]")
        };
        return Err(Diagnostic::new(format!(
            "{written}: the game is on a {sw}x{sh} board, and ruleset `{}` has a {}x{} board",
            rules.name, g.width, g.height
        ))
        .at_opt(loc(at(0, Some("SZ")).or(at(0, None))))
        .expected(format!("the same size (pass `--size {sw}x{sh}`)")));
    }
    let mut moves = Vec::new();
    for (i, node) in root.main_variation().enumerate() {
        let number = moves.len() + 1;
        let mut mv: Option<(u8, &SgfMv, &str)> = None;
        let mut kind: Option<String> = None;
        for prop in node.properties() {
            match prop {
                Prop::AB(_) | Prop::AW(_) | Prop::AE(_) => {
                    let id = prop.identifier();
                    return Err(Diagnostic::new(format!(
                        "setup stones are not supported (`{id}`)"
                    ))
                    .at_opt(loc(at(i, Some(&id))))
                    .expected("a game from the empty board: moves B[..] and W[..] only"));
                }
                Prop::B(m) | Prop::W(m) => {
                    let (player, id) = match prop {
                        Prop::B(_) => (0u8, "B"),
                        _ => (1u8, "W"),
                    };
                    if mv.is_some() {
                        return Err(Diagnostic::new(format!(
                            "move {number}: a node holds two moves"
                        ))
                        .at_opt(loc(at(i, Some(id))))
                        .expected("one move (B or W) per node"));
                    }
                    mv = Some((player, m, id));
                }
                Prop::Unknown(id, values) if id == PASS_KIND_PROPERTY => {
                    kind = Some(values.first().cloned().unwrap_or_default());
                }
                Prop::Invalid(id, values) if id == "B" || id == "W" => {
                    return Err(Diagnostic::new(format!(
                        "move {number}: cannot read {id}[{}]",
                        values.join("][")
                    ))
                    .at_opt(loc(at(i, Some(id))))
                    .expected("a point of two letters (`dd`), or `[]` for a pass"));
                }
                _ => {}
            }
        }
        let Some((player, m, id)) = mv else {
            if kind.is_some() {
                return Err(Diagnostic::new(format!(
                    "`{PASS_KIND_PROPERTY}` on a node without a pass"
                ))
                .at_opt(loc(at(i, Some(PASS_KIND_PROPERTY)))));
            }
            continue;
        };
        let offset = at(i, Some(id));
        let value = match m {
            SgfMv::Pass => String::new(),
            SgfMv::Move(p) => format!("{}{}", letter(p.x.into()), letter(p.y.into())),
        };
        let mut sgf = format!("{id}[{value}]");
        if let Some(k) = &kind {
            sgf.push_str(&format!("{PASS_KIND_PROPERTY}[{k}]"));
        }
        let here = |msg: String| {
            Diagnostic::new(format!("move {number} ({sgf}): {msg}")).at_opt(loc(offset))
        };
        let expected_player = ((number - 1) % 2) as u8;
        if player != expected_player {
            let who = |p: u8| rules.players.get(p as usize).cloned().unwrap_or_default();
            return Err(here(format!(
                "{} plays out of turn: it is {}'s move",
                who(player),
                who(expected_player)
            ))
            .expected("moves alternating, Black first"));
        }
        let point = match m {
            SgfMv::Pass => None,
            SgfMv::Move(p) if p.x == 19 && p.y == 19 && g.width <= 19 && g.height <= 19 => None,
            SgfMv::Move(p) => Some((u32::from(p.x), u32::from(p.y))),
        };
        let token = match point {
            Some(xy) => {
                let Some(&pt) = g.point_at.get(&xy) else {
                    return Err(here(format!(
                        "`{value}` is off the {}x{} board",
                        g.width, g.height
                    ))
                    .expected(format!(
                        "columns and rows `a` to `{}`",
                        letter(g.width.max(g.height) - 1)
                    )));
                };
                if kind.is_some() {
                    return Err(Diagnostic::new(format!(
                        "move {number} ({sgf}): `{PASS_KIND_PROPERTY}` on a board play"
                    ))
                    .at_opt(loc(at(i, Some(PASS_KIND_PROPERTY))))
                    .expected(format!("`{PASS_KIND_PROPERTY}` only on passes")));
                }
                rules.topology.name(pt).to_string()
            }
            None => pass_token(rules, kind.as_deref()).map_err(|(msg, exp)| {
                let d = here(msg).expected(exp);
                match at(i, Some(PASS_KIND_PROPERTY)) {
                    Some(o) => Diagnostic {
                        location: Some(source.location(o)),
                        ..d
                    },
                    None => d,
                }
            })?,
        };
        moves.push(SgfMove {
            token,
            move_number: number,
            player,
            sgf,
            offset,
        });
    }
    Ok(moves)
}

/// The token of a pass with an optional `PK` value.
fn pass_token(rules: &Rules, kind: Option<&str>) -> Result<String, (String, String)> {
    let kinds: Vec<String> = rules.passes.names();
    let written = kinds
        .iter()
        .map(|k| format!("{PASS_KIND_PROPERTY}[{k}]"))
        .collect::<Vec<_>>()
        .join(" or ");
    match (kinds.as_slice(), kind) {
        ([], _) => Err((
            format!("ruleset `{}` has no pass", rules.name),
            "a board play".to_string(),
        )),
        ([_], None) => Ok(morrigo_engine::notation::pass_text(rules, 0)),
        (_, None) => Err((
            format!(
                "a pass in ruleset `{}`, which has {} pass kinds, must say which",
                rules.name,
                kinds.len()
            ),
            format!("the pass kind on the node: {written}"),
        )),
        (_, Some(k)) => match kinds.iter().position(|x| x == k) {
            Some(i) => Ok(morrigo_engine::notation::pass_text(rules, i as u8)),
            None => Err((
                format!("ruleset `{}` has no pass kind `{k}`", rules.name),
                written,
            )),
        },
    }
}

/// Write a game as SGF: the root node (`GM[1]FF[4]CA[UTF-8]AP SZ RU`, `KM`
/// when the ruleset is scored, `PB`/`PW` with the player names, `RE` when
/// the game is over), then one node per move, passes with their `PK`.
///
/// `moves` are engine moves (board plays and passes) from the start of
/// the game. Errors when the ruleset's board is not a grid or a move is
/// neither a board play nor a pass.
pub fn export(rules: &Rules, moves: &[Move], result: &GameResult) -> Result<String, Diagnostic> {
    let g = grid(rules)?;
    let mut out = String::from("(;GM[1]FF[4]CA[UTF-8]");
    let _ = write!(out, "AP[morrigo:{}]", env!("CARGO_PKG_VERSION"));
    if g.width == g.height {
        let _ = write!(out, "SZ[{}]", g.width);
    } else {
        let _ = write!(out, "SZ[{}:{}]", g.width, g.height);
    }
    let _ = write!(out, "RU[{}]", escape(&rules.name));
    if let Some(s) = &rules.scoring {
        let _ = write!(out, "KM[{}]", number(s.komi));
    }
    if let [b, w, ..] = rules.players.as_slice() {
        let _ = write!(out, "PB[{}]PW[{}]", escape(b), escape(w));
    }
    if let Some(re) = result.to_sgf() {
        let _ = write!(out, "RE[{re}]");
    }
    let several_kinds = rules.passes.kinds.len() > 1;
    for (i, m) in moves.iter().enumerate() {
        out.push(if i % 10 == 0 { '\n' } else { ' ' });
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        match m.kind {
            MoveKind::Play | MoveKind::Place => {
                let &(x, y) = g
                    .sgf_of
                    .get(m.to as usize)
                    .ok_or_else(|| Diagnostic::new(format!("move {}: no point {}", i + 1, m.to)))?;
                let _ = write!(out, ";{colour}[{}{}]", letter(x), letter(y));
            }
            MoveKind::Pass => {
                let _ = write!(out, ";{colour}[]");
                if several_kinds {
                    let k = rules
                        .passes
                        .kinds
                        .get(m.to as usize)
                        .map_or('?', |k| *k as char);
                    let _ = write!(out, "{PASS_KIND_PROPERTY}[{k}]");
                }
            }
            _ => {
                return Err(Diagnostic::new(format!(
                    "move {}: SGF records board plays and passes only",
                    i + 1
                )))
            }
        }
    }
    out.push_str(")\n");
    Ok(out)
}
