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
    pub id: String,
    pub offset: usize,
    /// The identifier as written (`b` or `AddBlack` as well as `B`).
    pub written: String,
    /// Each value, unescaped, with the byte offset of its text (after `[`).
    pub values: Vec<(String, usize)>,
}

/// A node (`;` and its properties), in text order (a preorder walk of the tree).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScannedNode {
    pub offset: usize,
    pub props: Vec<ScannedProp>,
    /// Indices (in the scan's node list) of the nodes that follow this one:
    /// the first is the main line, the others are variations.
    pub children: Vec<usize>,
}

impl ScannedNode {
    pub fn prop(&self, id: &str) -> Option<&ScannedProp> {
        self.props.iter().find(|p| p.id == id)
    }
}

/// The first structural error: byte offset and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub offset: usize,
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
    let b = text.as_bytes();
    let mut nodes: Vec<ScannedNode> = Vec::new();
    let mut i = 0;
    let mut depth = 0usize;
    let mut trees = 0usize;
    // The node a new node follows, and that node saved at each open `(`.
    let mut tail: Option<usize> = None;
    let mut saved: Vec<Option<usize>> = Vec::new();
    let mut state = State::Top;
    let err = |offset: usize, message: String| Some(SyntaxError { offset, message });
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == b.len() {
            let e = if depth > 0 {
                err(
                    b.len(),
                    format!("the text ends inside a game tree: {depth} `)` missing"),
                )
            } else if trees == 0 {
                err(0, "no game tree: SGF text starts with `(;`".to_string())
            } else {
                None
            };
            return (nodes, e);
        }
        let c = b[i];
        match (state, c) {
            (State::Top, b'(') | (State::Node | State::Closed, b'(') => {
                if state == State::Top {
                    trees += 1;
                    tail = None;
                }
                saved.push(tail);
                depth += 1;
                state = State::Open;
                i += 1;
            }
            (State::Top, _) if trees > 0 => {
                // Text after the last game tree is ignored, as readers do.
                return (nodes, None);
            }
            (State::Top, _) => {
                return (
                    nodes,
                    err(i, "expected `(` to start a game tree".to_string()),
                )
            }
            (State::Open | State::Node, b';') => {
                let index = nodes.len();
                if let Some(t) = tail {
                    nodes[t].children.push(index);
                }
                nodes.push(ScannedNode {
                    offset: i,
                    props: Vec::new(),
                    children: Vec::new(),
                });
                tail = Some(index);
                state = State::Node;
                i += 1;
            }
            (State::Open, _) => {
                return (
                    nodes,
                    err(i, "expected `;` to start a node after `(`".to_string()),
                )
            }
            (State::Node | State::Closed, b')') => {
                tail = saved.pop().flatten();
                depth -= 1;
                state = if depth == 0 {
                    State::Top
                } else {
                    State::Closed
                };
                i += 1;
            }
            (State::Closed, _) => {
                return (
                    nodes,
                    err(
                        i,
                        "expected `(` (another variation) or `)` after a variation".to_string(),
                    ),
                )
            }
            (State::Node, c) if c.is_ascii_alphabetic() => {
                let start = i;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let ident_end = i;
                let written = &text[start..i];
                let id: String = written.chars().filter(char::is_ascii_uppercase).collect();
                if id.is_empty() {
                    return (
                        nodes,
                        err(
                            start,
                            format!(
                                "`{written}` is not a property: SGF identifiers are upper-case (`{}`)",
                                written.to_ascii_uppercase()
                            ),
                        ),
                    );
                }
                let mut values = Vec::new();
                loop {
                    while i < b.len() && b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if i >= b.len() || b[i] != b'[' {
                        break;
                    }
                    let open = i;
                    i += 1;
                    let mut value = String::new();
                    let mut from = i;
                    loop {
                        match b.get(i) {
                            None => {
                                return (
                                    nodes,
                                    err(
                                        open,
                                        format!(
                                            "the value of `{id}` starting here has no closing `]`"
                                        ),
                                    ),
                                )
                            }
                            Some(b'\\') => {
                                // An escaped character stands for itself; an
                                // escaped line break is removed (a soft break).
                                value.push_str(&text[from..i]);
                                i += 1;
                                match b.get(i) {
                                    Some(b'\n') => {
                                        i += usize::from(b.get(i + 1) == Some(&b'\r')) + 1
                                    }
                                    Some(b'\r') => {
                                        i += usize::from(b.get(i + 1) == Some(&b'\n')) + 1
                                    }
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
                                i += 1;
                                break;
                            }
                            Some(_) => i += 1,
                        }
                    }
                    values.push((value, open + 1));
                }
                if values.is_empty() {
                    return (
                        nodes,
                        err(
                            i.min(b.len()),
                            format!("property `{id}` has no value: expected `[`"),
                        ),
                    );
                }
                if let Some(node) = nodes.last_mut() {
                    node.props.push(ScannedProp {
                        id,
                        offset: start,
                        written: text[start..ident_end].to_string(),
                        values,
                    });
                }
            }
            (State::Node, c) => {
                let shown = text[i..].chars().next().unwrap_or(c as char);
                return (
                    nodes,
                    err(
                        i,
                        format!("unexpected `{shown}`: expected a property, `;`, `(` or `)`"),
                    ),
                );
            }
        }
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
