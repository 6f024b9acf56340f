//! `eight`: answers sliding-puzzle boards from stdin with their shortest
//! moves, one line per board, in input order.
//!
//! Exit codes: 0 every board answered (`unsolvable` is an answer), 1 some
//! board invalid, 2 some board `unanswered` for want of data, a file that
//! cannot be read, or fatal (bad arguments, data changed during the run, a
//! stdout that cannot be written), 128 + the signal for SIGINT and SIGTERM.
//! A broken pipe ends quietly.
//!
//! The program starts at a C `main` of its own, not Rust's (see `start.rs`).

#![cfg_attr(not(test), no_main)]
// Built for `cargo test`, the program has the test harness's `main`, which
// reaches none of its code.
#![cfg_attr(test, allow(dead_code))]

mod args;
mod extras;
// eight-gen's arguments, for its manual page and completions.
#[allow(dead_code)]
#[path = "gen_args.rs"]
mod gen_args;
mod input;
mod random;
mod serve;
mod signals;
mod start;
mod stream;

use std::io::{self, Write};
use std::path::PathBuf;

use crate::stream::{Config, Form, Style};
use anyhow::{Context, Result, anyhow, bail};
use eight::data::{self, DataDir, Method};
use eight::{Board, Layout, Metric, Notation, Options, Shape, Solver, Solvers};

use crate::signals::Cli;

