//! What a search tells as it deepens ([`crate::progress`]): each bound it
//! starts, its end, and the positions it searched and generated, the same
//! however the search runs.

use super::common;
use super::search::{letters, searcher, searcher_in};
use crate::data;
use crate::file::Codec;
use crate::ida::Searcher;
use crate::pdb::PdbTable;
use crate::{Board, Shape, Solution};

/// A search tells each bound it starts, rising, and then its end, with
/// the answer's length and the nodes it returns; a thread without a
/// sink, and a thread whose sink is gone, hear nothing.
#[test]
fn a_search_tells_its_bounds_then_its_end_to_its_thread_alone() {
    use crate::progress::{self, Deepening};
    use std::sync::{Arc, Mutex};

    let data = data::builtin_pdb(Shape::FIFTEEN, 0).unwrap();
    let searcher = Searcher::new(PdbTable::new(data).unwrap()).threads(1, 0);
    let board: Board = "3 4 13 14 1 9 x 8 2 12 15 7 10 5 11 6".parse().unwrap();
    let goal = Board::goal(Shape::FIFTEEN);
    let heard = Arc::new(Mutex::new(Vec::new()));
    let (solution, nodes) = progress::with(
        {
            let heard = Arc::clone(&heard);
            move |d: &Deepening| heard.lock().unwrap().push(*d)
        },
        || searcher.solve_to(&board, &goal).unwrap(),
    );
    let all = heard;
    let heard = all.lock().unwrap().clone();
    let (last, bounds) = heard.split_last().unwrap();
    assert!(bounds.len() > 1 && bounds.iter().all(|d| !d.done));
    assert!(bounds.windows(2).all(|w| w[0].bound < w[1].bound
        && w[0].nodes <= w[1].nodes
        && w[0].generated <= w[1].generated));
    assert!(last.done && last.answered && last.generated >= last.nodes);
    let moves = solution.moves().unwrap().len();
    assert_eq!((last.bound as usize, last.nodes), (moves, nodes));
    assert_eq!(last.shape, Shape::FIFTEEN);
    // Nothing told once the sink is gone.
    searcher.solve_to(&board, &goal).unwrap();
    assert_eq!(all.lock().unwrap().len(), heard.len());
    let told = format!(
        "{}",
        Deepening {
            done: false,
            ..*last
        }
    );
    assert_eq!(
        told,
        format!(
            "searching {} moves or more, {nodes} positions in {:.1} s ({:.1} million a second), \
             {} generated",
            last.bound,
            last.elapsed.as_secs_f64(),
            nodes as f64 / last.elapsed.as_secs_f64().max(1e-9) / 1e6,
            last.generated
        )
    );
    assert!(format!("{last}").starts_with(&format!(
        "answered in {} moves: {nodes} positions",
        last.bound
    )));
}

/// The positions and the positions generated (each searched position's
/// next ones, within the bound or over it) a search tells at its end.
fn counted(searcher: &Searcher<Vec<u8>>, board: &Board) -> (Solution, u64, u64) {
    use crate::progress::{self, Deepening};
    use std::sync::{Arc, Mutex};

    let heard = Arc::new(Mutex::new(None));
    let (solution, nodes) = progress::with(
        {
            let heard = Arc::clone(&heard);
            move |d: &Deepening| *heard.lock().unwrap() = Some(*d)
        },
        || searcher.solve(board).unwrap(),
    );
    let last = heard.lock().unwrap().unwrap();
    assert!(last.done && last.answered);
    assert_eq!(last.nodes, nodes);
    (solution, nodes, last.generated)
}

/// The positions generated, as Korf and Felner count them: a board one
/// move from the goal searches one position and generates each move of
/// its blank; and on boards near and far, searched in one piece, split
/// among threads, with the entries spread, and a bound searched again once
/// they are, the same counts.
#[test]
fn positions_generated_are_counted_alike_however_searched() {
    let goal = Board::canonical(Shape::FIFTEEN, 0);
    let groups = crate::pdb::partition(&goal, &[5, 5, 5]).unwrap();
    let whole = searcher(&goal, &groups).threads(1, 0);
    // The blank one move down from its corner: three moves to generate.
    let near: Board = "4 1 2 3 x 5 6 7 8 9 10 11 12 13 14 15".parse().unwrap();
    let (solution, nodes, generated) = counted(&whole, &near);
    assert_eq!((letters(&solution).as_str(), nodes, generated), ("u", 1, 3));
    let mut boards: Vec<Board> = common::korf()
        .into_iter()
        .filter(|(_, length)| *length <= 44)
        .take(3)
        .map(|(cells, _)| Board::from_cells(Shape::FIFTEEN, &cells).unwrap())
        .collect();
    let others = [
        searcher(&goal, &groups).threads(3, 0),
        searcher_in(&goal, &groups, Codec::ZstdNibbles)
            .spread_after(Some(0))
            .threads(3, 0),
        // Spread within a bound, which is then searched again.
        searcher_in(&goal, &groups, Codec::ZstdNibbles)
            .spread_after(Some(20_000))
            .threads(1, 0),
    ];
    let mut rng = common::Rng(40);
    for steps in [1, 2, 5, 20, 200, 1000] {
        let start = rng.scramble(4, goal.cells(), steps);
        boards.push(Board::from_cells(Shape::FIFTEEN, &start).unwrap());
    }
    for board in &boards {
        let expected = counted(&whole, board);
        assert!(expected.2 >= expected.1, "{board}");
        for searcher in &others {
            assert_eq!(counted(searcher, board), expected, "{board}");
        }
    }
}
