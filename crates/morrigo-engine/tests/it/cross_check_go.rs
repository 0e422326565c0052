//! The fast engine against the slow Go-family reference
//! (`morrigo_reference::go`), on every built-in Go ruleset and several
//! tiny boards: random games in lock-step, comparing at every ply the legal
//! move set, the outcome, the class of the move just played and its D mark,
//! captured prisoners and pass stones, the board and the score; undo of every
//! legal move restores the position; `sample_move` only returns legal moves.
//!
//! The games are steered part of the time (avoid losing suicides, prefer
//! captures) so that ko fights, repetitions and long games happen; each
//! ruleset's test asserts that the rule features it has were exercised.
//!
//! Heavier runs are `#[ignore]`d; run them with
//! `cargo test --release -p morrigo-engine --test it cross_check_go -- --ignored --nocapture`.

use morrigo_engine::notation::format_move_in;
use morrigo_engine::{
    with_machine, AnyMachine, Bits, Machine, Move, MoveKind, Outcome, Sample, State,
};
use morrigo_reference::go::{PlayRefusal, RefGo};
use morrigo_rules::load::Overrides;
use morrigo_rules::{Immediate, Repeated, Rules, SuicideEffect, Superko, CLASS_KO_CAPTURE};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Boards every ruleset is checked on (columns, rows).
const SIZES: &[(u32, u32)] = &[(2, 2), (3, 3), (4, 4), (5, 5), (5, 4)];

/// Longest random game before the test gives up on it.
const MAX_PLIES: usize = 250;

fn load_sized(name: &str, w: u32, h: u32) -> Arc<Rules> {
    let o = Overrides {
        size: Some((w, h)),
        komi: None,
    };
    Arc::new(
        morrigo_rules::load_rules_with(name, &o).unwrap_or_else(|e| panic!("{name} {w}x{h}: {e}")),
    )
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| (m.kind as u8, m.from, m.to));
    moves
}

/// A game record: GTP points, `pass:E` for passes.
fn record(rules: &Rules, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| format_move_in(rules, m))
        .collect::<Vec<_>>()
        .join(" ")
}

fn fast_moves<const W: usize>(m: &Machine<W>, s: &State<W>) -> (Vec<Move>, Option<Outcome>) {
    let mut out = Vec::new();
    let outcome = m.legal_moves(s, &mut out);
    (out, outcome)
}

/// What the two implementations both track must agree.
fn same_state<const W: usize>(m: &Machine<W>, s: &State<W>, r: &RefGo, at: &str) {
    for point in 0..r.board.len() {
        assert_eq!(
            s.owner(point as u16),
            r.board[point],
            "{at}: owner of point {point}"
        );
    }
    let p = &s.pos;
    assert_eq!(p.to_move, r.to_move, "{at}: to move");
    assert_eq!(p.in_hand, r.in_hand, "{at}: in hand (left fast)");
    assert_eq!(
        u32::from(p.pending),
        r.pending,
        "{at}: removals owed (left fast)"
    );
    assert_eq!(p.lost, r.lost, "{at}: lost (left fast)");
    assert_eq!(p.turn as usize, r.moves.len(), "{at}: turn");
    assert_eq!(
        p.captured, r.captured,
        "{at}: captured prisoners (left fast)"
    );
    assert_eq!(
        p.pass_stones, r.pass_stones,
        "{at}: pass stones (left fast)"
    );
    let class = |c: Option<u8>| c.map(char::from);
    assert_eq!(
        class(s.last_class()),
        class(r.last_class()),
        "{at}: class of the last move (left fast)"
    );
    if let Some(i) = r.moves.len().checked_sub(1) {
        assert_eq!(
            s.ends_d(i),
            r.ends_d(i),
            "{at}: D mark of the last move (left fast)"
        );
    }
    assert_eq!(
        m.score(s, &Bits::EMPTY),
        r.score(),
        "{at}: score (left fast)"
    );
}

/// The stones of each player, by name (for failure messages).
fn stones(r: &RefGo) -> String {
    let t = &r.rules.topology;
    let of = |pl: u8| {
        (0..r.board.len())
            .filter(|&p| r.board[p] == Some(pl))
            .map(|p| t.name(p as u16).to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!("black {} / white {}", of(0), of(1))
}

/// Apply and undo every legal move; the position and history come back.
fn check_undo<const W: usize>(m: &Machine<W>, s: &mut State<W>, moves: &[Move], at: &str) {
    let pos = s.pos;
    let classes: Vec<u8> = s.classes().collect();
    for &mv in moves {
        let u = m.apply(s, mv);
        m.undo(s, u);
        assert_eq!(s.pos, pos, "{at}: undo of {mv:?} changed the position");
        assert!(
            s.classes().eq(classes.iter().copied()),
            "{at}: undo of {mv:?} changed the move history"
        );
    }
}

/// What happened over a set of games.
#[derive(Default, Debug)]
struct Tally {
    games: usize,
    plies: usize,
    unfinished: usize,
    /// No legal move and no end rule deciding.
    stuck: usize,
    /// Games ended, by end rule name.
    decided: BTreeMap<String, usize>,
    ko_captures: usize,
    ds: usize,
    /// A ko capture ending more than one D (the matcher sees the shortest).
    ambiguous_ds: usize,
    suicides_kept: usize,
    suicides_removed: usize,
    refused_suicide: usize,
    refused_immediate: usize,
    refused_superko: usize,
    /// Pass moves refused by a forbid rule.
    forbidden_passes: usize,
    /// Board plays refused by a forbid rule judged per move.
    forbidden_plays: usize,
    /// Removals owed by a line (`on_line_formed`) and made.
    removals: usize,
    /// Turns that started with the mover's limited hand empty.
    empty_hands: usize,
    /// Positions where `seki: nobody` changed the territory count.
    seki_voided: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.games += o.games;
        self.plies += o.plies;
        self.unfinished += o.unfinished;
        self.stuck += o.stuck;
        for (k, v) in &o.decided {
            *self.decided.entry(k.clone()).or_default() += v;
        }
        self.ko_captures += o.ko_captures;
        self.ds += o.ds;
        self.ambiguous_ds += o.ambiguous_ds;
        self.suicides_kept += o.suicides_kept;
        self.suicides_removed += o.suicides_removed;
        self.refused_suicide += o.refused_suicide;
        self.refused_immediate += o.refused_immediate;
        self.refused_superko += o.refused_superko;
        self.forbidden_passes += o.forbidden_passes;
        self.forbidden_plays += o.forbidden_plays;
        self.removals += o.removals;
        self.empty_hands += o.empty_hands;
        self.seki_voided += o.seki_voided;
    }

    fn decided(&self, rule: &str) -> usize {
        self.decided.get(rule).copied().unwrap_or(0)
    }
}

/// How random games pick their moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Policy {
    Uniform,
    /// Mostly avoid losing suicides; prefer captures.
    Captures,
    /// Also mostly avoid losing immediate recaptures.
    Careful,
    /// As careful, and seek ko captures; seldom pass.
    KoFight,
}

