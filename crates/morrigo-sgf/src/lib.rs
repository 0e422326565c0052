//! SGF (FF\[4\], GM\[1\]) for Morrigo's Go-style rulesets.
//!
//! * [`import`] reads the main line of an SGF game: its set-up stones
//!   (`AB`, `AW`, `PL` in the root node; without any of them, the
//!   ruleset's `setup.stones` and `setup.to_move`) and one [`SgfMove`] per move: its
//!   Morrigo token (`D4`, `pass`, `pass:E`) and its move number, so a
//!   rule-breaking file can be reported at its move ("move 17 (W\[cd\]):
//!   …", `file:line:col`). The reader ([`scan`]) is iterative, so deep
//!   nesting or long games cannot overflow the stack. `SZ`, `KM`, `RE` and
//!   the moves are checked: a value that cannot be read is an error at its
//!   place, never ignored.
//! * [`export`] writes a game: `GM[1] FF[4] SZ RU[<ruleset>]`, `KM` when the
//!   ruleset is scored, set-up stones (and `HA` for a handicap game:
//!   [`export_handicap_game`]), the moves, and `RE` when the game is over.
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
//! # Variations and collections
//! Only the main line is read (the first variation at each branch) and only
//! the first game tree of a collection; what is left out is reported as a
//! warning ([`SgfGame::warnings`]).
//!
//! # Not supported
//! Set-up in the middle of a game (`AB`/`AW`/`AE`/`PL` after the root
//! node) and `AE` (the board starts empty). Games other than Go (`GM` other
//! than 1): SGF defines no move format for Morris games, which Morrigo
//! records as move records instead.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod scan;
pub mod transcript;

use morrigo_diag::{Diagnostic, Location, SourceFile};
use morrigo_engine::{DecidedBy, GameState, Move, MoveKind, Outcome};
use morrigo_rules::Rules;
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
    /// `KM`, the komi.
    pub komi: Option<f64>,
    /// `RU`, the rules the game was played under.
    pub rules: Option<String>,
    /// `RE`, the result as written (checked by [`parse_result`]).
    pub result: Option<String>,
    /// Where `RE` is written, for messages about it.
    pub result_at: Option<Location>,
    /// `HA`, the number of handicap stones (the stones are the `AB`).
    pub handicap: Option<u32>,
}

/// How a game ended, as `RE` writes it.
#[derive(Clone, Debug, PartialEq)]
pub enum GameResult {
    /// Still going: no `RE`.
    Ongoing,
    /// `RE[0]`.
    Draw,
    /// `RE[Void]`: the game ended with no result (an end rule with the
    /// `no_result` verdict). Read back as [`GameResult::Ongoing`], as SGF
    /// readers take `Void` to say nothing about a winner.
    Void,
    /// `RE[B+R]`, `RE[W+3.5]`, `RE[B+]`.
    Win {
        /// The winner: 0 for Black, 1 for White.
        player: u8,
        /// How it was won.
        margin: Margin,
    },
}

/// How a won game was won, as the part of `RE` after the `+`.
#[derive(Clone, Debug, PartialEq)]
pub enum Margin {
    /// By resignation: `+R`.
    Resign,
    /// By counting, with this difference: `+3.5`.
    Score(f64),
    /// By a rule (a suicide or a forbidden repetition that loses): `+` alone.
    Rule,
    /// On time: `+T`.
    Time,
    /// By forfeit: `+F`.
    Forfeit,
}

impl GameResult {
    /// The `RE` value (`None` while the game goes on).
    pub fn to_sgf(&self) -> Option<String> {
        let colour = |p: u8| if p == 0 { 'B' } else { 'W' };
        match self {
            GameResult::Ongoing => None,
            GameResult::Draw => Some("0".to_string()),
            GameResult::Void => Some("Void".to_string()),
            GameResult::Win { player, margin } => Some(match margin {
                Margin::Resign => format!("{}+R", colour(*player)),
                Margin::Score(d) => format!("{}+{}", colour(*player), number(*d)),
                Margin::Rule => format!("{}+", colour(*player)),
                Margin::Time => format!("{}+T", colour(*player)),
                Margin::Forfeit => format!("{}+F", colour(*player)),
            }),
        }
    }
}

