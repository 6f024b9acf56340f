//! The `eight` and `eight-gen` command lines: every mode, every kind of bad
//! input, the exit codes, and damaged table files.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin;
use eight::table::BUILTIN_TABLE;
use predicates::prelude::*;

fn eight() -> assert_cmd::Command {
    assert_cmd::Command::new(cargo_bin("eight"))
}

/// Runs `eight` with `args` on `input`; returns stdout, stderr and the code.
fn run(args: &[&str], input: impl Into<Vec<u8>>) -> (String, String, i32) {
    let output = eight().args(args).write_stdin(input).output().unwrap();

    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code().unwrap(),
    )
}

#[test]
fn the_seed_sample_gets_the_smallest_shortest_answer() {
    let (out, err, code) = run(&[], " 2  3  4  1  5  x  7  6  8\n");
    // The statements print another answer of the same length; ours is the
    // lexicographically smallest of the shortest.
    assert_eq!(out, "dlurullddrurdllurdr\n");
    assert_eq!(err, "");
    assert_eq!(code, 0);
    let seeds_answer = "ullddrurdllurdruldr";
    assert_eq!(
        common::follow("23415x768", seeds_answer).as_deref(),
        Some("12345678x")
    );
    assert_eq!(
        common::follow("23415x768", "dlurullddrurdllurdr").as_deref(),
        Some("12345678x")
    );
    assert!("dlurullddrurdllurdr" < seeds_answer);
}

#[test]
fn the_statement_example_and_the_goal_itself() {
    let (out, _, code) = run(&[], "1 2 3 x 4 6 7 5 8\n1 2 3 4 5 6 7 8 x\n");
    assert_eq!(out, "rdr\n\n");
    assert_eq!(code, 0);
}

#[test]
fn many_boards_until_end_of_input_in_every_layout() {
    let input = "1 2 3 x 4 6 7 5 8\r\n\
                 \t1 2 3\n x 4 6\n 7 5 8\n\
                 123x46758\n\
                 1 2 3 0 4 6 7 5 8\n\
                 123 X46 758\n\
                 2 1 3 4 5 6 7 8 x";
    let (out, err, code) = run(&[], input);
    assert_eq!(out, "rdr\nrdr\nrdr\nrdr\nrdr\nunsolvable\n");
    assert_eq!(err, "");
    assert_eq!(code, 0);
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
        (6, "too many tiles"),
        (8, "board cut short at end of input: 4 of 9 tiles"),
    ]) {
        let prefix = format!("eight: <stdin>:{number}: ");
        assert!(line.starts_with(&prefix) && line.contains(what), "{line:?}");
    }
    assert_eq!(code, 1);
}

#[test]
fn binary_input_never_crashes() {
    let mut input: Vec<u8> = (0..=255u8).cycle().take(1 << 20).collect();
    input.extend_from_slice(b"\n1 2 3 x 4 6 7 5 8\n");
    let output = eight().write_stdin(input).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // One answer line per board, each error naming its board's line.
    assert_eq!(
        stdout.lines().count(),
        stderr.lines().count() + stdout.matches("rdr").count()
    );
}

#[test]
fn pairs_mode_matches_hdu_3567_byte_for_byte() {
    let input = "2\n12X453786\n12345678X\n564178X23\n7568X4123\n";
    let (out, err, code) = run(&["--pairs"], input);
    assert_eq!(out, "Case 1: 2\ndd\nCase 2: 8\nurrulldr\n");
    assert_eq!(err, "");
    assert_eq!(code, 0);
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
    let (out, err, code) = run(&["--pairs"], "two\n12X453786\n12345678X\n");
    assert_eq!(out, "Case 1: 2\ndd\n");
    assert!(
        err.contains("<stdin>:1: expected the number of cases"),
        "{err}"
    );
    assert_eq!(code, 1);
}

