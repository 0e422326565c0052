//! Agent specifications as written on the command line: a name and typed
//! parameters, e.g. `random`, `alphabeta:depth=6`, `alphabeta:time=500`.

use std::fmt;
use std::str::FromStr;

/// Which agent plays a seat, with its parameters.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(into = "String", try_from = "String")]
pub enum AgentSpec {
    /// Uniform over the legal moves.
    Uniform,
    /// Uniform over the moves that do not lose at once (the game ending
    /// with the mover lost right after the move); uniform over all moves
    /// when every move loses at once.
    #[default]
    Random,
    /// One-ply lookahead: the best immediate outcome, then lines (Morris
    /// family) or captures, rescues and liberties (board plays).
    Greedy,
    /// Negamax alpha-beta search (see [`AlphaBetaParams`]).
    AlphaBeta(AlphaBetaParams),
    /// Monte Carlo tree search (see [`MctsParams`]).
    Mcts(MctsParams),
    /// Perfect play from a solved table (see [`PerfectParams`]).
    Perfect(PerfectParams),
}

/// The table the perfect agent reads: a file written by `morrigo solve
/// --save` or a database directory of `morrigo solve --db`, or `None` to
/// solve the game when the agent is prepared (small games only, see
/// the perfect agent's module).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PerfectParams {
    /// The path, interned (specs are `Copy`): each distinct path is stored
    /// once for the whole run, however often it is parsed.
    pub table: Option<&'static str>,
}

/// Most distinct table paths one process interns (MAX_TABLE_PATHS); a
/// command names a handful, and the bound keeps a server that parses specs
/// per request from growing.
pub const MAX_TABLE_PATHS: usize = 256;
/// Longest table path in bytes (MAX_TABLE_PATH_BYTES, Linux's PATH_MAX).
pub const MAX_TABLE_PATH_BYTES: usize = 4096;

static TABLE_PATHS: std::sync::OnceLock<std::sync::Mutex<std::collections::HashSet<&'static str>>> =
    std::sync::OnceLock::new();

/// The one stored copy of a table path: parsing the same path again stores
/// nothing (the spec parser used to leak a copy per parse).
fn intern_table_path(path: &str) -> Result<&'static str, String> {
    if path.len() > MAX_TABLE_PATH_BYTES {
        return Err(format!(
            "`perfect` parameter `table` is {} bytes long, more than {MAX_TABLE_PATH_BYTES} (MAX_TABLE_PATH_BYTES)",
            path.len()
        ));
    }
    let mut paths = TABLE_PATHS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(known) = paths.get(path) {
        return Ok(known);
    }
    if paths.len() >= MAX_TABLE_PATHS {
        return Err(format!(
            "`perfect` parameter `table`: this process has read {MAX_TABLE_PATHS} different table paths already (MAX_TABLE_PATHS)"
        ));
    }
    let stored: &'static str = Box::leak(path.to_string().into_boxed_str());
    paths.insert(stored);
    Ok(stored)
}

/// Budget of the Monte Carlo agent: `playouts` playouts per move, or as
/// many as `time_ms` allows (a time alone lifts the playout cap);
/// `threads` trees searched at once (root parallelism); `rave` the AMAF
/// equivalence (0: plain UCT, no priors) and `c` plain UCT's exploration
/// constant (kept in thousandths, so specs compare exactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MctsParams {
    /// Playouts per move (`playouts=`).
    pub playouts: u32,
    /// UCT's exploration constant in thousandths (`c=`).
    pub c_milli: u32,
    /// Time per move in milliseconds (`time=`); `None`: no time budget.
    pub time_ms: Option<u64>,
    /// Trees searched at once (`threads=`).
    pub threads: u32,
    /// AMAF equivalence (`rave=`); 0 is plain UCT.
    pub rave: u32,
}

impl MctsParams {
    /// Playouts per move when `playouts=` is not given.
    pub const DEFAULT_PLAYOUTS: u32 = 1000;
    /// Most playouts a `playouts=` may ask for.
    pub const MAX_PLAYOUTS: u32 = 10_000_000;
    /// AMAF equivalence when `rave=` is not given (Pachi's default).
    pub const DEFAULT_RAVE: u32 = 3000;
    /// Most trees `threads=` may ask for.
    pub const MAX_THREADS: u32 = 64;
}

