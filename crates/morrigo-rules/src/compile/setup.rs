//! Lowering `players:`, `params:` and `setup:`: the names expressions know,
//! the hand size and the stones on the board at the start.

use super::{Basics, Compiler};
use crate::schema::HandFile;
use crate::yaml::Pos;
use crate::Start;
use crate::MAX_IN_HAND;
use morrigo_diag::{did_you_mean, Diagnostic};

impl Compiler<'_> {
    pub(super) fn players(&mut self) -> Vec<String> {
        let players = self
            .loaded
            .file
            .players
            .clone()
            .unwrap_or_else(|| vec!["white".into(), "black".into()]);
        if players.len() != 2 {
            self.error_value(
                &["players"],
                Diagnostic::new(format!(
                    "a ruleset has two players, this one lists {}",
                    players.len()
                ))
                .expected("two names, first to move first"),
            );
        }
        let located: Vec<Pos> = match self.loaded.node(&["players"]) {
            Some(list) => list.items().iter().map(|n| n.pos).collect(),
            None => Vec::new(),
        };
        for (i, p) in players.iter().enumerate().take(2) {
            let at = located.get(i).copied();
            if players[..i].contains(p) {
                let loc = at.and_then(|pos| self.loaded.location(pos));
                self.errors
                    .push(Diagnostic::new(format!("player `{p}` is listed twice")).at_opt(loc));
            }
            self.check_new_name(p, at, "a player");
        }
        players
    }

    pub(super) fn params(&mut self) -> Vec<(String, i64)> {
        let mut out = Vec::new();
        let param_at = self.key_positions("params");
        for (name, value) in self.loaded.file.params.iter().flatten() {
            let at = param_at.get(name).copied();
            self.check_new_name(name, at, "a param");
            let Some(p) = value else {
                continue;
            };
            let (lo, hi) = (p.min.unwrap_or(i64::MIN), p.max.unwrap_or(i64::MAX));
            let range = match (p.min, p.max) {
                (Some(a), Some(b)) => format!("from {a} to {b}"),
                (Some(a), None) => format!("at least {a}"),
                (None, Some(b)) => format!("at most {b}"),
                (None, None) => String::new(),
            };
            if lo > hi {
                self.error_value(
                    &["params", name, "min"],
                    Diagnostic::new(format!("param `{name}` has min {lo} above max {hi}"))
                        .expected("`min` at most `max`"),
                );
            } else if !(lo..=hi).contains(&p.value) {
                // Located where the value was set (a variant's file); a
                // value from no file (a sweep's grid) is left for the
                // caller to locate, with the declaration as a note.
                let set_at = self.loaded.value_at(&["params", name, "value"]);
                let declared_at = self.loaded.value_at(&["params", name]);
                let mut d =
                    Diagnostic::new(format!("param `{name}` is {}, outside its range", p.value))
                        .expected(format!("a value {range}"));
                if set_at.is_none() {
                    if let Some(at) = declared_at {
                        d = d.note(format!("the range is declared at {at}"));
                    }
                }
                self.errors.push(d.at_opt(set_at));
            }
            out.push((name.clone(), p.value));
        }
        out
    }

    /// `setup.in_hand` as (pieces in hand, unlimited); `None` pieces when
    /// missing or over the hand-size limit.
    pub(super) fn hand_size(&mut self, hand: Option<HandFile>) -> (Option<u32>, bool) {
        match hand {
            Some(HandFile::Count(n)) if n > MAX_IN_HAND => {
                self.error_value(
                    &["setup", "in_hand"],
                    Diagnostic::new(format!(
                        "`setup.in_hand: {n}` is more pieces than the engine can count"
                    ))
                    .expected(format!(
                        "at most {} pieces in hand (the hand-size limit), or `unlimited`",
                        MAX_IN_HAND
                    )),
                );
                (None, false)
            }
            Some(HandFile::Count(n)) => (Some(n), false),
            Some(HandFile::Unlimited(_)) => (Some(0), true),
            None => (None, false),
        }
    }

    /// `setup`'s stones and player to move (none without a board), checked
    /// for liberties when board plays capture.
    pub(super) fn checked_start(&mut self, b: &Basics) -> Start {
        let start = b
            .topology
            .as_ref()
            .map(|t| self.start(t, &b.players))
            .unwrap_or_default();
        if let (Some(t), Some(_)) = (&b.topology, &b.play) {
            self.check_start_liberties(t, &b.players, &start);
        }
        start
    }

    /// `setup.stones` and `setup.to_move`: every point on the board, none
    /// given twice or to both players; the players named are the ruleset's.
    pub(super) fn start(&mut self, t: &morrigo_board::Topology, players: &[String]) -> Start {
        let mut start = Start::default();
        let Some(setup) = self.loaded.file.setup.as_ref() else {
            return start;
        };
        if let Some(name) = &setup.to_move {
            match players.iter().position(|p| p == name) {
                Some(i) => start.to_move = i as u8,
                None => self.error_value(
                    &["setup", "to_move"],
                    Diagnostic::new(format!("`setup.to_move: {name}` is not a player"))
                        .expected(format!("one of {}", players.join(", "))),
                ),
            }
        }
        let mut owner: Vec<Option<usize>> = vec![None; t.len()];
        for (name, points) in setup.stones.iter().flatten() {
            let Some(pl) = players.iter().position(|p| p == name) else {
                self.error_key(
                    &["setup", "stones", name],
                    Diagnostic::new(format!("`setup.stones.{name}`: `{name}` is not a player"))
                        .expected(format!("stones of {}", players.join(", "))),
                );
                continue;
            };
            let path = ["setup", "stones", name.as_str()];
            for point in points.iter().flatten() {
                let at = self.list_item(&path, point);
                let Some(p) = t.point(point) else {
                    let mut d = Diagnostic::new(format!(
                        "setup stone `{point}` of {name} is not a point of the board"
                    ))
                    .expected(format!(
                        "a point of the {}-point board, such as `{}`",
                        t.len(),
                        t.name(0)
                    ));
                    // A point two edits away is a guess only in the same column.
                    let near =
                        did_you_mean(point, t.names.iter().map(String::as_str)).filter(|s| {
                            s.get(..1)
                                .zip(point.get(..1))
                                .is_some_and(|(a, b)| a.eq_ignore_ascii_case(b))
                        });
                    if let Some(s) = near {
                        d = d.note(format!("did you mean `{s}`?"));
                    }
                    let sized = ["width", "height"].iter().any(|k| {
                        self.loaded
                            .node(&["board", "grid", k])
                            .is_some_and(|n| n.pos.file == usize::MAX)
                    });
                    if sized {
                        d = d.note("the board's size comes from `--size` on the command line");
                    }
                    self.errors.push(d.at_opt(at));
                    continue;
                };
                match owner[p as usize] {
                    Some(o) => {
                        let what = if o == pl {
                            format!("setup stone `{point}` of {name} is given twice")
                        } else {
                            format!(
                                "setup stone `{point}` is given to both {} and {name}",
                                players[o]
                            )
                        };
                        self.errors.push(
                            Diagnostic::new(what)
                                .at_opt(at)
                                .expected("each point at most once, to one player"),
                        );
                    }
                    None => {
                        owner[p as usize] = Some(pl);
                        start.stones[pl].push(p);
                    }
                }
            }
        }
        for s in &mut start.stones {
            s.sort_unstable();
        }
        start
    }
}
