//! The Cantor/Lehmer rank of a permutation, and its inverse.
//!
//! A board is a permutation of `0..n` (the blank is `0`), read in reading
//! order. Its rank is its position among all `n!` permutations in
//! lexicographic order: the Lehmer code `d` (where `d[i]` counts the later
//! cells smaller than cell `i`) read as a mixed-radix number,
//! `rank = d[0]·(n-1)! + d[1]·(n-2)! + … + d[n-1]·0!`.
//!
//! The lowest digit with a choice in it, `d[n-2]`, only says whether the last
//! two entries are in order, so ranks `2k` and `2k + 1` differ by swapping the
//! last two entries.
//!
//! # Boards
//!
//! A board is ranked by [`board_rank`](crate::board::board_rank): the rank of its *positions*, the cell
//! of each tile listed by tile, blank first (the inverse of the cells in
//! reading order). The blank's cell is the leading digit, and the last two
//! entries are the cells of the two highest tiles, so ranks `2k` and `2k + 1`
//! differ by swapping two tiles with the blank in place: one of the two boards
//! can reach a given goal and the other cannot. `board_rank / 2` therefore
//! indexes the boards that reach a goal without gaps: see [`crate::file`].

use crate::shape::{Move, SMALL_CELLS, Shape};

/// The largest number of cells whose permutations can be ranked in a `u64`.
pub const MAX_RANKED_CELLS: usize = 20;

/// Returns `n!`.
///
/// # Panics
///
/// Panics if `n > MAX_RANKED_CELLS`, whose factorial does not fit in a `u64`.
pub const fn factorial(n: usize) -> u64 {
    assert!(n <= MAX_RANKED_CELLS, "factorial overflows u64");
    FACTORIALS[n]
}

/// Returns the Lehmer rank of `perm`, a permutation of `0..perm.len()`.
///
/// # Panics
///
/// Panics if `perm` is longer than 32 cells; the result is meaningless (but
/// the call is safe) if `perm` is not a permutation.
#[cfg(test)]
pub fn rank(perm: &[u8]) -> u64 {
    rank_placement(perm, perm.len())
}

/// Returns the rank of `cells`, `k` distinct values of `0..n` (a placement
/// of `k` tiles on `n` cells), among all `n! / (n - k)!` such lists in
/// lexicographic order: the Lehmer code of the first `k` entries of a
/// permutation, read with the radices `n, n - 1, …, n - k + 1`.
///
/// # Panics
///
/// Panics if `n` is more than 32; the result is meaningless (but the call is
/// safe) if the values are not distinct and below `n`.
pub fn rank_placement(cells: &[u8], n: usize) -> u64 {
    assert!(n <= 32, "rank: at most 32 cells");
    let mut seen: u32 = 0;
    let mut rank = 0u64;
    for (i, &value) in cells.iter().enumerate() {
        let value = u32::from(value) & 31;
        let smaller_seen = (seen & ((1u32 << value) - 1)).count_ones();
        let digit = u64::from(value - smaller_seen.min(value));
        rank = rank * n.saturating_sub(i) as u64 + digit;
        seen |= 1 << value;
    }
    rank
}

/// The number of placements of `k` tiles on `n` cells, `n! / (n - k)!`.
pub fn placements(n: usize, k: usize) -> u64 {
    (n - k + 1..=n).map(|f| f as u64).product()
}

/// Writes into `out` the permutation of `0..out.len()` whose rank is `rank`.
///
/// # Panics
///
/// Panics if `out` has more than [`MAX_RANKED_CELLS`] cells or if
/// `rank >= out.len()!`.
pub fn unrank(rank: u64, out: &mut [u8]) {
    unrank_placement(rank, out.len(), out);
}

