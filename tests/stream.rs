//! The stream contract: output line *i* answers board *i*, always, whatever
//! the other lines hold, whatever happens to stderr, and whatever happens to
//! the data files while `eight` runs.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin;
use common::{run, run_from_file};

const G: &str = "1 2 3 x 4 6 7 5 8";
const F: &str = "1 2 3 4 5 6 7 8 9 10 11 12 13 x 14 15";

/// A short or bad line is one invalid board and never swallows
/// the next good one.
#[test]
fn a_bad_line_never_swallows_the_next_board() {
    for bad in common::BAD_LINES {
        let (out, err, code) = run(&[], format!("{G}\n{bad}\n{G}\n"));
        assert_eq!(out, "rdr\ninvalid\nrdr\n", "{bad:?}");
        assert!(
            err.starts_with("eight: <stdin>:2: ") && err.lines().count() == 1,
            "{bad:?}: {err}"
        );
        assert_eq!(code, 1);
    }
}

/// With `--pairs`, a bad board spoils its own case only; the cases
/// after it are paired as written.
#[test]
fn a_bad_board_never_re_pairs_the_cases() {
    let (out, err, code) = run(
        &["--pairs"],
        "2\n12345678\n12345678X\n12X453786\n12345678X\n",
    );
    assert_eq!(out, "Case 1: invalid\n\nCase 2: 2\ndd\n");
    assert!(err.contains("<stdin>:2: 8 tiles on one line"), "{err}");
    assert!(!err.contains("announces"), "the count matches: {err}");
    assert_eq!(code, 1);
}

/// The shape is told per board, never by the first line alone.
#[test]
fn the_shape_is_told_by_each_board() {
    let (out, err, code) = run(&[], format!("1 2 3 4\n{G}\n"));
    assert_eq!(out, "invalid\nrdr\n");
    assert!(err.contains("<stdin>:1: a 4x4 grid cut short"), "{err}");
    assert_eq!(code, 1);
    let dir = tempfile::tempdir().unwrap();
    common::build_databases(dir.path(), "4x4", "5-5-5", 15);
    let data = dir.path().to_str().unwrap();
    let args = ["--data", data, "--partition", "5-5-5"];
    let fifteen = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    for first in [fifteen.to_string(), format!("{fifteen} x 1")] {
        let (out, _, code) = run(&args, format!("{first}\n{F}\n{G}\n{F}\n"));
        assert_eq!(out, "invalid\nrr\nrdr\nrr\n", "{first}");
        assert_eq!(code, 1);
    }
    // A megabyte of empty lines before a 4x4 board changes nothing.
    let blank_lines = "\n".repeat(1 << 20) + "  \n\t\n";
    let (out, err, code) = run(&args, format!("{blank_lines}{F}\n"));
    assert_eq!((out.as_str(), err.as_str(), code), ("rr\n", "", 0));
}

/// Stderr that cannot be written loses no answer.
#[test]
fn an_unwritable_stderr_loses_no_answer() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("mixed.txt");
    std::fs::write(&input, format!("{G}\nbad\n{G}\n").repeat(2000)).unwrap();
    let out = dir.path().join("out");
    let script = format!(
        "'{}' < '{}' 2>/dev/full > '{}'",
        cargo_bin("eight").display(),
        input.display(),
        out.display()
    );
    let status = Command::new("sh").arg("-c").arg(&script).status().unwrap();
    assert_eq!(status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "rdr\ninvalid\nrdr\n".repeat(2000)
    );
    // stderr and stdout both into a pipe closed after one line.
    let script = format!(
        "'{}' < '{}' 2>&1 | head -n 1",
        cargo_bin("eight").display(),
        input.display()
    );
    let output = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 1);
    assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
    // A fatal error with stderr full still exits 2, without a panic.
    let script = format!("'{}' --shape 6x6 2>/dev/full", cargo_bin("eight").display());
    let status = Command::new("sh").arg("-c").arg(&script).status().unwrap();
    assert_eq!(status.code(), Some(2));
}

/// Each message is one whole line, and messages come in writes
/// of whole lines.
#[test]
fn a_million_bad_boards_get_a_message_each() {
    let input = "1 2 3\n".to_string() + &"12345678\n".repeat(100_000);
    let (out, err, code) = run(&[], input);
    assert_eq!(out.lines().count(), 100_001);
    assert_eq!(err.lines().count(), 100_001);
    assert!(err.lines().all(|line| line.starts_with("eight: <stdin>:")));
    assert_eq!(code, 1);
}

