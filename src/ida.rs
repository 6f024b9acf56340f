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
//! # Cost of a node
//!
//! A child is looked at before it is entered: only the moved tile's group
//! changes, so its estimate costs one rank and one lookup a view, and a
//! child over the bound is never entered. With databases that know the
//! [blank's cell](crate::pdb#the-blanks-cell), each group's walled cells
//! are kept from its last lookup, and the blank's new cell read in each.
//! Databases in nibbles small enough
//! are spread out once a search is long ([`Searcher::spread_after`]): each
//! entry at an index of 4 bits a tile's cell, which a move changes by a
//! shift and an add. The bounds are raised, and a bound that follows a long
//! one split into subtrees searched on every core ([`Searcher::threads`]),
//! by the one driver both metrics share ([`crate::deepen`]): answers and
//! node counts do not depend on the threads.
//!
//! A search past a few thousand nodes also leaves out the paths that end
//! with a move sequence another does as well, shorter or smaller
//! ([`crate::prune`]): no answer to give holds one.
//!
//! The bound never passes the shape's [diameter](crate::shape::Shape::diameter_bound):
//! a search that would is refused as a sign of wrong databases, never run
//! without end.

use crate::deepen::{Deepen, Deepened, Near, Query, Settings};
use crate::ida::search::{PRUNE_AFTER, PRUNE_LONGER_AFTER, Search};
use crate::ida::spread::{Group, SPREAD_AFTER, spreads};
use crate::ida::state::State;
use std::sync::OnceLock;

#[cfg(test)]
use crate::answer::Solution;
use crate::answer::SolveError;
use crate::board::Board;
use crate::pdb::{PdbTable, Values};
use crate::progress::Reporter;
use crate::prune::{self};
use crate::rank::placements;
use crate::shape::{MAX_CELLS, Symmetry};
use crate::stop::Stop;

mod search;
mod spread;
mod state;

/// The most views of one board: the symmetries that keep a cell in place
/// (all eight keep the middle cell of 3x3, four the middle of 3x5).
const MAX_VIEWS: usize = 8;

/// The most groups of tiles: one a tile.
const MAX_GROUPS: usize = MAX_CELLS;

/// The length of the tables a search indexes with a tile or a group read
/// from a board or a table (a row of [`Searcher`]'s `changes`, a search's
/// groups' entries): every tile, rounded up to a power of two, so that the
/// index is masked into the table instead of checked against it.
const ROW: usize = MAX_CELLS.next_power_of_two();

/// The size of a group's entries, in bytes, from which the search fetches
/// them a node ahead ([`Searcher::fetch_ahead`]): more than the last level
/// of cache. Measured on Korf's 100: 7-8 databases (519 MB) gain, the built-in
/// 6-6-3 (2.9 MB a group) lose to the extra work.
const AHEAD_FROM: usize = 64 << 20;

