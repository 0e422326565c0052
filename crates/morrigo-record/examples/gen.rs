// scratch: find records without removals
use morrigo_engine::{notation::format_move, with_machine, AnyMachine, MoveKind};
use rand::{rngs::SmallRng, Rng, SeedableRng};
use std::sync::Arc;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = Arc::new(morrigo_rules::load_rules(&args[1]).unwrap());
    let plies: usize = args[2].parse().unwrap();
    let any = AnyMachine::new(rules).unwrap();
    with_machine!(&any, m => {
        for seed in 0..100000u64 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut s = m.initial();
            let mut rec = Vec::new();
            let mut moves = Vec::new();
            let mut ok = true;
            for _ in 0..plies {
                if m.legal_moves(&s, &mut moves).is_some() { ok = false; break; }
                let cands: Vec<_> = moves.iter().copied().filter(|mv| {
                    let mut t = s.clone(); m.apply(&mut t, *mv);
                    mv.kind != MoveKind::Remove && t.pos.lines_formed == 0 && m.repetitions(&t) < 2
                }).collect();
                if cands.is_empty() { ok = false; break; }
                let mv = cands[rng.random_range(0..cands.len())];
                rec.push(format_move(&m.rules.topology, &mv));
                m.apply(&mut s, mv);
            }
            if ok {
                let mut o = Vec::new();
                let r = m.legal_moves(&s, &mut o);
                println!("seed {seed}: {}\n{:?}", rec.join(" "), r.map(|o| m.rules.end[o.rule as usize].name.clone()));
                println!("{}", morrigo_record::render_board(m, &s));
                break;
            }
        }
    });
}
