//! Board shapes, the moves of the blank, and the shapes' symmetries.
//!
//! A [`Shape`] is `rows x cols` with both at least 2 and at most
//! [`MAX_CELLS`] cells: every rectangle from 2x2 to 5x5, 2x12 and 12x2. A
//! [`Move`] names where the blank goes; the letters' order `d < l < r < u` is
//! the order answers are compared in. A [`Symmetry`] maps the cells of one
//! shape onto those of the same or the transposed shape, and renames moves
//! with them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The most cells a board of any supported shape has: 25, the 5x5 board of
/// the 24-puzzle.
pub const MAX_CELLS: usize = 25;

/// The most cells of a small board: one whose cells pack in 4 bits each and
/// whose rank fits 64 bits, the boards of tables and of the multi-tile
/// search (every shape up to 4x4, 2x8 and 8x2).
pub const SMALL_CELLS: usize = 16;

/// The number of rows and columns of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Shape {
    rows: u8,
    cols: u8,
}

impl Shape {
    /// The 3x3 board of the 8-puzzle.
    pub const EIGHT: Shape = Shape { rows: 3, cols: 3 };

    /// The 4x4 board of the 15-puzzle.
    pub const FIFTEEN: Shape = Shape { rows: 4, cols: 4 };

    /// The 5x5 board of the 24-puzzle.
    pub const TWENTY_FOUR: Shape = Shape { rows: 5, cols: 5 };

