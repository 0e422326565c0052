//! The text layer of GTP version 2: reading command lines, writing
//! responses, vertices and colours.
//!
//! As the standard says: control characters other than tab and newline
//! are dropped, a tab counts as a space, everything after `#` is a comment,
//! and a line left empty is no command. A command is an optional numeric
//! id, the command name (case-sensitive, as the standard's names are
//! lower case), then its arguments. A success is `=id text`, a failure
//! `?id message`, each ending with an empty line; a response never holds
//! an empty line of its own.

/// Longest command line read (bytes): a longer line is answered with a
/// failure and skipped, so garbage input cannot grow memory.
pub const MAX_LINE: usize = morrigo_diag::MAX_LINE_BYTES;

/// One command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The numeric id, echoed in the response.
    pub id: Option<u64>,
    /// The command name, as given.
    pub name: String,
    /// The arguments, split at whitespace.
    pub args: Vec<String>,
}

/// Parse one input line: `None` when the standard says it holds no command
/// (empty, blank, or only a comment).
pub fn parse_line(line: &str) -> Option<Command> {
    let cleaned: String = line
        .chars()
        .filter(|c| !c.is_control() || *c == '\t' || *c == '\n')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let text = cleaned.split('#').next().unwrap_or_default();
    let mut words = text.split_whitespace();
    let first = words.next()?;
    let (id, name) = match first.parse::<u64>() {
        Ok(id) if first.bytes().all(|b| b.is_ascii_digit()) => match words.next() {
            Some(name) => (Some(id), name),
            // An id with no command: answered as an empty command.
            None => (Some(id), ""),
        },
        _ => (None, first),
    };
    Some(Command {
        id,
        name: name.to_string(),
        args: words.map(str::to_string).collect(),
    })
}

/// A response to one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `=`: the command succeeded, with this text.
    Success(String),
    /// `?`: the command failed, with this message.
    Failure(String),
}

impl Reply {
    /// The response as sent: `=id text` or `?id message`, then an empty
    /// line. Empty lines inside the text are dropped (they would end the
    /// response early).
    pub fn format(&self, id: Option<u64>) -> String {
        let (mark, text) = match self {
            Reply::Success(t) => ('=', t),
            Reply::Failure(t) => ('?', t),
        };
        let id = id.map(|i| i.to_string()).unwrap_or_default();
        let mut body: Vec<&str> = Vec::new();
        for (i, l) in text.trim_end().split('\n').enumerate() {
            if i == 0 || !l.trim().is_empty() {
                body.push(l.trim_end());
            }
        }
        format!("{mark}{id} {}\n\n", body.join("\n"))
    }
}

/// A GTP colour: `b`/`black` is the ruleset's first player (0), `w`/`white`
/// the second (1); any case.
pub fn parse_colour(text: &str) -> Option<u8> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(0),
        "w" | "white" => Some(1),
        _ => None,
    }
}

/// The colour's GTP letter.
pub fn colour_letter(player: u8) -> char {
    if player == 0 {
        'b'
    } else {
        'w'
    }
}

/// A GTP vertex (`D4`, `j10`, any case; column letters skip `I`) as
/// (column, row), both from 0, the row counted from the bottom. `pass` is
/// not a vertex: callers check for it first.
pub fn parse_vertex(text: &str) -> Option<(u32, u32)> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() || letter == 'I' {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: u32 = digits.parse().ok()?;
    let col = u32::from(letter as u8 - b'A') - u32::from(letter > 'I');
    (row >= 1).then(|| (col, row - 1))
}

/// The vertex of (column, row) in upper case (`J10`).
pub fn vertex_text(col: u32, row: u32) -> String {
    let c = col + u32::from(col >= 8);
    format!("{}{}", (b'A' + c as u8) as char, row + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(id: Option<u64>, name: &str, args: &[&str]) -> Option<Command> {
        Some(Command {
            id,
            name: name.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
        })
    }

    #[test]
    fn ids_names_and_arguments_are_split_on_whitespace() {
        assert_eq!(
            parse_line("12 play b D4\n"),
            cmd(Some(12), "play", &["b", "D4"])
        );
        assert_eq!(
            parse_line("play\tw  pass"),
            cmd(None, "play", &["w", "pass"])
        );
        assert_eq!(parse_line("0 name"), cmd(Some(0), "name", &[]));
    }

    #[test]
    fn comments_blank_lines_and_control_characters_are_dropped() {
        assert_eq!(parse_line(""), None);
        assert_eq!(parse_line("   \t \r\n"), None);
        assert_eq!(parse_line("# just a comment"), None);
        assert_eq!(
            parse_line("name # what is your name"),
            cmd(None, "name", &[])
        );
        assert_eq!(parse_line("na\x07me\r\n"), cmd(None, "name", &[]));
    }

    #[test]
    fn a_word_with_digits_and_letters_is_a_command_not_an_id() {
        assert_eq!(parse_line("12a name"), cmd(None, "12a", &["name"]));
        assert_eq!(parse_line("-3 name"), cmd(None, "-3", &["name"]));
        assert_eq!(parse_line("7"), cmd(Some(7), "", &[]));
    }

    #[test]
    fn responses_carry_the_id_and_end_with_an_empty_line() {
        assert_eq!(Reply::Success("2".into()).format(Some(1)), "=1 2\n\n");
        assert_eq!(Reply::Success(String::new()).format(None), "= \n\n");
        assert_eq!(
            Reply::Failure("illegal move".into()).format(Some(4)),
            "?4 illegal move\n\n"
        );
        // An empty line inside would end the response early.
        assert_eq!(
            Reply::Success("\na\n\nb\n".into()).format(None),
            "= \na\nb\n\n"
        );
    }

    #[test]
    fn colours_are_case_insensitive_letters_or_words() {
        assert_eq!(parse_colour("B"), Some(0));
        assert_eq!(parse_colour("black"), Some(0));
        assert_eq!(parse_colour("WHITE"), Some(1));
        assert_eq!(parse_colour("w"), Some(1));
        assert_eq!(parse_colour("red"), None);
    }

    #[test]
    fn vertex_columns_skip_i() {
        assert_eq!(parse_vertex("A1"), Some((0, 0)));
        assert_eq!(parse_vertex("h8"), Some((7, 7)));
        assert_eq!(parse_vertex("J9"), Some((8, 8)));
        assert_eq!(parse_vertex("T19"), Some((18, 18)));
        assert_eq!(parse_vertex("I5"), None);
        assert_eq!(parse_vertex("A0"), None);
        assert_eq!(parse_vertex("A"), None);
        assert_eq!(parse_vertex("4D"), None);
        assert_eq!(parse_vertex("A123"), None);
        assert_eq!(vertex_text(8, 9), "J10");
        assert_eq!(vertex_text(7, 0), "H1");
        for col in 0..25 {
            for row in [0, 24] {
                assert_eq!(parse_vertex(&vertex_text(col, row)), Some((col, row)));
            }
        }
    }
}
