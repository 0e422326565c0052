//! Any ruleset that compiles plays up to 200 random moves without a panic,
//! and the fast engine agrees with the slow reference at every ply: the same
//! legal moves and outcome; undo restores the state; the incremental hash
//! equals the hash built from scratch. Board-play rulesets are checked
//! against the Go-family reference, piece-moving ones against the Morris
//! reference; a ruleset mixing both, or reading a value its reference does
//! not evaluate (`RefGo::judges`), is only played.
#![no_main]
use libfuzzer_sys::fuzz_target;
use morrigo_engine::{with_machine, AnyMachine, Machine, Move};
use morrigo_reference::{go::RefGo, morris::RefGame};
use morrigo_rules::load::Overrides;
use morrigo_rules::{ActionKind, Rules};
use std::sync::Arc;

const PLIES: usize = 200;

enum Reference<'r> {
    Go(Box<RefGo<'r>>),
    Morris(Box<RefGame<'r>>),
    None,
}

impl<'r> Reference<'r> {
    fn for_rules(rules: &'r Rules) -> Self {
        let kinds: Vec<ActionKind> = rules
            .phases
            .iter()
            .flat_map(|p| p.actions.iter().map(|a| a.kind))
            .collect();
        let go = kinds
            .iter()
            .any(|k| matches!(k, ActionKind::Play | ActionKind::Pass));
        let morris = kinds
            .iter()
            .any(|k| matches!(k, ActionKind::Place | ActionKind::Slide | ActionKind::Fly));
        match (go, morris) {
            (true, false) if RefGo::judges(rules).is_ok() => {
                Reference::Go(Box::new(RefGo::new(rules)))
            }
            (false, true) if RefGame::judges(rules).is_ok() => {
                Reference::Morris(Box::new(RefGame::new(rules)))
            }
            // Mixed, or reading what the reference does not evaluate.
            _ => Reference::None,
        }
    }

    fn legal_moves(&self) -> Option<(Vec<Move>, Option<morrigo_engine::Outcome>)> {
        match self {
            Reference::Go(r) => Some(r.legal_moves()),
            Reference::Morris(r) => Some(r.legal_moves()),
            Reference::None => None,
        }
    }

    fn apply(&mut self, m: Move) {
        match self {
            Reference::Go(r) => r.apply(m),
            Reference::Morris(r) => r.apply(m),
            Reference::None => {}
        }
    }
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| (m.kind as u8, m.from, m.to));
    moves
}

fn play<const W: usize>(m: &Machine<W>, rules: &Rules, mut seed: u64) {
    let mut s = m.initial();
    let mut reference = Reference::for_rules(rules);
    let mut moves = Vec::new();
    for ply in 0..PLIES {
        moves.clear();
        let outcome = m.legal_moves(&s, &mut moves);
        if let Some((slow, slow_outcome)) = reference.legal_moves() {
            assert_eq!(
                sorted(moves.clone()),
                sorted(slow),
                "ply {ply}: legal moves"
            );
            assert_eq!(outcome, slow_outcome, "ply {ply}: outcome");
        }
        if outcome.is_some() || moves.is_empty() {
            return;
        }
        let (pos, history) = (s.pos, s.history().to_vec());
        for &mv in &moves {
            let u = m.apply(&mut s, mv);
            m.undo(&mut s, u);
            assert_eq!(s.pos, pos, "ply {ply}: undo of {mv:?}");
            assert_eq!(
                s.history(),
                &history[..],
                "ply {ply}: undo of {mv:?} (history)"
            );
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = moves[((seed >> 33) as usize) % moves.len()];
        m.apply(&mut s, mv);
        reference.apply(mv);
        // Afresh from the board, hands, side to move, marks of delayed
        // removals and open capture choices.
        let fresh = m.recomputed_hash(&s);
        if s.pos.pending == 0 {
            assert_eq!(s.pos.hash, fresh, "ply {ply}: incremental hash");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Grid boards are played at 5x5, where the slow reference keeps up and
    // games reach captures, kos and their ends within 200 plies.
    let Ok(loaded) = morrigo_rules::load::load_text("fuzz.yaml", text) else {
        return;
    };
    let small = Overrides {
        size: Some((5, 5)),
        komi: None,
    };
    let loaded = match morrigo_rules::load::with_overrides(loaded, &small) {
        Ok(loaded) => loaded,
        Err(_) => match morrigo_rules::load::load_text("fuzz.yaml", text) {
            Ok(loaded) => loaded, // not a grid: played as written
            Err(_) => return,
        },
    };
    let Ok(rules) = morrigo_rules::compile(&loaded) else {
        return;
    };
    if rules.topology.len() > 64 {
        return; // the reference is too slow beyond that for a fuzzer
    }
    let rules = Arc::new(rules);
    let Ok(any) = AnyMachine::new(rules.clone()) else {
        return;
    };
    let seed = data.iter().fold(0xcbf29ce484222325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    });
    with_machine!(&any, m => play(m, &rules, seed));
});