/// The result of a game in state `s` that ended with `outcome` (`None`:
/// still going). Scored endings (an end rule with the `score` verdict, or
/// an agreement) carry the margin, counted with no dead stones.
pub fn result_of(s: &GameState, outcome: Option<Outcome>) -> GameResult {
    let Some(o) = outcome else {
        return GameResult::Ongoing;
    };
    let rules = s.rules();
    let scored = o.is_counted(rules);
    match o.winner {
        None if o.is_no_result(rules) => GameResult::Void,
        None => GameResult::Draw,
        Some(player) => {
            let margin = if o.decided_by() == DecidedBy::Resignation {
                Margin::Resign
            } else if scored && rules.scoring.is_some() {
                let score = s.score();
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
        .expected("a Go-style ruleset (with a `play:` section)")
        .note("SGF defines no move format for Morris games; Morrigo keeps them as move records (`d1 d2 g1xd2`), which `replay --file` reads and `replay` and `play` print"));
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

/// A read SGF file: its nodes (node 0 is the root of the first game tree)
/// and how many game trees it holds.
struct Parsed<'a> {
    source: &'a SourceFile,
    nodes: Vec<scan::ScannedNode>,
    trees: usize,
}

impl Parsed<'_> {
    fn loc(&self, offset: usize) -> Location {
        self.source.location(offset)
    }

    /// A root property's first value and where it is written.
    fn root_value(&self, id: &str) -> Option<(&str, usize)> {
        let p = self.nodes.first()?.prop(id)?;
        p.values.first().map(|(v, o)| (v.as_str(), *o))
    }

    /// Where node `node`'s property `id` is written, if it has one.
    fn prop_offset(&self, node: usize, id: &str) -> Option<usize> {
        self.nodes[node].prop(id).map(|pr| pr.offset)
    }

    /// The nodes of the main line, root first (the first child at each branch).
    fn main_line(&self) -> Vec<usize> {
        let mut line = Vec::new();
        let mut at = (!self.nodes.is_empty()).then_some(0);
        while let Some(i) = at {
            line.push(i);
            at = self.nodes[i].children.first().copied();
        }
        line
    }
}

/// Read SGF text: every node of its game trees, or a located error. The
/// reader is iterative (see [`scan`]), so no nesting depth or length of a
/// main line can overflow the stack; a record's length is bounded when it
/// is replayed.
fn parse(source: &SourceFile) -> Result<Parsed<'_>, Diagnostic> {
    let (nodes, syntax) = scan::scan(&source.text);
    if let Some(se) = syntax {
        return Err(Diagnostic::new(format!("malformed SGF: {}", se.message))
            .at(source.location(se.offset))
            .expected("an SGF FF[4] Go game (GM[1]): `(;GM[1]SZ[19];B[dd];W[pp])`"));
    }
    let mut child = vec![false; nodes.len()];
    for n in &nodes {
        for &c in &n.children {
            child[c] = true;
        }
    }
    let trees = child.iter().filter(|c| !**c).count();
    if nodes.is_empty() {
        return Err(Diagnostic::new(format!(
            "{}: no game in the file",
            source.name
        )));
    }
    let parsed = Parsed {
        source,
        nodes,
        trees,
    };
    if let Some((gm, at)) = parsed.root_value("GM") {
        if gm.trim() != "1" {
            return Err(Diagnostic::new(format!(
                "GM[{gm}]: the file is not a Go game, and Morrigo reads and writes SGF for Go-style games only"
            ))
            .at(parsed.loc(at))
            .expected("GM[1] (Go)")
            .note("Morris games are recorded as move records (`morrigo replay RULESET --file game.txt`); SGF defines no move format for them"));
        }
    }
    Ok(parsed)
}

/// `SZ[19]` or `SZ[7:5]`, each side from 1 to 52 (SGF names 52 columns).
fn parse_size(text: &str) -> Option<(u32, u32)> {
    let side = |t: &str| {
        let t = t.trim();
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<u32>().ok())
            .flatten()
            .filter(|n| (1..=52).contains(n))
    };
    match text.split_once(':') {
        None => side(text).map(|n| (n, n)),
        Some((w, h)) => Some((side(w)?, side(h)?)),
    }
}

