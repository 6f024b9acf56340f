//! The single-tile metric's tree ([`crate::deepen::Tree`]): a node's
//! children and the depth-first search below it under one bound.

use crate::answer::SolveError;
use crate::board::Board;
use crate::deepen::{Step, Tree, Walk};
use crate::ida::spread;
use crate::ida::state::State;
use crate::ida::{ROW, Searcher, View};
use crate::pdb::Values;
use crate::prune::{self, Pruner};
use crate::shape::{MAX_CELLS, Move};

/// The nodes of one search after which its next bounds leave out redundant
/// move sequences, by default: about 5 ms, so that the automaton (about 15
/// ms to make, once a process) is made for searches that gain from it.
pub(super) const PRUNE_AFTER: u64 = 10_000;

/// The nodes of one search after which its next bounds leave out the
/// redundant sequences of up to [`prune::LONGER`] moves, by default: about
/// 1.5 s on 2 cores, so that the next bound (5 to 10 times as many nodes)
/// is far longer than the automaton takes to make (about 0.6 s, once a
/// process).
pub(super) const PRUNE_LONGER_AFTER: u64 = 50_000_000;

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

/// A node of the search: the board as the views see it, its depth, its
/// last move and the pruner's state.
#[derive(Clone)]
pub(super) struct Node {
    pub(super) state: State,
    pub(super) g: u32,
    pub(super) last: Option<Move>,
    pub(super) fsm: u32,
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
    /// The start.
    pub(super) start: State,
}

impl<D: AsRef<[u8]> + Sync, const V: usize> Tree for Search<'_, D, V> {
    type Node = Node;

    fn root(&self, _: u32) -> Node {
        Node {
            state: self.start.clone(),
            g: 0,
            last: None,
            fsm: prune::START,
        }
    }

    fn is_goal(&self, node: &Node) -> bool {
        node.state.estimate() == 0 && node.state.is(self.goal)
    }

    /// Searches below `node` as [`Search::dfs`] does, with the entries
    /// spread if they are, else fetched ahead if the databases ask for it.
    fn down(&self, walk: &mut Walk<'_>, node: &mut Node, bound: u32) -> Step {
        let (ahead, spread, bytes, walls) = (
            self.solver.ahead,
            !self.spread.is_empty(),
            self.solver.bytes,
            self.solver.walls,
        );
        let Node {
            state,
            g,
            last,
            fsm,
        } = node;
        let (g, last, fsm) = (*g, *last, *fsm);
        match (ahead, spread, bytes, walls) {
            (_, true, _, _) => {
                self.dfs::<false, true, false, false>(walk, state, g, bound, last, fsm)
            }
            (true, false, _, true) => {
                self.dfs::<true, false, false, true>(walk, state, g, bound, last, fsm)
            }
            (false, false, _, true) => {
                self.dfs::<false, false, false, true>(walk, state, g, bound, last, fsm)
            }
            (true, false, true, false) => {
                self.dfs::<true, false, true, false>(walk, state, g, bound, last, fsm)
            }
            (true, false, false, false) => {
                self.dfs::<true, false, false, false>(walk, state, g, bound, last, fsm)
            }
            (false, false, true, false) => {
                self.dfs::<false, false, true, false>(walk, state, g, bound, last, fsm)
            }
            (false, false, false, false) => {
                self.dfs::<false, false, false, false>(walk, state, g, bound, last, fsm)
            }
        }
    }

    fn children(
        &self,
        node: &Node,
        bound: u32,
        over: &mut u32,
        generated: &mut u64,
    ) -> Vec<(Move, Node, bool)> {
        let spread = !self.spread.is_empty();
        let (moves, count) = self.moves(node.state.blank, node.last, node.fsm);
        *generated += count as u64;
        let mut children = Vec::with_capacity(count);
        for &(mv, target, next) in &moves[..count] {
            let target = usize::from(target);
            let mut state = node.state.clone();
            // Each play keeps what its search reads: the subtree is
            // searched as its bound is.
            let (solver, values, views) = (self.solver, self.values, self.views);
            let child = match (spread, self.solver.walls) {
                (true, _) => state.child::<false, true, false, false, V>(
                    solver,
                    self.spread,
                    values,
                    views,
                    target,
                    &[0; V],
                ),
                (false, true) => state.child::<false, false, false, true, V>(
                    solver,
                    &[],
                    values,
                    views,
                    target,
                    &[0; V],
                ),
                (false, false) => state.child::<false, false, false, false, V>(
                    solver,
                    &[],
                    values,
                    views,
                    target,
                    &[0; V],
                ),
            };
            let f = node.g + 1 + child.estimate;
            if f > bound {
                *over = (*over).min(f);
                continue;
            }
            match (spread, self.solver.walls) {
                (true, _) => state.play::<V, true, false>(views, target, &child),
                (false, true) => state.play::<V, false, true>(views, target, &child),
                (false, false) => state.play::<V, false, false>(views, target, &child),
            };
            let goal = child.estimate == 0 && state.is(self.goal);
            let child = Node {
                state,
                g: node.g + 1,
                last: Some(mv),
                fsm: next,
            };
            children.push((mv, child, goal));
        }
        children
    }

    fn next_bound(&mut self, nodes: u64) -> Result<(), SolveError> {
        let solver = self.solver;
        if self.spread.is_empty()
            && let Some(after) = solver.spread_after
        {
            if let Some(spread) = solver.spread.get() {
                self.spread = spread;
            } else if nodes >= after {
                self.again();
            }
        }
        // The longest automaton the nodes searched so far pay for.
        let past = |after: Option<u64>| after.is_some_and(|after| nodes >= after);
        if past(solver.prune_longer_after) {
            self.pruner = prune::longer();
        } else if past(solver.prune_after) {
            self.pruner = prune::pruner();
        }
        Ok(())
    }

    fn again_after(&self) -> u64 {
        match self.spread.is_empty() {
            true => self.solver.spread_after.unwrap_or(u64::MAX),
            false => u64::MAX,
        }
    }

    /// The same bound with the entries spread.
    fn again(&mut self) {
        let solver = self.solver;
        self.spread = solver
            .spread
            .get_or_init(|| spread::spread(&solver.table, &solver.groups));
    }
}

