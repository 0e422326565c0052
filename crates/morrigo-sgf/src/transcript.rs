//! A replayed game ([`Transcript`]) as SGF: its board plays and passes,
//! and the result (a resignation or agreement from the record, otherwise
//! the engine's outcome). `morrigo replay --to-sgf` and the web
//! playground write SGF through here.

use crate::{GameResult, Margin};
use morrigo_diag::Diagnostic;
use morrigo_engine::{notation, GameState};
use morrigo_record::{Status, Transcript};

/// The SGF text of a replayed game from the ruleset's start.
pub fn export_transcript(s: &GameState, t: &Transcript) -> Result<String, Diagnostic> {
    let start = &s.rules().start;
    export_transcript_from(s, t, &start.stones, start.to_move)
}

/// [`export_transcript`] of a game played from a set-up position.
pub fn export_transcript_from(
    s: &GameState,
    t: &Transcript,
    setup: &[Vec<u16>; 2],
    first_player: u8,
) -> Result<String, Diagnostic> {
    let rules = s.rules();
    let mut moves = Vec::new();
    for p in &t.plies {
        if is_session_end(&p.mv) {
            continue;
        }
        for intent in notation::parse_token_in(rules, &p.mv, None)? {
            moves.push(notation::intent_move(rules, intent));
        }
    }
    let result = transcript_result(s, t)?;
    crate::export_game(rules, setup, first_player, &moves, &result)
}

fn is_session_end(mv: &str) -> bool {
    let lower = mv.to_ascii_lowercase();
    lower == "resign" || lower == "agree" || lower.starts_with("agree:")
}

/// The SGF result of a replayed game: resignations and agreements from
/// the record, otherwise the engine's outcome.
pub fn transcript_result(s: &GameState, t: &Transcript) -> Result<GameResult, Diagnostic> {
    let rules = s.rules();
    if t.result.status == Status::Ongoing {
        return Ok(GameResult::Ongoing);
    }
    let winner = t
        .result
        .winner
        .as_ref()
        .and_then(|w| rules.players.iter().position(|p| p == w))
        .map(|i| i as u8);
    let last = t.plies.last().map(|p| p.mv.to_ascii_lowercase());
    let resigned = t.result.reason.as_deref() == Some("resignation");
    match last.as_deref() {
        _ if resigned => Ok(match winner {
            Some(player) => GameResult::Win {
                player,
                margin: Margin::Resign,
            },
            None => GameResult::Draw,
        }),
        Some(agree) if agree == "agree" || agree.starts_with("agree:") => {
            let dead: Vec<u16> = agree
                .split_once(':')
                .into_iter()
                .flat_map(|(_, list)| list.split(','))
                .filter_map(|name| {
                    rules
                        .topology
                        .points()
                        .find(|&p| rules.topology.name(p).eq_ignore_ascii_case(name))
                })
                .collect();
            let score = s.score_with_dead(&dead);
            Ok(match morrigo_engine::winner(score) {
                Some(player) => GameResult::Win {
                    player,
                    margin: Margin::Score((score[0] - score[1]).abs()),
                },
                None => GameResult::Draw,
            })
        }
        _ => Ok(crate::result_of(s, s.legal_moves().err())),
    }
}
