//! What captures by removal (`captures.*.take: choose | choose_one`)
//! keep: which rules take that way with their hash keys, built once with
//! the machine, and the choice a move leaves open, logged in the state.
//! [`crate::choose`] opens and settles the choice.

use crate::bits::Bits;
use crate::moves::{Point, NO_POINT};
use crate::ply_log::PlyLog;
use morrigo_rules::{CaptureKind, CaptureTake, Rules};

/// The capture rules taking by removals, and their hash keys.
#[derive(Debug)]
pub(crate) struct ChooseRules {
    /// Bits (as in `Machine::armed_captures`) of the rules taking by removals.
    pub(crate) rules: u64,
    /// Of those, the custodian rules earning one removal (`choose_one`).
    pub(crate) one: u64,
    /// Of those, the custodian rules.
    pub(crate) custodian: u64,
    z_cust: Vec<u64>,
    z_inter: Vec<u64>,
    z_open: u64,
}

impl ChooseRules {
    /// `None` when every capture rule takes its pieces at once. `key` draws
    /// the next hash key (drawn after every other key).
    pub(crate) fn of(rules: &Rules, points: usize, key: &mut dyn FnMut() -> u64) -> Option<Self> {
        let mask = |f: &dyn Fn(&morrigo_rules::CaptureRule) -> bool| {
            rules
                .captures
                .iter()
                .enumerate()
                .filter(|(_, c)| f(c))
                .fold(0u64, |m, (i, _)| m | 1 << i)
        };
        let by_removal = mask(&|c| c.take != CaptureTake::All);
        if by_removal == 0 {
            return None;
        }
        Some(ChooseRules {
            rules: by_removal,
            one: mask(&|c| c.take == CaptureTake::ChooseOne),
            custodian: by_removal & mask(&|c| c.kind == CaptureKind::Custodian),
            z_cust: (0..points).map(|_| key()).collect(),
            z_inter: (0..points).map(|_| key()).collect(),
            z_open: key(),
        })
    }

    /// The part of the position key the choice adds.
    pub(crate) fn key<const W: usize>(&self, c: &Choice<W>) -> u64 {
        let mut k = c.cust.iter().fold(0, |k, p| k ^ self.z_cust[p]);
        k = c.inter.iter().fold(k, |k, p| k ^ self.z_inter[p]);
        if c.open {
            k ^= self.z_open ^ u64::from(c.line).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        k
    }
}

/// The removals a capture by removal left owing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Choice<const W: usize> {
    /// Custodian targets not yet taken.
    pub(crate) cust: Bits<W>,
    /// Intervention targets not yet taken (after the first: its partners).
    pub(crate) inter: Bits<W>,
    /// Removals the completed lines owe (while the choice is open).
    pub(crate) line: u16,
    /// Removals the custodian capture earns.
    pub(crate) cust_owed: u16,
    /// Where the capturing piece landed.
    pub(crate) centre: Point,
    /// The intervention rules armed for the move (to find partners).
    pub(crate) armed: u64,
    /// No removal made yet: captures and the line's removals both open.
    pub(crate) open: bool,
}

impl<const W: usize> Choice<W> {
    pub(crate) const NONE: Self = Choice {
        cust: Bits::EMPTY,
        inter: Bits::EMPTY,
        line: 0,
        cust_owed: 0,
        centre: NO_POINT,
        armed: 0,
        open: false,
    };

    pub(crate) fn active(&self) -> bool {
        self.open || !self.cust.or(self.inter).is_empty()
    }
}

/// The current choice, logged outside the position.
pub(crate) type ChoiceLog<const W: usize> = PlyLog<Choice<W>>;

impl<const W: usize> Default for Choice<W> {
    fn default() -> Self {
        Choice::NONE
    }
}
