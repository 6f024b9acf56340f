//! The input rule, and the streaming parser that applies it.
//!
//! # Input rule
//!
//! Input is read line by line; a line ends with `\n`, and any other ASCII
//! whitespace (spaces, tabs, `\r`) separates tokens. Empty lines are
//! ignored. A board is
//!
//! - **one line** holding all its tiles in reading order, or
//! - **a grid**: consecutive lines that each hold exactly one row, or
//! - one line with its rows separated by `/` (`1 2 3/4 5 6/7 8 x`).
//!
//! Any other line is one invalid board of its own: it never merges with the
//! lines around it, and a grid cut short (by another line, an empty line or
//! the end of input) is one invalid board too. So how a line is read never
//! depends on an earlier bad line, and the `i`-th board of the input is
//! always the `i`-th [`Item`].
//!
//! A tile is its number, `1` to `n - 1`; the blank is `x`, `X` or `0`. On
//! boards whose tiles all have one digit (at most ten cells) tiles may be
//! written together: `23415x768` is a whole 3x3 board, `123` a row. On larger
//! boards each tile is a token of its own, since `12` is a tile. Every
//! character of a token that holds an unknown tile still takes the place of
//! one tile on boards that write tiles together, so a typo does not change
//! how the line is counted.
//!
//! # Shapes
//!
//! With [`Layout::Fixed`] every board has that shape. With
//! [`Layout::Auto`] each board's shape is told by its own line: 9 tiles make
//! a 3x3 board, 16 tokens a 4x4 board and 25 a 5x5 board; a line of 3 tiles
//! is a row of a 3x3 grid and a line of 4 tokens a row of a 4x4 grid. Other
//! shapes are read only when named, or written with `/` between rows.

use std::str::FromStr;

use crate::board::Board;
pub use crate::board::{Layout, ParseError};
use crate::shape::{MAX_CELLS, SMALL_CELLS, Shape};

/// The longest token kept for messages; longer ones are cut short.
const MAX_TOKEN: usize = 64;

/// Tokens kept per line: one more than a board of the largest shape holds,
/// enough to tell that a line has too many.
const MAX_TOKENS: usize = MAX_CELLS + 1;

/// Rows kept per line written with `/`: one more than the most rows.
const MAX_SEGMENTS: usize = MAX_CELLS / 2 + 1;

/// A board read from the input, or what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The line where the board starts, or where the first thing wrong with
    /// it is.
    pub line: u64,
    /// The board, or what is wrong.
    pub result: Result<Board, ParseError>,
}

/// Reading a board from text, by the input rule.
impl Board {
    /// Parses exactly one board of `shape` in any layout of the
    /// input rule: its tiles in reading order, on one line or
    /// over several.
    ///
    /// # Errors
    ///
    /// Fails with what is wrong: an unknown tile, too few or too many tiles,
    /// a tile written twice.
    pub fn parse(shape: Shape, text: &[u8]) -> Result<Board, ParseError> {
        one_board(Layout::Fixed(shape), text)
    }

    /// Parses exactly one board laid out as `layout` says (a fixed shape, or
    /// told by its tiles), as [`Board::parse`] does.
    ///
    /// # Errors
    ///
    /// As [`Board::parse`].
    pub fn parse_in(layout: Layout, text: &[u8]) -> Result<Board, ParseError> {
        one_board(layout, text)
    }
}

/// Parses one board whose tile count tells its shape: 9 tiles make a 3x3
/// board, 16 a 4x4 board (see `crate::parse`); other shapes are read
/// with [`Board::parse`].
impl FromStr for Board {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Board, ParseError> {
        one_board(Layout::Auto, text.as_bytes())
    }
}

/// The tokens of one line (or of a whole text read as one board): the
/// first [`MAX_TOKENS`] kept, all counted.
#[derive(Clone, Debug, Default)]
struct Tokens {
    /// The kept tokens' bytes, each cut at [`MAX_TOKEN`].
    bytes: Vec<u8>,
    /// Each kept token: where its bytes start and end in `bytes`, and its
    /// true length in characters.
    kept: Vec<(usize, usize, usize)>,
    /// Tokens on the line.
    count: usize,
    /// Characters in all tokens: the tiles on a board that writes tiles
    /// together.
    chars: usize,
    /// Per `/`-separated segment, the first [`MAX_SEGMENTS`]: its tokens and
    /// characters.
    segments: Vec<(usize, usize)>,
    /// Segments seen, kept or not.
    segment_count: usize,
    /// Tokens and characters before the current segment.
    segment_start: (usize, usize),
    /// The token being read: where its bytes start, its bytes and its
    /// characters.
    open: Option<(usize, usize, usize)>,
}

impl Tokens {
    fn is_empty(&self) -> bool {
        self.count == 0 && self.open.is_none() && self.segment_count == 0
    }

    fn clear(&mut self) {
        *self = Tokens {
            bytes: std::mem::take(&mut self.bytes),
            kept: std::mem::take(&mut self.kept),
            segments: std::mem::take(&mut self.segments),
            ..Tokens::default()
        };
        self.bytes.clear();
        self.kept.clear();
        self.segments.clear();
    }