/// Pick a move: uniformly, or steered away from plays that lose at once and
/// towards captures, so that games run long and fight kos.
fn choose(r: &RefGo, moves: &[Move], policy: Policy, rng: &mut SmallRng) -> Move {
    if policy == Policy::Uniform {
        return moves[rng.random_range(0..moves.len())];
    }
    let n = r.moves.len();
    let careful = matches!(policy, Policy::Careful | Policy::KoFight);
    let (mut safe, mut plays, mut captures, mut kos) = (vec![], vec![], vec![], vec![]);
    for &mv in moves {
        if mv.kind != MoveKind::Play {
            safe.push(mv);
            continue;
        }
        let play = r.play(mv.to);
        let loses = play.suicide_effect == Some(SuicideEffect::Lose)
            || (careful
                && r.rules.repetition.immediate == Immediate::Lose
                && n >= 2
                && r.moves[n - 2].is_play
                && r.moves[n - 2].board == play.board_after);
        if loses {
            continue;
        }
        safe.push(mv);
        plays.push(mv);
        if !play.removed.is_empty() {
            captures.push(mv);
        }
        if play.class == CLASS_KO_CAPTURE {
            kos.push(mv);
        }
    }
    let mut pick = |pool: &Vec<Move>, p: f64| !pool.is_empty() && rng.random_bool(p);
    let pool = if policy == Policy::KoFight && pick(&kos, 0.9) {
        &kos
    } else if pick(&captures, 0.6) {
        &captures
    } else if policy == Policy::KoFight && pick(&plays, 0.9) {
        &plays
    } else if pick(&safe, 0.95) {
        &safe
    } else {
        moves
    };
    pool[rng.random_range(0..pool.len())]
}

/// Plays `games` random games in lock-step.
fn lockstep<const W: usize>(m: &Machine<W>, rules: &Rules, games: u64, seed: u64) -> Tally {
    lockstep_from(m, rules, &[], games, seed)
}

/// Plays `games` random games in lock-step, each starting with `prefix`.
fn lockstep_from<const W: usize>(
    m: &Machine<W>,
    rules: &Rules,
    prefix: &[Move],
    games: u64,
    seed: u64,
) -> Tally {
    let mut tally = Tally::default();
    let mut buf = Vec::new();
    for g in 0..games {
        let mut rng = SmallRng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(g));
        let policy = [
            Policy::Uniform,
            Policy::Captures,
            Policy::Careful,
            Policy::KoFight,
        ][(g % 4) as usize];
        let mut s = m.initial();
        let mut r = RefGo::new(rules);
        let mut played: Vec<Move> = Vec::new();
        let mut finished = false;
        for ply in 0..MAX_PLIES {
            let (w, h) = (rules.topology.width, rules.topology.height);
            let at = format!(
                "{} {w}x{h} game {g} (seed {seed}), after `{}`",
                rules.name,
                record(rules, &played)
            );
            same_state(m, &s, &r, &at);
            let (fm, fo) = fast_moves(m, &s);
            let (rm, ro) = r.legal_moves();
            let (fm, rm) = (sorted(fm), sorted(rm));
            assert_eq!(
                fm, rm,
                "{at}: legal moves differ (left fast, right reference)"
            );
            assert_eq!(fo, ro, "{at}: outcome differs (left fast, right reference)");
            let mut draw = |n: u32| rng.random_range(0..n);
            let sample = m.sample_move(&s, &mut buf, &mut draw);
            match (sample, fo) {
                (Sample::Over(o), Some(e)) => assert_eq!(o, e, "{at}: sample_move outcome"),
                (Sample::Stuck, None) if fm.is_empty() => {}
                (Sample::Move(mv), None) => {
                    assert!(fm.contains(&mv), "{at}: sample_move gave illegal {mv:?}")
                }
                (got, _) => panic!("{at}: sample_move gave {got:?}, legal {fm:?}, outcome {fo:?}"),
            }
            if let Some(o) = fo {
                *tally
                    .decided
                    .entry(o.rule_name(rules).to_string())
                    .or_default() += 1;
                finished = true;
                break;
            }
            if fm.is_empty() {
                tally.stuck += 1;
                finished = true;
                break;
            }
            for p in 0..r.board.len() as u16 {
                match r.play(p).refusal {
                    Some(PlayRefusal::Suicide) => tally.refused_suicide += 1,
                    Some(PlayRefusal::ImmediateRepetition) => tally.refused_immediate += 1,
                    Some(PlayRefusal::Superko) => tally.refused_superko += 1,
                    None => {
                        tally.forbidden_plays += r.forbidden_move(Move::play(p)).is_some() as usize
                    }
                    _ => {}
                }
            }
            for k in 0..rules.passes.kinds.len() {
                let forbidden = r.forbidden_by(morrigo_rules::MoveClass::Pass(k as u8));
                tally.forbidden_passes += forbidden.is_some() as usize;
            }
            tally.empty_hands +=
                (!rules.unlimited_hand && r.in_hand[r.to_move as usize] == 0) as usize;
            if rules
                .scoring
                .is_some_and(|s| s.seki == morrigo_rules::Seki::Nobody)
            {
                tally.seki_voided +=
                    (r.territory_by_regions(true) != r.territory_by_regions(false)) as usize;
            }
            check_undo(m, &mut s, &fm, &at);
            let mv = match prefix.get(ply) {
                Some(&mv) => {
                    assert!(fm.contains(&mv), "{at}: prefix move {mv:?} is not legal");
                    mv
                }
                None => choose(&r, &fm, policy, &mut rng),
            };
            m.apply(&mut s, mv);
            r.apply(mv);
            played.push(mv);
            tally.plies += 1;
            tally.removals += (mv.kind == MoveKind::Remove) as usize;
            let last = r.moves.last().expect("just played");
            tally.ko_captures += (last.class == CLASS_KO_CAPTURE) as usize;
            tally.ds += !last.d_starts.is_empty() as usize;
            tally.ambiguous_ds += (last.d_starts.len() > 1) as usize;
            tally.suicides_kept += last.suicide as usize;
            tally.suicides_removed += last.suicide_removed as usize;
        }
        if !finished {
            let (w, h) = (rules.topology.width, rules.topology.height);
            let at = format!("{} {w}x{h} game {g}, unfinished", rules.name);
            same_state(m, &s, &r, &at);
            tally.unfinished += 1;
        }
        tally.games += 1;
    }
    tally
}

