//! The walk of a table of next jumps.

use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::Ordering;

use crate::answer::{Proof, SolveError, TableError};
use crate::bfs::entries;
use crate::board::{Board, board_rank_and_parity, board_rank_and_parity_of};
use crate::file::{Kind, RawFile};
use crate::mem::prefetch;
use crate::mtm::bfs::{prove, tree};
use crate::mtm::{Jumps, code_at};
use crate::shape::{MAX_CELLS, Move, Shape};
use crate::table::{SPELLING, Sections, derive_after, distance_parities};

/// The most letters a derived answer holds.
const MOST_LETTERS: u32 = 56;

/// A table of next moves in the [multi-tile metric](crate::Metric), read
/// in place from any bytes: for every board of a shape of up to 12 cells,
/// the jump that starts its canonical answer (see the [file
/// format](crate::file)).
///
/// As [`Table`](crate::Table) does, it checks the header cheaply when
/// made, and each section's checksum when first used; [`MtmTable::proving`]
/// proves each section right before its first use, [`MtmTable::verify`]
/// every section at once. The proof shows from the codes alone that every
/// board reaches the goal by them, that no jump from a board leads more
/// than one move closer than its codes take it (so every count is the
/// shortest), and that every code starts the canonical answer.
pub struct MtmTable<D> {
    /// The file, its sections and their codes.
    sections: Sections<D>,
    jumps: Jumps,
    /// Each section's answers, derived once enough boards ask: `None` if
    /// some answer is too long to derive.
    answers: Vec<OnceLock<Option<Vec<u128>>>>,
    /// Per section: its goal's parity, and per cell the parity of the
    /// cell's distance from the goal's blank (the solvability rule of
    /// `connected`, with no division a board).
    parities: Vec<(usize, [u8; MAX_CELLS])>,
}

impl<D: AsRef<[u8]>> MtmTable<D> {
    /// Reads a table from `data`, checking its magic, version, header
    /// checksum and layout: one section per goal, each a canonical goal, in
    /// increasing order of the blank's cell, with one entry per board.
    ///
    /// # Errors
    ///
    /// Fails with the first thing wrong with the header.
    pub fn new(data: D) -> Result<MtmTable<D>, TableError> {
        let sections = Sections::new(data, Kind::NextJumps, 2, |goal, codes| {
            let (_, histogram) = prove(&Jumps::new(goal.shape()), goal, codes)?;
            Ok(histogram.len() as u32 - 1)
        })?;
        let goals = &sections.goals;
        Ok(MtmTable {
            jumps: Jumps::new(sections.shape),
            answers: (0..goals.len()).map(|_| OnceLock::new()).collect(),
            parities: goals
                .iter()
                .map(|goal| (goal.parity(), distance_parities(goal)))
                .collect(),
            sections,
        })
    }

    /// This table, reading its codes from `decoded`, its sections decoded
    /// back to back when the program was built; `decoded` of another length
    /// is not used.
    pub(crate) fn with_decoded(mut self, decoded: &'static [u8]) -> MtmTable<D> {
        self.sections.use_decoded(decoded);
        self
    }

    /// This table, with each section proven right before its first use.
    pub fn proving(mut self) -> MtmTable<D> {
        self.sections.prove = true;
        self
    }

    /// Checks the checksum of every section, decodes it and proves it
    /// right, and checks the header's longest answers.
    ///
    /// # Errors
    ///
    /// Fails with the first section damaged or wrong.
    pub fn verify(&self) -> Result<(), TableError> {
        self.sections.verify()
    }

    /// The shape of the boards the table answers.
    pub fn shape(&self) -> Shape {
        self.sections.shape
    }

    /// The raw file under the table.
    pub fn file(&self) -> &RawFile<D> {
        &self.sections.file
    }

    /// Whether the table answers boards toward `goal`: any goal of its
    /// shape whose blank is in the cell of one of its sections.
    pub fn serves(&self, goal: &Board) -> bool {
        self.sections.serves(goal)
    }

    /// The longest shortest answer toward goals with the blank where
    /// `goal` has it, in moves, as the header says.
    pub fn max_depth(&self, goal: &Board) -> Option<u32> {
        self.sections.max_depth(goal)
    }

