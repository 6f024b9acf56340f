//! Boards, moves, and the one parser for every input layout.
//!
//! A [`Board`] is a [`Shape`] plus its cells in reading order; a cell holds a
//! tile `1..n` or `0` for the blank. A [`Move`] names where the blank goes.
//!
//! # Input rule
//!
//! The [`Parser`] reads a stream of bytes and finds boards in it:
//!
//! - Tokens are separated by any ASCII whitespace (spaces, tabs, `\r`, `\n`).
//! - A token is one tile (`1`..`8` on the 3x3 board) or the blank (`x`, `X` or
//!   `0`), or several of them written together: `23415x768` is a whole board,
//!   `123` a row.
//! - A board is complete with its last tile, at the end of that line. It may
//!   be spread over several lines (the grid as printed), and blank lines
//!   inside it are skipped, but a line never holds tiles of two boards: a line
//!   that brings more tiles than the board needs is an error.
//! - A token with any other character is an unknown tile, and the board that
//!   holds it is invalid. Each of its characters takes the place of one tile,
//!   as in a token of tiles written together, so the boards after it are
//!   still found where they are.
//! - On a board of more than ten cells (the 4x4 board of the 15-puzzle) each
//!   token is one tile, its number (`1` to `15`), or the blank (`x`, `X` or
//!   `0`); tiles are not written together there, since `12` is a tile.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The most cells a board of any supported shape has.
pub const MAX_CELLS: usize = 16;

/// The longest token the parser reads; a longer one is an error.
const MAX_TOKEN: usize = 64;

/// The number of rows and columns of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shape {
    rows: u8,
    cols: u8,
}

impl Shape {
    /// The 3x3 board of the 8-puzzle.
    pub const EIGHT: Shape = Shape { rows: 3, cols: 3 };

    /// The 4x4 board of the 15-puzzle.
    pub const FIFTEEN: Shape = Shape { rows: 4, cols: 4 };

