//! Bounds a search learned, kept for the searches of the boards beside it.
//!
//! A player's boards follow one another a move apart, and their searches
//! walk much the same positions. Below a position whose search within a
//! budget ended with no answer, no answer is that near: its distance (the
//! way of the run it is in being free, as the search counts it) is at least
//! one more than the budget. A search asked to learn keeps that for the
//! positions near its start whose search took many nodes, and a later
//! search that meets one of them with no more budget left than it needs
//! passes it by at once. The bounds depend on the position and its run
//! alone, never on the path to it, so every answer stays the one the
//! search with no bounds gives: a position passed by holds no answer
//! within its budget.
//!
//! A search reads the bounds kept when it starts and those it learned in
//! its bounds before, never those of the bound it is in, and adds what it
//! learned when it ends. Its nodes depend on the searches before it, and on
//! the threads (the positions a bound cut among them is cut at learn
//! nothing); its answer on neither.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::shape::{MAX_CELLS, Move};

/// Positions kept at most (13 bytes each, in a table of under 5 MB):
/// past it, all are forgotten at once. A search learns no more than that
/// in a bound, and in all.
const KEPT: usize = 1 << 17;

/// Letters from the start within which positions are looked up and kept.
pub(super) const DEPTH: usize = 12;

/// The nodes below a position after which its bound is kept.
pub(super) const NODES: u64 = 512;

/// Per position (its cells, 4 bits each, on at most 16 cells), the least
/// distance known for each run it may be in (none, then `d l r u`).
type Bounds = HashMap<u64, [u8; 5]>;

/// The bounds kept toward one goal.
#[derive(Debug, Default)]
pub(super) struct Kept {
    bounds: Mutex<Arc<Bounds>>,
}

impl Kept {
    /// A search's learning, from the bounds kept now.
    pub(super) fn learning(&self) -> Learning {
        let known = Arc::clone(&self.bounds.lock().unwrap_or_else(|e| e.into_inner()));
        Learning {
            known,
            fresh: Bounds::new(),
            bound: Mutex::new(Vec::new()),
        }
    }

    /// Keeps what `learning` learned.
    pub(super) fn keep(&self, mut learning: Learning) {
        learning.end_bound();
        if learning.fresh.is_empty() {
            return;
        }
        drop(learning.known);
        let mut bounds = self.bounds.lock().unwrap_or_else(|e| e.into_inner());
        if bounds.len() + learning.fresh.len() > KEPT {
            *bounds = Arc::default();
        }
        // Copied only while a search still reads it.
        let bounds = Arc::make_mut(&mut bounds);
        for (key, fresh) in learning.fresh {
            let least = bounds.entry(key).or_default();
            for (least, fresh) in least.iter_mut().zip(fresh) {
                *least = (*least).max(fresh);
            }
        }
    }
}

/// What a search knows and learns.
pub(super) struct Learning {
    /// The bounds kept when it started.
    known: Arc<Bounds>,
    /// The bounds it learned in its bounds before this one.
    fresh: Bounds,
    /// The bounds learned in this bound, by every thread.
    bound: Mutex<Vec<(u64, usize, u8)>>,
}

impl Learning {
    /// The key of a position of `n` cells.
    #[inline(always)]
    pub(super) fn key(cells: &[u8; MAX_CELLS], n: usize) -> u64 {
        cells[..n]
            .iter()
            .fold(0, |key, &tile| (key << 4) | u64::from(tile))
    }

    /// Whether the position of `key` in the run of `run` is known to be
    /// more than `budget` moves from the goal.
    #[inline(always)]
    pub(super) fn beyond(&self, key: u64, run: Option<Move>, budget: u32) -> bool {
        let at = slot(run);
        [&self.known, &self.fresh]
            .into_iter()
            .filter_map(|bounds| bounds.get(&key))
            .any(|least| u32::from(least[at]) > budget)
    }

    /// Keeps, once the bound ends, that the position of `key` in the run
    /// of `run` has no answer within `budget` moves.
    pub(super) fn learn(&self, key: u64, run: Option<Move>, budget: u32) {
        let least = u8::try_from(budget + 1).unwrap_or(u8::MAX);
        let mut bound = self.bound.lock().unwrap_or_else(|e| e.into_inner());
        if bound.len() < KEPT {
            bound.push((key, slot(run), least));
        }
    }

    /// Adds what the bound that ended learned to what the next reads.
    pub(super) fn end_bound(&mut self) {
        let bound = self.bound.get_mut().unwrap_or_else(|e| e.into_inner());
        for (key, at, least) in bound.drain(..) {
            let room = self.fresh.len() < KEPT;
            if let Some(known) = match room {
                true => Some(self.fresh.entry(key).or_default()),
                false => self.fresh.get_mut(&key),
            } {
                known[at] = known[at].max(least);
            }
        }
    }
}

/// The place of a run among a position's bounds.
#[inline(always)]
fn slot(run: Option<Move>) -> usize {
    run.map_or(0, |way| 1 + usize::from(way.code()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_learned_holds_for_its_run_and_less_budget() {
        let kept = Kept::default();
        let mut learning = kept.learning();
        learning.learn(7, Some(Move::Left), 20);
        // Not read in the bound that learned it.
        assert!(!learning.beyond(7, Some(Move::Left), 19));
        learning.end_bound();
        assert!(learning.beyond(7, Some(Move::Left), 20));
        assert!(!learning.beyond(7, Some(Move::Left), 21));
        assert!(!learning.beyond(7, None, 20));
        assert!(!learning.beyond(7, Some(Move::Right), 20));
        assert!(!learning.beyond(8, Some(Move::Left), 20));
        kept.keep(learning);
        // A later search reads it.
        assert!(kept.learning().beyond(7, Some(Move::Left), 20));
    }

    #[test]
    fn what_is_learned_and_kept_stays_bounded() {
        let kept = Kept::default();
        for round in 0..3u64 {
            let mut learning = kept.learning();
            for bound in 0..2u64 {
                for key in 0..KEPT as u64 + 10 {
                    learning.learn((round * 4 + bound) << 32 | key, None, 30);
                }
                learning.end_bound();
                assert!(learning.fresh.len() <= KEPT);
            }
            kept.keep(learning);
            let bounds = kept.bounds.lock().unwrap();
            assert!((1..=KEPT).contains(&bounds.len()), "{}", bounds.len());
        }
    }
}
