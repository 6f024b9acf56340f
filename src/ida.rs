//! Optimal answers for boards too large for a table: IDA* guided by additive
//! pattern databases ([`crate::pdb`]).
//!
//! The search deepens a bound on the answer's length until a path fits under
//! it. Moves are tried in the order `d l r u`, so the first answer found
//! under the last bound is, of the shortest answers, the lexicographically
//! smallest: a prefix of any shortest answer is never cut, since the
//! heuristic never overestimates.
//!
//! # Goals and symmetries
//!
//! One set of databases serves every goal whose blank a symmetry of the
//! board maps onto the databases' goal's blank cell, on the databases' shape
//! or its transpose: the search runs in the user's frame, with the user's
//! moves in the user's order, and only the lookups see the board through the
//! symmetry, its tiles renamed so that the goal becomes the databases' goal.
//! Every symmetry that keeps the blank of the databases' goal in its cell
//! gives a second view of the same board, as far from the goal (the board
//! reflected about the main diagonal, for a goal with the blank in a corner),
//! and the heuristic is the largest sum over the views.
//!
//! The bound never passes the shape's [diameter](crate::Shape::diameter_bound):
//! a search that would is refused as a sign of wrong databases, never run
//! without end.

use crate::board::Board;
use crate::pdb::PdbTable;
use crate::rank::placements;
use crate::shape::{MAX_CELLS, Move, Symmetry};
use crate::solver::{Solution, SolveError};

/// The most views of one board: the symmetries that keep a cell in place
/// (all eight keep the middle cell of 3x3, four the middle of 3x5).
const MAX_VIEWS: usize = 8;

/// The most groups of tiles: one a tile.
const MAX_GROUPS: usize = MAX_CELLS;

/// The size of a group's entries, in bytes, from which the search fetches
/// them a node ahead ([`Searcher::fetch_ahead`]): more than the last level
/// of cache. Measured on Korf's 100: 7-8 databases (519 MB) gain, the built-in
/// 6-6-3 (2.9 MB a group) lose to the extra work.
const AHEAD_FROM: usize = 64 << 20;

/// Nodes between two looks at whether a mapped file changed.
const CHANGE_CHECK: u64 = 1 << 14;

/// An IDA* search toward the goals a set of pattern databases serves.
pub struct Searcher<D> {
    table: PdbTable<D>,
    /// The databases' goal, in their frame.
    goal: Board,
    /// The group of each tile of the databases' goal.
    group_of: [u8; MAX_CELLS],
    /// The groups, with the weights of their ranks.
    groups: Vec<Group>,
    /// `distance[tile][cell]`: how far a tile on a cell is from its home.
    distance: [[u8; MAX_CELLS]; MAX_CELLS],
    /// The symmetries of the databases' shape that keep their goal's blank
    /// in its cell: one view each.
    views: Vec<Symmetry>,
    /// The longest answer the search looks for.
    bound: u32,
    /// Whether the entries are fetched a node ahead: for databases too large
    /// for the cache, where each lookup is a trip to memory.
    ahead: bool,
}

impl<D> std::fmt::Debug for Searcher<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("goal", &self.goal)
            .field("views", &self.views.len())
            .finish_non_exhaustive()
    }
}

/// How one view sees the user's board: the cell of the databases' frame
/// each user cell is on, and the databases' tile each user tile is.
#[derive(Clone, Copy, Debug)]
struct View {
    cell: [u8; MAX_CELLS],
    tile: [u8; MAX_CELLS],
}