    /// Returns the shape with these dimensions, or `None` unless each is at
    /// least 2 and the board has at most [`MAX_CELLS`] cells.
    pub fn new(rows: usize, cols: usize) -> Option<Shape> {
        let fits = (2..=MAX_CELLS).contains(&rows)
            && (2..=MAX_CELLS).contains(&cols)
            && rows * cols <= MAX_CELLS;
        fits.then_some(Shape {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// The number of rows.
    pub fn rows(self) -> usize {
        usize::from(self.rows)
    }

    /// The number of columns.
    pub fn cols(self) -> usize {
        usize::from(self.cols)
    }

    /// The number of cells, tiles plus the blank.
    pub fn cells(self) -> usize {
        self.rows() * self.cols()
    }

    /// The cell the blank reaches from `pos` by `mv`, or `None` at an edge.
    pub fn neighbor(self, pos: usize, mv: Move) -> Option<usize> {
        let (row, col) = (pos / self.cols(), pos % self.cols());
        match mv {
            Move::Down => (row + 1 < self.rows()).then(|| pos + self.cols()),
            Move::Left => (col > 0).then(|| pos - 1),
            Move::Right => (col + 1 < self.cols()).then(|| pos + 1),
            Move::Up => (row > 0).then(|| pos - self.cols()),
        }
    }

    /// Where the blank goes from each cell by each move, indexed by
    /// [`Move::code`]: [`Shape::neighbor`] for every cell at once, for loops
    /// that make millions of moves.
    pub fn neighbor_table(self) -> [[Option<u8>; 4]; MAX_CELLS] {
        let mut table = [[None; 4]; MAX_CELLS];
        for (cell, targets) in table.iter_mut().enumerate().take(self.cells()) {
            for mv in Move::ALL {
                targets[usize::from(mv.code())] = self.neighbor(cell, mv).map(|c| c as u8);
            }
        }
        table
    }

    /// The taxicab distance between two cells.
    fn distance(self, a: usize, b: usize) -> usize {
        let (ra, ca) = (a / self.cols(), a % self.cols());
        let (rb, cb) = (b / self.cols(), b % self.cols());
        ra.abs_diff(rb) + ca.abs_diff(cb)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// A move of the blank, named by where it goes.
///
/// The declaration order is the lexicographic order of the letters,
/// `d < l < r < u`, and [`Move::code`] follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// The blank goes down: `d`.
    Down,
    /// The blank goes left: `l`.
    Left,
    /// The blank goes right: `r`.
    Right,
    /// The blank goes up: `u`.
    Up,
}

impl Move {
    /// Every move, in lexicographic order of the letters.
    pub const ALL: [Move; 4] = [Move::Down, Move::Left, Move::Right, Move::Up];

    /// The letter that names the move.
    pub fn letter(self) -> char {
        match self {
            Move::Down => 'd',
            Move::Left => 'l',
            Move::Right => 'r',
            Move::Up => 'u',
        }
    }

    /// The move a letter names, if any.
    pub fn from_letter(letter: char) -> Option<Move> {
        Move::ALL.into_iter().find(|mv| mv.letter() == letter)
    }

    /// The 2-bit code of the move: its place in [`Move::ALL`].
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The move with this 2-bit code; only the low two bits are read.
    pub fn from_code(code: u8) -> Move {
        Move::ALL[usize::from(code & 3)]
    }

    /// The move that undoes this one.
    pub fn opposite(self) -> Move {
        match self {
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
            Move::Up => Move::Down,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Writes moves as their letters, `ullddr…`.
pub fn moves_to_string(moves: &[Move]) -> String {
    moves.iter().map(|mv| mv.letter()).collect()
}

/// A board: each tile `1..n` and the blank `0` in exactly one cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    cells: [u8; MAX_CELLS],
}

impl Board {
    /// The usual goal: tiles in reading order, the blank last (`12345678x`).
    pub fn goal(shape: Shape) -> Board {
        Board::canonical(shape, shape.cells() - 1)
    }

    /// Tiles `1..n` in reading order with the blank at `blank`: the goals the
    /// table is generated for, one per blank position.
    ///
    /// # Panics
    ///
    /// Panics if `blank` is not a cell of `shape`.
    pub fn canonical(shape: Shape, blank: usize) -> Board {
        assert!(
            blank < shape.cells(),
            "blank {blank} is off a {shape} board"
        );
        let mut cells = [0u8; MAX_CELLS];
        let mut tile = 1;
        for (pos, cell) in cells.iter_mut().enumerate().take(shape.cells()) {
            if pos != blank {
                *cell = tile;
                tile += 1;
            }
        }
        Board { shape, cells }
    }

    /// Returns the board with these cells in reading order.
    ///
    /// # Errors
    ///
    /// Fails unless `cells` holds each tile of `shape` and the blank exactly
    /// once.
    pub fn from_cells(shape: Shape, cells: &[u8]) -> Result<Board, ParseError> {
        if cells.len() != shape.cells() {
            return Err(ParseError::TileCount {
                expected: shape.cells(),
                got: cells.len(),
            });
        }
        let mut count = [0u8; MAX_CELLS];
        for &tile in cells {
            match count.get_mut(usize::from(tile)) {
                Some(c) if usize::from(tile) < shape.cells() => *c += 1,
                _ => {
                    return Err(ParseError::UnknownTile {
                        token: tile.to_string(),
                        shape,
                    });
                }
            }
        }
        let count = &count[..shape.cells()];
        let tiles_where = |pred: fn(u8) -> bool| {
            (0..shape.cells() as u8)
                .filter(|&t| pred(count[usize::from(t)]))
                .collect::<Vec<u8>>()
        };
        let repeated = tiles_where(|c| c > 1);
        if !repeated.is_empty() {
            return Err(ParseError::WrongTiles {
                repeated,
                missing: tiles_where(|c| c == 0),
            });
        }
        let mut board = Board {
            shape,
            cells: [0; MAX_CELLS],
        };
        board.cells[..cells.len()].copy_from_slice(cells);
        Ok(board)
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cells in reading order: tiles `1..n`, `0` for the blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.shape.cells()]
    }

    /// The cell that holds the blank.
    pub fn blank(&self) -> usize {
        self.cells().iter().position(|&c| c == 0).unwrap_or(0)
    }

    /// The board after the blank moves by `mv`, or `None` at an edge.
    pub fn moved(&self, mv: Move) -> Option<Board> {
        let blank = self.blank();
        let target = self.shape.neighbor(blank, mv)?;
        let mut next = *self;
        next.cells.swap(blank, target);
        Some(next)
    }

    /// Whether some sequence of moves turns this board into `goal`; boards of
    /// different shapes never are.
    pub fn solvable_to(&self, goal: &Board) -> bool {
        self.shape == goal.shape
            && connected(
                self.shape,
                self.parity() ^ goal.parity(),
                self.blank(),
                goal.blank(),
            )
    }

    /// The parity of the cells as a permutation: its inversions, mod 2.
    pub(crate) fn parity(&self) -> usize {
        let mut seen: u32 = 0;
        let mut inversions = 0;
        for &tile in self.cells() {
            // Earlier cells that hold a larger tile.
            inversions += (seen >> tile).count_ones();
            seen |= 1 << tile;
        }
        (inversions % 2) as usize
    }

    /// This board with its tiles renamed so that `from` would become `to`:
    /// each tile is named as the tile of `to` in the cell where `from` has
    /// it. Moves that take this board to `from` take the result to `to`.
    ///
    /// # Panics
    ///
    /// Panics if the three boards are not of one shape.
    pub fn relabelled(&self, from: &Board, to: &Board) -> Board {
        assert!(
            self.shape == from.shape && from.shape == to.shape,
            "boards of one shape"
        );
        let mut name = [0u8; MAX_CELLS];
        for (&old, &new) in from.cells().iter().zip(to.cells()) {
            name[usize::from(old)] = new;
        }
        let mut board = *self;
        for cell in &mut board.cells[..self.shape.cells()] {
            *cell = name[usize::from(*cell)];
        }
        board
    }

    /// The lines of the board drawn as a grid, tiles right-aligned.
    pub fn grid(&self) -> Vec<String> {
        let width = (self.shape.cells() - 1).to_string().len();
        self.cells()
            .chunks(self.shape.cols())
            .map(|row| {
                row.iter()
                    .map(|&tile| format!("{:>width$}", TileName(tile)))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }
}

/// Whether two boards of `shape` are connected by moves, given the parity of
/// the permutation between them (the two boards' parities added) and their
/// blanks' cells: each move flips both that parity and the parity of the
/// blanks' distance, and the boards are connected exactly when the two agree.
pub(crate) fn connected(shape: Shape, parity: usize, blank: usize, goal_blank: usize) -> bool {
    parity % 2 == shape.distance(blank, goal_blank) % 2
}

/// Shows the tiles in reading order separated by spaces, the blank as `x`:
/// `1 2 3 x 4 6 7 5 8`, which parses back to the same board.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (pos, &tile) in self.cells().iter().enumerate() {
            if pos > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", TileName(tile))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

/// Parses one 3x3 board in any layout of the [input rule](self).
impl FromStr for Board {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Board, ParseError> {
        Board::parse(Shape::EIGHT, text.as_bytes())
    }
}

impl Board {
    /// Parses exactly one board of `shape` in any layout of the
    /// [input rule](self).
    ///
    /// # Errors
    ///
    /// Fails if the text holds no board, a bad board, or more than one board.
    pub fn parse(shape: Shape, text: &[u8]) -> Result<Board, ParseError> {
        let mut parser = Parser::new(shape);
        let mut items = Vec::new();
        parser.feed(text, &mut |item| items.push(item));
        parser.finish(&mut |item| items.push(item));
        let mut boards = items.into_iter().map(|item| match item {
            Item::Board { result, .. } => result,
            Item::Count { .. } => unreachable!("count lines are only read when asked for"),
        });
        match (boards.next(), boards.next()) {
            (None, _) => Err(ParseError::TileCount {
                expected: shape.cells(),
                got: 0,
            }),
            (Some(result), None) => result,
            (Some(_), Some(_)) => Err(ParseError::SeveralBoards),
        }
    }
}

/// A tile as written: its number, or `x` for the blank.
struct TileName(u8);

impl fmt::Display for TileName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.pad("x"),
            tile => f.pad(&tile.to_string()),
        }
    }
}

/// What is wrong with a board, or with the line that should hold it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A token that names no tile of the board.
    #[error(
        "unknown tile {token:?} (a {shape} board has tiles 1-{max} and a blank written x, X or 0)",
        max = shape.cells() - 1
    )]
    UnknownTile {
        /// The token as read (cut short if it was very long).
        token: String,
        /// The board's shape.
        shape: Shape,
    },
    /// Some tile appears more than once (and so others are missing).
    #[error("{}", describe_wrong_tiles(repeated, missing))]
    WrongTiles {
        /// The tiles written more than once (`0` is the blank).
        repeated: Vec<u8>,
        /// The tiles not written at all (`0` is the blank).
        missing: Vec<u8>,
    },
    /// A line brings more tiles than its board needs.
    #[error("too many tiles: a board has {expected}, this line brings it to {got}")]
    TooManyTiles {
        /// Tiles in a board.
        expected: usize,
        /// Tiles read for this board by the end of the line.
        got: usize,
    },
    /// The input ended in the middle of a board.
    #[error("board cut short at end of input: {got} of {expected} tiles")]
    CutShort {
        /// Tiles in a board.
        expected: usize,
        /// Tiles read before the input ended.
        got: usize,
    },
    /// A board given as a list of cells has the wrong length.
    #[error("a board has {expected} tiles, got {got}")]
    TileCount {
        /// Tiles in a board.
        expected: usize,
        /// Tiles given.
        got: usize,
    },
    /// Text meant to hold one board holds more.
    #[error("expected one board, found several")]
    SeveralBoards,
    /// The line that should hold the number of cases does not.
    #[error("expected the number of cases alone on this line, found {found:?}")]
    BadCount {
        /// What the line holds (cut short if it was very long).
        found: String,
    },
}

fn describe_wrong_tiles(repeated: &[u8], missing: &[u8]) -> String {
    let list = |tiles: &[u8]| {
        let names: Vec<String> = tiles
            .iter()
            .map(|&t| match t {
                0 => "the blank".to_string(),
                t => format!("tile {t}"),
            })
            .collect();
        names.join(", ")
    };
    let mut text = format!("{} written more than once", list(repeated));
    if !missing.is_empty() {
        text += &format!("; {} missing", list(missing));
    }
    text
}

/// The class of a whitespace byte other than `\n`.
const SPACE: u8 = 0xFE;

/// The class of a byte that is neither a tile nor whitespace.
const OTHER: u8 = 0xFF;

/// What each byte is for boards of `shape`: the tile it names (a digit below
/// the number of cells, or the blank as `x`, `X` or `0`), [`SPACE`], or
/// [`OTHER`].
fn classes(shape: Shape) -> [u8; 256] {
    let mut classes = [OTHER; 256];
    for byte in 0..=255u8 {
        classes[usize::from(byte)] = match byte {
            b'x' | b'X' | b'0' => 0,
            b'1'..=b'9' if usize::from(byte - b'0') < shape.cells() => byte - b'0',
            b if b.is_ascii_whitespace() => SPACE,
            _ => OTHER,
        };
    }
    classes
}

/// One result of the [`Parser`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A board, or what is wrong with it. `line` is where it starts, or for
    /// an error the line where the problem is.
    Board {
        /// A 1-based line number.
        line: u64,
        /// The board, or what is wrong with it.
        result: Result<Board, ParseError>,
    },
    /// The count of cases at the head of the input, when the parser was made
    /// with [`Parser::with_count`].
    Count {
        /// A 1-based line number.
        line: u64,
        /// The count, or what is wrong with the line.
        result: Result<u64, ParseError>,
    },
}

