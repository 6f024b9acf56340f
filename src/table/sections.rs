//! What every table of next moves has, whatever its moves (single steps or
//! the multi-tile metric's jumps): the file, its sections toward canonical
//! goals, each section's codes checked, decoded and proven on first use (or
//! read from codes decoded when the program was built), and the boards
//! asked of each so far. The moves, their walks and their derived answers
//! are [`Table`](crate::table::Table)'s.

use std::sync::OnceLock;
use std::sync::atomic::AtomicU64;

use crate::answer::{Proof, SolveError, TableError};
use crate::board::{Board, board_rank};
use crate::file::{Decoded, RawFile};
use crate::shape::{SMALL_CELLS, Shape};
use crate::table::{canonical_sections, section_toward};

/// The proof of a section: its goal and codes to the longest answer, in
/// moves, or what is wrong.
pub(crate) type Prover = fn(&Board, &[u8]) -> Result<u32, Proof>;

pub(crate) struct Sections<D> {
    pub(crate) file: RawFile<D>,
    pub(crate) shape: Shape,
    /// The section of each blank cell, if the table has one.
    pub(crate) section_of: [Option<u8>; SMALL_CELLS],
    /// The goal of each section, and its rank.
    pub(crate) goals: Vec<Board>,
    pub(crate) goal_ranks: Vec<u64>,
    codes: Vec<OnceLock<Result<Decoded, TableError>>>,
    /// Every section's codes, decoded when the program was built, back to
    /// back, with the bytes of one: read in place instead of `codes`.
    decoded: Option<(&'static [u8], usize)>,
    /// Prove each section before its first use.
    pub(crate) prove: bool,
    /// The most moves a walk may take.
    pub(crate) bound: u32,
    /// Boards asked of each section so far.
    pub(crate) asked: Vec<AtomicU64>,
    prover: Prover,
}

impl<D: AsRef<[u8]>> Sections<D> {
    /// Checks the header of a table file of `per_byte` codes a byte, whose
    /// sections `prover` proves.
    pub(crate) fn new(
        file: RawFile<D>,
        per_byte: u64,
        prover: Prover,
    ) -> Result<Sections<D>, TableError> {
        let shape = file.shape();
        let (section_of, goals) = canonical_sections(&file, per_byte)?;
        let count = goals.len();
        Ok(Sections {
            shape,
            section_of,
            goal_ranks: goals.iter().map(board_rank).collect(),
            goals,
            codes: (0..count).map(|_| OnceLock::new()).collect(),
            decoded: None,
            prove: false,
            bound: shape.diameter_bound(),
            asked: (0..count).map(|_| AtomicU64::new(0)).collect(),
            prover,
            file,
        })
    }

    /// Reads the codes from `decoded`, every section decoded back to back
    /// when the program was built; `decoded` of another length than the
    /// sections' is not used.
    pub(crate) fn use_decoded(&mut self, decoded: &'static [u8]) {
        let len: u64 = self.file.header().sections.iter().map(|s| s.raw_len).sum();
        if decoded.len() as u64 == len {
            // Every section holds as many entries (`new` checked it).
            self.decoded = Some((decoded, decoded.len() / self.goals.len()));
        }
    }

    /// Whether the table answers boards toward `goal`: any goal of its
    /// shape whose blank is in the cell of one of its sections.
    pub(crate) fn serves(&self, goal: &Board) -> bool {
        goal.shape() == self.shape && self.section_of[goal.blank()].is_some()
    }

    /// The longest shortest answer toward goals with the blank where
    /// `goal` has it, as the header says.
    pub(crate) fn max_depth(&self, goal: &Board) -> Option<u32> {
        let index = usize::from(self.section_of.get(goal.blank()).copied().flatten()?);
        Some(self.file.header().sections[index].max_depth)
    }

    /// The section that answers boards toward `goal`, once `goal` and
    /// `start` are found of the table's shape.
    pub(crate) fn section(&self, goal: &Board, start: Option<&Board>) -> Result<usize, SolveError> {
        section_toward(self.shape, &self.section_of, goal, start)
    }

    /// Checks every checksum, then decodes and proves every section, and
    /// that its longest answer is the header's; keeps the codes proven.
    pub(crate) fn verify(&self) -> Result<(), TableError> {
        // Every checksum first: a damaged file is told apart in
        // microseconds, before any proof.
        self.file.verify()?;
        for index in 0..self.goals.len() {
            let codes = self.file.decompress(index)?;
            self.prove_section(index, &codes)?;
            let _ = self.codes[index].set(Ok(codes));
        }
        Ok(())
    }

    /// Proves section `index` of `codes`, and its header's longest answer.
    fn prove_section(&self, index: usize, codes: &[u8]) -> Result<(), TableError> {
        let goal = &self.goals[index];
        let wrong = |proof| TableError::Wrong {
            section: index,
            blank: goal.blank(),
            proof,
        };
        let proven = (self.prover)(goal, codes).map_err(wrong)?;
        let header = self.file.header().sections[index].max_depth;
        if header != proven {
            return Err(wrong(Proof::MaxDepth { header, proven }));
        }
        Ok(())
    }

    /// The codes of section `index`, checked, decoded (and proven, if
    /// asked) on first use.
    #[inline]
    pub(crate) fn codes(&self, index: usize) -> Result<&[u8], TableError> {
        match self.decoded {
            Some((decoded, len)) if !self.prove => Ok(&decoded[index * len..(index + 1) * len]),
            _ => self.decoded_codes(index),
        }
    }

    /// [`Sections::codes`] of a section not built in.
    #[inline(never)]
    fn decoded_codes(&self, index: usize) -> Result<&[u8], TableError> {
        self.codes[index]
            .get_or_init(|| {
                let codes = self.file.decompress(index)?;
                if self.prove {
                    self.prove_section(index, &codes)?;
                }
                Ok(codes)
            })
            .as_deref()
            .map_err(Clone::clone)
    }
}
