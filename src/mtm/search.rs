//! IDA* in the multi-tile metric, for boards too large for a table, guided
//! by walking distances counted in that metric and, once a search needs
//! more, by pattern databases of that metric ([`MtmPdb`]).
//!
//! # The heuristic
//!
//! The vertical walking distance forgets everything about a board but how
//! many tiles of each goal row stand in each row, and the blank's row. A
//! vertical MTM move (the blank jumps `k` rows) moves one tile from each of
//! `k` rows one row toward the blank's; in the forgotten board that is one
//! move that takes, from each of those rows, a tile of some goal row one row
//! on. The fewest such moves from a board's counts to the goal's, found by
//! a breadth-first search of every count, is at most the vertical moves of
//! any answer, since every answer's vertical moves are such moves. A
//! horizontal move changes no count, and moves no tile between columns. So
//! the same distance of the columns bounds the horizontal moves, and the
//! sum of the two bounds the moves of every answer: it is admissible.
//! (Pattern databases of the single-tile metric are not: one MTM move can
//! carry three tiles.) It is about half a board's count; the largest of it
//! and the counts of the MTM databases of the tiles five at a time is 70
//! to 80%.
//!
//! # The smallest answer
//!
//! The search spells answers letter by letter, in the order `d l r u`: a
//! letter that goes on the way the last one went adds no move, any other
//! starts one (going straight back is never shortest, and is not tried).
//! With the moves' budget raised one at a time from the heuristic's
//! estimate, the first answer found has the fewest moves, and of those the
//! smallest letters.
//!
//! # The search
//!
//! The budgets are raised and the search split over every core by the one
//! driver both metrics share ([`crate::deepen`]); this module brings the
//! letters, the estimates and the search below a position.

use std::sync::{Arc, Mutex, OnceLock};

#[cfg(test)]
use crate::answer::Solution;
use crate::answer::SolveError;
use crate::board::Board;
use crate::deepen::{Deepen, Deepened, Near, Part, Query, Settings, Step, Walk};
use crate::mtm::pdb::MtmPdb;
use crate::progress::Reporter;
use crate::shape::{MAX_CELLS, Move, Shape};
use crate::stop::Stop;

use self::learned::{Kept, Learning};
use self::tree::Node;
use self::walking::{Counts, Walking};

mod learned;
mod tree;
mod walking;

/// The two walking distances toward one goal.
struct Estimate {
    shape: Shape,
    rows: Walking,
    cols: Walking,
    /// The goal's cell of each tile.
    home: [u8; MAX_CELLS],
    goal: Board,
    /// Pattern databases, built when a search needs more than the walking
    /// distances (see [`MtmSearcher::solve_to`]), or read from a file.
    databases: OnceLock<Vec<MtmPdb>>,
    /// Held by the search that builds the databases.
    building: Mutex<()>,
    /// Databases of larger groups, made on request
    /// ([`MtmSearcher::strengthen`]), then the smaller ones: the searches
    /// that start once they are made use them instead.
    stronger: OnceLock<Vec<MtmPdb>>,
    /// Held while the stronger databases are made.
    strengthening: Mutex<()>,
    /// Whether the databases were read from a file: searches use them from
    /// the first position.
    read: bool,
    /// On a square board whose goal's blank is on the diagonal, the
    /// transposed board's tiles renamed toward the goal: its count is the
    /// board's, so the databases are probed on it too. Per cell, its
    /// transposed cell; per tile, its new name.
    mirror: Option<([u8; MAX_CELLS], [u8; MAX_CELLS])>,
    /// The bounds searches asked to learn learned ([`learned`]).
    learned: Kept,
}

