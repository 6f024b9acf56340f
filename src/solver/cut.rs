//! One board's search cut into parts that other processes or machines
//! search: a bound's subtrees, and one subtree searched. Spread over a
//! cluster, the parts give the answer and the nodes of the search in one
//! piece, as its threads do in one process (`crate::deepen`).

use crate::answer::SolveError;
use crate::board::Board;
use crate::deepen::{Deepened, Part, Query, Subtrees};
use crate::shape::Move;
use crate::solver::Solver;

impl Solver {
    /// Bound `bound` of the search of `start` toward `goal`, cut into
    /// subtrees (at least `at_least` if the bound holds as many) in the
    /// order the search in one piece meets them; `nodes` is what that
    /// search counted before this bound. Below the start's estimate, no
    /// subtree, and the estimate as `over`. `None` if `start` cannot reach
    /// `goal`.
    ///
    /// A search spread over many machines goes bound by bound from 0: each
    /// subtree searched
    /// with [`Solver::search_subtree`], anywhere, and their ends read in
    /// order. The first with an answer gives it, and the search's nodes are
    /// `nodes`, its `before` and those of the subtrees up to it; with no
    /// answer, the bound's nodes are `inside` and every subtree's, and the
    /// next bound is the smallest `over`. The answer and the nodes are
    /// those of the search in one process. In the multi-tile metric, they
    /// are those of the search over the databases from the start.
    ///
    /// ```
    /// use eight::{Board, Metric, Shape, Solution, Solver};
    ///
    /// let solver = Solver::builtin_for(Shape::FIFTEEN, 15, Metric::Stm).expect("built in")?;
    /// let start: Board = "5 1 2 3/x 6 7 4/9 10 11 8/13 14 15 12".parse()?;
    /// let goal = Board::goal(Shape::FIFTEEN);
    /// let (mut bound, mut nodes) = (0, 0);
    /// let (moves, searched) = 'search: loop {
    ///     let cut = solver.cut(&start, &goal, bound, nodes, 8)?.expect("it reaches the goal");
    ///     let (mut over, mut done) = (cut.over, 0);
    ///     // Each subtree could be searched on another machine.
    ///     for (path, before) in &cut.tasks {
    ///         let (found, next, count) = solver.search_subtree(&start, &goal, path, bound, nodes)?;
    ///         done += count;
    ///         if let Some(moves) = found {
    ///             break 'search (moves, nodes + before + done);
    ///         }
    ///         over = over.min(next);
    ///     }
    ///     (bound, nodes) = (over, nodes + cut.inside + done);
    /// };
    /// assert_eq!(Solution::Moves(moves), solver.solve_to(&start, &goal)?);
    /// assert!(searched > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Fails as [`Solver::solve_to`] does, and with
    /// [`SolveError::NoPart`] if the solver answers from a table.
    pub fn cut(
        &self,
        start: &Board,
        goal: &Board,
        bound: u32,
        nodes: u64,
        at_least: usize,
    ) -> Result<Option<Subtrees>, SolveError> {
        let part = Part::Cut { bound, at_least };
        match self.search(start, goal, Query::part(part, nodes))? {
            Some(Deepened::Cut(subtrees)) => Ok(Some(subtrees)),
            Some(_) => unreachable!("a cut gives subtrees"),
            None => Ok(None),
        }
    }

    /// The subtree of bound `bound` below the letters `path` (a task of
    /// [`Solver::cut`]) searched as the search in one piece searches it,
    /// `nodes` counted before the bound: the answer's letters from the
    /// start if the subtree holds one, else the smallest bound that lets
    /// one more path in (`u32::MAX` with an answer); and the nodes
    /// searched. No answer and no nodes if `start` cannot reach `goal`.
    ///
    /// # Errors
    ///
    /// As [`Solver::cut`]; and with [`SolveError::NoPart`] if the letters
    /// lead to no subtree of the bound.
    pub fn search_subtree(
        &self,
        start: &Board,
        goal: &Board,
        path: &[Move],
        bound: u32,
        nodes: u64,
    ) -> Result<(Option<Vec<Move>>, u32, u64), SolveError> {
        match self.search(
            start,
            goal,
            Query::part(Part::Subtree { bound, path }, nodes),
        )? {
            Some(Deepened::Subtree(Ok(moves), nodes)) => Ok((Some(moves), u32::MAX, nodes)),
            Some(Deepened::Subtree(Err(over), nodes)) => Ok((None, over, nodes)),
            Some(_) => unreachable!("a subtree searched gives its end"),
            None => Ok((None, u32::MAX, 0)),
        }
    }
}
