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

use crate::board::{Board, MAX_CELLS, Move};
use crate::pdb::PdbTable;
use crate::rank::rank_placement;

/// What [`Solver::solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The moves, or `None` if the board cannot reach the goal.
    pub moves: Option<Vec<Move>>,
    /// Boards the search expanded.
    pub nodes: u64,
}

/// An IDA* solver toward the goal of a set of pattern databases.
#[derive(Debug)]
pub struct Solver<D> {
    table: PdbTable<D>,
    goal: Board,
    /// Each group's tiles, and where its entries start in the table's body.
    groups: Vec<Vec<u8>>,
    /// The reflection, when the goal is its own reflection: the cell each
    /// cell reflects to, and the tile each tile is renamed to.
    mirror: Option<([u8; MAX_CELLS], [u8; MAX_CELLS])>,
    /// `neighbors[cell][move code]`: where the blank goes.
    neighbors: [[Option<u8>; 4]; MAX_CELLS],
}

impl<D: AsRef<[u8]>> Solver<D> {
    /// A solver over `table`, whose groups hold every tile once (the file
    /// format makes sure of it).
    pub fn new(table: PdbTable<D>) -> Solver<D> {
        let goal = *table.goal();
        let shape = goal.shape();
        let mut neighbors = [[None; 4]; MAX_CELLS];
        for (cell, targets) in neighbors.iter_mut().enumerate().take(shape.cells()) {
            for mv in Move::ALL {
                targets[usize::from(mv.code())] = shape.neighbor(cell, mv).map(|c| c as u8);
            }
        }
        let groups = table.groups().map(|(tiles, _)| tiles.to_vec()).collect();
        Solver {
            mirror: mirror_of(&goal),
            goal,
            table,
            groups,
            neighbors,
        }
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The heuristic value of `board`: the larger of the databases' sums for
    /// the board and for its reflection.
    pub fn estimate(&self, board: &Board) -> u32 {
        let state = State::new(self, board);
        state.estimate(self)
    }

    /// Finds the shortest moves from `start` to the goal, and of those the
    /// lexicographically smallest.
    ///
    /// # Panics
    ///
    /// Panics if `start` is of another shape than the goal.
    pub fn solve(&self, start: &Board) -> Found {
        assert_eq!(
            start.shape(),
            self.goal.shape(),
            "a board of the goal's shape"
        );
        if !start.solvable_to(&self.goal) {
            return Found {
                moves: None,
                nodes: 0,
            };
        }
        let mut state = State::new(self, start);
        let mut bound = state.estimate(self);
        let mut search = Search {
            solver: self,
            path: Vec::new(),
            nodes: 0,
        };
        loop {
            match search.dfs(&mut state, 0, bound, None) {
                Step::Found => {
                    return Found {
                        moves: Some(search.path),
                        nodes: search.nodes,
                    };
                }
                Step::Over(next) => bound = next,
            }
        }
    }
}

/// The reflection about the main diagonal, for a square goal that is its
/// own reflection once tiles are renamed: its blank on the diagonal.
fn mirror_of(goal: &Board) -> Option<([u8; MAX_CELLS], [u8; MAX_CELLS])> {
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
    (tile_to[0] == 0).then_some((cell_to, tile_to))
}

/// The board being searched, with the cell of every tile of it and of its
/// reflection.
struct State {
    cells: [u8; MAX_CELLS],
    blank: usize,
    /// `cell_of[tile]` on the board.
    cell_of: [u8; MAX_CELLS],
    /// `mirror_cell_of[tile]` on the reflected board.
    mirror_cell_of: [u8; MAX_CELLS],
}

impl State {
    fn new<D: AsRef<[u8]>>(solver: &Solver<D>, board: &Board) -> State {
        let mut state = State {
            cells: [0; MAX_CELLS],
            blank: board.blank(),
            cell_of: [0; MAX_CELLS],
            mirror_cell_of: [0; MAX_CELLS],
        };
        state.cells[..board.cells().len()].copy_from_slice(board.cells());
        for (cell, &tile) in board.cells().iter().enumerate() {
            state.place(solver, tile, cell);
        }
        state
    }

    /// Records that `tile` stands on `cell`.
    fn place<D>(&mut self, solver: &Solver<D>, tile: u8, cell: usize) {
        self.cell_of[usize::from(tile)] = cell as u8;
        if let Some((cell_to, tile_to)) = &solver.mirror {
            self.mirror_cell_of[usize::from(tile_to[usize::from(tile)])] = cell_to[cell];
        }
    }

    fn estimate<D: AsRef<[u8]>>(&self, solver: &Solver<D>) -> u32 {
        let direct = sum(solver, &self.cell_of);
        match solver.mirror {
            Some(_) => direct.max(sum(solver, &self.mirror_cell_of)),
            None => direct,
        }
    }
}

/// The databases' values added up for a board whose tiles stand on `cell_of`.
fn sum<D: AsRef<[u8]>>(solver: &Solver<D>, cell_of: &[u8; MAX_CELLS]) -> u32 {
    let n = solver.goal.shape().cells();
    let mut total = 0u32;
    let mut cells = [0u8; MAX_CELLS];
    for (tiles, (_, entries)) in solver.groups.iter().zip(solver.table.groups()) {
        for (cell, &tile) in cells.iter_mut().zip(tiles) {
            *cell = cell_of[usize::from(tile)];
        }
        let rank = rank_placement(&cells[..tiles.len()], n);
        total += u32::from(entries[rank as usize]);
    }
    total
}

enum Step {
    Found,
    /// Every path went over the bound; the smallest value over it.
    Over(u32),
}

struct Search<'s, D> {
    solver: &'s Solver<D>,
    path: Vec<Move>,
    nodes: u64,
}

impl<D: AsRef<[u8]>> Search<'_, D> {
    fn dfs(&mut self, state: &mut State, g: u32, bound: u32, last: Option<Move>) -> Step {
        let h = state.estimate(self.solver);
        if g + h > bound {
            return Step::Over(g + h);
        }
        if h == 0 {
            // Every group is home, so every tile is.
            return Step::Found;
        }
        self.nodes += 1;
        let mut least = u32::MAX;
        for mv in Move::ALL {
            if last == Some(mv.opposite()) {
                continue;
            }
            let Some(target) = self.solver.neighbors[state.blank][usize::from(mv.code())] else {
                continue;
            };
            let (from, to) = (state.blank, usize::from(target));
            let tile = state.cells[to];
            state.cells.swap(from, to);
            state.blank = to;
            state.place(self.solver, tile, from);
            state.place(self.solver, 0, to);
            self.path.push(mv);
            match self.dfs(state, g + 1, bound, Some(mv)) {
                Step::Found => return Step::Found,
                Step::Over(over) => least = least.min(over),
            }
            self.path.pop();
            state.cells.swap(from, to);
            state.blank = from;
            state.place(self.solver, tile, to);
            state.place(self.solver, 0, from);
        }
        Step::Over(least)
    }
}