/// Lock-step games on every size; asserts each rule feature of the ruleset
/// was exercised.
fn run_ruleset(name: &str, games: u64, seed: u64) -> Tally {
    let mut total = Tally::default();
    for &(w, h) in SIZES {
        let rules = load_sized(name, w, h);
        let any = AnyMachine::new(rules.clone()).expect("fits");
        let t = with_machine!(&any, m => lockstep(m, &rules, games, seed));
        total.add(&t);
    }
    println!("{name}: {total:?}");
    let rules = load_sized(name, 3, 3);
    let play = rules.play.as_ref().expect("a Go ruleset has board plays");
    let rep = &rules.repetition;
    let effects = [play.suicide_single, play.suicide_multi];
    if play.ko_capture {
        assert!(total.ko_captures > 0, "{name}: no ko capture played");
    }
    if effects.contains(&SuicideEffect::Lose) {
        assert!(total.decided("suicide") > 0, "{name}: no suicide loss");
    }
    if effects.contains(&SuicideEffect::Remove) {
        assert!(total.suicides_removed > 0, "{name}: no suicide removed");
    }
    if effects.contains(&SuicideEffect::Illegal) {
        assert!(total.refused_suicide > 0, "{name}: no suicide refused");
    }
    match rep.immediate {
        Immediate::Lose => assert!(
            total.decided("immediate_repetition") > 0,
            "{name}: no immediate-repetition loss"
        ),
        Immediate::Illegal => assert!(
            total.refused_immediate > 0,
            "{name}: no immediate recapture refused"
        ),
        Immediate::Allowed => {}
    }
    if rep.repeated_board != Repeated::Off {
        assert!(
            total.decided("repeated_board") > 0,
            "{name}: no game ended by a repeated board"
        );
    }
    if rep.superko != Superko::None {
        assert!(
            total.refused_superko > 0,
            "{name}: no play refused by superko"
        );
    }
    let names = |c: &dyn Fn(&morrigo_rules::MoveClass) -> bool| {
        rules.forbid.iter().any(|f| f.moves.iter().any(c))
    };
    if names(&|c| matches!(c, morrigo_rules::MoveClass::Pass(_))) {
        assert!(total.forbidden_passes > 0, "{name}: no pass forbidden");
    }
    if rules.forbid.iter().any(|f| f.reads_move()) {
        assert!(
            total.forbidden_plays > 0,
            "{name}: no play forbidden by a move value"
        );
    }
    if rules
        .scoring
        .is_some_and(|s| s.seki == morrigo_rules::Seki::Nobody)
    {
        assert!(
            total.seki_voided > 0,
            "{name}: no region of a chain in seki"
        );
    }
    let synthesized = RefGo::new(&rules).synthesized_rules().len();
    for e in &rules.end[synthesized..] {
        // The ruleset's own rules that end a game other than by a count
        // must each have ended one (`first_capture`, `long_cycle`, …);
        // `no_safe_move` is rare by design (its probes are tests of their own).
        if e.verdict != morrigo_rules::Verdict::Score
            && !e.when.uses(morrigo_rules::Prim::NoSafeMove)
        {
            assert!(
                total.decided(&e.name) > 0,
                "{name}: `{}` never ended a game",
                e.name
            );
        }
    }
    for e in &rules.end {
        if e.verdict == morrigo_rules::Verdict::Score {
            assert!(
                total.decided(&e.name) > 0,
                "{name}: `{}` never ended a game",
                e.name
            );
        }
    }
    total
}

macro_rules! per_ruleset {
    ($($test:ident => $name:literal),* $(,)?) => {
        /// Every built-in Go ruleset has its cross-check.
        #[test]
        fn every_go_ruleset_is_cross_checked() {
            let mut listed = vec![$($name),*];
            listed.sort();
            let mut family: Vec<&str> =
                morrigo_rules::builtin::family("go").map(|b| b.name).collect();
            family.sort();
            assert_eq!(listed, family, "add new rulesets to the list in cross_check_go.rs");
        }

        mod lockstep_games {
            $(
                #[test]
                fn $test() {
                    super::run_ruleset($name, super::GAMES, super::seed_of($name));
                }
            )*
        }
    };
}

