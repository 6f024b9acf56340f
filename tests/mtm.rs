//! The program in the multi-tile metric against a plain BFS in that metric
//! (`common::MtmOracle`): every mode, made tables and databases, the
//! shapes beyond 16 cells, the README's examples.

mod common;

use common::{MtmOracle, Rng, canonical, runs};
use eight::{Board, Metric, Shape, Solver};

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
    let solver = Solver::open(
        &Board::canonical(Shape::new(2, 7).unwrap(), 13),
        &eight::Options::new()
            .with_data(Ok(eight::DataDir::at(dir.path())))
            .with_metric(Metric::Mtm),
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
}
