//! 3×3 shapes for the Monte Carlo playouts (the `playout.shapes` section):
//! a point whose eight surroundings match a shape is a good reply to the
//! last board play next to it. MoGo's idea (Gelly et al., 2006), written as
//! Pachi's `moggy` policy writes its patterns, so a ruleset can carry the
//! shapes that fit its game instead of the engine knowing one game's.
//!
//! A shape is nine cells, row by row from the top, the centre (the point to
//! play) empty: `X` and `O` the two players' stones, `.` empty, `#` off the
//! board, `x` anything but an `X` stone, `o` anything but an `O` stone,
//! `?` anything. It holds in all eight rotations and reflections, and for
//! either player to move unless `to_move` names the one whose stones are
//! `X` (or `O`). Compiled into one bit per neighbourhood code, so the
//! playout tests a point with one table lookup.

// What one of the eight cells around a point holds, from the view of the
// player to move: the two bits of a cell in a neighbourhood code.
/// An empty point.
pub const CELL_EMPTY: u16 = 0;
/// A stone of the player to move.
pub const CELL_MOVER: u16 = 1;
/// An opposing stone.
pub const CELL_OPPONENT: u16 = 2;
/// No point: off the board.
pub const CELL_OFF_BOARD: u16 = 3;

/// The neighbourhood codes of a 3×3 shape's eight cells: 2 bits a cell.
const CODES: usize = 1 << 16;

/// Every neighbourhood in which some shape holds, for the player to move.
#[derive(Clone, PartialEq, Eq)]
pub struct ShapeTable {
    matches: Box<[u64; CODES / 64]>,
    /// The shapes' names, in file order (for `show`).
    pub names: Vec<String>,
}

impl std::fmt::Debug for ShapeTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShapeTable")
            .field("names", &self.names)
            .field("codes", &self.count())
            .finish()
    }
}

/// One shape as written: its nine cells and who may play its centre.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// The nine cells, row by row from the top, as written (`X`, `O`, `.`,
    /// `#`, `x`, `o`, `?`).
    pub cells: [u8; 9],
    /// `Some(b'X')`: only when the player to move owns the `X` stones.
    pub to_move: Option<u8>,
}

impl Shape {
    /// Read `rows` (nine cells, spaces and `/` between rows ignored) and
    /// `to_move`; the error says what was expected.
    pub fn parse(rows: &str, to_move: Option<&str>) -> Result<Shape, String> {
        let cells: Vec<u8> = rows
            .bytes()
            .filter(|b| !b.is_ascii_whitespace() && *b != b'/')
            .collect();
        if cells.len() != 9 {
            return Err(format!(
                "`{rows}` has {} cells; a shape has nine, three rows of three",
                cells.len()
            ));
        }
        if let Some(&bad) = cells.iter().find(|b| !b"XO.#xo?".contains(b)) {
            return Err(format!(
                "`{}` is not a shape cell (X, O, ., #, x, o or ?)",
                bad as char
            ));
        }
        if cells[4] != b'.' {
            return Err(format!(
                "the centre of `{rows}` is `{}`: it is the point to play, so `.`",
                cells[4] as char
            ));
        }
        let to_move = match to_move {
            None => None,
            Some("X") => Some(b'X'),
            Some("O") => Some(b'O'),
            Some(other) => {
                return Err(format!("`to_move: {other}` names no shape colour (X or O)"))
            }
        };
        let mut c = [0; 9];
        c.copy_from_slice(&cells);
        Ok(Shape { cells: c, to_move })
    }
}

/// The cell values a shape character allows when the mover's stones are
/// `mine` (`X` or `O`), as a 4-bit set over the cell values.
fn allowed(ch: u8, mine: u8) -> u8 {
    let stone = |c: u8| if c == mine { CELL_MOVER } else { CELL_OPPONENT };
    let one = |v: u16| 1u8 << v;
    match ch {
        b'.' => one(CELL_EMPTY),
        b'#' => one(CELL_OFF_BOARD),
        b'?' => 0b1111,
        b'X' | b'O' => one(stone(ch)),
        b'x' => 0b1111 & !one(stone(b'X')),
        _ => 0b1111 & !one(stone(b'O')),
    }
}

/// The cells' offsets from the centre, in code order: the board's own.
use morrigo_board::SQUARE_CELL_STEPS as STEPS;

/// One of the square's eight rotations and reflections, on cell offsets.
type Dihedral = fn(i32, i32) -> (i32, i32);

