//! Every board of every built-in shape toward every goal with the tiles in
//! order (and some other goals), checked against the plain BFS in `common`.

use super::common;
use crate::{Board, Shape, Solution, Solver};

/// Solves every board of `shape` toward `goal` with the built-in table and
/// compares each answer with the oracle's: the same shortest,
/// lexicographically smallest path, and `unsolvable` exactly for the boards
/// that cannot reach the goal. Returns the oracle's histogram.
fn check_every_board_toward(shape: Shape, goal: &[u8]) -> Vec<u64> {
    let solver = Solver::builtin(shape).expect("the built-in table loads");
    let oracle = common::Oracle::new(shape.cols(), goal);
    let boards = common::all_boards(shape.cells());
    assert_eq!(
        oracle.distance.len(),
        boards.len() / 2,
        "half of all boards reach the goal"
    );
    let goal_board = Board::from_cells(shape, goal).unwrap();
    let mut unsolvable = 0;
    for cells in &boards {
        let board = Board::from_cells(shape, cells).unwrap();
        let solution = solver.solve_to(&board, &goal_board).unwrap();
        match (solution, oracle.best_path(cells)) {
            (Solution::Moves(moves), Some(expected)) => {
                let got = crate::shape::moves_to_string(&moves);
                assert_eq!(got, expected, "{shape} {cells:?} toward {goal:?}");
            }
            (Solution::Unsolvable, None) => unsolvable += 1,
            (got, expected) => {
                panic!("{shape} {cells:?} toward {goal:?}: got {got}, expected {expected:?}")
            }
        }
    }
    assert_eq!(unsolvable, boards.len() / 2);
    check_batch(&solver, &goal_board, &boards, &oracle);
    check_packed_answers(shape, &goal_board, &boards, &oracle);
    check_derived_answers(shape, &goal_board, &boards);
    oracle.histogram()
}

/// A batch of every board ([`Solver::solve_many`], answers derived in bulk
/// on every core) answers each as the oracle does, in order; and so does a
/// batch too small to derive answers.
fn check_batch(solver: &Solver, goal: &Board, boards: &[Vec<u8>], oracle: &common::Oracle) {
    let starts: Vec<Board> = boards
        .iter()
        .map(|cells| Board::from_cells(goal.shape(), cells).unwrap())
        .collect();
    // Before anything is derived, on a solver of its own: walks side by
    // side, every 7th board (a few thousand).
    let fresh = Solver::builtin(goal.shape()).unwrap();
    let some: Vec<Board> = starts.iter().step_by(7).take(6_000).copied().collect();
    check_typed(&fresh, &some, goal, oracle);
    let answers = solver.solve_many(&starts, goal).unwrap();
    assert_eq!(answers.len(), boards.len());
    for (cells, answer) in boards.iter().zip(answers.iter()) {
        let expected = oracle.best_path(cells);
        assert_eq!(
            answer.letters().as_deref(),
            expected.as_deref(),
            "{cells:?} toward {goal}"
        );
        assert_eq!(answer.length(), expected.map(|path| path.len()));
    }
    let few = starts.len().min(100);
    let first = solver.solve_many(&starts[..few], goal).unwrap();
    assert!(first.iter().eq(answers.iter().take(few)));
    // The lengths alone, counted from the derived answers.
    let lengths = solver.lengths_many(&starts, goal).unwrap();
    assert!(
        lengths
            .iter()
            .map(|&length| length.map(usize::from))
            .eq(answers.iter().map(|answer| answer.length())),
        "lengths toward {goal}"
    );
}

/// `Solver::solve_many` and `Solver::lengths_many` on `starts` give the
/// oracle's answers and lengths.
fn check_typed(solver: &Solver, starts: &[Board], goal: &Board, oracle: &common::Oracle) {
    let answers = solver.solve_many(starts, goal).unwrap();
    let lengths = solver.lengths_many(starts, goal).unwrap();
    assert_eq!((answers.len(), lengths.len()), (starts.len(), starts.len()));
    for ((start, answer), length) in starts.iter().zip(answers.iter()).zip(&lengths) {
        let expected = oracle.best_path(start.cells());
        assert_eq!(
            answer.letters().as_deref(),
            expected.as_deref(),
            "{start} toward {goal}"
        );
        assert_eq!(length.map(usize::from), expected.map(|path| path.len()));
    }
}

