//! The 15-puzzle out of the box: the compact databases built into the
//! program answer every goal, through the board's symmetries, as a plain
//! search does.

use super::common;
use crate::data;
use crate::ida::Searcher;
use crate::pdb::PdbTable;
use crate::shape::Symmetry;
use crate::solver::Data;
use crate::{Board, DataDir, Shape, Solution, Solver};

/// The solver a fresh checkout has for 4x4 goals with the blank at `blank`:
/// an empty data folder leaves the built-in databases.
fn out_of_the_box(blank: usize) -> Solver {
    let empty = DataDir::at("/nonexistent/eight-test-data");
    Solver::open(
        &Board::canonical(Shape::FIFTEEN, blank),
        &crate::Options::new().with_data(Ok(empty)),
    )
    .expect("built-in 4x4 databases")
}

/// Goals with the blank in every cell, their tiles shuffled: each answer
/// is the plain Manhattan IDA*'s, the shortest and lexicographically
/// smallest.
#[test]
fn every_goal_is_answered_out_of_the_box_as_a_plain_search_answers() {
    let mut rng = common::Rng(16);
    // The same databases, their entries spread out and redundant move
    // sequences of up to 12 moves left out from the first node (a long
    // search does both on its way).
    let spread: Vec<Searcher<&[u8]>> = [0, 1, 5]
        .into_iter()
        .map(|blank| {
            let bytes = data::builtin_pdb(Shape::FIFTEEN, blank).expect("built in");
            Searcher::new(PdbTable::new(bytes).unwrap())
                .spread_after(Some(0))
                .prune_after(Some(0))
                .prune_longer_after(Some(0))
        })
        .collect();
    for blank in 0..16 {
        let solver = out_of_the_box(blank);
        assert!(solver.describe().contains("built into the program"));
        let mut goal = rng.board(16);
        let at = goal.iter().position(|&t| t == 0).unwrap();
        goal.swap(at, blank);
        let goal_board = Board::from_cells(Shape::FIFTEEN, &goal).unwrap();
        for _ in 0..3 {
            let start = rng.scramble(4, &goal, 30);
            let board = Board::from_cells(Shape::FIFTEEN, &start).unwrap();
            let solution = solver.solve_to(&board, &goal_board).unwrap();
            assert_eq!(
                solution.to_string(),
                common::manhattan_ida(4, &start, &goal),
                "{board} toward {goal_board}"
            );
            let searcher = spread.iter().find(|s| s.serves(&goal_board)).unwrap();
            assert_eq!(
                searcher.solve_to(&board, &goal_board).unwrap().0,
                solution,
                "{board} toward {goal_board}, spread"
            );
        }
        // Boards that cannot reach the goal are told at once.
        let mut swapped = goal.clone();
        let (a, b) = match blank {
            0 | 1 => (2, 3),
            _ => (0, 1),
        };
        swapped.swap(a, b);
        let board = Board::from_cells(Shape::FIFTEEN, &swapped).unwrap();
        assert_eq!(
            solver.solve_to(&board, &goal_board).unwrap(),
            Solution::Unsolvable
        );
    }
}

/// Every symmetry of the board maps an answer onto an answer of the same
/// length toward the mapped goal, and the databases of the goal's class
/// serve both.
#[test]
fn every_symmetry_maps_answers_onto_answers_of_the_same_length() {
    let mut rng = common::Rng(8);
    let goal = Board::goal(Shape::FIFTEEN);
    let start = Board::from_cells(Shape::FIFTEEN, &rng.scramble(4, goal.cells(), 36)).unwrap();
    let solution = out_of_the_box(15).solve_to(&start, &goal).unwrap();
    let moves = solution.moves().unwrap().to_vec();
    for symmetry in Symmetry::of(Shape::FIFTEEN) {
        let (start, goal) = (start.transformed(symmetry), goal.transformed(symmetry));
        let mapped: Vec<crate::Move> = moves.iter().map(|&mv| symmetry.apply(mv)).collect();
        assert_eq!(start.after(&mapped), Some(goal), "{symmetry:?}");
        let solver = out_of_the_box(goal.blank());
        let answer = solver.solve_to(&start, &goal).unwrap();
        assert_eq!(answer.moves().unwrap().len(), moves.len(), "{symmetry:?}");
        assert_eq!(
            answer.to_string(),
            common::manhattan_ida(4, start.cells(), goal.cells())
        );
    }
}

/// Three sets of databases serve the sixteen cells: corners, edges and the
/// middle, each named by its first cell.
#[test]
fn three_classes_cover_every_cell() {
    let classes: Vec<usize> = (0..16)
        .map(|b| data::database_blank(Shape::FIFTEEN, b))
        .collect();
    assert_eq!(classes, [0, 1, 1, 0, 1, 5, 5, 1, 1, 5, 5, 1, 0, 1, 1, 0]);
    for shape in Shape::all().filter(|s| s.cells() > 12) {
        for blank in 0..shape.cells() {
            let rep = data::database_blank(shape, blank);
            assert!(
                rep <= blank || shape.rows() > shape.cols(),
                "{shape} {blank}"
            );
            let db = data::database_shape(shape);
            assert!(db.rows() <= db.cols());
        }
    }
}

/// The built-in databases are small and refuse damage.
#[test]
fn the_built_in_databases_are_small_and_refuse_damage() {
    let mut total = 0;
    for blank in [0, 1, 5] {
        let bytes = data::builtin_pdb(Shape::FIFTEEN, blank).expect("built in");
        total += bytes.len();
        let table = PdbTable::new(bytes).unwrap();
        assert_eq!(table.goal(), &Board::canonical(Shape::FIFTEEN, blank));
        let mut damaged = bytes.to_vec();
        let at = damaged.len() - 1000;
        damaged[at] ^= 0x20;
        assert!(PdbTable::new(&damaged[..]).is_err(), "a flipped byte");
        assert!(
            PdbTable::new(&bytes[..bytes.len() / 2]).is_err(),
            "cut in half"
        );
    }
    assert!(total < 3 << 20, "{total} bytes built in");
}

/// A board and its transpose share databases: 7x2 is searched with 2x7's.
#[test]
fn a_transposed_shape_is_searched_with_its_twins_databases() {
    let shape: Shape = "2x7".parse().unwrap();
    let goal = Board::canonical(shape, 0);
    let dbs: Vec<crate::pdb::PatternDb> = crate::pdb::partition(&goal, &[4, 4, 5])
        .unwrap()
        .iter()
        .map(|tiles| crate::pdb::PatternDb::generate(&goal, tiles, |_| {}))
        .collect();
    let mut file = Vec::new();
    crate::pdb::write(&goal, &dbs, crate::file::Codec::ZstdNibbles, &mut file).unwrap();
    let searcher = Searcher::new(PdbTable::new(Data::Owned(file)).unwrap());
    let tall: Shape = "7x2".parse().unwrap();
    let mut rng = common::Rng(72);
    for blank in [0, 1, 6, 13] {
        let tall_goal = Board::canonical(tall, blank);
        if !searcher.serves(&tall_goal) {
            assert_ne!(data::database_blank(tall, blank), 0, "{blank}");
            continue;
        }
        for _ in 0..3 {
            let start = rng.scramble(2, tall_goal.cells(), 24);
            let board = Board::from_cells(tall, &start).unwrap();
            let (solution, _) = searcher.solve_to(&board, &tall_goal).unwrap();
            assert_eq!(
                solution.to_string(),
                common::manhattan_ida(2, &start, tall_goal.cells())
            );
        }
    }
}
