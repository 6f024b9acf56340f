//! `eight`: answers 8-puzzle boards from stdin with their shortest moves.
//!
//! Exit codes: 0 every board answered (`unsolvable` is an answer), 1 some
//! board invalid, 2 fatal (bad arguments, a table that cannot be read or fails
//! validation). A broken pipe ends quietly.

mod pipeline;
mod render;

use std::fs::File;
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow};
use clap::Parser as _;
use eight::{Board, Table, TableError};
use memmap2::Mmap;

use crate::render::Style;

/// Answers 8-puzzle boards read from stdin, one line per board: the shortest
/// moves of the blank to the goal (u d l r = where the blank goes; the
/// lexicographically smallest of the shortest), an empty line for a board at
/// the goal, or `unsolvable`.
///
/// A board is 9 tiles (1-8, and x, X or 0 for the blank) separated by any
/// whitespace, on one line or over several, or written together as
/// `23415x768`. A bad board gets a message on stderr and the line `invalid`.
///
/// Exit codes: 0 every board answered, 1 some board invalid, 2 fatal error.
#[derive(clap::Parser, Debug)]
#[command(version)]
struct Args {
    /// HDU 3567 "Eight II" input: T, then T pairs of start and target boards;
    /// prints `Case k: d` and the moves for each pair.
    #[arg(long, conflicts_with = "goal")]
    pairs: bool,
    /// Solve toward this board instead of `1 2 3 4 5 6 7 8 x`.
    #[arg(long, value_name = "BOARD")]
    goal: Option<String>,
    /// Memory-map this table file instead of the one built into the program.
    #[arg(long, value_name = "PATH")]
    table: Option<PathBuf>,
    /// Draw the boards along each solution.
    #[arg(long, conflicts_with = "json")]
    show: bool,
    /// Print one JSON object per board.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("eight: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> Result<ExitCode> {
    match &args.table {
        None => answer_all(Table::builtin().context("the built-in table")?, args),
        Some(path) => {
            let table = map_table(path).with_context(|| format!("table {}", path.display()))?;
            answer_all(table, args)
        }
    }
}

/// Memory-maps a table file and checks all of it before any use.
fn map_table(path: &PathBuf) -> Result<Table<Mmap>> {
    let file = File::open(path)?;
    if file.metadata()?.len() == 0 {
        return Err(TableError::Empty.into());
    }
    // SAFETY: the map is only read. The table file must not be changed while
    // `eight` runs; `eight-gen` never does so, since it writes a new file and
    // renames it into place. Every section is checked against its checksum
    // below and again as it is decoded.
    let map = unsafe { Mmap::map(&file)? };
    let table = Table::new(map)?;
    table.verify()?;
    Ok(table)
}

fn answer_all<D>(table: Table<D>, args: &Args) -> Result<ExitCode>
where
    D: AsRef<[u8]> + Send + Sync + 'static,
{
    let goal = match &args.goal {
        None => Board::goal(table.shape()),
        Some(text) => Board::parse(table.shape(), text.as_bytes())
            .map_err(|err| anyhow!("--goal {text:?}: {err}"))?,
    };
    let style = match (args.json, args.show) {
        (true, _) => Style::Json,
        (false, true) => Style::Show,
        (false, false) => Style::Plain,
    };
    pipeline::run(Arc::new(table), goal, style, args.pairs)
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