/// Writes into `out` the placement of `out.len()` tiles on `n` cells whose
/// rank is `rank` (see [`rank_placement`]).
///
/// # Panics
///
/// Panics if `n` is 32 or more, `out` is longer than `n` or than
/// [`MAX_RANKED_CELLS`], or `rank` is not below the number of placements.
pub fn unrank_placement(mut rank: u64, n: usize, out: &mut [u8]) {
    let k = out.len();
    assert!(
        n < 32 && k <= n && k <= MAX_RANKED_CELLS,
        "unrank: {k} of {n} cells"
    );
    assert!(
        rank < placements(n, k),
        "unrank: rank {rank} out of range for {k} of {n} cells"
    );
    let mut digits = [0u8; MAX_RANKED_CELLS];
    for i in (0..k).rev() {
        let radix = (n - i) as u64;
        digits[i] = (rank % radix) as u8;
        rank /= radix;
    }
    let mut unused: u32 = (1u32 << n) - 1;
    for (cell, &digit) in out.iter_mut().zip(&digits) {
        // The digit-th smallest value still unused.
        let mut rest = unused;
        for _ in 0..digit {
            rest &= rest - 1;
        }
        let value = rest.trailing_zeros();
        *cell = value as u8;
        unused &= !(1 << value);
    }
}

/// The rank of a board given by its cells, as [`board_rank`](crate::board::board_rank).
#[inline]
pub(crate) fn cells_rank(cells: &[u8]) -> u64 {
    cells_rank_and_parity(cells).0
}

/// The rank of the board whose first `n` cells are `cells` (the rest zero),
/// as [`board_rank`](crate::board::board_rank), and the parity of its cells
/// as a permutation (`0` even, `1` odd): the Lehmer digits add up to the
/// number of inversions, which a permutation and its inverse share. The one
/// place inversions are counted; in the lanes of a vector for 9 cells where
/// the processor has SSSE3, if `NINE` says the board has 9 cells with no
/// look at `n`.
#[inline(always)]
pub(crate) fn rank_and_parity<const NINE: bool>(
    cells: [u8; SMALL_CELLS],
    n: usize,
) -> (u64, usize) {
    #[cfg(target_arch = "x86_64")]
    if (NINE || n == 9) && has_ssse3() {
        debug_assert_eq!(n, 9);
        // SAFETY: the processor has SSSE3 (and so SSE2), as `has_ssse3`
        // says.
        return unsafe { rank_and_parity_of_9(cells) };
    }
    cells_rank_and_parity(&cells[..n])
}

/// Whether the processor has SSSE3, for the work on a board's cells in the
/// lanes of a vector: known when the program is built for it (the
/// repository builds for x86-64-v2, so the check folds away), else asked of
/// the processor at the first call and remembered, so that every build, a
/// crate depending on this one or `cargo install` included, takes the fast
/// path where it can.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn has_ssse3() -> bool {
    cfg!(target_feature = "ssse3") || std::arch::is_x86_feature_detected!("ssse3")
}

/// Packs a board's cells four bits each, the first cell lowest.
#[inline]
pub(crate) fn pack(cells: &[u8]) -> u64 {
    cells
        .iter()
        .enumerate()
        .fold(0, |packed, (i, &cell)| packed | u64::from(cell) << (4 * i))
}

/// The 16 bytes in the 16 lanes of a vector, the first lowest: for the work
/// on a board's cells all at once, here and in
/// [`Board::relabelled`](crate::board::Board::relabelled).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn vector(bytes: [u8; 16]) -> std::arch::x86_64::__m128i {
    let word = u128::from_le_bytes(bytes);
    std::arch::x86_64::_mm_set_epi64x((word >> 64) as i64, word as i64)
}

