//! The SGF reader: a single iterative pass over the text.
//!
//! It walks the grammar (`(` `;` `ID[value]…` `)`) with an explicit stack,
//! so neither a variation nested 150,000 deep nor a main line of a million
//! nodes can exhaust the call stack, and records the byte offset of every
//! node, property and value, so errors are reported as `file:line:col`. It
//! stops at the first structural error with its offset.

/// A property as written: its identifier (lowercase letters of old FF[3]
/// identifiers dropped: `AddBlack` is `AB`) and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScannedProp {
    /// The identifier's upper-case letters (`AB`).
    pub id: String,
    /// Byte offset of the identifier.
    pub offset: usize,
    /// The identifier as written (`b` or `AddBlack` as well as `B`).
    pub written: String,
    /// Each value, unescaped, with the byte offset of its text (after `[`).
    pub values: Vec<(String, usize)>,
}

/// A node (`;` and its properties), in text order (a preorder walk of the tree).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScannedNode {
    /// Byte offset of its `;`.
    pub offset: usize,
    /// Its properties, in text order.
    pub props: Vec<ScannedProp>,
    /// Indices (in the scan's node list) of the nodes that follow this one:
    /// the first is the main line, the others are variations.
    pub children: Vec<usize>,
}

impl ScannedNode {
    /// The node's first property with identifier `id`.
    pub fn prop(&self, id: &str) -> Option<&ScannedProp> {
        self.props.iter().find(|p| p.id == id)
    }
}

/// The first structural error: byte offset and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where the scan stopped (a byte offset).
    pub offset: usize,
    /// What is wrong there.
    pub message: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between game trees.
    Top,
    /// Just after `(`: a node must follow.
    Open,
    /// In a sequence of nodes.
    Node,
    /// After a `)` closing a variation: another variation or `)`.
    Closed,
}

/// Scan `text`; the nodes found so far, and the first error if any.
/// Nodes are numbered in text order; the root of the first game tree is
/// node 0, and the roots of further game trees are counted in `trees`.
pub fn scan(text: &str) -> (Vec<ScannedNode>, Option<SyntaxError>) {
    let mut scanner = Scanner::new(text);
    let error = scanner.run().err();
    (scanner.nodes, error)
}

fn error(offset: usize, message: String) -> SyntaxError {
    SyntaxError { offset, message }
}