impl<D: AsRef<[u8]>> Searcher<D> {
    /// A search over `table`, whose groups hold every tile once (the file
    /// format makes sure of it).
    pub fn new(table: PdbTable<D>) -> Searcher<D> {
        let goal = *table.goal();
        let shape = goal.shape();
        let mut group_of = [0u8; MAX_CELLS];
        let mut groups = Vec::with_capacity(table.len());
        for g in 0..table.len() {
            let tiles = table.tiles(g);
            let mut group = Group {
                tiles: [0; MAX_CELLS],
                weights: [0; MAX_CELLS],
                len: tiles.len(),
            };
            for &tile in tiles {
                group_of[usize::from(tile)] = g as u8;
            }
            group.tiles[..tiles.len()].copy_from_slice(tiles);
            // The digit of the i-th tile counts the cells left to it; the
            // placements of the tiles after it multiply it.
            for i in 0..tiles.len() {
                group.weights[i] = placements(shape.cells() - i - 1, tiles.len() - i - 1) as u32;
            }
            groups.push(group);
        }
        let mut distance = [[0u8; MAX_CELLS]; MAX_CELLS];
        for (home, &tile) in goal.cells().iter().enumerate() {
            for (cell, d) in distance[usize::from(tile)]
                .iter_mut()
                .enumerate()
                .take(shape.cells())
            {
                *d = shape.distance(home, cell) as u8;
            }
        }
        let views = Symmetry::of(shape)
            .filter(|s| s.cell(shape, goal.blank()) == goal.blank())
            .collect();
        let ahead = (0..table.len()).any(|g| table.values(g).bytes() > AHEAD_FROM);
        Searcher {
            goal,
            table,
            group_of,
            groups,
            distance,
            views,
            bound: shape.diameter_bound(),
            ahead,
        }
    }

    /// Sets whether the search fetches a node's children's entries before
    /// searching the first: chosen by the databases' size by default (on for
    /// groups over 64 MB). The answers and the nodes are the same either
    /// way; only the time differs.
    pub fn fetch_ahead(mut self, ahead: bool) -> Searcher<D> {
        self.ahead = ahead;
        self
    }

    /// The databases' goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The databases.
    pub fn table(&self) -> &PdbTable<D> {
        &self.table
    }

    /// The symmetry that maps `goal`'s frame onto the databases': its
    /// shape onto theirs and its blank onto their goal's blank. `None` if
    /// these databases do not serve `goal`.
    fn frame(&self, goal: &Board) -> Option<Symmetry> {
        let shape = goal.shape();
        Symmetry::all().find(|s| {
            s.shape(shape) == self.goal.shape() && s.cell(shape, goal.blank()) == self.goal.blank()
        })
    }

    /// Whether the search answers boards toward `goal`: a goal whose blank
    /// a symmetry maps onto the databases' goal's blank, on their shape or
    /// its transpose.
    pub fn serves(&self, goal: &Board) -> bool {
        self.frame(goal).is_some()
    }

    /// The views of boards toward `goal`, seen through `frame`.
    fn views(&self, goal: &Board, frame: Symmetry) -> Vec<View> {
        let shape = goal.shape();
        let db_shape = self.goal.shape();
        self.views
            .iter()
            .map(|view| {
                let mut cell = [0u8; MAX_CELLS];
                for (c, to) in cell.iter_mut().enumerate().take(shape.cells()) {
                    *to = view.cell(db_shape, frame.cell(shape, c)) as u8;
                }
                // A tile is the databases' goal's tile on the cell where the
                // user's goal has it.
                let mut tile = [0u8; MAX_CELLS];
                for (c, &t) in goal.cells().iter().enumerate() {
                    tile[usize::from(t)] = self.goal.cells()[usize::from(cell[c])];
                }
                View { cell, tile }
            })
            .collect()
    }

    /// The heuristic value of `board` toward the databases' goal: the
    /// largest of the views' sums.
    ///
    /// # Panics
    ///
    /// Panics if `board` is not of the databases' shape.
    pub fn estimate(&self, board: &Board) -> u32 {
        assert_eq!(
            board.shape(),
            self.goal.shape(),
            "a board of the databases' shape"
        );
        let views = self.views(&self.goal, Symmetry::IDENTITY);
        State::new(self, &views, board).estimate()
    }

