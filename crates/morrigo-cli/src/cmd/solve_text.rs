//! Values and lines of a solved Morris-style game in words, shared by
//! `solve`, `solve_db` and `solve_layers`.

use crate::game;
use morrigo_engine::{Move, MoveKind};
use morrigo_rules::Rules;
use morrigo_solve::Value;

/// The start's value in words: for the whole game, who wins; from a
/// position, for the player to move (`to_move`).
pub(crate) fn value_text(rules: &Rules, to_move: u8, v: Value, whole_game: bool) -> String {
    let me = game::player_name(rules, to_move);
    let other = game::player_name(rules, to_move ^ 1);
    let seat = |p: u8| {
        if p == 0 {
            "the first player wins"
        } else {
            "the second player wins"
        }
    };
    match v {
        Value::Win(d) if whole_game => {
            format!("{me} wins in {} ({})", plies(d), seat(to_move))
        }
        Value::Loss(d) if whole_game => {
            format!("{other} wins in {} ({})", plies(d), seat(to_move ^ 1))
        }
        Value::Draw if whole_game => "draw (neither side can force a win)".to_string(),
        Value::Win(d) => format!("{me} (to move) wins in {}", plies(d)),
        Value::Loss(d) => format!("{other} wins in {} ({me} to move loses)", plies(d)),
        Value::Draw => "draw (neither side can force a win)".to_string(),
    }
}

pub(crate) fn plies(d: u32) -> String {
    if d == 1 {
        "1 ply".to_string()
    } else {
        format!("{d} plies")
    }
}

pub(crate) fn move_value_text(v: Value) -> String {
    match v {
        Value::Win(d) => format!("wins in {d}"),
        Value::Loss(d) => format!("loses in {d}"),
        Value::Draw => "draws".to_string(),
    }
}

/// Moves as a record: removals joined to the move that owed them.
pub(crate) fn line_text(rules: &Rules, line: &[Move]) -> String {
    let mut turns: Vec<String> = Vec::new();
    for mv in line {
        let text = morrigo_engine::notation::format_move_in(rules, mv);
        match (mv.kind, turns.last_mut()) {
            (MoveKind::Remove, Some(last)) => last.push_str(&text),
            _ => turns.push(text),
        }
    }
    if turns.is_empty() {
        "(none: the game is over)".to_string()
    } else {
        turns.join(" ")
    }
}