impl Default for MctsParams {
    fn default() -> Self {
        MctsParams {
            playouts: Self::DEFAULT_PLAYOUTS,
            c_milli: 1400,
            time_ms: None,
            threads: 1,
            rave: Self::DEFAULT_RAVE,
        }
    }
}

/// Budget of the alpha-beta agent: iterative deepening stops at `depth`
/// plies, or when `time_ms` has passed (the deepest completed iteration
/// decides). A time budget makes the choice depend on the machine's speed.
/// Ties are settled by the game's generator: with `margin` 0 the root moves
/// are searched in a seeded order, so of equally scored moves a seeded one
/// is found first and played; with `margin` > 0 every root move scoring at
/// most `margin` evaluation units (centipieces) below the best is found and
/// one drawn (wins and losses tie only exactly). `nodes` stops the search
/// after that many positions (the iteration under way is dropped unless it
/// proved a better move): a budget that gives the same games on every
/// machine. `hash_mb` sizes the transposition table. `table` is a solved
/// table (`morrigo solve --save`) whose exact values replace the search;
/// without one, a game small enough is solved at once (see
/// the perfect agent's `SEARCH_TABLE_MEMORY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AlphaBetaParams {
    /// Deepest iteration (`depth=`), in plies.
    pub depth: u32,
    /// Time per move in milliseconds (`time=`); `None`: no time budget.
    pub time_ms: Option<u64>,
    /// How far below the best a root move may score and still be drawn
    /// (`margin=`), in centipieces.
    pub margin: u32,
    /// Positions after which the search stops (`nodes=`); `None`: no cap.
    pub nodes: Option<u64>,
    /// Transposition table size in MiB (`hash=`); `None`:
    /// [`TT_ENTRIES`](crate::TT_ENTRIES) entries.
    pub hash_mb: Option<u32>,
    /// Path of the solved table whose values replace the search (`table=`).
    pub table: Option<&'static str>,
}

impl AlphaBetaParams {
    /// Iteration depth when `depth=` is not given.
    pub const DEFAULT_DEPTH: u32 = 4;
    /// Deepest search a `depth=` may ask for.
    pub const MAX_DEPTH: u32 = 64;
    /// Widest `margin=` (a hundred pieces): beyond, every move would tie.
    pub const MAX_MARGIN: u32 = 10_000;
    /// Largest `nodes=` budget.
    pub const MAX_NODES: u64 = 1 << 40;
    /// Largest `hash=` table, in MiB.
    pub const MAX_HASH_MB: u32 = 4096;
}

impl Default for AlphaBetaParams {
    fn default() -> Self {
        AlphaBetaParams {
            depth: Self::DEFAULT_DEPTH,
            time_ms: None,
            margin: 0,
            nodes: None,
            hash_mb: None,
            table: None,
        }
    }
}

/// The agent names, in the order help lists them.
pub const AGENT_NAMES: [&str; 6] = [
    "uniform",
    "random",
    "greedy",
    "alphabeta",
    "mcts",
    "perfect",
];

