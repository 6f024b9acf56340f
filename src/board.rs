//! A board: a shape and its cells, with parity, solvability and relabelling.
//!
//! A [`Board`] is a [`Shape`] plus its cells in reading order; a cell holds a
//! tile `1..n` or `0` for the blank. Reading one from text follows the
//! [input rule](crate::parse).

use std::fmt;

use crate::rank;
#[cfg(target_arch = "x86_64")]
use crate::rank::has_ssse3;
use crate::shape::{MAX_CELLS, Move, SMALL_CELLS, Shape};

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

    /// Tiles `1..n` in reading order with the blank at `blank`: the goals
    /// tables are generated for, one per blank position.
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
                shape,
                got: cells.len(),
            });
        }
        // Every tile once: the common case, told by one mask.
        let seen = cells.iter().fold(0u32, |seen, &tile| {
            seen | 1u32.checked_shl(u32::from(tile)).unwrap_or(0)
        });
        if seen == (1u32 << shape.cells()) - 1 {
            return Ok(Board::from_permutation(shape, cells));
        }
        let mut count = [0u8; MAX_CELLS];
        for &tile in cells {
            match count.get_mut(usize::from(tile)) {
                Some(c) if usize::from(tile) < shape.cells() => *c += 1,
                _ => {
                    return Err(ParseError::UnknownTile {
                        token: tile.to_string(),
                        shape: Some(shape),
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
        Ok(Board::from_permutation(shape, cells))
    }

    /// The board whose cells are the first of `cells`, known to hold every
    /// tile once, with zeros after them.
    #[inline]
    pub(crate) fn from_cell_array<const N: usize>(shape: Shape, cells: [u8; N]) -> Board {
        debug_assert!(cells[shape.cells()..].iter().all(|&c| c == 0));
        let mut board = Board {
            shape,
            cells: [0; MAX_CELLS],
        };
        board.cells[..N].copy_from_slice(&cells);
        board
    }

    /// The first [`SMALL_CELLS`] cells, all of a small board's, for the
    /// work on them in the lanes of a vector.
    #[inline(always)]
    fn small_cells(&self) -> [u8; SMALL_CELLS] {
        let mut cells = [0; SMALL_CELLS];
        cells.copy_from_slice(&self.cells[..SMALL_CELLS]);
        cells
    }

    /// The board with these cells, known to hold every tile once.
    pub(crate) fn from_permutation(shape: Shape, cells: &[u8]) -> Board {
        debug_assert_eq!(cells.len(), shape.cells());
        let mut board = Board {
            shape,
            cells: [0; MAX_CELLS],
        };
        board.cells[..cells.len()].copy_from_slice(cells);
        board
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cells in reading order: tiles `1..n`, `0` for the blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.shape.cells()]
    }

    /// The cells of a small board packed 4 bits each, the first lowest
    /// ([`crate::rank::pack`]): in a vector where the processor has SSSE3, a
    /// multiply-add joining each two cells into a byte.
    #[inline]
    pub(crate) fn packed(&self) -> u64 {
        debug_assert!(self.shape.small());
        #[cfg(target_arch = "x86_64")]
        if has_ssse3() {
            // SAFETY: the processor has SSSE3 (and so SSE2), as `has_ssse3`
            // says.
            return unsafe { pack_in_lanes(self.small_cells()) };
        }
        rank::pack(self.cells())
    }

    /// The board's rank, the index of its entry in a table: the Lehmer
    /// rank of the cells where its tiles stand, listed by tile, blank first.
    ///
    /// # Panics
    ///
    /// Panics if the board has more than 16 cells: no table
    /// holds such boards, and their ranks pass 64 bits.
    ///
    /// ```
    /// use eight::Board;
    ///
    /// let goal: Board = "1 2 3 4 5 6 7 8 x".parse()?;
    /// let other: Board = "1 2 3 4 5 6 7 x 8".parse()?;
    /// assert_ne!(goal.rank(), other.rank());
    /// # Ok::<(), eight::ParseError>(())
    /// ```
    #[inline]
    pub fn rank(&self) -> u64 {
        board_rank(self)
    }

    /// The cell that holds the blank.
    #[inline]
    pub fn blank(&self) -> usize {
        // The lowest zero byte of the first 16 cells read as one word, with
        // no branch on where it is (a scan mispredicts on random boards).
        // The cells past the board's are zero too, but come after its blank.
        const ONES: u128 = u128::MAX / 0xFF;
        let word = u128::from_le_bytes(self.small_cells());
        let zeros = word.wrapping_sub(ONES) & !word & (ONES << 7);
        match zeros {
            0 => (SMALL_CELLS..MAX_CELLS)
                .find(|&cell| self.cells[cell] == 0)
                .unwrap_or(0),
            _ => (zeros.trailing_zeros() / 8) as usize,
        }
    }

    /// The board after the blank moves by `mv`, or `None` at an edge.
    pub fn moved(&self, mv: Move) -> Option<Board> {
        let blank = self.blank();
        let target = self.shape.neighbor(blank, mv)?;
        let mut next = *self;
        next.cells.swap(blank, target);
        Some(next)
    }

    /// The board after `moves`, or `None` if one of them leaves the board.
    pub fn after(&self, moves: &[Move]) -> Option<Board> {
        moves.iter().try_fold(*self, |board, &mv| board.moved(mv))
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

    /// The parity of the cells as a permutation: `0` even, `1` odd.
    pub fn parity(&self) -> usize {
        match self.shape.small() {
            true => board_rank_and_parity(self).1,
            false => rank::parity(self.cells()),
        }
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
        let n = self.shape.cells();
        #[cfg(target_arch = "x86_64")]
        if self.shape.small() && has_ssse3() {
            let names = names(from.cells(), to.cells());
            // SAFETY: the processor has SSSE3 (and so SSE2), as `has_ssse3`
            // says.
            let cells = unsafe { rename_in_lanes(self.small_cells(), names, n) };
            return Board::from_cell_array(self.shape, cells);
        }
        let mut name = [0u8; MAX_CELLS];
        for (&old, &new) in from.cells().iter().zip(to.cells()) {
            name[usize::from(old)] = new;
        }
        Board {
            shape: self.shape,
            cells: rename(self.cells, name, n),
        }
    }

    /// [`Board::relabelled`] for three boards known to be of one shape, of
    /// 9 cells if `NINE`: with no look at their shapes (a `--pairs` case
    /// is placed so, its shapes checked once for a run).
    #[inline(always)]
    pub(crate) fn relabelled_of<const NINE: bool>(&self, from: &Board, to: &Board) -> Board {
        #[cfg(target_arch = "x86_64")]
        if NINE && has_ssse3() {
            debug_assert!(self.shape == from.shape && from.shape == to.shape);
            debug_assert_eq!(self.shape.cells(), 9);
            let names = names(&from.cells[..9], &to.cells[..9]);
            // SAFETY: the processor has SSSE3 (and so SSE2), as `has_ssse3`
            // says.
            let cells = unsafe { rename_in_lanes(self.small_cells(), names, 9) };
            return Board::from_cell_array(self.shape, cells);
        }
        self.relabelled(from, to)
    }

    /// The board seen through `symmetry`: each tile on the cell its cell is
    /// mapped onto, in the symmetry's image of the shape. Moves that take
    /// this board to a goal, each [mapped](Symmetry::apply), take the result
    /// to the goal's image.
    #[cfg(test)]
    pub(crate) fn transformed(&self, symmetry: crate::shape::Symmetry) -> Board {
        let mut board = Board {
            shape: symmetry.shape(self.shape),
            cells: [0; MAX_CELLS],
        };
        for (cell, &tile) in self.cells().iter().enumerate() {
            board.cells[symmetry.cell(self.shape, cell)] = tile;
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
/// The one statement of the solvability rule.
pub(crate) fn connected(shape: Shape, parity: usize, blank: usize, goal_blank: usize) -> bool {
    parity % 2 == shape.distance(blank, goal_blank) % 2
}

/// Shows the tiles in reading order separated by spaces, the blank as `x`:
/// `1 2 3 x 4 6 7 5 8`, which parses back to the same board.
impl fmt::Display for Board {
    /// The tiles in reading order, `x` the blank, as the input rule reads
    /// them back: on one line for 3x3 and 4x4 boards, whose tile counts
    /// tell their shapes; for others with rows joined by `/`, which tell
    /// theirs (`1 2 3 4/5 6 7 8/9 10 11 x`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cols = self.shape.cols();
        let rows_told = !matches!(self.shape, Shape::EIGHT | Shape::FIFTEEN);
        for (pos, &tile) in self.cells().iter().enumerate() {
            if pos > 0 {
                f.write_str(match rows_told && pos % cols == 0 {
                    true => "/",
                    false => " ",
                })?;
            }
            write!(f, "{}", TileName(tile))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({}: {self})", self.shape)
    }
}

/// A tile as written: its number, or `x` for the blank.
pub(crate) struct TileName(pub(crate) u8);

impl fmt::Display for TileName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.pad("x"),
            tile => f.pad(&tile.to_string()),
        }
    }
}

/// The rank of a board: the Lehmer rank of the cells where its tiles stand,
/// listed by tile, blank first.
pub fn board_rank(board: &Board) -> u64 {
    board_rank_and_parity(board).0
}

/// The rank of a board, as [`board_rank`], and the parity of its cells as a
/// permutation (`0` even, `1` odd), in one count.
///
/// # Panics
///
/// Panics if the board has more than [`SMALL_CELLS`] cells.
pub fn board_rank_and_parity(board: &Board) -> (u64, usize) {
    assert!(
        board.shape.small(),
        "a {} board has no rank: at most {SMALL_CELLS} cells do",
        board.shape
    );
    rank::rank_and_parity::<false>(board.small_cells(), board.shape.cells())
}

/// [`board_rank_and_parity`] of a board known to have 9 cells if `NINE`,
/// with no look at its shape.
#[inline(always)]
pub(crate) fn board_rank_and_parity_of<const NINE: bool>(board: &Board) -> (u64, usize) {
    match NINE {
        true => rank::rank_and_parity::<true>(board.small_cells(), 9),
        false => board_rank_and_parity(board),
    }
}

/// The first `n` of `cells` renamed by `name` (a cell holding `t` then
/// holds `name[t]`), the rest left zero.
fn rename(mut cells: [u8; MAX_CELLS], name: [u8; MAX_CELLS], n: usize) -> [u8; MAX_CELLS] {
    for cell in &mut cells[..n] {
        *cell = name[usize::from(*cell)];
    }
    cells
}

/// The new name of each tile, 4 bits a tile, when `from` is renamed `to`:
/// in a register, since bytes stored one by one and read back whole would
/// wait for the stores.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn names(from: &[u8], to: &[u8]) -> u64 {
    let mut names = 0;
    for (&old, &new) in from.iter().zip(to) {
        names |= u64::from(new) << (4 * (old & 15));
    }
    names
}

/// [`rename`] in one shuffle of the 16 lanes of a vector: every `--pairs`
/// case is renamed toward its canonical goal, and the interleaved walks of
/// 100,000 cases take 3-9% less time so (four alternating pairs of runs on
/// one core, best of nine each: 131.7-135.2 ns a case against 138.7-144.6).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2,ssse3")]
#[inline]
fn rename_in_lanes(cells: [u8; SMALL_CELLS], names: u64, n: usize) -> [u8; SMALL_CELLS] {
    use std::arch::x86_64::*;

    use crate::rank::vector;
    // Byte `k` of the names holds the names of tiles `2k` (low) and
    // `2k + 1` (high): spread one a lane.
    let packed = _mm_cvtsi64_si128(names as i64);
    let nibble = _mm_set1_epi8(15);
    let low = _mm_and_si128(packed, nibble);
    let high = _mm_and_si128(_mm_srli_epi16(packed, 4), nibble);
    let name = _mm_unpacklo_epi8(low, high);
    let lanes = vector(std::array::from_fn(|lane| lane as u8));
    let kept = _mm_cmplt_epi8(lanes, _mm_set1_epi8(n as i8));
    let renamed = _mm_and_si128(_mm_shuffle_epi8(name, vector(cells)), kept);
    let low = _mm_cvtsi128_si64(renamed) as u64;
    let high = _mm_cvtsi128_si64(_mm_unpackhi_epi64(renamed, renamed)) as u64;
    (u128::from(low) | u128::from(high) << 64).to_le_bytes()
}

/// [`Board::packed`] in the lanes of a vector: cells `2k` and `2k + 1`
/// (under 16 each) make byte `k`, the first in the low half. The cells past
/// a board's are zero.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2,ssse3")]
#[inline]
fn pack_in_lanes(cells: [u8; SMALL_CELLS]) -> u64 {
    use std::arch::x86_64::*;

    let weights = _mm_set1_epi16(16 << 8 | 1);
    let pairs = _mm_maddubs_epi16(crate::rank::vector(cells), weights);
    _mm_cvtsi128_si64(_mm_packus_epi16(pairs, pairs)) as u64
}

/// Which board shapes a parser reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Each board's own line tells its shape: 3x3, 4x4 or 5x5, or any
    /// shape with rows joined by `/`.
    Auto,
    /// Every board has this shape.
    Fixed(Shape),
}

impl Layout {
    /// The shape, if fixed.
    pub fn shape(self) -> Option<Shape> {
        match self {
            Layout::Auto => None,
            Layout::Fixed(shape) => Some(shape),
        }
    }
}

/// What is wrong with a board, or with the line that should hold it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// A token that names no tile.
    #[error("unknown tile {token:?} ({})", TileRule(*shape))]
    UnknownTile {
        /// The token as read (cut short if it was very long).
        token: String,
        /// The board's shape, when the line tells it.
        shape: Option<Shape>,
    },
    /// Some tile appears more than once (and so others are missing).
    #[error("{}", describe_wrong_tiles(repeated, missing))]
    WrongTiles {
        /// The tiles written more than once (`0` is the blank).
        repeated: Vec<u8>,
        /// The tiles not written at all (`0` is the blank).
        missing: Vec<u8>,
    },
    /// A board given alone has the wrong number of tiles.
    #[error("{}: a {shape} board has {}", Tiles(*got), shape.cells())]
    TileCount {
        /// The board's shape.
        shape: Shape,
        /// The tiles there are.
        got: usize,
    },
    /// A line that is neither a whole board nor one row of a grid.
    #[error("{} on one line: {}", Tiles(*got), LineRule(*layout))]
    LineLength {
        /// The shapes being read.
        layout: Layout,
        /// The tiles on the line.
        got: usize,
    },
    /// A line with rows separated by `/` that are not the rows of a board.
    #[error("rows separated by '/' must be {}", SlashRule(*layout))]
    Rows {
        /// The shapes being read.
        layout: Layout,
    },
    /// Rows separated by `/`, of equal length, of a board larger than any
    /// shape answered.
    #[error(
        "a board of {rows} rows of {cols} tiles ({} cells) is larger than any eight answers: at \
         most 25 cells, 2 to 12 rows of 2 to 12 tiles",
        rows * cols
    )]
    TooLarge {
        /// The rows.
        rows: usize,
        /// The tiles of each.
        cols: usize,
    },
    /// Rows of a grid not followed by the rest of the grid.
    #[error(
        "a {shape} grid cut short after {rows} of {} rows (a grid is {} consecutive lines of one row each){}",
        shape.rows(),
        shape.rows(),
        OtherRows(*shape, *rows, *layout)
    )]
    GridCutShort {
        /// The board's shape.
        shape: Shape,
        /// The rows read.
        rows: usize,
        /// The shapes being read.
        layout: Layout,
    },
    /// A text given as one board that holds several.
    #[error(
        "{boards} boards in one text: give one board (a line, a grid of one row a line, or rows \
         joined by '/'), or each board on its own"
    )]
    Several {
        /// The boards in it.
        boards: usize,
    },
}

