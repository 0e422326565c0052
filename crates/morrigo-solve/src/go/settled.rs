//! When a settled board's count is the game's value: the rules under which
//! the search may end a line on a board every point of which is already
//! its final owner's (Benson's life test with answers,
//! `Machine::is_settled_with_answers`).
//!
//! Van der Werf's MIGOS ends such lines under area scoring with superko;
//! the argument, for any rule set passing the test below: on a settled
//! board each player can keep the count as it stands. A player passes
//! whenever the opponent passed or played in the opponent's own area (a
//! stone there changes no area count, and self-harm only helps), and
//! answers a play in their own safe region by filling that region's
//! liberties, every such stone joining the alive chain the region is vital
//! to, until the intruders are captured (they can neither live nor capture
//! there). The same holds with life by answers
//! (`Machine::life_with_answers`): an eye space such as a straight four,
//! one region next to one chain only, counts as two eyes, since its owner
//! answers the first play in it by a cut point the play left, after which
//! the chain has two vital regions. Each opposing play needs at most one
//! answer, in the region it was made in. An answer joins an alive chain,
//! so it is never suicide; like the fillings above, it could be refused
//! by superko only if the very board had stood earlier in the game, which
//! needs the chain it joins to have been captured whole and rebuilt.
//! Passing must always be legal and two passes must end the game
//! by the count, with nothing else ending it or read by it:
//! * area scoring (prisoners and pass stones do not count);
//! * no forbid rule, the pass unguarded, every history pattern made of
//!   pass classes only, so a pass is never refused;
//! * every end rule a count reached by a pattern of passes, and no rule
//!   that makes a play lose (suicide, JK Art. 3.2) or ends the game on a
//!   repeated board (repetition can only forbid plays: superko).
//!
//! Not the JK rules: their counts equal the area count only through the
//! pass stones and Art. 4.4, which set-up positions break, and their pass
//! restrictions need their own argument; nor territory scoring, where an
//! intrusion costs the owner points to remove (why the Japanese rules need
//! dead-stone agreement).

use morrigo_rules::{
    ActionKind, Immediate, Prim, Repeated, Rules, ScoringMethod, SuicideEffect, Verdict,
};

/// Whether the search may end lines on settled boards under `rules`, or
/// the first reason it may not.
pub fn settled_boards_end_lines(rules: &Rules) -> Result<(), String> {
    let scoring = rules.scoring.as_ref().ok_or("no scoring")?;
    if scoring.method != ScoringMethod::Area {
        return Err("the count is not by area".into());
    }
    if !rules.forbid.is_empty() {
        return Err("a forbid rule may refuse a pass".into());
    }
    let [phase] = rules.phases.as_slice() else {
        return Err("more than one phase".into());
    };
    let pass_free = phase
        .actions
        .iter()
        .any(|a| a.kind == ActionKind::Pass && a.guard.is_always());
    if !pass_free {
        return Err("a pass is not always allowed".into());
    }
    let passes_only = rules.patterns.iter().all(|p| {
        p.text()
            .bytes()
            .all(|b| b.is_ascii_whitespace() || rules.passes.kinds.contains(&b))
    });
    if !passes_only {
        return Err("a history pattern reads board plays".into());
    }
    for rule in &rules.end {
        let mut other = false;
        rule.when
            .expr
            .for_each_symbol(&mut |p| other |= *p != Prim::After);
        if rule.verdict != Verdict::Score || other {
            return Err(format!(
                "the end rule `{}` is not a count after passes",
                rule.name
            ));
        }
    }
    let play = rules.play.as_ref().ok_or("no board plays")?;
    if play.suicide_single == SuicideEffect::Lose || play.suicide_multi == SuicideEffect::Lose {
        return Err("a suicide loses".into());
    }
    let rep = &rules.repetition;
    if rep.immediate == Immediate::Lose || rep.repeated_board != Repeated::Off {
        return Err("a repetition ends the game".into());
    }
    Ok(())
}