impl AgentSpec {
    /// The agent's name, as agent specs spell it.
    pub fn name(&self) -> &'static str {
        match self {
            AgentSpec::Uniform => "uniform",
            AgentSpec::Random => "random",
            AgentSpec::Greedy => "greedy",
            AgentSpec::AlphaBeta(_) => "alphabeta",
            AgentSpec::Mcts(_) => "mcts",
            AgentSpec::Perfect(_) => "perfect",
        }
    }

    /// The parameters this agent accepts.
    fn params(name: &str) -> &'static [&'static str] {
        match name {
            "alphabeta" => &["depth", "time", "nodes", "margin", "hash", "table"],
            "mcts" => &["playouts", "c", "time", "threads", "rave"],
            "perfect" => &["table"],
            _ => &[],
        }
    }

    /// Parse a comma-separated list of agents, where a comma inside one
    /// agent's parameters (`alphabeta:depth=3,time=100,greedy`) continues
    /// that agent: a piece with `=` and no `:` is a parameter.
    pub fn parse_list(text: &str) -> Result<Vec<AgentSpec>, String> {
        let mut groups: Vec<String> = Vec::new();
        for piece in text.split(',') {
            match groups.last_mut() {
                Some(last) if piece.contains('=') && !piece.contains(':') => {
                    last.push(',');
                    last.push_str(piece);
                }
                _ => groups.push(piece.to_string()),
            }
        }
        groups.iter().map(|g| g.parse()).collect()
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        match self {
            AgentSpec::AlphaBeta(p) => {
                write!(f, ":depth={}", p.depth)?;
                if let Some(t) = p.time_ms {
                    write!(f, ",time={t}")?;
                }
                if let Some(n) = p.nodes {
                    write!(f, ",nodes={n}")?;
                }
                if p.margin > 0 {
                    write!(f, ",margin={}", p.margin)?;
                }
                if let Some(mb) = p.hash_mb {
                    write!(f, ",hash={mb}")?;
                }
                if let Some(t) = p.table {
                    write!(f, ",table={t}")?;
                }
            }
            AgentSpec::Mcts(p) => {
                write!(
                    f,
                    ":playouts={},c={}",
                    p.playouts,
                    p.c_milli as f64 / 1000.0
                )?;
                if let Some(t) = p.time_ms {
                    write!(f, ",time={t}")?;
                }
                if p.threads != 1 {
                    write!(f, ",threads={}", p.threads)?;
                }
                if p.rave != MctsParams::DEFAULT_RAVE {
                    write!(f, ",rave={}", p.rave)?;
                }
            }
            AgentSpec::Perfect(PerfectParams { table: Some(t) }) => write!(f, ":table={t}")?,
            _ => {}
        }
        Ok(())
    }
}

impl From<AgentSpec> for String {
    fn from(a: AgentSpec) -> String {
        a.to_string()
    }
}

impl TryFrom<String> for AgentSpec {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

fn did_you_mean(wrong: &str, names: &[&str]) -> String {
    match morrigo_diag::did_you_mean(wrong, names.iter().copied()) {
        Some(s) => format!(" (did you mean `{s}`?)"),
        None => String::new(),
    }
}

fn number<T: FromStr>(agent: &str, key: &str, value: &str, what: &str) -> Result<T, String> {
    value
        .trim()
        .parse()
        .map_err(|_| format!("`{agent}` parameter `{key}` must be {what}, not `{value}`"))
}

/// The parameters read so far, for every agent at once: a key that several
/// agents take (`time`, `table`) sets each of them, and the name read at
/// the end picks the agent.
#[derive(Default)]
struct Draft {
    ab: AlphaBetaParams,
    depth_given: bool,
    mc: MctsParams,
    playouts_given: bool,
    perfect: PerfectParams,
}

impl Draft {
    /// Read `key=value` (a key `name` accepts) into the draft.
    fn set(&mut self, name: &str, key: &str, value: &str) -> Result<(), String> {
        match key {
            "depth" | "nodes" | "hash" | "margin" => self.set_search(name, key, value),
            "threads" | "rave" | "playouts" | "c" => self.set_mcts(name, key, value),
            "time" => {
                let t: u64 = number(name, key, value, "a time in milliseconds")?;
                if t == 0 {
                    return Err(format!("`{name}` parameter `time` must be at least 1 ms"));
                }
                self.ab.time_ms = Some(t);
                self.mc.time_ms = Some(t);
                Ok(())
            }
            "table" => {
                let path = value.trim();
                if path.is_empty() {
                    return Err(format!("`{name}` parameter `table` needs a file name"));
                }
                self.perfect.table = Some(intern_table_path(path)?);
                self.ab.table = self.perfect.table;
                Ok(())
            }
            _ => unreachable!("every accepted parameter is handled"),
        }
    }

