//! Solving one job and writing its answer in the chosen style.

use std::fmt::Display;
use std::io::Write;
use std::sync::Arc;

use eight::Metric;
use eight::Solver;
use eight::{Analysis, Solutions, SolveError};
use eight::{Board, ParseError};
use eight::{Move, Notation};
use eight::{Verdict, Walk};

mod json;
mod runs;

use json::JsonAnswer;
use runs::CaseLabel;
pub(crate) use runs::{answer_plain_cases, answer_plain_run, answer_run};

/// Boards drawn side by side by `--show` before it wraps.
const SHOW_PER_ROW: usize = 7;

/// The form of the answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Form {
    /// The moves, `unsolvable` or `invalid`, one line per board.
    #[default]
    Plain,
    /// As plain, then the boards along the solution.
    Show,
    /// One JSON object per board.
    Json,
}

/// How answers are written: the moves in blank letters, a line each, by
/// default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Their form.
    pub form: Form,
    /// The number of moves instead of the moves.
    pub length: bool,
    /// How moves are spelled.
    pub notation: Notation,
    /// How moves are counted, for `--length`, `--pairs` and JSON.
    pub metric: Metric,
    /// With `--judge` input: the distance after each move too
    /// (`--analyse`).
    pub analyse: bool,
}

impl Style {
    /// Whether answers are the blank's letters alone, a line each: what a
    /// table writes straight into the output.
    pub(crate) fn is_plain(self) -> bool {
        self.form == Form::Plain && !self.length && self.notation == Notation::Blank
    }

    /// Whether runs of boards toward one goal are answered straight from
    /// the parsed boards ([`answer_plain_run`]): the plain form's letters,
    /// or `--length`'s counts.
    pub(crate) fn runs(self) -> bool {
        (self.form == Form::Plain && self.length) || self.is_plain()
    }
}

/// Why a board is invalid. Its message is written by whoever answers the
/// job, so that messages come in input order and are made on every core.
#[derive(Clone, Debug)]
pub(crate) enum Rejected {
    /// What the parser found wrong, on this line.
    Parse {
        /// The line.
        line: u64,
        /// What is wrong, boxed to keep every job small.
        error: Box<ParseError>,
    },
    /// Another reason, on this line.
    Other {
        /// The line.
        line: u64,
        /// What is wrong.
        message: Arc<str>,
    },
    /// A good board whose data cannot be had here (missing, or refused):
    /// its line says `unanswered`; the message, naming the command that
    /// makes the data, is said once, at the first such board of its goal.
    Unanswered {
        /// The line.
        line: u64,
        /// The board, good as it is.
        board: Board,
        /// Why, with the command that makes the data.
        message: Arc<str>,
        /// Said already, at an earlier board.
        said: bool,
    },
    /// Nothing to report: the other board of the job says it.
    Silent,
}

/// What a job's line came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// An answer, `unsolvable` or a verdict.
    Answered,
    /// `invalid`: the board (or line) was wrong.
    Invalid,
    /// `unanswered`: the board is good, its data cannot be had here.
    Unanswered,
}

/// A board (or pair) to answer, in input order.
#[derive(Clone, Debug)]
pub(crate) struct Job {
    /// Where the board starts in the input.
    pub line: u64,
    /// The case number, with `--pairs`.
    pub case: Option<u64>,
    /// The start board, or why it is invalid.
    pub start: Result<Board, Rejected>,
    /// The goal board, or why it is invalid.
    pub goal: Result<Board, Rejected>,
    /// The solver for the goal, among those shared with the workers.
    pub solver: usize,
    /// With `--judge`, for a good start board: the moves to judge.
    pub judge: Option<Box<Judged>>,
}

/// With `--judge`: moves someone found, followed from the start board.
#[derive(Clone, Debug)]
pub(crate) struct Judged {
    /// The moves, followed.
    pub walk: Walk,
    /// Their letters, where the output shows them (`--show`, `--json`);
    /// empty in the plain form, which needs only the walk.
    pub letters: Box<[u8]>,
}

/// Reusable memory for answering jobs.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    letters: Vec<u8>,
    /// The last parse error reported, and its message.
    last_error: Option<(ParseError, Vec<u8>)>,
    /// The starts of a run of jobs.
    pub starts: Vec<Board>,
    /// The boards of a chunk's run toward one goal, kept from chunk to
    /// chunk: a fresh one grew into memory never touched, each chunk.
    pub chunk_run: Vec<Board>,
    /// The goals of a run of `--pairs` jobs.
    goals: Vec<Board>,
    /// The answers of a run, and their lengths.
    answers: Solutions,
    lengths: Vec<Option<u16>>,
}

