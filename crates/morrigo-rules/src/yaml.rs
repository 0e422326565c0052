//! A located YAML tree and a serde deserializer over it.
//!
//! Every node remembers the file and byte range it was written in, so a
//! merged `extends` chain still knows where each inherited entry came from,
//! and every error (a wrong type, an unknown key, a bad expression) points at
//! the right line of the right file. Parsing goes through libyaml's event
//! API, which is iterative: nesting depth and alias expansion are bounded
//! here before any recursion happens.

use morrigo_diag::{did_you_mean, Diagnostic, SourceFile};
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use std::collections::HashMap;
use std::ffi::CStr;
use std::fmt;
use std::mem::MaybeUninit;

/// Deepest nesting of YAML lists and mappings a file may have.
pub const MAX_YAML_DEPTH: usize = 64;
/// Most YAML nodes a file may have once aliases (`*name`) are expanded.
pub const MAX_YAML_NODES: usize = 2_000_000;

/// Where a node is written: index of the file in the chain, byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// Index of the file in the `extends` chain (0: the file itself);
    /// `usize::MAX` for a value typed on the command line.
    pub file: usize,
    /// Byte offset in that file where the node begins.
    pub start: usize,
    /// Byte offset just past its end.
    pub end: usize,
}

/// How a scalar is written: it decides how offsets inside its value map
/// back to the file, and whether `true` or `3` is a boolean or number or
/// only text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Unquoted.
    Plain,
    /// `'…'`.
    SingleQuoted,
    /// `"…"`, with backslash escapes.
    DoubleQuoted,
    /// A `|` block.
    Literal,
    /// A `>` block, whose line breaks read as spaces.
    Folded,
}

/// What a node holds.
#[derive(Clone, Debug)]
pub enum Kind {
    /// A single value (text, number, boolean or null), kept as text.
    Scalar {
        /// Its value, quotes and escapes resolved.
        text: String,
        /// How it is written.
        style: Style,
    },
    /// A list.
    Seq(Vec<Node>),
    /// A mapping: its (key, value) pairs in file order.
    Map(Vec<(Node, Node)>),
}

/// A YAML value and where it is written.
#[derive(Clone, Debug)]
pub struct Node {
    /// Where it is written.
    pub pos: Pos,
    /// What it holds.
    pub kind: Kind,
}

impl Node {
    /// Whether it is a plain `null`, `~` or nothing (which deletes a parent's
    /// entry when merged).
    pub fn is_null(&self) -> bool {
        matches!(&self.kind, Kind::Scalar { text, style: Style::Plain } if is_null_word(text))
    }

    /// The scalar's text, whatever its style.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// A mapping's (key, value) pairs; empty for other nodes.
    pub fn entries(&self) -> &[(Node, Node)] {
        match &self.kind {
            Kind::Map(m) => m,
            _ => &[],
        }
    }

    /// A list's items; empty for other nodes.
    pub fn items(&self) -> &[Node] {
        match &self.kind {
            Kind::Seq(s) => s,
            _ => &[],
        }
    }