/// An SGF Real (`6.5`, `-3`, `+0.5`): a finite number, no `nan` or `inf`.
fn parse_real(text: &str) -> Option<f64> {
    let t = text.trim();
    let plain = !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+');
    plain
        .then(|| t.parse::<f64>().ok())
        .flatten()
        .filter(|k| k.is_finite())
}

/// Read the game-information properties of the root node, each checked:
/// a malformed `SZ`, `KM` or `RE` is an error at its place in the file.
pub fn info(source: &SourceFile) -> Result<SgfInfo, Diagnostic> {
    info_of(&parse(source)?)
}

fn info_of(p: &Parsed) -> Result<SgfInfo, Diagnostic> {
    let mut info = SgfInfo::default();
    if let Some((sz, at)) = p.root_value("SZ") {
        info.size = Some(parse_size(sz).ok_or_else(|| {
            Diagnostic::new(format!("SZ[{sz}]: cannot read the board size"))
                .at(p.loc(at))
                .expected("`SZ[19]` or `SZ[7:5]` (columns:rows), each from 1 to 52")
        })?);
    }
    if let Some((km, at)) = p.root_value("KM") {
        info.komi = Some(parse_real(km).ok_or_else(|| {
            Diagnostic::new(format!("KM[{km}]: the komi is not a finite number"))
                .at(p.loc(at))
                .expected("a number of points such as `KM[6.5]` or `KM[-2]`")
        })?);
    }
    if let Some((ru, _)) = p.root_value("RU") {
        info.rules = Some(ru.to_string());
    }
    if let Some((ha, at)) = p.root_value("HA") {
        let n = ha.trim().parse::<u32>().map_err(|_| {
            Diagnostic::new(format!(
                "HA[{ha}]: cannot read the number of handicap stones"
            ))
            .at(p.loc(at))
            .expected("a whole number, such as `HA[4]`")
        })?;
        // Records write `HA[0]` (or `HA[1]`) for an even game.
        info.handicap = Some(n).filter(|&n| n >= 2);
    }
    if let Some((re, at)) = p.root_value("RE") {
        parse_result(re).map_err(|e| {
            Diagnostic::new(format!("RE[{re}]: cannot read the result: {e}"))
                .at(p.loc(at))
                .expected("`B+R`, `W+3.5`, `B+`, `B+T`, `B+F`, `0` (a draw), `Void` or `?`")
        })?;
        info.result = Some(re.to_string());
        info.result_at = Some(p.loc(at));
    }
    Ok(info)
}

/// Read an `RE` value. `Void` and `?` (no result, unknown) read as
/// [`GameResult::Ongoing`].
pub fn parse_result(text: &str) -> Result<GameResult, String> {
    let t = text.trim();
    match t {
        "0" | "Draw" | "D" => return Ok(GameResult::Draw),
        "Void" | "?" | "" => return Ok(GameResult::Ongoing),
        _ => {}
    }
    let (colour, margin) = t
        .split_once('+')
        .ok_or_else(|| "expected a colour, `+` and how the game was won".to_string())?;
    let player = match colour {
        "B" => 0,
        "W" => 1,
        _ => return Err(format!("`{colour}` is not a colour (B or W)")),
    };
    let margin = match margin {
        "" => Margin::Rule,
        "R" | "Resign" => Margin::Resign,
        "T" | "Time" => Margin::Time,
        "F" | "Forfeit" => Margin::Forfeit,
        m => Margin::Score(
            parse_real(m)
                .filter(|d| *d >= 0.0)
                .ok_or_else(|| format!("`{m}` is not a winning margin"))?,
        ),
    };
    Ok(GameResult::Win { player, margin })
}

/// An imported game: the set-up stones of the root node (`AB`, `AW`), who
/// moves first (`PL`, else Black), the moves of the main line, and
/// warnings about what was not read (variations, further game trees).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SgfGame {
    /// Set-up stones of the first and second player (`AB`, `AW`).
    pub setup: [Vec<u16>; 2],
    /// 0 when Black moves first (the default), 1 for `PL[W]`.
    pub first_player: u8,
    /// The moves of the main line, in order.
    pub moves: Vec<SgfMove>,
    /// What the import left out, located (variations off the main line,
    /// game trees after the first).
    pub warnings: Vec<Diagnostic>,
    /// The game-information properties (`SZ`, `KM`, `RU`, `RE`).
    pub info: SgfInfo,
}

