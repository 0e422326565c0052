//! Which rulesets retrograde analysis can solve, and the rules it solves.
//!
//! Retrograde analysis gives every position one value, so a position must
//! be the whole state of the game: the board, the hands, the player to
//! move and the removals owed. Rules that read the history (repetition
//! counts, turns without a removal, the turn number, move-class patterns)
//! cannot be part of that. As in the published Morris solutions, end rules
//! that read the history and only declare a draw are left out: what neither
//! side can force is a draw anyway. A ruleset whose legality or whose win
//! and loss conditions read the history (Go-style ko, superko, pass rules)
//! is not for this solver.

use morrigo_rules::{Cond, Immediate, Prim, Repeated, Rules, Superko, Verdict};

/// The primitives whose value depends on the history, not on the position.
const HISTORY: [Prim; 12] = [
    Prim::Repetitions,
    Prim::TurnsWithoutRemoval,
    Prim::QuietTurns,
    Prim::TurnsWithoutLine,
    Prim::Turn,
    Prim::After,
    Prim::ImmediateRepetition,
    Prim::BoardRepetitions,
    Prim::FormedBefore,
    Prim::TurnsSinceFormed,
    Prim::TurnsSinceTraded,
    Prim::LinesFormedIn,
];

/// The history primitive a condition reads, if any (its vocabulary name).
fn reads_history(c: &Cond) -> Option<&'static str> {
    let mut found = None;
    c.expr.for_each_symbol(&mut |p| {
        if found.is_none() && HISTORY.contains(p) {
            found = Some(*p);
        }
    });
    found.map(prim_name)
}

fn prim_name(p: Prim) -> &'static str {
    morrigo_rules::vocab::VOCABULARY
        .iter()
        .find(|e| e.prim == p)
        .map_or("a history value", |e| e.name)
}

/// Whether retrograde analysis solves this ruleset; the reason when not.
/// Go-style rulesets (board plays, passes, repetition rules on board
/// plays) and rules whose legality or win/loss conditions read the history
/// need a search over full histories instead.
pub fn retrograde_applies(rules: &Rules) -> Result<(), String> {
    let name = &rules.name;
    if rules.play.is_some() || !rules.passes.kinds.is_empty() {
        return Err(format!(
            "{name} has board plays or passes (a Go-style ruleset): its ko and pass rules read the history of the game, so retrograde analysis over positions cannot solve it"
        ));
    }
    let r = &rules.repetition;
    if r.immediate != Immediate::Allowed
        || r.superko != Superko::None
        || r.repeated_board != Repeated::Off
    {
        return Err(format!(
            "{name} has repetition rules on board plays (ko, superko): they read the history of the game, so retrograde analysis over positions cannot solve it"
        ));
    }
    for p in &rules.phases {
        // Who moves next then depends on the phase the turn began in and
        // on what the turn did, which a position does not record.
        if p.extra_turn.is_some() || p.first.is_some() {
            return Err(format!(
                "phase `{}` of {name} decides who moves next (`extra_turn` or `first`) from the turn just played, which a position does not record, so retrograde analysis over positions cannot solve it",
                p.name
            ));
        }
        let conds = p
            .when
            .iter()
            .chain(p.actions.iter().map(|a| &a.guard))
            .chain(p.remove.iter())
            .chain(p.remove_own.iter());
        for c in conds {
            if let Some(prim) = reads_history(c) {
                return Err(format!(
                    "phase `{}` of {name} reads `{prim}` (`{}`): which moves are legal depends on the history, so retrograde analysis over positions cannot solve it",
                    p.name, c.text
                ));
            }
        }
    }
    if let Some(l) = &rules.line_rule {
        if l.delay.is_some() {
            return Err(format!(
                "`on_line_formed.delay` of {name} leaves marks on the board, which the solver's positions do not hold, so retrograde analysis cannot solve it"
            ));
        }
        let extras = [("counts", &l.counts), ("from_hand", &l.from_hand)]
            .into_iter()
            .filter_map(|(what, c)| c.as_ref().map(|c| (what, c)));
        for (what, c) in [("removals", &l.removals), ("removable", &l.removable)]
            .into_iter()
            .chain(extras)
        {
            if c.uses(Prim::Phase) {
                return Err(format!(
                    "`on_line_formed.{what}` of {name} reads `phase` (`{}`), the phase the turn began in, which a position owing a removal does not record, so retrograde analysis over positions cannot solve it",
                    c.text
                ));
            }
            if let Some(prim) = reads_history(c) {
                return Err(format!(
                    "`on_line_formed.{what}` of {name} reads `{prim}` (`{}`): which moves are legal depends on the history, so retrograde analysis over positions cannot solve it",
                    c.text
                ));
            }
        }
    }
    for f in &rules.forbid {
        if let Some(prim) = reads_history(&f.when) {
            return Err(format!(
                "forbid rule `{}` of {name} reads `{prim}`: which moves are legal depends on the history, so retrograde analysis over positions cannot solve it",
                f.name
            ));
        }
    }
    for e in &rules.end {
        match e.verdict {
            Verdict::Lose | Verdict::Win | Verdict::Draw => {}
            Verdict::Score | Verdict::CompareCaptures => {
                return Err(format!(
                    "end rule `{}` of {name} ends the game by a count ({}): only win, lose and draw verdicts are solved by retrograde analysis",
                    e.name,
                    e.verdict.key()
                ))
            }
            Verdict::NoResult => {
                return Err(format!(
                    "end rule `{}` of {name} ends the game with no result: only win, lose and draw verdicts are solved by retrograde analysis",
                    e.name
                ))
            }
        }
        if e.verdict != Verdict::Draw {
            if let Some(prim) = reads_history(&e.when) {
                return Err(format!(
                    "end rule `{}` of {name} decides a win or a loss from `{prim}` (`{}`), which depends on the history, so retrograde analysis over positions cannot solve it",
                    e.name, e.when.text
                ));
            }
        }
    }
    Ok(())
}