/// [`board_rank_and_parity`] of the 9 cells at the start of `cells` (the
/// rest zero), all at once in the 16 lanes of a vector: the 3x3 board is
/// ranked millions of times a run, and this takes about half the time of
/// the loop over its cells.
///
/// Lane `i` of the digits counts the larger tiles on the cells before `i`:
/// compared with the cells shifted by 1 to 8 lanes. Each digit's weight is
/// that of the tile on its cell, looked up by a shuffle in two bytes, each
/// multiplied by the digits and summed in pairs, then across the lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2,ssse3")]
#[inline]
fn rank_and_parity_of_9(cells: [u8; 16]) -> (u64, usize) {
    use std::arch::x86_64::*;
    /// Byte `byte` (0 low, 1 high) of each tile's weight, by tile.
    const fn weight_bytes(byte: usize) -> [u8; 16] {
        let mut bytes = [0u8; 16];
        let mut tile = 0;
        while tile < 9 {
            bytes[tile] = (WEIGHTS[9][tile] >> (8 * byte)) as u8;
            tile += 1;
        }
        bytes
    }
    const LOW: [u8; 16] = weight_bytes(0);
    const HIGH: [u8; 16] = weight_bytes(1);
    let cells = vector(cells);
    let mut digits = _mm_setzero_si128();
    macro_rules! count_larger_before {
        ($($lanes:literal)*) => {$(
            let before = _mm_slli_si128::<$lanes>(cells);
            digits = _mm_sub_epi8(digits, _mm_cmpgt_epi8(before, cells));
        )*};
    }
    count_larger_before!(1 2 3 4 5 6 7 8);
    // The lanes past the board's 9 compared zeros with tiles: no digits.
    let digits = _mm_and_si128(digits, vector((u128::MAX >> 56).to_le_bytes()));
    let low = _mm_maddubs_epi16(_mm_shuffle_epi8(vector(LOW), cells), digits);
    let high = _mm_maddubs_epi16(_mm_shuffle_epi8(vector(HIGH), cells), digits);
    let sums = _mm_add_epi32(
        _mm_madd_epi16(low, _mm_set1_epi16(1)),
        _mm_madd_epi16(high, _mm_set1_epi16(256)),
    );
    let sums = _mm_add_epi32(sums, _mm_shuffle_epi32::<0b01_00_11_10>(sums));
    let sums = _mm_add_epi32(sums, _mm_shuffle_epi32::<0b10_11_00_01>(sums));
    let rank = _mm_cvtsi128_si32(sums) as u32;
    // The digits add up to the inversions.
    let inversions = _mm_sad_epu8(digits, _mm_setzero_si128());
    let inversions = _mm_cvtsi128_si32(_mm_add_epi64(
        inversions,
        _mm_unpackhi_epi64(inversions, inversions),
    ));
    (u64::from(rank), (inversions % 2) as usize)
}

#[inline]
pub(crate) fn cells_rank_and_parity(cells: &[u8]) -> (u64, usize) {
    // The 3x3 board, the one ranked millions of times a run, in a loop of
    // known length, with each tile's weight from a table of its own.
    match <&[u8; 9]>::try_from(cells) {
        Ok(cells) => rank_and_parity_of(cells, &WEIGHTS[9]),
        Err(_) => rank_and_parity_of(cells, &WEIGHTS[cells.len()]),
    }
}

/// `WEIGHTS[n][t]` is the weight of tile `t`'s digit in the rank of `n`
/// cells, `(n - 1 - t)!`; 0 for a tile that is not one of them.
const WEIGHTS: [[u64; 32]; MAX_RANKED_CELLS + 1] = {
    let mut table = [[0u64; 32]; MAX_RANKED_CELLS + 1];
    let mut n = 0;
    while n <= MAX_RANKED_CELLS {
        let mut tile = 0;
        while tile < n {
            table[n][tile] = FACTORIALS[n - 1 - tile];
            tile += 1;
        }
        n += 1;
    }
    table
};

/// The parity of `cells` as a permutation (`0` even, `1` odd), for boards
/// of any size: the inversions [`rank_and_parity`] counts, with every digit
/// weighed nothing.
pub(crate) fn parity(cells: &[u8]) -> usize {
    rank_and_parity_of(cells, &[0; 32]).1
}

#[inline(always)]
fn rank_and_parity_of(cells: &[u8], weights: &[u64; 32]) -> (u64, usize) {
    // The digit of tile `t` counts the later entries of the positions that
    // are smaller: the larger tiles that stand before `t` in reading order.
    // So one pass over the cells finds every digit.
    let mut seen: u32 = 0;
    let mut rank = 0u64;
    let mut inversions = 0;
    for &tile in cells {
        let tile = u32::from(tile) & 31;
        let digit = (seen >> tile).count_ones();
        rank += u64::from(digit) * weights[tile as usize];
        inversions += digit;
        seen |= 1 << tile;
    }
    (rank, (inversions % 2) as usize)
}