    /// Solves `start` toward `goal`, handing each step of the blank of the
    /// canonical answer to `emit`; the number of moves in the multi-tile
    /// metric, or `None` if `goal` cannot be reached.
    ///
    /// # Errors
    ///
    /// Fails if a board is of another shape, the table has no section for
    /// the goal's blank, or the section is damaged or wrong.
    pub fn solve_each(
        &self,
        start: &Board,
        goal: &Board,
        mut emit: impl FnMut(Move),
    ) -> Result<Option<usize>, SolveError> {
        let Some((index, start, rank)) = self.place(start, goal)? else {
            return Ok(None);
        };
        Ok(Some(self.walk(&start, rank, index, |mv, len| {
            (0..len).for_each(|_| emit(mv))
        })?))
    }

    /// Solves `start` toward `goal` as [`MtmTable::solve_each`] does,
    /// appending the letters of the answer to `out`. Once
    /// 8,192 boards have asked a section, every answer of it is
    /// derived at once from its codes (a board's answer is its jump, then
    /// the answer of the board it leads to), if each fits in 56 letters:
    /// 16 bytes a board, 2.9 MB for a 3x3 goal.
    ///
    /// # Errors
    ///
    /// As [`MtmTable::solve_each`].
    pub fn write_answer(
        &self,
        start: &Board,
        goal: &Board,
        out: &mut Vec<u8>,
    ) -> Result<Option<usize>, SolveError> {
        let Some((index, start, rank)) = self.place(start, goal)? else {
            return Ok(None);
        };
        if let Some(answers) = self.answers_after(index, 1)? {
            let answer = answers[(rank / 2) as usize];
            spell(answer, false, out);
            return Ok(Some(((answer >> 8) & 0xff) as usize));
        }
        Ok(Some(self.walk(&start, rank, index, |mv, len| {
            out.extend(std::iter::repeat_n(mv.letter() as u8, usize::from(len)))
        })?))
    }

    /// Answers a run of boards toward one goal, a line each (the letters,
    /// or `unsolvable`), into `out`, once the section's answers are derived
    /// (see [`MtmTable::write_answer`]), each answer fetched ahead so that
    /// their loads overlap. Returns `false`, writing nothing, if the
    /// answers are not derived or a board is of another shape.
    ///
    /// # Errors
    ///
    /// As [`MtmTable::solve_each`] for the goal.
    pub(crate) fn write_answers(
        &self,
        starts: &[Board],
        goal: &Board,
        out: &mut Vec<u8>,
    ) -> Result<bool, SolveError> {
        if starts.iter().any(|s| s.shape() != self.sections.shape) {
            return Ok(false);
        }
        let Ok(index) = self.section(goal, None) else {
            return Ok(false);
        };
        let Some(answers) = self.answers_after(index, starts.len() as u64)? else {
            return Ok(false);
        };
        match self.sections.shape.cells() {
            9 => self.write_derived::<true>(starts, goal, index, answers, out),
            _ => self.write_derived::<false>(starts, goal, index, answers, out),
        }
        Ok(true)
    }

    /// [`MtmTable::write_answers`] from the derived `answers` of section
    /// `index`, on boards of 9 cells if `NINE`.
    fn write_derived<const NINE: bool>(
        &self,
        starts: &[Board],
        goal: &Board,
        index: usize,
        answers: &[u128],
        out: &mut Vec<u8>,
    ) {
        const RUN: usize = 32;
        let canonical = &self.sections.goals[index];
        let (goal_parity, distance) = &self.parities[index];
        let mut entries = [u64::MAX; RUN];
        for run in starts.chunks(RUN) {
            for (start, entry) in run.iter().zip(&mut entries) {
                let start = match goal == canonical {
                    true => *start,
                    false => start.relabelled_of::<NINE>(goal, canonical),
                };
                let (rank, parity) = board_rank_and_parity_of::<NINE>(&start);
                *entry = match (parity ^ goal_parity) == usize::from(distance[start.blank()]) {
                    true => rank / 2,
                    false => u64::MAX,
                };
                prefetch(answers, *entry as usize);
            }
            for &entry in &entries[..run.len()] {
                match answers.get(entry as usize) {
                    Some(&answer) => spell(answer, true, out),
                    None => out.extend_from_slice(b"unsolvable\n"),
                }
            }
        }
    }

