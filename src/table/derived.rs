//! Answers derived in bulk: once many boards ask a section, every board's
//! answer at once from the tree its codes make, and the answers near the
//! goal before that.

use crate::answer::SolveError;
use crate::answer::TableError;
use crate::bfs::{self};
use crate::board::{Board, board_rank_and_parity_of};
use crate::mem::Huge;
use crate::mem::prefetch;
use crate::rank::{PackedMoves, cells_rank, pack};
use crate::shape::Move;
use crate::table::packed::MAX_PACKED;
use crate::table::{MoveSet, Sink, Steps, Table, Word, leads_back};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::thread;

/// Boards a section answers by walking before its answers are derived
/// (see [`Table::write_answer`]): deriving costs about as much as walking
/// this many on 3x3 boards, at least.
pub(crate) const DERIVE_AFTER: u64 = 1 << 13;

/// Boards a section of `shape` answers by walking before its answers are
/// derived, in either metric: [`DERIVE_AFTER`], or a 32nd of the section's
/// boards if that is more. Deriving visits every board of the section and
/// keeps an answer for each (8 bytes, 16 in the multi-tile metric), while a
/// walk costs a few dozen steps: on 12 cells a section of 239.5 million
/// boards took 99 s and 3.8 GB for 10,000 boards that walks answer in
/// 0.2 s.
pub(crate) fn derive_after(shape: crate::shape::Shape) -> u64 {
    DERIVE_AFTER.max(bfs::entries(shape) / 32)
}

/// Boards a section answers by walks all the way to the goal before the
/// answers of the boards near it are found (see [`Table::solve_packed`]).
/// Finding them costs about 0.9 M instructions on 3x3 (callgrind), and
/// saves a walk about 14 steps of about 90 instructions: they pay after
/// about 1,500 boards, half of them solvable.
pub(super) const NEAR_AFTER: u64 = 1 << 11;

/// How near the goal those boards are, in moves: on 3x3, 4,767 to 6,053
/// boards (by the goal's blank). Fewest instructions on 100,000 cases of
/// random boards, found after 1,024 boards (callgrind, the whole program):
/// 180.5 M at 14, 181.0 M at 15, 185.9 M at 12, 216.6 M with none.
pub(super) const NEAR_DEPTH: u32 = 14;

/// A board of the tree the codes of a section make, and its answer.
#[derive(Clone, Copy)]
pub(super) struct Root {
    /// The board, 4 bits a cell, its blank and its rank.
    pub(super) board: u64,
    pub(super) blank: usize,
    pub(super) rank: u64,
    /// Its answer, as a [`Packed`] answer.
    pub(super) answer: u64,
    /// The code of the move back to the board before, never a child.
    pub(super) back: u8,
}

/// The tree the codes of a section make, walked outward from its goal: a
/// board's children are the boards whose next move leads to it. Boards are
/// packed 4 bits a cell and moved as walks move them ([`PackedMoves`]), `P`
/// the cells a move along a column passes.
pub(super) struct Tree<'a> {
    pub(super) codes: &'a [u8],
    pub(super) moves: &'a PackedMoves,
    pub(super) goal_rank: u64,
}

impl<'a> Tree<'a> {
    /// The tree of `codes` toward `goal`, and its root.
    pub(super) fn new(goal: &Board, codes: &'a [u8], moves: &'a PackedMoves) -> (Tree<'a>, Root) {
        let goal_rank = cells_rank(goal.cells());
        let root = Root {
            board: pack(goal.cells()),
            blank: goal.blank(),
            rank: goal_rank,
            answer: 1,
            back: u8::MAX,
        };
        let tree = Tree {
            codes,
            moves,
            goal_rank,
        };
        (tree, root)
    }

