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
//! child over the bound is never entered. Databases in nibbles small enough
//! are spread out once a search is long ([`Searcher::spread_after`]): each
//! entry at an index of 4 bits a tile's cell, which a move changes by a
//! shift and an add. A bound that follows a long one is split into
//! subtrees searched on every core ([`Searcher::threads`]); the first
//! subtree in the order of the search in one piece that holds the goal gives
//! the answer, so answers and node counts do not depend on the threads.
//!
//! A search past a few thousand nodes also leaves out the paths that end
//! with a move sequence another does as well, shorter or smaller
//! ([`crate::prune`]): no answer to give holds one.
//!
//! The bound never passes the shape's [diameter](crate::Shape::diameter_bound):
//! a search that would is refused as a sign of wrong databases, never run
//! without end.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::answer::{Solution, SolveError};
use crate::board::Board;
use crate::pdb::{PdbTable, Values};
use crate::prune::{self, Pruner};
use crate::rank::placements;
use crate::shape::{MAX_CELLS, Move, Symmetry};

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
    /// Each tile's place in its group.
    slot: [u8; MAX_CELLS],
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
    /// The threads a long search runs on.
    threads: usize,
    /// The nodes of a bound after which the next is searched on
    /// [`Searcher::threads`] threads.
    parallel_after: u64,
    /// The nodes of one search after which its next bounds leave out the
    /// paths that end with a [redundant](crate::prune) move sequence.
    prune_after: Option<u64>,
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

impl<D: AsRef<[u8]> + Sync> Searcher<D> {
    /// A search over `table`, whose groups hold every tile once (the file
    /// format makes sure of it).
    pub fn new(table: PdbTable<D>) -> Searcher<D> {
        let goal = *table.goal();
        let shape = goal.shape();
        let mut group_of = [0u8; MAX_CELLS];
        let mut shift = [0u8; MAX_CELLS];
        let mut slot = [0u8; MAX_CELLS];
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
                slot[usize::from(tile)] = at as u8;
            }
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
            slot,
            shift,
            spread: OnceLock::new(),
            spread_after,
            distance,
            views,
            bound: shape.diameter_bound(),
            ahead,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            parallel_after: PARALLEL_AFTER,
            prune_after: Some(PRUNE_AFTER),
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

    /// Sets after how many nodes of one search the entries are spread out
    /// (16 MB for the built-in 6-6-3, in about 40 ms), so that a move needs
    /// no rank: `Some(0)` at once, `None` never. By default after
    /// 250,000 nodes, and only for databases in nibbles that spread to at
    /// most 32 MB; for others this does nothing. The answers and the nodes
    /// are the same either way; only the time differs.
    pub fn spread_after(mut self, nodes: Option<u64>) -> Searcher<D> {
        if self.spread_after.is_some() {
            self.spread_after = nodes;
        }
        self
    }

    /// Sets the threads a long search runs on (by default one a core), and
    /// from how many nodes of one bound (by default 100,000) the next bound
    /// uses them: it is split into subtrees, searched in turn by every
    /// thread. The answers and the nodes are the same either way.
    pub fn threads(mut self, threads: usize, after: u64) -> Searcher<D> {
        self.threads = threads.max(1);
        self.parallel_after = after;
        self
    }

    /// Sets after how many nodes of one search its next bounds leave out
    /// the paths that end with a move sequence that a shorter or
    /// lexicographically smaller one does as well ([`crate::prune`]):
    /// `Some(0)` from the first bound, `None` never; by default after 10,000.
    /// The answers are the same either way; the nodes are fewer (about a
    /// fifth, on Korf's instances).
    pub fn prune_after(mut self, nodes: Option<u64>) -> Searcher<D> {
        self.prune_after = nodes;
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
        let state = State::new(self, &views, start);
        // The symmetries that keep a cell in place number 1, 2, 4 or 8.
        match views.len() {
            1 => self.deepen(start, state, &[views[0]], goal),
            2 => self.deepen(start, state, &[views[0], views[1]], goal),
            4 => self.deepen(
                start,
                state,
                &std::array::from_fn::<_, 4, _>(|v| views[v]),
                goal,
            ),
            _ => self.deepen(
                start,
                state,
                &std::array::from_fn::<_, 8, _>(|v| views[v]),
                goal,
            ),
        }
    }

