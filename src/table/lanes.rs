//! Walks side by side: a group of boards toward one goal, or `--pairs`
//! cases each toward its own, interleaved so that their memory loads
//! overlap.

use crate::answer::Proof;
use crate::answer::SolveError;
use crate::answer::TableError;
use crate::bfs::{code_at, code_or_zero};
use crate::board::{Board, board_rank_and_parity, connected};
use crate::mem::prefetch;
use crate::rank::rank_delta;
use crate::shape::{Move, SMALL_CELLS};
use crate::table::derived::{NO_NEAR, Near};
use crate::table::packed::{MAX_PACKED, Packed};
use crate::table::{Steps, Table};

/// The most walks [`Table::solve_group`] takes at once: enough loads in
/// flight to cover a trip to memory.
pub(crate) const GROUP: usize = 16;

/// The most walks [`Table::solve_packed`] keeps going at once: enough to
/// fill the time one step waits for the step before it.
pub(super) const LANES: usize = 8;

/// A walk of [`Table::solve_packed`] under way, or an idle lane.
#[derive(Clone, Copy)]
pub(super) struct Lane<'c> {
    pub(super) codes: &'c [u8],
    pub(super) near: &'c Near,
    /// The board, 4 bits a cell, its blank and its rank.
    pub(super) board: u64,
    pub(super) blank: usize,
    pub(super) rank: u64,
    pub(super) goal_rank: u64,
    /// The moves so far, packed as [`Packed`] without its marker.
    pub(super) answer: u64,
    pub(super) steps: u32,
    /// Where the answer goes; `usize::MAX` for an idle lane.
    pub(super) slot: usize,
}

impl Lane<'_> {
    /// A lane with no walk: at its goal, and answering nothing.
    const IDLE: Lane<'static> = Lane {
        codes: &[],
        near: &NO_NEAR,
        board: 0,
        blank: 0,
        rank: 0,
        goal_rank: 0,
        answer: 0,
        steps: 0,
        slot: usize::MAX,
    };
}