    /// Hands each child of `root` to `each`, with its answer: the move to
    /// `root`'s board, then `root`'s answer.
    #[inline(always)]
    pub(super) fn children<const P: usize>(&self, root: &Root, mut each: impl FnMut(&Root)) {
        // A longer answer than fits is never made, a table proven or not.
        if root.answer >= 1 << (2 * MAX_PACKED) {
            return;
        }
        for mv in Move::ALL {
            if mv.code() == root.back {
                continue;
            }
            let (mut board, mut blank) = (root.board, root.blank);
            let Some(delta) = self.moves.apply::<P>(&mut board, &mut blank, mv.code()) else {
                continue;
            };
            let rank = root.rank.wrapping_add_signed(delta);
            if leads_back(self.codes, self.goal_rank, rank, mv) {
                let back = mv.opposite().code();
                each(&Root {
                    board,
                    blank,
                    rank,
                    answer: root.answer << 2 | u64::from(back),
                    back,
                });
            }
        }
    }
}

/// Every answer of a section, packed: answer `i` is the board of entry `i`'s
/// moves, the first in the lowest 2 bits, over a marker bit that tells the
/// length. Derived by a depth-first walk of the tree the codes make, from
/// the goal: each board's answer is handed down to the boards whose next
/// move leads to it, so every answer is written once and none is read back.
/// Boards are packed 4 bits a cell and moved as walks move them
/// ([`PackedMoves`]), `P` the cells a move along a column passes.
///
/// The walk's first `SPLIT_DEPTH` moves are taken here; the subtrees below
/// them are shared out among the cores, each taking the next one left. (A
/// worker that derives the answers keeps the others waiting for them.)
pub(super) fn derive_answers<const P: usize>(
    goal: &Board,
    codes: &[u8],
    moves: &PackedMoves,
) -> Huge<u64> {
    /// How deep the walk goes before it shares out the subtrees: a few
    /// hundred of them on 3x3, for an even share.
    const SPLIT_DEPTH: u32 = 10;
    /// The tree, and the answers found in it. The answers are atomic only
    /// so that the walks share them: no two write one entry.
    struct Walk<'a> {
        tree: Tree<'a>,
        answers: &'a [AtomicU64],
    }
    impl Walk<'_> {
        /// Writes the answer of `root`'s board.
        #[inline(always)]
        fn write(&self, root: &Root) {
            self.answers[(root.rank / 2) as usize].store(root.answer, Ordering::Relaxed);
        }

        /// The whole subtree of `root`.
        fn visit<const P: usize>(&self, root: &Root) {
            self.write(root);
            self.tree
                .children::<P>(root, |child| self.visit::<P>(child));
        }

        /// The tree down to `depth` more moves; the boards there go to
        /// `roots`, not walked.
        fn visit_to<const P: usize>(&self, root: &Root, depth: u32, roots: &mut Vec<Root>) {
            if depth == 0 {
                return roots.push(*root);
            }
            self.write(root);
            self.tree
                .children::<P>(root, |child| self.visit_to::<P>(child, depth - 1, roots));
        }
    }
    let mut answers = Huge::zeroed(bfs::entries(goal.shape()) as usize);
    let (tree, goal) = Tree::new(goal, codes, moves);
    let walk = Walk {
        tree,
        answers: answers.atomics(),
    };
    let mut roots = Vec::new();
    walk.visit_to::<P>(&goal, SPLIT_DEPTH, &mut roots);
    let next = AtomicUsize::new(0);
    let share = || {
        while let Some(root) = roots.get(next.fetch_add(1, Ordering::Relaxed)) {
            walk.visit::<P>(root);
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
    answers
}

/// The answers of the boards within a few moves of a section's goal, by
/// entry (the rank halved): a bit an entry says which boards are in, and
/// their answers follow in the order of their entries. A walk that comes
/// upon one of these boards stops there, its answer known.
pub(super) struct Near {
    pub(super) bits: Vec<u64>,
    /// Per word of `bits`, the bits set in the words before it.
    pub(super) before: Vec<u32>,
    pub(super) answers: Vec<u64>,
}

impl Near {
    /// No boards at all: the walks go to the goal.
    const NONE: Near = Near {
        bits: Vec::new(),
        before: Vec::new(),
        answers: Vec::new(),
    };

    /// The boards within `depth` moves of `goal` in the tree of `codes`.
    pub(super) fn new<const P: usize>(
        goal: &Board,
        codes: &[u8],
        moves: &PackedMoves,
        depth: u32,
    ) -> Near {
        fn visit<const P: usize>(
            tree: &Tree,
            root: &Root,
            depth: u32,
            found: &mut Vec<(u64, u64)>,
        ) {
            found.push((root.rank / 2, root.answer));
            if depth > 0 {
                tree.children::<P>(root, |child| visit::<P>(tree, child, depth - 1, found));
            }
        }
        let words = bfs::entries(goal.shape()).div_ceil(64) as usize;
        let (tree, root) = Tree::new(goal, codes, moves);
        let mut found = Vec::new();
        visit::<P>(&tree, &root, depth, &mut found);
        let mut near = Near {
            bits: vec![0u64; words],
            before: Vec::with_capacity(words),
            answers: vec![0; found.len()],
        };
        for &(entry, _) in &found {
            near.bits[(entry / 64) as usize] |= 1 << (entry % 64);
        }
        let mut count = 0;
        for word in &near.bits {
            near.before.push(count);
            count += word.count_ones();
        }
        for &(entry, answer) in &found {
            let slot = near.slot(entry);
            near.answers[slot] = answer;
        }
        near
    }

    /// Whether the board of `entry` is in.
    #[inline(always)]
    pub(super) fn has(&self, entry: u64) -> bool {
        self.bits
            .get((entry / 64) as usize)
            .is_some_and(|word| word >> (entry % 64) & 1 != 0)
    }

    /// The answer of the board of `entry`, if it is in.
    #[inline(always)]
    pub(super) fn get(&self, entry: u64) -> Option<u64> {
        self.has(entry).then(|| self.answers[self.slot(entry)])
    }

    /// Where the answer of the board of `entry` is, if it is in.
    #[inline(always)]
    pub(super) fn slot(&self, entry: u64) -> usize {
        let word = (entry / 64) as usize;
        let below = self.bits[word] & ((1u64 << (entry % 64)) - 1);
        (self.before[word] + below.count_ones()) as usize
    }
}

/// The near answers of sections that have none (yet).
pub(super) static NO_NEAR: Near = Near::NONE;

impl<D: AsRef<[u8]>> Table<D> {
    /// Answers a run of boards toward one goal, a line each (the letters,
    /// or their number of moves if `lines` says so, or `unsolvable`), into
    /// `out`, once the section's answers are derived
    /// (see [`Table::write_answer`]): the ranks of the run come first, each
    /// answer fetched ahead, so that their loads overlap. Returns `false`,
    /// writing nothing, if the answers are not derived yet or a board is of
    /// another shape.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`] for the goal.
    pub(crate) fn write_answers<S: Sink>(
        &self,
        starts: &[Board],
        goal: &Board,
        sink: &mut S,
    ) -> Result<bool, SolveError> {
        if starts.iter().any(|s| s.shape() != self.sections.shape) {
            return Ok(false);
        }
        let Ok(index) = self.section(goal, None) else {
            return Ok(false);
        };
        let boards = starts.len() as u64;
        match &self.moves {
            MoveSet::Steps(steps) => match self.answers_after(steps, index, boards)? {
                Some(answers) => self.write_derived(starts, goal, index, answers, sink),
                None => return Ok(false),
            },
            MoveSet::Jumps(jumps) => match self.jump_answers_after(jumps, index, boards)? {
                Some(answers) => self.write_derived(starts, goal, index, answers, sink),
                None => return Ok(false),
            },
        }
        Ok(true)
    }

    /// [`Table::write_answers`] from the derived `answers` of section
    /// `index`.
    fn write_derived<W: Word, S: Sink>(
        &self,
        starts: &[Board],
        goal: &Board,
        index: usize,
        answers: &[W],
        sink: &mut S,
    ) {
        let run = (starts, goal, index);
        match self.sections.shape.cells() {
            9 => self.write_derived_of::<true, W, S>(run, answers, sink),
            _ => self.write_derived_of::<false, W, S>(run, answers, sink),
        }
    }

    /// [`Table::write_derived`] on boards of 9 cells if `NINE`: ranked with
    /// no look at their shape, which took a multiplication and a branch a
    /// board.
    fn write_derived_of<const NINE: bool, W: Word, S: Sink>(
        &self,
        (starts, goal, index): (&[Board], &Board, usize),
        answers: &[W],
        sink: &mut S,
    ) {
        let canonical = &self.sections.goals[index];
        let goal_parity = self.goal_parities[index];
        let distance_parity = &self.distance_parity[index];
        const RUN: usize = 32;
        let mut entries = [u64::MAX; RUN];
        let relabel = goal != canonical;
        for run in starts.chunks(RUN) {
            for (start, entry) in run.iter().zip(&mut entries) {
                let start = match relabel {
                    false => *start,
                    true => start.relabelled_of::<NINE>(goal, canonical),
                };
                let (rank, parity) = board_rank_and_parity_of::<NINE>(&start);
                // The solvability rule of `connected`, from the table.
                let distance = usize::from(distance_parity[start.blank()]);
                *entry = match (parity ^ goal_parity) == distance {
                    true => rank / 2,
                    false => u64::MAX,
                };
                prefetch(answers, *entry as usize);
            }
            for &entry in &entries[..run.len()] {
                match answers.get(entry as usize) {
                    Some(&answer) => sink.word(answer),
                    None => sink.unsolvable(),
                }
            }
        }
    }

    /// Derives the answers toward goals with the blank where `goal` has it
    /// now, whatever the number of boards asked so far (see
    /// [`Table::write_answer`]); `false` if they do not fit in 31 moves.
    /// The work is shared among up to 4 threads, one a core.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`] for the goal.
    #[cfg(test)]
    pub(crate) fn derive_answers(&self, goal: &Board) -> Result<bool, SolveError> {
        let index = self.section(goal, None)?;
        let boards = derive_after(self.sections.shape);
        Ok(match &self.moves {
            MoveSet::Steps(steps) => self.answers_after(steps, index, boards)?.is_some(),
            MoveSet::Jumps(jumps) => self.jump_answers_after(jumps, index, boards)?.is_some(),
        })
    }

    /// Where `start` stands toward `goal`: the goal's section, `start`
    /// relabelled toward the section's goal, and its rank; `None` if it
    /// cannot reach the goal.
    #[inline(always)]
    pub(super) fn place(
        &self,
        start: &Board,
        goal: &Board,
    ) -> Result<Option<(usize, Board, u64)>, SolveError> {
        let index = self.section(goal, Some(start))?;
        Ok(self
            .place_in::<false>(index, start, goal)
            .map(|(start, _, rank)| (index, start, rank)))
    }

    /// [`Table::place`] in section `index`, the boards known to be of the
    /// table's shape, of 9 cells if `NINE`: `start` relabelled, its blank
    /// and its rank.
    #[inline(always)]
    pub(super) fn place_in<const NINE: bool>(
        &self,
        index: usize,
        start: &Board,
        goal: &Board,
    ) -> Option<(Board, usize, u64)> {
        let canonical = &self.sections.goals[index];
        let start = match goal == canonical {
            true => *start,
            false => start.relabelled_of::<NINE>(goal, canonical),
        };
        let (rank, parity) = board_rank_and_parity_of::<NINE>(&start);
        // The solvability rule of `connected`, from the table: no division.
        let blank = start.blank();
        let distance = usize::from(self.distance_parity[index][blank]);
        let reachable = (parity ^ self.goal_parities[index]) == distance;
        reachable.then_some((start, blank, rank))
    }

    /// Whether every answer of section `index` fits a [`Packed`] answer, as
    /// its header says.
    pub(super) fn packs(&self, index: usize) -> bool {
        self.sections.file.header().sections[index].max_depth <= MAX_PACKED
    }

    /// The answers of section `index`, if derived or worth deriving now
    /// that `boards` more boards ask for them.
    pub(super) fn answers_after<'a>(
        &'a self,
        steps: &'a Steps,
        index: usize,
        boards: u64,
    ) -> Result<Option<&'a [u64]>, TableError> {
        if let Some(answers) = steps.answers[index].get() {
            return Ok(Some(answers));
        }
        let asked = self.sections.asked[index].fetch_add(boards, Ordering::Relaxed) + boards;
        // On boards of up to 3 columns (all such boards' answers fit, a
        // header's claim aside).
        let fits = self.packs(index) && steps.packed_moves.passes() <= 2;
        if asked < derive_after(self.sections.shape) || !fits {
            return Ok(None);
        }
        let codes = self.codes(index)?;
        let goal = &self.sections.goals[index];
        let moves = &steps.packed_moves;
        Ok(Some(steps.answers[index].get_or_init(
            || match moves.passes() {
                1 => derive_answers::<1>(goal, codes, moves),
                _ => derive_answers::<2>(goal, codes, moves),
            },
        )))
    }

    /// Finds the near answers of section `index` (see
    /// [`Table::solve_packed`]) if not found yet and worth finding now that
    /// `boards` more boards ask for them; whether they are found.
    pub(super) fn near_after(
        &self,
        steps: &Steps,
        index: usize,
        boards: u64,
    ) -> Result<bool, TableError> {
        if steps.near[index].get().is_some() {
            return Ok(true);
        }
        let asked = self.sections.asked[index].fetch_add(boards, Ordering::Relaxed) + boards;
        // Boards of 3x3 and smaller: a bit an entry stays small.
        let fits = bfs::entries(self.sections.shape) <= 1 << 20 && steps.packed_moves.passes() <= 2;
        if asked < NEAR_AFTER || !fits {
            return Ok(false);
        }
        let codes = self.codes(index)?;
        let goal = &self.sections.goals[index];
        let moves = &steps.packed_moves;
        steps.near[index].get_or_init(|| match moves.passes() {
            1 => Near::new::<1>(goal, codes, moves, NEAR_DEPTH),
            _ => Near::new::<2>(goal, codes, moves, NEAR_DEPTH),
        });
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;
    use crate::table::packed::Packed;

    /// The near answers of every section of every built-in shape that has
    /// them are the derived answers of exactly the boards within
    /// `NEAR_DEPTH` moves of the goal.
    #[test]
    fn near_answers_are_the_derived_ones_within_reach() {
        for shape in Shape::all().filter(|s| s.cells() <= 9 && s.cols() <= 3) {
            let table = Table::new(crate::data::builtin(shape).unwrap()).unwrap();
            let moves = &table.steps().expect("a table of next moves").packed_moves;
            for (index, goal) in table.sections.goals.iter().enumerate() {
                if !table.packs(index) {
                    continue;
                }
                let codes = table.codes(index).unwrap();
                let (near, derived) = match moves.passes() {
                    1 => (
                        Near::new::<1>(goal, codes, moves, NEAR_DEPTH),
                        derive_answers::<1>(goal, codes, moves),
                    ),
                    _ => (
                        Near::new::<2>(goal, codes, moves, NEAR_DEPTH),
                        derive_answers::<2>(goal, codes, moves),
                    ),
                };
                let mut within = 0;
                for (entry, &answer) in derived.iter().enumerate() {
                    let entry = entry as u64;
                    // Entries of no board reachable stay 0.
                    let near_enough = answer != 0 && Packed(answer).len() <= NEAR_DEPTH as usize;
                    assert_eq!(near.has(entry), near_enough, "{shape} {goal} entry {entry}");
                    assert_eq!(near.get(entry), near_enough.then_some(answer));
                    within += usize::from(near_enough);
                }
                assert_eq!(near.answers.len(), within, "{shape} {goal}");
                assert!(!near.has(derived.len() as u64 + 64), "past the end");
            }
        }
    }
}
