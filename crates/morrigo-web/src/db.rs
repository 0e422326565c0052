//! Exact values from a solved database (`morrigo serve --db DIR`): with
//! one, every position the page is sent carries the value of the
//! position and of each legal move, when the database was solved for the
//! request's rules.
//!
//! The directory is a `morrigo solve RULESET --db DIR` database, opened
//! read only ([`morrigo_play::database`]: its list of units once, each
//! unit's file when first needed, sealed and checked, every file resolved
//! inside the directory). Values are those of the rules as solved: without
//! their history draw rules (repetition, move limits), as `perfect` plays.

use morrigo_engine::{with_machine, GameState};
use morrigo_solve::Value as Exact;
use serde_json::{json, Value};

/// A value for the player it is given for: `{"outcome": "win", "plies": 9}`.
pub fn value_json(v: Exact) -> Value {
    match v {
        Exact::Win(d) => json!({ "outcome": "win", "plies": d }),
        Exact::Loss(d) => json!({ "outcome": "loss", "plies": d }),
        Exact::Draw => json!({ "outcome": "draw", "plies": null }),
    }
}

/// Add the database's values to `pos` (the JSON of
/// [`crate::game::position`] for `s`): `exact` with the position's value
/// for the player to move (or why there is none), and a `value` on each
/// legal move, for the player who plays it.
pub fn add_values(pos: &mut Value, s: &GameState, dir: &'static str) {
    let table = match morrigo_play::database(s.rules(), dir) {
        Ok(t) => t,
        Err(why) => {
            pos["exact"] = json!({ "value": null, "error": why });
            return;
        }
    };
    if pos["over"].as_bool().unwrap_or(true) {
        pos["exact"] = json!({ "value": null, "error": "the game is over" });
        return;
    }
    // The one crossing to width-generic code: the table reads the
    // machine's positions.
    let (values, turn_start) = with_machine!(s.game().machine().as_ref(), m => {
        let (_, s) = s.parts().expect("a state has its game's width");
        let mut s = s.clone();
        let mut moves = Vec::new();
        m.legal_moves(&s, &mut moves);
        // The page's legal list is this one, in this order.
        let values: Vec<Option<Exact>> =
            moves.iter().map(|&mv| table.after(m, &mut s, mv)).collect();
        let turn_start = (s.pos.pending == 0).then(|| table.value(&s.pos));
        (values, turn_start)
    });
    if let Some(legal) = pos["legal"].as_array_mut() {
        for (entry, v) in legal.iter_mut().zip(&values) {
            entry["value"] = v.map_or(Value::Null, value_json);
        }
    }
    // A removal owed is no turn start: its value is its best removal's.
    let here = match turn_start {
        Some(value) => value,
        None => values
            .iter()
            .copied()
            .collect::<Option<Vec<Exact>>>()
            .and_then(|vs| vs.into_iter().max_by_key(|v| v.preference())),
    };
    let error = match here {
        Some(_) => None,
        None => Some(table.read_error().unwrap_or_else(|| {
            "the database does not hold this position (no game from the start of these rules reaches it)".to_string()
        })),
    };
    pos["exact"] = json!({ "value": here.map(value_json), "error": error });
}
