//! The multi-tile metric against a plain BFS in that metric written here
//! (`common::MtmOracle`): every 3x3 board's answer, length and letters, the
//! 3x3 histograms, 2x4 in full, and the search on short 4x4 boards.

mod common;

use common::{MtmOracle, Rng, all_boards, canonical, runs};
use eight::generate::generate_mtm;
use eight::{Board, Metric, MtmSearcher, Shape, Solver, Table};

fn board(shape: Shape, cells: &[u8]) -> Board {
    Board::from_cells(shape, cells).expect("a board")
}

/// Every board of `shape` toward the goal with the blank at `blank`: the
/// table's answer is the oracle's, letter for letter.
fn every_board(shape: Shape, blank: usize) -> MtmOracle {
    let table = Table::new(generate_mtm(shape, &[blank], |_| {})).expect("a table");
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
                answer.letters(),
                expected.as_deref(),
                "{cells:?} toward {goal}"
            );
            assert_eq!(answer.length(), expected.as_deref().map(runs));
        }
        // And their lengths in runs, as `--length` writes them.
        let table = eight::internals::fast::table(&solver).expect("a table");
        let mut lengths = Vec::new();
        for run in starts.chunks(4096) {
            assert!(
                eight::internals::fast::write_lengths(table, run, &goal, &mut lengths).unwrap()
            );
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
    let bytes = generate_mtm(shape, &[8], |_| {});
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
    let bytes = generate_mtm(shape, &[5], |_| {});
    // Decode, change one board's code, and write the file anew.
    let table = Table::new(bytes.clone()).unwrap();
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
        let wrong = Table::new(out).unwrap();
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
        (eight::Solution::Unsolvable, 0)
    );
}

/// The program's answer to each line of `input` with `args`.
fn answers(args: &[&str], input: &str) -> Vec<String> {
    let (out, err, code) = common::run(args, input);
    assert_eq!(code, 0, "{err}");
    out.lines().map(str::to_string).collect()
}

#[test]
fn every_mode_counts_in_the_metric_asked_for() {
    let mut rng = Rng(31);
    let goal = canonical(9, 8);
    let oracle = MtmOracle::new(3, &goal, u32::MAX);
    let boards: Vec<Vec<u8>> = (0..200).map(|_| rng.board(9)).collect();
    let input: String = boards.iter().map(|b| common::text(b) + "\n").collect();
    let expected: Vec<Option<String>> = boards.iter().map(|b| oracle.best_path(b)).collect();
    let plain = answers(&["--metric", "mtm"], &input);
    let length = answers(&["--metric", "mtm", "--length"], &input);
    let runs_spelled = answers(&["--metric", "mtm", "--notation", "tile-runs"], &input);
    let json = answers(&["--metric", "mtm", "--json"], &input);
    for (k, want) in expected.iter().enumerate() {
        match want {
            Some(path) => {
                assert_eq!(plain[k], *path);
                assert_eq!(length[k], runs(path).to_string());
                // One token per move: a letter, and a count over one.
                let tokens = runs_spelled[k]
                    .chars()
                    .filter(|c| c.is_ascii_uppercase())
                    .count();
                assert_eq!(tokens, runs(path));
                let line: serde_json::Value = serde_json::from_str(&json[k]).unwrap();
                assert_eq!(line["moves"], path.as_str());
                assert_eq!(line["length"], runs(path));
                assert_eq!(line["metric"], "mtm");
            }
            None => assert_eq!(plain[k], "unsolvable"),
        }
    }
    // The single-tile metric stays the default, and its JSON unchanged.
    let stm = answers(&["--json"], "1 2 3 4 5 6 x 7 8\n");
    assert_eq!(
        stm[0],
        r#"{"line":1,"board":"1 2 3 4 5 6 x 7 8","goal":"1 2 3 4 5 6 7 8 x","moves":"rr","length":2}"#
    );
    assert_eq!(
        answers(&["--metric", "mtm", "--length"], "1 2 3 4 5 6 x 7 8\n"),
        ["1"]
    );
    let show = answers(&["--metric", "mtm", "--show"], "1 2 3 4 5 6 x 7 8\n");
    assert_eq!(show[0], "rr");
    assert!(show.len() > 3, "the boards along the answer are drawn");
}

