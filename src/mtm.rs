//! The multi-tile metric (MTM), the speedsolvers' move count: sliding a
//! run of tiles along a row or a column at once is one move, so the blank
//! jumps one or more cells in one direction.
//!
//! An answer is written as in the single-tile metric, one letter per cell
//! the blank passes (`ddl` is two moves: two cells down, then one left).
//! Two moves of a shortest answer never go the same way one after the
//! other (they would be one move), so the runs of equal letters are the
//! moves, and [`Metric::count`](crate::metric::Metric::count) counts them. Of the answers with the fewest
//! moves, the canonical one is the lexicographically smallest letter string
//! (`d < l < r < u`).
//!
//! Boards of up to 12 cells are answered by a [`Table`](crate::table::Table) of
//! next jumps: for every board, the jump that starts its canonical
//! answer, 4 bits a board, made by a breadth-first search in the MTM graph
//! ([`generate`]). Larger boards are searched ([`MtmSearcher`]).
//!
//! # The next move
//!
//! Let a board be `d` moves from the goal. Of its jumps that lead to a
//! board `d - 1` moves away, those of the smallest direction `D` begin the
//! smallest answers. Of those, a jump of `k` cells spells `D` `k` times,
//! then the smallest answer of the board it reaches, which never starts
//! with `D` (two moves the same way would be one, shorter). So the jump of
//! `k` cells beats every longer one exactly when the answer after it starts
//! with a letter before `D`, or is empty; the shortest such jump is the
//! next move, else the longest. The first letter of a board's answer is the
//! smallest direction of its jumps one move closer. The rule, in
//! `bfs::PackedJumps::next_code`, is the one home of the canonical answer: the generator
//! writes it and the proof checks every board against it.

use crate::board::Board;
use crate::rank::{rank_delta, unrank};
use crate::shape::{Move, SMALL_CELLS, Shape};

mod bfs;
mod pdb;
mod search;

pub(crate) use self::bfs::{codes_until, prove as prove_jumps, tree};
pub(crate) use self::pdb::{
    generate_databases_until, prove as prove_databases, read as read_databases,
};
pub use self::search::MtmSearcher;

/// One move of the multi-tile metric: the blank jumps `len` cells toward
/// `mv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Jump {
    pub(crate) mv: Move,
    pub(crate) len: u8,
}

/// No jump: a code or a cell off the board.
const NONE: u8 = u8::MAX;

/// The jumps of a shape. Each has a code, its place in the list of all the
/// shape's jumps by direction (`d l r u`), then length: at most 16 jumps on
/// any shape of up to 16 cells, so a code fits in 4 bits.
#[derive(Clone, Debug)]
pub(crate) struct Jumps {
    shape: Shape,
    /// The jump of each code.
    all: Vec<Jump>,
    /// `from[cell]`: the codes of the jumps that stay on the board from
    /// the blank at `cell`, in code order.
    from: Vec<Vec<u8>>,
    /// `target[cell][code]`: the cell the jump reaches, or [`NONE`].
    target: [[u8; 16]; SMALL_CELLS],
    /// `neighbors[cell][move code]`: where one step goes.
    neighbors: [[Option<u8>; 4]; SMALL_CELLS],
    /// The code of the jump that undoes each code's.
    undo: [u8; 16],
}

impl Jumps {
    pub(crate) fn new(shape: Shape) -> Jumps {
        let mut all = Vec::new();
        for mv in Move::ALL {
            let longest = match mv {
                Move::Down | Move::Up => shape.rows() - 1,
                Move::Left | Move::Right => shape.cols() - 1,
            };
            all.extend((1..=longest as u8).map(|len| Jump { mv, len }));
        }
        debug_assert!(all.len() <= 16);
        let mut target = [[NONE; 16]; SMALL_CELLS];
        let mut from = vec![Vec::new(); shape.cells()];
        for cell in 0..shape.cells() {
            for (code, jump) in all.iter().enumerate() {
                let mut at = Some(cell);
                for _ in 0..jump.len {
                    at = at.and_then(|c| shape.neighbor(c, jump.mv));
                }
                if let Some(at) = at {
                    target[cell][code] = at as u8;
                    from[cell].push(code as u8);
                }
            }
        }
        let mut undo = [NONE; 16];
        for (code, jump) in all.iter().enumerate() {
            let back = Jump {
                mv: jump.mv.opposite(),
                len: jump.len,
            };
            undo[code] = all
                .iter()
                .position(|&j| j == back)
                .expect("every jump has an opposite") as u8;
        }
        Jumps {
            shape,
            all,
            from,
            target,
            neighbors: shape.neighbor_table(),
            undo,
        }
    }