/// A number of tiles, for messages: `1 tile`, `8 tiles`.
struct Tiles(usize);

impl fmt::Display for Tiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => f.write_str("1 tile"),
            n => write!(f, "{n} tiles"),
        }
    }
}

/// The tiles of a shape, for messages.
struct TileRule(Option<Shape>);

impl fmt::Display for TileRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(shape) => write!(
                f,
                "a {shape} board has tiles 1-{} and a blank written x, X or 0",
                shape.cells() - 1
            ),
            None => f.write_str("tiles are numbers from 1, the blank is x, X or 0"),
        }
    }
}

/// What a line must hold, for messages.
struct LineRule(Layout);

impl fmt::Display for LineRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Layout::Fixed(shape) => write!(
                f,
                "a {shape} board is {} tiles on one line, or {} lines of {}",
                shape.cells(),
                shape.rows(),
                shape.cols()
            ),
            Layout::Auto => f.write_str(
                "a board is 9 tiles (3x3), 16 (4x4) or 25 (5x5), a row a line, or rows joined \
                 by '/'; else --shape",
            ),
        }
    }
}

/// What to write for a board of the rows read, told by its rows alone
/// where the shape is not fixed: `; for a 3x4 board give --shape 3x4, or
/// join its rows with '/'`.
struct OtherRows(Shape, usize, Layout);

