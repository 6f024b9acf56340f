//! `--judge` input cut into lines, each a board and the moves to judge,
//! however long.

use eight::Walk;
use eight::{Board, Layout};

/// `--judge` input, cut into lines as it comes. A line is kept while it is
/// short, each run of spaces and tabs as one space. Once one of its tokens
/// runs past [`BOARD_TOKEN`] bytes, longer than any board's, that token is
/// the moves: the text before it is the board, and the moves are followed
/// as they come. So a line of any length is judged in full, with memory for
/// its board alone (and for its letters where the output shows them).
pub(crate) struct JudgeLines {
    layout: Layout,
    /// Whether long moves keep their letters, for an output that shows them.
    keep_letters: bool,
    /// The lines ended so far.
    line: u64,
    /// The line so far, or its board's text once its moves run long.
    text: Vec<u8>,
    /// The bytes of the token at the end of `text`.
    token: usize,
    /// The line ran past [`MAX_HEAD`] bytes before any long token: the rest
    /// of it is skipped.
    overflow: bool,
    /// Long moves, followed as they come.
    moves: Option<LongMoves>,
}

/// A token longer than this is no board's: the moves.
pub(crate) const BOARD_TOKEN: usize = 256;

/// The most bytes of a `--judge` line kept before its moves.
pub(crate) const MAX_HEAD: usize = 1 << 12;