/// Import the main line of an SGF game for `rules` (errors are located in
/// a source named `sgf`). See [`import_source`].
pub fn import(sgf_text: &str, rules: &Rules) -> Result<SgfGame, Diagnostic> {
    import_source(&SourceFile::new("sgf", sgf_text), rules)
}

/// The points of an `AB`/`AW` value: `cc`, or a rectangle `aa:cc`.
fn setup_points(g: &Grid, value: &str) -> Option<Vec<u16>> {
    let xy = |t: &str| {
        let b = t.as_bytes();
        (b.len() == 2).then(|| Some((coord(b[0])?, coord(b[1])?)))?
    };
    let (a, b) = match value.split_once(':') {
        None => (xy(value)?, xy(value)?),
        Some((a, b)) => (xy(a)?, xy(b)?),
    };
    let mut out = Vec::new();
    for x in a.0.min(b.0)..=a.0.max(b.0) {
        for y in a.1.min(b.1)..=a.1.max(b.1) {
            out.push(*g.point_at.get(&(x, y))?);
        }
    }
    Some(out)
}

/// An SGF coordinate letter: `a`–`z` then `A`–`Z`.
fn coord(c: u8) -> Option<u32> {
    match c {
        b'a'..=b'z' => Some(u32::from(c - b'a')),
        b'A'..=b'Z' => Some(u32::from(c - b'A') + 26),
        _ => None,
    }
}

/// Whether an import insists on the players taking turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turns {
    /// Moves alternate: a record of a game under the rules (the default).
    Alternate,
    /// Each move is its colour's, even twice in a row (what a GTP
    /// controller may ask for; [`SgfMove::player`] says whose it is).
    AsRecorded,
}

/// Import the main line of the SGF game in `source` for `rules`.
///
/// Checks that `SZ` matches the ruleset's board, that the colours alternate
/// starting with Black (or the `PL` of a set-up position), that every point
/// is on the board, and that passes name a pass kind of the ruleset (see
/// the crate docs on `PK`). Whether the moves are legal is for a replay to
/// say. Variations off the main line are not read: each branching point
/// gives a warning.
pub fn import_source(source: &SourceFile, rules: &Rules) -> Result<SgfGame, Diagnostic> {
    import_source_with(source, rules, Turns::Alternate)
}

/// [`import_source`], taking the players' turns as `turns` says.
pub fn import_source_with(
    source: &SourceFile,
    rules: &Rules,
    turns: Turns,
) -> Result<SgfGame, Diagnostic> {
    let g = grid(rules)?;
    let parsed = parse(source)?;
    let info = info_of(&parsed)?;
    check_size(&parsed, &info, &g, rules)?;
    let line = parsed.main_line();
    let warnings = trees_warning(&parsed)
        .into_iter()
        .chain(variations_warning(&parsed, &line))
        .collect();
    let mut import = Import {
        p: &parsed,
        rules,
        g,
        turns,
        game: SgfGame {
            info,
            warnings,
            ..SgfGame::default()
        },
        used: HashMap::new(),
        pl_given: false,
    };
    for (li, &i) in line.iter().enumerate() {
        // The set-up is complete once the root node is read.
        if li == 1 {
            import.finish_setup()?;
        }
        import.read_node(i, li == 0)?;
    }
    if line.len() == 1 {
        import.finish_setup()?;
    }
    Ok(import.game)
}

/// The board size `SZ` says (19×19 when absent) must be the ruleset's.
fn check_size(p: &Parsed, info: &SgfInfo, g: &Grid, rules: &Rules) -> Result<(), Diagnostic> {
    let (sw, sh) = info.size.unwrap_or((19, 19));
    if (sw, sh) == (g.width, g.height) {
        return Ok(());
    }
    let written = if sw == sh {
        format!("SZ[{sw}]")
    } else {
        format!("SZ[{sw}:{sh}]")
    };
    let at = p.prop_offset(0, "SZ").unwrap_or(p.nodes[0].offset);
    Err(Diagnostic::new(format!(
        "{written}: the game is on a {sw}x{sh} board, and ruleset `{}` has a {}x{} board",
        rules.name, g.width, g.height
    ))
    .at(p.loc(at))
    .expected(format!("the same size (pass `--size {sw}x{sh}`)")))
}

