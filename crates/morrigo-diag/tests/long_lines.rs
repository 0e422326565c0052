//! A diagnostic about a very long line (a one-line record or SGF file of a
//! megabyte) shows a window of the line around the column, with `…` where
//! it is cut and the caret under the character it is about; the column in
//! the header still counts from the start of the line.

use morrigo_diag::{Diagnostic, SourceFile, SOURCE_WINDOW};

/// A 1,000-character line of numbered words, multi-byte characters among
/// them, with `BAD` at character `at` (0-based).
fn line_with_error_at(at: usize) -> String {
    let mut line: String = (0..1000)
        .map(|i| match i % 10 {
            9 => ' ',
            3 => 'é',
            _ => char::from(b'a' + (i / 10 % 26) as u8),
        })
        .collect();
    let start: usize = line.chars().take(at).map(char::len_utf8).sum();
    line.replace_range(start..start + 3, "BAD");
    line
}

fn render(at: usize) -> String {
    let line = line_with_error_at(at);
    let f = SourceFile::new("game.txt", format!("{line}\n"));
    let offset: usize = line.chars().take(at).map(char::len_utf8).sum();
    let d = Diagnostic::new("cannot read `BAD`").at(f.location(offset));
    let text = d.to_string();
    // The caret is under the `B` of `BAD`, counted in characters.
    let lines: Vec<&str> = text.lines().collect();
    let shown = lines[2].chars().position(|c| c == 'B').expect("BAD shown");
    let caret = lines[3].chars().position(|c| c == '^').expect("caret");
    assert_eq!(shown, caret, "{text}");
    assert!(lines[2].chars().count() <= "1 | ".len() + SOURCE_WINDOW + 2);
    text
}

#[test]
fn an_error_in_the_middle_of_a_long_line() {
    insta::assert_snapshot!(render(500));
}

#[test]
fn an_error_near_the_start_of_a_long_line() {
    insta::assert_snapshot!(render(4));
}

#[test]
fn an_error_near_the_end_of_a_long_line() {
    insta::assert_snapshot!(render(995));
}

/// A short line is shown whole, as before.
#[test]
fn a_short_line_is_shown_whole() {
    let f = SourceFile::new("x.txt", "a1 d2 zz9\n");
    let text = Diagnostic::new("unknown point `zz9`")
        .at(f.location(6))
        .to_string();
    assert_eq!(
        text,
        "x.txt:1:7: error: unknown point `zz9`\n  |\n1 | a1 d2 zz9\n  |       ^"
    );
}