/// The answers of interleaved walks (`Table::solve_packed`) are
/// the oracle's for every board, before and after the answers are derived.
fn check_packed_answers(shape: Shape, goal: &Board, boards: &[Vec<u8>], oracle: &common::Oracle) {
    let table = crate::table::Table::new(crate::data::builtin(shape).unwrap()).unwrap();
    let starts: Vec<Board> = boards
        .iter()
        .map(|cells| Board::from_cells(shape, cells).unwrap())
        .collect();
    let goals = vec![*goal; 1000];
    let mut answers = Vec::new();
    // Answers of more than 31 moves (2x4, 4x2) are not packed.
    if table.max_depth(goal).unwrap() > 31 {
        assert!(
            !table
                .solve_packed(&starts[..1], &goals, &mut answers)
                .unwrap()
        );
        return;
    }
    let mut letters = Vec::new();
    for derived in [false, true] {
        for (run, cells) in starts.chunks(1000).zip(boards.chunks(1000)) {
            assert!(table.solve_packed(run, &goals, &mut answers).unwrap());
            for (answer, cells) in answers.iter().zip(cells) {
                let got = answer.map(|answer| {
                    letters.clear();
                    answer.write(&mut letters);
                    assert_eq!(answer.len(), letters.len());
                    assert!(
                        answer
                            .moves()
                            .map(|mv| mv.letter() as u8)
                            .eq(letters.iter().copied())
                    );
                    String::from_utf8(letters.clone()).unwrap()
                });
                let expected = oracle.best_path(cells);
                assert_eq!(
                    got, expected,
                    "{shape} {cells:?} toward {goal} (derived: {derived})"
                );
            }
        }
        if !table.derive_answers(goal).unwrap() {
            break;
        }
    }
}

/// The answers derived from the codes, written one at a time and in runs,
/// are the walks' answers for every board.
fn check_derived_answers(shape: Shape, goal: &Board, boards: &[Vec<u8>]) {
    let table = crate::table::Table::new(crate::data::builtin(shape).unwrap()).unwrap();
    if !table.derive_answers(goal).unwrap() {
        return;
    }
    let walked = Solver::builtin(shape).unwrap();
    let starts: Vec<Board> = boards
        .iter()
        .map(|cells| Board::from_cells(shape, cells).unwrap())
        .collect();
    let mut expected = Vec::new();
    let mut one_by_one = Vec::new();
    for start in &starts {
        match walked.solve_to(start, goal).unwrap() {
            Solution::Moves(moves) => {
                expected.extend(moves.iter().map(|mv| mv.letter() as u8));
                expected.push(b'\n');
                table
                    .write_answer(start, goal, &mut one_by_one)
                    .unwrap()
                    .unwrap();
                one_by_one.push(b'\n');
            }
            Solution::Unsolvable => {
                expected.extend_from_slice(b"unsolvable\n");
                assert_eq!(
                    table.write_answer(start, goal, &mut one_by_one).unwrap(),
                    None
                );
                one_by_one.extend_from_slice(b"unsolvable\n");
            }
        }
    }
    assert!(one_by_one == expected, "{shape} toward {goal}: one by one");
    let mut in_runs = crate::Solutions::default();
    for run in starts.chunks(1000) {
        assert!(table.write_answers(run, goal, &mut in_runs).unwrap());
    }
    let in_runs: Vec<u8> = in_runs
        .iter()
        .flat_map(|answer| format!("{answer}\n").into_bytes())
        .collect();
    assert!(in_runs == expected, "{shape} toward {goal}: in runs");
    // Their lengths.
    let lengths: Vec<Option<u16>> = expected
        .split_inclusive(|&b| b == b'\n')
        .map(|line| match line {
            b"unsolvable\n" => None,
            _ => Some(line.len() as u16 - 1),
        })
        .collect();
    let mut in_runs = Vec::new();
    for run in starts.chunks(1000) {
        assert!(table.write_answers(run, goal, &mut in_runs).unwrap());
    }
    assert!(in_runs == lengths, "{shape} toward {goal}: lengths in runs");
}

