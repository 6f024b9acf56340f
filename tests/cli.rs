//! The `eight` command line: every mode, every shape family, the messages
//! and the exit codes.

mod common;

use common::{eight, run};
use predicates::prelude::*;

#[test]
fn the_seed_sample_gets_the_smallest_shortest_answer() {
    let (out, err, code) = run(&[], " 2  3  4  1  5  x  7  6  8\n");
    // The statements print another answer of the same length; ours is the
    // lexicographically smallest of the shortest.
    assert_eq!(out, "dlurullddrurdllurdr\n");
    assert_eq!((err.as_str(), code), ("", 0));
    let start = [2, 3, 4, 1, 5, 0, 7, 6, 8];
    let goal = common::canonical(9, 8);
    let seeds_answer = "ullddrurdllurdruldr";
    assert_eq!(common::follow(3, &start, seeds_answer), Some(goal.clone()));
    assert_eq!(common::follow(3, &start, "dlurullddrurdllurdr"), Some(goal));
    assert!("dlurullddrurdllurdr" < seeds_answer);
}

#[test]
fn many_boards_until_end_of_input_in_every_layout() {
    let input = "1 2 3 x 4 6 7 5 8\r\n\
                 \t1 2 3\n x 4 6\n 7 5 8\n\
                 123x46758\n\
                 1 2 3 0 4 6 7 5 8\n\
                 123 X46 758\n\
                 1 2 3/x 4 6/7 5 8\n\
                 \n\
                 2 1 3 4 5 6 7 8 x\n\
                 1 2 3 4 5 6 7 8 x";
    let (out, err, code) = run(&[], input);
    assert_eq!(out, "rdr\nrdr\nrdr\nrdr\nrdr\nrdr\nunsolvable\n\n");
    assert_eq!((err.as_str(), code), ("", 0));
}

#[test]
fn bad_boards_are_reported_and_the_rest_answered() {
    let input = "1 2 3 x 4 6 7 5 9\n\
                 1 2 3 x 4 6 7 5 a\n\
                 1 2 3 x 4 6 7 5 -1\n\
                 1 2 3 x 4 6 7 5 \u{ff18}\n\
                 1 2 3 x 4 6 7 5 5\n\
                 1 2 3 x 4 6 7 5 8 1\n\
                 1 2 3 x 4 6 7 5 8\n\
                 1 2 3 x";
    let (out, err, code) = run(&[], input);
    assert_eq!(
        out,
        "invalid\ninvalid\ninvalid\ninvalid\ninvalid\ninvalid\nrdr\ninvalid\n"
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 7, "{err}");
    for (line, (number, what)) in lines.iter().zip([
        (1, "unknown tile \"9\""),
        (2, "unknown tile \"a\""),
        (3, "unknown tile \"-1\""),
        (4, "unknown tile \"\u{ff18}\""),
        (5, "tile 5 written more than once; tile 8 missing"),
        (6, "10 tiles on one line"),
        (8, "a 4x4 grid cut short after 1 of 4 rows"),
    ]) {
        let prefix = format!("eight: <stdin>:{number}: ");
        assert!(line.starts_with(&prefix) && line.contains(what), "{line:?}");
    }
    assert_eq!(code, 1);
}

#[test]
fn pairs_mode_matches_hdu_3567_byte_for_byte() {
    let input = "2\n12X453786\n12345678X\n564178X23\n7568X4123\n";
    let (out, err, code) = run(&["--pairs"], input);
    assert_eq!(out, "Case 1: 2\ndd\nCase 2: 8\nurrulldr\n");
    assert_eq!((err.as_str(), code), ("", 0));
}

