//! A small structural scanner of SGF text.
//!
//! `sgf-parse` says *what* is wrong with a malformed file but not *where*,
//! and gives no offsets for the properties it reads. This scanner walks the
//! same grammar (`(` `;` `ID[value]…` `)`), recording the byte offset of
//! every node and property, and stops at the first structural error with
//! its offset, so errors can be reported as `file:line:col`.

/// A property as written: its identifier (lowercase letters of old FF[3]
/// identifiers dropped, as `sgf-parse` does) and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScannedProp {
    pub id: String,
    pub offset: usize,
}

/// A node (`;` and its properties), in text order (a preorder walk of the tree).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScannedNode {
    pub offset: usize,
    pub props: Vec<ScannedProp>,
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
pub fn scan(text: &str) -> (Vec<ScannedNode>, Option<SyntaxError>) {
    let b = text.as_bytes();
    let mut nodes: Vec<ScannedNode> = Vec::new();
    let mut i = 0;
    let mut depth = 0usize;
    let mut trees = 0usize;
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
                }
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
                nodes.push(ScannedNode {
                    offset: i,
                    props: Vec::new(),
                });
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
                let id: String = text[start..i]
                    .chars()
                    .filter(char::is_ascii_uppercase)
                    .collect();
                if id.is_empty() {
                    return (
                        nodes,
                        err(
                            start,
                            "a property identifier needs upper-case letters".to_string(),
                        ),
                    );
                }
                let mut values = 0;
                loop {
                    while i < b.len() && b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if i >= b.len() || b[i] != b'[' {
                        break;
                    }
                    let open = i;
                    i += 1;
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
                            Some(b'\\') => i += 2,
                            Some(b']') => {
                                i += 1;
                                break;
                            }
                            Some(_) => i += 1,
                        }
                    }
                    values += 1;
                }
                if values == 0 {
                    return (
                        nodes,
                        err(
                            i.min(b.len()),
                            format!("property `{id}` has no value: expected `[`"),
                        ),
                    );
                }
                if let Some(node) = nodes.last_mut() {
                    node.props.push(ScannedProp { id, offset: start });
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