/// A push parser that finds boards in a stream of bytes, following the
/// [input rule](self).
///
/// It keeps no more than one board and one token of state, so input of any
/// size or content, binary included, is read in constant memory. Feed it
/// chunks as they arrive with [`Parser::feed`], then call
/// [`Parser::finish`] at the end of input; each board is reported as soon as
/// the line that completes it ends.
#[derive(Clone, Debug)]
pub struct Parser {
    shape: Shape,
    /// What each byte is: a tile, [`SPACE`] or [`OTHER`].
    classes: [u8; 256],
    /// The current 1-based line.
    line: u64,
    /// Waiting for the count line of `--pairs` input.
    want_count: bool,
    /// Bytes of the current token (the first `MAX_TOKEN` of them).
    token: Vec<u8>,
    /// Length of the current token, which may exceed `token.len()`.
    token_len: usize,
    /// Tokens on the current line, for the count line.
    line_tokens: usize,
    /// The first token of the count line.
    count_text: String,
    /// Tiles of the board being read (the first `shape.cells()` of them).
    cells: [u8; MAX_CELLS],
    /// Tile slots the board being read has taken, bad tokens included.
    slots: usize,
    /// The line where the board being read starts.
    board_line: u64,
    /// The first thing wrong with the board being read, and its line.
    error: Option<(u64, ParseError)>,
}