#[test]
fn pairs_mode_reports_unsolvable_empty_and_invalid_cases() {
    let input = "4\n12345678X\n12345678X\n21345678X\n12345678X\n1234567z8\n12345678X\n12345678X\n";
    let (out, err, code) = run(&["--pairs"], input);
    assert_eq!(
        out,
        "Case 1: 0\n\nCase 2: unsolvable\n\nCase 3: invalid\n\nCase 4: invalid\n\n"
    );
    assert!(err.contains("<stdin>:6: "), "{err}");
    assert!(
        err.contains("<stdin>:8: this case has a start board but no target"),
        "{err}"
    );
    assert_eq!(code, 1);
}

#[test]
fn pairs_mode_checks_the_count() {
    let (out, err, code) = run(&["--pairs"], "3\n12X453786\n12345678X\n");
    assert_eq!(out, "Case 1: 2\ndd\n");
    assert!(
        err.contains("<stdin>:1: the input announces 3 cases but holds 1"),
        "{err}"
    );
    assert_eq!(code, 1);
    let (out, err, code) = run(
        &["--pairs"],
        "1\n12X453786\n12345678X\n12X453786\n12345678X\n",
    );
    assert_eq!(out, "Case 1: 2\ndd\nCase 2: 2\ndd\n");
    assert!(err.contains("announces 1 case but holds 2"), "{err}");
    assert_eq!(code, 1);
    // No count: the first line is read as a board, and the pairs stay paired.
    let (out, err, code) = run(&["--pairs"], "12X453786\n12345678X\n");
    assert_eq!(out, "Case 1: 2\ndd\n");
    assert!(
        err.contains("<stdin>:1: expected the number of cases first"),
        "{err}"
    );
    assert_eq!(code, 1);
    let (out, err, code) = run(&["--pairs"], "");
    assert_eq!(out, "");
    assert!(err.contains("no input"), "{err}");
    assert_eq!(code, 1);
    // A first line that is no board is the count line, readable or not:
    // said once, and the pairs after it stay pairs.
    for count in ["99999999999999999999", "-1", "2 3", "two", "0x2", "2.0"] {
        let input = format!("{count}\n12X453786\n12345678X\n564178X23\n7568X4123\n");
        let (out, err, code) = run(&["--pairs"], input);
        assert_eq!(out, "Case 1: 2\ndd\nCase 2: 8\nurrulldr\n", "{count}");
        assert_eq!(err.lines().count(), 1, "{count}: {err}");
        assert!(
            err.starts_with("eight: <stdin>:1: the number of cases"),
            "{err}"
        );
        assert_eq!(code, 1, "{count}");
    }
}

#[test]
fn goal_option_solves_toward_any_board() {
    let (out, _, code) = run(&["--goal", "7568X4123"], "564178X23\n");
    assert_eq!((out.as_str(), code), ("urrulldr\n", 0));
    let (out, err, code) = run(&["--goal", "1 2 3 4 5 6 7 8 9"], "564178X23\n");
    assert_eq!(out, "");
    assert!(
        err.contains("--goal") && err.contains("unknown tile \"9\""),
        "{err}"
    );
    assert_eq!(code, 2);
    let (_, err, code) = run(&["--goal", "abc"], "");
    assert!(err.contains("unknown tile \"abc\""), "{err}");
    assert_eq!(code, 2);
    // The goal fixes the shape: a board of another shape is invalid.
    let (out, err, code) = run(
        &["--goal", "12345678x"],
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n",
    );
    assert_eq!(out, "invalid\n");
    assert!(
        err.contains("<stdin>:1: 16 tiles on one line: a 3x3 board"),
        "{err}"
    );
    assert_eq!(code, 1);
}

#[test]
fn json_mode_prints_one_object_per_board() {
    let (out, _, code) = run(&["--json"], "1 2 3 x 4 6 7 5 8\n2 1 3 4 5 6 7 8 x\n1 2 3\n");
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        objects[0],
        serde_json::json!({"line": 1, "board": "1 2 3 x 4 6 7 5 8",
            "goal": "1 2 3 4 5 6 7 8 x", "moves": "rdr", "length": 3})
    );
    assert_eq!(objects[1]["unsolvable"], true);
    assert_eq!(
        objects[2],
        serde_json::json!({"line": 3, "error":
            "a 3x3 grid cut short after 1 of 3 rows (a grid is 3 consecutive lines of one row each)"})
    );
    assert_eq!(code, 1);
}

