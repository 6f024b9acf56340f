//! The multi-tile metric against a plain BFS in that metric written here
//! (`common::MtmOracle`): every 3x3 board's answer, length and letters, the
//! 3x3 histograms, 2x4 in full, and the search on short 4x4 boards.

use super::common::{self, MtmOracle, Rng, all_boards, canonical, runs};
use crate::deepen::Query;
use crate::mtm::MtmSearcher;
use crate::table::Table;
use crate::{Board, Metric, Shape, Solver};

/// The table of the multi-tile metric toward the canonical goals of
/// `shape` with the blank at each of `blanks`, as a file.
fn generate_mtm(shape: Shape, blanks: &[usize]) -> Vec<u8> {
    let codes = (
        crate::mtm::codes_until as crate::bfs::MakeCodes,
        crate::file::Codec::ZstdNibbles,
    );
    crate::bfs::generate_until(shape, blanks, codes, |_| {}, &crate::Stop::new()).expect("no stop")
}

fn board(shape: Shape, cells: &[u8]) -> Board {
    Board::from_cells(shape, cells).expect("a board")
}

/// Every board of `shape` toward the goal with the blank at `blank`: the
/// table's answer is the oracle's, letter for letter.
fn every_board(shape: Shape, blank: usize) -> MtmOracle {
    let table = Table::new(generate_mtm(shape, &[blank])).expect("a table");
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
    // The built-in table answers a batch of every board as the oracle does.
    if let Some(solver) = Solver::builtin_for(shape, blank, Metric::Mtm) {
        let solver = solver.expect("the built-in table loads");
        let cells = all_boards(shape.cells());
        let starts: Vec<Board> = cells.iter().map(|cells| board(shape, cells)).collect();
        let answers = solver.solve_many(&starts, &goal).expect("answers");
        assert_eq!(answers.len(), starts.len());
        for (cells, answer) in cells.iter().zip(answers.iter()) {
            let expected = oracle.best_path(cells);
            assert_eq!(
                answer.letters().as_deref(),
                expected.as_deref(),
                "{cells:?} toward {goal}"
            );
            assert_eq!(answer.length(), expected.as_deref().map(runs));
        }
        // And their lengths in runs, as `--length` writes them.
        let table = solver.table().expect("a table");
        let mut lengths = Vec::new();
        for run in starts.chunks(4096) {
            assert!(table.write_answers(run, &goal, &mut lengths).unwrap());
        }
        let expected: Vec<Option<u16>> = cells
            .iter()
            .map(|cells| oracle.best_path(cells).map(|path| runs(&path) as u16))
            .collect();
        assert!(lengths == expected, "lengths toward {goal}");
    }
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
    let bytes = generate_mtm(shape, &[8]);
    let table = Table::new(&bytes[..]).unwrap();
    assert_eq!(
        table.metric(),
        Metric::Mtm,
        "the file's kind tells the metric"
    );
    // Asked for a table of the other metric, the file is refused.
    let refused = Table::of_metric(&bytes[..], Metric::Stm).unwrap_err();
    assert!(
        refused.to_string().contains("multi-tile"),
        "names what the file holds: {refused}"
    );
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
    let bytes = generate_mtm(shape, &[5]);
    // Decode, change one board's code, and write the file anew.
    let table = Table::new(bytes.clone()).unwrap();
    assert!(table.verify().is_ok());
    let file = table.file();
    let section = &file.header().sections[0];
    let raw = zstd::bulk::decompress(file.section(0).unwrap(), section.raw_len as usize).unwrap();
    for byte in 0..raw.len() {
        let mut changed = raw.clone();
        changed[byte] ^= 0x11;
        let compressed = crate::file::compress(&changed, 3);
        let new = crate::file::NewSection {
            goal: Board::canonical(shape, 5),
            tiles: Vec::new(),
            entries: section.entries,
            max_depth: section.max_depth,
            raw_len: section.raw_len,
            bytes: &compressed,
        };
        let mut out = Vec::new();
        crate::file::write(
            &mut out,
            shape,
            file.header().rank,
            file.header().codec,
            &[new],
        )
        .unwrap();
        let wrong = Table::new(out).unwrap();
        let said = wrong.verify().unwrap_err().to_string();
        // The first board whose code differs is named.
        assert!(said.contains("from "), "byte {byte}: {said}");
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
        let (found, _) = searcher.solve_to(&board(shape, cells), &goal).unwrap();
        let letters = found
            .moves()
            .map(|moves| moves.iter().map(|m| m.letter()).collect());
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
        let (found, _) = searcher.solve_to(&board(shape, cells), &goal).unwrap();
        let letters = found
            .moves()
            .map(|moves| moves.iter().map(|m| m.letter()).collect());
        assert_eq!(letters, oracle.best_path(cells), "{}", common::text(cells));
    }
    // The pattern databases join the walking distances past a million
    // positions: here from the first, on near boards toward two goals.
    // And on two threads, every budget cut up: the same answers, and the
    // same positions counted.
    for goal_cells in [canonical(16, 15), canonical(16, 5)] {
        over_databases_at_once(shape, &goal_cells, 6, 150, &mut rng);
    }
    let swapped = board(
        shape,
        &[2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0],
    );
    assert_eq!(
        searcher.solve_to(&swapped, &Board::goal(shape)).unwrap(),
        (crate::Solution::Unsolvable, 0)
    );
}