    /// Takes a piece of a line (never holding `\n`): its tokens are
    /// found a whole token at a time, not byte by byte.
    fn push(&mut self, mut bytes: &[u8]) {
        while let Some((&first, rest)) = bytes.split_first() {
            if first == b'/' {
                self.end_token();
                self.end_segment();
                bytes = rest;
                continue;
            }
            if first.is_ascii_whitespace() {
                self.end_token();
                bytes = rest;
                continue;
            }
            let len = bytes
                .iter()
                .position(|&b| b == b'/' || b.is_ascii_whitespace())
                .unwrap_or(bytes.len());
            let (token, rest) = bytes.split_at(len);
            let keep = self.kept.len() < MAX_TOKENS;
            let (_, stored, chars) = self.open.get_or_insert((self.bytes.len(), 0, 0));
            if keep && *stored < MAX_TOKEN {
                let room = MAX_TOKEN - *stored;
                self.bytes
                    .extend_from_slice(&token[..token.len().min(room)]);
            }
            *stored += token.len();
            // Count characters, not bytes: a continuation byte of UTF-8
            // does not start one.
            *chars += token.iter().filter(|&&b| b & 0xC0 != 0x80).count();
            bytes = rest;
        }
    }

    fn end_token(&mut self) {
        let Some((start, _, chars)) = self.open.take() else {
            return;
        };
        if self.kept.len() < MAX_TOKENS {
            self.kept.push((start, self.bytes.len(), chars));
        }
        self.count += 1;
        self.chars = self.chars.saturating_add(chars);
    }

    /// Ends a `/`-separated segment: the tokens since the last one.
    fn end_segment(&mut self) {
        let (count, chars) = self.segment_start;
        if self.segments.len() < MAX_SEGMENTS {
            self.segments.push((self.count - count, self.chars - chars));
        }
        self.segment_count += 1;
        self.segment_start = (self.count, self.chars);
    }

    /// Ends the line: the last token, and the last segment if the line has
    /// any `/`.
    fn finish(&mut self) {
        self.end_token();
        if self.segment_count > 0 {
            self.end_segment();
        }
    }

    fn token(&self, index: usize) -> &[u8] {
        let (start, end, _) = self.kept[index];
        &self.bytes[start..end]
    }

    /// The kept token `index` as text for a message, `…` where it was cut.
    fn text(&self, index: usize) -> String {
        let (_, _, chars) = self.kept[index];
        let mut text = String::from_utf8_lossy(self.token(index)).into_owned();
        if text.chars().count() < chars {
            text.push('…');
        }
        text
    }
}

/// How the tiles of a line are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// Each character a tile (boards of at most ten cells).
    Together,
    /// Each token a tile, its number.
    Numbered,
}

impl Rule {
    fn of(shape: Shape) -> Rule {
        match shape.numbered() {
            true => Rule::Numbered,
            false => Rule::Together,
        }
    }

    /// The tiles of a line written this way.
    fn slots(self, count: usize, chars: usize) -> usize {
        match self {
            Rule::Together => chars,
            Rule::Numbered => count,
        }
    }
}

/// What a line is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Line {
    /// A whole board of this shape.
    Board(Shape),
    /// One row of a grid of this shape.
    Row(Shape),
    /// Neither.
    Bad(ParseError),
}

/// The boards that a line of tiles written apart is read as, without a
/// shape given, by the count of its tiles.
const BY_COUNT: [Shape; 2] = [Shape::FIFTEEN, Shape::TWENTY_FOUR];

/// Tells what a line of `tokens` is.
fn classify(tokens: &Tokens, layout: Layout) -> Line {
    if tokens.segment_count > 0 {
        return classify_rows(tokens, layout);
    }
    let (count, chars) = (tokens.count, tokens.chars);
    match layout {
        Layout::Fixed(shape) => {
            let slots = Rule::of(shape).slots(count, chars);
            if slots == shape.cells() {
                Line::Board(shape)
            } else if slots == shape.cols() {
                Line::Row(shape)
            } else {
                // A token that is no tile of any board is the news; tiles
                // of another shape, too many or too few, are a length.
                let garbage =
                    first_unknown(tokens, None).and_then(|_| first_unknown(tokens, Some(shape)));
                // Numbers written apart are counted as tiles, whatever the
                // shape: `1 2 ... 15 x` is 16 tiles to its writer.
                let numbers =
                    count != chars && first_unknown(tokens, Some(Shape::FIFTEEN)).is_none();
                let got = if numbers { count } else { slots };
                Line::Bad(garbage.unwrap_or(ParseError::LineLength { layout, got }))
            }
        }
        Layout::Auto => {
            if chars == 9 {
                Line::Board(Shape::EIGHT)
            } else if let Some(&shape) = BY_COUNT.iter().find(|s| s.cells() == count) {
                Line::Board(shape)
            } else if chars == 3 {
                Line::Row(Shape::EIGHT)
            } else if count == 4 {
                Line::Row(Shape::FIFTEEN)
            } else if count == 9
                && let Some(index) = (0..tokens.kept.len()).find(|&i| tokens.kept[i].2 > 1)
            {
                // Nine tiles written apart make a 3x3 board: a token of more
                // characters is no tile of it (`01`, `10`).
                Line::Bad(ParseError::UnknownTile {
                    token: tokens.text(index),
                    shape: Some(Shape::EIGHT),
                })
            } else if first_unknown(tokens, Some(Shape::FIFTEEN)).is_none()
                || (count != chars
                    && (0..tokens.kept.len()).all(|i| number(tokens.token(i)).is_some()))
            {
                // Numbers written apart are tiles to their writer, whatever
                // the shape: `1 2 ... 19 x` is a 4x5 board's 20 tiles, not
                // an unknown tile `19`.
                Line::Bad(ParseError::LineLength { layout, got: count })
            } else if first_unknown(tokens, Some(Shape::EIGHT)).is_none() {
                Line::Bad(ParseError::LineLength { layout, got: chars })
            } else {
                // Tokens of both shapes' kinds, such as `9` and `x0`.
                Line::Bad(
                    first_unknown(tokens, None)
                        .unwrap_or(ParseError::LineLength { layout, got: count }),
                )
            }
        }
    }
}