/// How [`board_rank`](crate::board::board_rank) changes when the blank, at cell `blank` of `cells`,
/// swaps with the tile at cell `target`; `target` is the blank's neighbour.
///
/// In the positions ranked, the blank's entry (the leading digit, which is
/// its cell) moves by `target - blank`. The tile `t` moved by the swap only
/// passes the tiles on the cells strictly between the two, so only their
/// digits and its own change, by one each: a passed tile `s > t` changes the
/// digit of `t`, a passed tile `s < t` its own. A move along a row passes
/// nothing.
#[inline(always)]
pub(crate) fn rank_delta(cells: &[u8], blank: usize, target: usize) -> i64 {
    let n = cells.len();
    let weight = |digit: usize| FACTORIALS[n - 1 - digit] as i64;
    let moved = usize::from(cells[target]);
    let (low, high) = (blank.min(target), blank.max(target));
    let mut delta = (high - low) as i64 * weight(0);
    for &passed in &cells[low + 1..high] {
        delta += passing(n, moved, usize::from(passed));
    }
    match target > blank {
        true => delta,
        false => -delta,
    }
}

/// The change of the rank of `n` cells when the blank's move takes tile
/// `moved` past tile `passed`, for a move to a higher cell: a larger tile
/// passed changes the moved tile's digit, a smaller one its own.
#[inline(always)]
fn passing(n: usize, moved: usize, passed: usize) -> i64 {
    match passed > moved {
        true => -(FACTORIALS[n - 1 - moved] as i64),
        false => FACTORIALS[n - 1 - passed] as i64,
    }
}

/// [`rank_delta`] for boards packed 4 bits a cell (cell `i` in bits `4i..`,
/// the blank `0`), computed with no branch on the move: a walk through a
/// table takes moves no predictor foresees, and a missed branch a step
/// costs as much as the rest of the step. The cells a move passes are
/// always read (the `cols - 1` after the lower cell); a move along a row
/// reads them in a table of zeros.
#[derive(Clone, Debug)]
pub(crate) struct PackedMoves {
    /// Per cell and move code: where the blank goes, if on the board.
    moves: [[PackedMove; 4]; SMALL_CELLS],
    /// `pass[way][moved][passed]`: the change of the rank when tile
    /// `moved` passes tile `passed` on a move of that way: none (along a
    /// row), down, up.
    /// The fourth way is never taken: it makes every way a 2-bit index.
    pass: [[[i64; 16]; 16]; 4],
    /// The cells a move along a column passes.
    passes: usize,
}

/// Evaluates `$body` with `$p` a constant equal to `$passes`, a
/// [`PackedMoves::passes`] (1 to 5 cells), so that the loops over the
/// cells a move passes unroll.
macro_rules! with_passes {
    ($passes:expr, $p:ident => $body:expr) => {
        match $passes {
            1 => {
                const $p: usize = 1;
                $body
            }
            2 => {
                const $p: usize = 2;
                $body
            }
            3 => {
                const $p: usize = 3;
                $body
            }
            4 => {
                const $p: usize = 4;
                $body
            }
            _ => {
                const $p: usize = 5;
                $body
            }
        }
    };
}
pub(crate) use with_passes;

/// One move of the blank from one cell, for [`PackedMoves`].
#[derive(Clone, Copy, Debug, Default)]
struct PackedMove {
    /// The change of the blank's own digit, signed.
    base: i64,
    /// The blank's new cell; its own cell off the board, which moves no
    /// tile and changes no digit.
    target: u8,
    /// Whether the move stays on the board.
    on_board: bool,
    /// The first cell passed, times 4: a bit offset.
    passed: u8,
    /// The way, an index of [`PackedMoves::pass`].
    way: u8,
}

impl PackedMoves {
    /// The moves of `shape`, whose cells must fit 4 bits each (at most 16).
    pub(crate) fn new(shape: Shape) -> PackedMoves {
        let n = shape.cells();
        assert!(n <= 16, "{shape}: packed boards hold at most 16 cells");
        let weight = |digit: usize| FACTORIALS[n - 1 - digit] as i64;
        let mut moves = [[PackedMove::default(); 4]; SMALL_CELLS];
        for (cell, row) in moves.iter_mut().enumerate().take(n) {
            for mv in Move::ALL {
                let Some(target) = shape.neighbor(cell, mv) else {
                    row[usize::from(mv.code())].target = cell as u8;
                    continue;
                };
                let (low, high) = (cell.min(target), cell.max(target));
                let sign = if target > cell { 1 } else { -1 };
                row[usize::from(mv.code())] = PackedMove {
                    base: sign * (high - low) as i64 * weight(0),
                    target: target as u8,
                    on_board: true,
                    passed: (4 * ((low + 1) % 16)) as u8,
                    way: match (high - low > 1, sign) {
                        (false, _) => 0,
                        (true, 1) => 1,
                        (true, _) => 2,
                    },
                };
            }
        }
        let mut pass = [[[0; 16]; 16]; 4];
        for (moved, row) in pass[1].iter_mut().enumerate().take(n).skip(1) {
            for (passed, entry) in row.iter_mut().enumerate().take(n).skip(1) {
                *entry = passing(n, moved, passed);
            }
        }
        let [_, down, up, _] = &mut pass;
        for (down, up) in down.iter().flatten().zip(up.iter_mut().flatten()) {
            *up = -down;
        }
        PackedMoves {
            moves,
            pass,
            passes: shape.cols() - 1,
        }
    }