impl Estimate {
    fn new(goal: &Board) -> Estimate {
        let shape = goal.shape();
        let (rows, cols) = (shape.rows(), shape.cols());
        let mut home = [0u8; MAX_CELLS];
        for (cell, &tile) in goal.cells().iter().enumerate() {
            home[usize::from(tile)] = cell as u8;
        }
        Estimate {
            shape,
            rows: Walking::new(rows, cols, goal.blank() / cols),
            cols: Walking::new(cols, rows, goal.blank() % cols),
            home,
            goal: *goal,
            databases: OnceLock::new(),
            building: Mutex::new(()),
            stronger: OnceLock::new(),
            strengthening: Mutex::new(()),
            read: false,
            mirror: mirror(goal),
            learned: Kept::default(),
        }
    }

    /// The pattern databases of the goal, built on first use: the tiles
    /// in order, in groups of [`group`] (three on 4x4, 5.8 million
    /// placements each, built in about 2 seconds on 2 cores).
    fn databases(&self) -> &[MtmPdb] {
        self.databases_until(&Stop::new())
            .expect("a build with no stop ends")
    }

    /// [`Estimate::databases`], or `None` once `stop` is asked for: one
    /// search builds them, others wait, each looking at its own stop.
    fn databases_until(&self, stop: &Stop) -> Option<&[MtmPdb]> {
        loop {
            if let Some(databases) = self.databases.get() {
                return Some(databases);
            }
            if stop.is_stopped() {
                return None;
            }
            match self.building.try_lock() {
                Err(std::sync::TryLockError::WouldBlock) => {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                Ok(_) | Err(std::sync::TryLockError::Poisoned(_)) => {
                    if self.databases.get().is_none() {
                        let built = self.build_until(group(self.shape), stop)?;
                        let _ = self.databases.set(built);
                    }
                }
            }
        }
    }

    /// Databases of the tiles in order, `size` at a time (the rest in the
    /// last), toward the goal; `None` once `stop` is asked for.
    fn build_until(&self, size: usize, stop: &Stop) -> Option<Vec<MtmPdb>> {
        let tiles: Vec<u8> = (1..self.shape.cells() as u8).collect();
        tiles
            .chunks(size)
            .map(|group| MtmPdb::build_until(&self.goal, group, stop))
            .collect()
    }

    /// The databases a search starting now uses: the
    /// [stronger](MtmSearcher::strengthen) ones once made, else
    /// [`Estimate::databases_until`]'s.
    fn strongest_until(&self, stop: &Stop) -> Option<&[MtmPdb]> {
        match self.stronger.get() {
            Some(stronger) => Some(stronger),
            None => self.databases_until(stop),
        }
    }

    /// The keys of the two counts of the board of `cells`, the blank at
    /// `blank`.
    fn keys(&self, cells: &[u8; MAX_CELLS], blank: usize) -> Keys {
        let cols = self.shape.cols();
        let mut by_row: Counts = Default::default();
        let mut by_col: Counts = Default::default();
        for (cell, &tile) in cells[..self.shape.cells()].iter().enumerate() {
            if tile != 0 {
                let home = usize::from(self.home[usize::from(tile)]);
                by_row[cell / cols][home / cols] += 1;
                by_col[cell % cols][home % cols] += 1;
            }
        }
        Keys {
            rows: self.rows.key(&by_row, blank / cols),
            cols: self.cols.key(&by_col, blank % cols),
        }
    }

    /// The keys once the blank at `blank` steps to `target`, taking the
    /// place of `tile`.
    #[inline(always)]
    fn stepped(&self, keys: Keys, tile: u8, blank: usize, target: usize) -> Keys {
        let cols = self.shape.cols();
        let home = usize::from(self.home[usize::from(tile)]);
        match blank % cols == target % cols {
            true => Keys {
                rows: self
                    .rows
                    .step(keys.rows, home / cols, target / cols, blank / cols),
                ..keys
            },
            false => Keys {
                cols: self
                    .cols
                    .step(keys.cols, home % cols, target % cols, blank % cols),
                ..keys
            },
        }
    }

    /// A lower bound of the moves to the goal from the board of `keys`.
    #[inline(always)]
    fn of(&self, keys: Keys) -> u32 {
        self.rows.of(keys.rows) + self.cols.of(keys.cols)
    }
}

/// The transposition of a square board, for goals whose blank is on the
/// diagonal: per cell its image, per tile the tile of `goal` on the image of
/// the tile's cell in `goal` (so that the image of `goal` is `goal`).
fn mirror(goal: &Board) -> Option<([u8; MAX_CELLS], [u8; MAX_CELLS])> {
    let shape = goal.shape();
    let side = shape.rows();
    let image = |cell: usize| (cell % side) * side + cell / side;
    if shape.cols() != side || image(goal.blank()) != goal.blank() {
        return None;
    }
    let mut cells = [0u8; MAX_CELLS];
    let mut names = [0u8; MAX_CELLS];
    for (cell, &tile) in goal.cells().iter().enumerate() {
        cells[cell] = image(cell) as u8;
        names[usize::from(tile)] = goal.cells()[image(cell)];
    }
    Some((cells, names))
}

/// The keys of a board's two counts, row by row and column by column.
#[derive(Clone, Copy)]
struct Keys {
    rows: u128,
    cols: u128,
}

/// Optimal answers in the [multi-tile metric](crate::metric::Metric) by IDA*
/// over walking distances and pattern databases (`docs/metric.md` says why
/// they are admissible):
/// any shape, any goal, no data files. The distances toward each goal's
/// blank cell are counted on its first board (milliseconds), the databases
/// once a search tries a million positions without them (seconds), and
/// both are kept: every search after that uses the databases from its
/// first position.
pub struct MtmSearcher {
    shape: Shape,
    /// The groups of the databases read from a file, if any.
    described: Option<String>,
    /// Positions a search tries with the walking distances alone.
    walking_alone: u64,
    neighbors: [[Option<u8>; 4]; MAX_CELLS],
    estimates: Mutex<Vec<(Board, Arc<Estimate>)>>,
    /// The threads, the file watched and when a far board is given up.
    deepen: Settings,
}

impl MtmSearcher {
    /// A searcher for boards of `shape`.
    pub fn new(shape: Shape) -> MtmSearcher {
        MtmSearcher {
            shape,
            described: None,
            walking_alone: WALKING_ALONE,
            neighbors: shape.neighbor_table(),
            estimates: Mutex::new(Vec::new()),
            deepen: Settings::default(),
        }
    }

