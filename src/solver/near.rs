//! Distances a search found, kept for the boards beside them: a player's
//! next board is one move from the last, so its distance is that one's
//! plus or minus one, and the search needs only the bounds that may be
//! nearer (on 4x4, a fraction of the search in full).

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
    distance: HashMap<(Board, Board), u16>,
    order: VecDeque<(Board, Board)>,
}

impl Memo {
    fn get(&self, board: &Board, goal: &Board) -> Option<usize> {
        let kept = self.kept.lock().unwrap_or_else(|err| err.into_inner());
        kept.distance.get(&(*board, *goal)).map(|&d| usize::from(d))
    }

    /// Keeps the distance of each board toward `goal`.
    fn put(&self, goal: &Board, boards: impl IntoIterator<Item = (Board, usize)>) {
        let mut kept = self.kept.lock().unwrap_or_else(|err| err.into_inner());
        for (board, distance) in boards {
            let key = (board, *goal);
            let distance = u16::try_from(distance).unwrap_or(u16::MAX);
            if kept.distance.insert(key, distance).is_none() {
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
        let distance = self.memo.get(start, goal)?;
        u32::try_from(distance).ok()
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
        if let Some(distance) = self.memo.get(start, goal) {
            return Ok(Some(distance));
        }
        let Some(beside) = self
            .metric()
            .beside(start)
            .into_iter()
            .filter_map(|board| self.memo.get(&board, goal))
            .min()
        else {
            return self.search_within(start, goal, 0, usize::MAX);
        };
        // One move changes the distance by one at most; in the single-tile
        // metric, by exactly one (the parity of the blank's cell). No bound
        // below one nearer is searched.
        let nearer = match self.metric() {
            Metric::Stm => beside.checked_sub(1),
            Metric::Mtm => Some(beside),
        };
        let found = match nearer {
            Some(cap) => self.search_within(start, goal, beside.saturating_sub(1), cap)?,
            None => None,
        };
        let distance = found.unwrap_or(beside + 1);
        self.memo.put(goal, [(*start, distance)]);
        Ok(Some(distance))
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
        let mut along = vec![(board, left)];
        for (at, &mv) in moves.iter().enumerate() {
            let Some(next) = board.moved(mv) else {
                return;
            };
            board = next;
            let run_ends = self.metric() == Metric::Stm || moves.get(at + 1) != Some(&mv);
            if run_ends {
                left -= 1;
                along.push((board, left));
            }
        }
        along.truncate(KEPT_OF_AN_ANSWER);
        self.memo.put(goal, along);
    }
}