/// Tells what a line with `/` between rows is: a whole board, or nothing.
fn classify_rows(tokens: &Tokens, layout: Layout) -> Line {
    let fits = |shape: Shape| {
        let rule = Rule::of(shape);
        tokens.segment_count == shape.rows()
            && tokens
                .segments
                .iter()
                .all(|&(count, chars)| rule.slots(count, chars) == shape.cols())
    };
    // Without a shape given, the rows tell it: as many as there are, as
    // long as the first, its tiles written together or apart.
    let told = |first: fn(&(usize, usize)) -> usize| {
        let cols = tokens.segments.first().map_or(0, first);
        Shape::new(tokens.segment_count, cols)
    };
    let candidates: Vec<Shape> = match layout {
        Layout::Fixed(shape) => vec![shape],
        Layout::Auto => [told(|&(_, chars)| chars), told(|&(count, _)| count)]
            .into_iter()
            .flatten()
            .collect(),
    };
    match candidates.into_iter().find(|&shape| fits(shape)) {
        Some(shape) => Line::Board(shape),
        None => Line::Bad(too_large(tokens, layout).unwrap_or(ParseError::Rows { layout })),
    }
}

/// Rows of equal length, their tiles written apart, that no shape holds
/// for its size, where the rows tell the shape.
fn too_large(tokens: &Tokens, layout: Layout) -> Option<ParseError> {
    let rows = tokens.segment_count;
    let cols = tokens.segments.first().map(|&(count, _)| count)?;
    let equal = tokens.segments.iter().all(|&(count, _)| count == cols);
    let larger = rows * cols > MAX_CELLS || rows.max(cols) > MAX_CELLS / 2;
    (layout == Layout::Auto && equal && rows >= 2 && cols >= 2 && larger)
        .then_some(ParseError::TooLarge { rows, cols })
}

/// The first token that is no tile of `shape` (or of any shape, for
/// `None`), as an error.
fn first_unknown(tokens: &Tokens, shape: Option<Shape>) -> Option<ParseError> {
    let unknown = |index: usize| {
        let token = tokens.token(index);
        match shape {
            Some(shape) if Rule::of(shape) == Rule::Together => token
                .iter()
                .any(|&byte| together_tile(byte, shape).is_none()),
            Some(shape) => numbered_tile(token, shape).is_none(),
            None => {
                numbered_tile(token, Shape::FIFTEEN).is_none()
                    && token
                        .iter()
                        .any(|&byte| together_tile(byte, Shape::EIGHT).is_none())
            }
        }
    };
    (0..tokens.kept.len())
        .find(|&index| unknown(index))
        .map(|index| ParseError::UnknownTile {
            token: tokens.text(index),
            shape,
        })
}

/// The tile one character names on a board that writes tiles together.
#[inline]
fn together_tile(byte: u8, shape: Shape) -> Option<u8> {
    let tile = match byte {
        b'x' | b'X' | b'0' => 0,
        b'1'..=b'9' => byte - b'0',
        _ => return None,
    };
    (usize::from(tile) < shape.cells()).then_some(tile)
}

/// The tile a token names on a board that writes each tile as a number.
fn numbered_tile(token: &[u8], shape: Shape) -> Option<u8> {
    number(token)
        .filter(|&number| number < shape.cells())
        .map(|number| number as u8)
}

/// The number a token writes a tile as, on a board of any shape: 0 for
/// the blank, or a number of at most two digits.
fn number(token: &[u8]) -> Option<usize> {
    match token {
        b"x" | b"X" => Some(0),
        // At most two digits: no tile of a supported shape has more.
        digits if (1..=2).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit) => Some(
            digits
                .iter()
                .fold(0, |n, &d| n * 10 + usize::from(d - b'0')),
        ),
        _ => None,
    }
}