    /// Every board whose shortest answer toward `goal` is exactly `depth`
    /// moves, in no particular order.
    ///
    /// # Errors
    ///
    /// Fails as [`MtmTable::solve_each`] does for the goal.
    pub fn at_distance(&self, goal: &Board, depth: u32) -> Result<Vec<Board>, SolveError> {
        let index = self.section(goal, None)?;
        let codes = self.codes(index)?;
        let canonical = &self.sections.goals[index];
        let mut found = Vec::new();
        if depth == 0 {
            found.push(*canonical);
        }
        tree(&self.jumps, canonical, codes, depth, |step| {
            if step.depth == depth {
                found.push(Board::from_cell_array(self.sections.shape, *step.cells));
            }
        });
        Ok(found
            .into_iter()
            .map(|board| match goal == canonical {
                true => board,
                false => board.relabelled(canonical, goal),
            })
            .collect())
    }

    /// The section toward `goal`, `start` relabelled toward its canonical
    /// goal, and its rank; `None` if `start` cannot reach `goal`.
    fn place(
        &self,
        start: &Board,
        goal: &Board,
    ) -> Result<Option<(usize, Board, u64)>, SolveError> {
        let index = self.section(goal, Some(start))?;
        let canonical = &self.sections.goals[index];
        let start = match goal == canonical {
            true => *start,
            false => start.relabelled(goal, canonical),
        };
        let (rank, parity) = board_rank_and_parity(&start);
        let (goal_parity, distance) = &self.parities[index];
        let reachable = (parity ^ goal_parity) == usize::from(distance[start.blank()]);
        Ok(reachable.then_some((index, start, rank)))
    }

    /// The section that answers boards toward `goal`, once `goal` and
    /// `start` are found of the table's shape.
    fn section(&self, goal: &Board, start: Option<&Board>) -> Result<usize, SolveError> {
        self.sections.section(goal, start)
    }

    /// Follows the codes of section `index` from `start` to its goal,
    /// handing each jump to `emit`; the number of jumps.
    fn walk(
        &self,
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
        let mut moves = 0;
        let wrong = |problem| TableError::Wrong {
            section: index,
            blank: self.sections.goals[index].blank(),
            proof: Proof::Walk {
                board: *start,
                problem,
            },
        };
        while rank != goal_rank {
            if moves == self.sections.bound {
                return Err(wrong(
                    "do not reach the goal within the longest answer of the board",
                ));
            }
            let code = code_at(codes, rank / 2);
            if !self.jumps.fits(blank, code) {
                return Err(wrong("leave the board"));
            }
            self.jumps
                .apply(&mut cells[..n], &mut blank, &mut rank, code);
            let jump = self.jumps.jump(code);
            emit(jump.mv, jump.len);
            moves += 1;
        }
        Ok(moves as usize)
    }

    /// The codes of section `index`, checked, decoded (and proven, if
    /// asked) on first use.
    #[inline]
    fn codes(&self, index: usize) -> Result<&[u8], TableError> {
        self.sections.codes(index)
    }

    /// The answers of section `index`, if derived or worth deriving now
    /// that `boards` more boards ask for them.
    #[inline]
    fn answers_after(&self, index: usize, boards: u64) -> Result<Option<&[u128]>, TableError> {
        if let Some(answers) = self.answers[index].get() {
            return Ok(answers.as_deref());
        }
        if self.sections.asked[index].fetch_add(boards, Ordering::Relaxed) + boards
            < derive_after(self.sections.shape)
        {
            return Ok(None);
        }
        let codes = self.codes(index)?;
        Ok(self.answers[index]
            .get_or_init(|| derive(&self.jumps, &self.sections.goals[index], codes))
            .as_deref())
    }
}

/// Appends the letters of a derived answer to `out`, four a byte of it, and
/// a newline after them if `line`.
#[inline(always)]
fn spell(answer: u128, line: bool, out: &mut Vec<u8>) {
    let len = (answer & 0xff) as usize;
    let bits = answer >> 16;
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
}

/// Every answer of the section of `codes` toward `goal` by table entry:
/// the letters' count in bits 0-7, the moves' in bits 8-15, then the
/// letters, 2 bits each ([`Move::code`]), the first lowest; `None` if one
/// is longer than [`MOST_LETTERS`].
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

impl<D> fmt::Debug for MtmTable<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MtmTable")
            .field("shape", &self.sections.shape)
            .field("sections", &self.sections.goals.len())
            .finish_non_exhaustive()
    }
}