/// Writes `eight: <stdin>:LINE: message` into `errors`.
fn report(errors: &mut Vec<u8>, line: u64, message: &dyn Display) {
    errors.extend_from_slice(b"eight: <stdin>:");
    errors.extend_from_slice(itoa::Buffer::new().format(line).as_bytes());
    errors.extend_from_slice(b": ");
    // Writing into a Vec cannot fail.
    let _ = writeln!(errors, "{message}");
}

/// Writes the message of a parse error as [`report`] does, its text made
/// once for a run of equal errors (bulk input repeats one mistake).
fn report_parse(errors: &mut Vec<u8>, line: u64, error: &ParseError, scratch: &mut Scratch) {
    if scratch
        .last_error
        .as_ref()
        .is_none_or(|(last, _)| last != error)
    {
        let text = format!("{error}\n").into_bytes();
        scratch.last_error = Some((error.clone(), text));
    }
    let (_, text) = scratch.last_error.as_ref().expect("set above");
    errors.extend_from_slice(b"eight: <stdin>:");
    errors.extend_from_slice(itoa::Buffer::new().format(line).as_bytes());
    errors.extend_from_slice(b": ");
    errors.extend_from_slice(text);
}

/// The answer line of an invalid board, in the plain form.
const INVALID: &[u8] = b"invalid\n";

/// The answer line of a good board whose data cannot be had here.
const UNANSWERED: &[u8] = b"unanswered\n";

/// Appends the plain answer of a board the parser rejected on `line` to
/// `out` and its message to `errors`: what [`answer`] does for a job of that
/// board, with no job made.
pub(crate) fn answer_rejected(
    line: u64,
    error: &ParseError,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
    errors: &mut Vec<u8>,
) {
    report_parse(errors, line, error, scratch);
    out.extend_from_slice(INVALID);
}