#[test]
fn show_mode_draws_the_boards() {
    let (out, _, code) = run(&["--show"], "1 2 3 x 4 6 7 5 8\n");
    let expected = "rdr\n\
                    1 2 3      1 2 3      1 2 3      1 2 3\n\
                    x 4 6  r-> 4 x 6  d-> 4 5 6  r-> 4 5 6\n\
                    7 5 8      7 5 8      7 x 8      7 8 x\n\n";
    assert_eq!(out, expected);
    assert_eq!(code, 0);
}

/// Every built-in shape on the command line, and its answers against the
/// oracle.
#[test]
fn every_built_in_shape_is_answered() {
    for (shape, rows, cols) in [
        ("2x2", 2, 2),
        ("2x3", 2, 3),
        ("3x2", 3, 2),
        ("2x4", 2, 4),
        ("4x2", 4, 2),
    ] {
        let n = rows * cols;
        let goal = common::canonical(n, n - 1);
        let oracle = common::Oracle::new(cols, &goal);
        let mut rng = common::Rng(n as u64);
        let boards: Vec<Vec<u8>> = (0..50).map(|_| rng.board(n)).collect();
        let input: String = boards.iter().map(|b| common::text(b) + "\n").collect();
        let (out, err, code) = run(&["--shape", shape], input);
        assert_eq!((err.as_str(), code), ("", 0), "{shape}");
        for (board, line) in boards.iter().zip(out.lines()) {
            let expected = oracle
                .best_path(board)
                .unwrap_or_else(|| "unsolvable".into());
            assert_eq!(line, expected, "{shape} {board:?}");
        }
        assert_eq!(out.lines().count(), 50);
    }
    // Tiles written together, and rows, on a small shape.
    let (out, _, code) = run(&["--shape", "2x3"], "12345x\n123\n4x5\n");
    assert_eq!((out.as_str(), code), ("\nr\n", 0));
}

#[test]
fn unsupported_shapes_and_partitions_are_refused_with_the_reason() {
    for (args, what) in [
        (&["--shape", "5x6"][..], "at most 25 cells"),
        (&["--shape", "1x9"][..], "at least 2 rows"),
        (&["--shape", "three"][..], "rows x columns"),
        (&["--partition", "5-5"][..], "add up to the 15 tiles"),
        (
            &["--partition", "4-4", "--shape", "3x3"][..],
            "answered from a table",
        ),
        (&["--partition", "a-b"][..], "group sizes"),
    ] {
        let (out, err, code) = run(args, "1 2 3 x 4 6 7 5 8\n");
        assert_eq!((out.as_str(), code), ("", 2), "{args:?}");
        assert!(err.contains(what), "{args:?}: {err}");
    }
}

#[test]
fn bad_arguments_exit_2() {
    eight().arg("--no-such-flag").assert().code(2);
    eight()
        .args(["--pairs", "--goal", "12345678x"])
        .assert()
        .code(2);
}

#[test]
fn missing_data_names_the_command_that_makes_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    for (shape, board, command) in [
        (
            "3x4",
            "1 2 3 4 5 6 7 8 9 10 11 x",
            "eight-gen --shape 3x4 --blank 11",
        ),
        (
            "2x5",
            "1 2 3 4 5 6 7 8 9 x",
            "eight-gen --shape 2x5 --blank 9",
        ),
        (
            "2x8",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x",
            "eight-gen --shape 2x8 --blank 15",
        ),
        (
            "5x3",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x",
            "eight-gen --shape 5x3 --blank 14",
        ),
    ] {
        let (out, err, code) = run(&["--shape", shape, "--data", data], format!("{board}\n"));
        assert_eq!((out.as_str(), code), ("unanswered\n", 2), "{shape}");
        assert!(
            err.contains(command) && err.contains("does not exist"),
            "{shape}: {err}"
        );
    }
}