impl<'s, D: AsRef<[u8]> + Sync, const V: usize> Search<'s, D, V> {
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

    /// Searches below `state`, which is within `bound` at depth `g` and not
    /// the goal. Each child is looked at before it is entered, so that a
    /// child over the bound costs no move and no call. With `AHEAD`, a
    /// node's children's entries are fetched before the first is looked at.
    /// With `BYTES`, every group's entries are in bytes; with `WALLS`, in
    /// bytes beside the cells of the blank each group walls in.
    pub(super) fn dfs<
        const AHEAD: bool,
        const SPREAD: bool,
        const BYTES: bool,
        const WALLS: bool,
    >(
        &self,
        walk: &mut Walk<'_>,
        state: &mut State,
        g: u32,
        bound: u32,
        last: Option<Move>,
        fsm: u32,
    ) -> Step {
        if let Err(step) = walk.enter() {
            return step;
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
        walk.generated += count as u64;
        let mut least = u32::MAX;
        for (&(mv, target, next), ranks) in children[..count].iter().zip(&ranks) {
            let target = usize::from(target);
            let child = state.child::<AHEAD, SPREAD, BYTES, WALLS, V>(
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
            let undo = state.play::<V, SPREAD, WALLS>(self.views, target, &child);
            walk.path.push(mv);
            if child.estimate == 0 && state.is(self.goal) {
                return Step::Found;
            }
            match self.dfs::<AHEAD, SPREAD, BYTES, WALLS>(walk, state, g + 1, bound, Some(mv), next)
            {
                Step::Over(over) => least = least.min(over),
                done => return done,
            }
            walk.path.pop();
            state.unplay::<V, SPREAD, WALLS>(self.views, from, &undo);
        }
        Step::Over(least)
    }
}