    /// Gives up on a board with [`SolveError::TooFar`] once a budget starts
    /// after `nodes` positions, naming `build`, the command that makes
    /// databases for every board, and its `cost`.
    pub(crate) fn near(mut self, nodes: u64, build: String, cost: &'static str) -> MtmSearcher {
        self.deepen.near = Some(Near { nodes, build, cost });
        self
    }

    /// Whether the search gives up on far boards ([`MtmSearcher::near`]).
    pub(crate) fn near_only(&self) -> bool {
        self.deepen.near.is_some()
    }

    /// Stops every search with [`SolveError::Changed`] once `watch` says
    /// the file the databases are read from changed.
    pub(crate) fn watching(mut self, watch: Option<crate::map::Watch>) -> MtmSearcher {
        self.deepen.watch = watch;
        self
    }

    /// The watch on the file the databases are read from, if they are.
    pub(crate) fn watch(&self) -> Option<&crate::map::Watch> {
        self.deepen.watch.as_ref()
    }

    /// Sets the threads a long search runs on (by default one a core), and
    /// the positions of a budget after which the next is searched on them.
    /// The answers and the positions counted are the same either way.
    #[cfg(test)]
    pub fn threads(mut self, threads: usize, after: u64) -> MtmSearcher {
        self.deepen.threads = threads.max(1);
        self.deepen.parallel_after = after;
        self
    }