    /// Finds the shortest moves from `start` to any `goal` these databases
    /// serve, and of those the lexicographically smallest; also the number
    /// of boards expanded.
    ///
    /// # Errors
    ///
    /// Fails if a board is of another shape, the databases do not serve the
    /// goal, or the search passes the longest answer of the shape (the
    /// databases are wrong).
    pub fn solve_to(&self, start: &Board, goal: &Board) -> Result<(Solution, u64), SolveError> {
        if start.shape() != goal.shape() {
            return Err(SolveError::Shape {
                expected: goal.shape(),
                got: start.shape(),
            });
        }
        let frame = self.frame(goal).ok_or(SolveError::NoData {
            shape: goal.shape(),
            blank: goal.blank(),
        })?;
        if !start.solvable_to(goal) {
            return Ok((Solution::Unsolvable, 0));
        }
        let views = self.views(goal, frame);
        let mut state = State::new(self, &views, start);
        let mut search = Search {
            solver: self,
            views: &views,
            goal,
            neighbors: goal.shape().neighbor_table(),
            path: Vec::new(),
            nodes: 0,
        };
        let mut bound = state.estimate();
        if bound == 0 && state.is(goal) {
            return Ok((Solution::Moves(Vec::new()), 0));
        }
        loop {
            if bound > self.bound {
                return Err(SolveError::TooDeep {
                    shape: goal.shape(),
                    bound: self.bound,
                });
            }
            let step = match self.ahead {
                true => search.dfs::<true>(&mut state, 0, bound, None),
                false => search.dfs::<false>(&mut state, 0, bound, None),
            };
            match step {
                Step::Found => return Ok((Solution::Moves(search.path), search.nodes)),
                Step::Over(next) => bound = next,
                Step::Changed => return Err(SolveError::Changed),
            }
        }
    }

    /// Finds the shortest moves from `start` to the databases' goal, as
    /// [`Searcher::solve_to`] does.
    ///
    /// # Errors
    ///
    /// As [`Searcher::solve_to`].
    pub fn solve(&self, start: &Board) -> Result<(Solution, u64), SolveError> {
        self.solve_to(start, &self.goal)
    }

    /// The value of group `g` for its tiles on `pos`, `manhattan` from home.
    #[inline(always)]
    fn value(&self, g: usize, pos: &[u8; MAX_CELLS], manhattan: u32) -> u32 {
        self.table.values(g).get(self.rank(g, pos), manhattan)
    }

    /// The rank of group `g`'s placement for its tiles on `pos`, as
    /// [`rank_placement`](crate::rank::rank_placement) finds it, with the
    /// weights of its digits at hand.
    #[inline(always)]
    fn rank(&self, g: usize, pos: &[u8; MAX_CELLS]) -> usize {
        let group = &self.groups[g];
        let mut seen = 0u32;
        let mut rank = 0u32;
        for (&tile, &weight) in group.tiles[..group.len].iter().zip(&group.weights) {
            let cell = u32::from(pos[usize::from(tile) % MAX_CELLS]) % 32;
            let below = (seen & ((1 << cell) - 1)).count_ones();
            rank += (cell - below) * weight;
            seen |= 1 << cell;
        }
        rank as usize
    }
}

/// A group's tiles and the weight of each one's digit in the rank of
/// their placement.
#[derive(Clone, Copy, Debug)]
struct Group {
    tiles: [u8; MAX_CELLS],
    weights: [u32; MAX_CELLS],
    len: usize,
}

/// The board as one view sees it: where each of the databases' tiles is,
/// and each group's Manhattan distance and value.
#[derive(Clone, Copy)]
struct Sight {
    pos: [u8; MAX_CELLS],
    manhattan: [u8; MAX_GROUPS],
    value: [u8; MAX_GROUPS],
    sum: u32,
}

/// The board being searched, in the user's frame, and how each view sees it.
struct State {
    cells: [u8; MAX_CELLS],
    blank: usize,
    sights: [Sight; MAX_VIEWS],
    count: usize,
}

/// One view's group that a move changes: its Manhattan distance and value
/// after the move, or before it, to undo it.
#[derive(Clone, Copy, Default)]
struct Undo {
    group: u8,
    manhattan: u8,
    value: u8,
}

/// A child as [`State::child`] sees it before the move: its estimate and
/// what changes in each view.
struct Child {
    estimate: u32,
    changes: [Undo; MAX_VIEWS],
}