impl<D: AsRef<[u8]>> Table<D> {
    /// Solves each of `starts` toward the goal beside it in `goals`, as
    /// [`Table::solve_each`] does, into `answers` (cleared first): one
    /// [`Packed`] answer a start, or `None` if unsolvable. The fastest way to
    /// answer boards toward many goals (`--pairs`).
    ///
    /// A walk is a chain of steps, each waiting for the one before. Here
    /// eight walks go interleaved, so that their steps overlap, and a
    /// lane takes the next board as soon as its walk is done. A step follows
    /// the board packed 4 bits a cell, with no branch on its move. A goal
    /// whose answers are [derived](Table::write_answer) takes them instead.
    ///
    /// Once a few thousand boards have asked a goal of 3 columns or fewer,
    /// the answers of the boards within 14 moves of it are found (the tree
    /// the codes make, walked that deep from the goal: 4,767 to 6,053 boards
    /// on 3x3, in 0.06-0.22 ms). A walk then stops at the first of them it
    /// comes upon: a random 3x3 board takes 8 steps instead of 22.
    ///
    /// Returns `false`, answering nothing, if a board is of another shape,
    /// the table has no section for a goal's blank, or a section's answers
    /// may be longer than 31 moves.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`].
    ///
    /// # Panics
    ///
    /// Panics if there are fewer goals than starts.
    pub(crate) fn solve_packed(
        &self,
        starts: &[Board],
        goals: &[Board],
        answers: &mut Vec<Option<Packed>>,
    ) -> Result<bool, SolveError> {
        assert!(goals.len() >= starts.len(), "a goal for every start");
        answers.clear();
        let Some(steps) = self.steps() else {
            return Ok(false);
        };
        let mut asking = [0u64; SMALL_CELLS];
        for (start, goal) in starts.iter().zip(goals) {
            let section = self.sections.section_of[goal.blank()].map(usize::from);
            if start.shape() != self.sections.shape
                || goal.shape() != self.sections.shape
                || !section.is_some_and(|index| self.packs(index))
            {
                return Ok(false);
            }
            asking[section.unwrap_or(0)] += 1;
        }
        let mut near = false;
        for (index, &boards) in asking.iter().enumerate().take(self.sections.goals.len()) {
            if boards > 0 {
                near |= self.near_after(steps, index, boards)?;
            }
        }
        answers.resize(starts.len(), None);
        match (steps.packed_moves.passes(), near) {
            (1, false) => self.walk_lanes::<1, false>(steps, starts, goals, answers)?,
            (1, true) => self.walk_lanes::<1, true>(steps, starts, goals, answers)?,
            (2, false) => self.walk_lanes::<2, false>(steps, starts, goals, answers)?,
            (2, true) => self.walk_lanes::<2, true>(steps, starts, goals, answers)?,
            // No near answers on boards of 4 columns.
            (3, _) => self.walk_lanes::<3, false>(steps, starts, goals, answers)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The walks of [`Table::solve_packed`], on a board of `P + 1` columns;
    /// `NEAR` if a goal of theirs has near answers, which they then look
    /// for at each step.
    pub(super) fn walk_lanes<const P: usize, const NEAR: bool>(
        &self,
        steps: &Steps,
        starts: &[Board],
        goals: &[Board],
        answers: &mut [Option<Packed>],
    ) -> Result<(), SolveError> {
        // The most steps a walk may take, and each answer can hold.
        let most = self.sections.bound.min(MAX_PACKED);
        let mut lanes = [Lane::IDLE; LANES];
        let mut next = 0;
        let mut busy = 0;
        loop {
            for lane in &mut lanes {
                // Idle lanes are at their goal too.
                if lane.rank == lane.goal_rank || (NEAR && lane.near.has(lane.rank / 2)) {
                    if lane.slot == usize::MAX && next == starts.len() {
                        continue;
                    }
                    if lane.slot != usize::MAX {
                        // The rest of the answer, from the goal or near it.
                        let near = if NEAR {
                            lane.near.get(lane.rank / 2)
                        } else {
                            None
                        };
                        let rest = near.unwrap_or(1);
                        if lane.steps as usize + Packed(rest).len() > most as usize {
                            return Err(self.walk_error(&starts[lane.slot], &goals[lane.slot]));
                        }
                        answers[lane.slot] = Some(Packed(lane.answer | rest << (2 * lane.steps)));
                        busy -= 1;
                    }
                    *lane = self.next_lane(steps, &mut next, starts, goals, answers)?;
                    busy += usize::from(lane.slot != usize::MAX);
                    continue;
                }
                // A rank off the table reads code 0: the walk goes on
                // wrong, and ends too long.
                let code = code_or_zero(lane.codes, lane.rank / 2);
                let delta = steps
                    .packed_moves
                    .step::<P>(&mut lane.board, &mut lane.blank, code);
                lane.rank = lane.rank.wrapping_add_signed(delta);
                lane.answer |= u64::from(code) << (2 * lane.steps);
                lane.steps += 1;
                if lane.steps > most {
                    return Err(self.walk_error(&starts[lane.slot], &goals[lane.slot]));
                }
                // Its next code is read after the other lanes' steps.
                prefetch(lane.codes, (lane.rank / 8) as usize);
                if NEAR {
                    prefetch(&lane.near.bits, (lane.rank / 128) as usize);
                }
            }
            if busy == 0 && next == starts.len() {
                return Ok(());
            }
        }
    }

    /// The next board from `next` on that needs a walk, in a [`Lane`]; the
    /// boards before it (unsolvable, or with derived answers) are answered
    /// here. An idle lane once there are none.
    #[inline(never)]
    pub(super) fn next_lane<'a>(
        &'a self,
        steps: &'a Steps,
        next: &mut usize,
        starts: &[Board],
        goals: &[Board],
        answers: &mut [Option<Packed>],
    ) -> Result<Lane<'a>, SolveError> {
        while *next < starts.len() {
            let slot = *next;
            *next += 1;
            // Shapes and sections were checked for the whole run.
            let (start, goal) = (&starts[slot], &goals[slot]);
            let index = self.sections.section_of[goal.blank()].map_or(0, usize::from);
            let placed = match self.sections.shape.cells() {
                9 => self.place_in::<true>(index, start, goal),
                _ => self.place_in::<false>(index, start, goal),
            };
            let Some((start, blank, rank)) = placed else {
                continue;
            };
            if let Some(derived) = steps.answers[index].get() {
                answers[slot] = Some(Packed(derived[(rank / 2) as usize]));
                continue;
            }
            let goal_rank = self.sections.goal_ranks[index];
            if rank == goal_rank {
                answers[slot] = Some(Packed(1));
                continue;
            }
            return Ok(Lane {
                codes: self.codes(index)?,
                near: steps.near[index].get().unwrap_or(&NO_NEAR),
                board: start.packed(),
                blank,
                rank,
                goal_rank,
                answer: 0,
                steps: 0,
                slot,
            });
        }
        Ok(Lane::IDLE)
    }

    /// Why the walk from `start` toward `goal` failed, in an interleaved
    /// walk: the one walk again, to say it as [`Table::solve_each`] does.
    #[cold]
    pub(super) fn walk_error(&self, start: &Board, goal: &Board) -> SolveError {
        let index = match self.place(start, goal) {
            Err(err) => return err,
            Ok(None) => unreachable!("a board walked is solvable"),
            Ok(Some((index, start, rank))) => {
                match self.walk_letters(&start, rank, index, |_| {}) {
                    Err(err) => return err.into(),
                    Ok(_) => index,
                }
            }
        };
        // The walk is right, and longer than the header says answers are.
        SolveError::from(TableError::Wrong {
            section: index,
            blank: goal.blank(),
            proof: Proof::Walk {
                board: *start,
                problem: "take more moves than the longest answer the header gives",
            },
        })
    }