/// Databases cut short, or rewritten in place, while a search reads them
/// end the run with a message and exit 2, after the answers made before,
/// every one of them optimal; no signal death, no endless search.
#[test]
fn databases_changed_mid_run_end_it_cleanly() {
    let cut_short = |file: &std::fs::File| file.set_len(4096).unwrap();
    // Zeros over the entries, the size kept: a search that would take
    // minutes.
    let zeroed = |file: &std::fs::File| {
        use std::os::unix::fs::FileExt;
        let len = file.metadata().unwrap().len();
        file.write_all_at(&vec![0; (len / 2) as usize], len / 4)
            .unwrap();
    };
    for change in [&cut_short as &dyn Fn(&std::fs::File), &zeroed] {
        let dir = tempfile::tempdir().unwrap();
        common::build_databases(dir.path(), "4x4", "5-5-5", 0);
        let file = dir.path().join("4x4-5-5-5-blank0.pdb");
        let korf = common::korf();
        let input: String = korf[..40]
            .iter()
            .map(|(cells, _)| common::text(cells) + "\n")
            .collect();
        let goal = common::text(&common::canonical(16, 0));
        let mut child = Command::new(cargo_bin("eight"))
            .args([
                "--data",
                dir.path().to_str().unwrap(),
                "--partition",
                "5-5-5",
                "--goal",
                &goal,
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        std::thread::sleep(Duration::from_millis(700));
        change(&std::fs::OpenOptions::new().write(true).open(&file).unwrap());
        let output = child.wait_with_output().unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("changed or cut short"), "{stderr}");
        let answers: Vec<&str> = stdout.lines().collect();
        assert!(answers.len() < 40, "the run was cut short");
        for (answer, (_, length)) in answers.iter().zip(&korf) {
            assert_eq!(answer.len(), *length, "every answer written is optimal");
        }
    }
}

/// `--table --pairs`: a table file cut short after the first answers ends
/// the run with exit 2, those answers written, whatever copy of it the
/// program holds: data that changed underneath never ends in exit 0.
#[test]
fn a_table_cut_short_mid_run_ends_it_after_the_answers_before() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x3.table");
    std::fs::write(&path, common::generated("3x3.table")).unwrap();
    let mut child = Command::new(cargo_bin("eight"))
        .args(["--pairs", "--table", path.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdin.write_all(b"2\n12X453786\n12345678X\n").unwrap();
    stdin.flush().unwrap();
    let mut lines = String::new();
    stdout.read_line(&mut lines).unwrap();
    stdout.read_line(&mut lines).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(100)
        .unwrap();
    stdin.write_all(b"564178X23\n7568X4123\n").unwrap();
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    assert_eq!(lines + &rest, "Case 1: 2\ndd\n");
    assert_eq!(child.wait().unwrap().code(), Some(2));
}

/// A target whose goal has no data is never a silent `invalid`.
#[test]
fn no_invalid_without_a_message_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    common::build_databases(dir.path(), "4x4", "5-5-5", 15);
    let data = dir.path().to_str().unwrap();
    let input = format!(
        "2\n{F}\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x\n{F}\n1 x 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"
    );
    let (out, err, code) = run(&["--pairs", "--data", data, "--partition", "5-5-5"], input);
    assert_eq!(
        out, "Case 1: 2\nrr\nCase 2: unanswered\n\n",
        "every case has its lines, the one whose data is missing too"
    );
    assert!(
        err.contains("blank at cell 1: ")
            && err.contains("does not exist; make it with `eight-gen --shape 4x4 --blank 1 ")
            && err.contains("(seconds)"),
        "{err}"
    );
    assert_eq!(code, 2);
    let (out, err, code) = run(&["--pairs"], format!("1\n{G}\n{F}\n"));
    assert_eq!(out, "Case 1: invalid\n\n");
    assert!(
        err.contains("the start is a 3x3 board and the target a 4x4 board"),
        "{err}"
    );
    assert_eq!(code, 1);
}

/// Runs a shell script; returns the exit code and stderr.
fn shell(script: &str) -> (Option<i32>, String) {
    let output = Command::new("sh").arg("-c").arg(script).output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), err)
}

/// Any stdout that cannot take the output is an error with a message, never
/// a silent success; a stdout that works is never taken for one that does
/// not.
#[test]
fn an_unwritable_stdout_is_an_error_and_a_writable_one_is_not() {
    let eight = cargo_bin("eight");
    let eight = eight.display();
    let gen_ = cargo_bin("eight-gen");
    let gen_ = gen_.display();
    let readable = tempfile::NamedTempFile::new().unwrap();
    let readable = readable.path().display();
    for (script, why) in [
        (format!("echo '{G}' | '{eight}' >&-"), "it is closed"),
        (
            format!("echo '{G}' | '{eight}' 1<'{readable}'"),
            "reading only",
        ),
        (
            format!("echo '{G}' | '{eight}' --json 1<'{readable}'"),
            "reading only",
        ),
        (
            format!("'{eight}' --random 3 1<'{readable}'"),
            "reading only",
        ),
        (format!("'{eight}' --where 1<'{readable}'"), "reading only"),
        (format!("'{gen_}' --where 1<'{readable}'"), "reading only"),
        (format!("echo '{G}' | '{eight}' > /dev/full"), "No space"),
        (format!("'{eight}' --random 3 > /dev/full"), "No space"),
        (format!("'{eight}' --help > /dev/full"), "No space"),
        (format!("'{eight}' --version > /dev/full"), "No space"),
        (format!("'{gen_}' --help > /dev/full"), "No space"),
        (format!("'{eight}' --help >&-"), "it is closed"),
        (
            format!("'{eight}' --version 1<'{readable}'"),
            "reading only",
        ),
        (format!("'{gen_}' --help >&-"), "it is closed"),
        (format!("'{gen_}' --version >&-"), "it is closed"),
        (format!("'{gen_}' --where >&-"), "it is closed"),
    ] {
        let (code, err) = shell(&script);
        assert_eq!(code, Some(2), "{script}: {err}");
        assert!(
            err.contains("cannot write stdout") && err.contains(why),
            "{script}: {err}"
        );
    }
    // `/dev/null` open for writing, or for reading and writing (what
    // Python's subprocess.DEVNULL hands over), takes every answer.
    for script in [
        format!("echo '{G}' | '{eight}' > /dev/null"),
        format!("echo '{G}' | '{eight}' 1<> /dev/null"),
        format!("'{eight}' --help 1<> /dev/null"),
    ] {
        assert_eq!(shell(&script), (Some(0), String::new()), "{script}");
    }
}