    /// The parameters only alpha-beta takes.
    fn set_search(&mut self, name: &str, key: &str, value: &str) -> Result<(), String> {
        let ab = &mut self.ab;
        match key {
            "depth" => {
                self.depth_given = true;
                ab.depth = number(name, key, value, "a whole number of plies")?;
                if !(1..=AlphaBetaParams::MAX_DEPTH).contains(&ab.depth) {
                    return Err(format!(
                        "`{name}` parameter `depth` must be 1 to {}, not {}",
                        AlphaBetaParams::MAX_DEPTH,
                        ab.depth
                    ));
                }
            }
            "nodes" => {
                let n: u64 = number(name, key, value, "a whole number of positions")?;
                if !(1..=AlphaBetaParams::MAX_NODES).contains(&n) {
                    return Err(format!(
                        "`{name}` parameter `nodes` must be 1 to {}, not {n}",
                        AlphaBetaParams::MAX_NODES
                    ));
                }
                ab.nodes = Some(n);
            }
            "hash" => {
                let mb: u32 = number(name, key, value, "a size in MiB")?;
                if !(1..=AlphaBetaParams::MAX_HASH_MB).contains(&mb) {
                    return Err(format!(
                        "`{name}` parameter `hash` must be 1 to {} (MiB), not {mb}",
                        AlphaBetaParams::MAX_HASH_MB
                    ));
                }
                ab.hash_mb = Some(mb);
            }
            "margin" => {
                ab.margin = number(name, key, value, "a whole number of centipieces")?;
                if ab.margin > AlphaBetaParams::MAX_MARGIN {
                    return Err(format!(
                        "`{name}` parameter `margin` must be 0 to {}, not {}",
                        AlphaBetaParams::MAX_MARGIN,
                        ab.margin
                    ));
                }
            }
            _ => unreachable!("every alpha-beta parameter is handled"),
        }
        Ok(())
    }

    /// The parameters only the Monte Carlo agent takes.
    fn set_mcts(&mut self, name: &str, key: &str, value: &str) -> Result<(), String> {
        let mc = &mut self.mc;
        match key {
            "threads" => {
                mc.threads = number(name, key, value, "a whole number")?;
                if !(1..=MctsParams::MAX_THREADS).contains(&mc.threads) {
                    return Err(format!(
                        "`{name}` parameter `threads` must be 1 to {}, not {}",
                        MctsParams::MAX_THREADS,
                        mc.threads
                    ));
                }
            }
            "rave" => {
                mc.rave = number(name, key, value, "a whole number (0: plain UCT)")?;
            }
            "playouts" => {
                self.playouts_given = true;
                mc.playouts = number(name, key, value, "a whole number")?;
                if !(1..=MctsParams::MAX_PLAYOUTS).contains(&mc.playouts) {
                    return Err(format!(
                        "`{name}` parameter `playouts` must be 1 to {}, not {}",
                        MctsParams::MAX_PLAYOUTS,
                        mc.playouts
                    ));
                }
            }
            "c" => {
                let c: f64 = number(name, key, value, "a number")?;
                if !(0.0..=100.0).contains(&c) {
                    return Err(format!("`{name}` parameter `c` must be 0 to 100, not {c}"));
                }
                mc.c_milli = (c * 1000.0).round() as u32;
            }
            _ => unreachable!("every Monte Carlo parameter is handled"),
        }
        Ok(())
    }

    /// The agent `name` names, with the parameters read.
    fn into_spec(self, name: &str) -> AgentSpec {
        let Draft {
            mut ab,
            depth_given,
            mut mc,
            playouts_given,
            perfect,
        } = self;
        match name {
            "uniform" => AgentSpec::Uniform,
            "random" => AgentSpec::Random,
            "greedy" => AgentSpec::Greedy,
            "mcts" => {
                if mc.time_ms.is_some() && !playouts_given {
                    // A time budget alone runs as many playouts as time allows.
                    mc.playouts = MctsParams::MAX_PLAYOUTS;
                }
                AgentSpec::Mcts(mc)
            }
            "perfect" => AgentSpec::Perfect(perfect),
            _ => {
                if (ab.time_ms.is_some() || ab.nodes.is_some()) && !depth_given {
                    // A budget alone searches as deep as it allows.
                    ab.depth = AlphaBetaParams::MAX_DEPTH;
                }
                AgentSpec::AlphaBeta(ab)
            }
        }
    }
}

/// The agent's name, lower case, and the text after its `:`; an unknown
/// name is refused.
fn agent_name(s: &str) -> Result<(String, Option<&str>), String> {
    let (name, params) = match s.split_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (s, None),
    };
    let name = name.trim().to_ascii_lowercase();
    if !AGENT_NAMES.contains(&name.as_str()) {
        return Err(format!(
            "unknown agent `{name}`; expected one of: {}{}",
            AGENT_NAMES.join(", "),
            did_you_mean(&name, &AGENT_NAMES)
        ));
    }
    Ok((name, params))
}