    /// The entry of a mapping whose key is `key`: (key node, value node).
    pub fn entry(&self, key: &str) -> Option<(&Node, &Node)> {
        self.entries()
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(k, v)| (k, v))
    }

    /// The value of the mapping entry whose key is `key`.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|(_, v)| v)
    }

    /// Follow a path of mapping keys.
    pub fn path(&self, keys: &[&str]) -> Option<&Node> {
        keys.iter().try_fold(self, |n, k| n.get(k))
    }

    /// A value in the file's own terms, for messages.
    pub fn describe(&self) -> String {
        match &self.kind {
            Kind::Seq(_) => "a list".into(),
            Kind::Map(_) => "a mapping".into(),
            Kind::Scalar { text, style } => {
                if *style != Style::Plain {
                    return format!("the string {text:?}");
                }
                match plain(text) {
                    Plain::Null => "nothing (null)".into(),
                    Plain::Bool(b) => format!("`{b}`"),
                    Plain::Int(_) | Plain::UInt(_) | Plain::Float(_) | Plain::BigInt => {
                        format!("the number {text}")
                    }
                    Plain::Str => format!("the string {text:?}"),
                }
            }
        }
    }

    /// Source offset of byte `i` of this scalar's value. Exact for plain and
    /// quoted scalars (escapes, doubled quotes and folded lines included) and
    /// for block scalars; the start of the scalar if the walk gets lost.
    pub fn value_offset(&self, source: &str, i: usize) -> usize {
        let Kind::Scalar { text, style } = &self.kind else {
            return self.pos.start;
        };
        let raw_start = match style {
            Style::Plain => self.pos.start,
            Style::SingleQuoted | Style::DoubleQuoted => self.pos.start + 1,
            Style::Literal | Style::Folded => source[self.pos.start..]
                .find('\n')
                .map_or(self.pos.start, |n| self.pos.start + n + 1),
        };
        let raw = source
            .get(raw_start..self.pos.end.max(raw_start))
            .unwrap_or("");
        let (raw, value) = (raw.as_bytes(), text.as_bytes());
        let (mut r, mut v) = (0, 0);
        while v < i && r < raw.len() && v < value.len() {
            if *style == Style::DoubleQuoted && raw[r] == b'\\' {
                let len = match raw.get(r + 1) {
                    Some(b'x') => 4,
                    Some(b'u') => 6,
                    Some(b'U') => 10,
                    Some(b'\n') => {
                        r += 2;
                        while r < raw.len() && matches!(raw[r], b' ' | b'\t') {
                            r += 1;
                        }
                        continue;
                    }
                    _ => 2,
                };
                r += len;
                v += utf8_len(value[v]);
            } else if raw[r] == value[v] {
                r += 1;
                v += 1;
            } else if (*style == Style::SingleQuoted && raw[r] == b'\'')
                || raw[r].is_ascii_whitespace()
            {
                r += 1;
            } else if value[v].is_ascii_whitespace() {
                v += 1;
            } else {
                return self.pos.start;
            }
        }
        // Skip what the value does not hold (indentation, a folded break).
        while r < raw.len() && raw[r] != value.get(v).copied().unwrap_or(0) {
            if !raw[r].is_ascii_whitespace() {
                break;
            }
            r += 1;
        }
        raw_start + r
    }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

fn is_null_word(t: &str) -> bool {
    matches!(t, "" | "~" | "null" | "Null" | "NULL")
}

enum Plain {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    BigInt,
    Float(f64),
    Str,
}

/// How a plain scalar reads (the YAML 1.2 core schema).
fn plain(t: &str) -> Plain {
    if is_null_word(t) {
        return Plain::Null;
    }
    match t {
        "true" | "True" | "TRUE" => return Plain::Bool(true),
        "false" | "False" | "FALSE" => return Plain::Bool(false),
        ".nan" | ".NaN" | ".NAN" => return Plain::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Plain::Float(f64::INFINITY)
        }
        "-.inf" | "-.Inf" | "-.INF" => return Plain::Float(f64::NEG_INFINITY),
        _ => {}
    }
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let radix = |p: &str, r: u32| digits.strip_prefix(p).map(|d| (d, r));
    let (body, radix) = radix("0x", 16)
        .or_else(|| radix("0o", 8))
        .unwrap_or((digits, 10));
    if !body.is_empty() && body.chars().all(|c| c.is_digit(radix)) {
        return match u64::from_str_radix(body, radix) {
            Ok(n) if !neg => Plain::UInt(n),
            Ok(n) => match i64::try_from(n) {
                Ok(n) => Plain::Int(-n),
                Err(_) if n == 1 << 63 => Plain::Int(i64::MIN),
                Err(_) => Plain::BigInt,
            },
            Err(_) => Plain::BigInt,
        };
    }
    let numeric = t
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
        && t.chars().any(|c| c.is_ascii_digit());
    match t.parse::<f64>() {
        Ok(f) if numeric => Plain::Float(f),
        _ => Plain::Str,
    }
}

// ----- parsing ---------------------------------------------------------------

/// Parse one YAML document into a located tree. `file` is the index stored
/// in every node's [`Pos`].
pub fn parse(source: &SourceFile, file: usize) -> Result<Node, Diagnostic> {
    // A UTF-8 byte order mark is not part of the document.
    let skip = if source.text.starts_with('\u{feff}') {
        3
    } else {
        0
    };
    let mut p = Parser::new(&source.text.as_bytes()[skip..]);
    let mut tree = TreeBuilder {
        source,
        file,
        skip,
        stack: Vec::new(),
        anchors: Vec::new(),
        nodes: 0,
        root: None,
        documents: 0,
    };
    loop {
        let ev = p.next().map_err(|(msg, at)| tree.unreadable(msg, at))?;
        if matches!(ev.kind, EvKind::StreamEnd) {
            break;
        }
        let ev_start = ev.start;
        let done = tree.event(ev)?;
        tree.check_node_limit(ev_start)?;
        if let Some((node, anchor)) = done {
            tree.attach(node, anchor)?;
        }
    }
    Ok(tree.finish())
}

/// A node finished by an event, with the anchor (`&name`) it defines.
type Finished = (Node, Option<Vec<u8>>);