/// A closed stdin reads as no input, even with a table file opened before
/// it is read, and a closed stderr stops no answer: as with Rust's own
/// start, which the program no longer runs.
#[test]
fn closed_standard_descriptors_are_null() {
    let table = concat!(env!("CARGO_MANIFEST_DIR"), "/generated/3x3.table");
    let eight = cargo_bin("eight");
    let script = format!("'{}' --table '{table}' <&-", eight.display());
    let output = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(output.stdout.is_empty(), "{output:?}");
    let script = format!("printf '1 2 3\\n{G}\\n' | '{}' 2>&-", eight.display());
    let output = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "invalid\nrdr\n");
}

/// `eight` with stdin and stdout piped: the child, its stdin, and a reader
/// of its stdout.
fn piped(
    args: &[&str],
) -> (
    std::process::Child,
    std::process::ChildStdin,
    BufReader<std::process::ChildStdout>,
) {
    let mut child = Command::new(cargo_bin("eight"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    (child, stdin, stdout)
}

#[test]
fn an_answer_comes_while_the_input_is_still_open() {
    let (mut child, mut stdin, mut stdout) = piped(&[]);
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        send.send(line).unwrap();
    });
    stdin.write_all(format!("{G}\n").as_bytes()).unwrap();
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
fn binary_input_never_crashes_or_shifts() {
    let mut input: Vec<u8> = (0..=255u8).cycle().take(1 << 20).collect();
    input.extend_from_slice(format!("\n{G}\n").as_bytes());
    let output = common::eight().write_stdin(input.clone()).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // One answer per line with anything on it, the last one right.
    let lines = input
        .split(|&b| b == b'\n')
        .filter(|line| line.iter().any(|b| !b.is_ascii_whitespace()))
        .count();
    assert_eq!(stdout.lines().count(), lines);
    assert_eq!(stdout.lines().last(), Some("rdr"));
}

/// Runs `eight` on `input` twice: from a file (large input is cut into
/// chunks parsed on every core) and trickled through a pipe whose first
/// piece is small (so it is read line by line on the main thread).
fn both_ways(args: &[&str], input: &[u8]) -> [(Vec<u8>, Vec<u8>, Option<i32>); 2] {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.txt");
    std::fs::write(&path, input).unwrap();
    let chunked = Command::new(cargo_bin("eight"))
        .args(args)
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    let mut child = Command::new(cargo_bin("eight"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let head = input.len().min(10);
    stdin.write_all(&input[..head]).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let rest = input[head..].to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&rest));
    let lined = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    [chunked, lined].map(|o| (o.stdout, o.stderr, o.status.code()))
}

/// Large input read in chunks on every core answers exactly as input read
/// line by line: the same answers, messages and lines, whatever the input
/// holds where the chunks are cut.
#[test]
fn chunks_answer_exactly_as_lines_do() {
    let mut rng = common::Rng(1234);
    let mut input = String::new();
    while input.len() < 3 << 20 {
        let board = rng.board(9);
        match rng.below(20) {
            0..=13 => input += &(common::text(&board) + "\n"),
            14 => {
                for row in board.chunks(3) {
                    input += &(common::text(row) + "\n");
                }
            }
            15 => input += "\n",
            16 => input += &format!("{F}\n"),
            _ => input += &format!("{}\n", rng.pick(common::BAD_LINES)),
        }
    }
    let [chunked, lined] = both_ways(&[], input.as_bytes());
    assert_eq!(chunked.2, Some(1));
    assert!(chunked.0 == lined.0, "the same answers");
    assert!(chunked.1 == lined.1, "the same messages");
    assert_eq!(chunked.2, lined.2);
    // Rows alone, past the longest carry, and with a fixed shape.
    let rows: String = (0..300_000)
        .map(|i| format!("{}\n", ["1 2 3", "x 4 6", "7 5 8"][i % 3]))
        .collect();
    let [chunked, lined] = both_ways(&["--shape", "3x3"], (rows + "12\n").as_bytes());
    assert!(chunked.0 == lined.0 && chunked.1 == lined.1);
    assert_eq!(
        String::from_utf8_lossy(&chunked.0)
            .lines()
            .filter(|l| *l == "rdr")
            .count(),
        100_000
    );
}

/// Large `--pairs` input, whose cases are read in chunks on every core,
/// answers exactly as input read line by line: the same case numbers,
/// answers and messages, whether or not its lines are one board each (empty
/// lines and grids make a chunk start elsewhere than presumed), with 4x4
/// cases whose solver is loaded midway, a wrong count and a start left
/// without its target at the end.
#[test]
fn pairs_in_chunks_answer_exactly_as_lines_do() {
    let mut rng = common::Rng(4321);
    let compact = |board: &[u8]| common::text(board).replace(' ', "");
    let mut body = String::new();
    let mut boards: usize = 0;
    while body.len() < 1 << 20 {
        let board = rng.board(9);
        boards += 1;
        // The first half one board a line, the rest with everything.
        let anything = body.len() > 1 << 19;
        match rng.below(if anything { 24 } else { 16 }) {
            0..=9 => body += &(compact(&board) + "\n"),
            10..=14 => body += &(common::text(&board) + "\n"),
            15 => body += &format!("{F}\n"),
            16 => body += "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n",
            17..=19 => {
                for row in board.chunks(3) {
                    body += &(common::text(row) + "\n");
                }
            }
            20 => {
                body += "\n";
                boards -= 1;
            }
            _ => body += &format!("{}\n", rng.pick(common::BAD_LINES)),
        }
    }
    let input = format!("{}\n{body}", boards / 2 + 7);
    let [chunked, lined] = both_ways(&["--pairs"], input.as_bytes());
    assert_eq!(chunked.2, Some(1));
    assert!(chunked.0 == lined.0, "the same answers");
    assert!(chunked.1 == lined.1, "the same messages");
    assert_eq!(chunked.2, lined.2);
    let err = String::from_utf8_lossy(&chunked.1);
    assert!(err.contains("announces"), "{err}");
    // Every form of answer, written by the workers.
    let args = ["--pairs", "--json", "--notation", "tile-runs"];
    let [chunked, lined] = both_ways(&args, input.as_bytes());
    assert!(chunked.0 == lined.0 && chunked.1 == lined.1 && chunked.2 == lined.2);
    // Every line a board: each chunk starts where it was presumed to. The
    // last start has no target.
    let clean: String = (0..40_001).map(|_| compact(&rng.board(9)) + "\n").collect();
    let [chunked, lined] = both_ways(&["--pairs"], format!("20001\n{clean}").as_bytes());
    assert_eq!(chunked.2, Some(1));
    assert!(chunked.0 == lined.0 && chunked.1 == lined.1);
    let err = String::from_utf8_lossy(&chunked.1);
    assert!(
        err.contains(":40002: this case has a start board but no target board"),
        "{err}"
    );
    assert!(!err.contains("announces"), "{err}");
    let out = String::from_utf8_lossy(&chunked.0);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("Case ")).count(),
        20_001
    );
}