/// Every goal of every small shape, and the longest answers within the
/// shape's bound (and equal to it from a corner, where it is published).
#[test]
fn every_board_of_the_small_shapes_toward_every_goal() {
    for shape in Shape::all().filter(|s| s.cells() <= 8) {
        let mut deepest = 0;
        for blank in 0..shape.cells() {
            let goal = common::canonical(shape.cells(), blank);
            let histogram = check_every_board_toward(shape, &goal);
            deepest = deepest.max(histogram.len() as u32 - 1);
            if blank == 0 {
                let corner = histogram.len() as u32 - 1;
                let center = ((shape.rows() - 1) / 2 + (shape.cols() - 1) / 2) as u32;
                assert_eq!(corner + center, shape.diameter_bound(), "{shape}");
            }
        }
        assert!(deepest <= shape.diameter_bound(), "{shape}");
    }
}

fn check_3x3(blank: usize) {
    let histogram = check_every_board_toward(Shape::EIGHT, &common::canonical(9, blank));
    assert!(histogram.len() as u32 - 1 <= Shape::EIGHT.diameter_bound());
}

#[test]
fn every_3x3_board_toward_blank_at_0() {
    check_3x3(0);
}

#[test]
fn every_3x3_board_toward_blank_at_1() {
    check_3x3(1);
}

#[test]
fn every_3x3_board_toward_blank_at_2() {
    check_3x3(2);
}

#[test]
fn every_3x3_board_toward_blank_at_3() {
    check_3x3(3);
}

#[test]
fn every_3x3_board_toward_blank_at_4() {
    check_3x3(4);
}

#[test]
fn every_3x3_board_toward_blank_at_5() {
    check_3x3(5);
}

#[test]
fn every_3x3_board_toward_blank_at_6() {
    check_3x3(6);
}

#[test]
fn every_3x3_board_toward_blank_at_7() {
    check_3x3(7);
}

/// The number of boards at each distance from `12345678x`, as published for
/// the 8-puzzle (Reinefeld 1993, and OEIS A089473): the longest answers take
/// 31 moves, and only two boards need them.
#[test]
fn every_3x3_board_toward_the_usual_goal_and_its_published_histogram() {
    let expected: [u64; 32] = [
        1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529,
        10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
    ];
    assert_eq!(
        check_every_board_toward(Shape::EIGHT, &common::canonical(9, 8)),
        expected
    );
    let search =
        crate::bfs::search_until(&Board::goal(Shape::EIGHT), |_| {}, &crate::Stop::new()).unwrap();
    assert_eq!(search.histogram, expected);
}

/// Goals that are not in order exercise the relabelling of tiles.
#[test]
fn every_3x3_board_toward_scrambled_goals() {
    check_every_board_toward(Shape::EIGHT, &[7, 5, 6, 8, 0, 4, 1, 2, 3]);
    check_every_board_toward(Shape::EIGHT, &[0, 8, 7, 6, 5, 4, 3, 2, 1]);
    let shape: Shape = "2x4".parse().unwrap();
    check_every_board_toward(shape, &[7, 6, 5, 4, 3, 2, 1, 0]);
}

