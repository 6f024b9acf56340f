//! A budget cut into subtrees, searched on every core ([`crate::split`]).

use std::sync::atomic::AtomicUsize;

use crate::mtm::search::{Keys, Search};
use crate::shape::{Move, SMALL_CELLS};
use crate::split;

/// The subtrees a budget is cut into, at least, for each thread.
const TASKS_PER_THREAD: usize = 32;

/// A position of the search, and the moves left to it.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) cells: [u8; SMALL_CELLS],
    pub(super) cell_of: [u8; SMALL_CELLS],
    pub(super) blank: usize,
    pub(super) keys: Keys,
    /// The way of the run it is in.
    pub(super) run: Option<Move>,
    pub(super) budget: u32,
}

/// A subtree of a budget cut up: the letters to it, its position, and the
/// positions the search in one piece tries before it.
struct Task {
    path: Vec<Move>,
    node: Node,
    before: u64,
    /// Whether the position is the goal.
    goal: bool,
}

/// How the search of a subtree ended (as [`Search::down`] ends), after how
/// many positions, on which letters.
struct Searched {
    found: Option<bool>,
    /// Whether it ended because the search was asked to stop, or the file
    /// the databases are read from changed.
    halted: bool,
    changed: bool,
    nodes: u64,
    path: Vec<Move>,
}

impl Search<'_> {
    /// Searches `root` within `budget` moves as [`Search::down`] does, on
    /// `threads` threads: its first letters cut it into subtrees, which
    /// the threads take in turn. Only for a search without a limit.
    pub(super) fn split(&mut self, root: &Node, budget: u32, threads: usize) -> Option<bool> {
        debug_assert_eq!(self.limit, u64::MAX);
        let nodes = self.nodes;
        let mut tasks = Vec::new();
        for depth in (2..).step_by(2) {
            tasks.clear();
            self.nodes = 0;
            self.path.clear();
            let mut node = Node { budget, ..*root };
            let whole = self.cut(&mut node, depth, &mut tasks);
            // No task: no path within the budget is `depth` letters long,
            // and the cut has walked the whole search.
            if whole || tasks.is_empty() || tasks.len() >= TASKS_PER_THREAD * threads {
                break;
            }
        }
        let inside = self.nodes;
        self.nodes = nodes;
        self.path.clear();
        let (neighbors, estimate, databases, n, target, halt, watch) = (
            self.neighbors,
            self.estimate,
            self.databases,
            self.n,
            self.target,
            self.halt,
            self.watch,
        );
        let search = |task: &Task, i: usize, first: &AtomicUsize| {
            if task.goal {
                return Searched {
                    found: Some(true),
                    halted: false,
                    changed: false,
                    nodes: 0,
                    path: task.path.clone(),
                };
            }
            let mut search = Search {
                neighbors,
                estimate,
                databases,
                n,
                target,
                path: task.path.clone(),
                nodes: 0,
                limit: u64::MAX,
                stop: Some((first, i)),
                halt,
                halted: false,
                watch,
                changed: false,
            };
            let mut node = task.node;
            let found = search.down(
                &mut node.cells,
                &mut node.cell_of,
                node.blank,
                node.keys,
                node.run,
                node.budget,
            );
            Searched {
                found,
                halted: search.halted,
                changed: search.changed,
                nodes: search.nodes,
                path: search.path,
            }
        };
        let results = split::in_order(&tasks, threads, search, |searched| {
            searched.found == Some(true)
        });
        let mut done = 0;
        for (task, result) in tasks.iter().zip(results) {
            let Searched {
                found,
                halted,
                changed,
                nodes,
                path,
            } = result.expect("every subtree up to the first with an answer is searched");
            done += nodes;
            match found {
                Some(true) => {
                    self.nodes += task.before + done;
                    self.path = path;
                    return Some(true);
                }
                Some(false) => {}
                None if halted || changed => {
                    self.halted |= halted;
                    self.changed |= changed;
                    return None;
                }
                None => unreachable!("no subtree before the first with an answer stops"),
            }
        }
        self.nodes += inside + done;
        Some(false)
    }

    /// Walks `node` as [`Search::down`] does, but hands each position
    /// `depth` letters in to `tasks` instead of searching it, with the
    /// positions tried before it; `true` if the goal is met first (the last
    /// task then holds it).
    fn cut(&mut self, node: &mut Node, depth: usize, tasks: &mut Vec<Task>) -> bool {
        let goal = node.cells == self.target;
        if goal || self.path.len() == depth {
            tasks.push(Task {
                path: self.path.clone(),
                node: *node,
                before: self.nodes,
                goal,
            });
            return goal;
        }
        self.nodes += 1;
        let (blank, keys, run, budget) = (node.blank, node.keys, node.run, node.budget);
        let (steps, count) = self.steps(blank, run, budget);
        for &(mv, next, left) in &steps[..count] {
            let tile = node.cells[next];
            let mut child = Node {
                keys: self.estimate.stepped(keys, tile, blank, next),
                blank: next,
                run: Some(mv),
                budget: left,
                ..*node
            };
            child.cells.swap(blank, next);
            child.cell_of[usize::from(tile)] = blank as u8;
            child.cell_of[0] = next as u8;
            if self.within(&child.cells, &child.cell_of, next, child.keys, mv, left) {
                self.path.push(mv);
                let found = self.cut(&mut child, depth, tasks);
                self.path.pop();
                if found {
                    return true;
                }
            }
        }
        false
    }
}