/// The tree being built from libyaml's events.
struct TreeBuilder<'s> {
    source: &'s SourceFile,
    file: usize,
    /// Bytes of a byte order mark before the input libyaml reads.
    skip: usize,
    /// Lists and mappings begun and not yet ended, innermost last.
    stack: Vec<(Pos, Building)>,
    anchors: Vec<(Vec<u8>, Node)>,
    /// Nodes so far, aliases expanded.
    nodes: usize,
    root: Option<Node>,
    documents: usize,
}

impl TreeBuilder<'_> {
    /// `d` at an offset of the input libyaml reads (after any byte order mark).
    fn located(&self, offset: usize, d: Diagnostic) -> Diagnostic {
        d.at(self.source.location(offset + self.skip))
    }

    /// libyaml's own error.
    fn unreadable(&self, msg: String, at: usize) -> Diagnostic {
        // An error "at the end" is shown on the last line, not on the
        // empty line after the final newline.
        let at = at.min(self.source.text.trim_end().len().saturating_sub(self.skip));
        self.located(
            at,
            Diagnostic::new(format!("the YAML cannot be read: {msg}")),
        )
    }

    /// One event (not the stream's end): the node it finishes, if any.
    fn event(&mut self, ev: Event) -> Result<Option<Finished>, Diagnostic> {
        let start = ev.start + self.skip;
        let end = ev.end + self.skip;
        let file = self.file;
        match ev.kind {
            EvKind::StreamEnd | EvKind::Other => Ok(None),
            EvKind::DocumentStart => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(self.located(
                        ev.start,
                        Diagnostic::new("the file holds more than one YAML document")
                            .expected("a single document (no second `---`)"),
                    ));
                }
                Ok(None)
            }
            EvKind::Alias(name) => self.alias(name, ev.start).map(Some),
            EvKind::Scalar {
                text,
                style,
                anchor,
            } => {
                self.nodes += 1;
                let pos = Pos { file, start, end };
                Ok(Some((
                    Node {
                        pos,
                        kind: Kind::Scalar { text, style },
                    },
                    anchor,
                )))
            }
            EvKind::SeqStart(anchor) | EvKind::MapStart(anchor) => {
                let pos = Pos { file, start, end };
                self.open(pos, ev.kind_is_map, anchor, ev.start)?;
                Ok(None)
            }
            EvKind::SeqEnd | EvKind::MapEnd => Ok(Some(self.close(end))),
        }
    }

    /// `*name`: a copy of the node anchored last as `&name`.
    fn alias(&mut self, name: Vec<u8>, ev_start: usize) -> Result<Finished, Diagnostic> {
        let Some((_, node)) = self.anchors.iter().rev().find(|(a, _)| *a == name) else {
            return Err(self.located(
                ev_start,
                Diagnostic::new(format!(
                    "unknown alias `*{}`",
                    String::from_utf8_lossy(&name)
                ))
                .expected("an alias of an anchor (`&name`) defined above"),
            ));
        };
        self.nodes += count(node);
        Ok((node.clone(), None))
    }

    /// A list or mapping begins; refused past the nesting limit, before
    /// anything recurses that deep.
    fn open(
        &mut self,
        pos: Pos,
        is_map: bool,
        anchor: Option<Vec<u8>>,
        ev_start: usize,
    ) -> Result<(), Diagnostic> {
        if self.stack.len() >= MAX_YAML_DEPTH {
            return Err(self.located(
                ev_start,
                Diagnostic::new(format!(
                    "the YAML is nested more than {MAX_YAML_DEPTH} levels deep"
                ))
                .expected(format!(
                    "lists and mappings nested at most {MAX_YAML_DEPTH} levels deep"
                )),
            ));
        }
        let building = if is_map {
            Building::Map(Vec::new(), None, anchor, HashMap::new())
        } else {
            Building::Seq(Vec::new(), anchor)
        };
        self.nodes += 1;
        self.stack.push((pos, building));
        Ok(())
    }

    /// The innermost list or mapping ends at `end`.
    fn close(&mut self, end: usize) -> Finished {
        let (mut pos, building) = self.stack.pop().expect("balanced events");
        pos.end = end;
        match building {
            Building::Seq(items, anchor) => (
                Node {
                    pos,
                    kind: Kind::Seq(items),
                },
                anchor,
            ),
            Building::Map(entries, _, anchor, _) => (
                Node {
                    pos,
                    kind: Kind::Map(entries),
                },
                anchor,
            ),
        }
    }

    /// Aliases can make a small file huge: the count is checked after
    /// every event.
    fn check_node_limit(&self, ev_start: usize) -> Result<(), Diagnostic> {
        if self.nodes > MAX_YAML_NODES {
            return Err(self.located(
                ev_start,
                Diagnostic::new(format!(
                    "the YAML has more than {MAX_YAML_NODES} values (aliases expanded)"
                ))
                .expected(format!("at most {MAX_YAML_NODES} values")),
            ));
        }
        Ok(())
    }

    /// A finished node is remembered under its anchor, then becomes the
    /// root, an item of the open list, or a key or value of the open mapping.
    fn attach(&mut self, node: Node, anchor: Option<Vec<u8>>) -> Result<(), Diagnostic> {
        if let Some(a) = anchor {
            self.anchors.push((a, node.clone()));
        }
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some((_, Building::Seq(items, _))) => items.push(node),
            Some((_, Building::Map(entries, key, _, seen))) => match key.take() {
                None => *key = Some(node),
                Some(k) => add_entry(entries, seen, k, node, self.source)?,
            },
        }
        Ok(())
    }

    /// The document's root; an empty document is an empty plain scalar.
    fn finish(self) -> Node {
        self.root.unwrap_or(Node {
            pos: Pos {
                file: self.file,
                start: self.skip,
                end: self.skip,
            },
            kind: Kind::Scalar {
                text: String::new(),
                style: Style::Plain,
            },
        })
    }
}