impl Parser {
    /// A parser for boards of `shape`.
    pub fn new(shape: Shape) -> Parser {
        Parser {
            shape,
            classes: classes(shape),
            line: 1,
            want_count: false,
            token: Vec::with_capacity(MAX_TOKEN),
            token_len: 0,
            line_tokens: 0,
            count_text: String::new(),
            cells: [0; MAX_CELLS],
            slots: 0,
            board_line: 1,
            error: None,
        }
    }

    /// A parser whose input opens with a line holding the number of cases,
    /// reported as [`Item::Count`] before any board.
    pub fn with_count(shape: Shape) -> Parser {
        Parser {
            want_count: true,
            ..Parser::new(shape)
        }
    }

    /// Reads `bytes`, reporting each board completed in them to `sink`.
    pub fn feed(&mut self, mut bytes: &[u8], sink: &mut impl FnMut(Item)) {
        while !bytes.is_empty() {
            let end = memchr::memchr(b'\n', bytes);
            // The common case: a whole line that holds one good board.
            if let Some(end) = end {
                if let Some(board) = self.whole_line(&bytes[..end]) {
                    sink(Item::Board {
                        line: self.line,
                        result: Ok(board),
                    });
                    self.line += 1;
                    bytes = &bytes[end + 1..];
                    continue;
                }
            }
            let end = end.map_or(bytes.len(), |end| end + 1);
            self.feed_bytes(&bytes[..end], sink);
            bytes = &bytes[end..];
        }
    }