/// A seed per ruleset, so variants do not replay the same games.
fn seed_of(name: &str) -> u64 {
    name.bytes().fold(0x5EED_u64, |h, b| {
        h.wrapping_mul(0x100_0000_01B3) ^ u64::from(b)
    })
}

/// Games per ruleset and board size.
const GAMES: u64 = 100;

per_ruleset! {
    aga => "aga",
    atari_go => "atari-go",
    chinese => "chinese",
    chinese_superko => "chinese-superko",
    jk_12_4 => "jk-12-4",
    jk_12_6 => "jk-12-6",
    jk_d4_6 => "jk-d4-6",
    jk_final => "jk-final",
    jk_natural => "jk-natural",
    jk_no_move_loses => "jk-no-move-loses",
    jk_strict_end => "jk-strict-end",
    jk_suicide_multi => "jk-suicide-multi",
    japanese => "japanese",
    new_zealand => "new-zealand",
    nogo => "nogo",
    tromp_taylor => "tromp-taylor",
}

#[test]
#[ignore = "slow: many more lock-step games per ruleset and size"]
fn lockstep_games_many() {
    for b in morrigo_rules::builtin::family("go") {
        run_ruleset(b.name, 1000, seed_of(b.name) ^ 0xBEEF);
    }
}

// ----- replays ----------------------------------------------------------------

/// Replays a record (GTP points, `pass:E`) in both implementations,
/// comparing them at every ply; returns the reference game.
fn replay<'r>(rules: &'r Rules, moves: &str) -> RefGo<'r> {
    let any = AnyMachine::new(Arc::new(rules.clone())).expect("fits");
    with_machine!(&any, m => {
        let mut s = m.initial();
        let mut r = RefGo::new(rules);
        let mut played = Vec::new();
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        for token in tokens.iter().map(Some).chain([None]) {
            let at = format!(
                "{} replay, after `{}` ({})",
                rules.name,
                record(rules, &played),
                stones(&r)
            );
            same_state(m, &s, &r, &at);
            let (fm, fo) = fast_moves(m, &s);
            let (rm, ro) = r.legal_moves();
            assert_eq!(fo, ro, "{at}: outcome (left fast)");
            assert_eq!(sorted(fm), sorted(rm.clone()), "{at}: legal moves (left fast)");
            let Some(token) = token else { break };
            let intents = morrigo_engine::notation::parse_token_in(rules, token, None)
                .unwrap_or_else(|e| panic!("{token}: {e:?}"));
            let mv = *rm
                .iter()
                .find(|mv| intents.iter().any(|i| i.matches(mv)))
                .unwrap_or_else(|| panic!("{at}: {token} is not legal"));
            m.apply(&mut s, mv);
            r.apply(mv);
            played.push(mv);
        }
        r
    })
}

/// Black's B4 retakes a ko (capturing C4) and recreates the board after
/// black's A1 two moves back: an immediate-repetition loss (Art. 3.2) —
/// which the reference first got wrong.
#[test]
fn replay_immediate_recapture_loses() {
    let rules = load_sized("jk-suicide-multi", 4, 4);
    let r = replay(
        &rules,
        "C1 D2 A4 D3 C3 C4 pass:E A3 D1 B1 B2 B4 C2 A1 D4 B3 A2 A4 B4 D2 pass:E A4 D3 B3 D2 B1 A1 C4 B4",
    );
    let (_, outcome) = r.legal_moves();
    let outcome = outcome.expect("the game is over");
    assert_eq!(outcome.winner, Some(1));
    assert_eq!(outcome.rule_name(&rules), "immediate_repetition");
}

/// Looks for D's in ko-fighting random games (reference only) and prints
/// the first records found.
#[test]
#[ignore = "search tool: prints game records with a D"]
fn search_for_d() {
    let mut found = 0;
    for &(w, h) in &[(4, 4), (5, 4), (5, 5), (6, 5), (6, 6)] {
        let name = std::env::var("SEARCH_RULESET").unwrap_or("jk-final".into());
        let rules = load_sized(&name, w, h);
        for g in 0..100_000u64 {
            let mut rng = SmallRng::seed_from_u64(g);
            let mut r = RefGo::new(&rules);
            let mut played = Vec::new();
            for _ in 0..MAX_PLIES {
                let (moves, outcome) = r.legal_moves();
                if outcome.is_some() || moves.is_empty() {
                    break;
                }
                let mv = choose(&r, &moves, Policy::KoFight, &mut rng);
                r.apply(mv);
                played.push(mv);
                let want: Option<usize> = std::env::var("SEARCH_LEN")
                    .ok()
                    .and_then(|v| v.parse().ok());
                let n = r.moves.len();
                let len = r.moves[n - 1].d_starts.first().map(|&i| n - i);
                if len.is_some() && (want.is_none() || want == len) {
                    let d_starts = r.moves.last().expect("a move").d_starts.clone();
                    let (moves, _) = r.legal_moves();
                    let p = Move::pass(0);
                    let then = if moves.contains(&p) {
                        r.apply(p);
                        played.push(p);
                        let (after, _) = r.legal_moves();
                        format!(
                            "after P: {:?}",
                            after
                                .iter()
                                .filter(|m| m.kind == MoveKind::Pass)
                                .collect::<Vec<_>>()
                        )
                    } else {
                        "P not legal".to_string()
                    };
                    println!(
                        "{w}x{h} game {g} (D from {:?}): {} -- {then}",
                        d_starts,
                        record(&rules, &played)
                    );
                    found += 1;
                    break;
                }
            }
            if found >= 8 {
                return;
            }
        }
    }
}