    /// Whether [`Table::solve_group`] pays: sections larger than the L2
    /// cache (1 MiB of codes: 10 cells and more), where each step of a walk
    /// waits for memory. Smaller ones are walked faster one by one.
    pub(crate) fn groups_pay(&self) -> bool {
        self.steps().is_some_and(|steps| steps.groups_pay)
    }

    /// Solves each of `starts` toward `goal` as [`Table::solve_each`] does,
    /// its letters into `letters[i]` and its number of moves, or `None` if
    /// unsolvable, into `found[i]`. The walks go in lockstep, each fetching
    /// its next code ahead of use, so that the memory loads of up to
    /// [`GROUP`] walks overlap: on a table larger than the caches, each step
    /// is otherwise a wait for memory.
    ///
    /// # Errors
    ///
    /// As [`Table::solve_each`].
    ///
    /// # Panics
    ///
    /// Panics if there are more than [`GROUP`] starts, or fewer `letters`
    /// or `found` than starts.
    pub(crate) fn solve_group(
        &self,
        starts: &[Board],
        goal: &Board,
        letters: &mut [Vec<u8>],
        found: &mut [Option<usize>],
    ) -> Result<(), SolveError> {
        assert!(starts.len() <= GROUP, "at most {GROUP} walks at once");
        let Some(steps) = self.steps() else {
            // Jumps are walked one board at a time.
            for (i, start) in starts.iter().enumerate() {
                letters[i].clear();
                found[i] = self.solve_each(start, goal, |mv| letters[i].push(mv.letter() as u8))?;
            }
            return Ok(());
        };
        /// One walk: the board, its blank and rank, and whether it goes on.
        #[derive(Clone, Copy)]
        struct Walk {
            cells: [u8; SMALL_CELLS],
            blank: usize,
            rank: u64,
            steps: u32,
            going: bool,
        }
        let index = self.section(goal, None)?;
        let blank = goal.blank();
        let canonical = &self.sections.goals[index];
        let codes = self.codes(index)?;
        let goal_rank = self.sections.goal_ranks[index];
        let mut walks = [Walk {
            cells: [0; SMALL_CELLS],
            blank: 0,
            rank: 0,
            steps: 0,
            going: false,
        }; GROUP];
        let mut going = 0;
        for (i, start) in starts.iter().enumerate() {
            if start.shape() != self.sections.shape {
                return Err(SolveError::Shape {
                    expected: self.sections.shape,
                    got: start.shape(),
                });
            }
            let start = match goal == canonical {
                true => *start,
                false => start.relabelled(goal, canonical),
            };
            letters[i].clear();
            let (rank, parity) = board_rank_and_parity(&start);
            let solvable = connected(
                self.sections.shape,
                parity ^ self.goal_parities[index],
                start.blank(),
                blank,
            );
            found[i] = solvable.then_some(0);
            let walk = &mut walks[i];
            walk.cells[..start.cells().len()].copy_from_slice(start.cells());
            walk.blank = start.blank();
            walk.rank = rank;
            walk.going = solvable;
            going += usize::from(solvable);
        }
        let n = self.sections.shape.cells();
        while going > 0 {
            for (i, walk) in walks[..starts.len()].iter_mut().enumerate() {
                if !walk.going {
                    continue;
                }
                if walk.rank == goal_rank {
                    walk.going = false;
                    going -= 1;
                    found[i] = Some(walk.steps as usize);
                    continue;
                }
                if walk.steps == self.sections.bound {
                    return Err(SolveError::from(TableError::Wrong {
                        section: index,
                        blank,
                        proof: Proof::Walk {
                            board: starts[i],
                            problem: "do not reach the goal within the longest answer of the board",
                        },
                    }));
                }
                let mv = Move::from_code(code_at(codes, walk.rank / 2));
                let Some(target) = steps.neighbors[walk.blank][usize::from(mv.code())] else {
                    return Err(SolveError::from(TableError::Wrong {
                        section: index,
                        blank,
                        proof: Proof::Walk {
                            board: starts[i],
                            problem: "leave the board",
                        },
                    }));
                };
                let target = usize::from(target);
                walk.rank =
                    walk.rank
                        .wrapping_add_signed(rank_delta(&walk.cells[..n], walk.blank, target));
                walk.cells.swap(walk.blank, target);
                walk.blank = target;
                walk.steps += 1;
                letters[i].push(mv.letter() as u8);
                prefetch(codes, (walk.rank / 8) as usize);
            }
        }
        Ok(())
    }
}
