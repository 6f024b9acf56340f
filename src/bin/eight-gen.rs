//! `eight-gen`: generates the table of next moves, or checks the committed one.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Parser as _;
use eight::bfs::{self, GoalDone};
use eight::pdb::{self, PatternDb};
use eight::{Board, Shape, format};
use indicatif::{ProgressBar, ProgressStyle};

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
    /// Build the 15-puzzle's pattern databases instead (minutes, gigabytes).
    #[arg(long)]
    fifteen: bool,
    /// With --fifteen: the sizes of the groups of tiles, taken in the goal's
    /// reading order.
    #[arg(
        long,
        value_name = "SIZES",
        default_value = "7-8",
        requires = "fifteen"
    )]
    partition: String,
    /// With --fifteen: the goal's blank cell, 15 for `1 2 ... 15 x`, 0 for
    /// Korf's goal `x 1 2 ... 15`.
    #[arg(long, value_name = "CELL", default_value_t = 15, requires = "fifteen")]
    blank: usize,
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
    let (path, bytes, command) = match args.fifteen {
        true => fifteen(args)?,
        false => eight(args),
    };
    if args.check {
        return Ok(check(&path, &bytes, &command, args.quiet));
    }
    write_atomically(&path, &bytes)?;
    if !args.quiet {
        eprintln!(
            "wrote {} ({} bytes) in {:.3} s",
            path.display(),
            bytes.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Compares a fresh generation with the file at `path`; on a difference,
/// says which command makes it anew.
fn check(path: &Path, fresh: &[u8], command: &str, quiet: bool) -> ExitCode {
    match std::fs::read(path) {
        Err(err) => {
            eprintln!(
                "eight-gen: cannot read {}: {err}; run `{command}` to make it",
                path.display()
            );
            ExitCode::from(1)
        }
        Ok(on_disk) if on_disk != fresh => {
            eprintln!(
                "eight-gen: {} differs from a fresh generation ({} bytes on disk, {} generated); \
                 run `{command}` and commit the result",
                path.display(),
                on_disk.len(),
                fresh.len(),
            );
            ExitCode::from(1)
        }
        Ok(_) => {
            if !quiet {
                eprintln!("{} is up to date ({} bytes)", path.display(), fresh.len());
            }
            ExitCode::SUCCESS
        }
    }
}

/// Makes the 8-puzzle table: its path, its bytes, and the command that
/// makes it.
fn eight(args: &Args) -> (PathBuf, Vec<u8>, String) {
    let report = |done: &GoalDone| {
        if !args.quiet {
            eprintln!(
                "goal {}: {} boards, longest answer {} moves",
                done.goal, done.boards, done.max_depth
            );
        }
    };
    let table = bfs::generate(Shape::EIGHT, report);
    let command = format!(
        "cargo run --release --bin eight-gen -- --out {}",
        args.out.display()
    );
    (args.out.join(TABLE_FILE), table, command)
}

/// Builds the pattern databases of the 15-puzzle: their path, their bytes,
/// and the command that makes them.
fn fifteen(args: &Args) -> Result<(PathBuf, Vec<u8>, String)> {
    let sizes =
        pdb::parse_sizes(&args.partition).map_err(|e| anyhow::anyhow!("--partition {e}"))?;
    if args.blank >= Shape::FIFTEEN.cells() {
        anyhow::bail!("--blank {}: a 4x4 board has cells 0 to 15", args.blank);
    }
    let goal = Board::canonical(Shape::FIFTEEN, args.blank);
    let groups = pdb::partition(&goal, &sizes).map_err(|e| anyhow::anyhow!("--partition: {e}"))?;
    let dbs: Vec<PatternDb> = groups
        .iter()
        .map(|tiles| {
            let bar = match args.quiet {
                true => ProgressBar::hidden(),
                false => {
                    ProgressBar::new(eight::rank::placements(goal.shape().cells(), tiles.len()))
                }
            };
            bar.set_style(
                ProgressStyle::with_template(
                    "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} placements {msg}",
                )
                .expect("the template is valid"),
            );
            bar.set_prefix(format!("tiles {tiles:?}"));
            let db = PatternDb::generate(&goal, tiles, |progress| {
                bar.set_position(progress.reached);
                bar.set_message(format!("depth {}", progress.depth));
            });
            bar.finish();
            db
        })
        .collect();
    let parts: Vec<(&[u8], &[u8])> = dbs.iter().map(|db| (db.tiles(), db.entries())).collect();
    let mut bytes = Vec::new();
    format::write_pattern_dbs(&goal, &parts, &mut bytes)?;
    let path = args.out.join(pdb::file_name(&sizes, args.blank));
    let command = format!(
        "cargo run --release --bin eight-gen -- --fifteen --partition {} --blank {} --out {}",
        args.partition,
        args.blank,
        args.out.display()
    );
    Ok((path, bytes, command))
}

/// Writes beside the target, then renames, so that a reader never sees half
/// a file.
fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, path)
        .with_context(|| format!("cannot move {} into place", partial.display()))
}