/// Add `k: value` to a mapping being built; a key written twice is refused.
fn add_entry(
    entries: &mut Vec<(Node, Node)>,
    seen: &mut HashMap<String, usize>,
    k: Node,
    value: Node,
    source: &SourceFile,
) -> Result<(), Diagnostic> {
    let first = k
        .as_str()
        .and_then(|name| seen.get(name))
        .map(|&i| &entries[i].0);
    if let Some(first) = first {
        // Node positions already count any byte order mark.
        let at = source.location(k.pos.start);
        return Err(Diagnostic::new(format!(
            "key `{}` is written twice in one mapping",
            k.as_str().unwrap_or_default()
        ))
        .expected("each key once")
        .note(format!(
            "first written at {}",
            source.location(first.pos.start)
        ))
        .at(at));
    }
    if let Some(name) = k.as_str() {
        seen.insert(name.to_string(), entries.len());
    }
    entries.push((k, value));
    Ok(())
}

fn count(node: &Node) -> usize {
    1 + match &node.kind {
        Kind::Scalar { .. } => 0,
        Kind::Seq(s) => s.iter().map(count).sum(),
        Kind::Map(m) => m.iter().map(|(k, v)| count(k) + count(v)).sum(),
    }
}

enum Building {
    Seq(Vec<Node>, Option<Vec<u8>>),
    /// Entries, the key waiting for its value, the anchor, and where each
    /// key is (duplicates are found in constant time).
    Map(
        Vec<(Node, Node)>,
        Option<Node>,
        Option<Vec<u8>>,
        HashMap<String, usize>,
    ),
}

enum EvKind {
    StreamEnd,
    DocumentStart,
    Other,
    Alias(Vec<u8>),
    Scalar {
        text: String,
        style: Style,
        anchor: Option<Vec<u8>>,
    },
    SeqStart(Option<Vec<u8>>),
    MapStart(Option<Vec<u8>>),
    SeqEnd,
    MapEnd,
}

struct Event {
    kind: EvKind,
    kind_is_map: bool,
    start: usize,
    end: usize,
}

/// libyaml's parser, owned and pinned in a box (it points into itself).
struct Parser<'a> {
    sys: Box<MaybeUninit<unsafe_libyaml::yaml_parser_t>>,
    _input: &'a [u8],
}

// libyaml is C (through unsafe-libyaml): its calls are the crate's only
// unsafe code.
#[allow(unsafe_code)]
impl<'a> Parser<'a> {
    fn new(input: &'a [u8]) -> Self {
        let mut boxed = Box::new(MaybeUninit::<unsafe_libyaml::yaml_parser_t>::uninit());
        // SAFETY: libyaml initialises the struct; the input outlives the
        // parser (borrowed for 'a) and the box never moves its contents.
        unsafe {
            let p = boxed.as_mut_ptr();
            if unsafe_libyaml::yaml_parser_initialize(p).fail {
                panic!("libyaml could not allocate a parser");
            }
            unsafe_libyaml::yaml_parser_set_encoding(p, unsafe_libyaml::YAML_UTF8_ENCODING);
            unsafe_libyaml::yaml_parser_set_input_string(p, input.as_ptr(), input.len() as _);
        }
        Parser {
            sys: boxed,
            _input: input,
        }
    }

