//! `eight`: answers 8-puzzle (and 15-puzzle) boards from stdin with their
//! shortest moves.
//!
//! Exit codes: 0 every board answered (`unsolvable` is an answer), 1 some
//! board invalid, 2 fatal (bad arguments, a table that cannot be read or fails
//! validation). A broken pipe ends quietly.

mod pipeline;
mod render;

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow};
use clap::Parser as _;
use eight::ida::Solver;
use eight::pdb::{self, PdbTable};
use eight::{Board, Shape, Table, TableError};
use memmap2::Mmap;

use crate::render::{Engine, Style};

/// Answers 8-puzzle boards read from stdin, one line per board: the shortest
/// moves of the blank to the goal (u d l r = where the blank goes; the
/// lexicographically smallest of the shortest), an empty line for a board at
/// the goal, or `unsolvable`.
///
/// A board is 9 tiles (1-8, and x, X or 0 for the blank) separated by any
/// whitespace, on one line or over several, or written together as
/// `23415x768`. A bad board gets a message on stderr and the line `invalid`.
///
/// 4x4 boards (16 tiles, one number a token) are solved optimally by IDA*
/// over pattern databases built with `eight-gen --fifteen`.
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
    /// The folder of the 15-puzzle's pattern databases (built by
    /// `eight-gen --fifteen`).
    #[arg(long, value_name = "DIR", default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/generated"))]
    pdb: PathBuf,
    /// The group sizes of the 15-puzzle's pattern databases to read.
    #[arg(long, value_name = "SIZES", default_value = "7-8")]
    partition: String,
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
    // The first board tells the shape: 16 tiles (or a row of 4) make a 4x4
    // board. A goal given says it first.
    let head = read_head(args.pairs).context("cannot read stdin")?;
    let shape = match &args.goal {
        Some(goal) => shape_of_line(goal.as_bytes()),
        None => first_board_line(&head, args.pairs).map_or(Shape::EIGHT, shape_of_line),
    };
    if shape == Shape::FIFTEEN {
        let goal = parse_goal(args, shape)?;
        let sizes = pdb::parse_sizes(&args.partition).map_err(|e| anyhow!("--partition {e}"))?;
        let solver = load_databases(&args.pdb, &sizes, goal.blank())?;
        return answer_all(Engine::<&[u8]>::Search(solver), goal, args, head);
    }
    let goal = parse_goal(args, shape)?;
    match &args.table {
        None => {
            let table = Table::builtin().context("the built-in table")?;
            answer_all(Engine::Table(table), goal, args, head)
        }
        Some(path) => {
            let table = map_table(path).with_context(|| format!("table {}", path.display()))?;
            answer_all(Engine::Table(table), goal, args, head)
        }
    }
}

/// Reads stdin up to the end of the first line that holds a board (after
/// the count line, with `--pairs`), or to its end; at most a megabyte.
fn read_head(pairs: bool) -> io::Result<Vec<u8>> {
    const MAX_HEAD: usize = 1 << 20;
    let mut stdin = io::stdin().lock();
    let mut head = Vec::new();
    while head.len() < MAX_HEAD && first_board_line(&head, pairs).is_none() {
        let block = pipeline::read_block(&mut stdin, 4096)?;
        if block.is_empty() {
            break;
        }
        head.extend_from_slice(&block);
    }
    Ok(head)
}

/// The first complete line of `head` with anything but whitespace on it,
/// after the count line with `--pairs`.
fn first_board_line(head: &[u8], pairs: bool) -> Option<&[u8]> {
    head.split_inclusive(|&b| b == b'\n')
        .filter(|line| line.ends_with(b"\n") && line.iter().any(|b| !b.is_ascii_whitespace()))
        .nth(usize::from(pairs))
}

/// The shape a line of tiles is written for: 16 tokens (a whole board) or 4
/// (a row of the grid) make the 4x4 board; anything else the 3x3 board.
fn shape_of_line(line: &[u8]) -> Shape {
    match line
        .split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
        .count()
    {
        4 | 16 => Shape::FIFTEEN,
        _ => Shape::EIGHT,
    }
}

fn parse_goal(args: &Args, shape: Shape) -> Result<Board> {
    match &args.goal {
        None => Ok(Board::goal(shape)),
        Some(text) => {
            Board::parse(shape, text.as_bytes()).map_err(|err| anyhow!("--goal {text:?}: {err}"))
        }
    }
}

/// Maps the 15-puzzle's pattern databases toward a goal with the blank at
/// `blank`, and checks all of them.
fn load_databases(dir: &Path, sizes: &[usize], blank: usize) -> Result<Solver<Mmap>> {
    let path = dir.join(pdb::file_name(sizes, blank));
    let partition: Vec<String> = sizes.iter().map(usize::to_string).collect();
    let build = format!(
        "cargo run --release --bin eight-gen -- --fifteen --partition {} --blank {blank} --out {}",
        partition.join("-"),
        dir.display()
    );
    let file = File::open(&path).with_context(|| {
        format!(
            "the 15-puzzle's pattern databases {} cannot be opened; build them (minutes) with `{build}`",
            path.display()
        )
    })?;
    // SAFETY: the map is only read; `eight-gen` never changes a file in
    // place but writes a new one and renames it. The entries are checked
    // against their checksums below, before any use.
    let map =
        unsafe { Mmap::map(&file) }.with_context(|| format!("cannot map {}", path.display()))?;
    let table = PdbTable::new(map)
        .and_then(|table| table.verify().map(|()| table))
        .map_err(|err| anyhow!("{}: {err}; rebuild it with `{build}`", path.display()))?;
    Ok(Solver::new(table))
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

fn answer_all<D>(engine: Engine<D>, goal: Board, args: &Args, head: Vec<u8>) -> Result<ExitCode>
where
    D: AsRef<[u8]> + Send + Sync + 'static,
{
    let style = match (args.json, args.show) {
        (true, _) => Style::Json,
        (false, true) => Style::Show,
        (false, false) => Style::Plain,
    };
    pipeline::run(Arc::new(engine), goal, style, args.pairs, head)
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
