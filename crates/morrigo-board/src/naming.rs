//! Point names for generated boards.

use crate::Naming;

/// Widest (and tallest) board with algebraic names: columns `a`..`z`.
pub const MAX_ALGEBRAIC_SIZE: u32 = 26;
/// Widest (and tallest) board with GTP names: `A`..`Z` without `I`.
pub const MAX_GTP_SIZE: u32 = 25;

const GTP_COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
const ALGEBRAIC_COLUMNS: &[u8] = b"abcdefghijklmnopqrstuvwxyz";

impl Naming {
    /// Largest width or height this naming can label.
    pub fn max_size(self) -> u32 {
        match self {
            Naming::Algebraic => MAX_ALGEBRAIC_SIZE,
            Naming::Gtp => MAX_GTP_SIZE,
        }
    }
}

/// Letter of column `x` (0-based from the left), if the naming has one.
pub fn column_label(naming: Naming, x: u32) -> Option<char> {
    let letters = match naming {
        Naming::Algebraic => ALGEBRAIC_COLUMNS,
        Naming::Gtp => GTP_COLUMNS,
    };
    let i = usize::try_from(x).ok()?;
    letters.get(i).map(|&b| char::from(b))
}

/// Name of the point in column `x`, row `y` (both 0-based, from bottom-left).
pub fn point_name(naming: Naming, x: u32, y: u32) -> Option<String> {
    let column = column_label(naming, x)?;
    let row = y.checked_add(1)?;
    Some(format!("{column}{row}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_columns_skip_i() {
        assert_eq!(column_label(Naming::Gtp, 7), Some('H'));
        assert_eq!(column_label(Naming::Gtp, 8), Some('J'));
        assert_eq!(column_label(Naming::Gtp, 24), Some('Z'));
        assert_eq!(column_label(Naming::Gtp, 25), None);
    }

    #[test]
    fn algebraic_names_count_rows_from_one() {
        assert_eq!(point_name(Naming::Algebraic, 0, 0).as_deref(), Some("a1"));
        assert_eq!(
            point_name(Naming::Algebraic, 25, 25).as_deref(),
            Some("z26")
        );
        assert_eq!(point_name(Naming::Algebraic, 26, 0), None);
    }
}
