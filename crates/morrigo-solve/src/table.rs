//! A solved game: the value of every reached position, looked up by its
//! index, and the table's file format.
//!
//! File format (all numbers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 16 | magic `MORRIGO-SOLVE\0\0\0` |
//! | 4 | format version (1) |
//! | 8 | fingerprint of the compiled rules ([`crate::rules_fingerprint`]) |
//! | 4 + n | ruleset name: length, then UTF-8 |
//! | 4 | points on the board |
//! | 1 | 1 when the key keeps the lines formed while removals are owed |
//! | 8 | slot of the position solved from |
//! | 4 | number of segments, then per segment: pieces on the board (2 × u16), in hand (2 × u32), player to move (u8), removals owed (u16), lines formed (u16) |
//! | 8 | number of 64-bit words, then the words: bit i set when index i (segments in order, combinatorial rank within) was reached |
//! | 8 | number of values, then one u16 per reached index in index order: 0 draw, 2d+1 won in d plies, 2d+2 lost in d plies, for the player to move |

use crate::layout::{Layout, SegKey};
use morrigo_engine::Position;
use std::io::{self, Read, Write};

/// The value of a position for the player to move, with the distance to
/// the end in plies under perfect play (the winner hurries, the loser
/// delays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Win(u32),
    Loss(u32),
    Draw,
}

impl Value {
    pub fn decode(v: u16) -> Value {
        match v {
            0 => Value::Draw,
            v if v & 1 == 1 => Value::Win(u32::from(v - 1) / 2),
            v => Value::Loss(u32::from(v - 2) / 2),
        }
    }

    /// The same outcome seen by the other player.
    pub fn flip(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d),
            Value::Loss(d) => Value::Win(d),
            Value::Draw => Value::Draw,
        }
    }

    /// Ordering for the player choosing: quick wins first, then draws,
    /// then slow losses.
    pub fn preference(self) -> i64 {
        match self {
            Value::Win(d) => i64::from(u32::MAX) - i64::from(d),
            Value::Draw => 0,
            Value::Loss(d) => -(i64::from(u32::MAX)) + i64::from(d),
        }
    }
}

/// Which indices of the index space were reached, with a rank directory:
/// reached positions are numbered densely (their *slot*) by counting the
/// reached bits before them, so the tables hold reached positions only.
#[derive(Clone, Debug)]
pub(crate) struct Reached {
    pub(crate) words: Vec<u64>,
    /// Reached positions before each word.
    dir: Vec<u32>,
}

impl Reached {
    pub(crate) fn new(words: Vec<u64>) -> Self {
        let mut dir = Vec::with_capacity(words.len());
        let mut sum = 0u32;
        for w in &words {
            dir.push(sum);
            sum += w.count_ones();
        }
        Reached { words, dir }
    }

    /// The slot of a reached index (`None` if it was not reached).
    #[inline]
    pub(crate) fn slot(&self, i: u64) -> Option<u32> {
        let w = *self.words.get((i / 64) as usize)?;
        let bit = 1u64 << (i % 64);
        (w & bit != 0).then(|| self.dir[(i / 64) as usize] + (w & (bit - 1)).count_ones())
    }

    /// The slot of the first reached index at or after word `w`.
    #[inline]
    pub(crate) fn first_slot(&self, w: usize) -> u32 {
        self.dir[w]
    }

    pub(crate) fn count(&self) -> u64 {
        self.dir.last().map_or(0, |&d| u64::from(d))
            + self.words.last().map_or(0, |w| u64::from(w.count_ones()))
    }
}

/// Every reached position's value.
#[derive(Clone, Debug)]
pub struct Table {
    pub(crate) layout: Layout,
    pub(crate) reached: Reached,
    /// One value per reached position, by slot.
    pub(crate) values: Vec<u16>,
    /// Slot of the position the solve started from.
    pub(crate) start: u32,
}

const MAGIC: &[u8; 16] = b"MORRIGO-SOLVE\0\0\0";
const VERSION: u32 = 1;

/// Why a table file cannot be used.
#[derive(Debug)]
pub enum LoadError {
    Io(io::Error),
    /// Not a table file, or a damaged one.
    Format(String),
    /// A table for other rules: the name in the file and whether only the
    /// rules under the same name differ.
    OtherRules {
        table_ruleset: String,
    },
}

impl Table {
    /// The value of a position for its player to move; `None` for a
    /// position the solve never reached.
    pub fn value<const W: usize>(&self, pos: &Position<W>) -> Option<Value> {
        if pos.on_board[0] as usize + pos.on_board[1] as usize > self.layout.n {
            return None;
        }
        let i = self.layout.index(pos)?;
        let slot = self.reached.slot(i)?;
        Some(Value::decode(*self.values.get(slot as usize)?))
    }

    /// The value of the position the solve started from.
    pub fn start_value(&self) -> Value {
        Value::decode(self.values[self.start as usize])
    }

    pub fn index_space(&self) -> u64 {
        self.layout.total
    }

    /// Positions the table holds.
    pub fn positions(&self) -> u64 {
        self.values.len() as u64
    }

