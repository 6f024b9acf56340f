//! The multi-tile metric's moves in a table: a step of the walk of next
//! jumps, the boards at a distance, and answers derived 2 bits a letter in
//! two words a board.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;

use crate::answer::TableError;
use crate::bfs::entries;
use crate::board::Board;
use crate::mem::Huge;
use crate::mtm::{Jumps, code_at, tree};
use crate::rank::{PackedMoves, cells_rank, pack, with_passes};
use crate::shape::Move;
use crate::table::packed::SPELLING;
use crate::table::{Table, Word, derive_after};

/// The most letters a derived answer holds.
const MOST_LETTERS: u32 = 56;

/// What a table of next jumps keeps beside its codes.
pub(super) struct JumpMoves {
    pub(super) jumps: Jumps,
    /// The jumps' single steps, as walks of single steps take them.
    steps: PackedMoves,
    /// Each section's answers, derived once enough boards ask, two words
    /// a board: `None` if some answer is too long to derive.
    answers: Vec<OnceLock<Option<Huge<u64>>>>,
}

impl JumpMoves {
    /// A step of a walk ([`Table::walk`]): makes the jump of the code of
    /// the board (`cells`, `blank`, `rank`), handing `emit` each step of
    /// the blank, or says it leaves the board.
    #[inline(always)]
    pub(super) fn step(
        &self,
        codes: &[u8],
        cells: &mut [u8],
        blank: &mut usize,
        rank: &mut u64,
        emit: &mut impl FnMut(Move),
    ) -> bool {
        let code = code_at(codes, *rank / 2);
        if !self.jumps.fits(*blank, code) {
            return false;
        }
        self.jumps.apply(cells, blank, rank, code);
        let jump = self.jumps.jump(code);
        (0..jump.len).for_each(|_| emit(jump.mv));
        true
    }

    pub(super) fn new(goals: &[Board]) -> JumpMoves {
        let shape = goals[0].shape();
        JumpMoves {
            jumps: Jumps::new(shape),
            steps: PackedMoves::new(shape),
            answers: (0..goals.len()).map(|_| OnceLock::new()).collect(),
        }
    }
}

/// A derived answer of the multi-tile metric, a `u128` in two words, the
/// low one first: the letters' count in bits 0-7, the moves' in bits 8-15,
/// then the letters, 2 bits each ([`Move::code`]), the first lowest.
impl Word for [u64; 2] {
    #[inline(always)]
    fn spell(self, line: bool, out: &mut Vec<u8>) -> usize {
        let word = u128::from(self[0]) | u128::from(self[1]) << 64;
        let len = (word & 0xff) as usize;
        let bits = word >> 16;
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
        ((word >> 8) & 0xff) as usize
    }

    #[inline(always)]
    fn moves(self) -> usize {
        ((self[0] >> 8) & 0xff) as usize
    }

    #[inline(always)]
    fn packed(self) -> Option<u64> {
        let len = (self[0] & 0xff) as u32;
        let codes = (u128::from(self[0]) | u128::from(self[1]) << 64) >> 16;
        (len <= super::packed::MAX_PACKED)
            .then(|| (codes as u64 & ((1 << (2 * len)) - 1)) | 1 << (2 * len))
    }
}

impl<D: AsRef<[u8]>> Table<D> {
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
    ) -> Result<Option<&'a [[u64; 2]]>, TableError> {
        let pairs = |answers: &'a Option<Huge<u64>>| answers.as_ref().map(|a| a.as_chunks().0);
        if let Some(answers) = moves.answers[index].get() {
            return Ok(pairs(answers));
        }
        if self.sections.asked[index].fetch_add(boards, Ordering::Relaxed) + boards
            < derive_after(self.sections.shape)
        {
            return Ok(None);
        }
        let codes = self.codes(index)?;
        let goal = &self.sections.goals[index];
        Ok(pairs(moves.answers[index].get_or_init(
            || with_passes!(moves.steps.passes(), P => derive::<P>(moves, goal, codes)),
        )))
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

/// A board of the tree the next jumps of a section make, packed 4 bits a
/// cell, and its answer.
#[derive(Clone, Copy)]
struct Node {
    board: u64,
    blank: usize,
    rank: u64,
    /// Its answer, as a [`Word`] of the multi-tile metric.
    answer: u128,
    /// The code of the jump from the board before, which leads back to
    /// it; `None` for the goal.
    came: Option<u8>,
}