    fn next(&mut self) -> Result<Event, (String, usize)> {
        let mut event = MaybeUninit::<unsafe_libyaml::yaml_event_t>::uninit();
        // SAFETY: the parser was initialised in `new`; the event is filled by
        // libyaml before it is read and deleted after.
        unsafe {
            let p = self.sys.as_mut_ptr();
            if (&*p).error != unsafe_libyaml::YAML_NO_ERROR
                || unsafe_libyaml::yaml_parser_parse(p, event.as_mut_ptr()).fail
            {
                return Err(parse_error(p));
            }
            let e = event.as_mut_ptr();
            let anchor = |ptr: *const u8| {
                (!ptr.is_null()).then(|| CStr::from_ptr(ptr.cast()).to_bytes().to_vec())
            };
            let mut kind_is_map = false;
            let kind = match (*e).type_ {
                unsafe_libyaml::YAML_STREAM_END_EVENT => EvKind::StreamEnd,
                unsafe_libyaml::YAML_DOCUMENT_START_EVENT => EvKind::DocumentStart,
                unsafe_libyaml::YAML_ALIAS_EVENT => {
                    EvKind::Alias(anchor((*e).data.alias.anchor).unwrap_or_default())
                }
                unsafe_libyaml::YAML_SCALAR_EVENT => {
                    let s = (*e).data.scalar;
                    let bytes = std::slice::from_raw_parts(s.value, s.length as usize);
                    EvKind::Scalar {
                        text: String::from_utf8_lossy(bytes).into_owned(),
                        style: match s.style {
                            unsafe_libyaml::YAML_SINGLE_QUOTED_SCALAR_STYLE => Style::SingleQuoted,
                            unsafe_libyaml::YAML_DOUBLE_QUOTED_SCALAR_STYLE => Style::DoubleQuoted,
                            unsafe_libyaml::YAML_LITERAL_SCALAR_STYLE => Style::Literal,
                            unsafe_libyaml::YAML_FOLDED_SCALAR_STYLE => Style::Folded,
                            _ => Style::Plain,
                        },
                        anchor: anchor(s.anchor),
                    }
                }
                unsafe_libyaml::YAML_SEQUENCE_START_EVENT => {
                    EvKind::SeqStart(anchor((*e).data.sequence_start.anchor))
                }
                unsafe_libyaml::YAML_MAPPING_START_EVENT => {
                    kind_is_map = true;
                    EvKind::MapStart(anchor((*e).data.mapping_start.anchor))
                }
                unsafe_libyaml::YAML_SEQUENCE_END_EVENT => EvKind::SeqEnd,
                unsafe_libyaml::YAML_MAPPING_END_EVENT => EvKind::MapEnd,
                _ => EvKind::Other,
            };
            let ev = Event {
                kind,
                kind_is_map,
                start: (*e).start_mark.index as usize,
                end: (*e).end_mark.index as usize,
            };
            unsafe_libyaml::yaml_event_delete(e);
            Ok(ev)
        }
    }
}

#[allow(unsafe_code)]
impl Drop for Parser<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in `new`.
        unsafe { unsafe_libyaml::yaml_parser_delete(self.sys.as_mut_ptr()) }
    }
}

/// libyaml's problem and where it is.
#[allow(unsafe_code)]
unsafe fn parse_error(p: *mut unsafe_libyaml::yaml_parser_t) -> (String, usize) {
    let text = |ptr: *const std::ffi::c_char| {
        (!ptr.is_null()).then(|| CStr::from_ptr(ptr).to_string_lossy().into_owned())
    };
    let p = &*p;
    let problem = text(p.problem.cast()).unwrap_or_else(|| "unknown problem".into());
    let msg = match text(p.context.cast()) {
        Some(ctx) => format!("{problem} {ctx}"),
        None => problem,
    };
    (msg, p.problem_mark.index as usize)
}

// ----- merging ---------------------------------------------------------------

/// Merge `child` into `base`: mappings key by key in the parent's order (new
/// keys at the end), a `null` value deletes the parent's entry, anything else
/// replaces it.
pub fn merge(base: &mut Node, child: Node) {
    match (&mut base.kind, child.kind) {
        (Kind::Map(b), Kind::Map(c)) => {
            // Indexed by key, so that merging big mappings stays linear.
            let mut index: HashMap<String, usize> = b
                .iter()
                .enumerate()
                .filter_map(|(i, (k, _))| Some((k.as_str()?.to_string(), i)))
                .collect();
            let mut deleted = vec![false; b.len()];
            for (k, v) in c {
                match (k.as_str().and_then(|s| index.get(s).copied()), v.is_null()) {
                    (Some(i), true) => deleted[i] = true,
                    (None, true) => {}
                    (Some(i), false) => merge(&mut b[i].1, v),
                    (None, false) => {
                        if let Some(s) = k.as_str() {
                            index.insert(s.to_string(), b.len());
                        }
                        b.push((k, v));
                        deleted.push(false);
                    }
                }
            }
            let mut gone = deleted.into_iter();
            b.retain(|_| !gone.next().unwrap_or(false));
        }
        (_, kind) => {
            base.kind = kind;
            base.pos = child.pos;
        }
    }
}