    /// Returns the shape with these dimensions, or `None` unless each is at
    /// least 2 and the board has at most 25 cells.
    pub fn new(rows: usize, cols: usize) -> Option<Shape> {
        let fits = (2..=MAX_CELLS / 2).contains(&rows)
            && (2..=MAX_CELLS / 2).contains(&cols)
            && rows * cols <= MAX_CELLS;
        fits.then_some(Shape {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// Every supported shape, by number of cells, then by rows.
    pub fn all() -> impl Iterator<Item = Shape> {
        let mut shapes: Vec<Shape> = (2..=MAX_CELLS / 2)
            .flat_map(|rows| (2..=MAX_CELLS / 2).filter_map(move |cols| Shape::new(rows, cols)))
            .collect();
        shapes.sort_by_key(|shape| (shape.cells(), shape.rows));
        shapes.into_iter()
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

    /// Whether the board has at most 16 cells: its boards
    /// have a rank, it may have a table, and the multi-tile metric is
    /// answered on it.
    pub fn small(self) -> bool {
        self.cells() <= SMALL_CELLS
    }

    /// The shape with rows and columns swapped.
    pub fn transposed(self) -> Shape {
        Shape {
            rows: self.cols,
            cols: self.rows,
        }
    }

    /// Whether each tile is written as its own token, its number: on boards
    /// whose tiles do not all have one digit (more than ten cells), where
    /// `12` is a tile. On the others, tiles may be written together
    /// (`23415x768`).
    pub fn numbered(self) -> bool {
        self.cells() > 10
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
    ///
    /// # Panics
    ///
    /// Panics if the table has fewer than the shape's cells.
    pub fn neighbor_table<const N: usize>(self) -> [[Option<u8>; 4]; N] {
        assert!(self.cells() <= N, "a table of every cell");
        let mut table = [[None; 4]; N];
        for (cell, targets) in table.iter_mut().enumerate().take(self.cells()) {
            for mv in Move::ALL {
                targets[usize::from(mv.code())] = self.neighbor(cell, mv).map(|c| c as u8);
            }
        }
        table
    }

    /// The taxicab distance between two cells.
    pub fn distance(self, a: usize, b: usize) -> usize {
        let (ra, ca) = (a / self.cols(), a % self.cols());
        let (rb, cb) = (b / self.cols(), b % self.cols());
        ra.abs_diff(rb) + ca.abs_diff(cb)
    }

    /// An upper bound on the length of every shortest answer on this shape,
    /// toward any goal: no walk or search ever needs more moves.
    ///
    /// It is the largest distance from the goal with the blank in a corner
    /// (published for every shape here: computed by complete searches,
    /// checked by this crate's own for the shapes it tabulates; a safe cap
    /// for the three shapes no complete search has been published for),
    /// plus the most moves that take the blank from a corner to any cell: a
    /// goal with the blank elsewhere is that many moves from one with the
    /// blank in a corner, after renaming tiles.
    pub fn diameter_bound(self) -> u32 {
        let (small, large) = (self.rows.min(self.cols), self.rows.max(self.cols));
        let corner = match (small, large) {
            (2, 2) => 6,
            (2, 3) => 21,
            (2, 4) => 36,
            (3, 3) => 31,
            (2, 5) => 55,
            (3, 4) => 53,
            (2, 6) => 80,
            (4, 4) => 80,
            // Safe caps, above the depths any search of these shapes has
            // reported (2x7: 108, 3x5: 84, 2x8: 140); beyond 16 cells a cap
            // well above the longest answers known (152 moves on 5x5).
            (2, 7) => 120,
            (3, 5) => 100,
            (2, 8) => 160,
            _ => 1000,
        };
        corner + ((self.rows() - 1) / 2 + (self.cols() - 1) / 2) as u32
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// Why a shape was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// Not written as `RxC`.
    #[error("{0:?} is not a board shape: write it as rows x columns, such as 3x3 or 3x4")]
    Syntax(String),
    /// Well written, but not a shape this crate solves.
    #[error(
        "{rows}x{cols} is not supported: boards have at least 2 rows and 2 columns and at most \
         {MAX_CELLS} cells{}",
        if rows * cols > MAX_CELLS {
            " (larger boards have too many positions for databases that guide an exact search)"
        } else {
            ""
        }
    )]
    Unsupported {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
}

/// Reads `3x4` (or `3X4`).
impl FromStr for Shape {
    type Err = ShapeError;

    fn from_str(text: &str) -> Result<Shape, ShapeError> {
        let syntax = || ShapeError::Syntax(text.to_string());
        let (rows, cols) = text.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        let number = |part: &str| {
            (!part.is_empty() && part.len() <= 3 && part.bytes().all(|b| b.is_ascii_digit()))
                .then(|| part.parse::<usize>().ok())
                .flatten()
                .ok_or_else(syntax)
        };
        let (rows, cols) = (number(rows)?, number(cols)?);
        Shape::new(rows, cols).ok_or(ShapeError::Unsupported { rows, cols })
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
        char::from(b"dlru"[usize::from(self.code())])
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
        // d <-> u, l <-> r: the codes 0 <-> 3, 1 <-> 2.
        Move::from_code(3 - self.code())
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

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// Where the blank goes: `u d l r`, the letters of the seed problems.
    #[default]
    Blank,
    /// Where the moved tile slides, in capitals: the blank's `u` is the
    /// tile's `D`, `d` is `U`, `l` is `R`, `r` is `L` (the speedsolvers'
    /// notation).
    Tile,
    /// As [`Notation::Tile`], a run of `k > 1` equal letters written as the
    /// letter and `k`: `RRUULDLD` is `R2U2LDLD` (as slidy and csTimer write).
    TileRuns,
}

impl Notation {
    /// Appends the moves written as `letters` (blank letters) to `out` in
    /// this notation. The moves are the same; only their spelling changes.
    pub fn spell(self, letters: &[u8], out: &mut Vec<u8>) {
        let tile = |letter: u8| match letter {
            b'u' => b'D',
            b'd' => b'U',
            b'l' => b'R',
            b'r' => b'L',
            other => other,
        };
        match self {
            Notation::Blank => out.extend_from_slice(letters),
            Notation::Tile => out.extend(letters.iter().map(|&l| tile(l))),
            Notation::TileRuns => {
                for run in letters.chunk_by(|a, b| a == b) {
                    out.push(tile(run[0]));
                    if run.len() > 1 {
                        out.extend_from_slice(run.len().to_string().as_bytes());
                    }
                }
            }
        }
    }
}

/// Reads `blank`, `tile` or `tile-runs`.
impl FromStr for Notation {
    type Err = String;

    fn from_str(text: &str) -> Result<Notation, String> {
        match text {
            "blank" => Ok(Notation::Blank),
            "tile" => Ok(Notation::Tile),
            "tile-runs" => Ok(Notation::TileRuns),
            other => Err(format!(
                "{other:?} is not a notation: write blank, tile or tile-runs"
            )),
        }
    }
}

/// A symmetry of the rectangle: flip the rows (top to bottom), flip the
/// columns (left to right), then, if `transpose`, swap rows and columns. It
/// maps the cells of a shape onto the cells of its [image](Symmetry::shape),
/// the same shape or the transposed one, and each move of the blank onto the
/// move that goes the same way in the image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    /// Row `r` becomes row `rows - 1 - r`.
    pub flip_rows: bool,
    /// Column `c` becomes column `cols - 1 - c`.
    pub flip_cols: bool,
    /// Row `r`, column `c` becomes row `c`, column `r`.
    pub transpose: bool,
}

impl Symmetry {
    /// The symmetry that changes nothing.
    #[cfg(test)]
    pub const IDENTITY: Symmetry = Symmetry {
        flip_rows: false,
        flip_cols: false,
        transpose: false,
    };

    /// All eight symmetries of a square and its transposes, the identity
    /// first.
    pub fn all() -> impl Iterator<Item = Symmetry> {
        (0..8u8).map(|bits| Symmetry {
            flip_rows: bits & 1 != 0,
            flip_cols: bits & 2 != 0,
            transpose: bits & 4 != 0,
        })
    }

    /// The symmetries that map `shape` onto itself: four for a rectangle,
    /// eight for a square.
    pub fn of(shape: Shape) -> impl Iterator<Item = Symmetry> {
        Symmetry::all().filter(move |s| !s.transpose || shape.rows == shape.cols)
    }

    /// The shape that `shape`'s cells are mapped onto.
    pub fn shape(self, shape: Shape) -> Shape {
        match self.transpose {
            true => shape.transposed(),
            false => shape,
        }
    }

    /// The cell of the image that `cell` of `shape` is mapped onto.
    pub fn cell(self, shape: Shape, cell: usize) -> usize {
        let (mut row, mut col) = (cell / shape.cols(), cell % shape.cols());
        if self.flip_rows {
            row = shape.rows() - 1 - row;
        }
        if self.flip_cols {
            col = shape.cols() - 1 - col;
        }
        match self.transpose {
            true => col * shape.rows() + row,
            false => row * shape.cols() + col,
        }
    }

    /// The move in the image that goes where `mv` goes in the original.
    #[cfg(test)]
    pub fn apply(self, mv: Move) -> Move {
        let mut mv = mv;
        if self.flip_rows && matches!(mv, Move::Up | Move::Down) {
            mv = mv.opposite();
        }
        if self.flip_cols && matches!(mv, Move::Left | Move::Right) {
            mv = mv.opposite();
        }
        if self.transpose {
            mv = match mv {
                Move::Down => Move::Right,
                Move::Right => Move::Down,
                Move::Up => Move::Left,
                Move::Left => Move::Up,
            };
        }
        mv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_supported_shape_and_no_other() {
        let all: Vec<String> = Shape::all().map(|s| s.to_string()).collect();
        assert_eq!(
            all.join(" "),
            "2x2 2x3 3x2 2x4 4x2 3x3 2x5 5x2 2x6 3x4 4x3 6x2 2x7 7x2 3x5 5x3 2x8 4x4 8x2 \
             2x9 3x6 6x3 9x2 2x10 4x5 5x4 10x2 3x7 7x3 2x11 11x2 2x12 3x8 4x6 6x4 8x3 12x2 5x5"
        );
        assert_eq!("3x4".parse::<Shape>().unwrap().to_string(), "3x4");
        assert_eq!("4X4".parse::<Shape>(), Ok(Shape::FIFTEEN));
        for bad in [
            "",
            "3",
            "x3",
            "3x",
            "3x3x3",
            "-3x3",
            "3 x 3",
            "ax3",
            "99999999999x3",
        ] {
            assert!(
                matches!(bad.parse::<Shape>(), Err(ShapeError::Syntax(_))),
                "{bad:?}"
            );
        }
        for (text, rows, cols) in [("5x6", 5, 6), ("1x9", 1, 9), ("6x6", 6, 6), ("13x2", 13, 2)] {
            assert_eq!(
                text.parse::<Shape>(),
                Err(ShapeError::Unsupported { rows, cols })
            );
        }
        assert!(
            ShapeError::Unsupported { rows: 6, cols: 6 }
                .to_string()
                .contains("too many positions")
        );
    }

    #[test]
    fn symmetries_move_the_blank_as_they_map_the_cells() {
        for shape in Shape::all() {
            for symmetry in Symmetry::of(shape) {
                let image = symmetry.shape(shape);
                let mut seen = vec![false; shape.cells()];
                for cell in 0..shape.cells() {
                    let to = symmetry.cell(shape, cell);
                    assert!(!seen[to], "{shape} {symmetry:?} is one to one");
                    seen[to] = true;
                    for mv in Move::ALL {
                        assert_eq!(
                            shape.neighbor(cell, mv).map(|n| symmetry.cell(shape, n)),
                            image.neighbor(to, symmetry.apply(mv)),
                            "{shape} {symmetry:?} cell {cell} {mv}"
                        );
                    }
                }
            }
            assert_eq!(
                Symmetry::of(shape).count(),
                if shape.rows() == shape.cols() { 8 } else { 4 }
            );
        }
    }

    #[test]
    fn notations_spell_the_same_moves() {
        let spell = |notation: Notation, letters: &str| {
            let mut out = Vec::new();
            notation.spell(letters.as_bytes(), &mut out);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(spell(Notation::Blank, "llddruru"), "llddruru");
        assert_eq!(spell(Notation::Tile, "llddruru"), "RRUULDLD");
        assert_eq!(spell(Notation::TileRuns, "llddruru"), "R2U2LDLD");
        assert_eq!(spell(Notation::TileRuns, "uuuuuuuuuuuud"), "D12U");
        assert_eq!(spell(Notation::TileRuns, ""), "");
        assert_eq!("tile-runs".parse(), Ok(Notation::TileRuns));
        assert!("tiles".parse::<Notation>().is_err());
    }

    #[test]
    fn moves_undo_and_name_themselves() {
        for mv in Move::ALL {
            assert_eq!(mv.opposite().opposite(), mv);
            assert_ne!(mv.opposite(), mv);
            assert_eq!(Move::from_letter(mv.letter()), Some(mv));
            assert_eq!(Move::from_code(mv.code()), mv);
        }
        assert_eq!(moves_to_string(&Move::ALL), "dlru");
    }
}
