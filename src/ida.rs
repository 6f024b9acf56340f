//! Optimal answers for boards too large for a table: IDA* guided by additive
//! pattern databases ([`crate::pdb`]).
//!
//! The search deepens a bound on the answer's length until a path fits under
//! it. The heuristic adds up the groups' database values; it also looks up
//! the board reflected about the main diagonal (a board as far from the goal
//! as the original, when the goal is its own reflection) and keeps the larger
//! value. Moves are tried in the order `d l r u`, so the first answer found
//! under the last bound is, of the shortest answers, the lexicographically
//! smallest: a prefix of any shortest answer is never cut, since the
//! heuristic never overestimates.
//!
//! The bound never passes the shape's [diameter](crate::Shape::diameter_bound): a
//! search that would is refused as a sign of wrong databases, never run
//! without end.

use crate::board::Board;
use crate::pdb::PdbTable;
use crate::rank::rank_placement;
use crate::shape::{MAX_CELLS, Move};
use crate::solver::{Solution, SolveError};

/// An IDA* search toward the goal of a set of pattern databases.
#[derive(Debug)]
pub struct Searcher<D> {
    table: PdbTable<D>,
    goal: Board,
    /// Each group's tiles.
    groups: Vec<Vec<u8>>,
    /// The group of each tile.
    group_of: [u8; MAX_CELLS],
    /// The reflection, when the goal is its own reflection.
    mirror: Option<Mirror>,
    /// `neighbors[cell][move code]`: where the blank goes.
    neighbors: [[Option<u8>; 4]; MAX_CELLS],
    /// The longest answer the search looks for.
    bound: u32,
}

/// The reflection about the main diagonal: the cell each cell reflects to,
/// and the tile each tile is renamed to.
#[derive(Clone, Copy, Debug)]
struct Mirror {
    cell_to: [u8; MAX_CELLS],
    tile_to: [u8; MAX_CELLS],
}

