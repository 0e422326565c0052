//! Located diagnostics: every user-facing error in Morrigo is a [`Diagnostic`]
//! that names the file, line and column it is about and what was expected.
//!
//! Lower crates produce their own typed errors; they are turned into a
//! `Diagnostic` at the point where the source file is known, so the message a
//! user reads always carries a location when one exists.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;
use std::sync::{Arc, OnceLock};

/// A loaded text file; cheap to clone, shared by all diagnostics about it.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name messages give the file: its path, or a label such as
    /// `--position` for text from the command line.
    pub name: Arc<str>,
    /// The whole text.
    pub text: Arc<str>,
    /// Byte offset of each line's start, built on the first lookup, so that
    /// locating many offsets costs a binary search each, not a rescan of
    /// the text (thousands of rules in one file).
    line_starts: Arc<OnceLock<Vec<usize>>>,
}

/// Two sources are the same file text under the same name (the line index
/// is a cache).
impl PartialEq for SourceFile {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.text == other.text
    }
}

impl Eq for SourceFile {}

impl SourceFile {
    /// A source named `name` with the text `text`.
    pub fn new(name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> Self {
        SourceFile {
            name: name.into(),
            text: text.into(),
            line_starts: Arc::default(),
        }
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        })
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let starts = self.line_starts();
        let line = starts.partition_point(|&s| s <= offset);
        let line_start = starts[line - 1];
        let col = self.text[line_start..offset].chars().count() + 1;
        (line, col)
    }

    /// Byte offset of a 1-based line and column, clamped to the text.
    pub fn offset_of(&self, line: usize, col: usize) -> usize {
        let mut offset = 0;
        for (i, l) in self.text.split_inclusive('\n').enumerate() {
            if i + 1 == line {
                let in_line: usize = l
                    .chars()
                    .take(col.saturating_sub(1))
                    .map(char::len_utf8)
                    .sum();
                return offset + in_line;
            }
            offset += l.len();
        }
        self.text.len()
    }

    /// The location of byte `offset` (clamped to the text), with its line.
    pub fn location(&self, offset: usize) -> Location {
        let (line, col) = self.line_col(offset);
        Location {
            file: self.name.clone(),
            line,
            col,
            source_line: self.line_text(line).map(Arc::from),
        }
    }

    /// A cursor for locating many offsets in increasing order in linear
    /// time (thousands of names on one line of a flow-style list).
    pub fn locator(&self) -> Locator<'_> {
        Locator {
            source: self,
            offset: 0,
            line: 1,
            col: 1,
            line_start: 0,
            line_text: None,
        }
    }

    fn line_text(&self, line: usize) -> Option<&str> {
        let starts = self.line_starts();
        let start = *starts.get(line.checked_sub(1)?)?;
        if start >= self.text.len() {
            return None; // the empty "line" after a final newline
        }
        let end = starts.get(line).map_or(self.text.len(), |&next| next - 1);
        Some(self.text[start..end].trim_end_matches('\r'))
    }
}

/// Locates offsets of one file, resuming from the last one; the text of a
/// line is copied once and shared by every location on it.
pub struct Locator<'a> {
    source: &'a SourceFile,
    offset: usize,
    line: usize,
    col: usize,
    line_start: usize,
    /// The current line's text, once known (`Some(None)`: past the end).
    line_text: Option<Option<Arc<str>>>,
}

impl Locator<'_> {
    /// The location of byte `offset`; offsets asked in increasing order
    /// cost a scan of the text between them.
    pub fn location(&mut self, offset: usize) -> Location {
        let text = &*self.source.text;
        let offset = offset.min(text.len());
        if offset < self.offset || !text.is_char_boundary(offset) {
            return self.source.location(offset);
        }
        for c in text[self.offset..offset].chars() {
            if c == '\n' {
                self.line += 1;
                self.col = 1;
                self.line_text = None;
            } else {
                self.col += 1;
            }
        }
        if self.line_text.is_none() {
            self.line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
            let end = text[self.line_start..]
                .find('\n')
                .map_or(text.len(), |i| self.line_start + i);
            let line = &text[self.line_start..end];
            self.line_text = Some(
                (self.line_start < text.len()).then(|| Arc::from(line.trim_end_matches('\r'))),
            );
        }
        self.offset = offset;
        Location {
            file: self.source.name.clone(),
            line: self.line,
            col: self.col,
            source_line: self.line_text.clone().flatten(),
        }
    }
}

/// A place in a source file. `source_line` is kept so the message can show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file's name as messages give it.
    pub file: Arc<str>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// The text of the line, when the source is known.
    pub source_line: Option<Arc<str>>,
}