/// The scan in progress: where it is, the nodes so far and the open `(`s.
struct Scanner<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    nodes: Vec<ScannedNode>,
    depth: usize,
    trees: usize,
    /// The node a new node follows, and that node saved at each open `(`.
    tail: Option<usize>,
    saved: Vec<Option<usize>>,
    state: State,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner {
            text,
            b: text.as_bytes(),
            i: 0,
            nodes: Vec::new(),
            depth: 0,
            trees: 0,
            tail: None,
            saved: Vec::new(),
            state: State::Top,
        }
    }

    /// Scan to the end of the text (or of the last game tree) or the first
    /// error. Each step consumes at least one byte or stops the scan.
    fn run(&mut self) -> Result<(), SyntaxError> {
        loop {
            self.skip_whitespace();
            let Some(&c) = self.b.get(self.i) else {
                return self.at_end();
            };
            match (self.state, c) {
                (State::Top | State::Node | State::Closed, b'(') => self.open_tree(),
                // Text after the last game tree is ignored, as readers do.
                (State::Top, _) if self.trees > 0 => return Ok(()),
                (State::Top, _) => {
                    return Err(error(
                        self.i,
                        "expected `(` to start a game tree".to_string(),
                    ))
                }
                (State::Open | State::Node, b';') => self.start_node(),
                (State::Open, _) => {
                    return Err(error(
                        self.i,
                        "expected `;` to start a node after `(`".to_string(),
                    ))
                }
                (State::Node | State::Closed, b')') => self.close_tree(),
                (State::Closed, _) => {
                    return Err(error(
                        self.i,
                        "expected `(` (another variation) or `)` after a variation".to_string(),
                    ))
                }
                (State::Node, c) if c.is_ascii_alphabetic() => self.property()?,
                (State::Node, c) => return Err(self.unexpected(c)),
            }
        }
    }

    fn skip_whitespace(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    /// The text has ended: an error if a game tree is still open or there was none.
    fn at_end(&self) -> Result<(), SyntaxError> {
        if self.depth > 0 {
            Err(error(
                self.b.len(),
                format!(
                    "the text ends inside a game tree: {} `)` missing",
                    self.depth
                ),
            ))
        } else if self.trees == 0 {
            Err(error(
                0,
                "no game tree: SGF text starts with `(;`".to_string(),
            ))
        } else {
            Ok(())
        }
    }

    /// `(`: a game tree, or a variation of the node before it.
    fn open_tree(&mut self) {
        if self.state == State::Top {
            self.trees += 1;
            self.tail = None;
        }
        self.saved.push(self.tail);
        self.depth += 1;
        self.state = State::Open;
        self.i += 1;
    }

    /// `;`: a node, following the one before it (if any).
    fn start_node(&mut self) {
        let index = self.nodes.len();
        if let Some(t) = self.tail {
            self.nodes[t].children.push(index);
        }
        self.nodes.push(ScannedNode {
            offset: self.i,
            props: Vec::new(),
            children: Vec::new(),
        });
        self.tail = Some(index);
        self.state = State::Node;
        self.i += 1;
    }

    /// `)`: back to the node the variation started from.
    fn close_tree(&mut self) {
        self.tail = self.saved.pop().flatten();
        self.depth -= 1;
        self.state = if self.depth == 0 {
            State::Top
        } else {
            State::Closed
        };
        self.i += 1;
    }

    /// A property of the current node: its identifier and one or more values.
    fn property(&mut self) -> Result<(), SyntaxError> {
        let text = self.text;
        let start = self.i;
        while self.i < self.b.len() && self.b[self.i].is_ascii_alphabetic() {
            self.i += 1;
        }
        let written = &text[start..self.i];
        let id: String = written.chars().filter(char::is_ascii_uppercase).collect();
        if id.is_empty() {
            return Err(error(
                start,
                format!(
                    "`{written}` is not a property: SGF identifiers are upper-case (`{}`)",
                    written.to_ascii_uppercase()
                ),
            ));
        }
        let values = self.values(&id)?;
        if values.is_empty() {
            return Err(error(
                self.i.min(self.b.len()),
                format!("property `{id}` has no value: expected `[`"),
            ));
        }
        if let Some(node) = self.nodes.last_mut() {
            node.props.push(ScannedProp {
                id,
                offset: start,
                written: written.to_string(),
                values,
            });
        }
        Ok(())
    }

    /// The values after a property identifier: each `[…]`, whitespace between.
    fn values(&mut self, id: &str) -> Result<Vec<(String, usize)>, SyntaxError> {
        let mut values = Vec::new();
        loop {
            self.skip_whitespace();
            if self.i >= self.b.len() || self.b[self.i] != b'[' {
                return Ok(values);
            }
            values.push(self.value(id)?);
        }
    }

    /// One `[…]` value, unescaped, with the offset of its text.
    fn value(&mut self, id: &str) -> Result<(String, usize), SyntaxError> {
        let (text, b) = (self.text, self.b);
        let open = self.i;
        let mut i = open + 1;
        let mut value = String::new();
        let mut from = i;
        loop {
            match b.get(i) {
                None => {
                    return Err(error(
                        open,
                        format!("the value of `{id}` starting here has no closing `]`"),
                    ))
                }
                Some(b'\\') => {
                    // An escaped character stands for itself; an
                    // escaped line break is removed (a soft break).
                    value.push_str(&text[from..i]);
                    i += 1;
                    match b.get(i) {
                        Some(b'\n') => i += usize::from(b.get(i + 1) == Some(&b'\r')) + 1,
                        Some(b'\r') => i += usize::from(b.get(i + 1) == Some(&b'\n')) + 1,
                        Some(_) => {
                            from = i;
                            i += 1;
                            continue;
                        }
                        None => {}
                    }
                    from = i;
                }
                Some(b']') => {
                    value.push_str(&text[from..i]);
                    self.i = i + 1;
                    return Ok((value, open + 1));
                }
                Some(_) => i += 1,
            }
        }
    }

    /// A byte that cannot start anything in a node.
    fn unexpected(&self, c: u8) -> SyntaxError {
        let shown = self.text[self.i..].chars().next().unwrap_or(c as char);
        error(
            self.i,
            format!("unexpected `{shown}`: expected a property, `;`, `(` or `)`"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_nodes_and_properties_in_text_order() {
        let (nodes, e) = scan("(;GM[1]SZ[9]\n;B[dd] C[x\\]y];W[])");
        assert_eq!(e, None);
        assert_eq!(nodes.len(), 3);
        assert_eq!(nodes[1].props[0].id, "B");
        assert_eq!(nodes[1].props[1].id, "C");
        assert_eq!(nodes[2].props[0].offset, 28);
    }

    #[test]
    fn locates_errors() {
        assert_eq!(scan("(;B[dd").1.unwrap().offset, 3);
        assert_eq!(scan("(;B[dd];W[cc]").1.unwrap().offset, 13);
        assert_eq!(scan("(;B[dd]W)").1.unwrap().offset, 8);
        assert_eq!(scan("(B[dd])").1.unwrap().offset, 1);
        assert_eq!(scan("  ").1.unwrap().offset, 0);
        assert_eq!(scan("(;B[dd]%)").1.unwrap().offset, 7);
    }
}