// ----- deserializing ---------------------------------------------------------

/// A deserialization error in the file's own terms, with the node it is about.
#[derive(Debug)]
pub struct Error {
    /// What is wrong, prefixed with the key path once located.
    pub message: String,
    /// What would have been accepted there, if known.
    pub expected: Option<String>,
    /// Further hints, such as `did you mean …?`.
    pub notes: Vec<String>,
    /// The node it is about, once known.
    pub pos: Option<Pos>,
    /// Set once the error has been prefixed with the key path.
    pathed: bool,
}

impl Error {
    fn new(message: String) -> Self {
        Error {
            message,
            expected: None,
            notes: Vec::new(),
            pos: None,
            pathed: false,
        }
    }

    /// The error as a diagnostic located in one of `files`.
    pub fn to_diagnostic(&self, files: &[SourceFile]) -> Diagnostic {
        let mut d = Diagnostic::new(self.message.clone());
        if let Some(x) = &self.expected {
            d = d.expected(x.clone());
        }
        for n in &self.notes {
            d = d.note(n.clone());
        }
        if let Some(pos) = self.pos {
            if let Some(f) = files.get(pos.file) {
                d = d.at(f.location(pos.start));
            }
        }
        d
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// serde's names for Rust types, in the file's terms.
fn plain_expected(exp: &str) -> String {
    match exp {
        "u8" | "u16" | "u32" | "u64" | "usize" => {
            let max = match exp {
                "u8" => u64::from(u8::MAX),
                "u16" => u64::from(u16::MAX),
                "u32" => u64::from(u32::MAX),
                _ => u64::MAX,
            };
            format!("a whole number from 0 to {max}")
        }
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "a boolean" => "`true` or `false`".into(),
        "a string" => "text".into(),
        "a sequence" => "a list".into(),
        "a map" => "a mapping".into(),
        // serde's derived types describe themselves by their Rust names.
        other if other.starts_with("struct ") => "a mapping".into(),
        other if other.starts_with("tuple") => "a list".into(),
        other if other.starts_with("enum ") => "one of the words this key takes".into(),
        other => other.to_string(),
    }
}

fn unexpected(u: de::Unexpected<'_>) -> String {
    use de::Unexpected::*;
    match u {
        Bool(b) => format!("`{b}`"),
        Unsigned(n) => format!("the number {n}"),
        Signed(n) => format!("the number {n}"),
        Float(f) => format!("the number {f}"),
        Char(c) => format!("the string {:?}", c.to_string()),
        Str(s) => format!("the string {s:?}"),
        Unit => "nothing (null)".into(),
        Seq => "a list".into(),
        Map => "a mapping".into(),
        other => other.to_string(),
    }
}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::new(msg.to_string())
    }

    fn invalid_type(unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        let mut e = Error::new(format!("found {}", unexpected(unexp)));
        e.expected = Some(plain_expected(&exp.to_string()));
        e
    }

    fn invalid_value(unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        Self::invalid_type(unexp, exp)
    }

    fn invalid_length(len: usize, exp: &dyn de::Expected) -> Self {
        let mut e = Error::new(format!("found a list of {len}"));
        e.expected = Some(plain_expected(&exp.to_string()));
        e
    }

    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        let mut e = Error::new(format!("unknown value `{variant}`"));
        e.expected = Some(one_of(expected));
        if let Some(s) = did_you_mean(variant, expected.iter().copied()) {
            e.notes.push(format!("did you mean `{s}`?"));
        }
        e
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        let mut e = Error::new(format!("unknown key `{field}`"));
        e.expected = Some(one_of(expected));
        if let Some(s) = did_you_mean(field, expected.iter().copied()) {
            e.notes.push(format!("did you mean `{s}`?"));
        }
        e
    }

    fn missing_field(field: &'static str) -> Self {
        let mut e = Error::new(format!("`{field}` is missing"));
        e.expected = Some(format!("a `{field}:` entry"));
        e
    }

    fn duplicate_field(field: &'static str) -> Self {
        Error::new(format!("key `{field}` is written twice"))
    }
}

fn one_of(names: &[&str]) -> String {
    if names.is_empty() {
        return "no keys here".into();
    }
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    format!("one of {}", quoted.join(", "))
}