/// Answers sliding-puzzle boards read from stdin, one line per board: the
/// shortest moves of the blank to the goal (u d l r = where the blank goes;
/// of the shortest, the lexicographically smallest, d < l < r < u), an
/// empty line for a board at the goal, `unsolvable`, `invalid`, or
/// `unanswered` (a good board whose data is missing here).
///
/// A board is its tiles in reading order (x, X or 0 for the blank), on one
/// line, or one row a line over consecutive lines, or rows joined by '/'.
/// Tiles of boards of up to ten cells may be written together (23415x768).
/// Without --shape, each board's own line tells its shape: 9 tiles make a
/// 3x3 board, 16 a 4x4 board, 25 a 5x5 board. A bad board gets a message on
/// stderr naming its line and the line `invalid`; every other board is
/// still answered.
///
/// Boards of up to 9 cells are answered from tables built into the program,
/// 4x4 boards by IDA* over compact pattern databases built in too (or the
/// larger, faster ones of `eight-gen --shape 4x4`, when the data folder has
/// them). Boards of 10 and 12 cells are answered from tables, other boards
/// of 14 to 25 cells by IDA*, over data made once by `eight-gen --shape RxC`
/// into the data folder, each proven before its first answer and trusted
/// while unchanged (its proof recorded beside it). Without that data, a
/// board of more than 16 cells is answered if it is near its goal, else
/// `unanswered`, the command that makes the data said once. `eight --where` tells
/// where it is and what answers each shape; `--verbose` says it as each is
/// used.
///
/// `eight serve` serves a page to play, watch and check answers, and its
/// JSON API, on loopback (`eight serve --help` says more).
///
/// Exit codes: 0 every board answered, 1 some board invalid, 2 some board
/// unanswered (its data missing or refused), a file that cannot be read, or
/// a fatal error (bad arguments, data changed during the run, a stdout that
/// cannot be written), 130 and 143 stopped by SIGINT or SIGTERM after every
/// finished answer.
#[derive(clap::Parser, Debug)]
#[command(
    version,
    about = "Shortest, lexicographically smallest answers to sliding-puzzle boards"
)]
struct Args {
    /// Files of boards, read in order, each a stream of its own (its
    /// messages name it); `-`, or none, reads stdin.
    #[arg(value_name = "FILE", conflicts_with = "random")]
    files: Vec<PathBuf>,
    /// The shape of every board, rows x columns: 2x2 to 5x5, 2x12, 12x2 (at
    /// most 25 cells). Without it, 3x3, 4x4 and 5x5 boards are told apart.
    #[arg(long, value_name = "RxC")]
    shape: Option<Shape>,
    /// The same as --shape 4x4.
    #[arg(long, conflicts_with = "shape")]
    fifteen: bool,
    /// Solve toward this board instead of the tiles in order with the blank
    /// last. It fixes the shape too.
    #[arg(long, value_name = "BOARD")]
    goal: Option<String>,
    /// HDU 3567 "Eight II" input: T, then T pairs of start and target boards;
    /// prints `Case k: d` and the moves for each pair. A first line that is
    /// a board starts the pairs (no count); any other is the count line,
    /// said once if it is not a count.
    #[arg(long, conflicts_with = "goal")]
    pairs: bool,
    /// Draw the boards along each solution.
    #[arg(long, conflicts_with = "json")]
    show: bool,
    /// Print one JSON object per board.
    #[arg(long)]
    json: bool,
    /// Answer from this table file (made by eight-gen) instead of the
    /// built-in or data folder's one; it is proven right before use. It
    /// fixes the shape to the table's.
    #[arg(long, value_name = "PATH")]
    table: Option<PathBuf>,
    /// The data folder, instead of $EIGHT_DATA or the user's data folder.
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// The group sizes of the pattern databases to search with (shapes of
    /// 14 to 25 cells), such as 7-8 or 5-5-5.
    #[arg(long, value_name = "SIZES")]
    partition: Option<String>,
    /// Check all the data used in full before answering: every checksum,
    /// and the proof of every data-folder file again, whatever proof is
    /// recorded beside it.
    #[arg(long)]
    verify: bool,
    /// Print where the data folder is and which data answers each shape,
    /// then exit.
    #[arg(long = "where")]
    show_where: bool,
    /// Say on stderr which data answers each shape as it is first used,
    /// and of each search past a second, each bound it started and how it
    /// ended: its answer's length, the positions it searched and how many
    /// a second, and the positions it generated (searched or not).
    #[arg(long, short)]
    verbose: bool,
    /// Print the number of moves of each shortest answer instead of the
    /// moves.
    #[arg(long, conflicts_with = "judge")]
    length: bool,
    /// How moves are written: `blank` (where the blank goes: u d l r, the
    /// default), `tile` (where the moved tile goes: U D L R) or `tile-runs`
    /// (tile, a run written once with its count: R2U2LDLD). The answer is
    /// the same; only its spelling changes.
    #[arg(long, value_name = "NOTATION", default_value = "blank",
          value_parser = one_of::<Notation>(&["blank", "tile", "tile-runs"]))]
    notation: Notation,
    /// How moves are counted: `stm` (every tile slid one cell is a move,
    /// the default) or `mtm` (a run of tiles slid along a row or column at
    /// once is one move). Answers are the fewest moves in that metric, and
    /// of those the smallest letters; --length, --judge, --pairs and
    /// --random --depth count in it.
    #[arg(long, value_name = "METRIC", default_value = "stm", value_parser = one_of::<Metric>(&["stm", "mtm"]))]
    metric: Metric,
    /// Write N random boards, one a line, and read nothing: drawn uniformly
    /// from all boards that can reach the goal (--goal, else the shape's
    /// usual one), or with --depth from those whose shortest answer is
    /// exactly D moves.
    #[arg(long, value_name = "N", conflicts_with_all = ["pairs", "judge", "table"])]
    random: Option<u64>,
    /// With --random: the seed. The same seed draws the same boards on every
    /// machine; without one, a seed is drawn from the system.
    #[arg(long, value_name = "S", requires = "random")]
    seed: Option<u64>,
    /// With --random: only boards whose shortest answer is exactly D moves
    /// (shapes answered from a table of every board: up to 12 cells).
    #[arg(long, value_name = "D", requires = "random")]
    depth: Option<u32>,
    /// With --random: boards at most W moves from the goal, each the end of
    /// a random walk of W moves that never undoes one (any shape: a
    /// scramble near the goal where --depth cannot draw).
    #[arg(long, value_name = "W", requires = "random", conflicts_with = "depth")]
    walk: Option<u32>,
    /// Write the manual pages of eight and eight-gen, and their completions
    /// for bash, zsh and fish, under DIR (such as ~/.local/share, where
    /// man, bash-completion and fish look), then exit.
    #[arg(long, value_name = "DIR", exclusive = true)]
    install_extras: Option<PathBuf>,
    /// Judge moves someone found: each line holds a board and then its
    /// moves in any notation eight writes (blank letters dlur; tile letters
    /// DLRU, with counts as in R2U2; spaced or not; - for none). Prints
    /// `optimal`, `longer by K`, `not at goal`, `illegal move I`,
    /// `unsolvable` or `invalid`.
    #[arg(long, conflicts_with = "pairs")]
    judge: bool,
    /// Analyse moves someone found, read as --judge reads them: the
    /// verdict, then the distance to the goal of the board and after each
    /// move (each run with --metric mtm): `longer by 2: 2 1 2 1 0`. With
    /// --json, also the moves lost and the numbers of the moves that
    /// brought the goal no closer.
    #[arg(long, conflicts_with_all = ["pairs", "judge", "length", "show"])]
    analyse: bool,
}

