//! Searches of boards near a board whose distance is known: the lengths a
//! player's boards get from the board before, the answers searched from a
//! known distance, and the bounds a floor skips, against searches in full.

use super::common;
use crate::{Board, Metric, Move, Shape, Solver};

/// A goal searched in each metric with no data made (the 15-puzzle's, and
/// 2x7's in the multi-tile metric), and the options that open its solver
/// over the empty folder `empty`.
fn searched_without_data(empty: &std::path::Path) -> Vec<(Board, Metric, crate::Options)> {
    let data = crate::DataDir::at(empty);
    [
        (Shape::FIFTEEN, Metric::Stm),
        ("2x7".parse().unwrap(), Metric::Mtm),
    ]
    .into_iter()
    .map(|(shape, metric)| {
        let options = crate::Options::new()
            .with_data(Ok(data.clone()))
            .with_metric(metric);
        (Board::goal(shape), metric, options)
    })
    .collect()
}

/// A board one move from a board whose distance a search found is
/// searched only as deep as it may be nearer: its length, and its answer
/// then searched from that length, are the ones a search in full gives, in
/// both metrics, along random walks that go toward the goal and away from
/// it; and a board a letter before an answer's first is no nearer.
#[test]
fn lengths_beside_a_known_board_are_the_full_searchs() {
    use crate::random::Draw;

    let empty = tempfile::tempdir().unwrap();
    for (goal, metric, options) in searched_without_data(empty.path()) {
        let shape = goal.shape();
        let load = || Solver::open(&goal, &options).unwrap();
        let kept = load();
        assert!(kept.searches(), "{shape} {metric}");
        let mut rng = common::Rng(53);
        let mut told = 0;
        for start in Draw::walk(goal, 30, 16).take(3) {
            let mut board = start;
            for _ in 0..25 {
                let moves: Vec<Move> = Move::ALL
                    .into_iter()
                    .filter(|&mv| board.moved(mv).is_some())
                    .collect();
                board = board.moved(moves[rng.below(moves.len())]).unwrap();
                let near = kept.lengths_many(&[board], &goal).unwrap();
                let full = load().lengths_many(&[board], &goal).unwrap();
                assert_eq!(near, full, "{shape} {metric}: {board}");
                // Its answer, searched from the distance kept (and over the
                // bounds the searches before learned), is a search's in full.
                let answer = |solver: &Solver| {
                    let mut moves = Vec::new();
                    solver
                        .solve_each(&board, &goal, |mv| moves.push(mv))
                        .unwrap();
                    moves
                };
                let full = answer(&load());
                assert_eq!(answer(&kept), full, "{shape} {metric}: {board}");
                // What the kept first letters tell: a board that this one
                // reaches by a letter before its answer's first is no
                // nearer (one move further in the single-tile metric).
                let length = metric.count_moves(&full);
                let further = |length| match metric {
                    Metric::Stm => length + 1,
                    Metric::Mtm => length,
                };
                for before in Move::ALL.into_iter().filter(|&mv| Some(&mv) < full.first()) {
                    if let Some(next) = board.moved(before) {
                        let next_length = load().lengths_many(&[next], &goal).unwrap()[0];
                        let next_length = next_length.map(usize::from);
                        assert!(
                            next_length >= Some(further(length)),
                            "{shape} {metric}: {next}"
                        );
                        told += 1;
                    }
                }
            }
        }
        assert!(told > 0, "{shape} {metric}: no board a letter before");
    }
}

/// A search told a bound its answer needs at least (a floor) searches no
/// bound below it: the same answer from a floor at the answer's length or
/// under it, in fewer positions once the floor passes the start's
/// estimate; in both metrics.
#[test]
fn a_floor_under_the_answer_skips_bounds_and_keeps_it() {
    use crate::deepen::{Deepened, Query};
    use crate::random::Draw;

    let empty = tempfile::tempdir().unwrap();
    for (goal, metric, options) in searched_without_data(empty.path()) {
        let shape = goal.shape();
        let solver = Solver::open(&goal, &options).unwrap();
        let mut fewer = 0;
        for start in Draw::walk(goal, 40, 16).take(4) {
            let search = |query| match solver.search(&start, &goal, query) {
                Ok(Some(Deepened::Found(moves, nodes))) => (moves, nodes),
                other => panic!("{shape} {metric} {start}: {:?}", other.is_ok()),
            };
            let (moves, nodes) = search(Query::WHOLE);
            let length = metric.count_moves(&moves) as u32;
            // In the single-tile metric the bounds keep the answer's parity.
            let under = match metric {
                Metric::Stm => 2,
                Metric::Mtm => 1,
            };
            for floor in [length, length.saturating_sub(under)] {
                let (floored, floored_nodes) = search(Query::within(floor, u32::MAX));
                assert_eq!(floored, moves, "{shape} {metric} {start} from {floor}");
                assert!(floored_nodes <= nodes, "{shape} {metric} {start}");
                fewer += usize::from(floored_nodes < nodes);
            }
            // A cap under the answer finds none.
            if let Some(cap) = length.checked_sub(1) {
                let capped = solver.search(&start, &goal, Query::within(0, cap));
                assert!(matches!(capped, Ok(Some(Deepened::Beyond))), "{start}");
            }
        }
        assert!(fewer > 0, "{shape} {metric}: no bound skipped");
    }
}