    /// The board on `line` (without its newline) if the line starts afresh
    /// and holds exactly the tiles of one board and whitespace; `None` sends
    /// the line down the general path, which reports what is wrong.
    #[inline]
    fn whole_line(&self, line: &[u8]) -> Option<Board> {
        if self.token_len != 0 || self.slots != 0 || self.want_count || self.numbered() {
            return None;
        }
        let n = self.shape.cells();
        let mut cells = [0u8; MAX_CELLS];
        let mut count = 0;
        let mut seen = 0u32;
        for &byte in line {
            let class = self.classes[usize::from(byte)];
            if class == OTHER {
                return None;
            }
            if class != SPACE {
                cells[count.min(MAX_CELLS - 1)] = class;
                count += 1;
                seen |= 1 << class;
            }
        }
        (count == n && seen == (1 << n) - 1).then_some(Board {
            shape: self.shape,
            cells,
        })
    }

    /// The general path: reads `bytes` one at a time.
    fn feed_bytes(&mut self, bytes: &[u8], sink: &mut impl FnMut(Item)) {
        for &byte in bytes {
            match byte {
                b'\n' => {
                    self.end_token();
                    self.end_line(sink);
                    self.line += 1;
                }
                b if b.is_ascii_whitespace() => self.end_token(),
                b => {
                    if self.token.len() < MAX_TOKEN {
                        self.token.push(b);
                    }
                    self.token_len += 1;
                }
            }
        }
    }

    /// Ends the input: reports the board of a last line with no newline, or a
    /// board cut short.
    pub fn finish(&mut self, sink: &mut impl FnMut(Item)) {
        self.end_token();
        self.end_line(sink);
        if self.slots > 0 {
            let error = ParseError::CutShort {
                expected: self.shape.cells(),
                got: self.slots,
            };
            sink(Item::Board {
                line: self.board_line,
                result: Err(error),
            });
            self.reset_board();
        }
    }

    fn end_token(&mut self) {
        if self.token_len == 0 {
            return;
        }
        self.line_tokens += 1;
        if self.want_count {
            if self.line_tokens == 1 {
                self.count_text = self.token_text();
            }
            self.token.clear();
            self.token_len = 0;
            return;
        }
        if self.slots == 0 {
            self.board_line = self.line;
        }
        if self.numbered() {
            self.end_numbered_token();
            return;
        }
        let all_tiles = self.token_len <= MAX_TOKEN
            && self
                .token
                .iter()
                .all(|&b| self.classes[usize::from(b)] < SPACE);
        match all_tiles {
            true => {
                for &byte in &self.token {
                    if let Some(cell) = self.cells.get_mut(self.slots) {
                        *cell = self.classes[usize::from(byte)];
                    }
                    self.slots += 1;
                }
            }
            false => {
                let token = self.token_text();
                // Each character stands for a tile, as in a token of tiles
                // written together, so that a typo in `23415x7a8` does not
                // pull the next line into the board.
                self.slots += match self.token_len > MAX_TOKEN {
                    true => self.token_len,
                    false => token.chars().count(),
                };
                let error = ParseError::UnknownTile {
                    token,
                    shape: self.shape,
                };
                self.note_error(error);
            }
        }
        self.token.clear();
        self.token_len = 0;
    }

