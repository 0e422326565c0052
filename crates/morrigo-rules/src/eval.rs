//! The weights of the alpha-beta evaluation: one named number per quantity
//! every ruleset has. A ruleset's `eval:` section may set any of them; the
//! rest keep the default of the ruleset's family.

use serde::Deserialize;

/// Largest weight (in absolute value) an `eval:` entry may give, so that an
/// evaluation stays far from the scores the search gives won positions.
pub const MAX_EVAL_WEIGHT: i64 = 10_000;

/// One value per evaluation term: `EvalTerms<i32>` are the weights,
/// `EvalTerms<Option<i64>>` the `eval:` section as written. Each weight is
/// per unit of the quantity, counted for the player to move minus the
/// opponent; a zero weight is not computed.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize, schemars::JsonSchema,
)]
#[serde(default, deny_unknown_fields)]
#[schemars(bound = "T: schemars::JsonSchema + Default + serde::Serialize")]
pub struct EvalTerms<T> {
    /// Pieces on the board plus pieces in hand (a limited supply).
    pub material: T,
    /// Stones on the board (board-play rulesets, unlimited supply).
    pub on_board: T,
    /// Removals the player to move is owed this turn (a piece about to go).
    pub owed_removals: T,
    /// Empty points next to the player's pieces (moves a slide could make).
    pub mobility: T,
    /// Complete lines.
    pub lines: T,
    /// Lines one piece short of complete, with the missing point empty.
    pub open_lines: T,
    /// Prisoners taken.
    pub captures: T,
    /// Liberties of each chain, counted up to 4 per chain.
    pub liberties: T,
    /// Chains with a single liberty (usually negative).
    pub atari: T,
}

/// The weights the alpha-beta agent evaluates positions with.
pub type EvalWeights = EvalTerms<i32>;

impl<T> EvalTerms<T> {
    /// The terms by name, in the order the file format documents them.
    pub fn terms(&self) -> [(&'static str, &T); 9] {
        [
            ("material", &self.material),
            ("on_board", &self.on_board),
            ("owed_removals", &self.owed_removals),
            ("mobility", &self.mobility),
            ("lines", &self.lines),
            ("open_lines", &self.open_lines),
            ("captures", &self.captures),
            ("liberties", &self.liberties),
            ("atari", &self.atari),
        ]
    }

    /// As [`terms`](Self::terms), to change them.
    pub fn terms_mut(&mut self) -> [(&'static str, &mut T); 9] {
        [
            ("material", &mut self.material),
            ("on_board", &mut self.on_board),
            ("owed_removals", &mut self.owed_removals),
            ("mobility", &mut self.mobility),
            ("lines", &mut self.lines),
            ("open_lines", &mut self.open_lines),
            ("captures", &mut self.captures),
            ("liberties", &mut self.liberties),
            ("atari", &mut self.atari),
        ]
    }
}

impl EvalWeights {
    /// Rulesets that move pieces from a limited hand (the Morris family).
    pub const PIECES: EvalWeights = EvalWeights {
        material: 100,
        on_board: 0,
        owed_removals: 90,
        mobility: 3,
        lines: 10,
        open_lines: 12,
        captures: 0,
        liberties: 0,
        atari: 0,
    };
    /// Rulesets with board plays and captures (the Go family).
    pub const BOARD_PLAYS: EvalWeights = EvalWeights {
        material: 0,
        on_board: 60,
        owed_removals: 0,
        mobility: 0,
        lines: 0,
        open_lines: 0,
        captures: 40,
        liberties: 4,
        atari: -30,
    };

    /// The default weights of a family: with board plays or without.
    pub fn family(board_plays: bool) -> EvalWeights {
        if board_plays {
            Self::BOARD_PLAYS
        } else {
            Self::PIECES
        }
    }
}
