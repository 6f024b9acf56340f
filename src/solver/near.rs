//! Distances a search found, kept for the boards beside them: a player's
//! next board is one move from the last, so its distance is that one's
//! plus or minus one, and the search needs only the bounds that may be
//! nearer (on 4x4, a fraction of the search in full).
//!
//! The first letter of a kept board's answer says more. The answer is the
//! smallest in letters of the shortest, so a board that the kept one
//! reaches by a letter before it is no nearer: were it nearer, that letter
//! and its answer would be a shortest answer of the kept board, smaller.
//! In the single-tile metric, whose distances from one board to the next
//! differ by one, such a board's distance is known with no search.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use crate::answer::SolveError;
use crate::board::Board;
use crate::deepen::Query;
use crate::metric::Metric;
use crate::shape::Move;
use crate::solver::{Engine, Solver};

/// The distances kept, at most: 64 bytes each.
const KEPT: usize = 1 << 14;

/// The boards of an answer kept with their distances, from its start.
const KEPT_OF_AN_ANSWER: usize = 256;

/// Distances of searched boards toward their goals, the oldest forgotten
/// first.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    kept: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    distance: HashMap<(Board, Board), Near>,
    order: VecDeque<(Board, Board)>,
}

/// What is known of a board's way to a goal.
#[derive(Clone, Copy, Debug)]
struct Near {
    distance: u16,
    /// The first letter of its answer (the smallest of the shortest), if
    /// a search found it.
    first: Option<Move>,
}

impl Near {
    /// A distance as kept: no search reaches the largest.
    fn distance(distance: usize) -> u16 {
        u16::try_from(distance).unwrap_or(u16::MAX)
    }
}

impl Memo {
    fn get(&self, board: &Board, goal: &Board) -> Option<Near> {
        let kept = self.kept.lock().unwrap_or_else(|err| err.into_inner());
        kept.distance.get(&(*board, *goal)).copied()
    }

    /// Keeps what is known of each board's way toward `goal`.
    fn put(&self, goal: &Board, boards: impl IntoIterator<Item = (Board, Near)>) {
        let mut kept = self.kept.lock().unwrap_or_else(|err| err.into_inner());
        for (board, near) in boards {
            let key = (board, *goal);
            if kept.distance.insert(key, near).is_none() {
                kept.order.push_back(key);
            }
            if kept.order.len() > KEPT
                && let Some(oldest) = kept.order.pop_front()
            {
                kept.distance.remove(&oldest);
            }
        }
    }
}

impl Solver {
    /// The distance from `start` to `goal` a search found, if it is kept.
    pub(crate) fn memo_distance(&self, start: &Board, goal: &Board) -> Option<u32> {
        let near = self.memo.get(start, goal)?;
        Some(u32::from(near.distance))
    }

    /// The number of moves of the shortest answer from `start` to `goal`,
    /// or `None` if it cannot reach it: for a search, a distance kept, or
    /// a search only as deep as a board beside it allows, or in full.
    ///
    /// # Errors
    ///
    /// As [`Solver::solve_each`].
    pub(crate) fn length_of(
        &self,
        start: &Board,
        goal: &Board,
    ) -> Result<Option<usize>, SolveError> {
        if matches!(&*self.engine, Engine::Table(_))
            || start.shape() != goal.shape()
            || !start.solvable_to(goal)
        {
            return self.solve_each(start, goal, |_| {});
        }
        if start == goal {
            return Ok(Some(0));
        }
        if let Some(near) = self.memo.get(start, goal) {
            return Ok(Some(usize::from(near.distance)));
        }
        // One move changes the distance by one at most; in the single-tile
        // metric, by exactly one (the parity of the blank's cell). No bound
        // below one nearer is searched, nor below a board's that `start`
        // is a letter before its answer from (see the module's note).
        let mut beside: Option<usize> = None;
        let mut floor = 0;
        for mv in Move::ALL {
            let mut end = *start;
            while let Some(next) = end.moved(mv) {
                end = next;
                if let Some(near) = self.memo.get(&end, goal) {
                    let distance = usize::from(near.distance);
                    beside = Some(beside.map_or(distance, |b| b.min(distance)));
                    let no_nearer = near.first.is_some_and(|first| mv.opposite() < first);
                    floor = floor.max(distance.saturating_sub(usize::from(!no_nearer)));
                }
                if self.metric() == Metric::Stm {
                    break;
                }
            }
        }
        let Some(beside) = beside else {
            return self.search_within(start, goal, 0, usize::MAX);
        };
        let cap = match self.metric() {
            Metric::Stm => beside.checked_sub(1),
            Metric::Mtm => Some(beside),
        };
        let found = match cap {
            Some(cap) if floor <= cap => self.search_within(start, goal, floor, cap)?,
            _ => None,
        };
        if found.is_none() {
            let distance = Near::distance(beside + 1);
            self.memo.put(
                goal,
                [(
                    *start,
                    Near {
                        distance,
                        first: None,
                    },
                )],
            );
        }
        Ok(Some(found.unwrap_or(beside + 1)))
    }

    /// The length of the shortest answer of a search from `start`, if it
    /// is at most `cap` moves, knowing it is at least `floor`.
    fn search_within(
        &self,
        start: &Board,
        goal: &Board,
        floor: usize,
        cap: usize,
    ) -> Result<Option<usize>, SolveError> {
        let cap = u32::try_from(cap).unwrap_or(u32::MAX);
        let query = Query::within(floor as u32, cap).learning();
        let solved = crate::deepen::answer(self.search(start, goal, query)?);
        Ok(solved.and_then(|(solution, _)| {
            let moves = solution.moves()?;
            self.keep_answer(start, goal, moves);
            Some(self.metric().count_moves(moves))
        }))
    }

    /// Keeps the distances of the boards along a searched answer.
    pub(crate) fn keep_answer(&self, start: &Board, goal: &Board, moves: &[Move]) {
        let total = self.metric().count_moves(moves);
        let mut board = *start;
        let mut left = total;
        // The rest of a shortest answer from a board along it where a run
        // ends is that board's answer: a smaller one would make a smaller
        // answer of `start`.
        let near = |distance, first: Option<&Move>| Near {
            distance: Near::distance(distance),
            first: first.copied(),
        };
        let mut along = vec![(board, near(left, moves.first()))];
        for (at, &mv) in moves.iter().enumerate() {
            let Some(next) = board.moved(mv) else {
                return;
            };
            board = next;
            let run_ends = self.metric() == Metric::Stm || moves.get(at + 1) != Some(&mv);
            if run_ends {
                left -= 1;
                along.push((board, near(left, moves.get(at + 1))));
            }
        }
        along.truncate(KEPT_OF_AN_ANSWER);
        self.memo.put(goal, along);
    }
}