    /// Whether each tile is written as its own token, its number: on boards
    /// of more than ten cells, where `12` is a tile.
    fn numbered(&self) -> bool {
        self.shape.cells() > 10
    }

    /// Ends a token on a board with [numbered](Parser::numbered) tiles: one
    /// tile, its number or the blank.
    fn end_numbered_token(&mut self) {
        let tile = match &self.token[..] {
            b"x" | b"X" => Some(0),
            // At most two digits: no tile of a supported shape has more.
            digits if self.token_len <= 2 && digits.iter().all(u8::is_ascii_digit) => {
                let number = digits
                    .iter()
                    .fold(0usize, |n, &d| n * 10 + usize::from(d - b'0'));
                (number < self.shape.cells()).then_some(number as u8)
            }
            _ => None,
        };
        match tile {
            Some(tile) => {
                if let Some(cell) = self.cells.get_mut(self.slots) {
                    *cell = tile;
                }
            }
            None => {
                let error = ParseError::UnknownTile {
                    token: self.token_text(),
                    shape: self.shape,
                };
                self.note_error(error);
            }
        }
        self.slots += 1;
        self.token.clear();
        self.token_len = 0;
    }

    fn end_line(&mut self, sink: &mut impl FnMut(Item)) {
        if self.want_count {
            if self.line_tokens > 0 {
                let count = match self.line_tokens {
                    1 => self.count_text.parse::<u64>().ok(),
                    _ => None,
                };
                let result = count.ok_or_else(|| ParseError::BadCount {
                    found: match self.line_tokens {
                        1 => self.count_text.clone(),
                        _ => format!("{} …", self.count_text),
                    },
                });
                sink(Item::Count {
                    line: self.line,
                    result,
                });
                self.want_count = false;
            }
            self.line_tokens = 0;
            return;
        }
        self.line_tokens = 0;
        let n = self.shape.cells();
        if self.slots < n {
            return;
        }
        let result = if let Some(error) = self.error.take() {
            Err(error)
        } else if self.slots > n {
            Err((
                self.line,
                ParseError::TooManyTiles {
                    expected: n,
                    got: self.slots,
                },
            ))
        } else {
            Board::from_cells(self.shape, &self.cells[..n]).map_err(|e| (self.board_line, e))
        };
        let item = match result {
            Ok(board) => Item::Board {
                line: self.board_line,
                result: Ok(board),
            },
            Err((line, error)) => Item::Board {
                line,
                result: Err(error),
            },
        };
        sink(item);
        self.reset_board();
    }

    fn note_error(&mut self, error: ParseError) {
        if self.error.is_none() {
            self.error = Some((self.line, error));
        }
    }

    fn reset_board(&mut self) {
        self.slots = 0;
        self.error = None;
    }

