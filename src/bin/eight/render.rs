//! Solving one job and writing its answer in the chosen style.

use std::io::Write;
use std::sync::Arc;

use anyhow::anyhow;
use eight::{Board, Move, Solver};
use serde::Serialize;

/// Boards drawn side by side by `--show` before it wraps.
const SHOW_PER_ROW: usize = 7;

/// How answers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// The moves, `unsolvable` or `invalid`, one line per board.
    Plain,
    /// As plain, then the boards along the solution.
    Show,
    /// One JSON object per board.
    Json,
}

/// A board (or pair) to answer, in input order.
#[derive(Clone, Debug)]
pub struct Job {
    /// Where the board starts in the input.
    pub line: u64,
    /// The case number, with `--pairs`.
    pub case: Option<u64>,
    /// The start board, or why it is invalid (already reported).
    pub start: Result<Board, String>,
    /// The goal board, or why it is invalid (already reported).
    pub goal: Result<Board, String>,
    /// The solver for the goal, among those shared with the workers.
    pub solver: usize,
}

/// Reusable memory for answering jobs.
#[derive(Debug, Default)]
pub struct Scratch {
    letters: Vec<u8>,
}

/// Solves `job` and appends its answer to `out`. Returns the message for a
/// board found invalid only now, to be reported.
///
/// # Errors
///
/// Fails if the data is wrong: then no later answer can be trusted.
pub fn answer(
    solvers: &[Arc<Solver>],
    style: Style,
    job: &Job,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> anyhow::Result<Option<String>> {
    let (start, goal) = match (&job.start, &job.goal) {
        (Ok(start), Ok(goal)) => (start, goal),
        (Err(message), _) | (_, Err(message)) => {
            write(style, job, Outcome::Invalid(message), out);
            return Ok(None);
        }
    };
    let solver = &solvers[job.solver];
    let letters = &mut scratch.letters;
    letters.clear();
    match solver.solve_each(start, goal, |mv| letters.push(mv.letter() as u8)) {
        Ok(found) => {
            let moves = found.map(|_| &letters[..]);
            write(style, job, Outcome::Solved { start, goal, moves }, out);
            Ok(None)
        }
        Err(err) if err.is_data_error() => Err(anyhow!("{}: {err}", solver.describe())),
        Err(err) => {
            let message = err.to_string();
            write(style, job, Outcome::Invalid(&message), out);
            Ok(Some(message))
        }
    }
}

/// What a job came to.
enum Outcome<'a> {
    Solved {
        start: &'a Board,
        goal: &'a Board,
        /// The letters of the moves, or `None` if unsolvable.
        moves: Option<&'a [u8]>,
    },
    Invalid(&'a str),
}

fn write(style: Style, job: &Job, outcome: Outcome<'_>, out: &mut Vec<u8>) {
    // Writing into a Vec cannot fail.
    let _ = try_write(style, job, outcome, out);
}

fn try_write(
    style: Style,
    job: &Job,
    outcome: Outcome<'_>,
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    if style == Style::Json {
        serde_json::to_writer(&mut *out, &JsonAnswer::new(job, &outcome))?;
        out.push(b'\n');
        return Ok(());
    }
    match (&outcome, job.case) {
        (
            Outcome::Solved {
                moves: Some(moves), ..
            },
            None,
        ) => {
            out.extend_from_slice(moves);
            out.push(b'\n');
        }
        (Outcome::Solved { moves: None, .. }, None) => out.extend_from_slice(b"unsolvable\n"),
        (Outcome::Invalid(_), None) => out.extend_from_slice(b"invalid\n"),
        (
            Outcome::Solved {
                moves: Some(moves), ..
            },
            Some(case),
        ) => {
            // The hot line of `--pairs`: itoa rather than the formatter.
            let mut number = itoa::Buffer::new();
            out.extend_from_slice(b"Case ");
            out.extend_from_slice(number.format(case).as_bytes());
            out.extend_from_slice(b": ");
            out.extend_from_slice(number.format(moves.len()).as_bytes());
            out.push(b'\n');
            out.extend_from_slice(moves);
            out.push(b'\n');
        }
        (Outcome::Solved { moves: None, .. }, Some(case)) => {
            writeln!(out, "Case {case}: unsolvable\n")?
        }
        (Outcome::Invalid(_), Some(case)) => writeln!(out, "Case {case}: invalid\n")?,
    }
    if let (Style::Show, Outcome::Solved { start, moves, .. }) = (style, &outcome) {
        draw(out, start, moves.unwrap_or(&[]))?;
    }
    Ok(())
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
    fn new(job: &Job, outcome: &Outcome<'_>) -> JsonAnswer {
        let mut json = JsonAnswer {
            line: job.line,
            case: job.case,
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
            Outcome::Invalid(message) => json.error = Some(message.to_string()),
        }
        json
    }
}

/// Draws the boards along the moves (as letters) from `start`, side by
/// side, each move written between the boards it joins, as the problem
/// statements do.
fn draw(out: &mut impl Write, start: &Board, letters: &[u8]) -> std::io::Result<()> {
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