/// Large input loads only the solvers its boards need, as input read line
/// by line does: the first case of two shapes loads nothing (the main
/// thread looks at the first lines to load a solver before the workers
/// start), and `--verbose` names each solver once. (Where its lines fall
/// among the messages of bad boards differs between the two.)
#[test]
fn chunks_load_the_solvers_lines_would() {
    let mut rng = common::Rng(99);
    let compact = |board: &[u8]| common::text(board).replace(' ', "");
    let cases: String = (0..20_000)
        .map(|_| format!("{}\n{}\n", compact(&rng.board(9)), compact(&rng.board(9))))
        .collect();
    let boards: String = (0..20_000)
        .map(|_| common::text(&rng.board(9)) + "\n")
        .collect();
    for (args, input, loads) in [
        (
            &["--pairs", "--verbose"][..],
            format!("20001\n{G}\n{F}\n{cases}"),
            [1, 0],
        ),
        (&["--verbose"][..], format!("hello\n{F}\n{boards}"), [1, 1]),
    ] {
        let [chunked, lined] = both_ways(args, input.as_bytes());
        assert!(chunked.0 == lined.0 && chunked.2 == lined.2, "{args:?}");
        for (out, err, _) in [chunked, lined] {
            let err = String::from_utf8_lossy(&err);
            let lines = |text: &str| err.lines().filter(|line| line.starts_with(text)).count();
            assert_eq!(lines("eight: 3x3 boards:"), loads[0], "{args:?} {err}");
            assert_eq!(lines("eight: 4x4 boards:"), loads[1], "{args:?} {err}");
            assert!(!out.is_empty());
        }
    }
}