    fn token_text(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.token).into_owned();
        if self.token_len > self.token.len() {
            text.push('…');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_all(input: &str) -> Vec<(u64, Result<String, String>)> {
        let mut parser = Parser::new(Shape::EIGHT);
        let mut out = Vec::new();
        let mut sink = |item: Item| match item {
            Item::Board { line, result } => out.push((
                line,
                result.map(|b| b.to_string()).map_err(|e| e.to_string()),
            )),
            Item::Count { .. } => panic!("no count was asked for"),
        };
        // Feed byte by byte: chunk boundaries must not matter.
        for byte in input.as_bytes() {
            parser.feed(std::slice::from_ref(byte), &mut sink);
        }
        parser.finish(&mut sink);
        out
    }

    #[test]
    fn every_seed_layout_parses_to_the_same_board() {
        let want = "2 3 4 1 5 x 7 6 8";
        for input in [
            "2 3 4 1 5 x 7 6 8",
            " 2  3  4  1  5  x  7  6  8\n",
            "2\t3 4 1 5 x 7 6 8\r\n",
            "2 3 4\n1 5 x\n7 6 8\n",
            "2 3 4\n\n1 5 X\n7 6 8",
            "23415x768",
            "23415X768\r\n",
            "234150768",
            "234 15x 768",
        ] {
            assert_eq!(
                parse_all(input),
                vec![(1, Ok(want.to_string()))],
                "{input:?}"
            );
        }
    }

    #[test]
    fn bad_tokens_keep_later_boards_in_place() {
        let out = parse_all("1 2 3 4 5 6 7 8 9\n1 2 3 4 5 6 7 -1 x\n12345678x\n");
        assert_eq!(out.len(), 3);
        assert!(
            out[0]
                .1
                .as_ref()
                .unwrap_err()
                .contains("unknown tile \"9\"")
        );
        assert!(
            out[1]
                .1
                .as_ref()
                .unwrap_err()
                .contains("unknown tile \"-1\"")
        );
        assert_eq!(out[2], (3, Ok("1 2 3 4 5 6 7 8 x".into())));
    }

    #[test]
    fn errors_name_their_line() {
        let out = parse_all("\n1 2 3 4 5 6 7 8 x 1\n1 1 3 4 5 6 7 8 x\n1 2 3\n4 5 6\n7 8 x 2\n1 2");
        let lines: Vec<u64> = out.iter().map(|(line, _)| *line).collect();
        assert_eq!(lines, vec![2, 3, 6, 7]);
        assert!(out[0].1.as_ref().unwrap_err().starts_with("too many tiles"));
        assert_eq!(
            out[1].1.as_ref().unwrap_err(),
            "tile 1 written more than once; tile 2 missing"
        );
        assert!(out[2].1.as_ref().unwrap_err().contains("brings it to 10"));
        assert_eq!(
            out[3].1.as_ref().unwrap_err(),
            "board cut short at end of input: 2 of 9 tiles"
        );
    }

    #[test]
    fn fifteen_puzzle_boards_take_one_number_a_token() {
        let korf_1 = "14 13 15 7 11 12 9 5\n6 0 2 1 4 8 10 3";
        let board = Board::parse(Shape::FIFTEEN, korf_1.as_bytes()).unwrap();
        assert_eq!(board.to_string(), "14 13 15 7 11 12 9 5 6 x 2 1 4 8 10 3");
        assert_eq!(board.grid()[3], " 4  8 10  3");
        for (bad, what) in [
            (
                "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16",
                "unknown tile \"16\"",
            ),
            ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x 1", "too many tiles"),
            (
                "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 123",
                "unknown tile \"123\"",
            ),
            (
                "1 2 3 4 5 6 7 8 9 10 11 12 13 14 14 x",
                "tile 14 written more than once",
            ),
        ] {
            let err = Board::parse(Shape::FIFTEEN, bad.as_bytes()).unwrap_err();
            assert!(err.to_string().starts_with(what), "{bad}: {err}");
        }
    }

    #[test]
    fn count_line_comes_first() {
        let mut parser = Parser::with_count(Shape::EIGHT);
        let mut items = Vec::new();
        parser.feed(b"\n2\n12X453786\n12345678X\n", &mut |i| items.push(i));
        parser.finish(&mut |i| items.push(i));
        assert_eq!(
            items[0],
            Item::Count {
                line: 2,
                result: Ok(2)
            }
        );
        assert_eq!(items.len(), 3);
    }

    #[test]
    fn solvability_matches_inversion_parity_for_the_usual_goal() {
        let goal = Board::goal(Shape::EIGHT);
        for (text, solvable) in [
            ("12345678x", true),
            ("21345678x", false),
            ("x12345678", true),
        ] {
            let board: Board = text.parse().unwrap();
            assert_eq!(board.solvable_to(&goal), solvable, "{text}");
        }
    }

    #[test]
    fn moves_stop_at_the_edges() {
        let goal = Board::goal(Shape::EIGHT);
        assert_eq!(goal.moved(Move::Down), None);
        assert_eq!(goal.moved(Move::Right), None);
        assert_eq!(
            goal.moved(Move::Up).unwrap().to_string(),
            "1 2 3 4 5 x 7 8 6"
        );
        assert_eq!(
            goal.moved(Move::Left).unwrap().to_string(),
            "1 2 3 4 5 6 7 x 8"
        );
    }
}