impl State {
    fn new<D: AsRef<[u8]>>(solver: &Searcher<D>, views: &[View], board: &Board) -> State {
        let mut state = State {
            cells: [0; MAX_CELLS],
            blank: board.blank(),
            sights: [Sight {
                pos: [0; MAX_CELLS],
                manhattan: [0; MAX_GROUPS],
                value: [0; MAX_GROUPS],
                sum: 0,
            }; MAX_VIEWS],
            count: views.len(),
        };
        state.cells[..board.cells().len()].copy_from_slice(board.cells());
        for (view, sight) in views.iter().zip(&mut state.sights) {
            for (cell, &tile) in board.cells().iter().enumerate() {
                let tile = view.tile[usize::from(tile)];
                let cell = view.cell[cell];
                sight.pos[usize::from(tile)] = cell;
                if tile != 0 {
                    let g = usize::from(solver.group_of[usize::from(tile)]);
                    sight.manhattan[g] += solver.distance[usize::from(tile)][usize::from(cell)];
                }
            }
            for g in 0..solver.table.len() {
                let value = solver.value(g, &sight.pos, u32::from(sight.manhattan[g]));
                sight.value[g] = value.min(255) as u8;
                sight.sum += value;
            }
        }
        state
    }

    /// Whether the board is `goal`.
    #[inline(always)]
    fn is(&self, goal: &Board) -> bool {
        self.cells[..goal.cells().len()] == *goal.cells()
    }

    #[inline(always)]
    fn estimate(&self) -> u32 {
        self.sights[..self.count]
            .iter()
            .map(|sight| sight.sum)
            .max()
            .unwrap_or(0)
    }

    /// The rank each view looks up after the blank moves to `to`.
    #[inline(always)]
    fn ranks<D: AsRef<[u8]>>(
        &self,
        solver: &Searcher<D>,
        views: &[View],
        to: usize,
    ) -> [u32; MAX_VIEWS] {
        let tile = usize::from(self.cells[to]);
        let mut ranks = [0; MAX_VIEWS];
        for ((view, sight), rank) in views.iter().zip(&self.sights).zip(&mut ranks) {
            let tile = usize::from(view.tile[tile]);
            let g = usize::from(solver.group_of[tile]);
            let mut pos = sight.pos;
            pos[tile] = view.cell[self.blank];
            // Below MAX_SECTION_ENTRIES, 2^30.
            *rank = solver.rank(g, &pos) as u32;
        }
        ranks
    }

    /// How each view sees the board after the blank moves to `to`, without
    /// moving it: only the moved tile's group changes, to the entry of
    /// `ranks[view]` when `AHEAD`, else of the rank found here.
    #[inline(always)]
    fn child<D: AsRef<[u8]>, const AHEAD: bool>(
        &self,
        solver: &Searcher<D>,
        views: &[View],
        to: usize,
        ranks: &[u32; MAX_VIEWS],
    ) -> Child {
        let tile = usize::from(self.cells[to]);
        let mut child = Child {
            estimate: 0,
            changes: [Undo::default(); MAX_VIEWS],
        };
        for (((view, sight), change), &rank) in views
            .iter()
            .zip(&self.sights)
            .zip(&mut child.changes)
            .zip(ranks)
        {
            let tile = usize::from(view.tile[tile]);
            let old = usize::from(sight.pos[tile]);
            let new = view.cell[self.blank];
            let g = usize::from(solver.group_of[tile]);
            let distances = &solver.distance[tile];
            let manhattan = sight.manhattan[g] + distances[usize::from(new)] - distances[old];
            let rank = match AHEAD {
                true => rank as usize,
                false => {
                    let mut pos = sight.pos;
                    pos[tile] = new;
                    solver.rank(g, &pos)
                }
            };
            let value = solver.table.values(g).get(rank, u32::from(manhattan));
            child.estimate = child
                .estimate
                .max(sight.sum + value - u32::from(sight.value[g]));
            *change = Undo {
                group: g as u8,
                manhattan,
                value: value.min(255) as u8,
            };
        }
        child
    }