/// A warning when the file holds game trees after the first.
fn trees_warning(p: &Parsed) -> Option<Diagnostic> {
    (p.trees > 1).then(|| {
        Diagnostic::new(format!(
            "the file holds {} game trees; only the first is read",
            p.trees
        ))
        .at(p.loc(p.nodes[0].offset))
    })
}

/// A warning, at the first of them, when variations branch off the main line.
fn variations_warning(p: &Parsed, line: &[usize]) -> Option<Diagnostic> {
    let mut branches = 0;
    let mut first_branch = None;
    for &i in line {
        if let Some(&second) = p.nodes[i].children.get(1) {
            branches += p.nodes[i].children.len() - 1;
            first_branch.get_or_insert(second);
        }
    }
    first_branch.map(|b| {
        Diagnostic::new(format!(
            "the game has {branches} variation(s) off the main line; only the main line (the first variation at each branch) is replayed"
        ))
        .at(p.loc(p.nodes[b].offset))
    })
}

/// An import in progress: the game read so far from the main line.
struct Import<'a> {
    p: &'a Parsed<'a>,
    rules: &'a Rules,
    g: Grid,
    turns: Turns,
    game: SgfGame,
    /// Where each set-up point is written, for messages about it.
    used: HashMap<u16, usize>,
    /// Whether the root node says who moves first (`PL`).
    pl_given: bool,
}

/// The move of one node as written (`W[cd]`, `B[]PK[E]`), being read.
struct NodeMove<'a> {
    /// The node's index, to locate its `PK`.
    node: usize,
    number: usize,
    player: u8,
    /// Where the move property is written.
    offset: usize,
    value: &'a str,
    kind: Option<String>,
    /// The properties as written, for messages.
    sgf: String,
}

impl NodeMove<'_> {
    /// An error about this move: "move 17 (W[cd]): …", at its place.
    fn error(&self, p: &Parsed, msg: String) -> Diagnostic {
        Diagnostic::new(format!("move {} ({}): {msg}", self.number, self.sgf))
            .at(p.loc(self.offset))
    }
}

/// A property's first value (the scanner gives every property one).
fn first_value(prop: &scan::ScannedProp) -> &str {
    prop.values.first().map_or("", |(v, _)| v.as_str())
}

impl<'a> Import<'a> {
    /// After the root node: the ruleset's start if the root has no set-up,
    /// and every set-up chain checked for a liberty.
    fn finish_setup(&mut self) -> Result<(), Diagnostic> {
        ruleset_start(self.rules, &mut self.game, self.pl_given);
        check_liberties(self.rules, &self.game.setup, &self.used, self.p)
    }

    /// Read node `i` of the main line: its set-up (root only) and its move.
    fn read_node(&mut self, i: usize, is_root: bool) -> Result<(), Diagnostic> {
        let p = self.p;
        let number = self.game.moves.len() + 1;
        let (move_prop, kind) = self.read_props(&p.nodes[i], is_root, number)?;
        let Some(prop) = move_prop else {
            if kind.is_some() {
                return Err(Diagnostic::new(format!(
                    "`{PASS_KIND_PROPERTY}` on a node without a pass"
                ))
                .at_opt(p.prop_offset(i, PASS_KIND_PROPERTY).map(|o| p.loc(o))));
            }
            return Ok(());
        };
        let value = first_value(prop);
        let mut sgf = format!("{}[{value}]", prop.id);
        if let Some(k) = &kind {
            sgf.push_str(&format!("{PASS_KIND_PROPERTY}[{k}]"));
        }
        let mv = NodeMove {
            node: i,
            number,
            player: u8::from(prop.id == "W"),
            offset: prop.offset,
            value,
            kind,
            sgf,
        };
        self.check_turn(&mv)?;
        let token = self.move_token(&mv)?;
        self.game.moves.push(SgfMove {
            token,
            move_number: number,
            player: mv.player,
            sgf: mv.sgf,
            offset: Some(mv.offset),
        });
        Ok(())
    }