// ----- D: ko-capture runs found by `search_for_d` ---------------------------------

/// 4x4, jk-final: moves 16..=23 (1-based) are eight ko captures, the last
/// taking the stone the first placed: a D of 8. Then `P`.
const D_OF_EIGHT: &str =
    "C2 B4 D4 A1 A2 C3 B1 B2 B3 D2 D3 A3 D1 B2 C4 A1 B3 C1 A4 D2 A2 C3 B1 pass:P";

/// 4x4: moves 36..=39 are a D of 4 (found under jk-d4-6). Then `P`.
const D_OF_FOUR: &str = "C2 D3 C1 C4 B3 D4 B4 A3 D1 pass:E A2 C3 D2 D4 A4 C3 D3 A1 C4 B2 C3 A3 B1 D4 C4 D3 B3 C2 C1 B4 A4 C3 A2 B4 D2 D1 C4 A3 D2 pass:P";

/// 5x4, jk-final: moves 22..=27 are a D of 6. Then `P`.
const D_OF_SIX: &str =
    "C1 A2 B2 E4 D4 B3 B4 A4 A3 E2 E1 A4 E3 C4 D2 B1 A1 C2 C3 B1 B4 C2 A3 D1 B2 E2 C1 pass:P";

/// 5x4: moves 58..=61 are a D of 4 (found under jk-d4-6). Then `P`.
const D_OF_FOUR_5X4: &str = "D2 D1 B2 C4 B3 E4 C2 A1 D4 C1 E3 C3 B1 A2 A3 D3 B4 A2 E2 C4 A1 D3 A4 E4 E1 D4 C3 D4 D1 E4 C4 pass:E D3 D4 E4 pass:E A2 pass:E D4 C1 A2 B2 E2 E3 D1 C4 pass:E B4 A3 D4 D3 A1 B1 D2 E4 E1 C3 A1 D1 E3 B1 pass:P";

fn pass_kinds(r: &RefGo) -> Vec<u8> {
    let (moves, _) = r.legal_moves();
    moves
        .iter()
        .filter(|m| m.kind == MoveKind::Pass)
        .map(|m| r.rules.passes.kinds[m.to as usize])
        .collect()
}

/// Replays `record` (a run of ko captures at 1-based moves `run`, then `P`):
/// both engines agree at every ply; the reference marks a D on the run's last
/// capture starting at its first (or no D); `passes` are the pass kinds
/// allowed at the end.
fn check_d(
    name: &str,
    (w, h): (u32, u32),
    record: &str,
    run: std::ops::RangeInclusive<usize>,
    is_d: bool,
    passes: &[u8],
) {
    let rules = load_sized(name, w, h);
    let r = replay(&rules, record);
    let (first, last) = (*run.start() - 1, *run.end() - 1);
    assert!(
        r.moves[first..=last]
            .iter()
            .all(|m| m.class == CLASS_KO_CAPTURE),
        "{name}: the run is all ko captures"
    );
    assert_eq!(r.moves.len(), last + 2, "{name}: the run, then P");
    let d = if is_d { vec![first] } else { vec![] };
    assert_eq!(r.moves[last].d_starts, d, "{name}: D");
    assert_eq!(pass_kinds(&r), passes, "{name}: passes allowed at the end");
}

#[test]
fn d_of_eight() {
    // Art. 2.7.1: no pass at all after D P.
    check_d("jk-final", (4, 4), D_OF_EIGHT, 16..=23, true, b"");
    check_d("jk-strict-end", (4, 4), D_OF_EIGHT, 16..=23, true, b"");
    // Only runs of 4 or 6 form a D there: after C P, E only.
    check_d("jk-d4-6", (4, 4), D_OF_EIGHT, 16..=23, false, b"E");
    // 12.4 marks the D but has no rule about it; 12.6 forbids passes after
    // any C C C C P.
    check_d("jk-12-4", (4, 4), D_OF_EIGHT, 16..=23, true, b"E");
    check_d("jk-12-6", (4, 4), D_OF_EIGHT, 16..=23, true, b"");
}

#[test]
fn d_of_six() {
    check_d("jk-final", (5, 4), D_OF_SIX, 22..=27, true, b"");
    check_d("jk-d4-6", (5, 4), D_OF_SIX, 22..=27, true, b"");
    check_d("jk-natural", (5, 4), D_OF_SIX, 22..=27, true, b"E");
}

#[test]
fn d_of_four() {
    check_d("jk-final", (4, 4), D_OF_FOUR, 36..=39, true, b"");
    check_d("jk-d4-6", (4, 4), D_OF_FOUR, 36..=39, true, b"");
    check_d("jk-final", (5, 4), D_OF_FOUR_5X4, 58..=61, true, b"");
    check_d("jk-natural", (5, 4), D_OF_FOUR_5X4, 58..=61, true, b"E");
}

/// Ko fights continued from each D (`D P C C`, `D P C C C C`, …) in lock-step.
#[test]
fn lockstep_after_d() {
    let mut total = Tally::default();
    for name in [
        "jk-final",
        "jk-d4-6",
        "jk-strict-end",
        "jk-12-6",
        "jk-no-move-loses",
    ] {
        for (size, text) in [
            ((4, 4), D_OF_EIGHT),
            ((4, 4), D_OF_FOUR),
            ((5, 4), D_OF_FOUR_5X4),
            ((5, 4), D_OF_SIX),
        ] {
            let rules = load_sized(name, size.0, size.1);
            let prefix: Vec<Move> = replay(&rules, text).moves.iter().map(|r| r.mv).collect();
            let any = AnyMachine::new(rules.clone()).expect("fits");
            let t = with_machine!(&any, m => lockstep_from(m, &rules, &prefix, 24, seed_of(name)));
            total.add(&t);
        }
    }
    println!("after D: {total:?}");
    assert!(total.ds > 0);
}