impl<D: AsRef<[u8]>> Searcher<D> {
    /// A search over `table`, whose groups hold every tile once (the file
    /// format makes sure of it).
    pub fn new(table: PdbTable<D>) -> Searcher<D> {
        let goal = *table.goal();
        let shape = goal.shape();
        let groups: Vec<Vec<u8>> = table.groups().map(|(tiles, _)| tiles.to_vec()).collect();
        let mut group_of = [0u8; MAX_CELLS];
        for (g, tiles) in groups.iter().enumerate() {
            for &tile in tiles {
                group_of[usize::from(tile)] = g as u8;
            }
        }
        Searcher {
            mirror: mirror_of(&goal),
            goal,
            table,
            groups,
            group_of,
            neighbors: shape.neighbor_table(),
            bound: shape.diameter_bound(),
        }
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The databases.
    pub fn table(&self) -> &PdbTable<D> {
        &self.table
    }

    /// Whether the search answers boards toward `goal`: any goal of its
    /// shape with the blank in the databases' goal's cell.
    pub fn serves(&self, goal: &Board) -> bool {
        goal.shape() == self.goal.shape() && goal.blank() == self.goal.blank()
    }

    /// The heuristic value of `board`: the larger of the databases' sums for
    /// the board and for its reflection.
    pub fn estimate(&self, board: &Board) -> u32 {
        State::new(self, board).estimate()
    }

    /// Finds the shortest moves from `start` to any `goal` with its blank
    /// where the databases' goal has it, and of those the lexicographically
    /// smallest; also the number of boards expanded. The tiles are
    /// relabelled so that `goal` becomes the databases' goal, as
    /// [`Table`](crate::Table) does.
    ///
    /// # Errors
    ///
    /// Fails if a board is of another shape, the goal's blank is elsewhere,
    /// or the search passes the longest answer of the shape.
    pub fn solve_to(&self, start: &Board, goal: &Board) -> Result<(Solution, u64), SolveError> {
        let shape = self.goal.shape();
        for board in [start, goal] {
            if board.shape() != shape {
                return Err(SolveError::Shape {
                    expected: shape,
                    got: board.shape(),
                });
            }
        }
        if goal.blank() != self.goal.blank() {
            return Err(SolveError::NoData {
                shape,
                blank: goal.blank(),
            });
        }
        self.solve(&start.relabelled(goal, &self.goal))
    }

    /// Finds the shortest moves from `start` to the databases' goal, and of
    /// those the lexicographically smallest; also the number of boards
    /// expanded.
    ///
    /// # Errors
    ///
    /// Fails if `start` is of another shape, or the search passes the
    /// longest answer of the shape (the databases are wrong).
    pub fn solve(&self, start: &Board) -> Result<(Solution, u64), SolveError> {
        if start.shape() != self.goal.shape() {
            return Err(SolveError::Shape {
                expected: self.goal.shape(),
                got: start.shape(),
            });
        }
        if !start.solvable_to(&self.goal) {
            return Ok((Solution::Unsolvable, 0));
        }
        let mut state = State::new(self, start);
        let mut bound = state.estimate();
        let mut search = Search {
            solver: self,
            path: Vec::new(),
            nodes: 0,
        };
        loop {
            if bound > self.bound {
                return Err(SolveError::TooDeep {
                    shape: self.goal.shape(),
                    bound: self.bound,
                });
            }
            match search.dfs(&mut state, 0, bound, None) {
                Step::Found => return Ok((Solution::Moves(search.path), search.nodes)),
                Step::Over(next) => bound = next,
                Step::Changed => return Err(SolveError::Changed),
            }
        }
    }

    /// The database value of group `g` for tiles standing on `cell_of`.
    #[inline]
    fn value(&self, g: usize, cell_of: &[u8; MAX_CELLS]) -> u8 {
        let tiles = &self.groups[g];
        let mut cells = [0u8; MAX_CELLS];
        for (cell, &tile) in cells.iter_mut().zip(tiles) {
            *cell = cell_of[usize::from(tile)];
        }
        let rank = rank_placement(&cells[..tiles.len()], self.goal.shape().cells());
        self.table.entries(g)[rank as usize]
    }
}

/// The reflection about the main diagonal, for a square goal that is its
/// own reflection once tiles are renamed: its blank on the diagonal.
fn mirror_of(goal: &Board) -> Option<Mirror> {
    let shape = goal.shape();
    if shape.rows() != shape.cols() {
        return None;
    }
    let side = shape.cols();
    let mut cell_to = [0u8; MAX_CELLS];
    for (cell, to) in cell_to.iter_mut().enumerate().take(shape.cells()) {
        *to = ((cell % side) * side + cell / side) as u8;
    }
    // A tile is renamed to the goal's tile on the reflected cell.
    let mut tile_to = [0u8; MAX_CELLS];
    for (cell, &tile) in goal.cells().iter().enumerate() {
        tile_to[usize::from(tile)] = goal.cells()[usize::from(cell_to[cell])];
    }
    (tile_to[0] == 0).then_some(Mirror { cell_to, tile_to })
}

/// The board being searched: its cells, the cell of every tile of it and of
/// its reflection, and each group's database value for both.
struct State {
    cells: [u8; MAX_CELLS],
    blank: usize,
    cell_of: [u8; MAX_CELLS],
    mirror_cell_of: [u8; MAX_CELLS],
    values: [u8; MAX_CELLS],
    mirror_values: [u8; MAX_CELLS],
    sum: u32,
    mirror_sum: u32,
}

/// What a move changed in the values, to undo it.
struct Undo {
    group: usize,
    value: u8,
    mirror_group: usize,
    mirror_value: u8,
}

impl State {
    fn new<D: AsRef<[u8]>>(solver: &Searcher<D>, board: &Board) -> State {
        let mut state = State {
            cells: [0; MAX_CELLS],
            blank: board.blank(),
            cell_of: [0; MAX_CELLS],
            mirror_cell_of: [0; MAX_CELLS],
            values: [0; MAX_CELLS],
            mirror_values: [0; MAX_CELLS],
            sum: 0,
            mirror_sum: 0,
        };
        state.cells[..board.cells().len()].copy_from_slice(board.cells());
        for (cell, &tile) in board.cells().iter().enumerate() {
            state.cell_of[usize::from(tile)] = cell as u8;
            if let Some(mirror) = &solver.mirror {
                state.mirror_cell_of[usize::from(mirror.tile_to[usize::from(tile)])] =
                    mirror.cell_to[cell];
            }
        }
        for g in 0..solver.groups.len() {
            state.values[g] = solver.value(g, &state.cell_of);
            state.sum += u32::from(state.values[g]);
            if solver.mirror.is_some() {
                state.mirror_values[g] = solver.value(g, &state.mirror_cell_of);
                state.mirror_sum += u32::from(state.mirror_values[g]);
            }
        }
        state
    }