    /// This searcher, with pattern databases read from a file toward
    /// `goal` (a canonical goal): boards toward goals with its blank cell
    /// use them from the first position.
    pub(crate) fn with_databases(self, goal: &Board, databases: Vec<MtmPdb>) -> MtmSearcher {
        let mut estimate = Estimate::new(goal);
        estimate.read = true;
        let sizes: Vec<String> = databases
            .iter()
            .map(|db| (db.tiles().len() - 1).to_string())
            .collect();
        let _ = estimate.databases.set(databases);
        self.estimates
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((*goal, Arc::new(estimate)));
        MtmSearcher {
            described: Some(sizes.join("-")),
            ..self
        }
    }

    /// Proves the databases read from a file right again (see
    /// [`Solver::verify`](crate::solver::Solver::verify)): the file's checksums, then each
    /// database made anew.
    ///
    /// # Errors
    ///
    /// The first damaged section or entry found wrong.
    pub(crate) fn prove_databases_read(&self) -> Result<(), crate::pdb::PdbError> {
        let estimates = self.estimates.lock().unwrap_or_else(|e| e.into_inner());
        for (goal, estimate) in estimates.iter().filter(|(_, e)| e.read) {
            crate::mtm::prove_databases(goal, estimate.databases(), |_, _| {})?;
        }
        Ok(())
    }

    /// The groups of the databases read from a file (`7-7-1`), if any.
    pub(crate) fn databases_read(&self) -> Option<&str> {
        self.described.as_deref()
    }

    /// This searcher, with the pattern databases from the first position:
    /// for tests of the search over them on near boards.
    #[cfg(test)]
    pub fn with_databases_at_once(mut self) -> MtmSearcher {
        self.walking_alone = 0;
        self
    }

    /// The shape of the boards it answers.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Solves `start` toward `goal`: the canonical answer, one step of the
    /// blank a letter (a move is a run of equal letters: see
    /// [`Metric::count`](crate::metric::Metric::count)), and the number of
    /// positions searched, as [`Searcher::solve_to`](crate::ida::Searcher::solve_to)
    /// gives them in the single-tile metric.
    ///
    /// # Errors
    ///
    /// Fails if a board is not of the searcher's shape, or the file the
    /// databases are read from changed during the search.
    #[cfg(test)]
    pub fn solve_to(&self, start: &Board, goal: &Board) -> Result<(Solution, u64), SolveError> {
        crate::deepen::uncapped(
            self.search(start, goal, &Stop::new(), Query::WHOLE)
                .map(crate::deepen::answer),
        )
    }