    /// Moves the blank to `to`, where [`State::child`] saw it as `child`;
    /// returns what undoes it.
    #[inline(always)]
    fn play(&mut self, views: &[View], to: usize, child: &Child) -> [Undo; MAX_VIEWS] {
        let from = self.blank;
        let tile = self.cells[to];
        self.cells.swap(from, to);
        self.blank = to;
        let mut undo = [Undo::default(); MAX_VIEWS];
        for (((view, sight), undo), change) in views
            .iter()
            .zip(&mut self.sights)
            .zip(&mut undo)
            .zip(&child.changes)
        {
            sight.pos[usize::from(view.tile[usize::from(tile)])] = view.cell[from];
            let g = usize::from(change.group);
            *undo = Undo {
                group: change.group,
                manhattan: sight.manhattan[g],
                value: sight.value[g],
            };
            sight.sum = sight.sum + u32::from(change.value) - u32::from(sight.value[g]);
            sight.manhattan[g] = change.manhattan;
            sight.value[g] = change.value;
        }
        undo
    }

    /// Takes back the move that brought the blank from `from`.
    #[inline(always)]
    fn unplay(&mut self, views: &[View], from: usize, undo: &[Undo; MAX_VIEWS]) {
        let to = self.blank;
        let tile = self.cells[from];
        self.cells.swap(from, to);
        self.blank = from;
        for ((view, sight), undo) in views.iter().zip(&mut self.sights).zip(undo) {
            sight.pos[usize::from(view.tile[usize::from(tile)])] = view.cell[to];
            let g = usize::from(undo.group);
            sight.sum = sight.sum - u32::from(sight.value[g]) + u32::from(undo.value);
            sight.value[g] = undo.value;
            sight.manhattan[g] = undo.manhattan;
        }
    }
}

enum Step {
    Found,
    /// Every path went over the bound; the smallest value over it.
    Over(u32),
    /// A mapped file under the databases changed: stop.
    Changed,
}

struct Search<'s, D> {
    solver: &'s Searcher<D>,
    views: &'s [View],
    goal: &'s Board,
    neighbors: [[Option<u8>; 4]; MAX_CELLS],
    path: Vec<Move>,
    nodes: u64,
}

impl<D: AsRef<[u8]>> Search<'_, D> {
    /// Searches below `state`, which is within `bound` at depth `g` and not
    /// the goal. Each child is looked at before it is entered, so that a
    /// child over the bound costs no move and no call. With `AHEAD`, a
    /// node's children's entries are fetched before the first is looked at.
    fn dfs<const AHEAD: bool>(
        &mut self,
        state: &mut State,
        g: u32,
        bound: u32,
        last: Option<Move>,
    ) -> Step {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHANGE_CHECK) && crate::map::changed() {
            return Step::Changed;
        }
        let mut children = [(Move::Down, 0u8); 4];
        let mut ranks = [[0u32; MAX_VIEWS]; 4];
        let mut count = 0;
        for mv in Move::ALL {
            if last == Some(mv.opposite()) {
                continue;
            }
            let Some(target) = self.neighbors[state.blank][usize::from(mv.code())] else {
                continue;
            };
            children[count] = (mv, target);
            if AHEAD {
                ranks[count] = state.ranks(self.solver, self.views, usize::from(target));
                for (view, &rank) in ranks[count].iter().enumerate().take(self.views.len()) {
                    let tile = self.views[view].tile[usize::from(state.cells[usize::from(target)])];
                    let group = usize::from(self.solver.group_of[usize::from(tile)]);
                    self.solver.table.values(group).prefetch(rank as usize);
                }
            }
            count += 1;
        }
        let mut least = u32::MAX;
        for (&(mv, target), ranks) in children[..count].iter().zip(&ranks) {
            let target = usize::from(target);
            let child = state.child::<D, AHEAD>(self.solver, self.views, target, ranks);
            let f = g + 1 + child.estimate;
            if f > bound {
                least = least.min(f);
                continue;
            }
            let from = state.blank;
            let undo = state.play(self.views, target, &child);
            self.path.push(mv);
            if child.estimate == 0 && state.is(self.goal) {
                return Step::Found;
            }
            match self.dfs::<AHEAD>(state, g + 1, bound, Some(mv)) {
                Step::Over(over) => least = least.min(over),
                done => return done,
            }
            self.path.pop();
            state.unplay(self.views, from, &undo);
        }
        Step::Over(least)
    }
}