/// Appends the tiles of `tokens`, a line or row of `shape`, to `cells`.
///
/// # Errors
///
/// Fails with the first unknown tile.
fn decode(tokens: &Tokens, shape: Shape, cells: &mut Vec<u8>) -> Result<(), ParseError> {
    if let Some(error) = first_unknown(tokens, Some(shape)) {
        return Err(error);
    }
    for index in 0..tokens.kept.len() {
        let token = tokens.token(index);
        match Rule::of(shape) {
            Rule::Together => cells.extend(
                token
                    .iter()
                    .map(|&byte| together_tile(byte, shape).expect("checked above")),
            ),
            Rule::Numbered => cells.push(numbered_tile(token, shape).expect("checked above")),
        }
    }
    Ok(())
}

/// Reads `text` as the program reads its input, and takes the one board
/// it holds: a line, a grid of row lines, or rows joined by `/`; the same
/// board, or the same message, as `eight` gives for that text. Text that
/// holds no board, or several, is refused.
pub(crate) fn one_board(layout: Layout, text: &[u8]) -> Result<Board, ParseError> {
    let mut parser = Parser::new(layout);
    let mut first = None;
    let mut boards = 0;
    let mut sink = |item: Item| {
        boards += 1;
        first.get_or_insert(item.result);
    };
    parser.feed(text, &mut sink);
    parser.finish(&mut sink);
    match (first, boards) {
        (Some(result), 1) => result,
        (_, 0) => Err(ParseError::LineLength { layout, got: 0 }),
        (Some(Err(err)), _) => Err(err),
        (_, boards) => Err(ParseError::Several { boards }),
    }
}

/// A grid being read: rows so far.
#[derive(Clone, Debug)]
struct Grid {
    shape: Shape,
    /// The line of its first row.
    line: u64,
    rows: usize,
    cells: Vec<u8>,
    /// The first thing wrong, and its line.
    error: Option<(u64, ParseError)>,
}

/// Reads a stream of bytes and reports each board in it, as the
/// input rule says, in order.
#[derive(Clone, Debug)]
pub struct Parser {
    layout: Layout,
    /// For the fast path, the tile each byte names on the shape read
    /// there (`SPACE` for whitespace, `OTHER` for anything else).
    classes: [u8; 256],
    /// The cells of the shape of the fast path; 0 if there is none.
    fast_cells: usize,
    /// The current 1-based line.
    line: u64,
    tokens: Tokens,
    grid: Option<Grid>,
}

const SPACE: u8 = 0xFE;
const OTHER: u8 = 0xFF;

impl Parser {
    /// A parser for boards laid out as `layout` says.
    pub fn new(layout: Layout) -> Parser {
        // Whole lines of one board are read in one tight loop for the shape
        // that writes tiles together: the fixed one, or 3x3.
        let fast = match layout {
            Layout::Auto => Some(Shape::EIGHT),
            Layout::Fixed(shape) => (!shape.numbered()).then_some(shape),
        };
        let mut classes = [OTHER; 256];
        for byte in 0..=255u8 {
            if byte.is_ascii_whitespace() && byte != b'\n' {
                classes[usize::from(byte)] = SPACE;
            } else if let Some(tile) = fast.and_then(|shape| together_tile(byte, shape)) {
                classes[usize::from(byte)] = tile;
            }
        }
        Parser {
            layout,
            classes,
            fast_cells: fast.map_or(0, Shape::cells),
            line: 1,
            tokens: Tokens::default(),
            grid: None,
        }
    }

    /// A parser whose first byte is on line `line` (the lines before it
    /// were read by someone else).
    pub fn starting_at(layout: Layout, line: u64) -> Parser {
        Parser {
            line,
            ..Parser::new(layout)
        }
    }

    /// The layout read.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The line the next byte fed is on, from 1.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Reads `bytes`, reporting each board completed in them to `sink`.
    pub fn feed(&mut self, mut bytes: &[u8], sink: &mut impl FnMut(Item)) {
        while !bytes.is_empty() {
            // The most common line of all, found with no search for its end.
            if let Some((board, len)) = self.usual_line_ahead(bytes) {
                sink(Item {
                    line: self.line,
                    result: Ok(board),
                });
                self.line += 1;
                bytes = &bytes[len + 1..];
                continue;
            }
            let end = memchr::memchr(b'\n', bytes);
            // The common case: a whole line that holds one good board.
            if let Some(end) = end
                && let Some(result) = self.whole_line(&bytes[..end])
            {
                sink(Item {
                    line: self.line,
                    result,
                });
                self.line += 1;
                bytes = &bytes[end + 1..];
                continue;
            }
            let (line, rest) = bytes.split_at(end.unwrap_or(bytes.len()));
            self.tokens.push(line);
            bytes = rest;
            if let Some(rest) = bytes.strip_prefix(b"\n") {
                self.end_line(sink);
                self.line += 1;
                bytes = rest;
            }
        }
    }

    /// Ends the input: reports the board of a last line with no newline, or
    /// a grid cut short.
    pub fn finish(&mut self, sink: &mut impl FnMut(Item)) {
        self.end_line(sink);
        self.cut_grid(sink);
    }