    /// Read a node's properties in order, taking in its set-up; its move
    /// property (`B`/`W`), if any, and its pass kind (`PK`), if any.
    fn read_props(
        &mut self,
        node: &'a scan::ScannedNode,
        is_root: bool,
        number: usize,
    ) -> Result<(Option<&'a scan::ScannedProp>, Option<String>), Diagnostic> {
        let p = self.p;
        let mut mv: Option<&scan::ScannedProp> = None;
        let mut kind: Option<String> = None;
        for prop in &node.props {
            let id = prop.id.as_str();
            let value = first_value(prop);
            match id {
                "AB" | "AW" | "AE" | "PL" if !is_root => {
                    return Err(Diagnostic::new(format!(
                        "`{id}` after the start: set-up in the middle of a game is not supported"
                    ))
                    .at(p.loc(prop.offset))
                    .expected("set-up stones (`AB`, `AW`) and `PL` in the root node only"));
                }
                "AE" => {
                    return Err(Diagnostic::new(
                        "`AE` in the root node: the board starts empty, there is nothing to clear",
                    )
                    .at(p.loc(prop.offset))
                    .expected("set-up stones with `AB` and `AW` only"));
                }
                "AB" | "AW" => self.add_setup_stones(prop)?,
                "PL" => self.read_first_player(prop, value)?,
                "B" | "W" => {
                    if mv.is_some() {
                        return Err(Diagnostic::new(format!(
                            "move {number}: a node holds two moves"
                        ))
                        .at(p.loc(prop.offset))
                        .expected("one move (B or W) per node"));
                    }
                    if prop.values.len() > 1 {
                        return Err(Diagnostic::new(format!(
                            "move {number}: `{id}` has {} values",
                            prop.values.len()
                        ))
                        .at(p.loc(prop.offset))
                        .expected("one point, or `[]` for a pass"));
                    }
                    mv = Some(prop);
                }
                PASS_KIND_PROPERTY => kind = Some(value.to_string()),
                _ => {}
            }
        }
        Ok((mv, kind))
    }

    /// `AB`/`AW`: set-up stones, each point (or rectangle) on the board once.
    fn add_setup_stones(&mut self, prop: &scan::ScannedProp) -> Result<(), Diagnostic> {
        let (p, g) = (self.p, &self.g);
        let id = prop.id.as_str();
        let player = usize::from(id == "AW");
        for (v, o) in &prop.values {
            let points = setup_points(g, v).ok_or_else(|| {
                Diagnostic::new(format!(
                    "{id}[{v}]: not a point (or rectangle `aa:cc`) of the {}x{} board",
                    g.width, g.height
                ))
                .at(p.loc(*o))
                .expected(format!(
                    "points of two letters, columns and rows `a` to `{}`",
                    letter(g.width.max(g.height) - 1)
                ))
            })?;
            for pt in points {
                if let Some(first) = self.used.insert(pt, *o) {
                    return Err(Diagnostic::new(format!(
                        "{id}[{v}]: point {} is set up twice",
                        self.rules.topology.name(pt)
                    ))
                    .at(p.loc(*o))
                    .expected("each set-up point once")
                    .note(format!("first set up at {}", p.loc(first))));
                }
                self.game.setup[player].push(pt);
            }
        }
        Ok(())
    }

    /// `PL`: who moves first from the set-up position.
    fn read_first_player(
        &mut self,
        prop: &scan::ScannedProp,
        value: &str,
    ) -> Result<(), Diagnostic> {
        self.pl_given = true;
        self.game.first_player = match value.trim() {
            "B" | "b" => 0,
            "W" | "w" => 1,
            _ => {
                return Err(Diagnostic::new(format!("PL[{value}]: not a colour"))
                    .at(self.p.loc(prop.offset))
                    .expected("`PL[B]` or `PL[W]`"))
            }
        };
        Ok(())
    }

    /// The move must be its player's turn (unless turns are taken as recorded).
    fn check_turn(&mut self, mv: &NodeMove) -> Result<(), Diagnostic> {
        // A set-up position without `PL` (a handicap game, say) is moved
        // from by whoever plays first; only a bare game must start with Black.
        let has_setup = self.game.setup.iter().any(|s| !s.is_empty());
        if mv.number == 1 && has_setup && !self.pl_given {
            self.game.first_player = mv.player;
        }
        let expected_player = ((usize::from(self.game.first_player) + mv.number - 1) % 2) as u8;
        if mv.player != expected_player && self.turns == Turns::Alternate {
            let who = |p: u8| {
                self.rules
                    .players
                    .get(p as usize)
                    .cloned()
                    .unwrap_or_default()
            };
            return Err(mv
                .error(
                    self.p,
                    format!(
                        "{} plays out of turn: it is {}'s move",
                        who(mv.player),
                        who(expected_player)
                    ),
                )
                .expected("moves alternating, Black first (or, after set-up stones, the player `PL` names or the first move shows)"));
        }
        Ok(())
    }