    /// What the search of `start` toward `goal` is asked for
    /// ([`Query`]): the answer within bounds known beforehand, or a part
    /// of one bound, searched over the databases from the start (the search
    /// in one piece first searches with the walking distances alone);
    /// `None` if `start` cannot reach `goal`.
    pub(crate) fn search(
        &self,
        start: &Board,
        goal: &Board,
        stop: &Stop,
        query: Query<'_>,
    ) -> Result<Option<Deepened>, SolveError> {
        for board in [start, goal] {
            if board.shape() != self.shape {
                return Err(SolveError::Shape {
                    expected: self.shape,
                    got: board.shape(),
                });
            }
        }
        if !start.solvable_to(goal) {
            return Ok(None);
        }
        // Toward the canonical goal with the blank in the goal's cell: the
        // same moves, and one estimate for every goal of the cell.
        let canonical = Board::canonical(self.shape, goal.blank());
        let start = start.relabelled(goal, &canonical);
        let estimate = self.estimate(&canonical);
        let mut target = [0u8; MAX_CELLS];
        target[..canonical.cells().len()].copy_from_slice(canonical.cells());
        let mut cells = [0u8; MAX_CELLS];
        cells[..start.cells().len()].copy_from_slice(start.cells());
        let mut cell_of = [0u8; MAX_CELLS];
        for (cell, &tile) in start.cells().iter().enumerate() {
            cell_of[usize::from(tile)] = cell as u8;
        }
        let keys = estimate.keys(&cells, start.blank());
        let root = Node {
            cells,
            cell_of,
            blank: start.blank(),
            keys,
            run: None,
            budget: 0,
        };
        let report = Reporter::start(self.shape);
        let mut deepen = Deepen {
            shape: self.shape,
            metric: crate::metric::Metric::Mtm,
            // No answer is longer in this metric than in the single-tile
            // one: a budget past the shape's diameter means wrong data.
            most: self.shape.diameter_bound(),
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
        let mut search = Search {
            neighbors: &self.neighbors,
            estimate: &estimate,
            databases: &[],
            n: self.shape.cells(),
            target,
            root,
            learning: (query.learn && self.shape.small() && matches!(query.part, Part::Whole))
                .then(|| estimate.learned.learning()),
        };
        // The walking distances alone answer near boards at once; past
        // a million positions, the pattern databases join them, and once
        // made they answer every search from its first position.
        let made = estimate.read
            || estimate.databases.get().is_some()
            || estimate.stronger.get().is_some();
        if !made && self.walking_alone > 0 && matches!(query.part, Part::Whole) {
            deepen.limit = self.walking_alone;
            let budget = search.bound(keys, &cell_of);
            match deepen.run(&mut search, budget) {
                Ok(Deepened::Limit(nodes, generated)) => {
                    (deepen.counted, deepen.counted_generated) = (nodes, generated);
                }
                done => {
                    search.keep_learned(&estimate, self.watch());
                    return done.map(Some);
                }
            }
            deepen.limit = u64::MAX;
        }
        let Some(databases) = estimate.strongest_until(stop) else {
            return Err(SolveError::Stopped);
        };
        search.databases = databases;
        let budget = search.bound(keys, &cell_of);
        let searched = deepen.run(&mut search, budget);
        search.keep_learned(&estimate, self.watch());
        searched.map(Some)
    }

    /// Makes databases of [larger groups](stronger_group) toward `goal`
    /// in memory, where a search would build smaller ones, for the searches
    /// that start after, which take the largest count of both sets:
    /// `Ok(false)` if there are none to make (databases read from a file,
    /// boards of more than 16 cells). Goals with the blank on the same cell
    /// share them; made once, they are kept.
    ///
    /// # Errors
    ///
    /// Fails if `goal` is not of the searcher's shape, or `stop` is asked
    /// for before they are made.
    pub(crate) fn strengthen(&self, goal: &Board, stop: &Stop) -> Result<bool, SolveError> {
        if goal.shape() != self.shape {
            return Err(SolveError::Shape {
                expected: self.shape,
                got: goal.shape(),
            });
        }
        let Some(size) = stronger_group(self.shape) else {
            return Ok(false);
        };
        let estimate = self.estimate(&Board::canonical(self.shape, goal.blank()));
        if estimate.read {
            return Ok(false);
        }
        let _making = estimate
            .strengthening
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if estimate.stronger.get().is_none() {
            let mut made = estimate
                .build_until(size, stop)
                .ok_or(SolveError::Stopped)?;
            // Neither set's count is the larger on every board: the
            // largest of both prunes most. A group within another counts
            // no more than it (its board forgets more), and is left out.
            let smaller = estimate.databases_until(stop).ok_or(SolveError::Stopped)?;
            let within = |inner: &MtmPdb, set: &[MtmPdb]| {
                set.iter()
                    .any(|outer| inner.tiles().iter().all(|t| outer.tiles().contains(t)))
            };
            let rest: Vec<MtmPdb> = smaller
                .iter()
                .filter(|db| !within(db, &made))
                .cloned()
                .collect();
            made.retain(|db| !within(db, smaller));
            made.extend(rest);
            let _ = estimate.stronger.set(made);
        }
        Ok(true)
    }

    /// The estimate toward `goal`, counted on first use.
    fn estimate(&self, goal: &Board) -> Arc<Estimate> {
        let mut estimates = self.estimates.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, estimate)) = estimates.iter().find(|(g, _)| g == goal) {
            return Arc::clone(estimate);
        }
        let estimate = Arc::new(Estimate::new(goal));
        estimates.push((*goal, Arc::clone(&estimate)));
        estimate
    }
}

