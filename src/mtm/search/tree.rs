//! The multi-tile metric's tree ([`crate::deepen::Tree`]): a position's
//! letters and the search below it within a budget of moves.

use crate::deepen::{Step, Tree, Walk};
use crate::mtm::search::{Keys, Search};
use crate::shape::{MAX_CELLS, Move};

/// A position of the search, and the moves left to it.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) cells: [u8; MAX_CELLS],
    pub(super) cell_of: [u8; MAX_CELLS],
    pub(super) blank: usize,
    pub(super) keys: Keys,
    /// The way of the run it is in.
    pub(super) run: Option<Move>,
    pub(super) budget: u32,
}

impl Tree for Search<'_> {
    type Node = Node;

    fn root(&self, bound: u32) -> Node {
        Node {
            budget: bound,
            ..self.root
        }
    }

    fn next_bound(&mut self, _nodes: u64) -> Result<(), crate::answer::SolveError> {
        if let Some(learning) = self.learning.as_mut() {
            learning.end_bound();
        }
        Ok(())
    }

    fn is_goal(&self, node: &Node) -> bool {
        node.cells == self.target
    }

    /// Every budget is one more than the last: a letter costs a move or
    /// nothing.
    fn down(&self, walk: &mut Walk<'_>, node: &mut Node, bound: u32) -> Step {
        let Node {
            cells,
            cell_of,
            blank,
            keys,
            run,
            budget,
        } = node;
        match self.down(walk, cells, cell_of, *blank, *keys, *run, *budget) {
            Step::Over(_) => Step::Over(bound + 1),
            step => step,
        }
    }

    fn children(
        &self,
        node: &Node,
        bound: u32,
        over: &mut u32,
        generated: &mut u64,
    ) -> Vec<(Move, Node, bool)> {
        *over = (*over).min(bound + 1);
        let (blank, keys, run, budget) = (node.blank, node.keys, node.run, node.budget);
        let (steps, count) = self.steps(blank, run, budget);
        *generated += count as u64;
        let mut children = Vec::with_capacity(count);
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
                children.push((mv, child, child.cells == self.target));
            }
        }
        children
    }
}