/// One `key=value` of agent `name`: the key, lower case, and the value; a
/// pair without a value or a key the agent does not take is refused.
fn param_pair<'s>(
    name: &str,
    accepted: &[&str],
    pair: &'s str,
) -> Result<(String, &'s str), String> {
    let Some((key, value)) = pair.split_once('=') else {
        return Err(format!(
            "`{name}` parameter `{pair}` needs a value, as in `{name}:{}=…`",
            accepted.first().unwrap_or(&"key")
        ));
    };
    let key = key.trim().to_ascii_lowercase();
    if !accepted.contains(&key.as_str()) {
        return Err(if accepted.is_empty() {
            format!("agent `{name}` takes no parameters, got `{key}`")
        } else {
            format!(
                "unknown parameter `{key}` of agent `{name}`; expected one of: {}{}",
                accepted.join(", "),
                did_you_mean(&key, accepted)
            )
        });
    }
    Ok((key, value))
}

impl FromStr for AgentSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, params) = agent_name(s)?;
        let accepted = AgentSpec::params(&name);
        let mut draft = Draft::default();
        for pair in params.into_iter().flat_map(|p| p.split(',')) {
            let (key, value) = param_pair(&name, accepted, pair)?;
            draft.set(&name, &key, value)?;
        }
        Ok(draft.into_spec(&name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_paths() -> usize {
        TABLE_PATHS.get().map_or(0, |p| p.lock().unwrap().len())
    }

    /// `perfect:table=…` leaked a copy of its path on every parse (the
    /// playground parses a spec per request).
    #[test]
    fn parsing_a_table_path_again_and_again_stores_it_once() {
        let path = format!("leak-check-{}.solve", "x".repeat(1000));
        let first: AgentSpec = format!("perfect:table={path}").parse().unwrap();
        let before = table_paths();
        for _ in 0..10_000 {
            let again: AgentSpec = format!("perfect:table={path}").parse().unwrap();
            assert_eq!(again, first);
        }
        assert_eq!(table_paths(), before, "no new copy per parse");
        let long = format!("perfect:table={}", "y".repeat(MAX_TABLE_PATH_BYTES + 1));
        let e = long.parse::<AgentSpec>().unwrap_err();
        assert!(e.contains("MAX_TABLE_PATH_BYTES"), "{e}");
    }

    #[test]
    fn specs_round_trip_through_text() {
        for text in [
            "uniform",
            "random",
            "greedy",
            "alphabeta:depth=3",
            "alphabeta:depth=2,time=50",
            "alphabeta:depth=3,margin=20",
            "alphabeta:depth=64,nodes=5000,hash=64,table=six.solve",
            "perfect",
            "perfect:table=six.solve",
        ] {
            let a: AgentSpec = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
        assert_eq!("Greedy".parse::<AgentSpec>(), Ok(AgentSpec::Greedy));
    }

    #[test]
    fn lists_keep_parameters_with_their_agent() {
        let l = AgentSpec::parse_list("alphabeta:depth=3,time=100,greedy").unwrap();
        assert_eq!(
            l,
            [
                AgentSpec::AlphaBeta(AlphaBetaParams {
                    depth: 3,
                    time_ms: Some(100),
                    ..AlphaBetaParams::default()
                }),
                AgentSpec::Greedy
            ]
        );
    }

    #[test]
    fn unknown_names_and_parameters_suggest_the_nearest() {
        let e = "grredy".parse::<AgentSpec>().unwrap_err();
        assert!(e.contains("did you mean `greedy`?"), "{e}");
        let e = "alphabeta:dpth=3".parse::<AgentSpec>().unwrap_err();
        assert!(e.contains("did you mean `depth`?"), "{e}");
        let e = "alphabeta:depth=0".parse::<AgentSpec>().unwrap_err();
        assert!(e.contains("1 to 64"), "{e}");
        let e = "random:depth=2".parse::<AgentSpec>().unwrap_err();
        assert!(e.contains("takes no parameters"), "{e}");
    }
}