#[test]
fn goal_option_solves_toward_any_board() {
    let (out, _, code) = run(&["--goal", "7568X4123"], "564178X23\n");
    assert_eq!(out, "urrulldr\n");
    assert_eq!(code, 0);
    let (out, err, code) = run(&["--goal", "1 2 3 4 5 6 7 8 9"], "564178X23\n");
    assert_eq!(out, "");
    assert!(
        err.contains("--goal") && err.contains("unknown tile \"9\""),
        "{err}"
    );
    assert_eq!(code, 2);
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
        serde_json::json!({"line": 3, "error": "board cut short at end of input: 3 of 9 tiles"})
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

#[test]
fn an_answer_comes_while_the_input_is_still_open() {
    let mut child = Command::new(cargo_bin("eight"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        send.send(line).unwrap();
    });
    stdin.write_all(b"1 2 3 x 4 6 7 5 8\n").unwrap();
    stdin.flush().unwrap();
    let line = receive.recv_timeout(Duration::from_secs(30));
    drop(stdin);
    child.wait().unwrap();
    assert_eq!(line.unwrap(), "rdr\n");
}

#[test]
fn a_broken_pipe_ends_quietly() {
    let script = format!(
        "yes '8 6 7 2 5 4 3 x 1' | head -n 200000 | '{}' | head -n 1",
        cargo_bin("eight").display()
    );
    let output = Command::new("sh").arg("-c").arg(script).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 1);
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn a_table_file_is_memory_mapped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eight.table");
    std::fs::write(&path, BUILTIN_TABLE).unwrap();
    eight()
        .arg("--table")
        .arg(&path)
        .write_stdin("1 2 3 x 4 6 7 5 8\n")
        .assert()
        .success()
        .stdout("rdr\n");
}

#[test]
fn damaged_table_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eight.table");
    let mut flipped = BUILTIN_TABLE.to_vec();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    for (bytes, what) in [
        (Vec::new(), "empty"),
        (BUILTIN_TABLE[..1000].to_vec(), "truncated"),
        (b"not a table at all".to_vec(), "not an eight table"),
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
    eight()
        .arg("--table")
        .arg(dir.path().join("missing"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing"));
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
fn the_generator_writes_and_checks_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    assert_cmd::Command::new(cargo_bin("eight-gen"))
        .args(["--quiet", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let written = std::fs::read(dir.path().join("eight.table")).unwrap();
    assert!(written == BUILTIN_TABLE);
    assert_cmd::Command::new(cargo_bin("eight-gen"))
        .args(["--check", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    std::fs::write(dir.path().join("eight.table"), b"stale").unwrap();
    assert_cmd::Command::new(cargo_bin("eight-gen"))
        .args(["--check", "--out"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("differs").and(predicate::str::contains("eight-gen")));
}

/// Builds small (5-5-5) pattern databases of the 15-puzzle toward the goal
/// with the blank at `blank`, in `dir`.
fn build_small_databases(dir: &std::path::Path, blank: &str) {
    assert_cmd::Command::new(cargo_bin("eight-gen"))
        .args([
            "--quiet",
            "--fifteen",
            "--partition",
            "5-5-5",
            "--blank",
            blank,
            "--out",
        ])
        .arg(dir)
        .assert()
        .success();
}

#[test]
fn fifteen_puzzle_boards_are_solved_with_pattern_databases() {
    let dir = tempfile::tempdir().unwrap();
    build_small_databases(dir.path(), "15");
    let pdb = dir.path().to_str().unwrap();
    let input = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n\
                 1 2 3 4\n5 6 x 8\n9 10 7 11\n13 14 15 12\n\
                 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 x\n\
                 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n\
                 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n";
    let (out, err, code) = run(&["--pdb", pdb, "--partition", "5-5-5"], input);
    assert_eq!(out, "r\ndrd\nunsolvable\ninvalid\n\n");
    assert!(err.contains("<stdin>:7: unknown tile \"16\""), "{err}");
    assert_eq!(code, 1);
}

#[test]
fn korfs_first_instance_toward_his_goal() {
    let dir = tempfile::tempdir().unwrap();
    build_small_databases(dir.path(), "0");
    let pdb = dir.path().to_str().unwrap();
    let korf_goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    let args = [
        "--pdb",
        pdb,
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
fn missing_or_damaged_databases_say_how_to_build_them() {
    let dir = tempfile::tempdir().unwrap();
    let pdb = dir.path().to_str().unwrap();
    let board = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n";
    let args = ["--pdb", pdb, "--partition", "5-5-5"];
    let (out, err, code) = run(&args, board);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(
        err.contains("eight-gen -- --fifteen --partition 5-5-5 --blank 15"),
        "{err}"
    );
    build_small_databases(dir.path(), "15");
    let file = dir.path().join("fifteen-5-5-5-blank15.pdb");
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&file, bytes).unwrap();
    let (out, err, code) = run(&args, board);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(
        err.contains("damaged") && err.contains("eight-gen"),
        "{err}"
    );
}
