//! The multi-tile metric's moves in a table: the walk of next jumps, the
//! boards at a distance, and answers derived 2 bits a letter in a `u128`.

use std::sync::OnceLock;
use std::sync::atomic::Ordering;

use crate::answer::{Proof, TableError};
use crate::bfs::entries;
use crate::board::Board;
use crate::mtm::{Jumps, code_at, tree};
use crate::shape::{MAX_CELLS, Move};
use crate::table::packed::SPELLING;
use crate::table::{Table, Word, derive_after};

/// The most letters a derived answer holds.
const MOST_LETTERS: u32 = 56;

/// What a table of next jumps keeps beside its codes.
pub(super) struct JumpMoves {
    pub(super) jumps: Jumps,
    /// Each section's answers, derived once enough boards ask: `None` if
    /// some answer is too long to derive.
    answers: Vec<OnceLock<Option<Vec<u128>>>>,
}

impl JumpMoves {
    pub(super) fn new(goals: &[Board]) -> JumpMoves {
        JumpMoves {
            jumps: Jumps::new(goals[0].shape()),
            answers: (0..goals.len()).map(|_| OnceLock::new()).collect(),
        }
    }
}

/// A derived answer of the multi-tile metric: the letters' count in bits
/// 0-7, the moves' in bits 8-15, then the letters, 2 bits each
/// ([`Move::code`]), the first lowest.
impl Word for u128 {
    #[inline(always)]
    fn spell(self, line: bool, out: &mut Vec<u8>) -> usize {
        let len = (self & 0xff) as usize;
        let bits = self >> 16;
        let start = out.len();
        out.reserve(MOST_LETTERS as usize + 8);
        for k in 0..(MOST_LETTERS as usize).div_ceil(8) {
            let byte = |i: usize| ((bits >> (8 * (2 * k + i))) & 0xff) as usize;
            let word = u64::from(SPELLING[byte(0)]) | (u64::from(SPELLING[byte(1)]) << 32);
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.truncate(start + len);
        if line {
            out.push(b'\n');
        }
        ((self >> 8) & 0xff) as usize
    }
}

impl<D: AsRef<[u8]>> Table<D> {
    /// Follows the next jumps of section `index` from `start` to its goal,
    /// handing each jump to `emit`; the number of jumps.
    pub(super) fn walk_jumps(
        &self,
        moves: &JumpMoves,
        start: &Board,
        mut rank: u64,
        index: usize,
        mut emit: impl FnMut(Move, u8),
    ) -> Result<usize, TableError> {
        let codes = self.codes(index)?;
        let goal_rank = self.sections.goal_ranks[index];
        let mut cells = [0u8; MAX_CELLS];
        let n = start.cells().len();
        cells[..n].copy_from_slice(start.cells());
        let mut blank = start.blank();
        let mut count = 0;
        let wrong = |problem| TableError::Wrong {
            section: index,
            blank: self.sections.goals[index].blank(),
            proof: Proof::Walk {
                board: *start,
                problem,
            },
        };
        while rank != goal_rank {
            if count == self.sections.bound {
                return Err(wrong(
                    "do not reach the goal within the longest answer of the board",
                ));
            }
            let code = code_at(codes, rank / 2);
            if !moves.jumps.fits(blank, code) {
                return Err(wrong("leave the board"));
            }
            moves
                .jumps
                .apply(&mut cells[..n], &mut blank, &mut rank, code);
            let jump = moves.jumps.jump(code);
            emit(jump.mv, jump.len);
            count += 1;
        }
        Ok(count as usize)
    }

    /// The answers of section `index`, if derived or worth deriving now
    /// that `boards` more boards ask for them: once [`derive_after`]
    /// boards have asked, if each fits in 56 letters (16 bytes a board,
    /// 2.9 MB for a 3x3 goal).
    #[inline]
    pub(super) fn jump_answers_after<'a>(
        &'a self,
        moves: &'a JumpMoves,
        index: usize,
        boards: u64,
    ) -> Result<Option<&'a [u128]>, TableError> {
        if let Some(answers) = moves.answers[index].get() {
            return Ok(answers.as_deref());
        }
        if self.sections.asked[index].fetch_add(boards, Ordering::Relaxed) + boards
            < derive_after(self.sections.shape)
        {
            return Ok(None);
        }
        let codes = self.codes(index)?;
        Ok(moves.answers[index]
            .get_or_init(|| derive(&moves.jumps, &self.sections.goals[index], codes))
            .as_deref())
    }

    /// Every board whose shortest answer toward the goal of section
    /// `index` is exactly `depth` moves, toward that canonical goal.
    pub(super) fn jumps_at_distance(
        &self,
        moves: &JumpMoves,
        index: usize,
        depth: u32,
    ) -> Result<Vec<Board>, TableError> {
        let codes = self.codes(index)?;
        let canonical = &self.sections.goals[index];
        let mut found = Vec::new();
        if depth == 0 {
            found.push(*canonical);
        }
        tree(&moves.jumps, canonical, codes, depth, |step| {
            if step.depth == depth {
                found.push(Board::from_cell_array(self.sections.shape, *step.cells));
            }
        });
        Ok(found)
    }
}

/// Every answer of the section of `codes` toward `goal` by table entry, as
/// `u128` [words](Word); `None` if one is longer than [`MOST_LETTERS`].
fn derive(jumps: &Jumps, goal: &Board, codes: &[u8]) -> Option<Vec<u128>> {
    let mut answers = vec![0u128; entries(goal.shape()) as usize];
    let mut fits = true;
    tree(jumps, goal, codes, u32::MAX, |step| {
        let parent = answers[step.parent as usize];
        let jump = jumps.jump(step.code);
        let letters = (parent & 0xff) as u32 + u32::from(jump.len);
        if letters > MOST_LETTERS {
            fits = false;
            return;
        }
        let moves = ((parent >> 8) & 0xff) + 1;
        let mut bits = parent >> 16;
        for _ in 0..jump.len {
            bits = (bits << 2) | u128::from(jump.mv.code());
        }
        answers[step.entry as usize] = u128::from(letters) | (moves << 8) | (bits << 16);
    });
    fits.then_some(answers)
}
