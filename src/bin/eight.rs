//! `eight`: answers 8-puzzle boards from stdin with their shortest moves.
//!
//! Exit codes: 0 every board answered (`unsolvable` is an answer), 1 some
//! board invalid, 2 fatal (bad arguments, a table that cannot be read or fails
//! validation). A broken pipe ends quietly.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow};
use clap::Parser as _;
use eight::{Board, Item, Move, Parser, Shape, SolveError, Table, TableError};
use memmap2::Mmap;
use serde::Serialize;

/// How much input is read, and output buffered, at a time.
const IO_BUFFER: usize = 64 * 1024;

/// Boards drawn side by side by `--show` before it wraps.
const SHOW_PER_ROW: usize = 7;

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
        None => answer_all(&Table::builtin().context("the built-in table")?, args),
        Some(path) => {
            let table = map_table(path).with_context(|| format!("table {}", path.display()))?;
            answer_all(&table, args)
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

fn answer_all<D: AsRef<[u8]>>(table: &Table<D>, args: &Args) -> Result<ExitCode> {
    let goal = match &args.goal {
        None => Board::goal(Shape::EIGHT),
        Some(text) => text
            .parse::<Board>()
            .map_err(|err| anyhow!("--goal {text:?}: {err}"))?,
    };
    let style = match (args.json, args.show) {
        (true, _) => Style::Json,
        (false, true) => Style::Show,
        (false, false) => Style::Plain,
    };
    let mut parser = match args.pairs {
        true => Parser::with_count(table.shape()),
        false => Parser::new(table.shape()),
    };
    let mut input = BufReader::with_capacity(IO_BUFFER, io::stdin().lock());
    let mut session = Session {
        table,
        goal,
        style,
        pairs: args.pairs.then(Pairs::default),
        out: BufWriter::with_capacity(IO_BUFFER, io::stdout().lock()),
        invalid: false,
        letters: Vec::new(),
        failure: None,
    };
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(anyhow!(err).context("cannot read stdin")),
        };
        if chunk.is_empty() {
            break;
        }
        parser.feed(chunk, &mut |item| session.take(item));
        let len = chunk.len();
        input.consume(len);
        // The input may wait now: hand over every answer so far.
        session.flush()?;
    }
    parser.finish(&mut |item| session.take(item));
    session.finish()
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// How answers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Plain,
    Show,
    Json,
}

/// The state of `--pairs` input.
#[derive(Debug, Default)]
struct Pairs {
    /// The line of the count, and the count if it was readable.
    announced: Option<(u64, Option<u64>)>,
    /// Cases answered so far.
    cases: u64,
    /// A start board (or why it is invalid) waiting for its target, and its line.
    start: Option<(u64, Result<Board, String>)>,
}

/// What a board or pair came to.
enum Outcome<'a> {
    Solved {
        start: &'a Board,
        goal: &'a Board,
        /// The letters of the moves, or `None` if unsolvable.
        moves: Option<&'a [u8]>,
    },
    Invalid(String),
}

struct Session<'t, D, W: Write> {
    table: &'t Table<D>,
    goal: Board,
    style: Style,
    pairs: Option<Pairs>,
    out: W,
    /// Some board was invalid.
    invalid: bool,
    /// The letters of the answer being written, kept to reuse the memory.
    letters: Vec<u8>,
    /// The first write or table failure, which ends the run.
    failure: Option<anyhow::Error>,
}