#[test]
fn the_search_matches_a_table_on_random_2x5_boards() {
    // Boards of every depth: the search, with and without its pattern
    // databases, against the table (itself checked against the oracle).
    let shape: Shape = "2x5".parse().unwrap();
    let table = Table::new(generate_mtm(shape, &[2, 9])).unwrap();
    table.verify().unwrap();
    let walking = MtmSearcher::new(shape);
    let strong = MtmSearcher::new(shape).with_databases_at_once();
    // Every budget cut up among three threads, from the first.
    let split = MtmSearcher::new(shape)
        .with_databases_at_once()
        .threads(3, 0);
    let mut rng = Rng(25);
    for blank in [9, 2] {
        let goal = Board::canonical(shape, blank);
        for _ in 0..60 {
            let start = board(shape, &rng.board(10));
            let mut letters = Vec::new();
            let moves = table.write_answer(&start, &goal, &mut letters).unwrap();
            let expected: Option<Vec<u8>> = moves.map(|_| letters);
            let mut counted = Vec::new();
            for searcher in [&walking, &strong, &split] {
                let (found, nodes) = searcher.solve_to(&start, &goal).unwrap();
                // A board that is not the goal is answered by a search.
                assert!(nodes > 0 || found.moves().is_none_or(|m| m.is_empty()));
                let found: Option<Vec<u8>> = found
                    .moves()
                    .map(|moves| moves.iter().map(|m| m.letter() as u8).collect());
                assert_eq!(found, expected, "{start}");
                counted.push(nodes);
            }
            // The threads change neither the answer nor the positions counted.
            assert_eq!(counted[1], counted[2], "{start}");
        }
    }
}

#[test]
fn a_search_cut_up_among_threads_answers_as_in_one_piece() {
    // Random 3x4 and 4x4 boards, searched over several budgets: on one thread,
    // and on two and three with every budget past the first hundred
    // positions cut up. The answers and the positions counted are the same.
    let mut rng = Rng(36);
    for (shape, blanks, boards) in [("3x4", [11, 0], 4), ("4x4", [15, 0], 1)] {
        let shape: Shape = shape.parse().unwrap();
        let [one, two, three] = [(1, 0), (2, 100), (3, 100)].map(|(threads, after)| {
            MtmSearcher::new(shape)
                .with_databases_at_once()
                .threads(threads, after)
        });
        for blank in blanks {
            let goal = Board::canonical(shape, blank);
            let mut solved = 0;
            while solved < boards {
                let start = board(shape, &rng.board(shape.cells()));
                if !start.solvable_to(&goal) {
                    continue;
                }
                let alone = one.solve_to(&start, &goal).unwrap();
                assert_eq!(two.solve_to(&start, &goal).unwrap(), alone, "{start}");
                assert_eq!(three.solve_to(&start, &goal).unwrap(), alone, "{start}");
                // Counted once it was a search of several budgets cut up.
                solved += usize::from(alone.1 > 300);
            }
        }
    }
}

/// `count` boards up to `depth` moves from `goal_cells`, searched over the
/// multi-tile databases from the first position: the oracle's answer, and
/// on one thread and on two (every budget cut up) the same answer and the
/// same positions counted.
fn over_databases_at_once(
    shape: Shape,
    goal_cells: &[u8],
    depth: u32,
    count: usize,
    rng: &mut Rng,
) {
    let oracle = MtmOracle::new(shape.cols(), goal_cells, depth);
    let goal = board(shape, goal_cells);
    let strong = MtmSearcher::new(shape)
        .with_databases_at_once()
        .threads(1, 0);
    let split = MtmSearcher::new(shape)
        .with_databases_at_once()
        .threads(2, 0);
    let mut near: Vec<&Vec<u8>> = oracle.distance.keys().collect();
    near.sort();
    for _ in 0..count {
        let cells = near[rng.below(near.len())];
        let (found, nodes) = strong.solve_to(&board(shape, cells), &goal).unwrap();
        let letters = found
            .moves()
            .map(|moves| moves.iter().map(|m| m.letter()).collect());
        assert_eq!(letters, oracle.best_path(cells), "{}", common::text(cells));
        let on_two = split.solve_to(&board(shape, cells), &goal).unwrap();
        assert_eq!(on_two, (found, nodes), "{}", common::text(cells));
    }
}