// ----- sample_move --------------------------------------------------------------

/// From fixed mid-game positions, `sample_move` draws every legal move, each
/// about equally often (a coarse check: within half to one and a half times
/// the expected count).
#[test]
fn sample_move_is_uniform_over_legal_moves() {
    for b in morrigo_rules::builtin::family("go") {
        for &(w, h, plies) in &[(3, 3, 4), (4, 4, 7), (5, 4, 10)] {
            let rules = load_sized(b.name, w, h);
            let any = AnyMachine::new(rules.clone()).expect("fits");
            with_machine!(&any, m => {
                let mut rng = SmallRng::seed_from_u64(seed_of(b.name) ^ plies as u64);
                let mut s = m.initial();
                let mut r = RefGo::new(&rules);
                for _ in 0..plies {
                    let (moves, outcome) = r.legal_moves();
                    if outcome.is_some() || moves.is_empty() {
                        break;
                    }
                    let mv = choose(&r, &moves, Policy::Careful, &mut rng);
                    m.apply(&mut s, mv);
                    r.apply(mv);
                }
                let (legal, outcome) = fast_moves(m, &s);
                if outcome.is_some() || legal.is_empty() {
                    continue;
                }
                let per_move = 200;
                let mut counts: BTreeMap<(u8, u16), usize> = BTreeMap::new();
                let mut buf = Vec::new();
                let mut draw = |n: u32| rng.random_range(0..n);
                for _ in 0..per_move * legal.len() {
                    match m.sample_move(&s, &mut buf, &mut draw) {
                        Sample::Move(mv) => {
                            assert!(legal.contains(&mv), "{} {w}x{h}: illegal {mv:?}", b.name);
                            *counts.entry((mv.kind as u8, mv.to)).or_default() += 1;
                        }
                        other => panic!("{} {w}x{h}: {other:?} with legal moves", b.name),
                    }
                }
                assert_eq!(counts.len(), legal.len(), "{} {w}x{h}: not every move drawn", b.name);
                for (mv, &c) in &counts {
                    assert!(
                        (per_move / 2..=per_move * 3 / 2).contains(&c),
                        "{} {w}x{h}: {mv:?} drawn {c} times, expected about {per_move}",
                        b.name
                    );
                }
            });
        }
    }
}

// ----- probes: rulesets that read more of the vocabulary ----------------------

fn run_probe(name: &str, text: &str, games: u64) -> Tally {
    let rules = Arc::new(
        morrigo_rules::rules_from_text(name, text).unwrap_or_else(|e| panic!("{name}: {e:?}")),
    );
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let t = with_machine!(&any, m => lockstep(m, &rules, games, seed_of(name)));
    println!("{name}: {t:?}");
    t
}

/// Guards, forbid rules and end rules over counters the Go family keeps:
/// `captured`, `pass_stones`, `on_board`, `empty_points`, `turn`, and a
/// `compare_captures` verdict of the ruleset's own.
#[test]
fn probe_counters() {
    let text = r#"
name: probe-go-counters
extends: jk-final
board: { grid: { width: 4, height: 4, naming: gtp } }
phases:
  play:
    actions:
      play: "empty_points > 1"
      pass: "turn >= 2 or captured(me) > 0"
forbid:
  no_ending_pass_when_rich:
    moves: [E]
    when: "pass_stones(me) > captured(opponent) + 3"
end:
  big_capture:
    win: "captured(me) >= 5 and on_board(me) < on_board(opponent)"
    before: ending_sequence
  long_game:
    compare_captures: "turn >= 40"
"#;
    let t = run_probe("probe-go-counters", text, 150);
    assert!(t.decided.len() >= 4, "{t:?}");
}

/// `no_legal_move` decides (every point forbidden by a guard, no pass).
#[test]
fn probe_no_legal_move() {
    let text = r#"
name: probe-go-no-legal-move
extends: jk-no-move-loses
board: { grid: { width: 3, height: 3, naming: gtp } }
phases:
  play:
    actions:
      play: "on_board(me) < 3"
      pass: "captured(me) == 0"
"#;
    let t = run_probe("probe-go-no-legal-move", text, 150);
    assert!(t.decided("no_legal_move") > 0, "{t:?}");
}

/// `phase` in a forbid rule (the vocabulary allows it in action guards,
/// where forbid rules are checked).
#[test]
fn probe_phase_in_forbid() {
    let text = r#"
name: probe-go-phase-forbid
extends: tromp-taylor
board: { grid: { width: 3, height: 3, naming: gtp } }
forbid:
  no_early_pass:
    moves: [P]
    when: "phase == play and turn < 6"
"#;
    run_probe("probe-go-phase-forbid", text, 100);
}

/// `lost(player)`: stones of the player removed so far (captures included).
#[test]
fn probe_lost() {
    let text = r#"
name: probe-go-lost
extends: tromp-taylor
board: { grid: { width: 3, height: 3, naming: gtp } }
end:
  wiped:
    lose: "lost(me) >= 3"
"#;
    run_probe("probe-go-lost", text, 100);
}

/// `repetitions`: the position (board, player to move) recurs after captures.
#[test]
fn probe_repetitions() {
    let text = r#"
name: probe-go-repetitions
extends: chinese
board: { grid: { width: 3, height: 3, naming: gtp } }
end:
  cycle:
    draw: "repetitions >= 2"
"#;
    run_probe("probe-go-repetitions", text, 100);
}

/// `turns_without_removal`: do captures count as removals?
#[test]
fn probe_turns_without_removal() {
    let text = r#"
name: probe-go-quiet
extends: tromp-taylor
board: { grid: { width: 3, height: 3, naming: gtp } }
end:
  quiet:
    draw: "turns_without_removal >= 8"
"#;
    run_probe("probe-go-quiet", text, 100);
}

