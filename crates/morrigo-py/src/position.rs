//! A position of a game with its undo stack, at the width of its game's
//! machine: [`Core`] for one width, [`AnyState`] for any, and `with_core!`
//! to run width-generic code on a game's machine and a state of it. What
//! `State`, `Game.new_state`, the observation history and the agents build
//! on; it names no other module of the crate.

use morrigo_engine::{Machine, Move, State, Undo};

/// A position, the moves that led to it (for undo), and scratch space for
/// move generation (so no call allocates it anew).
#[derive(Clone, Debug)]
pub struct Core<const W: usize> {
    /// The position.
    pub s: State<W>,
    /// The plies played from the start, the last one last.
    pub stack: Vec<Ply<W>>,
    /// Move generation's buffer (its content is the last call's moves).
    pub scratch: Vec<Move>,
}

/// A ply played, with what undoes it and the turn it belongs to.
#[derive(Clone, Debug)]
pub struct Ply<const W: usize> {
    /// The move played.
    pub mv: Move,
    /// What takes it back.
    pub undo: Undo<W>,
    /// The turn number it was played in (the observation's history).
    pub turn: u32,
    /// The seat that played it.
    pub mover: u8,
}

impl<const W: usize> Core<W> {
    /// The position `s`, with nothing played yet.
    pub fn new(s: State<W>) -> Self {
        Core {
            s,
            stack: Vec::new(),
            scratch: Vec::with_capacity(64),
        }
    }

    /// Play `mv` (the caller has checked it is legal).
    pub fn push(&mut self, m: &Machine<W>, mv: Move) {
        let (turn, mover) = (self.s.pos.turn, self.s.pos.to_move);
        let undo = m.apply(&mut self.s, mv);
        self.stack.push(Ply {
            mv,
            undo,
            turn,
            mover,
        });
    }

    /// Take back the last ply; `None` at the start.
    pub fn pop(&mut self, m: &Machine<W>) -> Option<Move> {
        let p = self.stack.pop()?;
        m.undo(&mut self.s, p.undo);
        Some(p.mv)
    }
}

/// A [`Core`] of the width its game's machine has.
#[derive(Clone, Debug)]
pub enum AnyState {
    /// Boards of up to 64 points.
    W1(Core<1>),
    /// Up to 128 points.
    W2(Core<2>),
    /// Up to 256 points.
    W4(Core<4>),
    /// Up to 384 points.
    W6(Core<6>),
    /// Up to the engine's largest board (`MAX_POINTS`).
    W10(Core<10>),
}

macro_rules! from_core {
    ($($w:literal => $v:ident),*) => {$(
        impl From<Core<$w>> for AnyState {
            fn from(c: Core<$w>) -> Self {
                AnyState::$v(c)
            }
        }
    )*};
}
from_core!(1 => W1, 2 => W2, 4 => W4, 6 => W6, 10 => W10);

/// Run width-generic code on a game's machine and a state of it.
macro_rules! with_core {
    ($game:expr, $state:expr, $m:ident, $c:ident => $body:expr) => {
        match (&$game.machine, $state) {
            (morrigo_engine::AnyMachine::W1($m), $crate::position::AnyState::W1($c)) => $body,
            (morrigo_engine::AnyMachine::W2($m), $crate::position::AnyState::W2($c)) => $body,
            (morrigo_engine::AnyMachine::W4($m), $crate::position::AnyState::W4($c)) => $body,
            (morrigo_engine::AnyMachine::W6($m), $crate::position::AnyState::W6($c)) => $body,
            (morrigo_engine::AnyMachine::W10($m), $crate::position::AnyState::W10($c)) => $body,
            _ => unreachable!("a state has the width of its game's machine"),
        }
    };
}
pub(crate) use with_core;
