use crate::cmd::sim_args::{parse_agent, ColourAgents};
use crate::fail::{Failure, Outcome};
use crate::game;
use clap::Args;
use morrigo_diag::{Diagnostic, LineRead, MAX_LINE_BYTES};
use morrigo_engine::{game as api, notation, Game, GameState, Move};
use morrigo_play::{game_rng, AgentSpec, Player};
use morrigo_rules::Rules;
use morrigo_sgf::{GameResult, Margin};
use std::io::{BufRead, IsTerminal, Write};

/// Play a game in the terminal against a built-in agent.
///
/// Each turn shows the board, whose turn it is, the phase and the legal
/// moves. Type one move per line; a move the rules refuse is explained with
/// the rule that refuses it, quoted from the ruleset. Type `help` for the
/// notation, `board` to redraw, `undo` to take back your last move, `quit`
/// to leave. Input may come from a pipe: the game ends quietly at the end
/// of the input.
///
/// Go-style rulesets: the prompt shows the last move's class (`N` normal
/// play, `C` ko capture, or the pass kind), the captured prisoners and pass
/// stones, and which passes are allowed (a forbidden kind names its forbid
/// rule). Type `D4`, `pass` / `pass:E`, or `resign`. A counted game ends
/// with the score. `--save-sgf` writes the game as SGF when it ends (or is
/// left).
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo play nine-mens-morris
  morrigo play nine-mens-morris --as black --agent greedy --seed 7
  morrigo play nine-mens-morris --white alphabeta:depth=4 --show-search
  printf 'b2\\nquit\\n' | morrigo play three-mens-morris --seed 1
  morrigo play jk-final --size 9 --agent random --save-sgf game.sgf

