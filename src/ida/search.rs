//! The depth-first search under one bound, split into tasks searched on
//! every core once it is long.

use crate::board::Board;
use crate::ida::state::State;
use crate::ida::{CHANGE_CHECK, ROW, Searcher, View};
use crate::pdb::Values;
use crate::prune::{self, Pruner};
use crate::shape::{MAX_CELLS, Move};
use crate::split;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The nodes of a bound after which the next bound is searched on every
/// core, by default. A bound takes a few times the nodes of the one before,
/// so threads start for bounds of tens of milliseconds or more.
pub(super) const PARALLEL_AFTER: u64 = 100_000;

/// The nodes of one search after which its next bounds leave out redundant
/// move sequences, by default: about 5 ms, so that the automaton (about 15
/// ms to make, once a process) is made for searches that gain from it.
pub(super) const PRUNE_AFTER: u64 = 10_000;

/// The subtrees a bound is split into, at least, for each thread.
pub(super) const TASKS_PER_THREAD: usize = 32;

/// The moves the blank may take from each cell after each last move, and
/// how many: [`Search::options`].
pub(super) type Options = [[([(Move, u8); 4], u8); 5]; MAX_CELLS];

/// The [`Options`] of `shape`: every move onto the board but the one back.
pub(super) fn options(shape: crate::shape::Shape) -> Options {
    let neighbors: [[Option<u8>; 4]; MAX_CELLS] = shape.neighbor_table();
    let mut options = [[([(Move::Down, 0); 4], 0); 5]; MAX_CELLS];
    for (cell, lasts) in options.iter_mut().enumerate() {
        for (last, (list, n)) in lasts.iter_mut().enumerate() {
            for mv in Move::ALL {
                if last < 4 && mv.opposite().code() == last as u8 {
                    continue;
                }
                if let Some(target) = neighbors[cell][usize::from(mv.code())] {
                    list[usize::from(*n)] = (mv, target);
                    *n += 1;
                }
            }
        }
    }
    options
}

pub(super) enum Step {
    Found,
    /// Every path went over the bound; the smallest value over it.
    Over(u32),
    /// A mapped file under the databases changed: stop.
    Changed,
    /// The search passed the nodes after which the entries are spread.
    Spread,
    /// A subtree of a split bound after one where the goal was found: stop.
    Stopped,
    /// The search was asked to stop ([`crate::Stop`]).
    Halted,
}

/// How the search of a subtree of a split bound ended, after how many
/// nodes, on which path.
pub(super) struct Searched {
    pub(super) step: Step,
    pub(super) nodes: u64,
    pub(super) path: Vec<Move>,
}

/// A subtree of a split bound: the path to it, and the nodes the search
/// in one piece would have expanded before it.
pub(super) struct Task {
    pub(super) path: Vec<Move>,
    pub(super) before: u64,
    /// Whether the path ends on the goal, and the search there.
    pub(super) goal: bool,
}

pub(super) struct Search<'s, D, const V: usize> {
    pub(super) solver: &'s Searcher<D>,
    /// The move sequences not to follow.
    pub(super) pruner: &'s Pruner,
    /// The spread entries, once the search uses them; else empty.
    pub(super) spread: &'s [Vec<u8>],
    /// Each group's entries, looked up once a search (empty after the
    /// last group).
    pub(super) values: &'s [Values<'s>; ROW],
    pub(super) views: &'s [View; V],
    pub(super) goal: &'s Board,
    /// The moves the blank may take from each cell after each last move
    /// (by its code; 4 for none), in the order of their letters.
    pub(super) options: Options,
    pub(super) path: Vec<Move>,
    pub(super) nodes: u64,
    /// For a subtree of a split bound: the lowest subtree where the goal
    /// has been found so far, and this one.
    pub(super) stop: Option<(&'s AtomicUsize, usize)>,
    /// Asked from outside: ends the search with [`Step::Halted`].
    pub(super) halt: &'s crate::stop::Stop,
}

impl<'s, D: AsRef<[u8]> + Sync, const V: usize> Search<'s, D, V> {
    /// Searches below `state` as [`Search::dfs`] does, with the entries
    /// spread if they are, else fetched ahead if the databases ask for it.
    pub(super) fn run(
        &mut self,
        state: &mut State,
        g: u32,
        bound: u32,
        last: Option<Move>,
        fsm: u32,
    ) -> Step {
        let (ahead, spread, bytes) = (
            self.solver.ahead,
            !self.spread.is_empty(),
            self.solver.bytes,
        );
        match (ahead, spread, bytes) {
            (_, true, _) => self.dfs::<false, true, false>(state, g, bound, last, fsm),
            (true, false, true) => self.dfs::<true, false, true>(state, g, bound, last, fsm),
            (true, false, false) => self.dfs::<true, false, false>(state, g, bound, last, fsm),
            (false, false, true) => self.dfs::<false, false, true>(state, g, bound, last, fsm),
            (false, false, false) => self.dfs::<false, false, false>(state, g, bound, last, fsm),
        }
    }

