//! The one crossing from the engine's width-erased game API
//! ([`GameState`], [`game::Move`]) into this crate's agents and ownership
//! playouts, which are hot loops compiled per board width: the front ends
//! (the CLI's `play`, GTP, Python, the playground) call these and never
//! name a width.

use crate::agent::Player;
use crate::ownership::{dead_chains, ownership};
use morrigo_engine::{game, with_machine, GameState, Move, Point};
use rand::rngs::SmallRng;
use std::time::Instant;

/// Run width-generic code on the machine and typed state of a
/// [`GameState`]: `at_width!(gs, m, s => body)`, `s` a `&State<W>`.
macro_rules! at_width {
    ($gs:expr, $m:ident, $s:ident => $body:expr) => {
        with_machine!($gs.game().machine().as_ref(), $m => {
            let (_, $s) = $gs.parts().expect("a state has its game's width");
            $body
        })
    };
}

/// The packed moves of `moves`.
fn packed(moves: &[game::Move]) -> Vec<Move> {
    moves.iter().map(|mv| mv.packed()).collect()
}

impl Player {
    /// [`Player::choose`] on the game API: the move the agent picks among
    /// `moves` (the non-empty legal moves of `s`). Exists so that front
    /// ends holding a [`GameState`] reach the width-generic agents through
    /// one crossing; `s` is left as it was (the agent probes moves with
    /// apply/undo on its own copy).
    pub fn choose_in(
        &mut self,
        s: &GameState,
        moves: &[game::Move],
        rng: &mut SmallRng,
    ) -> game::Move {
        let moves = packed(moves);
        at_width!(s, m, s => {
            let mut s = s.clone();
            game::Move::from(self.choose(m, &mut s, &moves, rng))
        })
    }

    /// [`Player::exact_values`] on the game API: the perfect agent's value
    /// of each of `moves` at `s` (`None` for other agents or where its
    /// table lacks a value). The one crossing into the width-generic
    /// table for a front end holding a [`GameState`]; `s` is left as it
    /// was.
    pub fn exact_values_in(
        &mut self,
        s: &GameState,
        moves: &[game::Move],
    ) -> Option<Vec<(Move, morrigo_solve::Value)>> {
        let moves = packed(moves);
        at_width!(s, m, s => {
            let mut s = s.clone();
            self.exact_values(m, &mut s, &moves)
        })
    }

    /// [`Player::principal_variation`] on the game API: the line the last
    /// search expects from `s`, at most `max` plies (call it with the
    /// position the search started from). The one crossing into the
    /// width-generic search for a front end holding a [`GameState`].
    pub fn principal_variation_in(&self, s: &GameState, max: usize) -> Vec<Move> {
        at_width!(s, m, s => self.principal_variation(m, s, max))
    }
}

/// The stones of the chains of `s` that [`ownership`] playouts (up to
/// `playouts` of at most `plies` plies, seeded by `seed`, stopped at
/// `deadline`) give to the opponent in at least `threshold` of them (see
/// [`dead_chains`]; seki not excluded), in point order. The game API's
/// dead-stone estimate: the one crossing into the width-generic playouts
/// for a front end holding a [`GameState`] (GTP's `final_status_list`).
pub fn dead_stones(
    s: &GameState,
    playouts: u32,
    plies: u32,
    seed: u64,
    deadline: Instant,
    threshold: f64,
) -> Vec<Point> {
    at_width!(s, m, s => {
        let own = ownership(m, s, playouts, plies, seed, deadline);
        dead_chains(m, s, &own, threshold)
            .iter()
            .map(|p| p as Point)
            .collect()
    })
}