    /// What a whole line (without its newline) is, if nothing is pending and
    /// it holds only tiles of the fast path's shape, each its own token or
    /// written together, and whitespace: the board it holds exactly, or,
    /// when each tile is its own token, that it has too few or too many to
    /// be a board or a row. `None` sends the line down the general path,
    /// which tells everything else.
    #[inline(always)]
    fn whole_line(&self, line: &[u8]) -> Option<Result<Board, ParseError>> {
        let (n, shape) = self.fast_shape()?;
        // The usual layouts first.
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if let Some(cells) = self.usual_line(line) {
            return Some(Ok(Board::from_cell_array(shape, cells)));
        }
        let mut cells = [0u8; MAX_CELLS];
        let mut count = 0;
        let mut seen = 0u32;
        // Tiles that follow another tile with no space between.
        let mut joined = 0;
        let mut last = SPACE;
        for &byte in line {
            let class = self.classes[usize::from(byte)];
            if class == OTHER {
                return None;
            }
            if class != SPACE {
                cells[count.min(MAX_CELLS - 1)] = class;
                count += 1;
                seen |= 1 << class;
                joined += usize::from(last != SPACE);
            }
            last = class;
        }
        if count == n && seen == (1 << n) - 1 {
            return Some(Ok(Board::from_permutation(shape, &cells[..n])));
        }
        // Tiles each a token: the count alone tells a line that is no board
        // and no row, as `classify` would.
        let rows = match self.layout {
            Layout::Fixed(shape) => [shape.cols(), shape.cells()],
            Layout::Auto => [3, 4],
        };
        let no_board = count != n
            && BY_COUNT.iter().all(|s| s.cells() != count)
            && count > 0
            && !rows.contains(&count);
        (joined == 0 && no_board).then_some(Err(ParseError::LineLength {
            layout: self.layout,
            got: count,
        }))
    }

    /// The board of the line at the start of `bytes`, and the line's length
    /// without its newline, if nothing is pending and the line is in one of
    /// the usual layouts of the fast path's shape, with its newline where
    /// that layout puts it (no other byte of such a line is a newline).
    #[inline(always)]
    fn usual_line_ahead(&self, bytes: &[u8]) -> Option<(Board, usize)> {
        let (n, shape) = self.fast_shape()?;
        let len = [2 * n - 1, n]
            .into_iter()
            .find(|&len| bytes.get(len) == Some(&b'\n'))?;
        let cells = self.usual_line(&bytes[..len])?;
        Some((Board::from_cell_array(shape, cells), len))
    }

    /// The number of cells and the shape of the fast path, if it has one and
    /// nothing is pending (a line begun, a grid's rows).
    #[inline(always)]
    fn fast_shape(&self) -> Option<(usize, Shape)> {
        if self.fast_cells == 0 || self.grid.is_some() || !self.tokens.is_empty() {
            return None;
        }
        let shape = match self.layout {
            Layout::Fixed(shape) => shape,
            Layout::Auto => Shape::EIGHT,
        };
        Some((self.fast_cells, shape))
    }

    /// The cells of a line in one of the usual layouts (one tile and one
    /// space by turns, or the tiles written together) if it holds every tile
    /// of the fast path's shape once; the 3x3 board in a loop of known
    /// length.
    #[inline(always)]
    fn usual_line(&self, line: &[u8]) -> Option<[u8; SMALL_CELLS]> {
        match self.fast_cells {
            9 => self.usual_line_of::<9>(line),
            _ => self.usual_line_of::<0>(line),
        }
    }

    /// [`Parser::usual_line`] for `N` cells if known when compiled, else 0.
    /// The cells are gathered in a word rather than stored one by one, so
    /// that the board is not read back byte by byte.
    #[inline(always)]
    fn usual_line_of<const N: usize>(&self, line: &[u8]) -> Option<[u8; SMALL_CELLS]> {
        let n = if N == 0 { self.fast_cells } else { N };
        let mut packed = 0u128;
        let mut seen = 0u32;
        let mut take = |i: usize, byte: u8| {
            let class = self.classes[usize::from(byte)];
            packed |= u128::from(class) << (8 * i);
            seen |= 1u32.wrapping_shl(u32::from(class));
        };
        if line.len() == n {
            for (i, &byte) in line.iter().enumerate() {
                take(i, byte);
            }
        } else if line.len() == 2 * n - 1 {
            for i in 0..n {
                take(i, line[2 * i]);
            }
            if N == 9 {
                // The 8 spaces of a 3x3 line all in one word: a loop over
                // them took about 50 instructions a board.
                const PAIRS: u128 = u128::MAX / 0xFFFF;
                let word = u128::from_le_bytes(line[..16].try_into().expect("17 bytes"));
                if word & (PAIRS * 0xFF00) != PAIRS * (u128::from(b' ') << 8) {
                    return None;
                }
            } else if (1..n).any(|i| line[2 * i - 1] != b' ') {
                return None;
            }
        } else {
            return None;
        }
        (seen == (1 << n) - 1).then(|| packed.to_le_bytes())
    }