#[test]
fn where_tells_the_data_folder_and_what_answers_each_shape() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _, code) = common::eight()
        .arg("--where")
        .env("EIGHT_DATA", dir.path())
        .output()
        .map(|o| {
            (
                String::from_utf8(o.stdout).unwrap(),
                (),
                o.status.code().unwrap(),
            )
        })
        .unwrap();
    assert_eq!(code, 0);
    assert!(
        out.starts_with(&format!(
            "data folder: {} (from $EIGHT_DATA)",
            dir.path().display()
        )),
        "{out}"
    );
    assert!(
        out.contains("3x3: the 3x3 table built into the program"),
        "{out}"
    );
    assert!(
        out.contains("4x4: IDA* over the 4x4 pattern databases (6-6-3) built into the program"),
        "{out}"
    );
    assert!(
        out.contains(
            "7x2: the 7x2 pattern databases (6-7) for goals with the blank at cell 13 (those of \
             2x7 goals with the blank at cell 0, which a symmetry maps them onto): "
        ),
        "{out}"
    );
    common::eight_gen()
        .arg("--where")
        .env("EIGHT_DATA", dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(dir.path().to_str().unwrap()));
}

/// A table file on the command line is mapped, proven and used; it fixes
/// the shape.
#[test]
fn a_table_file_is_mapped_and_proven() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("2x4.table");
    std::fs::write(&path, common::generated("2x4.table")).unwrap();
    let (out, err, code) = run(
        &["--table", path.to_str().unwrap()],
        "1 2 3 4 5 6 x 7\n1 2 3 x 4 6 7 5 8\n",
    );
    assert_eq!(out, "r\ninvalid\n");
    assert!(
        err.contains("<stdin>:2: 9 tiles on one line: a 2x4 board"),
        "{err}"
    );
    assert_eq!(code, 1);
    let (_, err, code) = run(&["--table", path.to_str().unwrap(), "--shape", "3x3"], "");
    assert!(err.contains("it is a 2x4 table, not 3x3"), "{err}");
    assert_eq!(code, 2);
}

#[test]
fn damaged_or_special_table_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x3.table");
    let builtin = common::generated("3x3.table");
    let mut flipped = builtin.to_vec();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    for (bytes, what) in [
        (Vec::new(), "empty"),
        (builtin[..1000].to_vec(), "truncated"),
        (
            b"not a table at all".to_vec(),
            "not a file of eight's tables",
        ),
        (flipped, "damaged"),
    ] {
        std::fs::write(&path, &bytes).unwrap();
        eight()
            .arg("--table")
            .arg(&path)
            .write_stdin("1 2 3 x 4 6 7 5 8\n")
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(what).and(predicate::str::contains("eight-gen")));
    }
    let fifo = dir.path().join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for (path, what) in [
        (fifo, "a FIFO (named pipe), not a regular file"),
        (dir.path().to_path_buf(), "a folder, not a regular file"),
        (dir.path().join("missing"), "does not exist"),
    ] {
        eight()
            .arg("--table")
            .arg(&path)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(what));
    }
}

#[test]
fn fifteen_puzzle_boards_are_solved_with_pattern_databases() {
    let dir = tempfile::tempdir().unwrap();
    common::build_databases(dir.path(), "4x4", "5-5-5", 15);
    let data = dir.path().to_str().unwrap();
    let input = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n\
                 1 2 3 4\n5 6 x 8\n9 10 7 11\n13 14 15 12\n\
                 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 x\n\
                 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n\
                 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n\
                 1 2 3 x 4 6 7 5 8\n";
    let (out, err, code) = run(&["--data", data, "--partition", "5-5-5"], input);
    assert_eq!(out, "r\ndrd\nunsolvable\ninvalid\n\nrdr\n");
    assert!(err.contains("<stdin>:7: unknown tile \"16\""), "{err}");
    assert_eq!(code, 1);
}