impl std::fmt::Debug for MtmSearcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MtmSearcher")
            .field("shape", &self.shape)
            .finish_non_exhaustive()
    }
}

/// Tiles in a group of a pattern database of the multi-tile metric built
/// at start: 5 on up to 16 cells (5.8 million placements on 4x4), 4 beyond
/// (6.4 million on 5x5), where databases of every board are made by
/// `eight-gen`.
fn group(shape: Shape) -> usize {
    match shape.small() {
        true => 5,
        false => 4,
    }
}

/// Tiles in a group of the databases [`MtmSearcher::strengthen`] makes: 6
/// on up to 16 cells (6-6-3 on 4x4: 57.7 million placements a group of six,
/// 115 MB in all, made in about 15 s on 2 cores), none beyond.
fn stronger_group(shape: Shape) -> Option<usize> {
    shape.small().then_some(6)
}

/// Positions a search tries with the walking distances alone.
const WALKING_ALONE: u64 = 1 << 20;

struct Search<'a> {
    neighbors: &'a [[Option<u8>; 4]; MAX_CELLS],
    estimate: &'a Estimate,
    databases: &'a [MtmPdb],
    n: usize,
    target: [u8; MAX_CELLS],
    /// The start, with no budget.
    root: Node,
    /// The bounds it reads and learns, if asked to learn.
    learning: Option<Learning>,
}