impl ShapeTable {
    /// The table of every neighbourhood in which one of `shapes` holds, in any
    /// of its eight rotations and reflections; `names` are kept for `show`.
    pub fn compile(shapes: &[Shape], names: Vec<String>) -> ShapeTable {
        let mut matches = Box::new([0u64; CODES / 64]);
        let symmetries: [Dihedral; 8] = [
            |x, y| (x, y),
            |x, y| (-x, y),
            |x, y| (x, -y),
            |x, y| (-x, -y),
            |x, y| (y, x),
            |x, y| (-y, x),
            |x, y| (y, -x),
            |x, y| (-y, -x),
        ];
        for shape in shapes {
            let movers: &[u8] = match shape.to_move {
                Some(b'X') => b"X",
                Some(_) => b"O",
                None => b"XO",
            };
            for &mine in movers {
                for sym in symmetries {
                    // The cell values allowed at each code slot.
                    let mut sets = [0u8; 8];
                    for &(dx, dy) in &STEPS {
                        let ch = shape.cells[((1 - dy) * 3 + dx + 1) as usize];
                        let to = sym(dx, dy);
                        let slot = STEPS
                            .iter()
                            .position(|&s| s == to)
                            .expect("a symmetry maps cells to cells");
                        sets[slot] = allowed(ch, mine);
                    }
                    mark(&mut matches, &sets, 0, 0);
                }
            }
        }
        ShapeTable { matches, names }
    }

    /// Whether some shape holds around a point whose neighbourhood code
    /// is `code` (cell `i` in bits `2i..2i+2`, in [`CELL_EMPTY`]… values).
    #[inline(always)]
    pub fn matches(&self, code: u16) -> bool {
        self.matches[code as usize >> 6] >> (code & 63) & 1 != 0
    }

    /// How many neighbourhood codes some shape holds in.
    pub fn count(&self) -> u32 {
        self.matches.iter().map(|w| w.count_ones()).sum()
    }
}

/// Set the bit of every code whose slot `i..` values lie in `sets[i..]`.
fn mark(table: &mut [u64; CODES / 64], sets: &[u8; 8], slot: usize, code: u16) {
    if slot == 8 {
        table[code as usize >> 6] |= 1 << (code & 63);
        return;
    }
    for v in 0..4u16 {
        if sets[slot] >> v & 1 != 0 {
            mark(table, sets, slot + 1, code | v << (2 * slot));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(cells: [u16; 8]) -> u16 {
        cells
            .iter()
            .enumerate()
            .fold(0, |c, (i, &v)| c | v << (2 * i))
    }

    const E: u16 = CELL_EMPTY;
    const M: u16 = CELL_MOVER;
    const P: u16 = CELL_OPPONENT;
    const F: u16 = CELL_OFF_BOARD;

    /// The enclosing hane `XOX / ... / ???` holds as written, rotated, and
    /// for either colour; an empty neighbourhood matches nothing.
    #[test]
    fn a_shape_holds_in_every_rotation_and_for_either_player() {
        let hane = Shape::parse("XOX ... ???", None).unwrap();
        let t = ShapeTable::compile(&[hane], vec!["hane".into()]);
        assert!(t.matches(code([M, P, M, E, E, E, E, E])));
        assert!(t.matches(code([P, M, P, E, E, F, F, F])), "colours swapped");
        // Rotated a quarter turn: the stones down the left column.
        assert!(t.matches(code([M, E, E, P, E, M, E, E])));
        assert!(!t.matches(code([E; 8])));
        assert!(!t.matches(code([M, P, E, E, E, E, E, E])));
    }

    /// `to_move: X` keeps a shape to the player whose stones are `X`.
    #[test]
    fn a_shape_for_one_colour_holds_only_for_that_player_to_move() {
        let thin = Shape::parse("XOO/.../?.?", Some("X")).unwrap();
        let t = ShapeTable::compile(&[thin], vec!["thin hane".into()]);
        assert!(t.matches(code([M, P, P, E, E, E, E, E])));
        assert!(!t.matches(code([P, M, M, E, E, E, E, E])));
    }

    /// `x` is anything but an X stone, off the board included.
    #[test]
    fn a_negated_cell_allows_everything_but_its_stone() {
        let s = Shape::parse("XO? X.. x.?", Some("X")).unwrap();
        let t = ShapeTable::compile(&[s], vec![]);
        assert!(t.matches(code([M, P, E, M, E, F, E, E])));
        assert!(t.matches(code([M, P, E, M, E, P, E, E])));
        assert!(!t.matches(code([M, P, E, M, E, M, E, E])));
    }

    #[test]
    fn a_malformed_shape_says_what_a_shape_is() {
        assert!(Shape::parse("XOX ...", None).unwrap_err().contains("nine"));
        assert!(Shape::parse("XOX .X. ???", None)
            .unwrap_err()
            .contains("centre"));
        assert!(Shape::parse("XOZ ... ???", None)
            .unwrap_err()
            .contains("`Z`"));
        assert!(Shape::parse("XOX ... ???", Some("B"))
            .unwrap_err()
            .contains("X or O"));
    }
}