/// Solves `job` and appends its answer to `out`, and the messages for its
/// invalid boards to `errors`. Returns whether it was invalid.
///
/// # Errors
///
/// Fails if the data is wrong: then no later answer can be trusted.
pub(crate) fn answer(
    solvers: &[Arc<Solver>],
    style: Style,
    job: &Job,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
    errors: &mut Vec<u8>,
) -> anyhow::Result<Mark> {
    let (start, goal) = match (&job.start, &job.goal) {
        (Ok(start), Ok(goal)) => (start, goal),
        _ => {
            let mut unanswered = None;
            let mut first = None;
            for rejected in [&job.start, &job.goal]
                .into_iter()
                .filter_map(|r| r.as_ref().err())
            {
                let message: &dyn Display = match rejected {
                    Rejected::Parse { line, error } => {
                        report_parse(errors, *line, error, scratch);
                        error
                    }
                    Rejected::Other { line, message } => {
                        report(errors, *line, message);
                        message
                    }
                    Rejected::Unanswered {
                        line,
                        board,
                        message,
                        said,
                    } => {
                        if !said {
                            report(errors, *line, message);
                        }
                        unanswered = Some(board);
                        message
                    }
                    Rejected::Silent => continue,
                };
                if style.form == Form::Json && first.is_none() {
                    first = Some(message.to_string());
                }
            }
            let message = first.as_deref().unwrap_or("");
            let (outcome, mark) = match unanswered {
                Some(start) => {
                    let goal = job.goal.as_ref().ok();
                    let outcome = Outcome::Unanswered {
                        start,
                        goal,
                        message,
                    };
                    (outcome, Mark::Unanswered)
                }
                None => (Outcome::Invalid(message), Mark::Invalid),
            };
            write(style, job, outcome, out);
            return Ok(mark);
        }
    };
    let solver = &solvers[job.solver];
    if let (Some(judged), true) = (&job.judge, style.analyse) {
        return match solver.analyse(start, goal, &judged.letters) {
            Ok(analysis) => {
                let outcome = Outcome::Analysed {
                    start,
                    goal,
                    moves: &judged.letters,
                    analysis: &analysis,
                };
                write(style, job, outcome, out);
                Ok(Mark::Answered)
            }
            Err(err) if err.is_data_error() => Err(super::failed(solver, err)),
            Err(err) => Ok(refused(style, job, (start, goal), &err, out, errors)),
        };
    }
    if let Some(judged) = &job.judge {
        return match solver.judge_walk(&judged.walk, goal) {
            Ok(verdict) => {
                let outcome = Outcome::Judged {
                    start,
                    goal,
                    moves: &judged.letters,
                    verdict,
                };
                write(style, job, outcome, out);
                Ok(Mark::Answered)
            }
            Err(err) if err.is_data_error() => Err(super::failed(solver, err)),
            Err(err) => Ok(refused(style, job, (start, goal), &err, out, errors)),
        };
    }
    // The common case, straight into the output: the moves, a line each.
    if style.is_plain() && job.case.is_none() {
        let mark = out.len();
        match solver.write_answer(start, goal, out) {
            Ok(Some(_)) => {
                out.push(b'\n');
                return Ok(Mark::Answered);
            }
            Ok(None) => {
                out.extend_from_slice(b"unsolvable\n");
                return Ok(Mark::Answered);
            }
            // Told as below, with no second search of the board.
            Err(err) => {
                out.truncate(mark);
                return match err.is_data_error() {
                    true => Err(super::failed(solver, err)),
                    false => Ok(refused(style, job, (start, goal), &err, out, errors)),
                };
            }
        }
    }
    // A searched board's length alone may come from the distances its
    // solver keeps, with no search in full.
    if style.length && style.form != Form::Show && solver.searches() {
        return match solver.lengths_many(std::slice::from_ref(start), goal) {
            Ok(lengths) => {
                let length = lengths[0].map(usize::from);
                write(
                    style,
                    job,
                    Outcome::Counted {
                        start,
                        goal,
                        length,
                    },
                    out,
                );
                Ok(Mark::Answered)
            }
            Err(SolveError::At { error, .. }) if error.is_data_error() => {
                Err(super::failed(solver, *error))
            }
            Err(SolveError::At { error, .. }) => {
                Ok(refused(style, job, (start, goal), &error, out, errors))
            }
            Err(err) if err.is_data_error() => Err(super::failed(solver, err)),
            Err(err) => Ok(refused(style, job, (start, goal), &err, out, errors)),
        };
    }
    let letters = &mut scratch.letters;
    letters.clear();
    match solver.write_answer(start, goal, letters) {
        Ok(found) => {
            let moves = found.map(|_| &letters[..]);
            write(style, job, Outcome::Solved { start, goal, moves }, out);
            Ok(Mark::Answered)
        }
        Err(err) if err.is_data_error() => Err(super::failed(solver, err)),
        Err(err) => Ok(refused(style, job, (start, goal), &err, out, errors)),
    }
}