#[test]
fn korfs_first_instance_toward_his_goal() {
    let dir = tempfile::tempdir().unwrap();
    common::build_databases(dir.path(), "4x4", "5-5-5", 0);
    let data = dir.path().to_str().unwrap();
    let korf_goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    let args = [
        "--data",
        data,
        "--partition",
        "5-5-5",
        "--goal",
        korf_goal,
        "--json",
    ];
    let (out, _, code) = run(&args, "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n");
    assert_eq!(code, 0);
    let answer: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    // Korf's optimal length for his first instance.
    assert_eq!(answer["length"], 57);
}

#[test]
fn damaged_or_misnamed_databases_say_how_to_build_them_once() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let board = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n";
    let args = ["--data", data, "--partition", "5-5-5"];
    // The usual goal's blank is in a corner: the corner class's file.
    common::build_databases(dir.path(), "4x4", "5-5-5", 15);
    let file = dir.path().join("4x4-5-5-5-blank0.pdb");
    let good = std::fs::read(&file).unwrap();
    let mut bytes = good.clone();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let (out, err, code) = run(&["--verify", "--data", data, "--partition", "5-5-5"], board);
    // The board is good: its line says its data cannot be used.
    assert_eq!((out.as_str(), code), ("unanswered\n", 2));
    assert!(err.contains("damaged"), "{err}");
    assert_eq!(err.matches("eight-gen").count(), 1, "one fix: {err}");
    assert!(
        err.contains("eight-gen --shape 4x4 --blank 15 --partition 5-5-5"),
        "{err}"
    );
    // Databases renamed to another class's cell are refused, not used.
    std::fs::write(&file, &good).unwrap();
    std::fs::write(dir.path().join("4x4-5-5-5-blank1.pdb"), &good).unwrap();
    let goal = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15";
    let (out, err, code) = run(&[&args[..], &["--goal", goal]].concat(), board);
    assert_eq!((out.as_str(), code), ("unanswered\n", 2), "{err}");
    assert!(
        err.contains(
            "it holds the 4x4 pattern databases (5-5-5) for goals with the blank at cell 0, \
             not the 4x4 pattern databases (5-5-5) for goals with the blank at cell 1"
        ),
        "{err}"
    );
}

/// Runs `eight` on 4x4 boards with the 5-5-5 databases of `data`.
fn fifteen_with(data: &std::path::Path, input: &str) -> (String, String, i32) {
    run(
        &["--data", data.to_str().unwrap(), "--partition", "5-5-5"],
        input,
    )
}