/// A board whose data cannot be used ends the run with exit 2, after every
/// answer to the boards before it, however the input is read and cut: as
/// many lines as a run on those boards alone, and the same.
#[test]
fn every_answer_before_a_fatal_data_error_is_written() {
    let bad = tempfile::tempdir().unwrap();
    std::fs::write(bad.path().join("4x4-7-8-blank0.pdb"), b"not a database").unwrap();
    let bad = bad.path().to_str().unwrap();
    let mut rng = common::Rng(5);
    let mut plain = String::new();
    for _ in 0..200_000 {
        plain += &common::text(&rng.board(9));
        plain += "\n";
    }
    let mut pairs = String::from("2000\n");
    for case in 0..1_999 {
        for _ in 0..2 {
            let cells = rng.board(9);
            // Some boards as grids, so that chunks are presumed to start
            // elsewhere than they do.
            match case % 97 {
                0 => cells
                    .chunks(3)
                    .for_each(|row| pairs += &(common::text(row) + "\n")),
                _ => pairs += &(common::text(&cells) + "\n"),
            }
        }
    }
    let four = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15";
    for (args, before, last) in [
        (&[][..], plain, format!("{four}\n")),
        (
            &["--pairs"][..],
            pairs,
            format!("{four}\n{}\n", common::text(&common::canonical(16, 15))),
        ),
    ] {
        let (want, _, code) = run(args, before.clone());
        assert!(code <= 1);
        let input = before + &last;
        let args = [args, &["--data", bad]].concat();
        for (out, err, code) in [run(&args, input.clone()), run_from_file(&args, &input)] {
            assert_eq!(code, 2, "{args:?}: {err}");
            assert!(err.contains("4x4-7-8-blank0.pdb"), "{err}");
            assert_eq!(out.len(), want.len());
            assert!(out == want);
        }
    }
}

/// Input with no board needs no data: a shape whose data is missing is
/// said only at the first board that needs it.
#[test]
fn input_with_no_board_needs_no_data() {
    let empty = tempfile::tempdir().unwrap();
    let empty = empty.path().to_str().unwrap();
    for input in ["", "\n\n  \n"] {
        for args in [
            &["--shape", "2x5"][..],
            &["--shape", "3x4", "--json"],
            &["--shape", "2x7", "--judge"],
        ] {
            let args = [args, &["--data", empty]].concat();
            let (out, err, code) = run(&args, input);
            assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0), "{args:?}");
        }
    }
    let (out, err, code) = run(
        &["--shape", "2x5", "--data", empty],
        "1 2 3 4 5 6 7 8 9 x\n",
    );
    assert_eq!((out.as_str(), code), ("unanswered\n", 2));
    assert!(err.contains("eight-gen --shape 2x5"), "{err}");
}

/// Starts `eight` on slow boards (random 4x4 ones) read from a file, with
/// stdout piped; returns it, the boards and a reader of its answers.
fn slow_boards_from_a_file() -> (
    std::process::Child,
    Vec<String>,
    BufReader<std::process::ChildStdout>,
) {
    let (boards, _, _) = run(&["--random", "600", "--shape", "4x4", "--seed", "8"], "");
    let mut file = tempfile::tempfile().unwrap();
    file.write_all(boards.as_bytes()).unwrap();
    std::io::Seek::rewind(&mut file).unwrap();
    let mut child = Command::new(cargo_bin("eight"))
        .stdin(file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    (child, boards.lines().map(String::from).collect(), stdout)
}

/// Slow answers stream from a file as from a pipe: the first is written
/// long before the last board is answered.
#[test]
fn slow_answers_from_a_file_are_written_as_they_come() {
    let (mut child, _, mut stdout) = slow_boards_from_a_file();
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.ends_with('\n'));
    assert!(
        child.try_wait().unwrap().is_none(),
        "written before the run ended"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}

/// SIGINT and SIGTERM stop the run with every finished answer written,
/// whole and in order, and exit 128 + the signal; waiting for input, too.
#[test]
fn a_signal_stops_the_run_after_every_finished_answer() {
    for (signal, code) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
        let (mut child, boards, mut stdout) = slow_boards_from_a_file();
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: kill sends a signal to the child, nothing else.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
        assert_eq!(child.wait().unwrap().code(), Some(code));
        let answers = first + &rest;
        let count = answers.lines().count();
        assert!(answers.ends_with('\n') && count < boards.len(), "{count}");
        let alone: String = boards[..count].iter().map(|b| b.clone() + "\n").collect();
        assert_eq!(
            answers,
            run(&[], alone).0,
            "the answers of the first {count} boards"
        );
    }
    // Waiting for input.
    let (mut child, mut stdin, mut stdout) = piped(&[]);
    stdin.write_all(format!("{G}\n").as_bytes()).unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line, "rdr\n");
    // SAFETY: as above.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    assert_eq!(child.wait().unwrap().code(), Some(130));
    drop(stdin);
}

