//! A search cut into parts for other machines (`Solver::cut`,
//! `Solver::search_subtree`): spread bound by bound, it gives the answer
//! and the nodes of the search in one piece.

use crate::{Board, Metric, Move, Shape, Solution, Solver};

/// A search spread bound by bound over the subtrees of each, as other
/// machines would search them (`cut` then `subtree` for each in turn, in
/// order): its answer and nodes.
fn spread(
    cut: impl Fn(u32, u64) -> Option<crate::Subtrees>,
    subtree: impl Fn(&[Move], u32, u64) -> (Option<Vec<Move>>, u32, u64),
) -> (Solution, u64) {
    let (mut bound, mut nodes) = (0, 0);
    loop {
        let Some(cut) = cut(bound, nodes) else {
            return (Solution::Unsolvable, 0);
        };
        let (mut over, mut done) = (cut.over, 0);
        for (path, before) in &cut.tasks {
            let (found, next, count) = subtree(path, bound, nodes);
            done += count;
            if let Some(moves) = found {
                return (Solution::Moves(moves), nodes + before + done);
            }
            over = over.min(next);
        }
        (bound, nodes) = (over, nodes + cut.inside + done);
    }
}

/// A search spread over its subtrees, each searched alone, gives the
/// answer and the nodes of the search in one piece, however finely it is
/// cut: single tiles through the solver (its nodes as it tells them), the
/// multi-tile search over its databases from the start.
#[test]
fn a_search_cut_into_subtrees_answers_and_counts_as_in_one_piece() {
    use crate::progress::{self, Deepening};
    use crate::random::Draw;
    use std::sync::{Arc, Mutex};

    let goal = Board::goal(Shape::FIFTEEN);
    let solver = Solver::builtin_for(Shape::FIFTEEN, 15, Metric::Stm)
        .unwrap()
        .unwrap();
    let unsolvable: Board = "2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 x".parse().unwrap();
    let starts: Vec<Board> = Draw::walk(goal, 7, 60).take(4).chain([goal]).collect();
    for start in starts.iter().chain([&unsolvable]) {
        let told = Arc::new(Mutex::new(0));
        let solution = progress::with(
            {
                let told = Arc::clone(&told);
                move |d: &Deepening| *told.lock().unwrap() = d.nodes
            },
            || solver.solve_to(start, &goal).unwrap(),
        );
        let nodes = *told.lock().unwrap();
        for at_least in [1, 3, 40] {
            let (spread_solution, spread_nodes) = spread(
                |bound, nodes| solver.cut(start, &goal, bound, nodes, at_least).unwrap(),
                |path, bound, nodes| {
                    let searched = solver.search_subtree(start, &goal, path, bound, nodes);
                    searched.unwrap()
                },
            );
            assert_eq!(spread_solution, solution, "{start}");
            if solution.moves().is_some_and(|moves| !moves.is_empty()) {
                assert_eq!(spread_nodes, nodes, "{start}, at least {at_least}");
            }
        }
    }
    // Letters that are no subtree of the bound, and a table, are refused.
    let start = starts[0];
    let wrong = solver.search_subtree(&start, &goal, &[Move::Up; 3], 60, 0);
    assert!(
        matches!(wrong, Err(crate::SolveError::NoPart(_))),
        "{wrong:?}"
    );
    let table = Solver::builtin(Shape::EIGHT).unwrap();
    let board = Board::goal(Shape::EIGHT);
    let asked = table.cut(&board, &board, 0, 0, 4);
    assert!(
        matches!(asked, Err(crate::SolveError::NoPart(_))),
        "{asked:?}"
    );

    let shape: Shape = "2x7".parse().unwrap();
    let goal = Board::goal(shape);
    let searcher = crate::mtm::MtmSearcher::new(shape).with_databases_at_once();
    let stop = crate::Stop::new();
    for start in Draw::walk(goal, 8, 40).take(3) {
        let (solution, nodes) = searcher.solve_to(&start, &goal).unwrap();
        let part = |part: crate::deepen::Part<'_>, nodes| {
            searcher.search(
                &start,
                &goal,
                &stop,
                crate::deepen::Query::part(part, nodes),
            )
        };
        let (spread_solution, spread_nodes) = spread(
            |bound, nodes| match part(crate::deepen::Part::Cut { bound, at_least: 5 }, nodes) {
                Ok(Some(crate::deepen::Deepened::Cut(cut))) => Some(cut),
                _ => panic!("a cut"),
            },
            |path, bound, nodes| match part(crate::deepen::Part::Subtree { bound, path }, nodes) {
                Ok(Some(crate::deepen::Deepened::Subtree(end, nodes))) => match end {
                    Ok(moves) => (Some(moves), u32::MAX, nodes),
                    Err(over) => (None, over, nodes),
                },
                _ => panic!("a subtree's end"),
            },
        );
        assert_eq!(
            (spread_solution, spread_nodes),
            (solution, nodes),
            "{start}"
        );
    }
}