#[test]
fn judge_pairs_goal_and_random_depth_count_in_mtm() {
    let judged = answers(
        &["--metric", "mtm", "--judge"],
        "1 2 3 4 5 6 x 7 8 rr\n1 2 3 4 5 6 x 7 8 rlrr\n1 2 3 4 5 6 x 7 8 r\n",
    );
    assert_eq!(judged, ["optimal", "longer by 2", "not at goal"]);
    // An illegal move is numbered as `longer by` counts: runs are moves.
    let judged = answers(
        &["--metric", "mtm", "--judge"],
        "1 2 3 4 5 6 x 7 8 rrr\n1 2 3 4 5 6 x 7 8 rrdd\n1 2 3 4 5 6 x 7 8 rlrld\n",
    );
    assert_eq!(
        judged,
        ["illegal move 1", "illegal move 2", "illegal move 5"]
    );
    // --pairs: the count, then the moves, toward each case's target.
    let pairs = answers(
        &["--metric", "mtm", "--pairs"],
        "2\n1 2 3 4 5 6 x 7 8\n1 2 3 4 5 6 7 8 x\n8 6 7 2 5 4 3 x 1\n1 2 3 4 5 6 7 8 x\n",
    );
    let oracle = MtmOracle::new(3, &canonical(9, 8), u32::MAX);
    let far = oracle.best_path(&[8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
    assert_eq!(
        pairs,
        [
            "Case 1: 1",
            "rr",
            &format!("Case 2: {}", runs(&far)),
            far.as_str()
        ]
    );
    // Another goal.
    let other = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    let oracle = MtmOracle::new(3, &other, u32::MAX);
    let board = [8, 6, 7, 2, 5, 4, 3, 0, 1];
    assert_eq!(
        answers(
            &["--metric", "mtm", "--goal", "x 1 2 3 4 5 6 7 8"],
            &common::text(&board)
        ),
        [oracle.best_path(&board).unwrap()]
    );
    // Boards drawn exactly D moves away, in MTM.
    let drawn = answers(
        &[
            "--metric", "mtm", "--random", "50", "--depth", "20", "--seed", "4",
        ],
        "",
    );
    let input: String = drawn.iter().map(|b| format!("{b}\n")).collect();
    let lengths = answers(&["--metric", "mtm", "--length"], &input);
    assert!(lengths.iter().all(|l| l == "20"), "{lengths:?}");
    let (_, err, code) = common::run(&["--metric", "mtm", "--random", "1", "--depth", "25"], "");
    assert_eq!(code, 2);
    assert!(err.contains("24"), "{err}");
}

#[test]
fn bad_lines_keep_their_places_in_mtm() {
    let input = "1 2 3 4 5 6 x 7 8\n1 2 3\nhello\n1 2 3 4 5 6 7 8 x\n";
    let (out, err, code) = common::run(&["--metric", "mtm"], input);
    assert_eq!(out, "rr\ninvalid\ninvalid\n\n");
    assert_eq!(code, 1);
    assert!(err.contains(":2:") && err.contains(":3:"), "{err}");
    let (_, err, code) = common::run(&["--metric", "kings"], "");
    assert_eq!(code, 2);
    assert!(err.contains("[possible values: stm, mtm]"), "{err}");
}

#[test]
fn a_made_2x5_table_answers_from_the_data_folder() {
    let dir = tempfile::tempdir().unwrap();
    common::eight_gen()
        .args(["--quiet", "--metric", "mtm", "--shape", "2x5", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let data = dir.path().to_str().unwrap();
    let goal = canonical(10, 9);
    let oracle = MtmOracle::new(5, &goal, 11);
    let mut near: Vec<&Vec<u8>> = oracle.distance.keys().collect();
    near.sort();
    let mut rng = Rng(10);
    let boards: Vec<&Vec<u8>> = (0..300).map(|_| near[rng.below(near.len())]).collect();
    let input: String = boards.iter().map(|b| common::text(b) + "\n").collect();
    let (out, err, code) = common::run(
        &["--metric", "mtm", "--shape", "2x5", "--data", data, "-v"],
        input,
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("2x5-mtm-blank9.table"), "{err}");
    for (board, line) in boards.iter().zip(out.lines()) {
        assert_eq!(Some(line.to_string()), oracle.best_path(board));
    }
    // --check finds it equal; --table reads it with --metric mtm only.
    common::eight_gen()
        .args([
            "--check", "--quiet", "--metric", "mtm", "--shape", "2x5", "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let table = dir.path().join("2x5-mtm-blank9.table");
    let table = table.to_str().unwrap();
    let (_, err, code) = common::run(&["--table", table], "");
    assert_eq!(code, 2);
    assert!(err.contains("--metric mtm"), "{err}");
    let (out, _, _) = common::run(
        &["--table", table, "--metric", "mtm"],
        common::text(boards[0]) + "\n",
    );
    assert_eq!(
        Some(out.trim_end().to_string()),
        oracle.best_path(boards[0])
    );
    // Without the table, the search answers the same.
    let empty = tempfile::tempdir().unwrap();
    let (out, err, code) = common::run(
        &[
            "--metric",
            "mtm",
            "--shape",
            "2x5",
            "--data",
            empty.path().to_str().unwrap(),
            "-v",
        ],
        boards[..20]
            .iter()
            .map(|b| common::text(b) + "\n")
            .collect::<String>(),
    );
    assert_eq!(code, 0);
    assert!(err.contains("makes a table"), "{err}");
    for (board, line) in boards.iter().zip(out.lines()) {
        assert_eq!(Some(line.to_string()), oracle.best_path(board));
    }
}

#[test]
fn the_15_puzzle_is_searched_out_of_the_box() {
    let goal = canonical(16, 15);
    let oracle = MtmOracle::new(4, &goal, 6);
    let mut rng = Rng(16);
    let mut near: Vec<&Vec<u8>> = oracle.distance.keys().collect();
    near.sort();
    let boards: Vec<&Vec<u8>> = (0..30).map(|_| near[rng.below(near.len())]).collect();
    let input: String = boards.iter().map(|b| common::text(b) + "\n").collect();
    let out = answers(&["--metric", "mtm"], &input);
    for (board, line) in boards.iter().zip(&out) {
        assert_eq!(Some(line.clone()), oracle.best_path(board));
    }
}

/// The 3x4 table takes one and a half minutes to make: run with
/// `cargo test --test mtm -- --ignored`.
#[test]
#[ignore]
fn a_made_3x4_table_matches_the_oracle_on_samples() {
    let dir = tempfile::tempdir().unwrap();
    common::eight_gen()
        .args(["--quiet", "--metric", "mtm", "--shape", "3x4", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let goal = canonical(12, 11);
    let oracle = MtmOracle::new(4, &goal, 9);
    let mut near: Vec<&Vec<u8>> = oracle.distance.keys().collect();
    near.sort();
    let mut rng = Rng(12);
    let boards: Vec<&Vec<u8>> = (0..2000).map(|_| near[rng.below(near.len())]).collect();
    let input: String = boards.iter().map(|b| common::text(b) + "\n").collect();
    let data = dir.path().to_str().unwrap();
    let (out, err, code) = common::run(
        &["--metric", "mtm", "--shape", "3x4", "--data", data],
        input,
    );
    assert_eq!(code, 0, "{err}");
    for (board, line) in boards.iter().zip(out.lines()) {
        assert_eq!(Some(line.to_string()), oracle.best_path(board));
    }
}

#[test]
fn the_readme_examples_of_the_metric_are_true() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split("### The multi-tile metric")
        .nth(1)
        .expect("the README has the section");
    let block = section
        .split("```sh\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let bin = assert_cmd::cargo::cargo_bin("eight");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut examples = 0;
    for example in block.split("$ ").skip(1) {
        let (command, expected) = example.split_once('\n').unwrap();
        let command = command.split("  #").next().unwrap().trim();
        let output = std::process::Command::new("sh")
            .args(["-c", command])
            .env("PATH", &path)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(output.stdout).unwrap(),
            expected,
            "{command}"
        );
        examples += 1;
    }
    assert_eq!(examples, 2);
}

#[test]
fn the_search_matches_a_table_on_random_2x5_boards() {
    // Boards of every depth: the search, with and without its pattern
    // databases, against the table (itself checked against the oracle).
    let shape: Shape = "2x5".parse().unwrap();
    let table = Table::new(generate_mtm(shape, &[2, 9], |_| {})).unwrap();
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

#[test]
fn databases_made_by_the_generator_serve_the_search() {
    let dir = tempfile::tempdir().unwrap();
    common::eight_gen()
        .args(["--quiet", "--metric", "mtm", "--shape", "2x7", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let file = dir.path().join("2x7-mtm-6-6-1-blank13.pdb");
    assert!(file.exists());
    let data = dir.path().to_str().unwrap();
    let goal = canonical(14, 13);
    let oracle = MtmOracle::new(7, &goal, 6);
    let mut near: Vec<&Vec<u8>> = oracle.distance.keys().collect();
    near.sort();
    let mut rng = Rng(14);
    let boards: Vec<&Vec<u8>> = (0..100).map(|_| near[rng.below(near.len())]).collect();
    let input: String = boards.iter().map(|b| common::text(b) + "\n").collect();
    let (out, err, code) = common::run(
        &["--metric", "mtm", "--shape", "2x7", "--data", data, "-v"],
        input.clone(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("pattern databases (6-6-1) in"), "{err}");
    for (board, line) in boards.iter().zip(out.lines()) {
        assert_eq!(Some(line.to_string()), oracle.best_path(board));
    }
    common::eight_gen()
        .args([
            "--check", "--quiet", "--metric", "mtm", "--shape", "2x7", "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    // Read in place, the databases answer a solver until the file is
    // rewritten; then the solver says so and its search stops.
    let solver = Solver::load(
        Shape::new(2, 7).unwrap(),
        13,
        Metric::Mtm,
        &eight::DataDir::at(dir.path()),
        None,
        |_| {},
    )
    .unwrap();
    let shape = Shape::new(2, 7).unwrap();
    let goal_board = Board::from_cells(shape, &goal).unwrap();
    let far = Board::from_cells(shape, boards[0]).unwrap();
    assert_eq!(
        solver.solve_to(&far, &goal_board).unwrap().to_string(),
        oracle.best_path(boards[0]).unwrap()
    );
    assert_eq!(solver.changed(), None);
    let original = std::fs::read(&file).unwrap();
    let mut rewritten = original.clone();
    let last = rewritten.len() - 1;
    rewritten[last] ^= 1;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&file)
        .and_then(|mut f| std::io::Write::write_all(&mut f, &rewritten))
        .unwrap();
    assert_eq!(solver.changed(), Some(file.as_path()));
    assert_eq!(
        solver.solve_to(&far, &goal_board),
        Err(eight::SolveError::Changed)
    );
    std::fs::write(&file, &original).unwrap();
    // A count made wrong with the checksums made right again is refused
    // by the proof at first use.
    let raw = eight::file::RawFile::new(&original[..]).unwrap();
    let mut counts: Vec<Vec<u8>> = (0..raw.header().sections.len())
        .map(|i| raw.section_bytes(i).to_vec())
        .collect();
    let at = counts[0].iter().position(|&c| c > 2).unwrap();
    counts[0][at] -= 1;
    let sections: Vec<eight::file::NewSection<'_>> = raw
        .header()
        .sections
        .iter()
        .zip(&counts)
        .map(|(section, counts)| eight::file::NewSection {
            goal: goal_board,
            tiles: section.tiles.clone(),
            entries: section.entries,
            max_depth: section.max_depth,
            raw_len: section.raw_len,
            bytes: counts,
        })
        .collect();
    let mut wrong = Vec::new();
    eight::file::write(
        &mut wrong,
        shape,
        raw.header().rank,
        raw.header().codec,
        &sections,
    )
    .unwrap();
    assert!(
        eight::file::RawFile::new(&wrong[..])
            .unwrap()
            .verify()
            .is_ok()
    );
    std::fs::write(&file, wrong).unwrap();
    let (out, err, code) = common::run(
        &["--metric", "mtm", "--shape", "2x7", "--data", data],
        input.clone(),
    );
    // Every board `unanswered`: none is answered from a wrong file.
    assert!(out.lines().all(|line| line == "unanswered"), "{out}");
    assert_eq!(out.lines().count(), input.lines().count());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("eight-gen --metric mtm --shape 2x7 --blank 13"),
        "{err}"
    );
    // A changed byte is refused with the command that makes the file anew.
    let mut bytes = original;
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, bytes).unwrap();
    let (out, err, code) = common::run(
        &["--metric", "mtm", "--shape", "2x7", "--data", data],
        input.clone(),
    );
    // Every board `unanswered`: none is answered from a wrong file.
    assert!(out.lines().all(|line| line == "unanswered"), "{out}");
    assert_eq!(out.lines().count(), input.lines().count());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("eight-gen --metric mtm --shape 2x7 --blank 13"),
        "{err}"
    );
}

/// Every shape of 17 to 25 cells is answered in the multi-tile metric out
/// of the box: boards up to four moves from two goals, the program's
/// answer the oracle's, letter for letter; and on two shapes the search
/// over databases made at start (from the first position, on one thread
/// and on two, every budget cut up) agrees with it and with itself.
#[test]
fn the_multi_tile_metric_answers_every_shape_of_17_to_25_cells() {
    let mut rng = Rng(25);
    let mut input = String::new();
    let mut expected = Vec::new();
    let mut args = Vec::new();
    for shape in Shape::all().filter(|shape| shape.cells() > 16) {
        let n = shape.cells();
        for blank in [n - 1, 0] {
            let goal = canonical(n, blank);
            let oracle = MtmOracle::new(shape.cols(), &goal, 4);
            let mut near: Vec<&Vec<u8>> = oracle.distance.keys().collect();
            near.sort();
            let picked: Vec<&Vec<u8>> = (0..12).map(|_| near[rng.below(near.len())]).collect();
            args.push((shape, common::text(&goal)));
            let lines: String = picked.iter().map(|b| common::text(b) + "\n").collect();
            input.push_str(&lines);
            expected.extend(picked.iter().map(|b| oracle.best_path(b)));
        }
    }
    // One run a goal: the program reads the goal from --goal.
    let mut at = 0;
    for (shape, goal) in &args {
        let lines: String = input
            .lines()
            .skip(at)
            .take(12)
            .map(|l| format!("{l}\n"))
            .collect();
        let shape_arg = shape.to_string();
        let out = answers(
            &["--metric", "mtm", "--shape", &shape_arg, "--goal", goal],
            &lines,
        );
        for (line, expected) in out.iter().zip(&expected[at..at + 12]) {
            assert_eq!(Some(line.clone()), *expected, "{shape} toward {goal}");
        }
        assert_eq!(out.len(), 12, "{shape}");
        at += 12;
    }
    for shape in ["5x5", "2x9"] {
        let shape: Shape = shape.parse().unwrap();
        let goal_cells = canonical(shape.cells(), shape.cells() - 1);
        over_databases_at_once(shape, &goal_cells, 4, 20, &mut rng);
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
