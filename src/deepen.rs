//! IDA*, the one driver both metrics search with: the bound raised from
//! the estimate until a path fits under it, the checks a search makes as
//! it goes (a [`Stop`] asked, a changed file, a node limit, the shape's
//! diameter), word of each bound ([`crate::progress`]), and a long bound
//! split into subtrees searched on every core ([`crate::split`]).
//!
//! What a metric brings is a [`Tree`]: its nodes, a node's children in
//! the order of their letters, and the depth-first search below a node,
//! where its moves and its heuristic are compiled in (no call through a
//! pointer a node). The single-tile metric's tree is in [`crate::ida`], the
//! multi-tile metric's in [`crate::mtm`].
//!
//! # Every core
//!
//! Once a bound's search passes `parallel_after` nodes, each next bound is
//! cut into subtrees at its first letters, in the order the search in one
//! piece meets them, and the cores take them in turn. The first subtree to
//! hold an answer gives it, as the search in one piece would; the subtrees
//! after it stop. Answers and the nodes counted (those of the search in
//! one piece) do not depend on the threads.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::answer::{Solution, SolveError};
use crate::map::Watch;
use crate::metric::Metric;
use crate::progress::Reporter;
use crate::shape::{Move, Shape};
use crate::split;
use crate::stop::Stop;

/// Nodes between two looks at the asks to end a search: a stop, a changed
/// file, an earlier subtree's answer, the node limit.
const CHECK: u64 = 1 << 14;

/// The nodes of a bound after which the next bound is searched on every
/// core, by default. A bound takes a few times the nodes of the one before,
/// so threads start for bounds of a few milliseconds (single-tile) or tens
/// (multi-tile) and more. A search that starts at a floor (a player's next
/// board) searches its first bound alone up to this many nodes, then again
/// on every core: the slowest of a player's multi-tile moves take about a
/// fifth less time than with 100,000 (`docs/performance.md`).
pub(crate) const PARALLEL_AFTER: u64 = 25_000;

/// The subtrees a bound is split into, at least, for each thread.
const TASKS_PER_THREAD: usize = 32;

/// How the search below a node ended.
pub(crate) enum Step {
    /// The goal, on the walk's path.
    Found,
    /// Every path went over the bound; the smallest bound that lets one
    /// more in.
    Over(u32),
    /// A mapped file under the heuristic changed.
    Changed,
    /// Asked to stop ([`Stop`]).
    Halted,
    /// A subtree of a split bound after one that holds an answer.
    Passed,
    /// The search passed its node limit.
    Limit,
    /// The search passed the nodes after which its tree searches the
    /// bound again, otherwise ([`Tree::again`]).
    Again,
}

/// What the search below a bound counts and is asked: the path to the
/// node searched, the nodes, and what ends it.
pub(crate) struct Walk<'a> {
    pub(crate) path: Vec<Move>,
    pub(crate) nodes: u64,
    /// The children looked at, within the bound or over it (past the
    /// moves a search leaves out): the nodes Korf and Felner count as
    /// generated.
    pub(crate) generated: u64,
    limit: u64,
    again_after: u64,
    /// For a subtree of a split bound: the first subtree found to hold an
    /// answer so far, and this one.
    first: Option<(&'a AtomicUsize, usize)>,
    halt: &'a Stop,
    watch: Option<&'a Watch>,
}

impl Walk<'_> {
    /// Counts a node; every [`CHECK`] nodes, the step to end the search
    /// with, if it is asked to end.
    #[inline(always)]
    pub(crate) fn enter(&mut self) -> Result<(), Step> {
        self.nodes += 1;
        match self.nodes.is_multiple_of(CHECK) {
            true => self.check(),
            false => Ok(()),
        }
    }

    #[cold]
    #[inline(never)]
    fn check(&self) -> Result<(), Step> {
        if self.nodes > self.limit {
            return Err(Step::Limit);
        }
        if self.watch.is_some_and(Watch::changed) {
            return Err(Step::Changed);
        }
        if self.halt.is_stopped() {
            return Err(Step::Halted);
        }
        if let Some((first, mine)) = self.first {
            if first.load(Ordering::Relaxed) < mine {
                return Err(Step::Passed);
            }
        } else if self.nodes >= self.again_after {
            // A subtree keeps to what its bound started with.
            return Err(Step::Again);
        }
        Ok(())
    }
}

