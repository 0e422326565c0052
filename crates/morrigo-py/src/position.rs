//! A position of a game with its undo stack ([`Position`]): the engine's
//! width-erased [`GameState`], the plies played with what takes each back,
//! and room for move generation. What `State`, `Game.new_state` and the
//! observation history build on; it names no other module of the crate.

use morrigo_engine::game::{Move, Undo};
use morrigo_engine::{GameState, Outcome};

/// A position, the moves that led to it (for undo), and scratch space for
/// move generation (so no call allocates it anew).
#[derive(Clone, Debug)]
pub struct Position {
    /// The position.
    pub s: GameState,
    /// The plies played from the start, the last one last.
    pub stack: Vec<Ply>,
    /// Move generation's buffer (its content is the last call's moves).
    pub scratch: Vec<Move>,
}

/// A ply played, with what undoes it and the turn it belongs to.
#[derive(Clone, Copy, Debug)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// What takes it back.
    pub undo: Undo,
    /// The turn number it was played in (the observation's history).
    pub turn: u32,
    /// The seat that played it.
    pub mover: u8,
}

impl Position {
    /// The position `s`, with nothing played yet.
    pub fn new(s: GameState) -> Self {
        Position {
            s,
            stack: Vec::new(),
            scratch: Vec::with_capacity(64),
        }
    }

    /// Fill [`Position::scratch`] with the legal moves; how the game
    /// ended, if it is over (the moves are empty then).
    pub fn legal(&mut self) -> Option<Outcome> {
        self.s.legal_moves_into(&mut self.scratch)
    }

    /// Play `mv` (the caller has checked it is legal).
    pub fn push(&mut self, mv: Move) {
        let (turn, mover) = (self.s.turn(), self.s.to_move());
        let undo = self.s.apply_undoable(mv);
        self.stack.push(Ply {
            mv,
            undo,
            turn,
            mover,
        });
    }

    /// Take back the last ply; `None` at the start.
    pub fn pop(&mut self) -> Option<Move> {
        let p = self.stack.pop()?;
        self.s.undo(p.undo);
        Some(p.mv)
    }
}