Notation: `d1` place, `d1-d2` slide or fly, `xd2` remove (after a line),
`g1xd2` a placement or move together with its removal; Go: `D4`, `pass`,
`pass:E`, `resign`.")]
pub struct PlayArgs {
    /// Ruleset file or built-in name.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// The side you play (a player name of the ruleset; default the first).
    #[arg(long = "as", value_name = "PLAYER")]
    pub side: Option<String>,
    /// The agent you play against, with its parameters: `uniform`,
    /// `random`, `greedy`, `alphabeta[:depth=N][,time=MS]`,
    /// `mcts[:playouts=N][,c=F]`, `perfect[:table=FILE]` (a table from
    /// `morrigo solve --save`; without one, small games are solved first)
    /// (default: `greedy`).
    #[arg(long, value_name = "AGENT", value_parser = parse_agent)]
    pub agent: Option<AgentSpec>,
    /// `--white AGENT` or `--black AGENT`: the agent and the side it plays;
    /// you play the other side.
    #[command(flatten)]
    pub colours: ColourAgents,
    /// Seed of the agent's choices (default: from the clock; printed, so a
    /// game can be played again).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Write the game as SGF to this file when it ends or is left
    /// (Go-style rulesets).
    #[arg(long, value_name = "OUT.sgf")]
    pub save_sgf: Option<String>,
    /// After each move of a searching agent, print what it found:
    /// alpha-beta's depth, score, nodes and expected line; Monte Carlo's
    /// visit counts and win rates of the most visited moves. Before each
    /// move of the perfect agent: its table's value of the position and of
    /// the best moves (`perfect:table=DIR` reads a `morrigo solve --db`
    /// database).
    #[arg(long)]
    pub show_search: bool,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

const HELP: &str = "\
Moves are written with point names, as on the board's edges (`a1`…`g7`):
  d1        place a piece from your hand on d1
  d1-d2     move the piece on d1 to d2 (slide along a line, or fly)
  xd2       remove the opposing piece on d2 (after completing a line)
  g1xd2     a placement or move together with the removal it earns
Go-style rulesets:
  D4        a stone on D4 (the names on the board's edges)
  pass      a pass; `pass:P` or `pass:E` where the ruleset has several kinds
  resign    give up the game
Commands: `board` redraws the board, `moves` lists the legal moves,
`undo` takes back your last move (and the agent's reply), `help` shows
this text, `quit` leaves the game.";

pub fn run(args: PlayArgs) -> Outcome {
    let played = game::game(&args.file, &args.ruleset)?;
    let rules = played.rules().clone();
    let (human, agent) = seats(&args, &rules)?;
    morrigo_play::prepare_agents(&rules, &[agent], morrigo_play::ON_THE_FLY_MEMORY)
        .map_err(|e| Failure::game(Diagnostic::new(e)))?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    if args.save_sgf.is_some() {
        // Refuse at once a ruleset SGF cannot record.
        morrigo_sgf::export(&rules, &[], &GameResult::Ongoing)?;
    }
    let session = Session {
        human,
        agent,
        seed,
        echo: !std::io::stdin().is_terminal(),
        save_sgf: args.save_sgf.clone(),
        show_search: args.show_search,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    session.run(&played, &mut input, &mut out)
}

/// Your seat and the agent's: `--as` and `--agent`, or the side
/// `--white`/`--black` gives the agent (you play the other); a usage error
/// when they disagree.
fn seats(args: &PlayArgs, rules: &Rules) -> Result<(u8, AgentSpec), Failure> {
    let side = match &args.side {
        None => None,
        Some(name) => match rules
            .players
            .iter()
            .position(|p| p.eq_ignore_ascii_case(name))
        {
            Some(i) => Some(i as u8),
            None => {
                return Err(Failure::Usage(
                    Diagnostic::new(format!("`{name}` is not a player of {}", rules.name))
                        .expected(format!("one of: {}", rules.players.join(", "))),
                ))
            }
        },
    };
    match args.colours.seats(rules)?.as_slice() {
        [] => Ok((
            side.unwrap_or(0),
            args.agent.unwrap_or(AgentSpec::Greedy),
        )),
        &[(seat, flag, spec)] => {
            let human = seat as u8 ^ 1;
            if side.is_some_and(|s| s != human) {
                return Err(Failure::Usage(
                    Diagnostic::new(format!(
                        "`--as {}` conflicts with `--{flag} {spec}`, which gives the agent your side",
                        game::player_name(rules, human ^ 1)
                    ))
                    .expected(format!(
                        "`--as {}` or no `--as` (you play the side the agent does not)",
                        game::player_name(rules, human)
                    )),
                ));
            }
            if let Some(agent) = args.agent.filter(|&a| a != spec) {
                return Err(Failure::Usage(
                    Diagnostic::new(format!(
                        "`--agent {agent}` conflicts with `--{flag} {spec}`: `play` seats one agent"
                    ))
                    .expected(format!("`--agent` or `--{flag}`, not both")),
                ));
            }
            Ok((human, spec))
        }
        _ => Err(Failure::Usage(
            Diagnostic::new("`play` seats you against one agent, and both `--white` and `--black` name one")
                .expected("`--white AGENT` (you play black) or `--black AGENT` (you play white); `simulate` plays agent against agent"),
        )),
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() ^ u64::from(d.subsec_nanos()))
}

struct Session {
    human: u8,
    agent: AgentSpec,
    seed: u64,
    echo: bool,
    save_sgf: Option<String>,
    show_search: bool,
}

/// What the perfect agent's table says before it moves: the position's
/// value and the best moves' (the five best, then how many more).
fn exact_text(
    rules: &Rules,
    to_move: u8,
    who: &str,
    mut values: Vec<(Move, morrigo_solve::Value)>,
) -> String {
    values.sort_by_key(|(_, v)| std::cmp::Reverse(v.preference()));
    let Some(&(_, best)) = values.first() else {
        return format!("{who}'s table has no move here");
    };
    let shown: Vec<String> = values
        .iter()
        .take(5)
        .map(|(mv, v)| {
            format!(
                "{} {}",
                notation::format_move_in(rules, mv),
                super::solve_text::move_value_text(*v)
            )
        })
        .collect();
    let more = match values.len().saturating_sub(5) {
        0 => String::new(),
        n => format!(" (and {n} more)"),
    };
    format!(
        "{who}'s table: {}; moves {}{more}",
        super::solve_text::value_text(rules, to_move, best, false),
        shown.join(", ")
    )
}

/// How a session ended.
enum End {
    Over(morrigo_engine::Outcome),
    Left,
}

/// The game at the table: the position, what was played, and what `undo`
/// takes back.
struct Table<'a> {
    game: &'a Game,
    /// Your name and the agent's (the players of the ruleset).
    you: &'a str,
    them: &'a str,
    s: GameState,
    /// The turns played, as text.
    record: Vec<String>,
    /// Every ply played, for the SGF.
    plies: Vec<Move>,
    /// The plies of the turn under way (a removal may still be owed).
    turn: Vec<Move>,
    /// The legal moves of `s` (room reused from turn to turn).
    moves: Vec<api::Move>,
    /// Before each of your turns: the state and the lengths of the records.
    undo: Vec<(GameState, usize, usize)>,
    /// Whether to draw the board before the next prompt.
    show: bool,
}

impl<'a> Table<'a> {
    fn new(game: &'a Game, human: u8) -> Self {
        Table {
            game,
            you: game::player_name(game.rules(), human),
            them: game::player_name(game.rules(), human ^ 1),
            s: game.start(),
            record: Vec::new(),
            plies: Vec::new(),
            turn: Vec::new(),
            moves: Vec::new(),
            undo: Vec::new(),
            show: true,
        }
    }

    /// The board (when it changed or was asked for), the legal moves and
    /// your prompt.
    fn prompt(&mut self, out: &mut impl Write) -> Outcome {
        if self.show {
            writeln!(out, "\n{}", game::draw(&self.s))?;
            writeln!(out, "{}", game::status(&self.s))?;
            self.show = false;
        }
        writeln!(out, "legal: {}", game::legal_summary(&self.s, &self.moves))?;
        write!(out, "{}> ", self.you)?;
        out.flush()?;
        Ok(())
    }

    /// `undo`: back to before your last move, and the agent's reply with it.
    fn take_back(&mut self, out: &mut impl Write) -> Outcome {
        match self.undo.pop() {
            Some((before, r, p)) => {
                self.s = before;
                self.record.truncate(r);
                self.plies.truncate(p);
                self.turn.clear();
                writeln!(out, "took back your last move")?;
                self.show = true;
            }
            None => writeln!(out, "nothing to take back")?,
        }
        Ok(())
    }

    /// Play the move you typed, or say (on stderr) why the rules refuse it.
    fn play_yours(&mut self, token: &str, out: &mut impl Write) -> Outcome {
        let mover = self.s.to_move();
        let before = (self.s.clone(), self.record.len(), self.plies.len());
        match game::play_token(&mut self.s, token) {
            Ok(played) => {
                if self.turn.is_empty() {
                    self.undo.push(before);
                }
                self.turn.extend(played.iter().copied());
                self.plies.extend(played);
                if self.s.to_move() != mover {
                    self.record
                        .push(game::turn_text(self.game.rules(), &self.turn));
                    self.turn.clear();
                } else {
                    // A line was completed: the removal is still owed.
                    writeln!(
                        out,
                        "{} completed a line: remove an opposing piece (`x<point>`)",
                        self.you
                    )?;
                }
            }
            Err(d) => {
                out.flush()?;
                eprintln!("{d}");
            }
        }
        Ok(())
    }
}

impl Session {
    fn run(&self, played: &Game, input: &mut impl BufRead, out: &mut impl Write) -> Outcome {
        self.greet(played.rules(), out)?;
        let mut rng = game_rng(self.seed, 0);
        let mut player = Player::new(self.agent);
        let mut table = Table::new(played, self.human);
        let end = loop {
            if let Some(o) = table.s.legal_moves_into(&mut table.moves) {
                break End::Over(o);
            }
            if table.s.to_move() != self.human {
                self.show_table_values(&table, &mut player, out)?;
                let mv = player.choose_in(&table.s, &table.moves, &mut rng);
                self.play_agent_move(&mut table, &player, mv, out)?;
            } else if let Some(end) = self.your_turn(&mut table, input, out)? {
                break end;
            }
        };
        self.finish(&table, &end, out)
    }

    /// The title, who plays which side, and the seed (so the game can be
    /// played again).
    fn greet(&self, rules: &Rules, out: &mut impl Write) -> Outcome {
        let letters = game::piece_letters(rules);
        writeln!(out, "{} ({})", rules.title, rules.name)?;
        writeln!(
            out,
            "you play {} ({}); the {} agent plays {} ({}); seed {}",
            game::player_name(rules, self.human),
            letters[self.human as usize],
            self.agent,
            game::player_name(rules, self.human ^ 1),
            letters[(self.human ^ 1) as usize],
            self.seed
        )?;
        if self.show_search
            && !matches!(
                self.agent,
                AgentSpec::AlphaBeta(_) | AgentSpec::Mcts(_) | AgentSpec::Perfect(_)
            )
        {
            writeln!(
                out,
                "(--show-search: the {} agent does not search; `alphabeta` and `mcts` do, and `perfect` shows its table's values)",
                self.agent
            )?;
        }
        writeln!(out, "type a move, `help` or `quit`")?;
        Ok(())
    }

    /// With `--show-search`, before the perfect agent moves: what its table
    /// says of the position and the moves.
    fn show_table_values(
        &self,
        table: &Table<'_>,
        player: &mut Player,
        out: &mut impl Write,
    ) -> Outcome {
        if self.show_search {
            if let Some(values) = player.exact_values_in(&table.s, &table.moves) {
                let (rules, to_move) = (table.game.rules(), table.s.to_move());
                let text = exact_text(rules, to_move, table.them, values);
                writeln!(out, "{text}")?;
            }
        }
        Ok(())
    }

    /// Play the move the agent chose, after what its search found
    /// (`--show-search`); its turn is announced once complete.
    fn play_agent_move(
        &self,
        table: &mut Table<'_>,
        player: &Player,
        mv: api::Move,
        out: &mut impl Write,
    ) -> Outcome {
        if self.show_search {
            show_search(table, player, mv.packed(), out)?;
        }
        let rules = table.game.rules();
        let mover = table.s.to_move();
        table.s.apply_unchecked(mv);
        table.turn.push(mv.packed());
        table.plies.push(mv.packed());
        if table.s.to_move() != mover {
            let text = game::turn_text(rules, &table.turn);
            let class = match (game::is_go(rules), table.s.last_class()) {
                (true, Some(c)) => format!(": class {}", game::class_name(rules, c)),
                _ => String::new(),
            };
            writeln!(out, "{} plays {text}{class}", table.them)?;
            table.record.push(text);
            table.turn.clear();
            table.show = true;
        }
        Ok(())
    }

    /// Your turn: the prompt, one line of input and what it asks; `Some`
    /// when that ends the game.
    fn your_turn(
        &self,
        table: &mut Table<'_>,
        input: &mut impl BufRead,
        out: &mut impl Write,
    ) -> Result<Option<End>, Failure> {
        table.prompt(out)?;
        let mut bytes = Vec::new();
        let read = morrigo_diag::read_line_limited(input, &mut bytes, MAX_LINE_BYTES)
            .map_err(|e| Failure::game(Diagnostic::new(format!("cannot read input: {e}"))))?;
        match read {
            LineRead::Line => {}
            LineRead::End => {
                writeln!(out, "\nend of input: game left unfinished")?;
                return Ok(Some(End::Left));
            }
            LineRead::TooLong => {
                writeln!(
                    out,
                    "\na line longer than {MAX_LINE_BYTES} bytes is ignored"
                )?;
                return Ok(None);
            }
        }
        let line = String::from_utf8_lossy(&bytes);
        if self.echo {
            // Input from a pipe is not shown by a terminal: echo it.
            writeln!(out, "{}", line.trim_end())?;
        }
        self.command(table, &notation::tokens(&line), out)
    }

    /// Do what one line of input asks: a command or a move; `Some` when
    /// that ends the game.
    fn command(
        &self,
        table: &mut Table<'_>,
        toks: &[notation::Token],
        out: &mut impl Write,
    ) -> Result<Option<End>, Failure> {
        match toks.first().map(|t| t.text.as_str()) {
            None => {}
            Some("quit" | "exit" | "q") => {
                writeln!(out, "game left unfinished")?;
                return Ok(Some(End::Left));
            }
            Some("help" | "?") => writeln!(out, "{HELP}")?,
            Some("board") => table.show = true,
            Some("moves") => writeln!(
                out,
                "{}",
                game::legal_text(table.game.rules(), &table.moves)
            )?,
            Some("resign") => {
                writeln!(out, "{} resigns", table.you)?;
                // Asked at your turn: you are the player to move.
                return Ok(Some(End::Over(table.s.resign())));
            }
            Some("undo") => table.take_back(out)?,
            Some(_) if toks.len() > 1 => {
                out.flush()?;
                eprintln!(
                    "{}",
                    Diagnostic::new("one move per line, please")
                        .expected("a single move such as `d1`, `d1-d2`, `g1xd2` or `D4`")
                );
            }
            Some(token) => table.play_yours(token, out)?,
        }
        Ok(None)
    }

    /// The final board, how the game ended and its record; the SGF file
    /// when `--save-sgf` asks for one.
    fn finish(&self, table: &Table<'_>, end: &End, out: &mut impl Write) -> Outcome {
        let (s, rules) = (&table.s, table.game.rules());
        writeln!(out, "\n{}", game::draw(s))?;
        let result = match end {
            End::Over(o) => {
                writeln!(out, "game over: {}", game::outcome_text(rules, o))?;
                if let Some(score) = game::score_text(s, o) {
                    writeln!(out, "{score}")?;
                }
                if o.decided_by() == morrigo_engine::DecidedBy::Resignation {
                    GameResult::Win {
                        player: self.human ^ 1,
                        margin: Margin::Resign,
                    }
                } else {
                    morrigo_sgf::result_of(s, Some(*o))
                }
            }
            End::Left => GameResult::Ongoing,
        };
        writeln!(out, "record: {}", table.record.join(" "))?;
        if let Some(path) = &self.save_sgf {
            let text = morrigo_sgf::export(rules, &table.plies, &result)?;
            std::fs::write(path, text).map_err(|e| {
                Failure::game(Diagnostic::new(format!("cannot write `{path}`: {e}")))
            })?;
            writeln!(out, "saved the game as SGF to {path}")?;
        }
        Ok(())
    }
}

/// What the agent's last search found (`--show-search`): alpha-beta's
/// depth, score, nodes and expected line, or Monte Carlo's playouts and
/// most visited moves. Call it before the move is played: the line starts
/// from the position searched.
fn show_search(table: &Table<'_>, player: &Player, mv: Move, out: &mut impl Write) -> Outcome {
    let Some(info) = player.last_search() else {
        return Ok(());
    };
    let (rules, them) = (table.game.rules(), table.them);
    let line = player.principal_variation_in(&table.s, info.depth.max(1) as usize);
    let line: Vec<String> = line
        .iter()
        .map(|p| notation::format_move_in(rules, p))
        .collect();
    let mut visits = player.root_stats();
    if visits.is_empty() {
        writeln!(
            out,
            "{them} searched depth {}: score {:+}, {} nodes in {} ms; expects {}",
            info.depth,
            info.score,
            info.nodes,
            info.elapsed.as_millis(),
            line.join(" ")
        )?;
    } else {
        // The move played first among equals: it is the most visited, and
        // the line shown starts with it.
        visits.sort_by_key(|v| (std::cmp::Reverse(v.1), v.0 != mv));
        let top: Vec<String> = visits
            .iter()
            .take(5)
            .map(|(mv, n, v)| {
                format!(
                    "{} {n} ({:.0}%)",
                    notation::format_move_in(rules, mv),
                    v * 100.0
                )
            })
            .collect();
        writeln!(
            out,
            "{them} ran {} playouts in {} ms; visits: {}; expects {}",
            info.nodes,
            info.elapsed.as_millis(),
            top.join(", "),
            line.join(" ")
        )?;
    }
    Ok(())
}