/// Pattern databases in the data folder answer only once proven: damaged
/// ones are refused before any answer (exit 2); right ones copied in are
/// proven at their first use and trusted after, while unchanged.
#[test]
fn data_folder_databases_are_proven_before_their_first_answer() {
    let dir = tempfile::tempdir().unwrap();
    common::build_databases(dir.path(), "4x4", "5-5-5", 15);
    let path = dir.path().join("4x4-5-5-5-blank0.pdb");
    let record = dir.path().join("4x4-5-5-5-blank0.pdb.proof");
    assert!(
        record.exists(),
        "eight-gen records the proof of what it makes"
    );
    let mut rng = common::Rng(3);
    let goal = common::canonical(16, 15);
    let input: String = (0..6)
        .map(|_| common::text(&rng.scramble(4, &goal, 40)) + "\n")
        .collect();
    let (want, err, code) = fifteen_with(dir.path(), &input);
    assert_eq!((err.as_str(), code), ("", 0));
    let right = std::fs::read(&path).unwrap();
    // Bytes of the last database changed in place: stale checksums. (Files
    // whose checksums are right but whose entries are wrong are refused by
    // the proof: the library's tests craft those.)
    let mut stale = right.clone();
    let end = stale.len();
    for byte in &mut stale[end - 64..] {
        *byte ^= 0x11;
    }
    let what = "stale";
    // A tick of the file system's clock after the last write, so that
    // the file's times change.
    std::thread::sleep(std::time::Duration::from_millis(30));
    std::fs::write(&path, &stale).unwrap();
    let (out, err, code) = fifteen_with(dir.path(), &input);
    // No board is answered from a wrong file: each is `unanswered`, the
    // file named once.
    assert!(
        out.lines().all(|line| line == "unanswered"),
        "{what}: {out}"
    );
    assert_eq!(out.lines().count(), input.lines().count(), "{what}");
    assert_eq!(code, 2, "{what}: {err}");
    assert_eq!(err.lines().count(), 1, "{what}: {err}");
    assert!(err.contains("4x4-5-5-5-blank0.pdb"), "{what}: {err}");
    assert!(
        err.contains("make it anew with `eight-gen --shape 4x4"),
        "{what}: {err}"
    );
    // The right file copied back in: proven at its first use, recorded,
    // then trusted.
    std::thread::sleep(std::time::Duration::from_millis(30));
    std::fs::write(&path, &right).unwrap();
    let before = std::fs::read_to_string(&record).unwrap();
    // Telling where the data is proves nothing, and says so.
    let data = dir.path().to_str().unwrap();
    let (out, _, _) = run(&["--where", "--data", data, "--partition", "5-5-5"], "");
    assert!(
        out.contains("4x4-5-5-5-blank0.pdb (not proven yet"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&record).unwrap(), before);
    assert_eq!(
        fifteen_with(dir.path(), &input),
        (want.clone(), String::new(), 0)
    );
    let (out, _, _) = run(&["--where", "--data", data, "--partition", "5-5-5"], "");
    assert!(out.contains("4x4-5-5-5-blank0.pdb\n"), "{out}");
    let after = std::fs::read_to_string(&record).unwrap();
    assert_ne!(before, after, "the new proof is recorded");
    assert_eq!(fifteen_with(dir.path(), &input), (want, String::new(), 0));
}

