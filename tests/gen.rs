//! `eight-gen`: the files it writes, how it writes them, what it refuses,
//! and the tables it makes on request.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use common::{eight_gen, run};
use predicates::prelude::*;

/// The names in a folder, sorted.
fn names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Each built-in table, written by `eight-gen --shape`, is the table built
/// into the program; `--check` tells a stale one. (CI checks every
/// built-in file, the 4x4 databases too, with `eight-gen --check`.)
#[test]
fn the_generator_writes_and_checks_the_built_in_tables() {
    let dir = tempfile::tempdir().unwrap();
    for shape in ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3"] {
        eight_gen()
            .args(["--quiet", "--shape", shape, "--out"])
            .arg(dir.path())
            .assert()
            .success();
    }
    assert_eq!(
        names(dir.path()),
        [
            "2x2.table",
            "2x3.table",
            "2x4.table",
            "3x2.table",
            "3x3.table",
            "4x2.table"
        ]
    );
    for name in names(dir.path()) {
        let written = std::fs::read(dir.path().join(&name)).unwrap();
        assert!(written == common::generated(&name), "{name}");
    }
    eight_gen()
        .args(["--check", "--shape", "3x3", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    std::fs::write(dir.path().join("3x3.table"), b"stale").unwrap();
    eight_gen()
        .args(["--check", "--shape", "3x3", "--out"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("3x3.table differs")
                .and(predicate::str::contains("eight-gen")),
        );
}

/// Runs into one folder at once never collide, and a reader
/// never sees a partial file.
#[test]
fn runs_at_once_into_one_folder_never_collide() {
    let dir = tempfile::tempdir().unwrap();
    for _ in 0..4 {
        let children: Vec<_> = (0..3)
            .map(|_| {
                Command::new(cargo_bin("eight-gen"))
                    .args(["--quiet", "--shape", "3x3", "--out"])
                    .arg(dir.path())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let output = child.wait_with_output().unwrap();
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let table = std::fs::read(dir.path().join("3x3.table")).unwrap();
        assert!(table == common::generated("3x3.table"));
        assert_eq!(names(dir.path()), ["3x3.table"]);
    }
}

/// A run that fails or is killed leaves nothing behind.
#[test]
fn failed_or_killed_runs_leave_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a file");
    std::fs::write(&file, b"").unwrap();
    eight_gen()
        .args(["--quiet", "--out"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot"));
    assert_eq!(names(dir.path()), ["a file"]);
    for delay in [100, 400, 900] {
        let mut child = Command::new(cargo_bin("eight-gen"))
            .args(["--quiet", "--shape", "4x4", "--partition", "5-5-5", "--out"])
            .arg(dir.path())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        let _ = child.kill();
        child.wait().unwrap();
        let left: Vec<String> = names(dir.path())
            .into_iter()
            .filter(|name| name.contains("partial") || name.starts_with('.'))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

/// Sizes that cannot fit are refused at once, with the memory
/// they would need.
#[test]
fn impossible_sizes_are_refused_at_once() {
    for partition in ["15", "1-14", "10-5", "9-6", "13-1-1"] {
        let started = Instant::now();
        let dir = tempfile::tempdir().unwrap();
        eight_gen()
            .args(["--shape", "4x4", "--partition", partition, "--out"])
            .arg(dir.path())
            .assert()
            .code(2)
            .stderr(
                predicate::str::contains(
                    "more than a database file holds: use groups of at most 8",
                )
                .and(predicate::str::contains("panicked").not()),
            );
        assert!(started.elapsed() < Duration::from_secs(10), "{partition}");
    }
    eight_gen()
        .args(["--shape", "4x4", "--partition", "5-5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("do not add up to the 15 tiles"));
    eight_gen()
        .args(["--shape", "3x3", "--partition", "4-4"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("answered from a table"));
    eight_gen()
        .args(["--shape", "2x5", "--blank", "10"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cells 0 to 9"));
    // Databases that know the blank's cell are made for 5x5 alone.
    for args in [&["--shape", "4x5", "--walls"][..], &["--walls"]] {
        eight_gen()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--walls"));
    }
}

/// The multi-tile metric's databases of a shape beyond 16 cells are made
/// on request, named by `eight --where`, and answer from the data folder as
/// the search out of the box does.
#[test]
fn the_multi_tile_metric_beyond_sixteen_cells_is_made_on_request() {
    let dir = tempfile::tempdir().unwrap();
    eight_gen()
        .args(["--quiet", "--metric", "mtm", "--shape", "3x6", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let name = "3x6-mtm-5-5-5-2-blank17.pdb";
    assert_eq!(
        names(dir.path()),
        [name.to_string(), format!("{name}.proof")]
    );
    let data = dir.path().to_str().unwrap();
    let (out, _, code) = common::run(&["--where", "--metric", "mtm", "--data", data], "");
    assert_eq!(code, 0);
    assert!(
        out.lines()
            .any(|line| line.starts_with("3x6: ") && line.contains(name)),
        "{out}"
    );
    let (boards, _, _) = common::run(
        &[
            "--random", "12", "--seed", "6", "--walk", "24", "--shape", "3x6",
        ],
        "",
    );
    let with = common::run(
        &["--metric", "mtm", "--shape", "3x6", "--data", data],
        boards.as_str(),
    );
    let without = common::run(&["--metric", "mtm", "--shape", "3x6"], boards.as_str());
    assert_eq!(with.2, 0, "{}", with.1);
    assert_eq!(with.0, without.0);
    assert_eq!(with.0.lines().count(), 12);
}

/// A 10-cell table made on request into the data folder answers as the
/// oracle does, and is proven when first used.
#[test]
fn a_two_by_five_table_made_on_request_answers_right() {
    let dir = tempfile::tempdir().unwrap();
    eight_gen()
        .args(["--quiet", "--shape", "2x5"])
        .env("EIGHT_DATA", dir.path())
        .assert()
        .success();
    assert_eq!(
        names(dir.path()),
        ["2x5-blank9.table", "2x5-blank9.table.proof"],
        "the table, and the record of its proof"
    );
    let goal = common::canonical(10, 9);
    let oracle = common::Oracle::new(5, &goal);
    let mut rng = common::Rng(25);
    let boards: Vec<Vec<u8>> = (0..300).map(|_| rng.board(10)).collect();
    let input: String = boards.iter().map(|b| common::text(b) + "\n").collect();
    let output = common::eight()
        .args(["--shape", "2x5"])
        .env("EIGHT_DATA", dir.path())
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let out = String::from_utf8(output.stdout).unwrap();
    for (board, line) in boards.iter().zip(out.lines()) {
        let expected = oracle
            .best_path(board)
            .unwrap_or_else(|| "unsolvable".into());
        assert_eq!(line, expected, "{board:?}");
    }
    assert_eq!(out.lines().count(), 300);
    eight_gen()
        .args(["--check", "--shape", "2x5"])
        .env("EIGHT_DATA", dir.path())
        .assert()
        .success();
    // Another goal's blank needs another file, named in the message at the
    // first board that needs it.
    let (out, err, code) = run(
        &[
            "--shape",
            "2x5",
            "--data",
            dir.path().to_str().unwrap(),
            "--goal",
            "x 1 2 3 4 5 6 7 8 9",
        ],
        "1 2 3 4 5 6 7 8 9 x\n",
    );
    assert_eq!((out.as_str(), code), ("unanswered\n", 2));
    assert!(
        err.contains("eight-gen --shape 2x5 --blank 0 --out"),
        "{err}"
    );
}

/// Run outside eight's source tree with no --out, eight-gen writes no
/// generated/ of its own: it says what it makes and where to run it.
#[test]
fn built_in_tables_are_made_only_into_the_source_tree_or_out() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&[][..], &["--shape", "3x3"], &["--check"]] {
        let output = eight_gen()
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("is not one: run it there, or give --out DIR"),
            "{err}"
        );
        assert!(names(dir.path()).is_empty(), "{args:?}: nothing written");
    }
    eight_gen()
        .args(["--quiet", "--shape", "2x3", "--out", "tables"])
        .current_dir(dir.path())
        .assert()
        .success();
    assert_eq!(names(&dir.path().join("tables")), ["2x3.table"]);
    let version = eight_gen().arg("--version").output().unwrap();
    let version = String::from_utf8(version.stdout).unwrap();
    assert_eq!(
        version,
        format!("eight-gen {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// Where the record of a proof cannot be written beside its file (here a
/// folder stands in its place, as a read-only data folder would refuse
/// it), it is kept in the user's cache folder: proven once, trusted after,
/// and said where. A record that is a FIFO is never waited on.
#[test]
fn proofs_of_a_folder_that_cannot_be_written_are_kept_in_the_cache() {
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let blocked = dir.path().join("2x5-blank9.table.proof");
    std::fs::create_dir_all(blocked.join("in the way")).unwrap();
    let made = eight_gen()
        .args(["--shape", "2x5"])
        .env("EIGHT_DATA", dir.path())
        .env("XDG_CACHE_HOME", cache.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&made.stderr);
    assert!(made.status.success(), "{said}");
    let records = cache.path().join("eight").join("proofs");
    assert!(said.contains(&records.display().to_string()), "{said}");
    assert_eq!(names(&records).len(), 1, "one record, in the cache");
    let eight = || {
        let output = common::eight()
            .args(["--shape", "2x5", "--verbose"])
            .env("EIGHT_DATA", dir.path())
            .env("XDG_CACHE_HOME", cache.path())
            .write_stdin("1 2 3 4 5 6 7 8 x 9\n")
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let err = eight();
    assert!(!err.contains("proving"), "trusted at once: {err}");
    // The record gone, the next run proves the file and says where the
    // proof is kept; the run after trusts it.
    std::fs::remove_dir_all(&records).unwrap();
    let err = eight();
    assert!(
        err.contains("proof is recorded in") && err.contains(&records.display().to_string()),
        "{err}"
    );
    assert!(!eight().contains("proving"));
    // A FIFO where the record is read: read as no record, never waited on.
    std::fs::remove_dir_all(&records).unwrap();
    std::fs::remove_dir_all(&blocked).unwrap();
    let fifo = std::ffi::CString::new(blocked.to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let output = common::eight()
        .args(["--where", "--data", dir.path().to_str().unwrap()])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(out.contains("2x5-blank9.table (not proven yet"), "{out}");
    let err = eight();
    assert!(err.contains("proving"), "{err}");
}

/// The command a data file names makes that file under its name, the bytes
/// the library makes and places (`eight-gen` makes every file through
/// `generate::make`): for a table and for pattern databases whose symmetry
/// class is another shape's, with its progress told.
#[test]
fn the_library_makes_each_file_as_the_generator_does() {
    use eight::Metric;
    use eight::data::DataFile;
    use eight::generate;

    let dir = tempfile::tempdir().unwrap();
    let shape = |text: &str| text.parse().unwrap();
    let files = [
        DataFile::table(shape("2x5"), Metric::Stm, Some(3)),
        DataFile::databases(shape("7x2"), Metric::Stm, &[3, 3, 3, 4], 13),
    ];
    for file in files {
        let mut steps = 0;
        let made = generate::make(&file, &eight::Stop::new(), |step| {
            assert!(step.done <= step.total);
            steps += 1;
        })
        .unwrap()
        .expect("not stopped");
        assert!(steps > 0);
        let path = dir.path().join("library").join(file.name());
        generate::publish(&path, &made).unwrap();
        // Bytes other than the file's have no proof recorded.
        assert_eq!(generate::record_proof(&path, &made[1..]).unwrap(), None);
        let ours = dir.path().join("eight-gen");
        let command = file.command_to(Some(&ours));
        let args: Vec<&str> = command.split(' ').skip(1).collect();
        eight_gen().arg("--quiet").args(&args).assert().success();
        assert!(
            std::fs::read(ours.join(file.name())).unwrap() == made,
            "{command}"
        );
        assert!(std::fs::read(&path).unwrap() == made);
    }
    // Nothing but the file is left in the folder written.
    let left: Vec<_> = std::fs::read_dir(dir.path().join("library"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
}

/// Every builder looks at its stop: a making asked to stop before it
/// starts, or from another thread while it runs, makes nothing; one never
/// asked makes the file `make` makes.
#[test]
fn a_making_asked_to_stop_makes_nothing() {
    use eight::data::DataFile;
    use eight::generate::make;
    use eight::{Metric, Shape, Stop};

    let shape = |text: &str| text.parse::<Shape>().unwrap();
    let files = [
        DataFile::table(shape("3x4"), Metric::Stm, Some(11)),
        DataFile::table(shape("3x4"), Metric::Mtm, Some(11)),
        DataFile::databases(shape("4x4"), Metric::Stm, &[7, 8], 15),
        DataFile::databases(shape("4x4"), Metric::Mtm, &[5, 5, 5], 15),
    ];
    for file in &files {
        let asked = Stop::new();
        asked.stop();
        assert_eq!(make(file, &asked, |_| {}).unwrap(), None, "{}", file.name());
        let stop = Stop::new();
        let asker = stop.clone();
        let thread = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            asker.stop();
        });
        let started = Instant::now();
        assert_eq!(make(file, &stop, |_| {}).unwrap(), None, "{}", file.name());
        thread.join().unwrap();
        eprintln!("{}: stopped after {:?}", file.name(), started.elapsed());
    }
    let small = DataFile::table(shape("2x5"), Metric::Stm, Some(9));
    let made = make(&small, &Stop::new(), |_| {}).unwrap();
    let again = make(&small, &Stop::new(), |_| {}).unwrap();
    assert!(made.is_some() && made == again);
}