    /// Ends the current line: a board, a row, an invalid line, or nothing.
    fn end_line(&mut self, sink: &mut impl FnMut(Item)) {
        self.tokens.finish();
        if self.tokens.is_empty() {
            // An empty line ends a grid.
            self.cut_grid(sink);
            return;
        }
        let line = self.line;
        match classify(&self.tokens, self.layout) {
            Line::Row(shape) => {
                if self.grid.as_ref().is_some_and(|grid| grid.shape != shape) {
                    self.cut_grid(sink);
                }
                let grid = self.grid.get_or_insert_with(|| Grid {
                    shape,
                    line,
                    rows: 0,
                    cells: Vec::with_capacity(MAX_CELLS),
                    error: None,
                });
                grid.rows += 1;
                if let Err(error) = decode(&self.tokens, shape, &mut grid.cells) {
                    grid.error.get_or_insert((line, error));
                }
                if grid.rows == shape.rows() {
                    let grid = self.grid.take().expect("a grid is being read");
                    let item = match grid.error {
                        Some((line, error)) => Item {
                            line,
                            result: Err(error),
                        },
                        None => Item {
                            line: grid.line,
                            result: Board::from_cells(shape, &grid.cells),
                        },
                    };
                    sink(item);
                }
            }
            Line::Board(shape) => {
                self.cut_grid(sink);
                let mut cells = Vec::with_capacity(MAX_CELLS);
                let result = decode(&self.tokens, shape, &mut cells)
                    .and_then(|()| Board::from_cells(shape, &cells));
                sink(Item { line, result });
            }
            Line::Bad(error) => {
                self.cut_grid(sink);
                sink(Item {
                    line,
                    result: Err(error),
                });
            }
        }
        self.tokens.clear();
    }