/// The draw rules that read the history: the solver leaves them out.
pub fn history_draw_rules(rules: &Rules) -> Vec<&str> {
    rules
        .end
        .iter()
        .filter(|e| e.verdict == Verdict::Draw && reads_history(&e.when).is_some())
        .map(|e| e.name.as_str())
        .collect()
}

/// The rules the solver plays by: `rules` without its history draw rules.
/// Call [`retrograde_applies`] first.
pub fn solver_rules(rules: &Rules) -> Rules {
    let mut r = rules.clone();
    r.end
        .retain(|e| !(e.verdict == Verdict::Draw && reads_history(&e.when).is_some()));
    r
}

/// Whether the position key must keep the lines the last move formed: only
/// when `removable` reads them (no other rule sees the stored count).
pub fn key_keeps_lines_formed(rules: &Rules) -> bool {
    rules
        .line_rule
        .as_ref()
        .is_some_and(|l| l.removable.uses(Prim::LinesFormed))
}

/// A 64-bit FNV-1a fingerprint of the compiled rules that decide the
/// game (board, hands, phases, line rule, end rules), so a saved table is
/// refused for other rules. Source locations and texts that do not change
/// the game (title, description, docs) are left out.
pub fn rules_fingerprint(rules: &Rules) -> u64 {
    let t = &rules.topology;
    let mut text = format!(
        "points {} neighbours {:?} lines {:?} in_hand {} unlimited {} players {}\n",
        t.len(),
        t.neighbours,
        t.lines,
        rules.in_hand,
        rules.unlimited_hand,
        rules.players.len()
    );
    for (k, v) in &rules.params {
        text += &format!("param {k}={v}\n");
    }
    for p in &rules.phases {
        text += &format!(
            "phase {} when {:?}\n",
            p.name,
            p.when.as_ref().map(|c| &c.text)
        );
        for a in &p.actions {
            text += &format!("  {} {}\n", a.kind.name(), a.guard.text);
        }
        if let Some(r) = &p.remove {
            text += &format!("  remove {}\n", r.text);
        }
        if let Some(r) = &p.remove_own {
            text += &format!("  remove_own {}\n", r.text);
        }
    }
    if let Some(l) = &rules.line_rule {
        text += &format!("line {} / {}\n", l.removals.text, l.removable.text);
    }
    for e in &rules.end {
        text += &format!("end {} {} {}\n", e.name, e.verdict.key(), e.when.text);
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