// ----- board plays with limited hands and lines ---------------------------------

/// A board play takes a stone from a limited hand and needs one.
#[test]
fn board_plays_from_a_limited_hand() {
    let text = include_str!("../../../../tests/defects/play-limited-hand.yaml");
    let t = run_probe("play-limited", text, 200);
    assert!(t.empty_hands > 0, "no player ran out of stones: {t:?}");
}

/// A board play completing a line owes `on_line_formed` removals.
#[test]
fn board_plays_that_complete_lines() {
    let text = include_str!("../../../../tests/defects/play-forms-lines.yaml");
    let t = run_probe("play-lines", text, 200);
    assert!(
        t.removals > 0,
        "no line was completed by a board play: {t:?}"
    );
}

/// Everything at once: a limited hand, lines owing as many removals as
/// they complete, a `removable` condition, suicides removed, passes.
#[test]
fn board_plays_with_a_hand_lines_and_captures() {
    let text = r#"
name: play-mixed
title: board plays with a hand, lines and captures
board:
  grid: { width: 4, height: 4, naming: gtp, lines: 3 }
players: [black, white]
setup:
  in_hand: 6
phases:
  play:
    actions:
      play: "in_hand(me) > 0"
      pass: true
play:
  suicide: legal
passes:
  kinds: [P]
on_line_formed:
  removals: "lines_formed"
  removable: "not in_line(target) or all_in_lines(opponent)"
end:
  wiped:
    lose: "on_board(me) + in_hand(me) < 2"
  two_passes:
    draw: "after('P P')"
"#;
    let t = run_probe("play-mixed", text, 300);
    assert!(
        t.removals > 0,
        "no line was completed by a board play: {t:?}"
    );
    assert!(t.empty_hands > 0, "no player ran out of stones: {t:?}");
}

// ----- perft: the fast engine and the reference count the same trees ---------

/// Leaf counts of the move tree from the start, fast engine and reference.
fn perft_both(name: &str, (w, h): (u32, u32), depth: u32) -> u64 {
    let rules = load_sized(name, w, h);
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let fast = with_machine!(&any, m => morrigo_engine::perft(m, &mut m.initial(), depth, morrigo_engine::Unit::Ply));
    let slow = RefGo::new(&rules).perft(depth);
    assert_eq!(fast, slow, "{name} {w}x{h}: perft {depth} (left fast)");
    fast
}

/// Atari Go: a capture ends the game, so the tree is cut where one is made
/// (on 2x2 the first capture is possible at ply 3). By hand on 2x2: 4 plays
/// and a pass; then 3 plays and a pass after each play, 4 plays and a pass
/// after the pass: 4 * 4 + 5 = 21.
#[test]
fn perft_atari_go() {
    assert_eq!(perft_both("atari-go", (2, 2), 1), 5);
    assert_eq!(perft_both("atari-go", (2, 2), 2), 21);
    assert_eq!(perft_both("atari-go", (2, 2), 6), 244);
    assert_eq!(perft_both("atari-go", (3, 3), 4), 5_225);
    assert_eq!(perft_both("atari-go", (4, 4), 4), 57_872);
    assert_eq!(perft_both("atari-go", (5, 5), 4), 360_857);
}

/// Japanese rules: simple ko and illegal suicide prune the tree, and two
/// passes end the game.
#[test]
fn perft_japanese() {
    assert_eq!(perft_both("japanese", (2, 2), 8), 2_592);
    assert_eq!(perft_both("japanese", (3, 3), 4), 5_281);
    assert_eq!(perft_both("japanese", (4, 4), 4), 57_984);
    assert_eq!(perft_both("japanese", (5, 5), 4), 361_041);
}

/// AGA rules: situational superko; two passes end the game only when
/// White passed last.
#[test]
fn perft_aga() {
    assert_eq!(perft_both("aga", (2, 2), 8), 3_288);
    assert_eq!(perft_both("aga", (3, 3), 4), 5_362);
    assert_eq!(perft_both("aga", (4, 4), 4), 58_240);
    assert_eq!(perft_both("aga", (5, 5), 4), 361_666);
}

// ----- AGA: area and territory counts agree ------------------------------------

/// Under the AGA rules the territory count (with pass stones and captures)
/// and the area count give the same margin whenever the game ends, because
/// a pass gives a prisoner and White passes last: checked at the end of
/// random games on several boards, with the area count taken by the
/// reference on the same position.
#[test]
fn aga_territory_and_area_counts_agree() {
    let mut ended = 0;
    for &(w, h) in SIZES {
        let rules = load_sized("aga", w, h);
        let mut area_rules = (*rules).clone();
        if let Some(s) = area_rules.scoring.as_mut() {
            s.method = morrigo_rules::ScoringMethod::Area;
        }
        for g in 0..200u64 {
            let mut rng = SmallRng::seed_from_u64(g ^ 0xA6A);
            let mut r = RefGo::new(&rules);
            for _ in 0..MAX_PLIES {
                let (moves, outcome) = r.legal_moves();
                if let Some(o) = outcome {
                    assert_eq!(o.rule_name(&rules), "two_passes");
                    let last = r.moves.last().expect("two passes were played");
                    assert_eq!(last.player, 1, "{w}x{h} game {g}: White passed last");
                    let territory = r.score();
                    let mut as_area = r.clone();
                    as_area.rules = &area_rules;
                    let area = as_area.score();
                    assert_eq!(
                        territory[0] - territory[1],
                        area[0] - area[1],
                        "{w}x{h} game {g}: territory {territory:?}, area {area:?}"
                    );
                    ended += 1;
                    break;
                }
                let policy = [Policy::Uniform, Policy::Captures][(g % 2) as usize];
                let mv = choose(&r, &moves, policy, &mut rng);
                r.apply(mv);
            }
        }
    }
    assert!(ended > 500, "only {ended} games ended by two passes");
}