/// A metric's search: its nodes and how it walks them.
pub(crate) trait Tree: Sync {
    /// A node with all its search goes on from: the board, how the
    /// heuristic sees it, the last letter.
    type Node: Clone + Send + Sync;

    /// The start, searched within `bound`.
    fn root(&self, bound: u32) -> Self::Node;

    /// Whether `node` is the goal.
    fn is_goal(&self, node: &Self::Node) -> bool;

    /// Searches below `node` (not the goal) within `bound`, pushing the
    /// letters to the goal on `walk`'s path if it finds it, entering each
    /// node with [`Walk::enter`].
    fn down(&self, walk: &mut Walk<'_>, node: &mut Self::Node, bound: u32) -> Step;

    /// The children of `node` that [`Tree::down`] would enter within
    /// `bound`, in its order: each with its letter and whether it is the
    /// goal. `over` takes the smallest bound that would let in one more,
    /// `generated` the children looked at ([`Walk::generated`]).
    fn children(
        &self,
        node: &Self::Node,
        bound: u32,
        over: &mut u32,
        generated: &mut u64,
    ) -> Vec<(Move, Self::Node, bool)>;

    /// Before each bound, `nodes` searched so far: what the search may
    /// change for the next bound, or the error that ends it.
    fn next_bound(&mut self, nodes: u64) -> Result<(), SolveError> {
        let _ = nodes;
        Ok(())
    }

    /// The nodes after which the search ends a bound with [`Step::Again`].
    fn again_after(&self) -> u64 {
        u64::MAX
    }

    /// Readies the search of the bound again, from the start.
    fn again(&mut self) {}
}

/// For a heuristic made at start, too weak for far boards: the nodes after
/// which a search gives up with [`SolveError::TooFar`], and the command
/// that makes data for every board, with what it costs.
#[derive(Clone, Debug)]
pub(crate) struct Near {
    pub(crate) nodes: u64,
    pub(crate) build: String,
    pub(crate) cost: &'static str,
}

/// What a searcher keeps for every search it deepens, whatever its metric.
pub(crate) struct Settings {
    /// The threads a long search runs on.
    pub(crate) threads: usize,
    /// The nodes of a bound after which the next is split over them.
    pub(crate) parallel_after: u64,
    /// The file the heuristic reads in place, if it does: a search over a
    /// file that changed stops.
    pub(crate) watch: Option<Watch>,
    /// Where a bound starts only below some nodes, if it does.
    pub(crate) near: Option<Near>,
}

/// One thread a core, the split after [`PARALLEL_AFTER`] nodes, no file,
/// no limit.
impl Default for Settings {
    fn default() -> Settings {
        Settings {
            threads: crate::split::threads(),
            parallel_after: PARALLEL_AFTER,
            watch: None,
            near: None,
        }
    }
}

/// How a search deepens, and what it is told and checks as it goes.
pub(crate) struct Deepen<'a> {
    pub(crate) shape: Shape,
    pub(crate) metric: Metric,
    /// The largest bound searched: past it the heuristic's data is wrong.
    pub(crate) most: u32,
    pub(crate) settings: &'a Settings,
    /// The nodes after which the search ends with [`Deepened::Limit`].
    pub(crate) limit: u64,
    pub(crate) stop: &'a Stop,
    pub(crate) report: Option<&'a Reporter>,
    /// The nodes an earlier search of the same board counted.
    pub(crate) counted: u64,
    /// The children it looked at ([`Walk::generated`]).
    pub(crate) counted_generated: u64,
    /// The largest bound asked for: past it the search ends with
    /// [`Deepened::Beyond`] (a board one move from a board of known
    /// distance is searched only as deep as it may be nearer).
    pub(crate) cap: u32,
    /// A bound no answer is shorter than, known beforehand: the bounds
    /// below it are not searched (a board one move from a board of known
    /// distance is at most one move nearer).
    pub(crate) floor: u32,
    /// The answer, or a part of one bound's search; for a part, `counted`
    /// is the nodes of the search in one piece before its bound.
    pub(crate) part: Part<'a>,
}