/// An IDA* search toward the goals a set of pattern databases serves.
pub struct Searcher<D> {
    table: PdbTable<D>,
    /// The databases' goal, in their frame.
    goal: Board,
    /// The group of each tile of the databases' goal.
    group_of: [u8; MAX_CELLS],
    /// The groups, with the weights of their ranks.
    groups: Vec<Group>,
    /// The weight of each tile's digit in its group's rank.
    weight: [u32; MAX_CELLS],
    /// `changes[tile][t]`: how tile `t` of `tile`'s group, on a cell between
    /// the two of a move of `tile`, changes the rank (wrapping): less the
    /// weight of `tile`'s digit if `t` comes before it in the group, else
    /// one more of `t`'s own; nothing for other tiles.
    changes: [[u32; ROW]; MAX_CELLS],
    /// Where each tile's cell sits in its group's spread index: 4 bits a
    /// tile, the group's first tile highest (all 0 for databases that do
    /// not spread).
    shift: [u8; MAX_CELLS],
    /// The entries again, each group's at its spread index (a cell in 4 bits
    /// a tile): a move changes the index by one shift and one add, with no
    /// rank to compute. Made by the first search to pass `spread_after`
    /// nodes.
    spread: OnceLock<Vec<Vec<u8>>>,
    /// The nodes after which a search spreads the entries; `None` for
    /// databases that are not in nibbles or would spread over
    /// [`SPREAD_MOST`] bytes.
    spread_after: Option<u64>,
    /// `distance[tile][cell]`: how far a tile on a cell is from its home.
    distance: [[u8; MAX_CELLS]; MAX_CELLS],
    /// The symmetries of the databases' shape that keep their goal's blank
    /// in its cell: one view each.
    views: Vec<Symmetry>,
    /// The longest answer the search looks for.
    bound: u32,
    /// The threads, the file watched and when a far board is given up.
    deepen: Settings,
    /// The nodes of one search after which its next bounds leave out the
    /// paths that end with a [redundant](crate::prune) move sequence.
    prune_after: Option<u64>,
    /// The nodes after which they leave out the longer ones too
    /// ([`prune::LONGER`](crate::prune::LONGER)).
    prune_longer_after: Option<u64>,
    /// Whether the entries are fetched a node ahead: for databases too large
    /// for the cache, where each lookup is a trip to memory.
    ahead: bool,
    /// Whether every group's entries are in bytes.
    bytes: bool,
    /// Whether every group's entries come with the cells of the
    /// blank each group walls in.
    walls: bool,
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

impl<D: AsRef<[u8]> + Sync> Searcher<D> {
    /// A search over `table`, whose groups hold every tile once (the file
    /// format makes sure of it).
    pub fn new(table: PdbTable<D>) -> Searcher<D> {
        let goal = *table.goal();
        let shape = goal.shape();
        let mut group_of = [0u8; MAX_CELLS];
        let mut shift = [0u8; MAX_CELLS];
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
            for (at, &tile) in tiles.iter().enumerate() {
                shift[usize::from(tile)] = (4 * (tiles.len() - 1 - at)) as u8;
            }
            // The digit of the i-th tile counts the cells left to it; the
            // placements of the tiles after it multiply it.
            for i in 0..tiles.len() {
                group.weights[i] = placements(shape.cells() - i - 1, tiles.len() - i - 1) as u32;
            }
            groups.push(group);
        }
        let mut weight = [0u32; MAX_CELLS];
        let mut changes = [[0u32; ROW]; MAX_CELLS];
        for group in &groups {
            for (at, &tile) in group.tiles[..group.len].iter().enumerate() {
                weight[usize::from(tile)] = group.weights[at];
                for (other, &t) in group.tiles[..group.len].iter().enumerate() {
                    changes[usize::from(tile)][usize::from(t)] = match other.cmp(&at) {
                        std::cmp::Ordering::Less => group.weights[at].wrapping_neg(),
                        std::cmp::Ordering::Equal => 0,
                        std::cmp::Ordering::Greater => group.weights[other],
                    };
                }
            }
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
        let bytes = (0..table.len()).all(|g| matches!(table.values(g), Values::Bytes(_)));
        let walls = (0..table.len()).all(|g| matches!(table.values(g), Values::Walls(_)));
        let spread_after = spreads(&table, &groups).then_some(SPREAD_AFTER);
        if spread_after.is_none() {
            // Indexes that no search reads, kept as sums of cells: no shift
            // can pass 32 bits.
            shift = [0; MAX_CELLS];
        }
        Searcher {
            goal,
            table,
            group_of,
            groups,
            weight,
            changes,
            shift,
            spread: OnceLock::new(),
            spread_after,
            distance,
            views,
            bound: shape.diameter_bound(),
            ahead,
            bytes,
            walls,
            deepen: Settings::default(),
            prune_after: Some(PRUNE_AFTER),
            prune_longer_after: Some(PRUNE_LONGER_AFTER),
        }
    }

    /// Gives up on a board with [`SolveError::TooFar`] once a bound starts
    /// after `nodes` of its search, naming `build`, the command that makes
    /// databases that answer it, and its `cost`: for databases made at
    /// start.
    pub(crate) fn near(mut self, nodes: u64, build: String, cost: &'static str) -> Searcher<D> {
        self.deepen.near = Some(Near { nodes, build, cost });
        self
    }

    /// Whether the search gives up on far boards ([`Searcher::near`]).
    pub(crate) fn near_only(&self) -> bool {
        self.deepen.near.is_some()
    }

    /// Stops every search with [`SolveError::Changed`] once `watch` says
    /// the file the databases are read from changed.
    pub(crate) fn watching(mut self, watch: Option<crate::map::Watch>) -> Searcher<D> {
        self.deepen.watch = watch;
        self
    }

    /// Sets whether the search fetches a node's children's entries before
    /// searching the first: chosen by the databases' size by default (on for
    /// groups over 64 MB). The answers and the nodes are the same either
    /// way; only the time differs.
    #[cfg(test)]
    pub fn fetch_ahead(mut self, ahead: bool) -> Searcher<D> {
        self.ahead = ahead;
        self
    }

    /// Sets after how many nodes of one search the entries are spread out
    /// (16 MB for the built-in 6-6-3, in about 40 ms), so that a move needs
    /// no rank: `Some(0)` at once, `None` never. By default after
    /// 250,000 nodes, and only for databases in nibbles that spread to at
    /// most 32 MB; for others this does nothing. The answers and the nodes
    /// are the same either way; only the time differs.
    #[cfg(test)]
    pub fn spread_after(mut self, nodes: Option<u64>) -> Searcher<D> {
        if self.spread_after.is_some() {
            self.spread_after = nodes;
        }
        self
    }