// ----- the last move's pass stone under territory counting ---------------------

/// JK Art. 4.4's extra pass stone (`scoring.last_move_stone`) is honoured by
/// a territory count too: the engine and the reference agree on random
/// games, and after a play, a pass and a pass (Black, the first player,
/// moved last) Black's count is one more than without it.
#[test]
fn last_move_stone_counts_under_territory_scoring() {
    let plain = load_sized("japanese", 3, 3);
    let mut with = (*plain).clone();
    with.scoring.as_mut().expect("scored").last_move_stone = true;
    let with = Arc::new(with);
    let any = AnyMachine::new(with.clone()).expect("fits");
    let t = with_machine!(&any, m => lockstep(m, &with, 100, 0x44));
    assert!(t.decided("two_passes") > 0, "no game counted: {t:?}");

    let mut r = RefGo::new(&with);
    for want in ["play", "pass", "pass"] {
        let (moves, outcome) = r.legal_moves();
        assert!(outcome.is_none(), "ended before {want}");
        let mv = *moves
            .iter()
            .find(|mv| mv.kind.name() == want)
            .unwrap_or_else(|| panic!("no {want}"));
        r.apply(mv);
    }
    assert!(r.legal_moves().1.is_some(), "two passes end the game");
    let bonus = r.score();
    let mut without = r.clone();
    without.rules = &plain;
    let base = without.score();
    assert_eq!(bonus[0], base[0] + 1.0, "{bonus:?} against {base:?}");
    assert_eq!(bonus[1], base[1]);
}

// ----- set-up stones ---------------------------------------------------------

/// Rulesets starting from set-up stones with White to move (test files
/// under `tests/rulesets/`): random games in lock-step, the repetition
/// rules looking back to the set-up board.
#[test]
fn lockstep_from_set_up_stones() {
    for (file, superko) in [
        ("handicap-japanese.yaml", false),
        ("setup-new-zealand.yaml", true),
    ] {
        let path = format!("{}/../../tests/rulesets/{file}", env!("CARGO_MANIFEST_DIR"));
        let rules = Arc::new(morrigo_rules::load_rules(&path).unwrap_or_else(|e| panic!("{e}")));
        assert!(rules.start.stones.iter().any(|s| !s.is_empty()), "{file}");
        assert_eq!(rules.start.to_move, 1, "{file}: White moves first");
        let any = AnyMachine::new(rules.clone()).expect("fits");
        let t = with_machine!(&any, m => {
            let s = m.initial();
            assert_eq!(s.pos.to_move, 1, "{file}: the start has White to move");
            lockstep(m, &rules, 200, seed_of(file))
        });
        println!("{file}: {t:?}");
        assert!(t.decided("two_passes") > 0, "{file}: no game counted");
        if superko {
            assert!(t.refused_superko > 0, "{file}: no play refused by superko");
        }
    }
}

// ----- dead stones by agreement ------------------------------------------------

/// Counting with dead stones (`agree:`): the engine's score with a set of
/// dead chains equals the reference's, which takes the stones off and
/// gives them to the opponent as prisoners, for every scoring method.
#[test]
fn scores_with_dead_stones_agree() {
    let mut checked = 0;
    for name in ["japanese", "aga", "chinese", "jk-final"] {
        let rules = load_sized(name, 5, 5);
        let any = AnyMachine::new(rules.clone()).expect("fits");
        with_machine!(&any, m => {
            for g in 0..60u64 {
                let mut rng = SmallRng::seed_from_u64(g ^ 0xDEAD);
                let mut s = m.initial();
                let mut r = RefGo::new(&rules);
                for _ in 0..rng.random_range(5..40) {
                    let (moves, outcome) = r.legal_moves();
                    if outcome.is_some() || moves.is_empty() {
                        break;
                    }
                    let mv = choose(&r, &moves, Policy::Captures, &mut rng);
                    m.apply(&mut s, mv);
                    r.apply(mv);
                }
                let mut dead = std::collections::BTreeSet::new();
                let mut bits = Bits::EMPTY;
                for chain in r.chains(&r.board) {
                    if rng.random_bool(0.4) {
                        for &p in &chain.stones {
                            dead.insert(p);
                            bits.set(p as usize);
                        }
                    }
                }
                assert_eq!(
                    m.score(&s, &bits),
                    r.score_with_dead(&dead),
                    "{name} game {g}: dead {dead:?} (left fast)"
                );
                checked += !dead.is_empty() as usize;
            }
        });
    }
    assert!(checked > 100, "only {checked} positions had dead stones");
}

/// The references say which rulesets they can judge, so a cross-check (and
/// the play fuzz target) never hands one a ruleset it would panic on: the
/// Go reference judges every Go built-in and no Morris one, the Morris
/// reference every Morris built-in and no Go one.
#[test]
fn each_reference_judges_its_own_family() {
    use morrigo_reference::morris::RefGame;
    let load = |name: &str| morrigo_rules::load_rules_with(name, &Overrides::default()).unwrap();
    for b in morrigo_rules::builtin::family("go") {
        let rules = load(b.name);
        RefGo::judges(&rules).unwrap_or_else(|why| panic!("{}: {why}", b.name));
        assert!(RefGame::judges(&rules).is_err(), "{}", b.name);
    }
    for b in morrigo_rules::builtin::family("morris") {
        let rules = load(b.name);
        RefGame::judges(&rules).unwrap_or_else(|why| panic!("{}: {why}", b.name));
        assert!(RefGo::judges(&rules).is_err(), "{}", b.name);
    }
}