    pub fn save(&self, w: &mut impl Write, ruleset: &str, fingerprint: u64) -> io::Result<()> {
        w.write_all(MAGIC)?;
        w.write_all(&VERSION.to_le_bytes())?;
        w.write_all(&fingerprint.to_le_bytes())?;
        w.write_all(&(ruleset.len() as u32).to_le_bytes())?;
        w.write_all(ruleset.as_bytes())?;
        w.write_all(&(self.layout.n as u32).to_le_bytes())?;
        w.write_all(&[u8::from(self.layout.keep_lines_formed)])?;
        w.write_all(&u64::from(self.start).to_le_bytes())?;
        w.write_all(&(self.layout.segments.len() as u32).to_le_bytes())?;
        for s in &self.layout.segments {
            let k = &s.key;
            for x in k.on_board {
                w.write_all(&x.to_le_bytes())?;
            }
            for x in k.in_hand {
                w.write_all(&x.to_le_bytes())?;
            }
            w.write_all(&[k.to_move])?;
            w.write_all(&k.pending.to_le_bytes())?;
            w.write_all(&k.lines_formed.to_le_bytes())?;
        }
        w.write_all(&(self.reached.words.len() as u64).to_le_bytes())?;
        let mut buf = Vec::with_capacity(1 << 16);
        for chunk in self.reached.words.chunks(1 << 13) {
            buf.clear();
            for v in chunk {
                buf.extend_from_slice(&v.to_le_bytes());
            }
            w.write_all(&buf)?;
        }
        w.write_all(&(self.values.len() as u64).to_le_bytes())?;
        let mut buf = Vec::with_capacity(1 << 16);
        for chunk in self.values.chunks(1 << 15) {
            buf.clear();
            for v in chunk {
                buf.extend_from_slice(&v.to_le_bytes());
            }
            w.write_all(&buf)?;
        }
        Ok(())
    }

    /// Read a table, checking it was solved for rules with this fingerprint.
    pub fn load(r: &mut impl Read, fingerprint: u64) -> Result<Table, LoadError> {
        let bad = |what: &str| LoadError::Format(what.to_string());
        let mut magic = [0u8; 16];
        r.read_exact(&mut magic)
            .map_err(|_| bad("the file is not a solve table (too short)"))?;
        if &magic != MAGIC {
            return Err(bad(
                "the file is not a solve table (no MORRIGO-SOLVE header)",
            ));
        }
        let version = read_u32(r)?;
        if version != VERSION {
            return Err(LoadError::Format(format!(
                "the table has format version {version}; this morrigo reads version {VERSION}"
            )));
        }
        let fp = read_u64(r)?;
        let len = read_u32(r)? as usize;
        if len > 4096 {
            return Err(bad("the table's ruleset name is damaged"));
        }
        let mut name = vec![0u8; len];
        r.read_exact(&mut name).map_err(LoadError::Io)?;
        let name = String::from_utf8_lossy(&name).into_owned();
        if fp != fingerprint {
            return Err(LoadError::OtherRules {
                table_ruleset: name,
            });
        }
        let n = read_u32(r)? as usize;
        if n > morrigo_rules::MAX_POINTS {
            return Err(bad("the table's board size is damaged"));
        }
        let mut keep = [0u8];
        r.read_exact(&mut keep).map_err(LoadError::Io)?;
        let start = read_u64(r)?;
        let mut layout = Layout::new(n, keep[0] == 1);
        let segs = read_u32(r)?;
        for _ in 0..segs {
            let key = SegKey {
                on_board: [read_u16(r)?, read_u16(r)?],
                in_hand: [read_u32(r)?, read_u32(r)?],
                to_move: {
                    let mut b = [0u8];
                    r.read_exact(&mut b).map_err(LoadError::Io)?;
                    b[0]
                },
                pending: read_u16(r)?,
                lines_formed: read_u16(r)?,
            };
            layout
                .add(key)
                .ok_or_else(|| bad("the table's segments are damaged"))?;
        }
        let words = read_u64(r)?;
        if words != layout.total.div_ceil(64) {
            return Err(bad("the table's size does not match its segments"));
        }
        let mut bytes = vec![0u8; words as usize * 8];
        r.read_exact(&mut bytes)
            .map_err(|_| bad("the table is cut short"))?;
        let reached = Reached::new(
            bytes
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
                .collect(),
        );
        drop(bytes);
        let count = read_u64(r)?;
        if count != reached.count() || start >= count {
            return Err(bad("the table's size does not match its positions"));
        }
        let mut bytes = vec![0u8; count as usize * 2];
        r.read_exact(&mut bytes)
            .map_err(|_| bad("the table is cut short"))?;
        let values = bytes
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        Ok(Table {
            layout,
            reached,
            values,
            start: start as u32,
        })
    }
}

fn read_u16(r: &mut impl Read) -> Result<u16, LoadError> {
    let mut b = [0u8; 2];
    r.read_exact(&mut b)
        .map_err(|_| LoadError::Format("the table is cut short".into()))?;
    Ok(u16::from_le_bytes(b))
}

fn read_u32(r: &mut impl Read) -> Result<u32, LoadError> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b)
        .map_err(|_| LoadError::Format("the table is cut short".into()))?;
    Ok(u32::from_le_bytes(b))
}

fn read_u64(r: &mut impl Read) -> Result<u64, LoadError> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)
        .map_err(|_| LoadError::Format("the table is cut short".into()))?;
    Ok(u64::from_le_bytes(b))
}