/// `eight`'s command line: its arguments, and `eight serve`'s, which help,
/// the manual page and completions tell (the program reads `serve` before
/// its arguments).
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Args::command()
        .disable_help_subcommand(true)
        .subcommand(serve_command().name("serve"))
}

/// `eight serve`'s command line, as its help and manual page tell it.
pub fn serve_command() -> clap::Command {
    use clap::CommandFactory;
    let command = serve::ServeArgs::command();
    let long = command
        .get_long_about()
        .or(command.get_about())
        .map(ToString::to_string)
        .unwrap_or_default();
    command
        .about("Serve a page to play, watch and check answers, and its JSON API, on loopback")
        .long_about(long)
}

/// A value read as `T`, one of `names`: completions offer them.
fn one_of<T>(names: &'static [&'static str]) -> impl clap::builder::TypedValueParser<Value = T>
where
    T: std::str::FromStr<Err = String> + Clone + Send + Sync + 'static,
{
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(names).try_map(|name| name.parse::<T>())
}

/// The exit code when every board was answered (`unsolvable` is an answer).
pub const ANSWERED: u8 = 0;
/// The exit code when some board was invalid.
pub const INVALID: u8 = 1;
/// The exit code when something was wrong beyond a board: an argument, a
/// file named, data.
pub const FATAL: u8 = 2;

/// Does what the arguments ask; returns the exit code.
fn run(args: &Args) -> Result<u8> {
    if let Some(why) = args::unwritable_stdout() {
        bail!("cannot write stdout: {why}");
    }
    let dir = match &args.data {
        Some(path) => DataDir::at(path).usable(),
        None => DataDir::locate(),
    };
    if let Some(share) = &args.install_extras {
        let mut out = String::new();
        for path in extras::install(share)? {
            out += &format!("wrote {}\n", path.display());
        }
        io::stdout()
            .lock()
            .write_all(out.as_bytes())
            .context("cannot write stdout")?;
        return Ok(ANSWERED);
    }
    let sizes = match &args.partition {
        Some(text) => {
            Some(data::DataFile::parse_sizes(text).map_err(|e| anyhow!("--partition: {e}"))?)
        }
        None => None,
    };
    if args.show_where {
        return show_where(&dir, args.metric, sizes.as_deref());
    }
    let shape = match args.fifteen {
        true => Some(Shape::FIFTEEN),
        false => args.shape,
    };
    let host = Cli::new(args.verbose);
    let mut options = Options::new()
        .telling(host)
        .with_data(dir)
        .verifying(args.verify)
        .with_metric(args.metric);
    if let Some(sizes) = sizes {
        options = options.with_partition(sizes);
    }
    let mut solvers = Solvers::new(options);
    let table_shape = match &args.table {
        None => None,
        Some(path) => {
            let solver = open_table(path)?;
            let table_shape = solver.shape();
            if solver.metric() != args.metric {
                bail!(
                    "--table {}: it is a table of the {} metric; add --metric {}",
                    path.display(),
                    solver.metric(),
                    solver.metric()
                );
            }
            if shape.is_some_and(|shape| shape != table_shape) {
                bail!(
                    "--table {}: it is a {table_shape} table, not {}",
                    path.display(),
                    shape.unwrap_or(table_shape)
                );
            }
            solvers = solvers.only(path.clone(), solver);
            Some(table_shape)
        }
    };
    let goal = match &args.goal {
        None => None,
        Some(text) => {
            let layout = match shape.or(table_shape) {
                Some(shape) => Layout::Fixed(shape),
                None => Layout::Auto,
            };
            let goal = match layout {
                Layout::Fixed(shape) => Board::parse(shape, text.as_bytes()),
                Layout::Auto => text.parse(),
            };
            Some(goal.map_err(|err| anyhow!("--goal {text:?}: {err}"))?)
        }
    };
    let shape = shape.or(table_shape).or(goal.map(|g| g.shape()));
    if let Some(sizes) = solvers.options().partition() {
        check_partition(sizes, shape)?;
    }
    // Data for the goal known now is loaded now, before any input is read;
    // what cannot be loaded is said at the first board that needs it, so
    // that input with no board needs no data.
    if let Some(shape) = shape.filter(|_| args.random.is_none()) {
        let goal = goal.unwrap_or_else(|| Board::goal(shape));
        let _ = solvers.get(&goal);
    }
    if let Some(count) = args.random {
        let shape = shape.unwrap_or(Shape::EIGHT);
        let goal = goal.unwrap_or_else(|| Board::goal(shape));
        let near = match (args.depth, args.walk) {
            (Some(depth), _) => Some(eight::random::Near::Depth(depth)),
            (None, Some(walk)) => Some(eight::random::Near::Walk(walk)),
            (None, None) => None,
        };
        return random::write(count, args.seed, near, goal, &mut solvers, args.verbose);
    }
    let layout = match shape {
        Some(shape) => Layout::Fixed(shape),
        None => Layout::Auto,
    };
    let form = match (args.json, args.show) {
        (true, _) => Form::Json,
        (false, true) => Form::Show,
        (false, false) => Form::Plain,
    };
    let style = Style {
        form,
        length: args.length,
        notation: args.notation,
        metric: args.metric,
        analyse: args.analyse,
    };
    host.catch();
    let config = Config {
        layout,
        goal,
        pairs: args.pairs,
        judge: args.judge || args.analyse,
        style,
    };
    let mut code = ANSWERED;
    for source in input::Source::all(&args.files) {
        let io = match source.io() {
            Ok(io) => io,
            Err(err) => {
                if let input::Source::File(path) = &source {
                    crate::args::say(&format!("eight: {}: cannot read it: {err}", path.display()));
                }
                code = code.max(FATAL);
                continue;
            }
        };
        let finish = stream::run(config.clone(), &mut solvers, io, host)?;
        if finish.invalid {
            code = code.max(INVALID);
        }
        if finish.unanswered {
            code = code.max(FATAL);
        }
    }
    Ok(code)
}