/// A `--judge` line, as [`JudgeLines`] hands it over.
pub(crate) enum JudgeLine<'a> {
    /// The whole line, each run of spaces and tabs as one space.
    Text(&'a [u8]),
    /// A line whose moves ran long: the board's text, and the moves.
    Long { board: &'a [u8], moves: LongMoves },
    /// A line of more than [`MAX_HEAD`] bytes before its moves.
    TooLong,
}

/// Moves too long to keep, followed as they come.
pub(crate) struct LongMoves {
    /// The moves followed, if the text before them is a board.
    pub(crate) walk: Option<Walk>,
    /// Their letters, if kept.
    pub(crate) letters: Vec<u8>,
    /// The moves' token has ended.
    ended: bool,
    /// Something follows the moves on their line.
    pub(crate) trailing: bool,
}

impl LongMoves {
    fn take(&mut self, mut bytes: &[u8], keep_letters: bool) {
        if !self.ended {
            let end = bytes
                .iter()
                .position(u8::is_ascii_whitespace)
                .unwrap_or(bytes.len());
            if let Some(walk) = &mut self.walk {
                walk.follow(&bytes[..end]);
                if keep_letters {
                    self.letters.extend_from_slice(&bytes[..end]);
                }
            }
            self.ended = end < bytes.len();
            bytes = &bytes[end..];
        }
        self.trailing |= !bytes.iter().all(u8::is_ascii_whitespace);
    }
}

impl JudgeLines {
    pub(crate) fn new(layout: Layout, keep_letters: bool) -> JudgeLines {
        JudgeLines {
            layout,
            keep_letters,
            line: 0,
            text: Vec::new(),
            token: 0,
            overflow: false,
            moves: None,
        }
    }

    pub(crate) fn feed(&mut self, mut bytes: &[u8], each: &mut impl FnMut(u64, JudgeLine<'_>)) {
        loop {
            let end = memchr::memchr(b'\n', bytes);
            self.take(&bytes[..end.unwrap_or(bytes.len())]);
            let Some(end) = end else {
                return;
            };
            self.end_line(each);
            bytes = &bytes[end + 1..];
        }
    }

    /// Takes bytes of the line being read.
    fn take(&mut self, bytes: &[u8]) {
        if let Some(moves) = &mut self.moves {
            moves.take(bytes, self.keep_letters);
            return;
        }
        if self.overflow {
            return;
        }
        for (i, &byte) in bytes.iter().enumerate() {
            if byte == b' ' || byte == b'\t' {
                if self.token > 0 {
                    self.text.push(b' ');
                    self.token = 0;
                }
                continue;
            }
            self.text.push(byte);
            self.token += 1;
            if self.token > BOARD_TOKEN {
                let start = self.text.len() - self.token;
                let head = self.text.split_off(start);
                let board = self.text.trim_ascii_end();
                let mut moves = LongMoves {
                    walk: Board::parse_in(self.layout, board).ok().map(Walk::new),
                    letters: Vec::new(),
                    ended: false,
                    trailing: false,
                };
                moves.take(&head, self.keep_letters);
                moves.take(&bytes[i + 1..], self.keep_letters);
                self.moves = Some(moves);
                return;
            }
            if self.text.len() > MAX_HEAD {
                self.overflow = true;
                self.text.clear();
                return;
            }
        }
    }

    /// Hands over the line read, and starts the next.
    fn end_line(&mut self, each: &mut impl FnMut(u64, JudgeLine<'_>)) {
        self.line += 1;
        let line = match self.moves.take() {
            Some(moves) => JudgeLine::Long {
                board: self.text.trim_ascii_end(),
                moves,
            },
            None if self.overflow => JudgeLine::TooLong,
            None => JudgeLine::Text(&self.text),
        };
        each(self.line, line);
        self.text.clear();
        self.token = 0;
        self.overflow = false;
    }

    /// Hands over a last line with no line end, if any.
    pub(crate) fn finish(&mut self, each: &mut impl FnMut(u64, JudgeLine<'_>)) {
        if !self.text.is_empty() || self.moves.is_some() || self.overflow {
            self.end_line(each);
        }
    }
}

/// Whether `token` is moves in a notation the program writes: blank
/// letters (`dlur`), tile letters with counts (`R2U2L`), or `-`.
fn is_moves(token: &[u8]) -> bool {
    match token {
        b"-" => true,
        [first, ..] if first.is_ascii_lowercase() => {
            token.iter().all(|b| matches!(b, b'd' | b'l' | b'r' | b'u'))
        }
        [first, ..] if first.is_ascii_uppercase() => token
            .iter()
            .all(|b| matches!(b, b'D' | b'L' | b'R' | b'U') || b.is_ascii_digit()),
        _ => false,
    }
}

/// A `--judge` line (each run of spaces one space) cut into its board and
/// its moves: the moves are the longest run of last tokens that are moves
/// (one word, or moves spaced as the page writes them, `U R2 D`) whose
/// text before is a board; else the last token, so that what is wrong with
/// the board is told.
pub(crate) fn split_judged(layout: Layout, text: &[u8]) -> Option<(&[u8], &[u8])> {
    let spaces: Vec<usize> = text
        .iter()
        .enumerate()
        .filter(|(_, b)| b.is_ascii_whitespace())
        .map(|(at, _)| at)
        .collect();
    let last = *spaces.last()?;
    // The spaces that start a run of move tokens reaching the end, the
    // leftmost first.
    let mut starts = Vec::new();
    let mut end = text.len();
    for &at in spaces.iter().rev() {
        if !is_moves(&text[at + 1..end]) {
            break;
        }
        starts.push(at);
        end = at;
    }
    starts
        .iter()
        .rev()
        .map(|&at| (&text[..at], &text[at + 1..]))
        .find(|(board, _)| Board::parse_in(layout, board).is_ok())
        .or(Some((&text[..last], &text[last + 1..])))
}

#[cfg(test)]
mod tests {
    use super::split_judged;
    use eight::Layout;

    #[test]
    fn moves_are_the_last_tokens_that_are_moves_after_a_board() {
        let split = |text: &str| {
            split_judged(Layout::Auto, text.as_bytes()).map(|(board, moves)| {
                (
                    String::from_utf8_lossy(board).into_owned(),
                    String::from_utf8_lossy(moves).into_owned(),
                )
            })
        };
        let board = "2 3 4 1 5 x 7 6 8";
        for moves in ["dlur", "URDLDR2U2", "U R D L", "U R2 D", "-", "d l u"] {
            assert_eq!(
                split(&format!("{board} {moves}")),
                Some((board.to_string(), moves.to_string())),
                "{moves}"
            );
        }
        // Not moves: the last token, so the board's fault is told.
        assert_eq!(
            split("1 2 3 x"),
            Some(("1 2 3".to_string(), "x".to_string()))
        );
        assert_eq!(split("12345678x"), None);
    }
}