    /// The Morrigo token of a move: the point's name, or a pass of its kind.
    fn move_token(&self, mv: &NodeMove) -> Result<String, Diagnostic> {
        match self.move_point(mv)? {
            Some(xy) => self.play_token(mv, xy),
            None => pass_token(self.rules, mv.kind.as_deref()).map_err(|(msg, exp)| {
                let d = mv.error(self.p, msg).expected(exp);
                match self.p.prop_offset(mv.node, PASS_KIND_PROPERTY) {
                    Some(o) => Diagnostic {
                        location: Some(self.p.loc(o)),
                        ..d
                    },
                    None => d,
                }
            }),
        }
    }

    /// The SGF point of a move, or `None` for a pass (`[]`, or `[tt]` up to 19×19).
    fn move_point(&self, mv: &NodeMove) -> Result<Option<(u32, u32)>, Diagnostic> {
        let g = &self.g;
        let unreadable = || {
            mv.error(self.p, format!("cannot read `{}` as a point", mv.value))
                .expected("a point of two letters (`dd`), or `[]` for a pass")
        };
        match mv.value.as_bytes() {
            [] => Ok(None),
            b"tt" if g.width <= 19 && g.height <= 19 => Ok(None),
            [x, y] => match (coord(*x), coord(*y)) {
                (Some(x), Some(y)) => Ok(Some((x, y))),
                _ => Err(unreadable()),
            },
            _ => Err(unreadable()),
        }
    }

    /// The token of a board play at SGF point `xy`, which must be on the
    /// board and carry no pass kind.
    fn play_token(&self, mv: &NodeMove, xy: (u32, u32)) -> Result<String, Diagnostic> {
        let (p, g) = (self.p, &self.g);
        let Some(&pt) = g.point_at.get(&xy) else {
            return Err(mv
                .error(
                    p,
                    format!("`{}` is off the {}x{} board", mv.value, g.width, g.height),
                )
                .expected(format!(
                    "columns and rows `a` to `{}`",
                    letter(g.width.max(g.height) - 1)
                )));
        };
        if mv.kind.is_some() {
            return Err(Diagnostic::new(format!(
                "move {} ({}): `{PASS_KIND_PROPERTY}` on a board play",
                mv.number, mv.sgf
            ))
            .at_opt(p.prop_offset(mv.node, PASS_KIND_PROPERTY).map(|o| p.loc(o)))
            .expected(format!("`{PASS_KIND_PROPERTY}` only on passes")));
        }
        Ok(self.rules.topology.name(pt).to_string())
    }
}

/// A root node without set-up (`AB`, `AW`, `PL`) starts from the ruleset's
/// own start: its `setup.stones` and the player its `setup.to_move` names
/// (checked when the ruleset was compiled).
fn ruleset_start(rules: &Rules, game: &mut SgfGame, pl_given: bool) {
    if pl_given || game.setup.iter().any(|s| !s.is_empty()) {
        return;
    }
    game.setup = rules.start.stones.clone();
    game.first_player = rules.start.to_move;
}

