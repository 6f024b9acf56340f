//! `eight-gen`: generates the table of next moves, or checks the committed one.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Parser as _;
use eight::Shape;
use eight::bfs::{self, GoalDone};

/// The file name of the table inside the output folder.
const TABLE_FILE: &str = "eight.table";

/// Generates the 8-puzzle table of next moves: a reverse BFS from each of the
/// nine canonical goals, written as one compressed file. The output is the
/// same, byte for byte, on every run.
#[derive(clap::Parser, Debug)]
#[command(version)]
struct Args {
    /// The folder to write `eight.table` into (or to check, with --check).
    #[arg(long, value_name = "DIR", default_value = "generated")]
    out: PathBuf,
    /// Regenerate in memory and fail if the file in DIR differs.
    #[arg(long)]
    check: bool,
    /// Print nothing but errors.
    #[arg(long, short)]
    quiet: bool,
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("eight-gen: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> Result<ExitCode> {
    let started = Instant::now();
    let report = |done: &GoalDone| {
        if !args.quiet {
            eprintln!(
                "goal {}: {} boards, longest answer {} moves",
                done.goal, done.boards, done.max_depth
            );
        }
    };
    let table = bfs::generate(Shape::EIGHT, report);
    let elapsed = started.elapsed();
    let path = args.out.join(TABLE_FILE);
    if args.check {
        let committed = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(err) => {
                eprintln!(
                    "eight-gen: cannot read {}: {err}; run `cargo run --release --bin eight-gen -- --out {}` to make it",
                    path.display(),
                    args.out.display()
                );
                return Ok(ExitCode::from(1));
            }
        };
        if committed != table {
            eprintln!(
                "eight-gen: {} differs from a fresh generation ({} bytes on disk, {} generated); \
                 run `cargo run --release --bin eight-gen -- --out {}` and commit the result",
                path.display(),
                committed.len(),
                table.len(),
                args.out.display()
            );
            return Ok(ExitCode::from(1));
        }
        if !args.quiet {
            eprintln!("{} is up to date ({} bytes)", path.display(), table.len());
        }
        return Ok(ExitCode::SUCCESS);
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    // Write beside the target, then rename, so a reader never sees half a file.
    let partial = args.out.join(format!("{TABLE_FILE}.partial"));
    std::fs::write(&partial, &table)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, &path)
        .with_context(|| format!("cannot move {} into place", partial.display()))?;
    if !args.quiet {
        eprintln!(
            "wrote {} ({} bytes) in {:.0} ms",
            path.display(),
            table.len(),
            elapsed.as_secs_f64() * 1e3
        );
    }
    Ok(ExitCode::SUCCESS)
}