    fn estimate(&self) -> u32 {
        self.sum.max(self.mirror_sum)
    }

    /// Moves the blank to `to`; only the moved tile's group changes value.
    #[inline]
    fn play<D: AsRef<[u8]>>(&mut self, solver: &Searcher<D>, to: usize) -> Undo {
        let from = self.blank;
        let tile = self.cells[to];
        self.cells.swap(from, to);
        self.blank = to;
        self.cell_of[usize::from(tile)] = from as u8;
        let group = usize::from(solver.group_of[usize::from(tile)]);
        let value = self.values[group];
        self.values[group] = solver.value(group, &self.cell_of);
        self.sum = self.sum + u32::from(self.values[group]) - u32::from(value);
        let (mut mirror_group, mut mirror_value) = (0, 0);
        if let Some(mirror) = &solver.mirror {
            let mirrored = mirror.tile_to[usize::from(tile)];
            self.mirror_cell_of[usize::from(mirrored)] = mirror.cell_to[from];
            mirror_group = usize::from(solver.group_of[usize::from(mirrored)]);
            mirror_value = self.mirror_values[mirror_group];
            self.mirror_values[mirror_group] = solver.value(mirror_group, &self.mirror_cell_of);
            self.mirror_sum = self.mirror_sum + u32::from(self.mirror_values[mirror_group])
                - u32::from(mirror_value);
        }
        Undo {
            group,
            value,
            mirror_group,
            mirror_value,
        }
    }

    /// Takes back the move that brought the blank from `from`.
    #[inline]
    fn unplay<D>(&mut self, solver: &Searcher<D>, from: usize, undo: Undo) {
        let to = self.blank;
        let tile = self.cells[from];
        self.cells.swap(from, to);
        self.blank = from;
        self.cell_of[usize::from(tile)] = to as u8;
        self.sum = self.sum - u32::from(self.values[undo.group]) + u32::from(undo.value);
        self.values[undo.group] = undo.value;
        if let Some(mirror) = &solver.mirror {
            let mirrored = mirror.tile_to[usize::from(tile)];
            self.mirror_cell_of[usize::from(mirrored)] = mirror.cell_to[to];
            self.mirror_sum = self.mirror_sum - u32::from(self.mirror_values[undo.mirror_group])
                + u32::from(undo.mirror_value);
            self.mirror_values[undo.mirror_group] = undo.mirror_value;
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

/// Nodes between two looks at whether a mapped file changed.
const CHANGE_CHECK: u64 = 1 << 14;

struct Search<'s, D> {
    solver: &'s Searcher<D>,
    path: Vec<Move>,
    nodes: u64,
}

impl<D: AsRef<[u8]>> Search<'_, D> {
    fn dfs(&mut self, state: &mut State, g: u32, bound: u32, last: Option<Move>) -> Step {
        let h = state.estimate();
        if g + h > bound {
            return Step::Over(g + h);
        }
        if h == 0 && state.cells[..self.solver.goal.cells().len()] == *self.solver.goal.cells() {
            return Step::Found;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHANGE_CHECK) && crate::map::changed() {
            return Step::Changed;
        }
        let mut least = u32::MAX;
        for mv in Move::ALL {
            if last == Some(mv.opposite()) {
                continue;
            }
            let Some(target) = self.solver.neighbors[state.blank][usize::from(mv.code())] else {
                continue;
            };
            let from = state.blank;
            let undo = state.play(self.solver, usize::from(target));
            self.path.push(mv);
            match self.dfs(state, g + 1, bound, Some(mv)) {
                Step::Over(over) => least = least.min(over),
                done => return done,
            }
            self.path.pop();
            state.unplay(self.solver, from, undo);
        }
        Step::Over(least)
    }
}
