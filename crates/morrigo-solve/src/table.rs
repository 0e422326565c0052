//! A solved game: the value of every reached position, looked up by its
//! index, and the table's file format.
//!
//! File format (all numbers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 16 | magic `MORRIGO-SOLVE\0\0\0` |
//! | 4 | format version (2) |
//! | 8 | fingerprint of the compiled rules ([`crate::rules_fingerprint`]) |
//! | 4 + n | ruleset name: length, then UTF-8 |
//! | 4 | points on the board |
//! | 1 | 1 when the key keeps the lines formed while removals are owed |
//! | 8 | slot of the position solved from |
//! | 4 | number of segments, then per segment: pieces on the board (2 × u16), in hand (2 × u32), player to move (u8), removals owed (u16), lines formed (u16) |
//! | 8 | number of 64-bit words, then the words: bit i set when index i (segments in order, combinatorial rank within) was reached |
//! | 8 | number of values, then one u16 per reached index in index order: 0 draw, 2d+1 won in d plies, 2d+2 lost in d plies, for the player to move |
//! | 28 | morrigo-store's trailer: kind `MRGSOLVE`, the length of all the above, its CRC-32 |
//!
//! A damaged table (any changed bit, a cut) is refused by its checksum,
//! never used; version 1 (before the checksum) is refused, asking for the
//! solve to be run again.

use crate::layout::{Layout, SegKey};
use morrigo_engine::memory::{self, OutOfMemory};
use morrigo_engine::Position;
use std::io::BufRead;
use std::io::{self, Read, Write};
use std::path::Path;

/// The value of a position for the player to move, with the distance to
/// the end in plies under perfect play (the winner hurries, the loser
/// delays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Won, in this many plies.
    Win(u32),
    /// Lost, in this many plies.
    Loss(u32),
    /// Neither player can force a win.
    Draw,
}

impl Value {
    /// A value as the table stores it: 0 draw, 2d+1 won in d plies, 2d+2
    /// lost in d plies.
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
    pub(crate) fn new(words: Vec<u64>) -> Result<Self, OutOfMemory> {
        let mut dir = memory::vec_with_capacity(words.len(), "the directory of reached positions")?;
        let mut sum = 0u32;
        for w in &words {
            dir.push(sum);
            sum += w.count_ones();
        }
        Ok(Reached { words, dir })
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
const VERSION: u32 = 2;
/// The kind in the table's checksum trailer.
pub const KIND: &morrigo_store::Kind = b"MRGSOLVE";
/// The magic and the version.
const HEADER: usize = 20;

/// Why a table file cannot be used.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read.
    Io(io::Error),
    /// Not a table file, or a damaged one.
    Format(String),
    /// A table for other rules: the name in the file and whether only the
    /// rules under the same name differ.
    OtherRules {
        /// The ruleset name written in the table.
        table_ruleset: String,
    },
    /// The file is not what was written (a changed bit, cut short): why.
    Damaged(String),
    /// A table of an older format (version 1 had no checksum).
    OldVersion {
        /// The format version in the file.
        version: u32,
    },
    /// Reading the table would pass the memory budget.
    Memory(OutOfMemory),
}

impl std::fmt::Display for LoadError {
    /// The reason, for a message that names the file first.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot be read: {e}"),
            LoadError::Format(why) => write!(f, "{why}"),
            LoadError::OtherRules { table_ruleset } => write!(
                f,
                "was solved for other rules (`{table_ruleset}`, or the same name with different rules)"
            ),
            LoadError::Damaged(why) => write!(f, "is damaged: {why}; it is not used"),
            LoadError::OldVersion { version } => write!(
                f,
                "is a table of format version {version}, from before tables carried a checksum; this morrigo reads version {VERSION}: run the solve again (`morrigo solve RULESET --save FILE`)"
            ),
            LoadError::Memory(e) => write!(f, "cannot be loaded: {e}"),
        }
    }
}

impl From<OutOfMemory> for LoadError {
    fn from(e: OutOfMemory) -> Self {
        LoadError::Memory(e)
    }
}

fn damaged(e: morrigo_store::StoreError) -> LoadError {
    match e {
        morrigo_store::StoreError::Damaged { why, .. } => LoadError::Damaged(why),
        morrigo_store::StoreError::Io { source, .. } => LoadError::Io(source),
        other => LoadError::Format(other.to_string()),
    }
}

