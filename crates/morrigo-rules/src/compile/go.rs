//! Lowering the board-play sections of the Go family: `play:`, `passes:`,
//! `repetition:` and `scoring:`.

use super::Compiler;
use crate::schema::{
    DRunsFile, DeadStonesFile, DerivedFile, ImmediateFile, ImmediateReadingFile, KoCaptureFile,
    RepeatedFile, ScoringMethodFile, SekiFile, SuicideEffectFile, SuicideFile, SuicideShorthand,
    SuperkoFile,
};
use crate::{
    DeadStones, Immediate, ImmediateReading, KoRuns, Passes, PlayRule, Repeated, RepetitionRule,
    Scoring, ScoringMethod, Seki, SuicideEffect, Superko, CLASS_KO_CAPTURE, CLASS_NORMAL,
};
use indexmap::IndexMap;
use morrigo_diag::Diagnostic;

/// Most pass stones one pass may give (`passes.stones`).
pub const MAX_PASS_STONES: u32 = 1000;

impl Compiler<'_> {
    pub(super) fn play_rule(&mut self) -> Option<PlayRule> {
        let p = self.loaded.file.play.as_ref()?;
        let effect = |e: SuicideEffectFile| match e {
            SuicideEffectFile::Lose => SuicideEffect::Lose,
            SuicideEffectFile::Illegal => SuicideEffect::Illegal,
            SuicideEffectFile::Remove => SuicideEffect::Remove,
        };
        let (single, multi) = match p.suicide {
            None | Some(SuicideFile::Both(SuicideShorthand::Illegal)) => {
                (SuicideEffect::Illegal, SuicideEffect::Illegal)
            }
            Some(SuicideFile::Both(SuicideShorthand::Lose)) => {
                (SuicideEffect::Lose, SuicideEffect::Lose)
            }
            Some(SuicideFile::Both(SuicideShorthand::Legal)) => {
                (SuicideEffect::Remove, SuicideEffect::Remove)
            }
            Some(SuicideFile::Split { single, multi }) => (effect(single), effect(multi)),
        };
        let ko_capture = p.ko_capture == Some(KoCaptureFile::Jk);
        let ko_runs = self.derived_classes(p.derived.as_ref(), ko_capture);
        Some(PlayRule {
            suicide_single: single,
            suicide_multi: multi,
            ko_capture,
            ko_runs,
        })
    }

    /// `play.derived`: the derived classes patterns may name. The engine
    /// recognises one kind, runs of ko captures, once per ruleset.
    fn derived_classes(
        &mut self,
        derived: Option<&IndexMap<String, Option<DerivedFile>>>,
        ko_capture: bool,
    ) -> Option<KoRuns> {
        let mut out = None;
        for (name, def) in derived.into_iter().flatten() {
            let Some(def) = def else { continue };
            let letter = name.as_bytes();
            let error = if letter.len() != 1
                || !letter[0].is_ascii_uppercase()
                || matches!(letter[0], CLASS_NORMAL | CLASS_KO_CAPTURE)
            {
                Diagnostic::new(format!("`{name}` cannot name a derived class"))
                    .expected("one upper-case letter other than N and C (those name board plays)")
            } else if let Some(runs) = def.ko_runs.filter(|_| ko_capture && out.is_none()) {
                out = Some(KoRuns {
                    letter: letter[0],
                    four_or_six: runs == DRunsFile::FourOrSix,
                });
                continue;
            } else if def.ko_runs.is_none() {
                Diagnostic::new(format!("derived class `{name}` has no definition")).expected(
                    "`ko_runs: any` (runs of 4, 6, 8, … ko captures) or `ko_runs: four_or_six`",
                )
            } else if !ko_capture {
                Diagnostic::new(format!(
                    "derived class `{name}` is made of ko captures, but plays are not classified as ko captures"
                ))
                .expected("`ko_capture: jk` in `play`")
            } else {
                Diagnostic::new(format!(
                    "derived class `{name}`: only one class of ko-capture runs can be declared"
                ))
            };
            self.error_key(&["play", "derived", name], error);
        }
        out
    }

    /// `derived`: the derived class letter, which a pass kind cannot reuse.
    pub(super) fn passes(&mut self, derived: Option<u8>) -> Passes {
        let Some(p) = self.loaded.file.passes.as_ref() else {
            return Passes::default();
        };
        let mut kinds = Vec::new();
        for k in p.kinds.iter().flatten() {
            let letter = k.as_bytes();
            if letter.len() != 1
                || !letter[0].is_ascii_uppercase()
                || matches!(letter[0], CLASS_NORMAL | CLASS_KO_CAPTURE)
                || derived == Some(letter[0])
            {
                let at = self.list_item(&["passes", "kinds"], k);
                self.errors.push(
                    Diagnostic::new(format!("`{k}` cannot name a pass kind"))
                        .expected(
                            "one upper-case letter other than N, C (those name board plays) and the derived classes",
                        )
                        .at_opt(at),
                );
            } else if kinds.contains(&letter[0]) {
                let at = self.list_item(&["passes", "kinds"], k);
                self.errors
                    .push(Diagnostic::new(format!("pass kind `{k}` is listed twice")).at_opt(at));
            } else {
                kinds.push(letter[0]);
            }
        }
        let stones = p.stones.unwrap_or(0);
        if stones > MAX_PASS_STONES {
            self.error_value(
                &["passes", "stones"],
                Diagnostic::new(format!(
                    "`passes.stones` is {stones}, more than the limit of {MAX_PASS_STONES}"
                ))
                .expected(format!(
                    "a number of pass stones from 0 to {MAX_PASS_STONES}"
                )),
            );
        }
        self.check_pass_stones_have_kinds(!kinds.is_empty(), p.stones.is_some());
        Passes {
            kinds,
            stones: stones.min(MAX_PASS_STONES),
        }
    }

    pub(super) fn repetition(&mut self) -> RepetitionRule {
        let Some(r) = self.loaded.file.repetition.as_ref() else {
            return RepetitionRule::default();
        };
        let default = RepetitionRule::default();
        RepetitionRule {
            immediate: match r.immediate {
                None | Some(ImmediateFile::Allowed) => Immediate::Allowed,
                Some(ImmediateFile::Lose) => Immediate::Lose,
                Some(ImmediateFile::Illegal) => Immediate::Illegal,
            },
            reading: match r.immediate_reading {
                None => default.reading,
                Some(ImmediateReadingFile::SimpleKo) => ImmediateReading::SimpleKo,
                Some(ImmediateReadingFile::Jk) => ImmediateReading::Jk,
            },
            superko: match r.superko {
                None | Some(SuperkoFile::None) => Superko::None,
                Some(SuperkoFile::Positional) => Superko::Positional,
                Some(SuperkoFile::Situational) => Superko::Situational,
            },
            repeated_board: match r.repeated_board {
                None | Some(RepeatedFile::Off) => Repeated::Off,
                Some(RepeatedFile::Captures) => Repeated::Captures,
                Some(RepeatedFile::Draw) => Repeated::Draw,
            },
            count: match r.count {
                None => default.count,
                Some(n) if n < 2 => {
                    self.error_value(
                        &["repetition", "count"],
                        Diagnostic::new(format!(
                            "`repetition.count` is {n}; a board can first repeat at its 2nd occurrence"
                        ))
                        .expected(format!("a number from 2 to {}", u32::MAX)),
                    );
                    default.count
                }
                Some(n) => {
                    if matches!(r.repeated_board, None | Some(RepeatedFile::Off)) {
                        self.error_key(
                            &["repetition", "count"],
                            Diagnostic::new(
                                "`repetition.count` says which occurrence of a board ends the game, but `repeated_board` is off",
                            )
                            .expected("`repeated_board: captures` or `draw`, or no `count`"),
                        );
                    }
                    n
                }
            },
        }
    }

    pub(super) fn scoring(&mut self) -> Option<Scoring> {
        let s = self.loaded.file.scoring.as_ref()?;
        Some(Scoring {
            method: match s.method {
                None | Some(ScoringMethodFile::Area) => ScoringMethod::Area,
                Some(ScoringMethodFile::Jk) => ScoringMethod::Jk,
                Some(ScoringMethodFile::Territory) => ScoringMethod::Territory,
            },
            seki: match (s.seki, s.method) {
                (None | Some(SekiFile::Counted), _) => Seki::Counted,
                (Some(SekiFile::Nobody), Some(ScoringMethodFile::Territory)) => Seki::Nobody,
                (Some(SekiFile::Nobody), _) => {
                    // Only territory scoring reads seki; elsewhere it would do nothing.
                    self.error_value(
                        &["scoring", "seki"],
                        Diagnostic::new("`scoring.seki: nobody` applies to territory scoring only")
                            .expected("`method: territory`, or no `seki`"),
                    );
                    Seki::Counted
                }
            },
            komi: match s.komi {
                Some(k) if !k.is_finite() => {
                    self.error_value(
                        &["scoring", "komi"],
                        Diagnostic::new(format!("`scoring.komi` is {k}"))
                            .expected("a finite number such as 6.5 or -3"),
                    );
                    0.0
                }
                k => k.unwrap_or(0.0),
            },
            last_move_stone: match (s.last_move_stone, s.method) {
                (Some(true), None | Some(ScoringMethodFile::Area)) => {
                    // Area scoring counts stones and territory, never prisoners.
                    self.error_value(
                        &["scoring", "last_move_stone"],
                        Diagnostic::new(
                            "`scoring.last_move_stone` gives a pass stone, which area scoring does not count",
                        )
                        .expected("`method: jk` (territory + prisoners), or no `last_move_stone`"),
                    );
                    false
                }
                (v, _) => v.unwrap_or(false),
            },
            dead_stones: match s.dead_stones {
                None | Some(DeadStonesFile::None) => DeadStones::None,
                Some(DeadStonesFile::Agreement) => DeadStones::Agreement,
            },
        })
    }
}