/// Writes the line of a good board its solver refused, and says why: a
/// board too far for the data made here is `unanswered` (the message names
/// the command that makes the data), anything else `invalid`.
fn refused(
    style: Style,
    job: &Job,
    (start, goal): (&Board, &Board),
    err: &eight::SolveError,
    out: &mut Vec<u8>,
    errors: &mut Vec<u8>,
) -> Mark {
    report(errors, job.line, err);
    let message = err.to_string();
    match err.wants_data() {
        true => {
            let outcome = Outcome::Unanswered {
                start,
                goal: Some(goal),
                message: &message,
            };
            write(style, job, outcome, out);
            Mark::Unanswered
        }
        false => {
            write(style, job, Outcome::Invalid(&message), out);
            Mark::Invalid
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
    /// With `--length`: the number of moves alone, `None` if unsolvable.
    Counted {
        start: &'a Board,
        goal: &'a Board,
        length: Option<usize>,
    },
    Invalid(&'a str),
    /// A good board whose data cannot be had here.
    Unanswered {
        start: &'a Board,
        goal: Option<&'a Board>,
        message: &'a str,
    },
    /// With `--analyse`: what the moves came to, and the distance after
    /// each.
    Analysed {
        start: &'a Board,
        goal: &'a Board,
        moves: &'a [u8],
        analysis: &'a Analysis,
    },
    /// With `--judge`: what the moves came to.
    Judged {
        start: &'a Board,
        goal: &'a Board,
        moves: &'a [u8],
        verdict: Verdict,
    },
}

fn write(style: Style, job: &Job, outcome: Outcome<'_>, out: &mut Vec<u8>) {
    // Writing into a Vec cannot fail.
    let _ = try_write(style, job, outcome, out);
}

/// Appends the answer of `letters` moves: their number with `--length`,
/// else the moves in the chosen notation.
fn answer_text(style: Style, letters: &[u8], out: &mut Vec<u8>) {
    match style.length {
        true => out.extend_from_slice(
            itoa::Buffer::new()
                .format(style.metric.count(letters))
                .as_bytes(),
        ),
        false => style.notation.spell(letters, out),
    }
}

/// Appends `Case k: what` and a newline, the label made as the plain form
/// makes it ([`CaseLabel`]).
fn case_line(case: u64, what: &[u8], out: &mut Vec<u8>) {
    CaseLabel::new(case).write(out);
    out.extend_from_slice(what);
    out.push(b'\n');
}

fn try_write(
    style: Style,
    job: &Job,
    outcome: Outcome<'_>,
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    if style.form == Form::Json {
        serde_json::to_writer(&mut *out, &JsonAnswer::new(style, job, &outcome))?;
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
            answer_text(style, moves, out);
            out.push(b'\n');
        }
        (Outcome::Solved { moves: None, .. }, None) => out.extend_from_slice(b"unsolvable\n"),
        (Outcome::Counted { length, .. }, case) => {
            let text = match length {
                Some(length) => length.to_string(),
                None => "unsolvable".to_string(),
            };
            match case {
                Some(case) => case_line(case, text.as_bytes(), out),
                None => writeln!(out, "{text}")?,
            }
        }
        (Outcome::Invalid(_), None) => out.extend_from_slice(INVALID),
        (Outcome::Unanswered { .. }, None) => out.extend_from_slice(UNANSWERED),
        (Outcome::Judged { verdict, .. }, None) => writeln!(out, "{verdict}")?,
        (Outcome::Analysed { analysis, .. }, _) => {
            write!(out, "{}", analysis.verdict)?;
            for (at, distance) in analysis.distances.iter().enumerate() {
                let gap = if at == 0 { ": " } else { " " };
                write!(out, "{gap}{distance}")?;
            }
            out.push(b'\n');
        }
        (
            Outcome::Solved {
                moves: Some(moves), ..
            },
            Some(case),
        ) => {
            case_line(
                case,
                itoa::Buffer::new()
                    .format(style.metric.count(moves))
                    .as_bytes(),
                out,
            );
            if !style.length {
                style.notation.spell(moves, out);
                out.push(b'\n');
            }
        }
        (Outcome::Solved { moves: None, .. }, Some(case)) => {
            case_line(case, b"unsolvable", out);
            if !style.length {
                out.push(b'\n');
            }
        }
        (Outcome::Invalid(_), Some(case)) => {
            case_line(case, b"invalid", out);
            if !style.length {
                out.push(b'\n');
            }
        }
        (Outcome::Unanswered { .. }, Some(case)) => {
            case_line(case, b"unanswered", out);
            if !style.length {
                out.push(b'\n');
            }
        }
        (Outcome::Judged { verdict, .. }, Some(case)) => {
            case_line(case, verdict.to_string().as_bytes(), out)
        }
    }
    match (style.form, &outcome) {
        (Form::Show, Outcome::Solved { start, moves, .. }) => {
            draw(out, start, moves.unwrap_or(&[]), style.notation)?
        }
        // Moves that stay on the board are drawn.
        (
            Form::Show,
            Outcome::Judged {
                start,
                moves,
                verdict: Verdict::Optimal | Verdict::LongerBy(_) | Verdict::NotAtGoal,
                ..
            },
        ) => draw(out, start, moves, style.notation)?,
        _ => {}
    }
    Ok(())
}

/// The letter of one move in `notation`, as drawn between two boards.
fn label(mv: Move, notation: Notation) -> char {
    let mut letter = Vec::new();
    let single = match notation {
        Notation::TileRuns => Notation::Tile,
        other => other,
    };
    single.spell(&[mv.letter() as u8], &mut letter);
    char::from(letter[0])
}

/// Draws the boards along the moves (as letters) from `start`, side by
/// side, each move written between the boards it joins, as the problem
/// statements do.
fn draw(
    out: &mut impl Write,
    start: &Board,
    letters: &[u8],
    notation: Notation,
) -> std::io::Result<()> {
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
                        true => format!("  {}-> ", label(moves[index - 1], notation)),
                        false => "      ".to_string(),
                    };
                }
                text += &grid[row];
            }
            // Moves that lead to the next block end this one.
            let next = (block + 1) * SHOW_PER_ROW;
            if row == middle && next < boards.len() {
                text += &format!("  {}->", label(moves[next - 1], notation));
            }
            writeln!(out, "{}", text.trim_end())?;
        }
        writeln!(out)?;
    }
    Ok(())
}