/// Each message names the real cause and the one command that fixes it.
#[test]
fn messages_name_the_real_cause_and_the_command_that_fixes_it() {
    let empty = tempfile::tempdir().unwrap();
    let empty = empty.path().to_str().unwrap();
    for (shape, last, cost) in [
        ("2x7", 13, "(under 25 s)"),
        ("7x2", 13, "(under 25 s)"),
        ("3x5", 14, "(under 25 s)"),
        ("2x8", 15, "(about 2 minutes and 1.6 GB"),
    ] {
        let board: Vec<String> = (1..=last)
            .map(|t| t.to_string())
            .chain(["x".into()])
            .collect();
        let (_, err, code) = run(&["--shape", shape, "--data", empty], board.join(" ") + "\n");
        assert_eq!(code, 2);
        assert!(
            err.contains(&format!("the {shape} pattern databases"))
                && err.contains(&format!("for goals with the blank at cell {last} "))
                && err.contains(&format!(
                    "make it with `eight-gen --shape {shape} --blank {last} "
                ))
                && err.contains(cost)
                && !err.contains("is missing"),
            "{err}"
        );
    }
    let (_, err, _) = run(&[], "01 2 3 x 4 6 7 5 8\n");
    assert!(err.contains("unknown tile \"01\" (a 3x3 board"), "{err}");
    // A data folder that is a file: said as it is, with the way to name a
    // folder, by both programs; what is built in still answers.
    let file = tempfile::NamedTempFile::new().unwrap();
    let file = file.path().to_str().unwrap();
    let twelve = "1 2 3 4 5 6 7 8 9 x 10 11\n";
    for (args, env, fix) in [
        (&["--data", file][..], None, "give --data a folder"),
        (&[][..], Some(file), "set $EIGHT_DATA to a folder"),
    ] {
        let mut eight = common::eight();
        eight
            .args(args)
            .args(["--shape", "3x4"])
            .write_stdin(twelve);
        if let Some(file) = env {
            eight.env("EIGHT_DATA", file);
        }
        let output = eight.output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!(
                "the data folder {file} is a file, not a folder: {fix}"
            )),
            "{err}"
        );
        let mut eight = common::eight();
        eight.args(args).write_stdin("1 2 3 4 5 6 7 x 8\n");
        if let Some(file) = env {
            eight.env("EIGHT_DATA", file);
        }
        eight.assert().success().stdout("r\n");
    }
    let output = common::eight_gen()
        .args(["--shape", "2x5"])
        .env("EIGHT_DATA", file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is a file, not a folder: set $EIGHT_DATA"),
        "{err}"
    );
    // The strongest databases at hand answer: built-in 6-6-3 before 5-5-5
    // made for the class, which answer when asked for; the advice names
    // the class's own command.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let board = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x\n";
    let goal = "1 x 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    let (_, err, _) = run(&["--verbose", "--goal", goal, "--data", data], board);
    assert!(
        err.contains("(`eight-gen --shape 4x4 --blank 1 --out "),
        "{err}"
    );
    common::build_databases(dir.path(), "4x4", "5-5-5", 1);
    let (_, err, _) = run(&["--verbose", "--goal", goal, "--data", data], board);
    assert!(err.contains("(6-6-3) built into the program"), "{err}");
    let (out, _, _) = run(&["--where", "--data", data], "");
    assert!(
        out.contains("4x4: IDA* over the 4x4 pattern databases (6-6-3) built in"),
        "{out}"
    );
    let (_, err, _) = run(
        &[
            "--verbose",
            "--goal",
            goal,
            "--data",
            data,
            "--partition",
            "5-5-5",
        ],
        board,
    );
    assert!(
        err.contains("(5-5-5) in ") && err.contains("4x4-5-5-5-blank1.pdb"),
        "{err}"
    );
    // Where nothing is built in, the stronger of the databases made.
    for partition in ["3-3-3-4", "4-4-5"] {
        common::build_databases(dir.path(), "2x7", partition, 13);
    }
    // Databases other than the default, and weaker, name the command that
    // makes the default ones.
    let (out, _, _) = run(&["--where", "--data", data], "");
    assert!(
        out.contains("2x7: IDA* over the 2x7 pattern databases (4-4-5) in"),
        "{out}"
    );
    assert!(
        out.contains("(`eight-gen --shape 2x7 --blank 13 --out ")
            && out.contains(" makes the default groups, 6-7, faster, in under 25 s)"),
        "{out}"
    );
    std::fs::remove_file(dir.path().join("2x7-4-4-5-blank0.pdb")).unwrap();
    let (out, _, _) = run(&["--where", "--data", data], "");
    assert!(
        out.contains("2x7: IDA* over the 2x7 pattern databases (3-3-3-4) in"),
        "{out}"
    );
    // eight-gen --check on a data-folder file: the command as asked, and
    // nothing to commit.
    std::fs::write(dir.path().join("4x4-5-5-5-blank1.pdb"), b"not these").unwrap();
    let output = common::eight_gen()
        .args([
            "--check",
            "--shape",
            "4x4",
            "--blank",
            "1",
            "--partition",
            "5-5-5",
        ])
        .args(["--out", data])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("run `eight-gen --shape 4x4 --blank 1 --partition 5-5-5 --out ")
            && !err.contains("commit"),
        "{err}"
    );
}