/// Interleaved walks toward a different goal for every board, as
/// `--pairs` asks, answer as one walk at a time does.
#[test]
fn packed_walks_toward_mixed_goals() {
    for shape in Shape::all().filter(|s| s.cells() <= 9) {
        let solver = Solver::builtin(shape).unwrap();
        let table = solver.table().unwrap();
        let boards: Vec<Board> = common::all_boards(shape.cells())
            .iter()
            .step_by(7)
            .map(|cells| Board::from_cells(shape, cells).unwrap())
            .collect();
        // Each board's goal is the board some way after it.
        let goals: Vec<Board> = (0..boards.len())
            .map(|i| boards[(i * 31 + 5) % boards.len()])
            .collect();
        let mut answers = Vec::new();
        for (starts, goals) in boards.chunks(333).zip(goals.chunks(333)) {
            // Answers of more than 31 moves (2x4, 4x2) are not packed.
            let fits = goals
                .iter()
                .all(|goal| table.max_depth(goal).unwrap() <= 31);
            assert_eq!(
                table.solve_packed(starts, goals, &mut answers).unwrap(),
                fits
            );
            if !fits {
                continue;
            }
            for ((start, goal), answer) in starts.iter().zip(goals).zip(&answers) {
                let expected = match solver.solve_to(start, goal).unwrap() {
                    Solution::Moves(moves) => Some(moves),
                    Solution::Unsolvable => None,
                };
                let got = answer.map(|answer| answer.moves().collect::<Vec<_>>());
                assert_eq!(got, expected, "{shape} {start} toward {goal}");
            }
        }
    }
}

/// Each section's longest answer in the header is the oracle's.
#[test]
fn section_depths_match_the_oracle() {
    for shape in Shape::all().filter(|s| s.cells() <= 9) {
        let solver = crate::table::Table::new(crate::data::builtin(shape).unwrap()).unwrap();
        for (blank, section) in solver.file().header().sections.iter().enumerate() {
            let oracle =
                common::Oracle::new(shape.cols(), &common::canonical(shape.cells(), blank));
            let deepest = oracle.distance.values().max().copied().unwrap();
            assert_eq!(section.max_depth, deepest, "{shape} blank {blank}");
        }
    }
}

/// On a table of 10 cells (walked in groups, its answers derived once many
/// boards ask), the typed batch gives the plain BFS's answers and lengths
/// in every path: a few boards, then many, toward the table's goal and a
/// relabelled one.
#[test]
fn a_ten_cell_tables_batches_match_the_plain_bfs() {
    let shape: Shape = "2x5".parse().unwrap();
    // The 2x5 table made in this process (the library's tests run without
    // the programs), into a data folder.
    let file = crate::data::DataFile::table(shape, crate::Metric::Stm, Some(9));
    let made = crate::generate::make(&file, &crate::Stop::new(), |_| {});
    let dir = tempfile::tempdir().unwrap();
    crate::generate::publish(&dir.path().join(file.name()), &made.unwrap().unwrap()).unwrap();
    let data = crate::DataDir::at(dir.path());
    let solver = Solver::open(
        &Board::canonical(shape, 9),
        &crate::Options::new().with_data(Ok(data)),
    )
    .unwrap();
    let mut rng = common::Rng(5);
    for goal in ["1 2 3 4 5 6 7 8 9 x", "9 8 7 6 5 4 3 2 1 x"] {
        let goal = Board::parse(shape, goal.as_bytes()).unwrap();
        let oracle = common::Oracle::new(5, goal.cells());
        for boards in [300, 200_000] {
            let starts: Vec<Board> = (0..boards)
                .map(|_| Board::from_cells(shape, &rng.board(10)).unwrap())
                .collect();
            check_typed(&solver, &starts, &goal, &oracle);
        }
    }
}

/// The 3x4 table of the usual goal: 239,500,800 boards, the longest answer
/// 53 moves (the published diameter of the 3x4 puzzle). About a minute and
/// a gigabyte; run with `cargo test --lib -- --ignored`.
#[test]
#[ignore]
fn the_three_by_four_table_has_the_published_depth() {
    let goal = crate::Board::goal("3x4".parse().unwrap());
    let search = crate::bfs::search_until(&goal, |_| {}, &crate::Stop::new()).unwrap();
    assert_eq!(search.histogram.iter().sum::<u64>(), 239_500_800);
    assert_eq!(search.max_depth(), 53);
}