/// The walk of [`derive`]: the tree, and the answers found in it, two
/// words a board, atomic only so that the walks share them (no two write
/// one entry: a board's one code names its one parent).
struct Derive<'a, const P: usize> {
    moves: &'a JumpMoves,
    codes: &'a [u8],
    goal_rank: u64,
    answers: &'a [AtomicU64],
    /// Whether every answer met fits a word.
    fits: AtomicBool,
}

impl<const P: usize> Derive<'_, P> {
    /// Writes the answer of `node`'s board.
    #[inline(always)]
    fn write(&self, node: &Node) {
        let entry = 2 * (node.rank / 2) as usize;
        self.answers[entry].store(node.answer as u64, Ordering::Relaxed);
        self.answers[entry + 1].store((node.answer >> 64) as u64, Ordering::Relaxed);
    }

    /// Hands each child of `node` to `each`, with its answer: the jump to
    /// `node`'s board, then `node`'s answer. The jump is made a step at a
    /// time on the packed board, as walks of single steps make them.
    #[inline(always)]
    fn children(&self, node: &Node, mut each: impl FnMut(&Node)) {
        let jumps = &self.moves.jumps;
        for &code in jumps.from(node.blank) {
            if node.came.is_some_and(|came| code == jumps.undo(came)) {
                continue;
            }
            let jump = jumps.jump(code);
            let (mut board, mut blank, mut rank) = (node.board, node.blank, node.rank);
            for _ in 0..jump.len {
                let delta = self
                    .moves
                    .steps
                    .step::<P>(&mut board, &mut blank, jump.mv.code());
                rank = rank.wrapping_add_signed(delta);
            }
            let back = jumps.undo(code);
            if rank / 2 == self.goal_rank / 2 || code_at(self.codes, rank / 2) != back {
                continue;
            }
            let letters = (node.answer & 0xff) as u32 + u32::from(jump.len);
            if letters > MOST_LETTERS {
                self.fits.store(false, Ordering::Relaxed);
                continue;
            }
            let count = ((node.answer >> 8) & 0xff) + 1;
            let mut bits = node.answer >> 16;
            for _ in 0..jump.len {
                bits = (bits << 2) | u128::from(jump.mv.opposite().code());
            }
            each(&Node {
                board,
                blank,
                rank,
                answer: u128::from(letters) | count << 8 | bits << 16,
                came: Some(code),
            });
        }
    }

    /// The whole subtree of `node`.
    fn visit(&self, node: &Node) {
        self.write(node);
        self.children(node, |child| self.visit(child));
    }

    /// The tree down to `depth` more moves; the boards there go to
    /// `roots`, not walked.
    fn visit_to(&self, node: &Node, depth: u32, roots: &mut Vec<Node>) {
        if depth == 0 {
            return roots.push(*node);
        }
        self.write(node);
        self.children(node, |child| self.visit_to(child, depth - 1, roots));
    }
}

/// Every answer of the section of `codes` toward `goal` by table entry,
/// two words each ([`Word`]); `None` if one is longer than
/// [`MOST_LETTERS`]. Derived as the single-tile metric's answers are: a
/// depth-first walk of the tree the codes make, from the goal, each board's
/// answer handed down to the boards whose next jump leads to it; the walk's
/// first moves are taken here, and the subtrees below them shared out
/// among up to 4 threads, one a core. `P` is [`PackedMoves::passes`].
fn derive<const P: usize>(moves: &JumpMoves, goal: &Board, codes: &[u8]) -> Option<Huge<u64>> {
    /// How deep the walk goes before it shares out the subtrees: a few
    /// hundred of them on 3x3.
    const SPLIT_DEPTH: u32 = 6;
    let mut answers = Huge::zeroed(2 * entries(goal.shape()) as usize);
    let goal_rank = cells_rank(goal.cells());
    let walk = Derive::<P> {
        moves,
        codes,
        goal_rank,
        answers: answers.atomics(),
        fits: AtomicBool::new(true),
    };
    let root = Node {
        board: pack(goal.cells()),
        blank: goal.blank(),
        rank: goal_rank,
        answer: 0,
        came: None,
    };
    let mut roots = Vec::new();
    walk.visit_to(&root, SPLIT_DEPTH, &mut roots);
    let next = AtomicUsize::new(0);
    let share = || {
        while let Some(node) = roots.get(next.fetch_add(1, Ordering::Relaxed)) {
            walk.visit(node);
        }
    };
    let cores = crate::split::threads();
    thread::scope(|scope| {
        for _ in 1..cores.min(4) {
            // A thread that cannot be started leaves its share to the rest.
            let _ = thread::Builder::new().spawn_scoped(scope, share);
        }
        share();
    });
    let fits = walk.fits.into_inner();
    fits.then_some(answers)
}