impl Location {
    /// A location with no source text (for example a command-line argument).
    pub fn bare(file: impl Into<Arc<str>>, line: usize, col: usize) -> Self {
        Location {
            file: file.into(),
            line,
            col,
            source_line: None,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// One user-facing error: where, what, and what was expected instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct Diagnostic {
    /// Where the error is, when it is about a place in a file.
    pub location: Option<Location>,
    /// What is wrong.
    pub message: String,
    /// What would have been right there (`expected …`).
    pub expected: Option<String>,
    /// Extra lines of help (for example "did you mean `d2`?").
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic with no location yet.
    pub fn new(message: impl Into<String>) -> Self {
        Diagnostic {
            location: None,
            message: message.into(),
            expected: None,
            notes: Vec::new(),
        }
    }

    /// At `location`.
    pub fn at(mut self, location: Location) -> Self {
        self.location = Some(location);
        self
    }

    /// At `location`, unless it already has one.
    pub fn at_opt(mut self, location: Option<Location>) -> Self {
        if self.location.is_none() {
            self.location = location;
        }
        self
    }

    /// With what was expected instead.
    pub fn expected(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    /// With one more line of help.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(loc) => write!(f, "{loc}: error: {}", self.message)?,
            None => write!(f, "error: {}", self.message)?,
        }
        if let Some(loc) = &self.location {
            if let Some(src) = &loc.source_line {
                let gutter = loc.line.to_string().len();
                let (src, caret) = window(src, loc.col);
                write!(f, "\n{:gutter$} |\n{} | {}", "", loc.line, src)?;
                let pad: String = src
                    .chars()
                    .take(caret)
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                write!(f, "\n{:gutter$} | {pad}^", "")?;
            }
        }
        if let Some(expected) = &self.expected {
            write!(f, "\n  = expected {expected}")?;
        }
        for note in &self.notes {
            write!(f, "\n  = note: {note}")?;
        }
        Ok(())
    }
}

/// The most characters of a source line a diagnostic shows: a longer line
/// (a one-line record or SGF file) is cut to a window around the column.
pub const SOURCE_WINDOW: usize = 100;

/// The part of `line` shown for the 1-based column `col`, with `…` where
/// it is cut, and the caret's 0-based column in it. Both count characters.
fn window(line: &str, col: usize) -> (String, usize) {
    let at = col.saturating_sub(1);
    let len = line.chars().count();
    if len <= SOURCE_WINDOW {
        return (line.to_string(), at);
    }
    let at = at.min(len);
    let start = at
        .saturating_sub(SOURCE_WINDOW / 2)
        .min(len - SOURCE_WINDOW);
    let end = start + SOURCE_WINDOW;
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(line.chars().skip(start).take(SOURCE_WINDOW));
    if end < len {
        out.push('…');
    }
    (out, at - start + usize::from(start > 0))
}

/// Several diagnostics reported together (a checker reports all it finds).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

/// Closest candidate by edit distance, for "did you mean" notes.
pub fn did_you_mean<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (edit_distance(wrong, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(row[j]).min(row[j + 1])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let f = SourceFile::new("x.yaml", "ab\ncd\n");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(4), (2, 2));
        assert_eq!(f.offset_of(2, 2), 4);
    }

    #[test]
    fn display_points_at_the_column() {
        let f = SourceFile::new("x.yaml", "when: in_hnd(me)\n");
        let d = Diagnostic::new("unknown function `in_hnd`")
            .at(f.location(6))
            .expected("a function name")
            .note("did you mean `in_hand`?");
        let text = d.to_string();
        assert!(text.starts_with("x.yaml:1:7: error: unknown function `in_hnd`"));
        assert!(text.contains("\n  |       ^"), "{text}");
    }

    #[test]
    fn a_locator_agrees_with_location() {
        let f = SourceFile::new("x.yaml", "ab\ncdé\nfg\n");
        let mut l = f.locator();
        for offset in [0, 1, 3, 5, 7, 9, 10, 4] {
            assert_eq!(l.location(offset), f.location(offset), "offset {offset}");
        }
    }

    #[test]
    fn a_long_line_is_shown_around_the_column() {
        let line = format!("{}X{}", "a".repeat(5000), "b".repeat(5000));
        let f = SourceFile::new("x.yaml", line);
        let text = Diagnostic::new("here").at(f.location(5000)).to_string();
        let shown = text.lines().nth(2).unwrap();
        let caret = text.lines().nth(3).unwrap();
        assert!(shown.chars().count() < 140, "{shown}");
        let x = shown.chars().position(|c| c == 'X').unwrap();
        assert_eq!(caret.chars().position(|c| c == '^'), Some(x));
    }

