//! One line per shape family: random boards through `eight`, end to end.
//!
//! Run with `cargo bench --bench shapes`. Built-in tables (2x4, 3x3) need
//! nothing; the 2x5 table is made into a temporary folder if the data
//! folder lacks it (seconds); the other shapes are measured when their data
//! is in the data folder (`$EIGHT_DATA`, else the user's), and otherwise
//! the line says which command makes it. Search shapes get a few boards
//! drawn uniformly from all solvable ones, so their figure is a typical
//! random board's, not an easy one's.

#[path = "../tests/common/mod.rs"]
mod common;

use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use eight::data::{self, Method};
use eight::{Board, DataDir, Shape};

const EIGHT: &str = env!("CARGO_BIN_EXE_eight");
const EIGHT_GEN: &str = env!("CARGO_BIN_EXE_eight-gen");

fn main() {
    let dir = DataDir::locate().expect("a data folder");
    let scratch = tempfile::tempdir().expect("a temporary folder");
    println!("shape  method          boards  time       rate            data");
    for (shape, boards) in [
        ("2x4", 1_000_000),
        ("3x3", 1_000_000),
        ("2x5", 1_000_000),
        ("3x4", 1_000_000),
        ("2x6", 1_000_000),
        ("2x7", 500),
        ("3x5", 200),
        ("4x4", 100),
    ] {
        let shape: Shape = shape.parse().unwrap();
        let goal = Board::goal(shape);
        let mut data = dir.path().to_path_buf();
        // One set of databases serves every goal of its class.
        let file = match Method::of(shape) {
            Method::Table if data::DataFile::is_builtin(shape) => None,
            _ => Some(data::DataFile::usual(shape, eight::Metric::Stm, goal.blank()).name()),
        };
        if let Some(name) = &file
            && !data.join(name).exists()
        {
            if shape.cells() != 10 {
                println!("{shape:<6} not measured: make its data with `eight-gen --shape {shape}`");
                continue;
            }
            data = scratch.path().to_path_buf();
            let made = Command::new(EIGHT_GEN)
                .args(["--quiet", "--shape", &shape.to_string(), "--out"])
                .arg(&data)
                .status()
                .expect("eight-gen runs");
            assert!(made.success());
        }
        let mut rng = common::Rng(u64::from(shape.cells() as u8));
        let mut input = String::new();
        let mut count = 0;
        while count < boards {
            let cells = rng.board(shape.cells());
            let board = Board::from_cells(shape, &cells).unwrap();
            // Search shapes get solvable boards only: unsolvable ones cost
            // nothing.
            if Method::of(shape) == Method::Search && !board.solvable_to(&goal) {
                continue;
            }
            input += &(common::text(&cells) + "\n");
            count += 1;
        }
        let input_path = scratch.path().join("boards.txt");
        std::fs::write(&input_path, &input).unwrap();
        let started = Instant::now();
        let status = Command::new(EIGHT)
            .args(["--shape", &shape.to_string(), "--data"])
            .arg(&data)
            .stdin(File::open(&input_path).unwrap())
            .stdout(Stdio::null())
            .status()
            .expect("eight runs");
        let time = started.elapsed();
        assert!(status.success(), "{shape}");
        let method = match (Method::of(shape), data::DataFile::is_builtin(shape)) {
            (Method::Table, true) => "built-in table",
            (Method::Table, false) => "table",
            (Method::Search, _) => "IDA* 2 groups",
        };
        let size = file.map_or_else(
            || {
                let name = eight::data::DataFile::table(shape, eight::Metric::Stm, None).name();
                let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("generated")
                    .join(name);
                std::fs::metadata(path).map_or(0, |m| m.len())
            },
            |name| std::fs::metadata(Path::new(&data).join(name)).map_or(0, |m| m.len()),
        );
        println!(
            "{shape:<6} {method:<15} {boards:>7} {:>8.2} s {:>12.0}/s   {:.1} MB",
            time.as_secs_f64(),
            boards as f64 / time.as_secs_f64(),
            size as f64 / 1e6
        );
    }
}