    /// Reports a grid whose rows stopped coming as one invalid board: its
    /// first unknown tile if it has one, else that it was cut short.
    fn cut_grid(&mut self, sink: &mut impl FnMut(Item)) {
        if let Some(grid) = self.grid.take() {
            let (line, error) = grid.error.unwrap_or((
                grid.line,
                ParseError::GridCutShort {
                    shape: grid.shape,
                    rows: grid.rows,
                    layout: self.layout,
                },
            ));
            sink(Item {
                line,
                result: Err(error),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every item for `input`, fed in pieces of `piece` bytes, as (line,
    /// board or message).
    fn parse_in_pieces(
        layout: Layout,
        input: &str,
        piece: usize,
    ) -> Vec<(u64, Result<String, String>)> {
        let mut parser = Parser::new(layout);
        let mut out = Vec::new();
        let mut sink = |item: Item| {
            out.push((
                item.line,
                item.result
                    .map(|b| b.to_string())
                    .map_err(|e| e.to_string()),
            ))
        };
        for piece in input.as_bytes().chunks(piece) {
            parser.feed(piece, &mut sink);
        }
        parser.finish(&mut sink);
        out
    }

    /// Every item for `input`, fed byte by byte (chunk boundaries must not
    /// matter).
    fn parse_all(layout: Layout, input: &str) -> Vec<(u64, Result<String, String>)> {
        parse_in_pieces(layout, input, 1)
    }

    fn auto(input: &str) -> Vec<(u64, Result<String, String>)> {
        parse_all(Layout::Auto, input)
    }

    /// Every item for `input`, fed whole: the fast paths that look ahead
    /// for a line's end are taken only then.
    fn parse_whole(layout: Layout, input: &str) -> Vec<(u64, Result<String, String>)> {
        parse_in_pieces(layout, input, input.len().max(1))
    }

    #[test]
    fn lines_read_whole_read_as_byte_by_byte() {
        // Lines of the usual lengths that are no usual line, next to ones
        // that are: a newline where a usual line would end must not make a
        // board of what comes before it.
        let inputs = [
            "1 2 3 4 5 6 7 8 x\n12345678x\n",
            "1 2 3\n4 5 6 7 8\n1 2 3 4 5 6 7 8 x\n",
            "12345678\n\n1234 5678x\n12345678x\r\n",
            "1 2 3\n4 5 6\n7 8 x\n12345678x\n1 2 3 4 5 6 7 8 x\n",
            "1 2 3 4 5 6 7 8 8\n1 2 3 4 5 6 7 8 x9\n1  2 3 4 5 6 7 8 x\n",
            "1 2 3 4 5 6 7 8 x 1 2 3 4 5 6 7 x 8\n123\n456\n78x\n",
            "12345678x12345678x\n1 2 3 4 5 6 7 8 \n\n1 2 3 4 5 6 7 8 x",
            "1,2,3,4,5,6,7,8,x\n1 2 3 4 5 6 7\tx 8\n1 2 3 4 5 6 7 x\n8\n",
        ];
        let three: Shape = "3x3".parse().unwrap();
        let two: Shape = "2x3".parse().unwrap();
        for layout in [Layout::Auto, Layout::Fixed(three), Layout::Fixed(two)] {
            for input in inputs {
                assert_eq!(
                    parse_whole(layout, input),
                    parse_all(layout, input),
                    "{input:?} as {layout:?}"
                );
            }
        }
        assert_eq!(parse_whole(Layout::Auto, inputs[0]).len(), 2);
    }

    #[test]
    fn every_layout_of_one_board_reads_the_same() {
        let want = "2 3 4 1 5 x 7 6 8";
        for input in [
            "2 3 4 1 5 x 7 6 8",
            " 2  3  4  1  5  x  7  6  8\n",
            "2\t3 4 1 5 x 7 6 8\r\n",
            "2 3 4\n1 5 x\n7 6 8\n",
            "\n\n2 3 4\n1 5 X\n7 6 8",
            "23415x768",
            "23415X768\r\n",
            "234150768",
            "234 15x 768",
            "2 3 4/1 5 x/7 6 8",
            "234/15x/768\n",
        ] {
            let out = auto(input);
            assert_eq!(out.len(), 1, "{input:?}");
            assert_eq!(out[0].1, Ok(want.to_string()), "{input:?}");
        }
    }

    #[test]
    fn a_bad_line_is_one_board_and_never_swallows_the_next() {
        let good = "1 2 3 x 4 6 7 5 8";
        for bad in [
            "12345678",
            "1 2 3 4 5 6 7 8",
            "hello",
            "abc",
            "1 2 3 4 5",
            "1 2 3 4",
        ] {
            let out = auto(&format!("{good}\n{bad}\n{good}\n"));
            let lines: Vec<u64> = out.iter().map(|(line, _)| *line).collect();
            assert_eq!(lines, [1, 2, 3], "{bad:?}: {out:?}");
            assert!(
                out[0].1.is_ok() && out[1].1.is_err() && out[2].1.is_ok(),
                "{bad:?}: {out:?}"
            );
        }
    }

    #[test]
    fn grids_are_consecutive_rows_and_a_cut_grid_is_one_board() {
        let out = auto("1 2 3\n4 5 6\n\n1 2 3 4 5 6 7 8 x\n1 2 3\n4 5 6\n7 8 x\n1 2 3\n");
        let lines: Vec<u64> = out.iter().map(|(line, _)| *line).collect();
        assert_eq!(lines, [1, 4, 5, 8]);
        assert_eq!(
            out[0].1,
            Err("a 3x3 grid cut short after 2 of 3 rows (a grid is 3 consecutive lines of one row each); \
                 for a 2x3 board give --shape 2x3, or join its rows with '/'"
                .into())
        );
        assert!(out[1].1.is_ok() && out[2].1.is_ok());
        assert!(
            out[3]
                .1
                .as_ref()
                .unwrap_err()
                .contains("cut short after 1 of 3")
        );
        // A whole board interrupts a grid: both are reported, in order.
        let out = auto("1 2 3\n1 2 3 4 5 6 7 8 x\n");
        assert_eq!(out.len(), 2);
        assert!(out[0].1.is_err() && out[1].1.is_ok());
    }

    #[test]
    fn the_shape_is_told_per_board() {
        let out = auto(
            "1 2 3 4 5 6 7 8 9 10 11 12 13 x 14 15\n\
             1 2 3 x 4 6 7 5 8\n\
             1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 x\n\
             1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n\
             1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x 1\n\
             1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 x\n",
        );
        let shapes: Vec<Result<usize, String>> = out
            .iter()
            .map(|(_, r)| r.clone().map(|b| b.split(' ').count()))
            .collect();
        assert_eq!(shapes[..3], [Ok(16), Ok(9), Ok(16)]);
        assert_eq!(
            shapes[3],
            Err(
                "15 tiles on one line: a board is 9 tiles (3x3), 16 (4x4) or 25 (5x5), a row a \
                 line, or rows joined by '/'; else --shape"
                    .into()
            )
        );
        assert!(
            shapes[4]
                .as_ref()
                .unwrap_err()
                .starts_with("17 tiles on one line")
        );
        assert_eq!(shapes[5], Ok(16));
        assert_eq!(
            out.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
            [1, 2, 3, 7, 8, 9]
        );
    }

    #[test]
    fn unknown_tiles_keep_later_boards_in_place() {
        let out = auto("1 2 3 4 5 6 7 8 9\n1 2 3 4 5 6 7 -1 x\n12345678x\n1 2 3\n4 5 9\n7 8 x\n");
        assert_eq!(out.len(), 4);
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
        // An unknown tile in a grid's row names that row's line.
        assert_eq!(out[3].0, 5);
        assert!(
            out[3]
                .1
                .as_ref()
                .unwrap_err()
                .contains("unknown tile \"9\"")
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let out = auto("\n1 2 3 4 5 6 7 8 x 1\n1 1 3 4 5 6 7 8 x\n1 2");
        assert_eq!(out.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [2, 3, 4]);
        assert!(
            out[0]
                .1
                .as_ref()
                .unwrap_err()
                .starts_with("10 tiles on one line")
        );
        assert_eq!(
            out[1].1.as_ref().unwrap_err(),
            "tile 1 written more than once; tile 2 missing"
        );
        assert!(
            out[2]
                .1
                .as_ref()
                .unwrap_err()
                .starts_with("2 tiles on one line")
        );
        // A board of another shape, named by no flag, is told by its count,
        // whatever its numbers.
        let out = auto(
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 x\n\
             1 2 3 4 5 6 7 8 10 11 12 13 14 15 16 17 18 x\n\
             x 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29\n",
        );
        assert_eq!(out.len(), 3);
        let starts = ["20 tiles", "18 tiles", "30 tiles"];
        for ((_, result), start) in out.iter().zip(starts) {
            assert!(
                result.as_ref().unwrap_err().starts_with(start),
                "{result:?}"
            );
        }
        let long = "9".repeat(1000);
        let out = auto(&long);
        assert!(out[0].1.as_ref().unwrap_err().contains('…'));
    }

    #[test]
    fn a_fixed_shape_reads_its_own_boards_and_rows() {
        let shape: Shape = "2x3".parse().unwrap();
        let out = parse_all(
            Layout::Fixed(shape),
            "1 2 3 4 5 x\n12345x\n1 2 3\n4 5 x\n1 2 3 4 5 6 7 8 x\n1/2/3\n1 2 3/4 x 5\n",
        );
        let results: Vec<_> = out.iter().map(|(_, r)| r.clone()).collect();
        assert_eq!(results[0], Ok("1 2 3/4 5 x".into()));
        assert_eq!(results[1], Ok("1 2 3/4 5 x".into()));
        assert_eq!(results[2], Ok("1 2 3/4 5 x".into()));
        assert_eq!(
            results[3],
            Err("9 tiles on one line: a 2x3 board is 6 tiles on one line, or 2 lines of 3".into())
        );
        assert_eq!(
            results[4],
            Err("rows separated by '/' must be 2 rows of 3 tiles".into())
        );
        assert_eq!(results[5], Ok("1 2 3/4 x 5".into()));
        let shape: Shape = "3x5".parse().unwrap();
        let out = parse_all(
            Layout::Fixed(shape),
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x\n1 2 3 4 5\n6 7 8 9 10\n11 12 13 x 14\n",
        );
        assert_eq!(out.len(), 2);
        assert!(out.iter().all(|(_, r)| r.is_ok()), "{out:?}");
    }

    /// Rows of equal length too many for any shape say the board is too
    /// large; rows of unequal length, or too large a board for a fixed
    /// shape, say what rows are read.
    #[test]
    fn rows_of_a_board_larger_than_any_shape_say_so() {
        let too_large = |rows: usize, cols: usize| {
            Err(format!(
                "a board of {rows} rows of {cols} tiles ({} cells) is larger than any eight \
                 answers: at most 25 cells, 2 to 12 rows of 2 to 12 tiles",
                rows * cols
            ))
        };
        let out = parse_all(
            Layout::Auto,
            "1 2 3 4 5 6/7 8 9 10 11 12/13 14 15 16 17 18/19 20 21 22 23 24/25 26 27 28 29 x
\
             1 2 3 4 5 6 7 8 9 10 11 12 13/14 15 16 17 18 19 20 21 22 23 24 25 x
\
             1 2 3 4 5 6 7 8 9/10 11 12 13 14 15 16 17 18/19 20 21 22 23 24 25 26 x
\
             1 2 3/4 5 6 7
",
        );
        let results: Vec<_> = out.iter().map(|(_, r)| r.clone()).collect();
        assert_eq!(results[0], too_large(5, 6));
        assert_eq!(results[1], too_large(2, 13));
        assert_eq!(results[2], too_large(3, 9));
        assert_eq!(
            results[3],
            Err(
                "rows separated by '/' must be rows of equal length: 2 to 12 rows of 2 to 12 \
                 tiles, 25 tiles at most"
                    .into()
            )
        );
        let out = parse_all(
            Layout::Fixed(Shape::FIFTEEN),
            "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 24 x
",
        );
        assert_eq!(
            out[0].1,
            Err("rows separated by '/' must be 4 rows of 4 tiles".into())
        );
    }

    /// A board as written reads back as itself, whatever its shape, with
    /// no shape given: the rows joined by `/` tell those the tile count
    /// does not (and 2x8's 16 tiles are not taken for 4x4's).
    #[test]
    fn every_board_written_reads_back_without_its_shape() {
        for shape in Shape::all() {
            let cells = shape.cells() as u8;
            for board in [
                Board::goal(shape),
                Board::from_cells(shape, &(0..cells).rev().collect::<Vec<u8>>()).unwrap(),
            ] {
                let text = board.to_string();
                assert_eq!(text.parse::<Board>(), Ok(board), "{text}");
                let out = auto(&format!("{text}\n"));
                assert_eq!(out, [(1, Ok(text.clone()))], "{shape}");
            }
        }
        assert_eq!(
            Board::goal("2x8".parse().unwrap())
                .to_string()
                .matches('/')
                .count(),
            1
        );
    }

    #[test]
    fn one_board_alone() {
        assert_eq!(
            "abc".parse::<Board>().unwrap_err().to_string(),
            "unknown tile \"abc\" (a 3x3 board has tiles 1-8 and a blank written x, X or 0)"
        );
        let err = Board::parse(Shape::EIGHT, b"1 2 3 4").unwrap_err();
        assert_eq!(
            err.to_string(),
            "4 tiles on one line: a 3x3 board is 9 tiles on one line, or 3 lines of 3"
        );
        let board =
            Board::parse(Shape::FIFTEEN, b"14 13 15 7\n11 12 9 5\n6 0 2 1\n4 8 10 3").unwrap();
        assert_eq!(board.to_string(), "14 13 15 7 11 12 9 5 6 x 2 1 4 8 10 3");
        for (bad, what) in [
            (
                "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16",
                "unknown tile \"16\"",
            ),
            (
                "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x 1",
                "17 tiles on one line",
            ),
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
}