    #[test]
    fn suggestions_prefer_the_nearest_name() {
        assert_eq!(
            did_you_mean("in_hnd", ["in_hand", "on_board"]),
            Some("in_hand")
        );
        assert_eq!(did_you_mean("zzz", ["in_hand"]), None);
    }
}

/// The most bytes Morrigo reads from one input file (a ruleset, a record, a
/// scenario, a sweep plan): far above any real one, so that a wrong path
/// (`/dev/zero`, a disk image) is a clear error rather than memory filled.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Why an input file could not be read: its path, and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The path as given.
    pub path: String,
    /// Missing, unreadable, too large or not UTF-8.
    pub why: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read `{}`: {}", self.path, self.why)
    }
}

impl From<ReadError> for Diagnostic {
    fn from(e: ReadError) -> Self {
        Diagnostic::new(e.to_string())
    }
}

/// Read a text input file of at most [`MAX_INPUT_BYTES`].
pub fn read_input(path: &std::path::Path) -> Result<String, ReadError> {
    read_input_limited(path, MAX_INPUT_BYTES)
}

/// [`read_input`] with another limit. The size is not taken from the file
/// system (devices and pipes report none): at most `max + 1` bytes are read.
pub fn read_input_limited(path: &std::path::Path, max: u64) -> Result<String, ReadError> {
    use std::io::Read;
    let fail = |why: String| ReadError {
        path: path.display().to_string(),
        why,
    };
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > max {
        return Err(fail(format!(
            "it is larger than {max} bytes, the limit for an input file"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "it is not UTF-8 text (at byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The longest line Morrigo reads from an interactive input (a GTP command,
/// a move typed at `morrigo play`, a GTP engine's answer).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What [`read_line_limited`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line (its newline, if any, included) is in the buffer.
    Line,
    /// A line longer than the limit was skipped to its end.
    TooLong,
    /// The input has ended.
    End,
}

/// Read one line of at most `limit` bytes into `line` (cleared first). A
/// longer line is skipped to its end a bounded chunk at a time, so memory
/// stays bounded whatever the input (`/dev/zero` piped in, say).
pub fn read_line_limited<R: std::io::BufRead>(
    input: &mut R,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<LineRead> {
    use std::io::{BufRead, Read};
    line.clear();
    // One byte more than the limit: room for the newline of a full line.
    if input
        .by_ref()
        .take(limit as u64 + 1)
        .read_until(b'\n', line)?
        == 0
    {
        return Ok(LineRead::End);
    }
    if line.len() <= limit || line.ends_with(b"\n") {
        return Ok(LineRead::Line);
    }
    loop {
        line.clear();
        let n = input.by_ref().take(limit as u64).read_until(b'\n', line)?;
        if n == 0 || line.ends_with(b"\n") {
            line.clear();
            return Ok(LineRead::TooLong);
        }
    }
}

#[cfg(test)]
mod read_tests {
    use super::*;

    /// A device that never ends is refused at the limit, not read forever.
    #[test]
    fn an_endless_input_is_refused_at_the_limit() {
        let e = read_input_limited(std::path::Path::new("/dev/zero"), 1000).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot read `/dev/zero`: it is larger than 1000 bytes, the limit for an input file"
        );
    }

    /// Missing files and bytes that are not UTF-8 name the file and why.
    #[test]
    fn missing_and_binary_files_are_named() {
        let e = read_input(std::path::Path::new("/no/such/file")).unwrap_err();
        assert!(
            e.to_string().starts_with("cannot read `/no/such/file`: "),
            "{e}"
        );
        let dir = std::env::temp_dir().join(format!("morrigo-diag-{}", std::process::id()));
        std::fs::write(&dir, b"ab\xffcd").unwrap();
        let e = read_input(&dir).unwrap_err();
        std::fs::remove_file(&dir).unwrap();
        assert_eq!(e.why, "it is not UTF-8 text (at byte 2)");
    }

    /// Lines up to the limit are read whole; a longer one is skipped to its
    /// end and the next line is read as usual; the end of input is `End`.
    #[test]
    fn a_line_longer_than_the_limit_is_skipped() {
        let text = format!("abcd\n{}\nxy", "z".repeat(20));
        let mut input = text.as_bytes();
        let mut line = Vec::new();
        let mut read = || {
            let r = read_line_limited(&mut input, &mut line, 5).unwrap();
            (r, String::from_utf8(line.clone()).unwrap())
        };
        assert_eq!(read(), (LineRead::Line, "abcd\n".into()));
        assert_eq!(read(), (LineRead::TooLong, String::new()));
        assert_eq!(read(), (LineRead::Line, "xy".into()));
        assert_eq!(read(), (LineRead::End, String::new()));
    }
}