/// What a search is asked for beyond its boards: an answer within bounds
/// known beforehand, or a part of one bound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Query<'a> {
    /// [`Deepen::floor`].
    pub(crate) floor: u32,
    /// [`Deepen::cap`].
    pub(crate) cap: u32,
    /// [`Deepen::part`].
    pub(crate) part: Part<'a>,
    /// [`Deepen::counted`].
    pub(crate) counted: u64,
    /// Whether the search may read and keep the bounds searches of boards
    /// near its own learned (the multi-tile metric's, on up to 16 cells):
    /// for a player's boards, one move apart. Its answer is the same; its
    /// nodes depend on the searches before it, and on the threads.
    pub(crate) learn: bool,
}

impl<'a> Query<'a> {
    /// The answer, however far.
    pub(crate) const WHOLE: Query<'static> = Query::within(0, u32::MAX);

    /// The answer if it is `floor` to `cap` moves long, `floor` known to
    /// be at most its length.
    pub(crate) const fn within(floor: u32, cap: u32) -> Query<'static> {
        Query {
            floor,
            cap,
            part: Part::Whole,
            counted: 0,
            learn: false,
        }
    }

    /// This query, the search learning ([`Query::learn`]).
    pub(crate) const fn learning(self) -> Query<'a> {
        Query {
            learn: true,
            ..self
        }
    }

    /// `part` of the search, after the `counted` nodes of the search in
    /// one piece before its bound.
    pub(crate) fn part(part: Part<'_>, counted: u64) -> Query<'_> {
        Query {
            floor: 0,
            cap: u32::MAX,
            part,
            counted,
            learn: false,
        }
    }
}

/// What a search is asked for: the answer, or one part of one bound's
/// search for another process or machine to run ([`crate::Solver::cut`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Part<'a> {
    /// The answer: the bound raised from the estimate until a path fits.
    Whole,
    /// The subtrees of a bound, at least `at_least` of them if the bound
    /// holds as many, in the order the search in one piece meets them.
    Cut { bound: u32, at_least: usize },
    /// The subtree below `path` (letters from the start), searched within
    /// `bound` as the search in one piece searches it.
    Subtree { bound: u32, path: &'a [Move] },
}

/// One bound of a search cut into subtrees ([`crate::Solver::cut`]):
/// searched in their order, the first that holds an answer gives the
/// answer the search in one piece gives, and the nodes it counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtrees {
    /// Each subtree: the letters from the start to its root, and the
    /// nodes the search in one piece expands before it. The nodes of the
    /// bound up to an answer in subtree `i` are its `before`, plus the
    /// nodes of the subtrees up to `i` searched.
    pub tasks: Vec<(Vec<Move>, u64)>,
    /// The nodes the cut itself expanded: with no answer in the bound,
    /// its nodes are these, plus those of every subtree.
    pub inside: u64,
    /// The smallest bound past this one that a path the cut met needs:
    /// with no answer in the bound, the next bound is the smallest of it
    /// and each subtree's.
    pub over: u32,
}

/// How a deepening search ended without an error.
pub(crate) enum Deepened {
    /// The letters of the answer, and the nodes searched.
    Found(Vec<Move>, u64),
    /// At the node limit, after these nodes and children looked at.
    Limit(u64, u64),
    /// No path within [`Deepen::cap`].
    Beyond,
    /// [`Part::Cut`]'s subtrees.
    Cut(Subtrees),
    /// [`Part::Subtree`] searched: the answer's letters from the start if
    /// the subtree holds one, else the smallest bound that lets in one
    /// more path; and its nodes.
    Subtree(Result<Vec<Move>, u32>, u64),
}

/// The answer of a search in one piece ([`Part::Whole`]) and its nodes;
/// `None` past its cap. A start that cannot reach the goal (`None`
/// searched) is unsolvable.
pub(crate) fn answer(searched: Option<Deepened>) -> Option<(Solution, u64)> {
    match searched {
        None => Some((Solution::Unsolvable, 0)),
        Some(Deepened::Found(moves, nodes)) => Some((Solution::Moves(moves), nodes)),
        Some(Deepened::Beyond) => None,
        Some(_) => unreachable!("a search in one piece ends with its answer, or past its cap"),
    }
}