impl Search<'_> {
    /// Keeps what the search learned, if it learns, for the searches after
    /// it toward its goal: not if the file its databases are read from
    /// (`watch`) changed, as what they bounded may be wrong.
    fn keep_learned(&mut self, estimate: &Estimate, watch: Option<&crate::map::Watch>) {
        let learning = self.learning.take();
        if let Some(learning) = learning.filter(|_| !watch.is_some_and(|w| w.changed())) {
            estimate.learned.keep(learning);
        }
    }

    /// The estimate of the board of `keys` whose tile `t` is on cell
    /// `cell_of[t]`.
    fn bound(&self, keys: Keys, cell_of: &[u8; MAX_CELLS]) -> u32 {
        let walking = self.estimate.of(keys);
        let mirrored = self.mirrored(cell_of);
        std::iter::once(cell_of)
            .chain(mirrored.as_ref())
            .flat_map(|cell_of| self.databases.iter().map(|db| db.count(cell_of, self.n)))
            .fold(walking, u32::max)
    }

    /// Whether the board may be `left` moves from the goal: no estimate
    /// says more.
    #[inline(always)]
    fn may(&self, keys: Keys, cell_of: &[u8; MAX_CELLS], left: u32) -> bool {
        if self.estimate.of(keys) > left
            || self
                .databases
                .iter()
                .any(|db| db.count(cell_of, self.n) > left)
        {
            return false;
        }
        match self.mirrored(cell_of) {
            Some(mirrored) => self
                .databases
                .iter()
                .all(|db| db.count(&mirrored, self.n) <= left),
            None => true,
        }
    }

    /// Where each tile of the mirrored board stands, if the databases are
    /// probed on it (see [`Estimate::mirror`]).
    #[inline(always)]
    fn mirrored(&self, cell_of: &[u8; MAX_CELLS]) -> Option<[u8; MAX_CELLS]> {
        let (cells, names) = self
            .estimate
            .mirror
            .as_ref()
            .filter(|_| !self.databases.is_empty())?;
        let mut mirrored = [0u8; MAX_CELLS];
        for tile in 0..self.n {
            mirrored[usize::from(names[tile])] = cells[usize::from(cell_of[tile])];
        }
        Some(mirrored)
    }

    /// Searches for an answer of at most `budget` more moves (a letter the
    /// way of `run` being no new move) from `cells`, its letters then
    /// pushed on the walk's path; [`Step::Over`] (of no bound: the tree's
    /// says which) if there is none.
    #[allow(clippy::too_many_arguments)]
    fn down(
        &self,
        walk: &mut Walk<'_>,
        cells: &mut [u8; MAX_CELLS],
        cell_of: &mut [u8; MAX_CELLS],
        blank: usize,
        keys: Keys,
        run: Option<Move>,
        budget: u32,
    ) -> Step {
        if *cells == self.target {
            return Step::Found;
        }
        if let Err(step) = walk.enter() {
            return step;
        }
        let learned = (self.learning.as_ref())
            .filter(|_| walk.path.len() <= learned::DEPTH)
            .map(|learning| (learning, Learning::key(cells, self.n)));
        if let Some((learning, key)) = learned
            && learning.beyond(key, run, budget)
        {
            return Step::Over(u32::MAX);
        }
        let before = walk.nodes;
        let (steps, count) = self.steps(blank, run, budget);
        walk.generated += count as u64;
        for &(mv, next, left) in &steps[..count] {
            let tile = cells[next];
            let keys = self.estimate.stepped(keys, tile, blank, next);
            cells.swap(blank, next);
            cell_of[usize::from(tile)] = blank as u8;
            cell_of[0] = next as u8;
            if self.within(cells, cell_of, next, keys, mv, left) {
                walk.path.push(mv);
                match self.down(walk, cells, cell_of, next, keys, Some(mv), left) {
                    Step::Found => return Step::Found,
                    Step::Over(_) => {}
                    step => return step,
                }
                walk.path.pop();
            }
            cells.swap(blank, next);
            cell_of[usize::from(tile)] = next as u8;
            cell_of[0] = blank as u8;
        }
        if let Some((learning, key)) = learned
            && walk.nodes - before >= learned::NODES
        {
            learning.learn(key, run, budget);
        }
        Step::Over(u32::MAX)
    }

    /// The letters the blank on `blank` may take next, in order, each with
    /// its new cell and the budget left after it: never back along the
    /// run it is in (`run`), a letter on along the run free, any other
    /// within `budget`.
    #[inline(always)]
    fn steps(
        &self,
        blank: usize,
        run: Option<Move>,
        budget: u32,
    ) -> ([(Move, usize, u32); 4], usize) {
        let mut steps = [(Move::Down, 0, 0); 4];
        let mut count = 0;
        for mv in Move::ALL {
            let Some(next) = self.neighbors[blank][usize::from(mv.code())] else {
                continue;
            };
            let left = match run {
                Some(way) if way == mv => budget,
                Some(way) if way == mv.opposite() => continue,
                _ if budget == 0 => continue,
                _ => budget - 1,
            };
            steps[count] = (mv, usize::from(next), left);
            count += 1;
        }
        (steps, count)
    }

    /// Whether the board may be `left` moves from the goal once the run of
    /// `way` it is in ends, somewhere along it.
    fn within(
        &self,
        cells: &[u8; MAX_CELLS],
        cell_of: &[u8; MAX_CELLS],
        blank: usize,
        keys: Keys,
        way: Move,
        left: u32,
    ) -> bool {
        let (mut cells, mut cell_of, mut keys, mut blank) = (*cells, *cell_of, keys, blank);
        loop {
            if self.may(keys, &cell_of, left) {
                return true;
            }
            let Some(next) = self.neighbors[blank][usize::from(way.code())] else {
                return false;
            };
            let next = usize::from(next);
            let tile = cells[next];
            keys = self.estimate.stepped(keys, tile, blank, next);
            cells.swap(blank, next);
            cell_of[usize::from(tile)] = blank as u8;
            cell_of[0] = next as u8;
            blank = next;
        }
    }
}
