//! The multi-tile metric against a plain BFS in that metric written here
//! (`common::MtmOracle`): every 3x3 board's answer, length and letters, the
//! 3x3 histograms, 2x4 in full, and the search on short 4x4 boards.

mod common;

use common::{MtmOracle, Rng, all_boards, canonical, runs};
use eight::generate::generate_mtm;
use eight::{Board, Metric, MtmSearcher, MtmTable, Shape};

fn board(shape: Shape, cells: &[u8]) -> Board {
    Board::from_cells(shape, cells).expect("a board")
}

/// Every board of `shape` toward the goal with the blank at `blank`: the
/// table's answer is the oracle's, letter for letter.
fn every_board(shape: Shape, blank: usize) -> MtmOracle {
    let table = MtmTable::new(generate_mtm(shape, &[blank], |_, _, _| {})).expect("a table");
    table.verify().expect("the table proves right");
    let goal_cells = canonical(shape.cells(), blank);
    let goal = board(shape, &goal_cells);
    let oracle = MtmOracle::new(shape.cols(), &goal_cells, u32::MAX);
    let mut solvable = 0;
    for cells in all_boards(shape.cells()) {
        let start = board(shape, &cells);
        let mut letters = Vec::new();
        let moves = table
            .write_answer(&start, &goal, &mut letters)
            .expect("an answer");
        let expected = oracle.best_path(&cells);
        assert_eq!(
            moves.map(|_| String::from_utf8(letters).unwrap()),
            expected,
            "{start} toward {goal}"
        );
        if let Some(path) = expected {
            assert_eq!(moves, Some(runs(&path)));
            solvable += 1;
        }
    }
    assert_eq!(solvable, oracle.distance.len());
    oracle
}

#[test]
fn every_3x3_board_toward_a_corner_goal() {
    let oracle = every_board(Shape::EIGHT, 8);
    let histogram = oracle.histogram();
    assert_eq!(histogram.len() - 1, 24, "the diameter");
    assert_eq!(histogram[24], 1);
    assert_eq!(histogram.iter().sum::<u64>(), 181_440);
}

#[test]
fn every_3x3_board_toward_an_edge_and_the_middle() {
    for (blank, farthest) in [(1, 2), (4, 4)] {
        let oracle = every_board(Shape::EIGHT, blank);
        let histogram = oracle.histogram();
        assert_eq!((histogram.len() - 1, histogram[24]), (24, farthest));
    }
}

#[test]
fn every_2x4_and_4x2_board() {
    for shape in ["2x4", "4x2"] {
        let shape: Shape = shape.parse().unwrap();
        every_board(shape, shape.cells() - 1);
        every_board(shape, 1);
    }
}

#[test]
fn the_table_counts_in_moves_and_keeps_the_boards_at_each_distance() {
    let shape = Shape::EIGHT;
    let table = MtmTable::new(generate_mtm(shape, &[8], |_, _, _| {})).unwrap();
    let goal = Board::goal(shape);
    let far = table.at_distance(&goal, 24).unwrap();
    assert_eq!(far.len(), 1);
    let mut letters = Vec::new();
    assert_eq!(
        table.write_answer(&far[0], &goal, &mut letters).unwrap(),
        Some(24)
    );
    assert_eq!(Metric::Mtm.count(&letters), 24);
    assert_eq!(table.max_depth(&goal), Some(24));
    // Toward another goal with the blank in the same cell, by relabelling.
    let other = board(shape, &[8, 7, 6, 5, 4, 3, 2, 1, 0]);
    let oracle = MtmOracle::new(3, other.cells(), u32::MAX);
    let mut rng = Rng(27);
    for _ in 0..500 {
        let cells = rng.board(9);
        let mut letters = Vec::new();
        let moves = table
            .write_answer(&board(shape, &cells), &other, &mut letters)
            .unwrap();
        assert_eq!(
            moves.map(|_| String::from_utf8(letters).unwrap()),
            oracle.best_path(&cells)
        );
    }
}

#[test]
fn a_wrong_code_is_refused() {
    let shape: Shape = "2x3".parse().unwrap();
    let bytes = generate_mtm(shape, &[5], |_, _, _| {});
    // Decode, change one board's code, and write the file anew.
    let table = MtmTable::new(bytes.clone()).unwrap();
    assert!(table.verify().is_ok());
    let file = table.file();
    let section = &file.header().sections[0];
    let raw = zstd::bulk::decompress(file.section(0).unwrap(), section.raw_len as usize).unwrap();
    for byte in 0..raw.len() {
        let mut changed = raw.clone();
        changed[byte] ^= 0x11;
        let compressed = eight::file::compress(&changed, 3);
        let new = eight::file::NewSection {
            goal: Board::canonical(shape, 5),
            tiles: Vec::new(),
            entries: section.entries,
            max_depth: section.max_depth,
            raw_len: section.raw_len,
            bytes: &compressed,
        };
        let mut out = Vec::new();
        eight::file::write(
            &mut out,
            shape,
            file.header().rank,
            file.header().codec,
            &[new],
        )
        .unwrap();
        let wrong = MtmTable::new(out).unwrap();
        assert!(wrong.verify().is_err(), "a change in byte {byte} is found");
    }
}

#[test]
fn the_search_matches_the_oracle_on_short_4x4_boards() {
    let shape = Shape::FIFTEEN;
    let searcher = MtmSearcher::new(shape);
    let goal_cells = canonical(16, 15);
    let oracle = MtmOracle::new(4, &goal_cells, 7);
    let goal = board(shape, &goal_cells);
    let mut rng = Rng(43);
    let mut near: Vec<&Vec<u8>> = oracle.distance.keys().collect();
    near.sort();
    for _ in 0..300 {
        let cells = near[rng.below(near.len())];
        let found = searcher.solve_to(&board(shape, cells), &goal).unwrap();
        let letters: Option<String> = found.map(|moves| moves.iter().map(|m| m.letter()).collect());
        assert_eq!(letters, oracle.best_path(cells), "{}", common::text(cells));
    }
    // Korf's goal, blank first: another goal row and column for the blank.
    let korf_goal = canonical(16, 0);
    let oracle = MtmOracle::new(4, &korf_goal, 6);
    let goal = board(shape, &korf_goal);
    let mut near: Vec<&Vec<u8>> = oracle.distance.keys().collect();
    near.sort();
    for _ in 0..200 {
        let cells = near[rng.below(near.len())];
        let found = searcher.solve_to(&board(shape, cells), &goal).unwrap();
        let letters: Option<String> = found.map(|moves| moves.iter().map(|m| m.letter()).collect());
        assert_eq!(letters, oracle.best_path(cells), "{}", common::text(cells));
    }
    let swapped = board(
        shape,
        &[2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0],
    );
    assert_eq!(
        searcher.solve_to(&swapped, &Board::goal(shape)).unwrap(),
        None
    );
}