/// Check the magic and the version at the start of a table file.
fn check_header(head: &[u8]) -> Result<(), LoadError> {
    if head.len() < HEADER {
        return Err(LoadError::Format(
            "the file is not a solve table (too short)".into(),
        ));
    }
    if &head[..16] != MAGIC {
        return Err(LoadError::Format(
            "the file is not a solve table (no MORRIGO-SOLVE header)".into(),
        ));
    }
    let version = u32::from_le_bytes(head[16..20].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(LoadError::OldVersion { version });
    }
    Ok(())
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

    /// Size of the index space the table was solved over: every position
    /// of the reached segments, reached or not.
    pub fn index_space(&self) -> u64 {
        self.layout.total
    }

    /// Positions the table holds.
    pub fn positions(&self) -> u64 {
        self.values.len() as u64
    }

    /// Write the table, sealed with its checksum.
    pub fn save(&self, w: &mut impl Write, ruleset: &str, fingerprint: u64) -> io::Result<()> {
        let mut w = morrigo_store::SealedWriter::new(KIND, w);
        self.write_payload(&mut w, ruleset, fingerprint)?;
        w.finish()?.flush()
    }

    fn write_payload(&self, w: &mut impl Write, ruleset: &str, fingerprint: u64) -> io::Result<()> {
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

    /// Read a table held in memory (`name` for messages), checking its
    /// checksum, then that it was solved for rules with this fingerprint.
    pub fn from_bytes(name: &Path, bytes: &[u8], fingerprint: u64) -> Result<Table, LoadError> {
        check_header(bytes)?;
        let mut payload = morrigo_store::unseal(name, KIND, bytes).map_err(damaged)?;
        let table = Table::parse(&mut payload, fingerprint)?;
        if !payload.is_empty() {
            return Err(LoadError::Format("the table has bytes past its end".into()));
        }
        Ok(table)
    }

    /// Read a table from a reader (all of it, then [`Table::from_bytes`]).
    pub fn load(r: &mut impl Read, fingerprint: u64) -> Result<Table, LoadError> {
        let mut bytes = Vec::new();
        r.read_to_end(&mut bytes).map_err(LoadError::Io)?;
        Table::from_bytes(Path::new("the table"), &bytes, fingerprint)
    }

    /// Read the table file `path`: its checksum is checked over the whole
    /// file first (streamed), then it is read.
    pub fn load_file(path: &Path, fingerprint: u64) -> Result<Table, LoadError> {
        let mut file = std::fs::File::open(path).map_err(LoadError::Io)?;
        let mut head = Vec::with_capacity(HEADER);
        (&mut file)
            .take(HEADER as u64)
            .read_to_end(&mut head)
            .map_err(LoadError::Io)?;
        check_header(&head)?;
        let len = morrigo_store::verify_sealed(path, KIND).map_err(damaged)?;
        let file = std::fs::File::open(path).map_err(LoadError::Io)?;
        let mut r = io::BufReader::with_capacity(1 << 20, file.take(len));
        let table = Table::parse(&mut r, fingerprint)?;
        if r.fill_buf().map_err(LoadError::Io)?.is_empty() {
            Ok(table)
        } else {
            Err(LoadError::Format("the table has bytes past its end".into()))
        }
    }

    /// The payload of a table whose checksum was checked.
    fn parse(r: &mut impl Read, fingerprint: u64) -> Result<Table, LoadError> {
        let bad = |what: &str| LoadError::Format(what.to_string());
        let mut head = [0u8; HEADER];
        r.read_exact(&mut head)
            .map_err(|_| bad("the file is not a solve table (too short)"))?;
        check_header(&head)?;
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
        const WHAT: &str = "reading the table";
        let mut bytes = memory::vec_of(0u8, words as usize * 8, WHAT)?;
        r.read_exact(&mut bytes)
            .map_err(|_| bad("the table is cut short"))?;
        let mut reached_words = memory::vec_with_capacity(words as usize, WHAT)?;
        reached_words.extend(
            bytes
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))),
        );
        drop(bytes);
        let reached = Reached::new(reached_words)?;
        let count = read_u64(r)?;
        if count != reached.count() || start >= count {
            return Err(bad("the table's size does not match its positions"));
        }
        let mut bytes = memory::vec_of(0u8, count as usize * 2, WHAT)?;
        r.read_exact(&mut bytes)
            .map_err(|_| bad("the table is cut short"))?;
        let mut values = memory::vec_with_capacity(count as usize, WHAT)?;
        values.extend(
            bytes
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]])),
        );
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