/// On two shapes beyond 16 cells the search over databases made at start
/// (from the first position, on one thread and on two, every budget cut
/// up) agrees with the oracle and with itself.
#[test]
fn the_search_over_databases_beyond_16_cells_agrees_with_a_plain_search() {
    let mut rng = Rng(25);
    for shape in ["5x5", "2x9"] {
        let shape: Shape = shape.parse().unwrap();
        let goal_cells = canonical(shape.cells(), shape.cells() - 1);
        over_databases_at_once(shape, &goal_cells, 4, 20, &mut rng);
    }
}

/// Databases of the multi-tile metric whose checksums are right but whose
/// counts are wrong are refused by the proof at their first use, with the
/// command that makes them anew.
#[test]
fn a_count_made_wrong_is_refused_by_the_proof() {
    let shape = Shape::new(2, 7).unwrap();
    let made = crate::data::DataFile::usual(shape, Metric::Mtm, 13);
    let original = crate::generate::make(&made, &crate::Stop::new(), |_| {})
        .unwrap()
        .unwrap();
    let goal_board = Board::canonical(shape, 13);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(made.name());
    std::fs::write(&file, &original).unwrap();
    let load = || {
        Solver::open(
            &Board::canonical(shape, 13),
            &crate::Options::new()
                .with_data(Ok(crate::DataDir::at(dir.path())))
                .with_metric(Metric::Mtm),
        )
    };
    assert!(load().is_ok(), "the right file is proven");
    // A count made wrong with the checksums made right again is refused
    // by the proof at first use.
    let raw = crate::file::RawFile::new(&original[..]).unwrap();
    let mut counts: Vec<Vec<u8>> = (0..raw.header().sections.len())
        .map(|i| raw.section_bytes(i).to_vec())
        .collect();
    let at = counts[0].iter().position(|&c| c > 2).unwrap();
    counts[0][at] -= 1;
    let sections: Vec<crate::file::NewSection<'_>> = raw
        .header()
        .sections
        .iter()
        .zip(&counts)
        .map(|(section, counts)| crate::file::NewSection {
            goal: goal_board,
            tiles: section.tiles.clone(),
            entries: section.entries,
            max_depth: section.max_depth,
            raw_len: section.raw_len,
            bytes: counts,
        })
        .collect();
    let mut wrong = Vec::new();
    crate::file::write(
        &mut wrong,
        shape,
        raw.header().rank,
        raw.header().codec,
        &sections,
    )
    .unwrap();
    assert!(
        crate::file::RawFile::new(&wrong[..])
            .unwrap()
            .verify()
            .is_ok()
    );
    std::fs::write(&file, wrong).unwrap();
    let Err(err) = load() else {
        panic!("a wrong count is refused")
    };
    let err = err.to_string();
    assert!(
        err.contains("eight-gen --metric mtm --shape 2x7 --blank 13"),
        "{err}"
    );
}

#[test]
fn once_made_the_databases_search_from_the_first_position() {
    // A near board searched first with the walking distances alone; once
    // a far board has made the databases, searched as a searcher with them
    // from the start searches it: the same answer, the same positions.
    let shape = Shape::FIFTEEN;
    let goal = board(shape, &canonical(16, 15));
    let mut rng = Rng(53);
    let near: Vec<Board> = (0..3)
        .map(|_| board(shape, &rng.scramble(4, &canonical(16, 15), 40)))
        .collect();
    let far: Board = "12 11 5 2 9 13 15 10 3 4 8 7 14 1 x 6".parse().unwrap();
    let searcher = MtmSearcher::new(shape);
    let strong = MtmSearcher::new(shape).with_databases_at_once();
    let first: Vec<_> = near
        .iter()
        .map(|b| searcher.solve_to(b, &goal).unwrap())
        .collect();
    let (answer, _) = searcher.solve_to(&far, &goal).unwrap();
    assert_eq!(answer, strong.solve_to(&far, &goal).unwrap().0);
    for (start, (answer, walking)) in near.iter().zip(first) {
        let again = searcher.solve_to(start, &goal).unwrap();
        assert_eq!(again.0, answer, "{start}");
        assert_eq!(again, strong.solve_to(start, &goal).unwrap(), "{start}");
        // The walking distances alone searched no fewer positions.
        assert!(walking >= again.1, "{start}: {walking} against {}", again.1);
    }
}