/// Cases whose start is good and target bad, with no good case to load a
/// solver for, are each invalid, in every output form; never a crash.
#[test]
fn cases_with_only_bad_targets_are_invalid_without_a_solver() {
    let input = format!("2\n{G}\n1 2 3 x 4 6 7 5 r\n{F}\n1 2\n");
    for args in [
        &["--pairs"][..],
        &["--pairs", "--json"],
        &["--pairs", "--show"],
        &["--pairs", "--length"],
    ] {
        let (out, err, code) = run(args, input.clone());
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_eq!(
            out.matches("invalid").count() + out.matches("\"error\"").count(),
            2,
            "{args:?}: {out}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Lines of every kind, good and bad, in any order, in every mode and
/// output form, read from a file or a pipe: never a crash, exit 0 or 1, and
/// the same output both ways.
#[test]
fn any_mix_of_lines_in_any_mode_never_crashes() {
    let mut rng = common::Rng(21);
    let goal16 = common::canonical(16, 15);
    let mut input = String::from("300\n");
    for _ in 0..4_000 {
        let line = match rng.below(12) {
            0..=4 => common::text(&rng.board(9)),
            5 => common::text(&rng.scramble(4, &goal16, 8)),
            6 => format!(
                "{} {}",
                common::text(&rng.board(9)),
                ["rdr", "-", "lq", "uu"][rng.below(4)]
            ),
            7 => ["", "  ", "1 2 3", "4 5 6", "7 8 x"][rng.below(5)].to_string(),
            8 => "1 2 3/4 5 6/7 8 x".to_string(),
            9 => rng.below(1000).to_string(),
            10 => rng.pick(common::BAD_LINES).to_string(),
            _ => common::text(&rng.scramble(4, &goal16, 30)),
        };
        input += &line;
        input.push('\n');
    }
    for args in [
        &[][..],
        &["--json"],
        &["--show"],
        &["--length"],
        &["--pairs"],
        &["--pairs", "--json"],
        &["--judge"],
        &["--judge", "--json"],
        &["--notation", "tile-runs"],
    ] {
        let [from_file, from_pipe] = both_ways(args, input.as_bytes());
        for (out, err, code) in [&from_file, &from_pipe] {
            let err = String::from_utf8_lossy(err);
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            assert!(matches!(code, Some(0 | 1)), "{args:?}: {code:?} {err}");
            assert!(!out.is_empty(), "{args:?}");
        }
        assert!(
            from_file == from_pipe,
            "{args:?}: the same output both ways"
        );
    }
}

/// `eight-gen` remaking a table while `eight` answers from it renames a
/// new file over the old one, whose bytes stay as they were: the run goes
/// on from the mapping it holds, with every answer and exit 0.
#[test]
fn a_table_remade_under_a_run_leaves_it_answering() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let remake = || {
        common::eight_gen()
            .args(["--quiet", "--shape", "2x5", "--out", data])
            .assert()
            .success();
    };
    remake();
    let (child, mut stdin, mut stdout) = piped(&["--shape", "2x5", "--data", data]);
    let mut answers = String::new();
    stdin.write_all(b"1 2 3 4 5 6 7 8 x 9\n").unwrap();
    stdin.flush().unwrap();
    stdout.read_line(&mut answers).unwrap();
    remake();
    stdin.write_all(b"1 2 3 4 5 x 6 7 8 9\n").unwrap();
    drop(stdin);
    std::io::Read::read_to_string(&mut stdout, &mut answers).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(answers, "r\nrrrr\n", "{stderr}");
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

/// A table rewritten in place between two batches is read anew: a
/// process that goes on (a library user's, Python's, the server) reads the
/// file as it is at its next [`Solvers::refresh`], refuses it cut short,
/// naming it, and reads it again once it is made again.
#[test]
fn a_table_changed_between_batches_is_read_anew_by_the_next() {
    use eight::{Board, Solvers};

    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    common::eight_gen()
        .args(["--quiet", "--shape", "2x5", "--out", data])
        .assert()
        .success();
    let path = dir.path().join("2x5-blank9.table");
    let right = std::fs::read(&path).unwrap();
    let shape = "2x5".parse().unwrap();
    let goal = Board::goal(shape);
    let boards: Vec<Board> = ["1 2 3 4 5 6 7 8 x 9", "1 2 3 4 5 x 6 7 8 9"]
        .iter()
        .map(|text| Board::parse(shape, text.as_bytes()).unwrap())
        .collect();
    let answer = |solvers: &mut Solvers| {
        solvers.refresh();
        let solver = solvers.get(&goal).map_err(|err| err.to_string())?;
        let answers = solver.solve_many(&boards, &goal).unwrap();
        Ok::<_, String>(answers.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    };
    let mut solvers =
        Solvers::new(eight::Options::new().with_data(Ok(eight::DataDir::at(dir.path()))));
    assert_eq!(answer(&mut solvers).unwrap(), ["r", "rrrr"]);
    // Rewritten in place, the same bytes, a tick of the clock later: the
    // file's stamp is another, so its bytes may be.
    std::thread::sleep(Duration::from_millis(30));
    std::fs::write(&path, &right).unwrap();
    assert_eq!(answer(&mut solvers).unwrap(), ["r", "rrrr"], "loaded anew");
    // Cut short: refused, naming it; other goals answer.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(100)
        .unwrap();
    let refused = answer(&mut solvers).unwrap_err();
    assert!(refused.contains("2x5-blank9.table"), "{refused}");
    let eight = solvers.get(&Board::goal(eight::Shape::EIGHT)).unwrap();
    let near = "1 2 3 4 5 6 7 x 8".parse().unwrap();
    assert_eq!(eight.solve(&near).unwrap().to_string(), "r");
    std::fs::write(&path, &right).unwrap();
    assert_eq!(answer(&mut solvers).unwrap(), ["r", "rrrr"], "made again");
    // Remade by eight-gen (a new file renamed over the old): loaded anew at
    // the next batch, once.
    struct Loads(AtomicUsize);
    impl eight::Loading for Loads {
        fn loaded(&self, _: &str) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let loads: &'static Loads = Box::leak(Box::new(Loads(AtomicUsize::new(0))));
    let mut solvers = Solvers::new(
        eight::Options::new()
            .telling(loads)
            .with_data(Ok(eight::DataDir::at(dir.path()))),
    );
    let mut run = || {
        assert_eq!(answer(&mut solvers).unwrap(), ["r", "rrrr"]);
        loads.0.load(Ordering::SeqCst)
    };
    assert_eq!(run(), 1);
    assert_eq!(run(), 1, "kept while unchanged");
    common::eight_gen()
        .args(["--quiet", "--shape", "2x5", "--out", data])
        .assert()
        .success();
    assert_eq!(run(), 2, "the new file read");
    assert_eq!(run(), 2);
}

/// The library's typed batch (boards parsed already, of mixed shapes, each
/// shape's toward its solver) answers a million boards exactly as the
/// program answers them read from a file, the moves and the lengths.
#[test]
fn the_typed_batch_answers_as_the_program_does() {
    use eight::{Board, Solvers};

    let mut rng = common::Rng(78);
    let fifteen = common::canonical(16, 15);
    let boards: Vec<Board> = (0..1_000_000)
        .map(|i| {
            let text = match i % 100_000 {
                0..20 => common::text(&rng.scramble(4, &fifteen, 12)),
                1000..2000 => Board::from_cells("2x4".parse().unwrap(), &rng.board(8))
                    .unwrap()
                    .to_string(),
                2000..3000 => Board::from_cells("3x2".parse().unwrap(), &rng.board(6))
                    .unwrap()
                    .to_string(),
                _ => common::text(&rng.board(9)),
            };
            text.parse().unwrap()
        })
        .collect();
    let input: String = boards.iter().map(|board| format!("{board}\n")).collect();
    // Each shape's boards answered in one batch, put back in input order.
    let mut solvers = Solvers::default();
    let mut moves = vec![String::new(); boards.len()];
    let mut lengths = vec![String::new(); boards.len()];
    let mut shapes: Vec<_> = boards.iter().map(Board::shape).collect();
    shapes.sort_by_key(|shape| (shape.rows(), shape.cols()));
    shapes.dedup();
    for shape in shapes {
        let at: Vec<usize> = (0..boards.len())
            .filter(|&i| boards[i].shape() == shape)
            .collect();
        let starts: Vec<Board> = at.iter().map(|&i| boards[i]).collect();
        let goal = Board::goal(shape);
        let solver = solvers.get(&goal).unwrap();
        let answers = solver.solve_many(&starts, &goal).unwrap();
        let counted = solver.lengths_many(&starts, &goal).unwrap();
        for ((&i, answer), length) in at.iter().zip(answers.iter()).zip(counted) {
            moves[i] = format!("{answer}\n");
            lengths[i] = match length {
                Some(n) => format!("{n}\n"),
                None => "unsolvable\n".to_string(),
            };
        }
    }
    for (args, typed) in [(&[][..], moves), (&["--length"][..], lengths)] {
        let (out, err, code) = run_from_file(args, &input);
        assert_eq!((err.as_str(), code), ("", 0), "{args:?}");
        assert!(typed.concat() == out, "{args:?}: the same answers");
    }
}

/// A board whose data is missing is refused in types, with the command
/// that makes the data; a board of another shape still answers.
#[test]
fn missing_data_says_why_in_types() {
    use eight::{Board, DataError, Solvers};

    let dir = tempfile::tempdir().unwrap();
    let mut solvers =
        Solvers::new(eight::Options::new().with_data(Ok(eight::DataDir::at(dir.path()))));
    let boards: Vec<Board> = ["12345678x", "1 2 3 4/5 6 7 8/9 10 x 11"]
        .iter()
        .map(|text| text.parse().unwrap())
        .collect();
    let eight = solvers.get(&Board::goal(boards[0].shape())).unwrap();
    assert_eq!(eight.solve(&boards[0]).unwrap().to_string(), "");
    let err = solvers.get(&Board::goal(boards[1].shape())).unwrap_err();
    match &*err {
        DataError::Missing { build, .. } => assert!(
            build.starts_with("eight-gen --shape 3x4 --blank 11 --out "),
            "{build}"
        ),
        other => panic!("{other:?}: {err}"),
    }
}

/// A good board whose data is missing keeps its line: `unanswered` in the
/// plain form, its board, goal and the command in JSON, and the boards
/// after it are answered; exit 2, the message said once per goal.
#[test]
fn boards_whose_data_is_missing_are_unanswered_in_place() {
    let empty = tempfile::tempdir().unwrap();
    let data = empty.path().to_str().unwrap();
    let input = "1 2 3 4/5 6 7 8/9 10 x 11\n1 2 3 4 5 6 7 x 8\n1 2 3 4/5 6 7 8/9 x 10 11\n";
    let (out, err, code) = run(&["--data", data], input);
    assert_eq!(out, "unanswered\nr\nunanswered\n");
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("eight: <stdin>:1: ") && err.contains("eight-gen --shape 3x4"));
    let (out, _, code) = run(&["--data", data, "--json"], input);
    assert_eq!(code, 2);
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["board"], "1 2 3 4/5 6 7 8/9 10 x 11");
    assert_eq!(first["goal"], "1 2 3 4/5 6 7 8/9 10 11 x");
    assert_eq!(first["unanswered"], true);
    assert!(
        first["error"]
            .as_str()
            .unwrap()
            .contains("eight-gen --shape 3x4")
    );
}

/// The typed batch (`Solver::solve_many`, `Solver::lengths_many`) answers
/// as the program does, on every shape of up to 25 cells in both metrics,
/// over what an empty data folder leaves (built-in tables and databases,
/// databases made at start, the multi-tile search): boards near the goal
/// everywhere, random ones where a table answers.
#[test]
fn the_typed_batch_answers_as_the_program_on_every_shape_and_metric() {
    use eight::random::Draw;
    use eight::{Board, DataDir, Metric, Shape, Solver};

    let empty = tempfile::tempdir().unwrap();
    let data = DataDir::at(empty.path());
    let mut compared = 0;
    for shape in Shape::all() {
        for metric in [Metric::Stm, Metric::Mtm] {
            let goal = Board::goal(shape);
            let options = eight::Options::new()
                .with_data(Ok(data.clone()))
                .with_metric(metric);
            let Ok(solver) = Solver::open(&goal, &options) else {
                // The program says the data is missing: told elsewhere.
                continue;
            };
            let mut starts: Vec<Board> = Draw::walk(goal, 3, 10).take(12).collect();
            if !solver.searches() {
                starts.extend(Draw::new(goal, 4).take(200));
            }
            let input: String = starts.iter().map(|board| format!("{board}\n")).collect();
            let args = [
                "--shape",
                &shape.to_string(),
                "--metric",
                metric.name(),
                "--data",
                empty.path().to_str().unwrap(),
            ];
            let (moves, err, code) = run(&args, input.clone());
            assert_eq!(code, 0, "{shape} {metric}: {err}");
            let answers = solver.solve_many(&starts, &goal).unwrap();
            let typed: String = answers.iter().map(|answer| format!("{answer}\n")).collect();
            assert_eq!(typed, moves, "{shape} {metric}");
            let mut with_length = args.to_vec();
            with_length.push("--length");
            let (lengths, _, _) = run(&with_length, input);
            let counted = solver.lengths_many(&starts, &goal).unwrap();
            let typed: String = counted
                .iter()
                .map(|length| match length {
                    Some(n) => format!("{n}\n"),
                    None => "unsolvable\n".to_string(),
                })
                .collect();
            assert_eq!(typed, lengths, "{shape} {metric} lengths");
            compared += 1;
        }
    }
    // Every shape's single-tile answers but 10 to 12 cells' (tables in the
    // data folder), and the multi-tile ones of up to 16 cells.
    assert!(compared >= 30, "{compared} shapes and metrics compared");
}

#[test]
fn a_batch_refusing_far_boards_answers_the_rest_as_the_program() {
    use eight::random::Draw;
    use eight::{Board, DataDir, Shape, Solutions, Solver};

    // No data: near boards are searched over databases made at start, far
    // ones are left unanswered, by the program and by the typed batch.
    let empty = tempfile::tempdir().unwrap();
    let shape: Shape = "2x9".parse().unwrap();
    let goal = Board::goal(shape);
    let solver = Solver::open(
        &goal,
        &eight::Options::new().with_data(Ok(DataDir::at(empty.path()))),
    )
    .unwrap();
    let near: Vec<Board> = Draw::walk(goal, 2, 6).take(3).collect();
    let far: Vec<Board> = Draw::new(goal, 1).take(2).collect();
    let starts = [near[0], far[0], near[1], near[2], far[1]];
    let input: String = starts.iter().map(|board| format!("{board}\n")).collect();
    let args = ["--shape", "2x9", "--data", empty.path().to_str().unwrap()];
    let (moves, _, _) = run(&args, input);
    let lines: Vec<&str> = moves.lines().collect();
    let mut refused = Vec::new();
    let mut answers = Solutions::default();
    solver
        .solve_many_refusing(&starts, &goal, &mut answers, &mut |index, error| {
            assert!(error.wants_data(), "{error}");
            refused.push(index)
        })
        .unwrap();
    assert_eq!(refused, [1, 4]);
    assert_eq!(answers.len(), starts.len());
    for (index, line) in lines.iter().enumerate() {
        match refused.contains(&index) {
            true => {
                assert_eq!(*line, "unanswered");
                assert_eq!(answers.get(index).unwrap().letters(), None);
            }
            false => assert_eq!(answers.get(index).unwrap().to_string(), *line),
        }
    }
    let mut lengths = Vec::new();
    let mut told = 0;
    solver
        .lengths_many_refusing(&starts, &goal, &mut lengths, &mut |_, _| told += 1)
        .unwrap();
    assert_eq!(told, 2);
    assert_eq!(
        lengths[0],
        answers.get(0).unwrap().length().map(|n| n as u16)
    );
    // Without a place to tell them, the first far board ends the batch.
    let Err(eight::SolveError::At { index, error }) = solver.solve_many(&starts, &goal) else {
        panic!("a far board is an error");
    };
    assert!(index == 1 && error.wants_data(), "{index}: {error}");
}