/// The path of keys from the root to a node, for messages (`setup.in_hand`).
#[derive(Clone, Copy)]
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(Path::Root, k) => write!(f, "{k}"),
            Path::Key(p, k) => write!(f, "{p}.{k}"),
            Path::Index(p, i) => write!(f, "{p}[{i}]"),
        }
    }
}

/// Deserialize `T` from a located tree.
pub fn from_node<T: de::DeserializeOwned>(node: &Node) -> Result<T, Error> {
    T::deserialize(NodeDe {
        node,
        path: Path::Root,
    })
}

struct NodeDe<'a> {
    node: &'a Node,
    path: Path<'a>,
}

impl NodeDe<'_> {
    /// Attach this node's position and key path to an error from below.
    fn locate(&self, mut e: Error) -> Error {
        if e.pos.is_none() {
            e.pos = Some(self.node.pos);
            if e.message.starts_with("data did not match any variant") {
                e.message = format!("{} is not accepted here", self.node.describe());
            }
        }
        if !e.pathed {
            e.pathed = true;
            let path = self.path.to_string();
            if !path.is_empty() {
                e.message = format!("`{path}`: {}", e.message);
            }
        }
        e
    }

    fn scalar(&self) -> Option<(&str, Style)> {
        match &self.node.kind {
            Kind::Scalar { text, style } => Some((text, *style)),
            _ => None,
        }
    }

    fn any<'de, V: Visitor<'de>>(&self, v: V) -> Result<V::Value, Error> {
        match &self.node.kind {
            Kind::Scalar { text, style } => {
                if *style != Style::Plain {
                    return v.visit_str(text);
                }
                match plain(text) {
                    Plain::Null => v.visit_unit(),
                    Plain::Bool(b) => v.visit_bool(b),
                    Plain::Int(n) => v.visit_i64(n),
                    Plain::UInt(n) => v.visit_u64(n),
                    Plain::Float(f) => v.visit_f64(f),
                    Plain::BigInt => {
                        let mut e = Error::new(format!("the number {text} is too large"));
                        e.expected = Some("a number that fits in 64 bits".into());
                        Err(e)
                    }
                    Plain::Str => v.visit_str(text),
                }
            }
            Kind::Seq(items) => v.visit_seq(SeqAccess {
                items: items.iter(),
                index: 0,
                path: &self.path,
            }),
            Kind::Map(entries) => {
                let last_key = std::cell::Cell::new(None);
                v.visit_map(MapAccess {
                    entries: entries.iter(),
                    value: None,
                    path: &self.path,
                    last_key: &last_key,
                })
                .map_err(|mut e| {
                    // A visitor refusing a key it has read: point at the key.
                    if e.pos.is_none() && e.message.starts_with("unknown key") {
                        e.pos = last_key.get();
                    }
                    e
                })
            }
        }
    }
}

macro_rules! via_any {
    ($($m:ident)*) => {$(
        fn $m<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
            self.any(v).map_err(|e| self.locate(e))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for NodeDe<'_> {
    type Error = Error;

    via_any!(deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_bytes deserialize_byte_buf deserialize_unit deserialize_seq deserialize_map
        deserialize_ignored_any);

    /// Keys are names, whatever they look like.
    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let r = match self.scalar() {
            Some((text, _)) => v.visit_str(text),
            None => self.any(v),
        };
        r.map_err(|e| self.locate(e))
    }

    /// Text fields take text; a plain `5` or `true` is refused, so that a
    /// number where a name belongs is a located type error.
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let r = match self.scalar() {
            Some((text, Style::Plain)) if matches!(plain(text), Plain::Str) => v.visit_str(text),
            Some((text, style)) if style != Style::Plain => v.visit_str(text),
            _ => self.any(v),
        };
        r.map_err(|e| self.locate(e))
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let r = if self.node.is_null() {
            v.visit_none()
        } else {
            v.visit_some(NodeDe {
                node: self.node,
                path: self.path,
            })
        };
        r.map_err(|e| self.locate(e))
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_newtype_struct(NodeDe {
            node: self.node,
            path: self.path,
        })
        .map_err(|e| self.locate(e))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        let r = match self.scalar() {
            Some((text, _)) => v.visit_enum(text.into_deserializer()),
            None => Err(de::Error::invalid_type(
                match self.node.kind {
                    Kind::Seq(_) => de::Unexpected::Seq,
                    _ => de::Unexpected::Map,
                },
                &v,
            )),
        };
        r.map_err(|e| self.locate(e))
    }
}

struct SeqAccess<'a, I> {
    items: I,
    index: usize,
    path: &'a Path<'a>,
}

