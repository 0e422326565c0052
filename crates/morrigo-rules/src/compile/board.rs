//! Lowering `board:` to a [`morrigo_board::Topology`]: the one way the
//! board is given, handed to the board crate, its errors located in the file.

use super::Compiler;
use crate::schema::{BoardFile, DiagonalsFile, ExplicitFile, NamingFile, NodeFile};
use crate::yaml::{Kind, Node};
use morrigo_board::{BoardSpec, Diagonals, Named, Naming};
use morrigo_diag::{Diagnostic, Location};

/// The ways to give a board, in `BoardFile` field order.
const BOARD_KINDS: [&str; 5] = [
    "nested_squares",
    "grid",
    "triangular",
    "hexagonal",
    "explicit",
];

impl Compiler<'_> {
    pub(super) fn board(&mut self, board: &BoardFile) -> Option<morrigo_board::Topology> {
        let given = [
            board.nested_squares.is_some(),
            board.grid.is_some(),
            board.triangular.is_some(),
            board.hexagonal.is_some(),
            board.explicit.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            self.report_board_not_given_once();
            return None;
        }
        let spec = self.board_spec(board)?;
        match morrigo_board::build(&spec) {
            Ok(t) => Some(t),
            Err(e) => {
                self.report_board_error(&e, given);
                None
            }
        }
    }

    /// No way or several ways of giving the board: at the board's own kind
    /// (or `board:`), with a note for each kind a parent ruleset gave.
    fn report_board_not_given_once(&mut self) {
        let mut d = Diagnostic::new("a board is given in exactly one way").expected(
            "one of `nested_squares:`, `grid:`, `triangular:`, `hexagonal:`, `explicit:`",
        );
        // A variant replacing its parent's kind of board must delete it.
        let inherited: Vec<&str> = BOARD_KINDS
            .into_iter()
            .filter(|k| {
                self.loaded
                    .node(&["board", k])
                    .is_some_and(|n| n.pos.file > 0)
            })
            .collect();
        let own: Option<&str> = BOARD_KINDS.into_iter().find(|k| {
            self.loaded
                .node(&["board", k])
                .is_some_and(|n| n.pos.file == 0)
        });
        for k in &inherited {
            if own.is_some() {
                d = d.note(format!(
                    "`{k}:` is inherited from the parent ruleset; write `{k}: null` under `board:` to replace it"
                ));
            }
        }
        let at = own
            .and_then(|k| self.loaded.key_at(&["board", k]))
            .or_else(|| self.loaded.key_at(&["board"]));
        self.errors.push(d.at_opt(at));
    }

    /// The board crate's description of the one board given.
    fn board_spec(&self, board: &BoardFile) -> Option<BoardSpec> {
        let spec = if let Some(n) = &board.nested_squares {
            BoardSpec::NestedSquares {
                rings: n.rings,
                midpoint_links: n.midpoint_links,
                corner_diagonals: n.corner_diagonals,
                line_length: n.line_length,
            }
        } else if let Some(g) = &board.grid {
            BoardSpec::Grid {
                width: g.width,
                height: g.height,
                diagonals: match g.diagonals {
                    DiagonalsFile::None => Diagonals::None,
                    DiagonalsFile::Long => Diagonals::Long,
                    DiagonalsFile::Alternate => Diagonals::Alternate,
                    DiagonalsFile::All => Diagonals::All,
                    DiagonalsFile::Crossed => Diagonals::Crossed,
                },
                naming: match g.naming {
                    NamingFile::Algebraic => Naming::Algebraic,
                    NamingFile::Gtp => Naming::Gtp,
                },
                line_length: g.lines,
            }
        } else if let Some(t) = &board.triangular {
            BoardSpec::Triangular {
                side: t.side,
                line_length: t.lines,
            }
        } else if let Some(h) = &board.hexagonal {
            BoardSpec::Hexagonal {
                side: h.side,
                line_length: h.lines,
            }
        } else {
            self.explicit_spec(board.explicit.as_ref()?)
        };
        Some(spec)
    }

    /// An explicit board, each name of a node, edge and line paired with
    /// where it is written.
    fn explicit_spec(&self, e: &ExplicitFile) -> BoardSpec {
        let node_names = e.nodes.iter().map(|n| match n {
            NodeFile::Name(name) | NodeFile::Placed { name, .. } => name.as_str(),
        });
        let nodes = self.located_names("nodes", node_names);
        let coords = e.nodes.iter().map(|n| match n {
            NodeFile::Name(_) => None,
            NodeFile::Placed { at, .. } => Some((at[0], at[1])),
        });
        let edge_names = e.edges.iter().flat_map(|[a, b]| [a.as_str(), b.as_str()]);
        let mut edge_named = self.located_names("edges", edge_names).into_iter();
        let mut edges = Vec::new();
        while let (Some(a), Some(b)) = (edge_named.next(), edge_named.next()) {
            edges.push((a, b));
        }
        let line_names = e.lines.iter().flatten().map(String::as_str);
        let mut line_named = self.located_names("lines", line_names).into_iter();
        let lines = e
            .lines
            .iter()
            .map(|l| line_named.by_ref().take(l.len()).collect())
            .collect();
        BoardSpec::Explicit {
            nodes: nodes.into_iter().zip(coords).collect(),
            edges,
            lines,
        }
    }

    /// A board the board crate refuses. `given` says which kind of board
    /// was given, in `BOARD_KINDS` order.
    fn report_board_error(&mut self, e: &morrigo_board::BoardError, given: [bool; 5]) {
        let mut d = e.to_diagnostic();
        // A generator parameter out of range is located at its key
        // (the board crate names parameters by their ruleset keys).
        let param = match e {
            morrigo_board::BoardError::ParamOutOfRange { param, .. } => Some(*param),
            _ => None,
        };
        let kind = BOARD_KINDS
            .into_iter()
            .zip(given)
            .find(|g| g.1)
            .map(|g| g.0);
        let path = kind.zip(param).map(|(k, p)| ["board", k, p]);
        // `--size` replaces the value but not the key written in the file.
        let from_command_line = path
            .as_ref()
            .and_then(|p| self.loaded.node(p))
            .is_some_and(|n| n.pos.file == usize::MAX);
        let fallback = match from_command_line {
            true => {
                d = d.note("the value comes from `--size` on the command line");
                self.loaded.key_at(&["board"])
            }
            false => path
                .as_ref()
                .and_then(|p| self.loaded.key_at(p))
                .or_else(|| self.loaded.key_at(&["board"])),
        };
        self.errors.push(d.at_opt(fallback));
    }

    /// Where each name of an explicit board list (`nodes`, `edges`,
    /// `lines`) is written, in order: one location per name, read from the
    /// merged tree, so inherited names point into the parent file.
    pub(super) fn explicit_locations(&self, list: &str) -> Vec<Option<Location>> {
        let mut locators: Vec<_> = self.loaded.chain.iter().map(|s| s.locator()).collect();
        let mut out = Vec::new();
        let Some(items) = self.loaded.node(&["board", "explicit", list]) else {
            return out;
        };
        let mut at = |n: &Node| {
            locators
                .get_mut(n.pos.file)
                .map(|l| l.location(n.pos.start))
        };
        for item in items.items() {
            match &item.kind {
                Kind::Scalar { .. } => out.push(at(item)),
                Kind::Map(_) => out.push(item.get("name").and_then(&mut at)),
                Kind::Seq(names) => out.extend(names.iter().map(&mut at)),
            }
        }
        out
    }

    /// Typed names paired with where they are written.
    fn located_names<'n>(
        &self,
        list: &str,
        names: impl IntoIterator<Item = &'n str>,
    ) -> Vec<Named> {
        let mut at = self.explicit_locations(list).into_iter();
        names
            .into_iter()
            .map(|name| Named {
                name: name.to_string(),
                at: at.next().flatten(),
            })
            .collect()
    }
}