    /// The code of the shortest jump toward `mv`: the jumps of each
    /// direction have codes in a run, by length.
    pub(crate) fn first_code(&self, mv: Move) -> u8 {
        self.all
            .iter()
            .position(|jump| jump.mv == mv)
            .expect("every shape has jumps each way") as u8
    }

    /// The jump of `code`.
    pub(crate) fn jump(&self, code: u8) -> Jump {
        self.all[usize::from(code)]
    }

    /// The codes of the jumps from the blank at `cell`.
    pub(crate) fn from(&self, cell: usize) -> &[u8] {
        &self.from[cell]
    }

    /// Whether the jump of `code` stays on the board from `cell`.
    pub(crate) fn fits(&self, cell: usize, code: u8) -> bool {
        self.target[cell]
            .get(usize::from(code))
            .is_some_and(|&t| t != NONE)
    }

    /// The code of the jump that undoes the jump of `code`.
    #[inline(always)]
    pub(crate) fn undo(&self, code: u8) -> u8 {
        self.undo[usize::from(code)]
    }

    /// Makes the jump of `code` on `cells` (a fitting one), keeping the
    /// blank's cell and the rank up to date.
    #[inline]
    pub(crate) fn apply(&self, cells: &mut [u8], blank: &mut usize, rank: &mut u64, code: u8) {
        let jump = self.jump(code);
        for _ in 0..jump.len {
            let target = usize::from(
                self.neighbors[*blank][usize::from(jump.mv.code())].expect("the jump fits"),
            );
            *rank = rank.wrapping_add_signed(rank_delta(cells, *blank, target));
            cells.swap(*blank, target);
            *blank = target;
        }
    }

    /// The board the jump of `code` (a fitting one) leads to from
    /// (`cells`, `blank`, `rank`): its cells, blank and rank.
    #[inline]
    pub(crate) fn reach(
        &self,
        cells: &[u8; SMALL_CELLS],
        blank: usize,
        rank: u64,
        code: u8,
    ) -> ([u8; SMALL_CELLS], usize, u64) {
        let (mut cells, mut blank, mut rank) = (*cells, blank, rank);
        let n = self.shape.cells();
        self.apply(&mut cells[..n], &mut blank, &mut rank, code);
        (cells, blank, rank)
    }

    /// The board of table entry `entry` (the ranks `2·entry` and
    /// `2·entry + 1`) that can reach `goal`: its cells, blank and rank.
    pub(crate) fn board_of(&self, entry: u64, goal: &Board) -> ([u8; SMALL_CELLS], usize, u64) {
        let n = self.shape.cells();
        for rank in [2 * entry, 2 * entry + 1] {
            let mut positions = [0u8; SMALL_CELLS];
            unrank(rank, &mut positions[..n]);
            let mut cells = [0u8; SMALL_CELLS];
            for (tile, &cell) in positions[..n].iter().enumerate() {
                cells[usize::from(cell)] = tile as u8;
            }
            let board = Board::from_cell_array(self.shape, cells);
            if board.solvable_to(goal) {
                return (cells, usize::from(positions[0]), rank);
            }
        }
        unreachable!("one board of every pair of ranks reaches the goal")
    }
}

/// The 4-bit code of table entry `entry` in `codes`, two to a byte, the
/// even entry in the low half.
#[inline(always)]
pub(crate) fn code_at(codes: &[u8], entry: u64) -> u8 {
    (codes[(entry / 2) as usize] >> (4 * (entry % 2))) & 15
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jumps_have_codes_by_direction_then_length() {
        let jumps = Jumps::new(Shape::new(2, 8).unwrap());
        assert_eq!(jumps.all.len(), 16);
        let jumps = Jumps::new(Shape::EIGHT);
        let codes: Vec<(char, u8)> = jumps.all.iter().map(|j| (j.mv.letter(), j.len)).collect();
        let expected = [
            ('d', 1),
            ('d', 2),
            ('l', 1),
            ('l', 2),
            ('r', 1),
            ('r', 2),
            ('u', 1),
            ('u', 2),
        ];
        assert_eq!(codes, expected);
        // From the middle every jump of one cell fits, none of two.
        assert_eq!(jumps.from(4), [0, 2, 4, 6]);
        assert_eq!(jumps.undo(1), 7);
        assert!(jumps.fits(0, 1) && !jumps.fits(0, 2));
    }
}