    /// Sets the threads a long search runs on (by default one a core), and
    /// from how many nodes of one bound (by default 25,000) the next bound
    /// uses them: it is split into subtrees, searched in turn by every
    /// thread. The answers and the nodes are the same either way.
    #[cfg(test)]
    pub fn threads(mut self, threads: usize, after: u64) -> Searcher<D> {
        self.deepen.threads = threads.max(1);
        self.deepen.parallel_after = after;
        self
    }

    /// Sets after how many nodes of one search its next bounds leave out
    /// the paths that end with a move sequence that a shorter or
    /// lexicographically smaller one does as well (pruned):
    /// `Some(0)` from the first bound, `None` never; by default after 10,000.
    /// The answers are the same either way; the nodes are fewer (about a
    /// fifth, on Korf's instances).
    #[cfg(test)]
    pub fn prune_after(mut self, nodes: Option<u64>) -> Searcher<D> {
        self.prune_after = nodes;
        self
    }

    /// Sets after how many nodes of one search its next bounds leave out
    /// the redundant sequences of up to [`prune::LONGER`](crate::prune::LONGER)
    /// moves as well: by default after 50 million.
    #[cfg(test)]
    pub fn prune_longer_after(mut self, nodes: Option<u64>) -> Searcher<D> {
        self.prune_longer_after = nodes;
        self
    }

    /// Whether the databases know the cells of the blank each group walls
    /// in.
    pub(crate) fn walls(&self) -> bool {
        self.walls
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
    #[cfg(test)]
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
    #[cfg(test)]
    pub fn solve_to(&self, start: &Board, goal: &Board) -> Result<(Solution, u64), SolveError> {
        crate::deepen::uncapped(
            self.search(start, goal, &Stop::new(), Query::WHOLE)
                .map(crate::deepen::answer),
        )
    }

    /// What the search of `start` toward `goal` is asked for
    /// ([`Query`]): the answer within bounds known beforehand, or a part
    /// of one bound; `None` if `start` cannot reach `goal`.
    pub(crate) fn search(
        &self,
        start: &Board,
        goal: &Board,
        stop: &Stop,
        query: Query<'_>,
    ) -> Result<Option<Deepened>, SolveError> {
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
            return Ok(None);
        }
        let views = self.views(goal, frame);
        let state = State::new(self, &views, start);
        let report = Reporter::start(goal.shape());
        let deepen = Deepen {
            shape: goal.shape(),
            metric: crate::metric::Metric::Stm,
            most: self.bound,
            settings: &self.deepen,
            limit: u64::MAX,
            stop,
            report: report.as_ref(),
            counted: query.counted,
            counted_generated: 0,
            cap: query.cap,
            floor: query.floor,
            part: query.part,
        };
        // The symmetries that keep a cell in place number 1, 2, 4 or 8.
        let searched = match views.len() {
            1 => self.deepen(&deepen, state, &[views[0]], goal),
            2 => self.deepen(&deepen, state, &[views[0], views[1]], goal),
            4 => self.deepen(
                &deepen,
                state,
                &std::array::from_fn::<_, 4, _>(|v| views[v]),
                goal,
            ),
            _ => self.deepen(
                &deepen,
                state,
                &std::array::from_fn::<_, 8, _>(|v| views[v]),
                goal,
            ),
        };
        searched.map(Some)
    }

    /// Deepens the bound from `state`'s estimate until a path to `goal`
    /// fits under it, with `V` views.
    fn deepen<const V: usize>(
        &self,
        deepen: &Deepen<'_>,
        state: State,
        views: &[View; V],
        goal: &Board,
    ) -> Result<Deepened, SolveError> {
        let mut values = [Values::Bytes(&[]); ROW];
        for (g, values) in values.iter_mut().enumerate().take(self.table.len()) {
            *values = self.table.values(g);
        }
        let bound = state.estimate();
        let mut search = Search {
            solver: self,
            pruner: prune::nothing(),
            spread: &[],
            values: &values,
            views,
            goal,
            options: search::options(goal.shape()),
            start: state,
        };
        deepen.run(&mut search, bound)
    }

    /// Finds the shortest moves from `start` to the databases' goal, as
    /// [`Searcher::solve_to`] does.
    ///
    /// # Errors
    ///
    /// As [`Searcher::solve_to`].
    #[cfg(test)]
    pub fn solve(&self, start: &Board) -> Result<(Solution, u64), SolveError> {
        self.solve_to(start, &self.goal)
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