impl<'de, 'a, I: Iterator<Item = &'a Node>> de::SeqAccess<'de> for SeqAccess<'a, I> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(node) = self.items.next() else {
            return Ok(None);
        };
        let path = Path::Index(self.path, self.index);
        self.index += 1;
        seed.deserialize(NodeDe { node, path }).map(Some)
    }
}

struct MapAccess<'a, I> {
    entries: I,
    value: Option<(&'a Node, &'a Node)>,
    path: &'a Path<'a>,
    last_key: &'a std::cell::Cell<Option<Pos>>,
}

impl<'de, 'a, I: Iterator<Item = &'a (Node, Node)>> de::MapAccess<'de> for MapAccess<'a, I> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((k, v)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some((k, v));
        self.last_key.set(Some(k.pos));
        // The key's own errors (an unknown key) are reported at the key,
        // under the path of the mapping.
        seed.deserialize(NodeDe {
            node: k,
            path: *self.path,
        })
        .map(Some)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        let (k, v) = self.value.take().expect("a value follows its key");
        let key = k.as_str().unwrap_or("?");
        let path = Path::Key(self.path, key);
        seed.deserialize(NodeDe { node: v, path })
    }
}

// ----- writing ---------------------------------------------------------------

/// The tree as a serde_yaml value, typed as it reads (plain scalars by the
/// YAML 1.2 core schema, quoted and block scalars as text), so that
/// writing it and reading it back gives the same ruleset. Positions are
/// left behind: a written ruleset is one file.
pub fn to_value(node: &Node) -> serde_yaml::Value {
    use serde_yaml::Value;
    match &node.kind {
        Kind::Scalar {
            text,
            style: Style::Plain,
        } => match plain(text) {
            Plain::Null => Value::Null,
            Plain::Bool(b) => Value::Bool(b),
            Plain::Int(i) => Value::Number(i.into()),
            Plain::UInt(u) => Value::Number(u.into()),
            Plain::Float(f) => Value::Number(f.into()),
            Plain::BigInt | Plain::Str => Value::String(text.clone()),
        },
        Kind::Scalar { text, .. } => Value::String(text.clone()),
        Kind::Seq(items) => Value::Sequence(items.iter().map(to_value).collect()),
        Kind::Map(entries) => Value::Mapping(
            entries
                .iter()
                .map(|(k, v)| (to_value(k), to_value(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> (SourceFile, Node) {
        let src = SourceFile::new("t.yaml", text);
        let node = parse(&src, 0).unwrap();
        (src, node)
    }

    #[test]
    fn deleting_an_entry_keeps_the_order_of_the_rest() {
        let (_, mut base) = tree("end: {a: 1, b: 2, c: 3, d: 4}");
        let (_, child) = tree("end: {b: null, e: 5}");
        merge(&mut base, child);
        let keys: Vec<_> = base
            .get("end")
            .unwrap()
            .entries()
            .iter()
            .map(|(k, _)| k.as_str().unwrap().to_string())
            .collect();
        assert_eq!(keys, ["a", "c", "d", "e"]);
    }

    #[test]
    fn value_offsets_follow_escapes_and_folding() {
        let text = "a: \"x ==\\tyz\"\nb: >\n  one\n  two three\nc: 'it''s q'\n";
        let (src, n) = tree(text);
        let a = n.get("a").unwrap();
        // `y` is byte 5 of the value (the escape is one byte there).
        assert_eq!(&text[a.value_offset(&src.text, 5)..][..2], "yz");
        let b = n.get("b").unwrap();
        let i = b.as_str().unwrap().find("three").unwrap();
        assert_eq!(&text[b.value_offset(&src.text, i)..][..5], "three");
        let c = n.get("c").unwrap();
        let i = c.as_str().unwrap().find('q').unwrap();
        assert_eq!(&text[c.value_offset(&src.text, i)..][..1], "q");
    }

    #[test]
    fn deep_nesting_is_refused_quickly() {
        let text = format!("a: {}{}", "[".repeat(200_000), "]".repeat(200_000));
        let src = SourceFile::new("t.yaml", text);
        let e = parse(&src, 0).unwrap_err();
        assert!(e.message.contains("nested more than 64"), "{e}");
        assert_eq!(e.location.map(|l| l.line), Some(1));
    }

    #[test]
    fn a_key_written_twice_is_refused_at_the_second() {
        let src = SourceFile::new("t.yaml", "a: 1\nb: 2\na: 3\n");
        let e = parse(&src, 0).unwrap_err();
        assert_eq!(e.location.as_ref().map(|l| (l.line, l.col)), Some((3, 1)));
        assert!(e.notes[0].contains("t.yaml:1:1"), "{e}");
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let (_, n) = tree("\u{feff}name: x\n");
        assert_eq!(n.get("name").and_then(Node::as_str), Some("x"));
    }
}