/// Every chain of set-up stones must have a liberty: a Go position cannot
/// hold a chain without one (it would have been captured).
fn check_liberties(
    rules: &Rules,
    setup: &[Vec<u16>; 2],
    written_at: &HashMap<u16, usize>,
    p: &Parsed,
) -> Result<(), Diagnostic> {
    let t = &rules.topology;
    let mut owner = vec![None; t.len()];
    for (player, stones) in setup.iter().enumerate() {
        for &pt in stones {
            owner[pt as usize] = Some(player);
        }
    }
    let mut seen = vec![false; t.len()];
    for stones in setup {
        for &start in stones {
            if seen[start as usize] {
                continue;
            }
            let colour = owner[start as usize];
            let mut chain = vec![start];
            let mut stack = vec![start];
            seen[start as usize] = true;
            let mut free = false;
            while let Some(q) = stack.pop() {
                for &n in &t.neighbours[q as usize] {
                    match owner[n as usize] {
                        None => free = true,
                        c if c == colour && !seen[n as usize] => {
                            seen[n as usize] = true;
                            chain.push(n);
                            stack.push(n);
                        }
                        _ => {}
                    }
                }
            }
            if !free {
                let names: Vec<&str> = chain.iter().map(|&q| t.name(q)).collect();
                let at = chain
                    .iter()
                    .filter_map(|q| written_at.get(q))
                    .min()
                    .copied();
                return Err(Diagnostic::new(format!(
                    "set-up stones {} have no liberty: no Go position holds them",
                    names.join(", ")
                ))
                .at_opt(at.map(|o| p.loc(o)))
                .expected("set-up chains with at least one empty neighbouring point"));
            }
        }
    }
    Ok(())
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
/// the game: the ruleset's set-up stones (`AB`/`AW`) and first player
/// (`PL[W]` when White). Errors when the ruleset's board is not a grid or a move is
/// neither a board play nor a pass.
pub fn export(rules: &Rules, moves: &[Move], result: &GameResult) -> Result<String, Diagnostic> {
    let start = &rules.start;
    export_game(rules, &start.stones, start.to_move, moves, result)
}

/// [`export`] from a set-up position: `AB`/`AW` with the stones of each
/// player and `PL[W]` when the second player moves first.
pub fn export_game(
    rules: &Rules,
    setup: &[Vec<u16>; 2],
    first_player: u8,
    moves: &[Move],
    result: &GameResult,
) -> Result<String, Diagnostic> {
    export_handicap_game(rules, setup, first_player, None, moves, result)
}

/// [`export_game`], with `HA[n]` in the root node when `handicap` is
/// given (the set-up stones are the handicap stones).
pub fn export_handicap_game(
    rules: &Rules,
    setup: &[Vec<u16>; 2],
    first_player: u8,
    handicap: Option<u32>,
    moves: &[Move],
    result: &GameResult,
) -> Result<String, Diagnostic> {
    let played: Vec<(u8, Move)> = moves
        .iter()
        .enumerate()
        .map(|(i, &m)| (((i + usize::from(first_player)) % 2) as u8, m))
        .collect();
    export_played(rules, setup, first_player, handicap, &played, result)
}

/// [`export_handicap_game`] with each move's player given, so one player
/// may move twice in a row (a GTP controller's consecutive moves of one
/// colour; SGF allows them, and [`Turns::AsRecorded`] reads them back).
pub fn export_played(
    rules: &Rules,
    setup: &[Vec<u16>; 2],
    first_player: u8,
    handicap: Option<u32>,
    played: &[(u8, Move)],
    result: &GameResult,
) -> Result<String, Diagnostic> {
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
        if !s.komi.is_finite() {
            return Err(Diagnostic::new(format!(
                "ruleset `{}` has komi {}, which SGF cannot record",
                rules.name, s.komi
            ))
            .expected("a finite komi"));
        }
        let _ = write!(out, "KM[{}]", number(s.komi));
    }
    if let [b, w, ..] = rules.players.as_slice() {
        let _ = write!(out, "PB[{}]PW[{}]", escape(b), escape(w));
    }
    if let Some(re) = result.to_sgf() {
        let _ = write!(out, "RE[{re}]");
    }
    if let Some(n) = handicap {
        let _ = write!(out, "HA[{n}]");
    }
    for (id, stones) in ["AB", "AW"].iter().zip(setup) {
        if !stones.is_empty() {
            out.push_str(id);
            for &pt in stones {
                let &(x, y) = g
                    .sgf_of
                    .get(pt as usize)
                    .ok_or_else(|| Diagnostic::new(format!("set-up stone: no point {pt}")))?;
                let _ = write!(out, "[{}{}]", letter(x), letter(y));
            }
        }
    }
    if first_player == 1 {
        out.push_str("PL[W]");
    }
    let several_kinds = rules.passes.kinds.len() > 1;
    for (i, &(player, ref m)) in played.iter().enumerate() {
        out.push(if i % 10 == 0 { '\n' } else { ' ' });
        let colour = if player == 0 { 'B' } else { 'W' };
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