/// `--install-extras` writes both programs' manual pages and completions,
/// made from their arguments: every option `--help` lists is in each.
#[test]
fn manual_pages_and_completions_name_every_option() {
    let share = tempfile::tempdir().unwrap();
    let (out, err, code) = run(&["--install-extras", share.path().to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 9, "{out}");
    for (program, help) in [
        ("eight", common::eight().arg("--help").output().unwrap()),
        (
            "eight-gen",
            common::eight_gen().arg("--help").output().unwrap(),
        ),
    ] {
        let help = String::from_utf8(help.stdout).unwrap();
        let options: std::collections::BTreeSet<&str> = help
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter(|word| word.starts_with("--") && word.len() > 2)
            .collect();
        assert!(
            options.contains("--shape") && options.len() > 8,
            "{options:?}"
        );
        for file in [
            format!("man/man1/{program}.1"),
            format!("bash-completion/completions/{program}"),
            format!("zsh/site-functions/_{program}"),
            format!("fish/vendor_completions.d/{program}.fish"),
        ] {
            let text = std::fs::read_to_string(share.path().join(&file)).unwrap();
            // The manual page escapes each '-' as '\-'.
            let text = text.replace("\\-", "-");
            for option in &options {
                let bare = option.trim_start_matches('-');
                assert!(text.contains(bare), "{file} lacks {option}");
            }
        }
    }
}

/// `eight serve` can be found: help lists it, the manual page's synopsis
/// and a page of its own tell it, completions offer its options after it,
/// and --metric and --notation complete their values; the manual page
/// has examples, the environment and exit codes.
#[test]
fn the_server_and_option_values_are_told_by_help_pages_and_completions() {
    let (help, _, code) = common::run(&["--help"], "");
    assert_eq!(code, 0);
    assert!(help.contains("serve  Serve a page"), "{help}");
    assert!(help.contains("[FILE]..."), "{help}");
    let share = tempfile::tempdir().unwrap();
    common::run(&["--install-extras", share.path().to_str().unwrap()], "");
    let read = |file: &str| {
        std::fs::read_to_string(share.path().join(file))
            .unwrap()
            .replace("\\-", "-")
    };
    let man = read("man/man1/eight.1");
    for section in [
        ".SH EXAMPLES",
        ".SH ENVIRONMENT",
        "EIGHT_DATA",
        ".SH EXIT STATUS",
    ] {
        assert!(man.contains(section), "{section}");
    }
    let name = man
        .split(".SH NAME")
        .nth(1)
        .unwrap()
        .split(".SH")
        .next()
        .unwrap();
    assert!(name.trim().lines().count() <= 2, "{name}");
    let serve = read("man/man1/eight-serve.1");
    assert!(serve.contains("--search-seconds") && serve.contains("--listen"));
    let bash = read("bash-completion/completions/eight");
    assert!(bash.contains("stm mtm"), "metric values");
    assert!(bash.contains("blank tile tile-runs"), "notation values");
    assert!(bash.contains("eight__subcmd__serve"), "serve's own options");
}

/// Files named on the command line are read in order, each a stream of its
/// own whose messages name it; `-` is stdin; a file that cannot be read is
/// said and the others still answered, exit 2.
#[test]
fn files_named_are_read_in_order_and_named_in_messages() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.txt");
    let second = dir.path().join("second.txt");
    std::fs::write(&first, "1 2 3 4 5 6 7 x 8\nbad\n").unwrap();
    std::fs::write(&second, "2 3 4 1 5 x 7 6 8\n").unwrap();
    let (first, second) = (first.to_str().unwrap(), second.to_str().unwrap());
    let (out, err, code) = common::run(&[first, "-", second], "12345678x\n");
    assert_eq!(out, "r\ninvalid\n\ndlurullddrurdllurdr\n");
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!("eight: {first}:2: unknown tile \"bad\"")),
        "{err}"
    );
    let missing = dir.path().join("missing.txt");
    let missing = missing.to_str().unwrap();
    let (out, err, code) = common::run(&[missing, second], "");
    assert_eq!(out, "dlurullddrurdllurdr\n");
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("eight: {missing}: cannot read it")),
        "{err}"
    );
    let (_, err, code) = common::run(&[second, "--random", "3"], "");
    assert_eq!(code, 2, "{err}");
}