impl fmt::Display for OtherRows {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let OtherRows(shape, rows, layout) = *self;
        match (layout, Shape::new(rows, shape.cols())) {
            (Layout::Auto, Some(other)) => write!(
                f,
                "; for a {other} board give --shape {other}, or join its rows with '/'"
            ),
            _ => Ok(()),
        }
    }
}

/// What a line with `/` must hold, for messages.
struct SlashRule(Layout);

impl fmt::Display for SlashRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Layout::Fixed(shape) => write!(f, "{} rows of {} tiles", shape.rows(), shape.cols()),
            Layout::Auto => {
                f.write_str("rows of equal length: 2 to 12 rows of 2 to 12 tiles, 25 tiles at most")
            }
        }
    }
}

fn describe_wrong_tiles(repeated: &[u8], missing: &[u8]) -> String {
    let names = |tiles: &[u8]| {
        tiles
            .iter()
            .map(|&t| match t {
                0 => "the blank".to_string(),
                t => format!("tile {t}"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut text = format!("{} written more than once", names(repeated));
    if !missing.is_empty() {
        text += &format!("; {} missing", names(missing));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::{PackedMoves, cells_rank_and_parity, factorial, pack, rank_delta, unrank};

    /// The 3x3 board whose positions (cell of each tile, blank first) have
    /// rank `r`, built by unranking: independent of `board_rank`.
    fn board_of_rank(r: u64) -> Board {
        let mut positions = [0u8; 9];
        unrank(r, &mut positions);
        let mut cells = [0u8; 9];
        for (tile, &pos) in positions.iter().enumerate() {
            cells[usize::from(pos)] = tile as u8;
        }
        Board::from_cells(Shape::EIGHT, &cells).unwrap()
    }

    #[test]
    fn board_rank_is_the_rank_of_the_positions_for_every_board() {
        for r in 0..factorial(9) {
            let board = board_of_rank(r);
            assert_eq!(board_rank(&board), r);
        }
    }

    #[test]
    fn every_3x3_board_ranks_the_same_in_the_loop_and_in_lanes() {
        for r in 0..factorial(9) {
            let board = board_of_rank(r);
            assert_eq!(
                board_rank_and_parity(&board),
                cells_rank_and_parity(board.cells()),
                "{board:?}"
            );
        }
    }

    #[test]
    fn board_rank_pairs_hold_one_board_of_each_reachability() {
        let goal = Board::goal(Shape::EIGHT);
        for r in (0..factorial(9)).step_by(2) {
            let (even, odd) = (board_of_rank(r), board_of_rank(r + 1));
            assert_ne!(even.solvable_to(&goal), odd.solvable_to(&goal), "{even:?}");
        }
    }

    #[test]
    fn rank_delta_follows_every_move_of_every_board() {
        use crate::shape::Move;
        for r in 0..factorial(9) {
            let board = board_of_rank(r);
            for mv in Move::ALL {
                let Some(next) = board.moved(mv) else {
                    continue;
                };
                let target = next.blank();
                let delta = rank_delta(board.cells(), board.blank(), target);
                assert_eq!(r as i64 + delta, board_rank(&next) as i64, "{board:?} {mv}");
            }
        }
    }

    #[test]
    fn packed_moves_follow_every_move_of_every_board() {
        for shape in ["3x3", "2x4", "4x2", "3x4"] {
            let shape: Shape = shape.parse().unwrap();
            let moves = PackedMoves::new(shape);
            let n = shape.cells();
            let mut cells: Vec<u8> = (0..n as u8).collect();
            // Every 3x3 board; a sample of the larger ones.
            let step = match n {
                9 => 1,
                _ => 9973,
            };
            for r in (0..factorial(n)).step_by(step) {
                unrank(r, &mut cells);
                let board = Board::from_cells(shape, &cells).unwrap();
                for mv in Move::ALL {
                    let (mut packed, mut blank) = (pack(&cells), board.blank());
                    let delta = match shape.cols() {
                        2 => moves.apply::<1>(&mut packed, &mut blank, mv.code()),
                        3 => moves.apply::<2>(&mut packed, &mut blank, mv.code()),
                        _ => moves.apply::<3>(&mut packed, &mut blank, mv.code()),
                    };
                    match board.moved(mv) {
                        None => assert_eq!((delta, blank), (None, board.blank())),
                        Some(next) => {
                            let expected = rank_delta(&cells, board.blank(), next.blank());
                            assert_eq!(delta, Some(expected), "{board:?} {mv}");
                            assert_eq!(packed, pack(next.cells()), "{board:?} {mv}");
                            assert_eq!(blank, next.blank());
                        }
                    }
                }
            }
        }
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

    /// Packed in a vector or cell by cell, a board of every shape is the
    /// same word.
    #[test]
    fn packing_is_packing_cell_by_cell() {
        let mut seed = 16u64;
        for shape in Shape::all().filter(|s| s.small()) {
            let n = shape.cells();
            let mut cells: Vec<u8> = (0..n as u8).collect();
            for _ in 0..1000 {
                for i in (1..n).rev() {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    cells.swap(i, (seed >> 33) as usize % (i + 1));
                }
                let board = Board::from_cells(shape, &cells).unwrap();
                assert_eq!(board.packed(), rank::pack(&cells), "{shape} {cells:?}");
            }
        }
    }

    /// The shuffle renames as the loop does, on boards of every size,
    /// the lanes past the board left zero.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn renaming_in_lanes_is_renaming_cell_by_cell() {
        if !crate::rank::has_ssse3() {
            return;
        }
        let mut seed = 8u64;
        let mut next = |below: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % below
        };
        for shape in Shape::all().filter(|s| s.small()) {
            let n = shape.cells();
            for _ in 0..1000 {
                let mut cells = [0u8; SMALL_CELLS];
                let mut name = [0u8; MAX_CELLS];
                for (i, (cell, name)) in cells.iter_mut().zip(&mut name).enumerate().take(n) {
                    (*cell, *name) = (i as u8, i as u8);
                }
                for i in (1..n).rev() {
                    cells.swap(i, next(i + 1));
                    name.swap(i, next(i + 1));
                }
                let names = (name.iter().take(SMALL_CELLS).enumerate())
                    .fold(0, |names, (tile, &new)| {
                        names | u64::from(new) << (4 * tile)
                    });
                // SAFETY: the processor has SSSE3, as checked above.
                let shuffled = unsafe { rename_in_lanes(cells, names, n) };
                let mut wide = [0u8; MAX_CELLS];
                wide[..SMALL_CELLS].copy_from_slice(&cells);
                assert_eq!(
                    shuffled[..],
                    rename(wide, name, n)[..SMALL_CELLS],
                    "{shape} {cells:?} {name:?}"
                );
            }
        }
    }

    #[test]
    fn the_blank_is_found_on_every_cell_of_every_shape() {
        for shape in Shape::all() {
            for blank in 0..shape.cells() {
                let board = Board::canonical(shape, blank);
                assert_eq!(board.blank(), blank, "{shape}");
                let plain = board.cells().iter().position(|&c| c == 0);
                assert_eq!(plain, Some(blank), "{shape}");
            }
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
        assert_eq!(goal.after(&[Move::Up, Move::Down]), Some(goal));
        assert_eq!(goal.after(&[Move::Right]), None);
    }

    #[test]
    fn a_symmetry_maps_answers_onto_answers() {
        let shape: Shape = "2x3".parse().unwrap();
        let start = Board::from_cells(shape, &[4, 1, 2, 0, 5, 3]).unwrap();
        let moves = [Move::Right, Move::Up, Move::Right, Move::Down];
        let goal = start.after(&moves).unwrap();
        for symmetry in crate::shape::Symmetry::of(shape) {
            let mapped: Vec<Move> = moves.iter().map(|&mv| symmetry.apply(mv)).collect();
            assert_eq!(
                start.transformed(symmetry).after(&mapped),
                Some(goal.transformed(symmetry)),
                "{symmetry:?}"
            );
        }
    }

    #[test]
    fn the_grid_aligns_numbers() {
        let board = Board::goal(Shape::FIFTEEN);
        assert_eq!(board.grid()[3], "13 14 15  x");
        assert_eq!(
            format!("{board:?}"),
            "Board(4x4: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x)"
        );
    }
}