/// Opens a table named on the command line: mapped, and checked in full
/// (every checksum, and the proof that every move is right).
fn open_table(path: &std::path::Path) -> Result<Solver> {
    Solver::open_table(path, "eight-gen --shape RxC --out DIR")
        .map_err(|err| anyhow!("--table {err} (or leave out --table)"))
}

/// Refuses group sizes that cannot apply to the boards read.
fn check_partition(sizes: &[usize], shape: Option<Shape>) -> Result<()> {
    let shape = shape.unwrap_or(Shape::FIFTEEN);
    if Method::of(shape) != Method::Search {
        bail!(
            "--partition: {shape} boards are answered from a table, not searched with pattern \
             databases (only boards of 14 to 25 cells are)"
        );
    }
    let tiles = shape.cells() - 1;
    if sizes.contains(&0) || sizes.iter().sum::<usize>() != tiles {
        bail!(
            "--partition {}: the group sizes must add up to the {tiles} tiles of a {shape} board",
            data::DataFile::join_sizes(sizes)
        );
    }
    Ok(())
}

/// Prints where the data folder is and what answers each shape.
fn show_where(
    dir: &Result<DataDir, data::NoDataDir>,
    metric: Metric,
    sizes: Option<&[usize]>,
) -> Result<u8> {
    let mut out = String::new();
    match dir {
        Ok(dir) => out += &format!("data folder: {dir}\n"),
        Err(err) => out += &format!("data folder: none ({err})\n"),
    }
    for shape in Shape::all() {
        let goal = Board::goal(shape);
        let what = match (data::DataFile::is_builtin(shape), dir) {
            (true, _) => match Solver::builtin_for(shape, goal.blank(), metric) {
                Some(Ok(solver)) => solver.describe(),
                Some(Err(err)) => err.to_string(),
                None => unreachable!("a shape whose data is built in"),
            },
            (false, Err(_)) => "no data folder".to_string(),
            (false, Ok(dir)) => match Solver::describe_data(&goal, &{
                let options = Options::new()
                    .with_data(Ok(dir.clone()))
                    .with_metric(metric);
                // --partition names groups of the shapes with that many tiles.
                match sizes.filter(|sizes| sizes.iter().sum::<usize>() + 1 == shape.cells()) {
                    Some(sizes) => options.with_partition(sizes.to_vec()),
                    None => options,
                }
            }) {
                Ok(described) => described,
                Err(err) => err.to_string(),
            },
        };
        out += &format!("{shape}: {what}\n");
    }
    io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .context("cannot write stdout")?;
    Ok(ANSWERED)
}