impl<D: AsRef<[u8]>, W: Write> Session<'_, D, W> {
    /// Handles one item from the parser.
    fn take(&mut self, item: Item) {
        if self.failure.is_some() {
            return;
        }
        if let Err(err) = self.try_take(item) {
            self.failure = Some(err);
        }
    }

    fn try_take(&mut self, item: Item) -> Result<()> {
        let (line, board) = match item {
            Item::Count { line, result } => {
                let count = result.map_err(|err| self.report(line, &err)).ok();
                self.pairs_mut().announced = Some((line, count));
                return Ok(());
            }
            Item::Board { line, result } => (line, result.map_err(|err| self.report(line, &err))),
        };
        if self.pairs.is_none() {
            let goal = Ok(self.goal);
            return self.answer(line, None, board, goal);
        }
        let pairs = self.pairs_mut();
        match pairs.start.take() {
            None => pairs.start = Some((line, board)),
            Some((start_line, start)) => {
                pairs.cases += 1;
                let case = Some(pairs.cases);
                self.answer(start_line, case, start, board)?;
            }
        }
        Ok(())
    }

    fn pairs_mut(&mut self) -> &mut Pairs {
        self.pairs
            .as_mut()
            .expect("count lines come only with --pairs")
    }

    /// Solves `start` toward `goal` and writes the answer, or writes that
    /// one of them was invalid.
    fn answer(
        &mut self,
        line: u64,
        case: Option<u64>,
        start: Result<Board, String>,
        goal: Result<Board, String>,
    ) -> Result<()> {
        let (start, goal) = match (start, goal) {
            (Ok(start), Ok(goal)) => (start, goal),
            (Err(message), _) | (_, Err(message)) => {
                return self.write(line, case, Outcome::Invalid(message));
            }
        };
        let mut letters = std::mem::take(&mut self.letters);
        letters.clear();
        let solved = self
            .table
            .solve_each(&start, &goal, |mv| letters.push(mv.letter() as u8));
        let written = match solved {
            Ok(found) => self.write(
                line,
                case,
                Outcome::Solved {
                    start: &start,
                    goal: &goal,
                    moves: found.map(|_| &letters[..]),
                },
            ),
            Err(SolveError::Table(err)) => Err(err).context("the table"),
            Err(err) => {
                let message = self.report(line, &err);
                self.write(line, case, Outcome::Invalid(message))
            }
        };
        self.letters = letters;
        written
    }

    /// Reports a bad board on stderr.
    /// Reports a bad board on stderr, and returns the message.
    fn report(&mut self, line: u64, err: &dyn std::fmt::Display) -> String {
        eprintln!("eight: <stdin>:{line}: {err}");
        self.invalid = true;
        err.to_string()
    }

    fn write(&mut self, line: u64, case: Option<u64>, outcome: Outcome<'_>) -> Result<()> {
        let out = &mut self.out;
        if self.style == Style::Json {
            let json = JsonAnswer::new(line, case, &outcome);
            serde_json::to_writer(&mut *out, &json)?;
            out.write_all(b"\n")?;
            return Ok(());
        }
        match (&outcome, case) {
            (
                Outcome::Solved {
                    moves: Some(moves), ..
                },
                None,
            ) => {
                out.write_all(moves)?;
                out.write_all(b"\n")?;
            }
            (Outcome::Solved { moves: None, .. }, None) => out.write_all(b"unsolvable\n")?,
            (Outcome::Invalid(_), None) => out.write_all(b"invalid\n")?,
            (
                Outcome::Solved {
                    moves: Some(moves), ..
                },
                Some(case),
            ) => {
                writeln!(out, "Case {case}: {}", moves.len())?;
                out.write_all(moves)?;
                out.write_all(b"\n")?;
            }
            (Outcome::Solved { moves: None, .. }, Some(case)) => {
                writeln!(out, "Case {case}: unsolvable\n")?
            }
            (Outcome::Invalid(_), Some(case)) => writeln!(out, "Case {case}: invalid\n")?,
        }
        if let (Style::Show, Outcome::Solved { start, moves, .. }) = (self.style, &outcome) {
            draw(out, start, moves.unwrap_or(&[]))?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        if let Some(err) = self.failure.take() {
            return Err(err);
        }
        self.out.flush().context("cannot write stdout")
    }

    /// Reports what the end of input leaves unfinished and picks the exit code.
    fn finish(mut self) -> Result<ExitCode> {
        if let Some(pairs) = self.pairs.take() {
            let mut cases = pairs.cases;
            if let Some((line, _)) = pairs.start {
                cases += 1;
                let message = self.report(line, &"this case has a start board but no target board");
                self.write(line, Some(cases), Outcome::Invalid(message))?;
            }
            match pairs.announced {
                None => {
                    self.report(
                        1,
                        &"no input: expected the number of cases, then pairs of boards",
                    );
                }
                Some((line, Some(count))) if count != cases => {
                    self.report(
                        line,
                        &format!("the input announces {count} cases but holds {cases}"),
                    );
                }
                Some(_) => {}
            }
        }
        self.flush()?;
        Ok(match self.invalid {
            true => ExitCode::from(1),
            false => ExitCode::SUCCESS,
        })
    }
}

/// One line of `--json` output.
#[derive(Serialize)]
struct JsonAnswer {
    line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    case: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    length: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unsolvable: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl JsonAnswer {
    fn new(line: u64, case: Option<u64>, outcome: &Outcome<'_>) -> JsonAnswer {
        let mut json = JsonAnswer {
            line,
            case,
            board: None,
            goal: None,
            moves: None,
            length: None,
            unsolvable: None,
            error: None,
        };
        match outcome {
            Outcome::Solved { start, goal, moves } => {
                json.board = Some(start.to_string());
                json.goal = Some(goal.to_string());
                match moves {
                    Some(moves) => {
                        json.moves = Some(String::from_utf8_lossy(moves).into_owned());
                        json.length = Some(moves.len());
                    }
                    None => json.unsolvable = Some(true),
                }
            }
            Outcome::Invalid(message) => json.error = Some(message.clone()),
        }
        json
    }
}

/// Draws the boards along the moves (as letters) from `start`, side by
/// side, each move written between the boards it joins, as the problem
/// statements do.
fn draw(out: &mut impl Write, start: &Board, letters: &[u8]) -> io::Result<()> {
    let moves: Vec<Move> = letters
        .iter()
        .filter_map(|&letter| Move::from_letter(char::from(letter)))
        .collect();
    let mut boards = vec![*start];
    let mut board = *start;
    for &mv in &moves {
        board = board
            .moved(mv)
            .expect("a solution's moves stay on the board");
        boards.push(board);
    }
    let rows = start.shape().rows();
    let middle = rows / 2;
    for (block, chunk) in boards.chunks(SHOW_PER_ROW).enumerate() {
        let grids: Vec<Vec<String>> = chunk.iter().map(Board::grid).collect();
        for row in 0..rows {
            let mut text = String::new();
            for (i, grid) in grids.iter().enumerate() {
                let index = block * SHOW_PER_ROW + i;
                if i > 0 {
                    text += &match row == middle {
                        true => format!("  {}-> ", moves[index - 1]),
                        false => "      ".to_string(),
                    };
                }
                text += &grid[row];
            }
            // Moves that lead to the next block end this one.
            let next = (block + 1) * SHOW_PER_ROW;
            if row == middle && next < boards.len() {
                text += &format!("  {}->", moves[next - 1]);
            }
            writeln!(out, "{}", text.trim_end())?;
        }
        writeln!(out)?;
    }
    Ok(())
}