    /// Searches one bound from `root`, the board `start`, on every thread:
    /// the first levels are cut into subtrees, in the order the search in
    /// one piece meets them, and the threads take them in turn. The first
    /// subtree to hold the goal gives the answer, as in one piece; those
    /// after it stop. The nodes counted are those of the search in one
    /// piece.
    pub(super) fn split(&mut self, start: &Board, root: &State, bound: u32) -> Step {
        let threads = self.solver.threads;
        let mut tasks = Vec::new();
        let mut least = u32::MAX;
        let nodes = self.nodes;
        for depth in (2..).step_by(2) {
            tasks.clear();
            least = u32::MAX;
            self.nodes = 0;
            self.path.clear();
            let mut state = root.clone();
            let whole = self.cut(
                &mut state,
                0,
                bound,
                None,
                prune::START,
                depth,
                &mut tasks,
                &mut least,
            );
            if whole || tasks.len() >= TASKS_PER_THREAD * threads || depth >= bound {
                break;
            }
        }
        let inside = self.nodes;
        self.nodes = nodes;
        self.path.clear();
        let (solver, pruner, spread, values, views, goal, options, halt) = (
            self.solver,
            self.pruner,
            self.spread,
            self.values,
            self.views,
            self.goal,
            self.options,
            self.halt,
        );
        let search = |task: &Task, i: usize, found: &AtomicUsize| {
            if task.goal {
                return Searched {
                    step: Step::Found,
                    nodes: 0,
                    path: task.path.clone(),
                };
            }
            let board = start.after(&task.path).expect("the path was played");
            let mut state = State::new(solver, views, &board);
            let mut search = Search {
                solver,
                pruner,
                spread,
                values,
                views,
                goal,
                options,
                path: task.path.clone(),
                nodes: 0,
                stop: Some((found, i)),
                halt,
            };
            let g = task.path.len() as u32;
            let fsm = search.pruner.after(&task.path);
            let step = search.run(&mut state, g, bound, task.path.last().copied(), fsm);
            Searched {
                step,
                nodes: search.nodes,
                path: search.path,
            }
        };
        let results = split::in_order(&tasks, threads, search, |searched| {
            matches!(searched.step, Step::Found)
        });
        let mut done = 0;
        for (task, result) in tasks.iter().zip(results) {
            let Searched { step, nodes, path } =
                result.expect("every subtree up to the first with the goal is searched");
            done += nodes;
            match step {
                Step::Over(over) => least = least.min(over),
                Step::Found => {
                    self.nodes += task.before + done;
                    self.path = path;
                    return Step::Found;
                }
                Step::Changed => return Step::Changed,
                Step::Halted => return Step::Halted,
                Step::Spread | Step::Stopped => unreachable!("no subtree before the goal stops"),
            }
        }
        self.nodes += inside + done;
        Step::Over(least)
    }

    /// The moves a node may take, in the order of their letters, and how
    /// many: not back to where the blank came from (`last`), on the board,
    /// and not ending a redundant sequence. Each with the blank's new cell
    /// and the pruner's state after it.
    #[inline(always)]
    pub(super) fn moves(
        &self,
        blank: usize,
        last: Option<Move>,
        fsm: u32,
    ) -> ([(Move, u8, u32); 4], usize) {
        let mut moves = [(Move::Down, 0, 0); 4];
        let count = self.each_move(blank, last, fsm, |i, child| moves[i] = child);
        (moves, count)
    }

    /// Hands `each` the moves of [`Search::moves`] with the index each
    /// takes, and returns how many there are. A move that ends a redundant
    /// sequence is handed too, with [`prune::DEAD`], at the index the next
    /// move takes, and not counted: a node lists its moves with no branch
    /// on the pruner, and does what it does with each in the same loop.
    #[inline(always)]
    fn each_move(
        &self,
        blank: usize,
        last: Option<Move>,
        fsm: u32,
        mut each: impl FnMut(usize, (Move, u8, u32)),
    ) -> usize {
        let mut count = 0;
        let (options, n) = &self.options[blank][last.map_or(4, |mv| usize::from(mv.code()))];
        for &(mv, target) in &options[..usize::from(*n)] {
            let next = self.pruner.step(fsm, mv);
            each(count, (mv, target, next));
            count += usize::from(next != prune::DEAD);
        }
        count
    }