/// The answer of a search with no cap (`u32::MAX`), which always has one.
pub(crate) fn uncapped<T>(solved: Result<Option<T>, SolveError>) -> Result<T, SolveError> {
    solved.map(|found| found.expect("a search with no cap answers"))
}

/// A subtree of a split bound: the path to it, its node, and the nodes the
/// search in one piece expands before it.
struct Task<N> {
    path: Vec<Move>,
    node: N,
    before: u64,
    /// The children the search in one piece looks at before it.
    generated_before: u64,
    /// Whether the node is the goal.
    goal: bool,
}

impl Deepen<'_> {
    /// Searches `tree` from `bound` up until a path reaches the goal.
    pub(crate) fn run<T: Tree>(
        &self,
        tree: &mut T,
        mut bound: u32,
    ) -> Result<Deepened, SolveError> {
        if let Part::Cut { bound, .. } | Part::Subtree { bound, .. } = self.part {
            if bound > self.most {
                return Err(SolveError::TooDeep {
                    shape: self.shape,
                    bound: self.most,
                });
            }
            tree.next_bound(self.counted)?;
        }
        match self.part {
            Part::Whole => {}
            // Below the start's estimate, no node is searched.
            Part::Cut { bound: asked, .. } if asked < bound => {
                return Ok(Deepened::Cut(Subtrees {
                    tasks: Vec::new(),
                    inside: 0,
                    over: bound,
                }));
            }
            Part::Cut { bound, at_least } => {
                let (tasks, (inside, _), over) = self.cut_bound(&*tree, bound, at_least);
                let tasks = tasks.into_iter().map(|t| (t.path, t.before)).collect();
                return Ok(Deepened::Cut(Subtrees {
                    tasks,
                    inside,
                    over,
                }));
            }
            Part::Subtree { bound, path } => return self.subtree(&*tree, bound, path),
        }
        let mut walk = Walk {
            limit: self.limit,
            ..self.walk(Vec::new())
        };
        if tree.is_goal(&tree.root(bound)) {
            return Ok(self.found(walk));
        }
        // The nodes of the last bound.
        let mut last = 0;
        // Bounds below the floor hold no answer and are not searched. The
        // first searched has no bound before it to tell its size: it
        // starts in one thread, and past the nodes after which a bound is
        // split, it starts again split (the nodes counted are a thread's).
        let mut sizeless = false;
        if self.floor > bound {
            bound = self.floor;
            sizeless = true;
        }
        loop {
            if self.stop.is_stopped() {
                return Err(SolveError::Stopped);
            }
            if bound > self.cap {
                return Ok(Deepened::Beyond);
            }
            if bound > self.most {
                return Err(SolveError::TooDeep {
                    shape: self.shape,
                    bound: self.most,
                });
            }
            let nodes = self.counted + walk.nodes;
            if let Some(near) = &self.settings.near
                && nodes >= near.nodes
            {
                return Err(SolveError::TooFar {
                    shape: self.shape,
                    positions: nodes,
                    build: near.build.clone(),
                    cost: near.cost,
                });
            }
            tree.next_bound(walk.nodes)?;
            walk.again_after = tree.again_after();
            let (before, generated_before) = (walk.nodes, walk.generated);
            if let Some(report) = self.report {
                report.bound(
                    bound,
                    self.counted + before,
                    self.counted_generated + generated_before,
                );
            }
            // Each bound takes some times the nodes of the one before.
            let Settings {
                threads,
                parallel_after,
                ..
            } = *self.settings;
            let splits = threads > 1 && self.limit == u64::MAX;
            let sizing = splits && std::mem::take(&mut sizeless);
            if sizing {
                walk.limit = before.saturating_add(parallel_after);
            }
            let step = match splits && last >= parallel_after {
                true => self.split(&*tree, &mut walk, bound),
                false => tree.down(&mut walk, &mut tree.root(bound), bound),
            };
            if sizing {
                walk.limit = self.limit;
                match step {
                    Step::Limit => {
                        walk.path.clear();
                        (walk.nodes, walk.generated) = (before, generated_before);
                        last = u64::MAX;
                        continue;
                    }
                    // The bound starts again sizeless.
                    Step::Again => sizeless = true,
                    _ => {}
                }
            }
            // What a bound read from a file that changed is dropped.
            if self.settings.watch.as_ref().is_some_and(Watch::changed) {
                return Err(SolveError::Changed);
            }
            match step {
                Step::Found => return Ok(self.found(walk)),
                Step::Over(next) => {
                    bound = next;
                    last = walk.nodes - before;
                }
                Step::Changed => return Err(SolveError::Changed),
                Step::Halted => return Err(SolveError::Stopped),
                Step::Limit => return Ok(Deepened::Limit(walk.nodes, walk.generated)),
                // The same bound again, from the start.
                Step::Again => {
                    walk.path.clear();
                    (walk.nodes, walk.generated) = (before, generated_before);
                    tree.again();
                }
                Step::Passed => unreachable!("only a subtree of a split bound is passed"),
            }
        }
    }

    /// A walk from `path` with no limit, asked to end by this search's
    /// stop and changed file alone.
    fn walk(&self, path: Vec<Move>) -> Walk<'_> {
        Walk {
            path,
            nodes: 0,
            generated: 0,
            limit: u64::MAX,
            again_after: u64::MAX,
            first: None,
            halt: self.stop,
            watch: self.settings.watch.as_ref(),
        }
    }

    fn found(&self, walk: Walk<'_>) -> Deepened {
        let nodes = self.counted + walk.nodes;
        if let Some(report) = self.report {
            let generated = self.counted_generated + walk.generated;
            report.end(self.metric.count_moves(&walk.path) as u32, nodes, generated);
        }
        Deepened::Found(walk.path, nodes)
    }

    /// Searches `bound` as [`Tree::down`] does from the root, on every
    /// thread: the first letters cut it into subtrees, which the threads
    /// take in turn.
    fn split<T: Tree>(&self, tree: &T, walk: &mut Walk<'_>, bound: u32) -> Step {
        let at_least = TASKS_PER_THREAD * self.settings.threads;
        let (tasks, inside, mut over) = self.cut_bound(tree, bound, at_least);
        walk.path.clear();
        let (halt, watch) = (walk.halt, walk.watch);
        let search = |task: &Task<T::Node>, i: usize, first: &AtomicUsize| {
            if task.goal {
                return (Step::Found, (0, 0), task.path.clone());
            }
            let mut walk = Walk {
                path: task.path.clone(),
                nodes: 0,
                generated: 0,
                limit: u64::MAX,
                again_after: u64::MAX,
                first: Some((first, i)),
                halt,
                watch,
            };
            let step = tree.down(&mut walk, &mut task.node.clone(), bound);
            (step, (walk.nodes, walk.generated), walk.path)
        };
        let results = split::in_order(&tasks, self.settings.threads, search, |(step, _, _)| {
            matches!(step, Step::Found)
        });
        let (mut done, mut done_generated) = (0, 0);
        for (task, result) in tasks.iter().zip(results) {
            let (step, (nodes, generated), path) =
                result.expect("every subtree up to the first with an answer is searched");
            done += nodes;
            done_generated += generated;
            match step {
                Step::Over(next) => over = over.min(next),
                Step::Found => {
                    walk.nodes += task.before + done;
                    walk.generated += task.generated_before + done_generated;
                    walk.path = path;
                    return Step::Found;
                }
                Step::Changed | Step::Halted => return step,
                // A subtree has no limit and no second start, and none
                // before the first with an answer is passed.
                Step::Passed | Step::Limit | Step::Again => {
                    unreachable!("no subtree before the first with an answer stops")
                }
            }
        }
        walk.nodes += inside.0 + done;
        walk.generated += inside.1 + done_generated;
        Step::Over(over)
    }

    /// The subtrees of `bound`, cut at the first letters (two more at a
    /// time) until there are `at_least` or the cut walks the whole bound;
    /// the nodes the cut expanded and the children it looked at, and the
    /// smallest bound over it met.
    fn cut_bound<T: Tree>(
        &self,
        tree: &T,
        bound: u32,
        at_least: usize,
    ) -> (Vec<Task<T::Node>>, (u64, u64), u32) {
        let mut walk = self.walk(Vec::new());
        let mut tasks = Vec::new();
        let mut over = u32::MAX;
        for depth in (2..).step_by(2) {
            tasks.clear();
            over = u32::MAX;
            (walk.nodes, walk.generated) = (0, 0);
            walk.path.clear();
            let root = tree.root(bound);
            let whole = match tree.is_goal(&root) {
                true => {
                    tasks.push(Task {
                        path: Vec::new(),
                        node: root,
                        before: 0,
                        generated_before: 0,
                        goal: true,
                    });
                    true
                }
                false => cut(tree, &mut walk, &root, bound, depth, &mut tasks, &mut over),
            };
            // No task: no path within the bound is `depth` letters long,
            // and the cut has walked the whole search.
            if whole || tasks.is_empty() || tasks.len() >= at_least || depth >= bound as usize {
                break;
            }
        }
        (tasks, (walk.nodes, walk.generated), over)
    }

    /// The subtree below `path` searched within `bound`, as the search in
    /// one piece searches it ([`Part::Subtree`]).
    fn subtree<T: Tree>(
        &self,
        tree: &T,
        bound: u32,
        path: &[Move],
    ) -> Result<Deepened, SolveError> {
        let (mut node, mut over) = (tree.root(bound), u32::MAX);
        let mut goal = tree.is_goal(&node);
        for (i, &mv) in path.iter().enumerate() {
            let child = match goal {
                true => None,
                false => tree
                    .children(&node, bound, &mut over, &mut 0)
                    .into_iter()
                    .find(|&(letter, ..)| letter == mv),
            };
            let Some((_, child, is_goal)) = child else {
                return Err(SolveError::NoPart(format!(
                    "the letters {} lead to no subtree of the bound {bound}: the move {} is not searched there",
                    crate::shape::moves_to_string(path),
                    i + 1
                )));
            };
            (node, goal) = (child, is_goal);
        }
        if goal {
            return Ok(Deepened::Subtree(Ok(path.to_vec()), 0));
        }
        let mut walk = self.walk(path.to_vec());
        let step = tree.down(&mut walk, &mut node, bound);
        if self.settings.watch.as_ref().is_some_and(Watch::changed) {
            return Err(SolveError::Changed);
        }
        match step {
            Step::Found => Ok(Deepened::Subtree(Ok(walk.path), walk.nodes)),
            Step::Over(next) => Ok(Deepened::Subtree(Err(next), walk.nodes)),
            Step::Changed => Err(SolveError::Changed),
            Step::Halted => Err(SolveError::Stopped),
            Step::Passed | Step::Limit | Step::Again => {
                unreachable!("a subtree searched alone has no limit, no second start")
            }
        }
    }
}

/// Walks `node` as [`Tree::down`] does, but hands each node `depth` letters
/// in to `tasks` instead of searching it, with the nodes expanded before
/// it; `true` if the goal is met first (the last task then holds it).
fn cut<T: Tree>(
    tree: &T,
    walk: &mut Walk<'_>,
    node: &T::Node,
    bound: u32,
    depth: usize,
    tasks: &mut Vec<Task<T::Node>>,
    over: &mut u32,
) -> bool {
    if walk.path.len() == depth {
        tasks.push(Task {
            path: walk.path.clone(),
            node: node.clone(),
            before: walk.nodes,
            generated_before: walk.generated,
            goal: false,
        });
        return false;
    }
    walk.nodes += 1;
    for (mv, child, goal) in tree.children(node, bound, over, &mut walk.generated) {
        walk.path.push(mv);
        if goal {
            tasks.push(Task {
                path: walk.path.clone(),
                node: child,
                before: walk.nodes,
                generated_before: walk.generated,
                goal: true,
            });
            return true;
        }
        if cut(tree, walk, &child, bound, depth, tasks, over) {
            return true;
        }
        walk.path.pop();
    }
    false
}
