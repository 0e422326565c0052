//! Locations in long texts without rescanning: the start of every line is
//! found once, so each `file:line:col` costs a binary search, not a pass
//! over the text before it (a 100,000-move record or a file of 10,000
//! scenarios stays linear).

use morrigo_diag::{Location, SourceFile};
use std::sync::Arc;

/// The byte offset at which each line of a text starts.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The line starts of `text`.
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// The same location as [`SourceFile::location`], in logarithmic time.
    pub fn location(&self, source: &SourceFile, offset: usize) -> Location {
        let text = &*source.text;
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let col = text[start..offset].chars().count() + 1;
        let source_line = (start < text.len()).then(|| {
            let end = text[start..].find('\n').map_or(text.len(), |e| start + e);
            Arc::from(text[start..end].trim_end_matches('\r'))
        });
        Location {
            file: source.name.clone(),
            line,
            col,
            source_line,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_source_file() {
        for text in ["", "a", "ab\ncd\n", "x\r\n\r\nyé z\n\nw", "\n\n"] {
            let f = SourceFile::new("t", text);
            let idx = LineIndex::new(text);
            for o in 0..=text.len() + 2 {
                if o <= text.len() && !text.is_char_boundary(o) {
                    continue;
                }
                assert_eq!(idx.location(&f, o), f.location(o), "{text:?} at {o}");
            }
        }
    }
}