    /// Walks the first `depth` levels below `state` as [`Search::dfs`]
    /// would, and lists the subtrees below them in `tasks`; `least` takes
    /// the smallest value over the bound. Returns whether the goal was met
    /// on the way (the last task then ends there).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn cut(
        &mut self,
        state: &mut State,
        g: u32,
        bound: u32,
        last: Option<Move>,
        fsm: u32,
        depth: u32,
        tasks: &mut Vec<Task>,
        least: &mut u32,
    ) -> bool {
        if depth == 0 {
            tasks.push(Task {
                path: self.path.clone(),
                before: self.nodes,
                goal: false,
            });
            return false;
        }
        self.nodes += 1;
        let (moves, count) = self.moves(state.blank, last, fsm);
        for &(mv, target, next) in &moves[..count] {
            let target = usize::from(target);
            let child = state.child::<false, false, false, V>(
                self.solver,
                &[],
                self.values,
                self.views,
                target,
                &[0; V],
            );
            let f = g + 1 + child.estimate;
            if f > bound {
                *least = (*least).min(f);
                continue;
            }
            let from = state.blank;
            let undo = state.play::<V, false>(self.views, target, &child);
            self.path.push(mv);
            if child.estimate == 0 && state.is(self.goal) {
                tasks.push(Task {
                    path: self.path.clone(),
                    before: self.nodes,
                    goal: true,
                });
                return true;
            }
            if self.cut(state, g + 1, bound, Some(mv), next, depth - 1, tasks, least) {
                return true;
            }
            self.path.pop();
            state.unplay::<V, false>(self.views, from, &undo);
        }
        false
    }

    /// Searches below `state`, which is within `bound` at depth `g` and not
    /// the goal. Each child is looked at before it is entered, so that a
    /// child over the bound costs no move and no call. With `AHEAD`, a
    /// node's children's entries are fetched before the first is looked at.
    /// With `BYTES`, every group's entries are in bytes.
    pub(super) fn dfs<const AHEAD: bool, const SPREAD: bool, const BYTES: bool>(
        &mut self,
        state: &mut State,
        g: u32,
        bound: u32,
        last: Option<Move>,
        fsm: u32,
    ) -> Step {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHANGE_CHECK) {
            if self.solver.data_changed() {
                return Step::Changed;
            }
            if self.halt.is_stopped() {
                return Step::Halted;
            }
            if let Some((found, me)) = self.stop
                && found.load(Ordering::Relaxed) < me
            {
                return Step::Stopped;
            }
            // A subtree of a split bound keeps to what the bound started
            // with.
            if !SPREAD
                && self.stop.is_none()
                && self
                    .solver
                    .spread_after
                    .is_some_and(|after| self.nodes >= after)
            {
                return Step::Spread;
            }
        }
        // The moves, as [`Search::moves`] lists them, in the same loop as
        // the asks for their entries: one loop end to foresee, not two.
        let mut children = [(Move::Down, 0, 0); 4];
        let mut ranks = [[0u32; V]; 4];
        let count = self.each_move(state.blank, last, fsm, |i, child| {
            children[i] = child;
            let target = usize::from(child.1);
            if SPREAD {
                state.prefetch_spread(self.solver, self.spread, self.views, target);
            }
            if AHEAD {
                ranks[i] = state.ranks(self.solver, self.views, target);
                for (view, &rank) in ranks[i].iter().enumerate() {
                    let tile = self.views[view].tile[usize::from(state.cells[target])];
                    let group = usize::from(self.solver.group_of[usize::from(tile)]);
                    let values = self.values[group & (ROW - 1)];
                    match BYTES {
                        true => crate::mem::prefetch(values.raw(), rank as usize),
                        false => values.prefetch(rank as usize),
                    }
                }
            }
        });
        let mut least = u32::MAX;
        for (&(mv, target, next), ranks) in children[..count].iter().zip(&ranks) {
            let target = usize::from(target);
            let child = state.child::<AHEAD, SPREAD, BYTES, V>(
                self.solver,
                self.spread,
                self.values,
                self.views,
                target,
                ranks,
            );
            let f = g + 1 + child.estimate;
            if f > bound {
                least = least.min(f);
                continue;
            }
            let from = state.blank;
            let undo = state.play::<V, SPREAD>(self.views, target, &child);
            self.path.push(mv);
            if child.estimate == 0 && state.is(self.goal) {
                return Step::Found;
            }
            match self.dfs::<AHEAD, SPREAD, BYTES>(state, g + 1, bound, Some(mv), next) {
                Step::Over(over) => least = least.min(over),
                done => return done,
            }
            self.path.pop();
            state.unplay::<V, SPREAD>(self.views, from, &undo);
        }
        Step::Over(least)
    }
}