#[test]
fn a_search_that_learns_answers_as_one_that_does_not() {
    // A player's walk: random 3x4 boards each a step of the blank from the
    // last, searched as `Solver::length_of` searches them (in full, then
    // within a move of the board before), by searchers that keep what
    // their searches learned (on one thread, and on two with every budget
    // past a hundred positions cut up) and by one that keeps nothing.
    // The answers are the same, and the learning is not idle: its searches
    // try fewer positions than the same searches keeping nothing.
    let shape: Shape = "3x4".parse().unwrap();
    let [plain, one, two] = [(1, 0), (1, 0), (2, 100)].map(|(threads, after)| {
        MtmSearcher::new(shape)
            .with_databases_at_once()
            .threads(threads, after)
    });
    let mut rng = Rng(52);
    let stop = crate::Stop::new();
    for blank in [11, 0] {
        let goal = Board::canonical(shape, blank);
        let mut start = board(shape, &rng.board(shape.cells()));
        while !start.solvable_to(&goal) {
            start = board(shape, &rng.board(shape.cells()));
        }
        let (mut last, mut counted) = (None, [0; 3]);
        for _ in 0..40 {
            let query = match last {
                Some(distance) => Query::within(distance - 1, distance + 1),
                None => Query::WHOLE,
            };
            let mut answers = Vec::new();
            for (searcher, query) in [
                (&plain, query),
                (&one, query.learning()),
                (&two, query.learning()),
            ] {
                let searched = searcher.search(&start, &goal, &stop, query).unwrap();
                let (solution, nodes) = crate::deepen::answer(searched).expect("within a move");
                answers.push(solution);
                counted[answers.len() - 1] += nodes;
            }
            assert_eq!(answers[1], answers[0], "{start}");
            assert_eq!(answers[2], answers[0], "{start}");
            let moves = answers[0].moves().expect("solvable");
            last = Some(Metric::Mtm.count_moves(moves) as u32);
            start = loop {
                let mv = crate::shape::Move::ALL[rng.below(4)];
                if let Some(next) = start.moved(mv) {
                    break next;
                }
            };
        }
        assert!(counted[1] < counted[0], "{counted:?}");
        assert!(counted[2] < counted[0], "{counted:?}");
    }
}

#[test]
fn a_stronger_search_answers_as_the_one_it_replaces() {
    // Random 3x4 boards toward two goals, searched over the databases a
    // search builds (5-5-1) and over the stronger ones made on request
    // (6-5), on one thread and on two with every budget cut up: the same
    // answers; the threads count the same positions, and the stronger
    // databases fewer in all.
    let shape: Shape = "3x4".parse().unwrap();
    let [plain, one, two] = [(1, 0), (1, 0), (2, 100)].map(|(threads, after)| {
        MtmSearcher::new(shape)
            .with_databases_at_once()
            .threads(threads, after)
    });
    let stop = crate::Stop::new();
    let stopped = crate::Stop::new();
    stopped.stop();
    let mut rng = Rng(61);
    for blank in [11, 0] {
        // The goal's tiles do not matter, only its blank's cell.
        let mut cells = rng.board(shape.cells());
        let at = cells.iter().position(|&tile| tile == 0).unwrap();
        cells.swap(at, blank);
        let goal = board(shape, &cells);
        assert!(matches!(
            one.strengthen(&goal, &stopped),
            Err(crate::SolveError::Stopped)
        ));
        for searcher in [&one, &two] {
            assert!(searcher.strengthen(&goal, &stop).unwrap());
            // Made once, kept.
            assert!(searcher.strengthen(&goal, &stopped).unwrap());
        }
        let mut counted = [0; 3];
        let mut solved = 0;
        while solved < 12 {
            let start = board(shape, &rng.board(shape.cells()));
            if !start.solvable_to(&goal) {
                continue;
            }
            let alone = plain.solve_to(&start, &goal).unwrap();
            let stronger = one.solve_to(&start, &goal).unwrap();
            assert_eq!(stronger.0, alone.0, "{start}");
            assert_eq!(two.solve_to(&start, &goal).unwrap(), stronger, "{start}");
            counted[0] += alone.1;
            counted[1] += stronger.1;
            solved += 1;
        }
        assert!(counted[1] < counted[0], "{counted:?}");
    }
    // Nothing to make beyond 16 cells, nor for another shape's goal.
    let large = MtmSearcher::new("4x5".parse().unwrap());
    assert!(
        !large
            .strengthen(&Board::goal(large.shape()), &stop)
            .unwrap()
    );
    assert!(one.strengthen(&Board::goal(Shape::FIFTEEN), &stop).is_err());
    // Nor for a solver of the single-tile metric.
    let solver = Solver::builtin(Shape::EIGHT).unwrap();
    assert!(!solver.strengthen(&Board::goal(Shape::EIGHT)).unwrap());
}