    /// Deepens the bound from `state`'s estimate until a path to `goal`
    /// fits under it, with `V` views.
    fn deepen<const V: usize>(
        &self,
        start: &Board,
        mut state: State,
        views: &[View; V],
        goal: &Board,
    ) -> Result<(Solution, u64), SolveError> {
        let spread = |search: &Search<D, V>| search.nodes >= self.spread_after.unwrap_or(u64::MAX);
        let mut search = Search {
            solver: self,
            pruner: prune::nothing(),
            spread: &[],
            views,
            goal,
            neighbors: goal.shape().neighbor_table(),
            path: Vec::new(),
            nodes: 0,
            stop: None,
        };
        let mut bound = state.estimate();
        if bound == 0 && state.is(goal) {
            return Ok((Solution::Moves(Vec::new()), 0));
        }
        let root = state.clone();
        // The nodes of the last bound.
        let mut last = 0;
        loop {
            if bound > self.bound {
                return Err(SolveError::TooDeep {
                    shape: goal.shape(),
                    bound: self.bound,
                });
            }
            if search.spread.is_empty() && self.spread_after.is_some() {
                if let Some(spread) = self.spread.get() {
                    search.spread = spread;
                } else if spread(&search) {
                    search.spread = self
                        .spread
                        .get_or_init(|| self::spread(&self.table, &self.groups));
                }
            }
            if self.prune_after.is_some_and(|after| search.nodes >= after) {
                search.pruner = prune::pruner();
            }
            let nodes = search.nodes;
            // Each bound takes some times the nodes of the one before.
            let step = if self.threads > 1 && last >= self.parallel_after {
                search.split(start, &state, bound)
            } else {
                search.run(&mut state, 0, bound, None, prune::START)
            };
            match step {
                Step::Found => return Ok((Solution::Moves(search.path), search.nodes)),
                Step::Over(next) => {
                    bound = next;
                    last = search.nodes - nodes;
                }
                Step::Changed => return Err(SolveError::Changed),
                Step::Stopped => unreachable!("only a part of a split bound is stopped"),
                // The same bound again, from the start, with the entries
                // spread.
                Step::Spread => {
                    state = root.clone();
                    search.path.clear();
                    search.nodes = nodes;
                    search.spread = self
                        .spread
                        .get_or_init(|| self::spread(&self.table, &self.groups));
                }
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

/// The most bytes of spread entries.
const SPREAD_MOST: usize = 32 << 20;

/// The nodes of a bound after which the next bound is searched on every
/// core, by default. A bound takes a few times the nodes of the one before,
/// so threads start for bounds of tens of milliseconds or more.
const PARALLEL_AFTER: u64 = 100_000;

/// The nodes of one search after which its next bounds leave out redundant
/// move sequences, by default: about 5 ms, so that the automaton (about 15
/// ms to make, once a process) is made for searches that gain from it.
const PRUNE_AFTER: u64 = 10_000;

/// The subtrees a bound is split into, at least, for each thread.
const TASKS_PER_THREAD: usize = 32;

/// The nodes of one search after which it spreads the entries, by default:
/// the spreading costs about as much as 250,000 nodes save.
const SPREAD_AFTER: u64 = 250_000;

/// Whether `table`'s groups spread: every one stored in nibbles, all in at
/// most [`SPREAD_MOST`] bytes.
fn spreads<D: AsRef<[u8]> + Sync>(table: &PdbTable<D>, groups: &[Group]) -> bool {
    let bytes: usize = groups
        .iter()
        .map(|g| (1usize << (4 * g.len)).div_ceil(2))
        .sum();
    bytes <= SPREAD_MOST && (0..table.len()).all(|g| matches!(table.values(g), Values::Nibbles(_)))
}

/// The entries of `table`'s groups at their spread indexes; `table`
/// [spreads].
fn spread<D: AsRef<[u8]> + Sync>(table: &PdbTable<D>, groups: &[Group]) -> Vec<Vec<u8>> {
    let n = table.goal().shape().cells();
    let mut all = Vec::with_capacity(groups.len());
    for (g, group) in groups.iter().enumerate() {
        let Values::Nibbles(nibbles) = table.values(g) else {
            unreachable!("spread databases are in nibbles");
        };
        let mut out = vec![0u8; (1usize << (4 * group.len)).div_ceil(2)];
        // Placements in rank order are in the order of their cells, first
        // tile first: walk them so, keeping the spread index.
        let mut rank = 0usize;
        if group.len > 0 {
            spread_from(nibbles, &mut out, n, group.len, 0, 0, &mut rank);
        }
        all.push(out);
    }
    all
}

/// Spreads the entries of the placements whose first tiles are on `used`,
/// at spread index `index` so far, from rank `rank` on; `left` tiles are
/// still to place.
fn spread_from(
    nibbles: &[u8],
    out: &mut [u8],
    n: usize,
    left: usize,
    used: u32,
    index: usize,
    rank: &mut usize,
) {
    if left == 1 {
        // The last tile's 16 cells are 8 bytes in a row.
        let mut word = 0u64;
        let mut free = !used & ((1 << n) - 1);
        while free != 0 {
            // Up to 15 entries in a row from the rank on, in one load.
            let mut window = [0u8; 8];
            let from = *rank / 2;
            let to = nibbles.len().min(from + 8);
            window[..to - from].copy_from_slice(&nibbles[from..to]);
            let mut entries = u64::from_le_bytes(window) >> (4 * (*rank % 2));
            for _ in 0..15 {
                if free == 0 {
                    break;
                }
                let cell = free.trailing_zeros();
                free &= free - 1;
                word |= (entries & 15) << (4 * cell);
                entries >>= 4;
                *rank += 1;
            }
        }
        out[index * 8..index * 8 + 8].copy_from_slice(&word.to_le_bytes());
        return;
    }
    for cell in (0..n).filter(|&cell| used & (1 << cell) == 0) {
        spread_from(
            nibbles,
            out,
            n,
            left - 1,
            used | 1 << cell,
            index << 4 | cell,
            rank,
        );
    }
}

impl<D: AsRef<[u8]> + Sync> Searcher<D> {
    /// The rank of `tile`'s group once the tile moves from `old` to `new`,
    /// next to each other, from its rank `rank` with `on` the tile on each
    /// cell: only the tile's digit changes, and those of the group's later
    /// tiles on the cells between the two, each by one.
    #[inline(always)]
    fn rank_after(
        &self,
        rank: u32,
        on: &[u8; MAX_CELLS],
        tile: usize,
        old: usize,
        new: usize,
    ) -> u32 {
        let g = self.group_of[tile];
        let weights = &self.groups[usize::from(g)].weights;
        let slot = self.slot[tile];
        let (low, high) = if old < new { (old, new) } else { (new, old) };
        // The group's earlier tiles between the two cells, and the weights of
        // its later ones there.
        let mut earlier = 0;
        let mut later = 0;
        for &t in &on[low + 1..high] {
            let t = usize::from(t) % MAX_CELLS;
            if t != 0 && self.group_of[t] == g {
                match self.slot[t] < slot {
                    true => earlier += 1,
                    false => later += weights[usize::from(self.slot[t]) % MAX_CELLS],
                }
            }
        }
        let step = (high - low) as u32 - earlier;
        let change = step * weights[usize::from(slot) % MAX_CELLS] + later;
        let after = match old < new {
            true => rank + change,
            false => rank - change,
        };
        #[cfg(debug_assertions)]
        {
            let mut pos = [0u8; MAX_CELLS];
            for (cell, &t) in on.iter().enumerate() {
                pos[usize::from(t) % MAX_CELLS] = cell as u8;
            }
            debug_assert_eq!(
                self.rank(usize::from(g), &pos),
                rank as usize,
                "the rank kept"
            );
            pos[tile] = new as u8;
            debug_assert_eq!(
                self.rank(usize::from(g), &pos),
                after as usize,
                "the rank after"
            );
        }
        after
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
    /// The tile on each cell (0 on the blank's).
    on: [u8; MAX_CELLS],
    /// Each group's rank.
    rank: [u32; MAX_GROUPS],
    index: [u32; MAX_GROUPS],
    manhattan: [u8; MAX_GROUPS],
    value: [u8; MAX_GROUPS],
    sum: u32,
}

impl Sight {
    /// Group `g`'s spread index once `tile` moves to `new`.
    #[inline(always)]
    fn spread_index(&self, g: usize, shift: u8, tile: usize, new: u8) -> u32 {
        self.index[g] - (u32::from(self.pos[tile]) << shift) + (u32::from(new) << shift)
    }

    /// Sets group `g` to `group`'s Manhattan distance, value and the index
    /// its search reads (the spread index if `SPREAD`, else the rank, with
    /// `moved` now on cell `tile` and the blank on `blank`). Both a move
    /// and its undo.
    #[inline(always)]
    fn set<const SPREAD: bool>(&mut self, group: &Undo, moved: u8, tile: u8, blank: u8) {
        let g = usize::from(group.group);
        self.sum = self.sum + u32::from(group.value) - u32::from(self.value[g]);
        self.value[g] = group.value;
        self.manhattan[g] = group.manhattan;
        // Each search keeps what its lookups read; the other stays as it was
        // when the search started, which is right again once it has taken
        // back its moves.
        if SPREAD {
            self.index[g] = group.index;
        } else {
            self.on[usize::from(tile)] = moved;
            self.on[usize::from(blank)] = 0;
            self.rank[g] = group.rank;
        }
    }
}

/// The board being searched, in the user's frame, and how each view sees it.
#[derive(Clone)]
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
    /// The spread index, in a search with the entries spread.
    index: u32,
    /// The rank, in a search without.
    rank: u32,
}

/// A child as [`State::child`] sees it before the move: its estimate and
/// what changes in each view.
struct Child<const V: usize> {
    estimate: u32,
    changes: [Undo; V],
}

impl State {
    fn new<D: AsRef<[u8]> + Sync>(solver: &Searcher<D>, views: &[View], board: &Board) -> State {
        let mut state = State {
            cells: [0; MAX_CELLS],
            blank: board.blank(),
            sights: [Sight {
                pos: [0; MAX_CELLS],
                on: [0; MAX_CELLS],
                rank: [0; MAX_GROUPS],
                index: [0; MAX_GROUPS],
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
                sight.on[usize::from(cell)] = tile;
                if tile != 0 {
                    let g = usize::from(solver.group_of[usize::from(tile)]);
                    sight.manhattan[g] += solver.distance[usize::from(tile)][usize::from(cell)];
                    sight.index[g] += u32::from(cell) << solver.shift[usize::from(tile)];
                }
            }
            for g in 0..solver.table.len() {
                let rank = solver.rank(g, &sight.pos);
                sight.rank[g] = rank as u32;
                let value = solver
                    .table
                    .values(g)
                    .get(rank, u32::from(sight.manhattan[g]));
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
    fn ranks<D: AsRef<[u8]> + Sync, const V: usize>(
        &self,
        solver: &Searcher<D>,
        views: &[View; V],
        to: usize,
    ) -> [u32; V] {
        let tile = usize::from(self.cells[to]);
        let mut ranks = [0; V];
        for ((view, sight), rank) in views.iter().zip(&self.sights).zip(&mut ranks) {
            let tile = usize::from(view.tile[tile]);
            let g = usize::from(solver.group_of[tile]);
            let old = usize::from(sight.pos[tile]);
            let new = usize::from(view.cell[self.blank]);
            *rank = solver.rank_after(sight.rank[g], &sight.on, tile, old, new);
        }
        ranks
    }

    /// How each view sees the board after the blank moves to `to`, without
    /// moving it: only the moved tile's group changes, to the entry of
    /// `ranks[view]` when `AHEAD`, else of the rank found here.
    #[inline(always)]
    fn child<D: AsRef<[u8]> + Sync, const AHEAD: bool, const SPREAD: bool, const V: usize>(
        &self,
        solver: &Searcher<D>,
        spread: &[Vec<u8>],
        views: &[View; V],
        to: usize,
        ranks: &[u32; V],
    ) -> Child<V> {
        let tile = usize::from(self.cells[to]);
        let mut child = Child {
            estimate: 0,
            changes: [Undo::default(); V],
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
            let value = if SPREAD {
                let index = sight.spread_index(g, solver.shift[tile], tile, new);
                change.index = index;
                let spread = &spread[g];
                let i = index as usize;
                u32::from(manhattan) + 2 * u32::from((spread[i / 2] >> (4 * (i % 2))) & 15)
            } else {
                let rank = match AHEAD {
                    true => rank,
                    false => {
                        solver.rank_after(sight.rank[g], &sight.on, tile, old, usize::from(new))
                    }
                };
                change.rank = rank;
                solver
                    .table
                    .values(g)
                    .get(rank as usize, u32::from(manhattan))
            };
            child.estimate = child
                .estimate
                .max(sight.sum + value - u32::from(sight.value[g]));
            *change = Undo {
                group: g as u8,
                manhattan,
                value: value.min(255) as u8,
                index: change.index,
                rank: change.rank,
            };
        }
        child
    }

    /// Asks for the spread entries each view reads after the blank moves to
    /// `to` to be fetched into the cache.
    #[inline(always)]
    fn prefetch_spread<D: AsRef<[u8]> + Sync, const V: usize>(
        &self,
        solver: &Searcher<D>,
        spread: &[Vec<u8>],
        views: &[View; V],
        to: usize,
    ) {
        let tile = usize::from(self.cells[to]);
        for (view, sight) in views.iter().zip(&self.sights) {
            let tile = usize::from(view.tile[tile]);
            let g = usize::from(solver.group_of[tile]);
            let index = sight.spread_index(g, solver.shift[tile], tile, view.cell[self.blank]);
            crate::bfs::prefetch(&spread[g], index as usize / 2);
        }
    }

    /// Moves the blank to `to`, where [`State::child`] saw it as `child`;
    /// returns what undoes it.
    #[inline(always)]
    fn play<const V: usize, const SPREAD: bool>(
        &mut self,
        views: &[View; V],
        to: usize,
        child: &Child<V>,
    ) -> [Undo; V] {
        let from = self.blank;
        let tile = self.cells[to];
        self.cells.swap(from, to);
        self.blank = to;
        let mut undo = [Undo::default(); V];
        for (((view, sight), undo), change) in views
            .iter()
            .zip(&mut self.sights)
            .zip(&mut undo)
            .zip(&child.changes)
        {
            let moved = view.tile[usize::from(tile)];
            sight.pos[usize::from(moved)] = view.cell[from];
            let g = usize::from(change.group);
            *undo = Undo {
                group: change.group,
                manhattan: sight.manhattan[g],
                value: sight.value[g],
                index: sight.index[g],
                rank: sight.rank[g],
            };
            sight.set::<SPREAD>(change, moved, view.cell[from], view.cell[to]);
        }
        undo
    }

    /// Takes back the move that brought the blank from `from`.
    #[inline(always)]
    fn unplay<const V: usize, const SPREAD: bool>(
        &mut self,
        views: &[View; V],
        from: usize,
        undo: &[Undo; V],
    ) {
        let to = self.blank;
        let tile = self.cells[from];
        self.cells.swap(from, to);
        self.blank = from;
        for ((view, sight), undo) in views.iter().zip(&mut self.sights).zip(undo) {
            let moved = view.tile[usize::from(tile)];
            sight.pos[usize::from(moved)] = view.cell[to];
            sight.set::<SPREAD>(undo, moved, view.cell[to], view.cell[from]);
        }
    }
}

enum Step {
    Found,
    /// Every path went over the bound; the smallest value over it.
    Over(u32),
    /// A mapped file under the databases changed: stop.
    Changed,
    /// The search passed the nodes after which the entries are spread.
    Spread,
    /// A subtree of a split bound after one where the goal was found: stop.
    Stopped,
}

/// How the search of a subtree of a split bound ended, after how many
/// nodes, on which path.
struct Searched {
    step: Step,
    nodes: u64,
    path: Vec<Move>,
}

/// A subtree of a split bound: the path to it, and the nodes the search
/// in one piece would have expanded before it.
struct Task {
    path: Vec<Move>,
    before: u64,
    /// Whether the path ends on the goal, and the search there.
    goal: bool,
}

struct Search<'s, D, const V: usize> {
    solver: &'s Searcher<D>,
    /// The move sequences not to follow.
    pruner: &'s Pruner,
    /// The spread entries, once the search uses them; else empty.
    spread: &'s [Vec<u8>],
    views: &'s [View; V],
    goal: &'s Board,
    neighbors: [[Option<u8>; 4]; MAX_CELLS],
    path: Vec<Move>,
    nodes: u64,
    /// For a subtree of a split bound: the lowest subtree where the goal
    /// has been found so far, and this one.
    stop: Option<(&'s AtomicUsize, usize)>,
}

impl<'s, D: AsRef<[u8]> + Sync, const V: usize> Search<'s, D, V> {
    /// Searches below `state` as [`Search::dfs`] does, with the entries
    /// spread if they are, else fetched ahead if the databases ask for it.
    fn run(&mut self, state: &mut State, g: u32, bound: u32, last: Option<Move>, fsm: u32) -> Step {
        match (self.solver.ahead, !self.spread.is_empty()) {
            (_, true) => self.dfs::<false, true>(state, g, bound, last, fsm),
            (true, false) => self.dfs::<true, false>(state, g, bound, last, fsm),
            (false, false) => self.dfs::<false, false>(state, g, bound, last, fsm),
        }
    }

    /// Searches one bound from `root`, the board `start`, on every thread:
    /// the first levels are cut into subtrees, in the order the search in
    /// one piece meets them, and the threads take them in turn. The first
    /// subtree to hold the goal gives the answer, as in one piece; those
    /// after it stop. The nodes counted are those of the search in one
    /// piece.
    fn split(&mut self, start: &Board, root: &State, bound: u32) -> Step {
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
        let next = AtomicUsize::new(0);
        let found = AtomicUsize::new(usize::MAX);
        let results: Vec<Mutex<Option<Searched>>> =
            tasks.iter().map(|_| Mutex::new(None)).collect();
        let (solver, pruner, spread, views, goal) =
            (self.solver, self.pruner, self.spread, self.views, self.goal);
        let work = || {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(task) = tasks.get(i) else {
                    return;
                };
                if i > found.load(Ordering::Relaxed) {
                    continue;
                }
                let result = if task.goal {
                    Searched {
                        step: Step::Found,
                        nodes: 0,
                        path: task.path.clone(),
                    }
                } else {
                    let board = start.after(&task.path).expect("the path was played");
                    let mut state = State::new(solver, views, &board);
                    let mut search = Search {
                        solver,
                        pruner,
                        spread,
                        views,
                        goal,
                        neighbors: goal.shape().neighbor_table(),
                        path: task.path.clone(),
                        nodes: 0,
                        stop: Some((&found, i)),
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
                if let Step::Found = result.step {
                    found.fetch_min(i, Ordering::Relaxed);
                }
                *results[i].lock().expect("no thread panics holding it") = Some(result);
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..threads {
                // A thread that cannot start leaves its share to the others.
                let _ = std::thread::Builder::new().spawn_scoped(scope, work);
            }
            work();
        });
        let mut done = 0;
        for (task, result) in tasks.iter().zip(results) {
            let Searched { step, nodes, path } = result
                .into_inner()
                .expect("no thread panics holding it")
                .expect("every subtree up to the first with the goal is searched");
            done += nodes;
            match step {
                Step::Over(over) => least = least.min(over),
                Step::Found => {
                    self.nodes += task.before + done;
                    self.path = path;
                    return Step::Found;
                }
                Step::Changed => return Step::Changed,
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
    fn moves(&self, blank: usize, last: Option<Move>, fsm: u32) -> ([(Move, u8, u32); 4], usize) {
        let mut moves = [(Move::Down, 0, 0); 4];
        let mut count = 0;
        for mv in Move::ALL {
            if last == Some(mv.opposite()) {
                continue;
            }
            let Some(target) = self.neighbors[blank][usize::from(mv.code())] else {
                continue;
            };
            let next = self.pruner.step(fsm, mv);
            if next != prune::DEAD {
                moves[count] = (mv, target, next);
                count += 1;
            }
        }
        (moves, count)
    }

    /// Walks the first `depth` levels below `state` as [`Search::dfs`]
    /// would, and lists the subtrees below them in `tasks`; `least` takes
    /// the smallest value over the bound. Returns whether the goal was met
    /// on the way (the last task then ends there).
    #[allow(clippy::too_many_arguments)]
    fn cut(
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
            let child =
                state.child::<D, false, false, V>(self.solver, &[], self.views, target, &[0; V]);
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
    fn dfs<const AHEAD: bool, const SPREAD: bool>(
        &mut self,
        state: &mut State,
        g: u32,
        bound: u32,
        last: Option<Move>,
        fsm: u32,
    ) -> Step {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHANGE_CHECK) {
            if crate::map::changed() {
                return Step::Changed;
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
        let (children, count) = self.moves(state.blank, last, fsm);
        let mut ranks = [[0u32; V]; 4];
        for (&(_, target, _), ranks) in children[..count].iter().zip(&mut ranks) {
            if SPREAD {
                state.prefetch_spread(self.solver, self.spread, self.views, usize::from(target));
            }
            if AHEAD {
                *ranks = state.ranks(self.solver, self.views, usize::from(target));
                for (view, &rank) in ranks.iter().enumerate() {
                    let tile = self.views[view].tile[usize::from(state.cells[usize::from(target)])];
                    let group = usize::from(self.solver.group_of[usize::from(tile)]);
                    self.solver.table.values(group).prefetch(rank as usize);
                }
            }
        }
        let mut least = u32::MAX;
        for (&(mv, target, next), ranks) in children[..count].iter().zip(&ranks) {
            let target = usize::from(target);
            let child = state.child::<D, AHEAD, SPREAD, V>(
                self.solver,
                self.spread,
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
            match self.dfs::<AHEAD, SPREAD>(state, g + 1, bound, Some(mv), next) {
                Step::Over(over) => least = least.min(over),
                done => return done,
            }
            self.path.pop();
            state.unplay::<V, SPREAD>(self.views, from, &undo);
        }
        Step::Over(least)
    }
}