    /// The cells a move along a column passes: `cols - 1`.
    pub(crate) fn passes(&self) -> usize {
        self.passes
    }

    /// Moves the blank of `board`, at `blank`, by the move of `code`:
    /// updates both and returns the change of the board's rank, or `None`
    /// if the move leaves the board (nothing changed then). `P` must be
    /// [`PackedMoves::passes`], a constant so that the loop over the cells
    /// passed unrolls.
    #[inline(always)]
    pub(crate) fn apply<const P: usize>(
        &self,
        board: &mut u64,
        blank: &mut usize,
        code: u8,
    ) -> Option<i64> {
        let on_board = self.moves[*blank & 15][usize::from(code & 3)].on_board;
        on_board.then(|| self.step::<P>(board, blank, code))
    }

    /// [`PackedMoves::apply`] with no branch at all: a move off the board
    /// leaves `board` and `blank` as they are and changes the rank by 0.
    /// For walks, which bound their steps: a wrong code then makes a walk
    /// too long, never a wrong one.
    #[inline(always)]
    pub(crate) fn step<const P: usize>(&self, board: &mut u64, blank: &mut usize, code: u8) -> i64 {
        debug_assert_eq!(P, self.passes);
        let mv = self.moves[*blank & 15][usize::from(code & 3)];
        let target = usize::from(mv.target);
        let moved = (*board >> (4 * target)) & 15;
        let pass = &self.pass[usize::from(mv.way & 3)][moved as usize];
        let mut delta = mv.base;
        for j in 0..P {
            // Past the last cell only on moves along a row, which read
            // zeros.
            let shift = (u32::from(mv.passed) + 4 * j as u32) & 63;
            delta += pass[((*board >> shift) & 15) as usize];
        }
        // The blank is 0: its cell takes the moved tile, and the tile's
        // cell is cleared.
        *board ^= moved << (4 * *blank) | moved << (4 * target);
        *blank = target;
        delta
    }
}

/// `FACTORIALS[k] = k!`.
const FACTORIALS: [u64; MAX_RANKED_CELLS + 1] = {
    let mut table = [1u64; MAX_RANKED_CELLS + 1];
    let mut k = 1;
    while k <= MAX_RANKED_CELLS {
        table[k] = table[k - 1] * k as u64;
        k += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_of_nine_cells_round_trips_in_lexicographic_order() {
        let n = 9;
        let mut previous: Option<[u8; 9]> = None;
        let mut perm = [0u8; 9];
        for r in 0..factorial(n) {
            unrank(r, &mut perm);
            assert_eq!(rank(&perm), r);
            if let Some(prev) = previous {
                assert!(prev < perm, "rank order is lexicographic order");
            }
            previous = Some(perm);
        }
        assert_eq!(previous, Some([8, 7, 6, 5, 4, 3, 2, 1, 0]));
    }

    #[test]
    fn rank_pairs_differ_by_swapping_the_last_two_cells() {
        let mut even = [0u8; 9];
        let mut odd = [0u8; 9];
        for k in (0..factorial(9)).step_by(2 * 997) {
            unrank(k, &mut even);
            unrank(k + 1, &mut odd);
            even.swap(7, 8);
            assert_eq!(even, odd);
        }
    }

    #[test]
    fn factorials() {
        assert_eq!(factorial(0), 1);
        assert_eq!(factorial(9), 362_880);
        assert_eq!(factorial(16), 20_922_789_888_000);
        assert_eq!(factorial(20), 2_432_902_008_176_640_000);
    }
}
