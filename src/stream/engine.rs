//! The stream contract: from stdin to stdout, output line *i* answers board
//! *i*, always.
//!
//! A reader thread hands stdin over in blocks. The main thread parses them
//! into jobs, reports bad boards, and finds the solver for each goal. Full
//! batches of jobs go to worker threads, started on the first full batch,
//! and their answers are written in the order the batches were sent.
//! Whenever the next block of input is not there yet (the input waits),
//! every job so far is answered, written and flushed; a small input is
//! answered on the main thread alone, so one board costs no thread start-up.
//!
//! Messages go to stderr through the [`Reporter`]. A data error or a data
//! file changed underneath ends the run after the answers made before it;
//! so does the host's asking it to stop ([`Host::stopped`]).

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Display;
use std::io::{self, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};

use crate::answer::Walk;
use crate::board::{Board, Layout};
use crate::map;
use crate::parse::{Item, Parser};
use crate::shape::Shape;
use crate::solver::Solver;
use crate::stream::input::{FULL_READ, IO_BUFFER, Input, LOOK_EVERY};
use crate::stream::judge::{JudgeLine, JudgeLines, MAX_HEAD};
use crate::stream::render::{self, Form, Job, Judged, Rejected, Scratch, Style};
use crate::stream::report::Reporter;
use crate::stream::{Config, Finish, Host, Io, Solvers, StreamError, check};
use crate::table::GROUP;

/// Jobs sent to a worker at once; a search takes long enough to go alone.
const TABLE_BATCH: usize = 4096;

/// Batches kept queued or in work per worker.
const IN_FLIGHT: usize = 2;

/// Answers every board of `io`'s input, writing one answer per board to its
/// output, in input order, and a message for each bad board to its errors.
///
/// # Errors
///
/// Fails if the answers cannot be written or the input read, if the data
/// is wrong or changes during the run, or if `host` asks the run to stop;
/// every answer made before is written first.
pub fn run(
    config: Config,
    solvers: Solvers,
    io: Io<'_>,
    host: &'static dyn Host,
) -> Result<Finish, StreamError> {
    let Io {
        input,
        input_fd,
        output,
        errors,
        errors_piece,
        errors_terminal,
    } = io;
    let mut session = Session {
        pipeline: Pipeline::new(
            &config,
            solvers,
            output,
            Reporter::new(errors, errors_piece, errors_terminal),
            host,
        ),
        pairs: config.pairs.then(Pairs::default),
        config,
        goal_cache: None,
        last_goal: None,
        invalid: false,
        fatal: None,
    };
    let answered = answer_all(&mut session, Input::new(input, input_fd, host));
    if answered.is_err() {
        // The answers made before the failure still go out, and so do the
        // messages.
        let _ = session.pipeline.out.flush();
        session.pipeline.reporter.flush();
    }
    answered?;
    Ok(session.finish()?)
}

/// Reads, parses and answers all of stdin.
fn answer_all(session: &mut Session<'_>, mut input: Input) -> Result<()> {
    let mut count = match session.config.pairs {
        true => CountLine::Waiting(Vec::new()),
        false => CountLine::Done,
    };
    let mut parser = Parser::new(session.config.layout);
    if session.config.judge {
        let keep_letters = session.config.style.form != Form::Plain;
        let mut lines = JudgeLines::new(session.config.layout, keep_letters);
        while let Some(block) = input.next(|| session.drain())? {
            lines.feed(&block, &mut |line, text| session.take_judged(line, text));
            session.check()?;
        }
        lines.finish(&mut |line, text| session.take_judged(line, text));
        return session.check();
    }
    if !session.config.pairs {
        // Large inputs are cut into chunks parsed on every core; small ones
        // (typed, or one board) are read here, line by line, as they come.
        let Some(first) = input.next(|| session.drain())? else {
            parser.finish(&mut |item| session.take(item));
            return session.check();
        };
        match first.len() >= FULL_READ {
            true => match answer_chunked(session, &mut input, first, 1)? {
                // Everything was answered in chunks.
                None => return session.check(),
                // Rows without end: the rest is read here, from a clean
                // start.
                Some((rest, line)) => {
                    parser = Parser::starting_at(session.config.layout, line);
                    parser.feed(&rest, &mut |item| session.take(item));
                }
            },
            false => parser.feed(&first, &mut |item| session.take(item)),
        }
        session.check()?;
    }
    // Before the input waits, hand over every answer so far.
    while let Some(block) = input.next(|| session.drain())? {
        match &mut count {
            CountLine::Done => parser.feed(&block, &mut |item| session.take(item)),
            CountLine::Waiting(head) => {
                head.extend_from_slice(&block);
                let Some(rest) = count.resolve(session, &mut parser, false) else {
                    continue;
                };
                if !matches!(input, Input::Background(..)) {
                    parser.feed(&rest, &mut |item| session.take(item));
                    continue;
                }
                // Large input: its cases are answered in chunks.
                let left = answer_chunked(session, &mut input, rest, parser.line())?;
                session.end_pairs_chunks()?;
                let Some((rest, line)) = left else {
                    return session.check();
                };
                // No clean cut: the rest is read here.
                parser = Parser::starting_at(session.config.layout, line);
                parser.feed(&rest, &mut |item| session.take(item));
            }
        }
        session.check()?;
    }
    if let Some(rest) = count.resolve(session, &mut parser, true) {
        parser.feed(&rest, &mut |item| session.take(item));
    }
    parser.finish(&mut |item| session.take(item));
    session.check()
}

/// Input without a start-of-line state beyond this is fed to the workers
/// as raw chunks. Past it, a carry with no clean cut (rows, row after row)
/// is read on the main thread instead.
const MAX_CARRY: usize = 1 << 20;

/// Answers large input in chunks: raw bytes cut after a line that leaves
/// the parser with nothing pending (a line that is no grid row), parsed and
/// answered by the workers, each with a parser starting at its first line.
/// Returns what is left to read on the main thread, and its first line, if
/// the input has no clean cut for [`MAX_CARRY`] bytes.
///
/// With `--pairs`, `first` follows the count line and starts on line
/// `line`; each chunk is presumed to start after one board a line (see
/// [`PairsAt`]).
fn answer_chunked(
    session: &mut Session<'_>,
    input: &mut Input,
    first: Vec<u8>,
    mut line: u64,
) -> Result<Option<(Vec<u8>, u64)>> {
    let layout = session.config.layout;
    let pairs = session.config.pairs;
    session.load_first_solver(&first, line);
    // Boards that are searched go one to a worker, from the main thread:
    // a chunk of them would keep one core alone.
    if session.pipeline.batch_size == 1 {
        return Ok(Some((first, line)));
    }
    let mut carry = first;
    loop {
        session
            .pipeline
            .send_clean(&mut carry, &mut line, layout, pairs)?;
        if carry.len() > MAX_CARRY {
            return Ok(Some((carry, line)));
        }
        let block = input.next(|| {
            session
                .pipeline
                .send_clean(&mut carry, &mut line, layout, pairs)?;
            session.drain()
        })?;
        match block {
            Some(block) => carry.extend_from_slice(&block),
            None => break,
        }
    }
    // The end of input: the rest, whatever it holds.
    if !carry.is_empty() {
        let chunk = session.pipeline.chunk(carry, line, pairs);
        session.pipeline.send_work(Work::Chunk(Chunk {
            last: true,
            ..chunk
        }))?;
    }
    Ok(None)
}

/// Where `bytes` may be cut: just after the last whole line that leaves a
/// parser with nothing pending, a line that is no row of a grid (a board,
/// a bad line, an empty line). Only the last few lines are looked at.
fn clean_cut(bytes: &[u8], layout: Layout) -> Option<usize> {
    let mut end = memchr::memrchr(b'\n', bytes)?;
    for _ in 0..64 {
        let start = memchr::memrchr(b'\n', &bytes[..end]).map_or(0, |at| at + 1);
        if !is_row(&bytes[start..end], layout) {
            return Some(end + 1);
        }
        if start == 0 {
            return None;
        }
        end = start - 1;
    }
    None
}

/// The lines of `bytes` (whole lines) presumed to hold a board each: all
/// but the empty ones, with or without a carriage return. A cheap count,
/// right for most input; see [`PairsAt`].
fn board_lines(bytes: &[u8]) -> u64 {
    let lines = memchr::memchr_iter(b'\n', bytes).count();
    // Empty lines follow another line's end, or start the chunk. (Runs of
    // them are undercounted: a presumption, not a rule.)
    let empty = |line: &[u8]| {
        let after = memchr::memmem::find_iter(bytes, line).count();
        after + usize::from(bytes.starts_with(&line[1..]))
    };
    lines.saturating_sub(empty(b"\n\n") + empty(b"\n\r\n")) as u64
}

/// Whether a line may be one row of a grid, as the parser would read it.
fn is_row(line: &[u8], layout: Layout) -> bool {
    if line.contains(&b'/') {
        return false;
    }
    let mut tokens = 0;
    let mut chars = 0;
    for token in line
        .split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
    {
        tokens += 1;
        chars += token.iter().filter(|&&b| b & 0xC0 != 0x80).count();
    }
    match layout {
        Layout::Auto => chars == 3 || tokens == 4,
        Layout::Fixed(shape) => {
            let slots = if shape.numbered() { tokens } else { chars };
            slots == shape.cols()
        }
    }
}

/// The count line that opens `--pairs` input.
enum CountLine {
    /// Not read yet: the input so far.
    Waiting(Vec<u8>),
    Done,
}

impl CountLine {
    /// Reads the count line from the input so far, once it is all there (or
    /// at the end of input): tells the session the count, or that there is
    /// none, and sets the parser to start after it. Returns the input left
    /// for the parser.
    fn resolve(
        &mut self,
        session: &mut Session<'_>,
        parser: &mut Parser,
        end: bool,
    ) -> Option<Vec<u8>> {
        let CountLine::Waiting(head) = self else {
            return None;
        };
        // The first line with anything on it, and the line number.
        let mut start = 0;
        let mut line = 1u64;
        let found = loop {
            let end_of_line = memchr::memchr(b'\n', &head[start..]).map(|at| start + at);
            let text = &head[start..end_of_line.unwrap_or(head.len())];
            let blank = text.iter().all(u8::is_ascii_whitespace);
            match end_of_line {
                Some(at) if blank => {
                    start = at + 1;
                    line += 1;
                }
                // A long line is no count: no need to wait for its end.
                _ if !blank && (end_of_line.is_some() || end || text.len() > 64) => {
                    break Some((text.to_vec(), end_of_line.map_or(head.len(), |at| at + 1)));
                }
                _ if end => break None,
                _ => return None,
            }
        };
        let head = std::mem::take(head);
        *self = CountLine::Done;
        let layout = parser.layout();
        let Some((text, after)) = found else {
            session.report(
                line,
                &"no input: expected the number of cases, then pairs of boards",
            );
            session.pairs_mut().announced = Some((line, None));
            return None;
        };
        let text = String::from_utf8_lossy(&text);
        match text.trim().parse::<u64>() {
            Ok(count) => {
                session.pairs_mut().announced = Some((line, Some(count)));
                *parser = Parser::starting_at(layout, line + 1);
                Some(head[after..].to_vec())
            }
            Err(_) => {
                // Not a count: read the line as the first board, so that the
                // pairs after it stay paired as they were written.
                let shown: String = text.trim().chars().take(40).collect();
                session.report(
                    line,
                    &format!("expected the number of cases first, found {shown:?}"),
                );
                session.pairs_mut().announced = Some((line, None));
                *parser = Parser::starting_at(layout, line);
                Some(head[start..].to_vec())
            }
        }
    }
}

/// The state of `--pairs` input.
#[derive(Debug, Default)]
struct Pairs {
    /// The line of the count, and the count if it was readable.
    announced: Option<(u64, Option<u64>)>,
    /// Cases so far.
    cases: u64,
    /// A start board (or why it is invalid) waiting for its target, and its
    /// line.
    start: Option<(u64, Result<Board, Rejected>)>,
}

/// Turns parsed items into jobs, reporting what is wrong.
struct Session<'a> {
    config: Config,
    /// The usual goal of the last shape seen.
    goal_cache: Option<Board>,
    /// The last goal, and its solver.
    last_goal: Option<(Board, usize)>,
    pipeline: Pipeline<'a>,
    pairs: Option<Pairs>,
    /// Some board was invalid.
    invalid: bool,
    /// A failure met while taking items, reported by `check`.
    fatal: Option<anyhow::Error>,
}

impl Session<'_> {
    fn take(&mut self, item: Item) {
        if self.fatal.is_some() {
            return;
        }
        let line = item.line;
        let board = item.result.map_err(|error| {
            self.invalid = true;
            Rejected::Parse {
                line,
                error: Box::new(error),
            }
        });
        let Some(pairs) = &mut self.pairs else {
            let goal = match (self.config.goal, &board) {
                (Some(goal), _) => Ok(goal),
                (None, Ok(board)) => Ok(self.usual_goal(board)),
                (None, Err(_)) => Err(Rejected::Silent),
            };
            self.push(line, None, board, goal);
            return;
        };
        match pairs.start.take() {
            None => pairs.start = Some((line, board)),
            Some((start_line, start)) => {
                pairs.cases += 1;
                let case = Some(pairs.cases);
                self.push(start_line, case, start, board);
            }
        }
    }

    /// Takes one line of `--judge` input: a board, then its moves (blank
    /// letters, `-` for none) as the last token.
    fn take_judged(&mut self, line: u64, text: JudgeLine<'_>) {
        if self.fatal.is_some() {
            return;
        }
        let layout = self.config.layout;
        let rejected = |message: &str| {
            Err(Rejected::Other {
                line,
                message: message.into(),
            })
        };
        let parse_error = |error| {
            Err(Rejected::Parse {
                line,
                error: Box::new(error),
            })
        };
        let (board, judged) = match text {
            JudgeLine::Text(text) if text.iter().all(u8::is_ascii_whitespace) => return,
            JudgeLine::Text(text) => {
                let text = text.trim_ascii();
                let split = text
                    .iter()
                    .rposition(u8::is_ascii_whitespace)
                    .map(|at| (&text[..at], &text[at + 1..]));
                match split.map(|(board, moves)| (Board::parse_in(layout, board), moves)) {
                    Some((Ok(board), moves)) => {
                        let letters = match moves {
                            b"-" => &b""[..],
                            moves => moves,
                        };
                        let mut walk = Walk::new(board);
                        walk.follow(letters);
                        let letters = letters.into();
                        (Ok(board), Some(Box::new(Judged { walk, letters })))
                    }
                    // The whole line is a board: its moves were left out.
                    _ if Board::parse_in(layout, text).is_ok() => (
                        rejected("expected the moves after the board (- for none)"),
                        None,
                    ),
                    Some((Err(error), _)) => (parse_error(error), None),
                    None => (
                        rejected("expected a board and then its moves (- for none)"),
                        None,
                    ),
                }
            }
            JudgeLine::Long { moves, .. } if moves.trailing => (
                rejected("expected the moves to end the line, found more after them"),
                None,
            ),
            JudgeLine::Long { board, moves } => match moves.walk {
                Some(walk) => {
                    let letters = moves.letters.into();
                    (Ok(*walk.start()), Some(Box::new(Judged { walk, letters })))
                }
                // The text before the moves is no board.
                None => match Board::parse_in(layout, board) {
                    Err(error) if !board.is_empty() => (parse_error(error), None),
                    _ => (
                        rejected("expected a board and then its moves (- for none)"),
                        None,
                    ),
                },
            },
            JudgeLine::TooLong => (
                rejected(&format!(
                    "expected a board and then its moves, found over {MAX_HEAD} bytes of \
                     short tokens"
                )),
                None,
            ),
        };
        if board.is_err() {
            self.invalid = true;
        }
        let goal = match (self.config.goal, &board) {
            (Some(goal), _) => Ok(goal),
            (None, Ok(board)) => Ok(self.usual_goal(board)),
            (None, Err(_)) => Err(Rejected::Silent),
        };
        self.push_judged(line, None, board, goal, judged);
    }

    /// Loads the solver for the goal of the first board of `bytes`, which
    /// start on line `line`, if one of the first lines has a good board (and
    /// its goal, with `--pairs`), before the workers are sent chunks. A chunk
    /// that finds no solver for its goal comes back to be parsed again once
    /// it is loaded: on 100,000 boards, the first four chunks were, 29,000
    /// boards parsed twice. A solver that cannot be loaded is left for the
    /// chunk to come back for, so that the answers before it are written
    /// first.
    fn load_first_solver(&mut self, bytes: &[u8], line: u64) {
        /// The bytes looked at: a few lines.
        const LOOK: usize = 1 << 10;
        let head = &bytes[..bytes.len().min(LOOK)];
        let Some(end) = memchr::memrchr(b'\n', head) else {
            return;
        };
        let mut boards = Vec::new();
        let mut parser = Parser::starting_at(self.config.layout, line);
        parser.feed(&head[..=end], &mut |item| boards.push(item.result));
        let goal = match (self.config.pairs, self.config.goal) {
            // A case of two shapes is refused, and loads nothing.
            (true, _) => match boards.as_slice() {
                [Ok(start), Ok(goal), ..] if start.shape() == goal.shape() => *goal,
                _ => return,
            },
            (false, Some(goal)) => goal,
            (false, None) => match boards.iter().find_map(|board| board.as_ref().ok()) {
                Some(board) => self.usual_goal(board),
                None => return,
            },
        };
        let _ = self.pipeline.find(&goal);
    }

    /// The usual goal of `board`'s shape.
    fn usual_goal(&mut self, board: &Board) -> Board {
        match self.goal_cache {
            Some(goal) if goal.shape() == board.shape() => goal,
            _ => *self.goal_cache.insert(Board::goal(board.shape())),
        }
    }

    /// Makes a job, with the solver for its goal.
    fn push(
        &mut self,
        line: u64,
        case: Option<u64>,
        start: Result<Board, Rejected>,
        goal: Result<Board, Rejected>,
    ) {
        self.push_judged(line, case, start, goal, None);
    }

    /// Makes a job, with moves to judge if any, and the solver for its goal.
    fn push_judged(
        &mut self,
        line: u64,
        case: Option<u64>,
        start: Result<Board, Rejected>,
        goal: Result<Board, Rejected>,
        judge: Option<Box<Judged>>,
    ) {
        let mut job = Job {
            line,
            case,
            start,
            goal,
            solver: 0,
            judge,
        };
        if let (Ok(start), Ok(goal)) = (&job.start, &job.goal) {
            if let Some(rejected) = other_shapes(line, start, goal) {
                self.invalid = true;
                job.start = Err(rejected);
            } else {
                let goal = *goal;
                match self.last_goal {
                    // Most inputs have one goal: its solver is known.
                    Some((last, index)) if last == goal => job.solver = index,
                    _ => match self.load(&goal) {
                        Ok(index) => {
                            job.solver = index;
                            self.last_goal = Some((goal, index));
                        }
                        Err(err) => {
                            self.fatal = Some(err);
                            return;
                        }
                    },
                }
            }
        }
        self.pipeline.push(job);
    }

    /// The index of the solver for `goal`. Before one is loaded, every
    /// answer so far is written: loading may take long (a proof), and a
    /// signal meanwhile ends the program at once.
    fn load(&mut self, goal: &Board) -> Result<usize> {
        if self.pipeline.solvers.loaded(goal).is_none() {
            self.pipeline.drain()?;
        }
        self.pipeline.find(goal)
    }

    /// Once the chunks of `--pairs` input are sent: writes their answers,
    /// and takes the cases they read and the start board they leave
    /// waiting, if any.
    fn end_pairs_chunks(&mut self) -> Result<()> {
        self.drain()?;
        let read = std::mem::take(&mut self.pipeline.pairs_read);
        let pairs = self.pairs_mut();
        pairs.cases = read.boards / 2;
        pairs.start = read.pending;
        Ok(())
    }

    fn pairs_mut(&mut self) -> &mut Pairs {
        self.pairs
            .as_mut()
            .expect("count lines come only with --pairs")
    }

    /// Reports something wrong with the input as a whole on stderr.
    fn report(&mut self, line: u64, message: &dyn Display) {
        self.pipeline.reporter.report(line, message);
        self.invalid = true;
    }

    /// Returns the first failure met while taking items, after writing the
    /// answers made before it.
    fn check(&mut self) -> Result<()> {
        if let Some(err) = self.fatal.take() {
            self.pipeline.drain()?;
            return Err(err);
        }
        self.pipeline.check()
    }

    fn drain(&mut self) -> Result<()> {
        self.check()?;
        self.pipeline.drain()
    }

    /// Reports what the end of input leaves unfinished, writes every answer,
    /// and picks the exit code.
    fn finish(mut self) -> Result<Finish> {
        if let Some(pairs) = self.pairs.take() {
            let mut cases = pairs.cases;
            if let Some((line, _)) = pairs.start {
                cases += 1;
                self.invalid = true;
                self.pipeline.push(Job {
                    line,
                    case: Some(cases),
                    start: Err(Rejected::Other {
                        line,
                        message: "this case has a start board but no target board".into(),
                    }),
                    goal: Err(Rejected::Silent),
                    solver: 0,
                    judge: None,
                });
            }
            if let Some((line, Some(count))) = pairs.announced
                && count != cases
            {
                // After every answer's message, however the input was read.
                self.pipeline.drain()?;
                let case_word = |n| if n == 1 { "case" } else { "cases" };
                self.report(
                    line,
                    &format!(
                        "the input announces {count} {} but holds {cases}",
                        case_word(count)
                    ),
                );
            }
        }
        self.pipeline.drain()?;
        self.invalid |= self.pipeline.invalid;
        self.pipeline.reporter.flush();
        Ok(Finish {
            invalid: self.invalid,
        })
    }
}

/// A batch's answers, and what to report with them.
#[derive(Default)]
struct Done {
    out: Vec<u8>,
    /// The messages for its invalid boards, whole lines.
    errors: Vec<u8>,
    /// Some board was invalid.
    invalid: bool,
    /// A failure that makes every later answer untrustworthy.
    fatal: Option<anyhow::Error>,
    /// A chunk that met a goal no solver was loaded for: to answer again
    /// once it is.
    retry: Option<(Chunk, Board)>,
    /// For a chunk of `--pairs` input: what it read, to check where it was
    /// presumed to start.
    pairs: Option<PairsRead>,
    /// Where answers go ahead of the rest of the batch, if they may.
    ahead: Option<Ahead>,
    /// Answers sent ahead: more of the batch follows.
    part: bool,
}

/// Where a worker sends a chunk's answers ahead of the rest: each search's
/// answer as soon as it and those before it are made, so that slow answers
/// stream, from a file as from a pipe.
struct Ahead {
    number: u64,
    answers: mpsc::Sender<(u64, Done)>,
}

impl Done {
    /// Sends the answers so far ahead of the rest of the batch, if they
    /// may go ahead.
    fn send_ahead(&mut self) {
        let Some(ahead) = &self.ahead else {
            return;
        };
        let part = Done {
            out: std::mem::take(&mut self.out),
            errors: std::mem::take(&mut self.errors),
            invalid: self.invalid,
            part: true,
            ..Done::default()
        };
        let _ = ahead.answers.send((ahead.number, part));
    }

    /// Nothing yet, for the answers of `chunk`: room for twice its bytes,
    /// as answers run longer than boards (a 3x3 line of 18 bytes has an
    /// answer of 23 on average and 32 at most).
    fn for_chunk(chunk: &Chunk) -> Done {
        Done {
            out: Vec::with_capacity(2 * chunk.bytes.len()),
            ..Done::default()
        }
    }
}

/// Where a chunk of `--pairs` input stands among the boards: the boards
/// before it, and the start board before it still waiting for its target,
/// with its line.
///
/// Chunks are sent before those ahead of them are read, so where each
/// starts is presumed: one board a line that is not empty since the last
/// chunk written, and nothing waiting. The answers of a chunk presumed
/// wrongly (the input had grids, or lines with only spaces) are not
/// written; it is answered again from where it truly starts, and the chunks
/// sent from then on are presumed from there.
#[derive(Clone, Debug, Default)]
struct PairsAt {
    boards: u64,
    pending: Option<(u64, Result<Board, Rejected>)>,
    /// The lines of the chunks up to this one's end, its own included, as
    /// [`board_lines`] counts them.
    lines: u64,
}

/// What a chunk of `--pairs` input read: where it was presumed to start,
/// the chunk itself (to answer again if that was wrong), its boards, and the
/// start board left waiting at its end.
struct PairsRead {
    at: PairsAt,
    chunk: Chunk,
    boards: u64,
    pending: Option<(u64, Result<Board, Rejected>)>,
}

/// Work for a worker: jobs made on the main thread, or a chunk of raw input
/// to parse and answer.
enum Work {
    Jobs(Vec<Job>),
    Chunk(Chunk),
}

/// Raw input: whole lines from `line` on, starting with nothing pending and
/// ending with nothing pending (or at the end of input).
struct Chunk {
    bytes: Vec<u8>,
    line: u64,
    /// The end of input: what is pending at its end is reported.
    last: bool,
    /// For `--pairs` input: where the chunk starts among the boards.
    pairs: Option<PairsAt>,
}

impl Chunk {
    /// The chunk from line `line` on, one of its lines.
    fn rest_from(mut self, line: u64) -> Chunk {
        let skip = (line - self.line) as usize;
        let start = match skip {
            0 => 0,
            _ => memchr::memchr_iter(b'\n', &self.bytes)
                .nth(skip - 1)
                .map_or(self.bytes.len(), |at| at + 1),
        };
        self.bytes.drain(..start);
        self.line = line;
        self
    }
}

/// How a worker reads chunks: the boards' layout and the goal, if fixed.
#[derive(Clone, Copy)]
struct Reading {
    layout: Layout,
    goal: Option<Board>,
}

/// Parses a chunk and answers its boards; if a board's goal has no solver
/// among `solvers`, gives the chunk back to answer once one is loaded.
///
/// Plain answers of boards toward one goal are written in runs straight
/// from the parsed boards; anything else becomes a job, answered in order.
fn answer_chunk(
    chunk: Chunk,
    reading: Reading,
    solvers: &[Arc<Solver>],
    style: Style,
    scratch: &mut Scratch,
    ahead: Option<Ahead>,
) -> Done {
    let mut run = std::mem::take(&mut scratch.chunk_run);
    run.clear();
    let mut answers = ChunkAnswers {
        solvers,
        style,
        reading,
        scratch,
        done: Done {
            ahead,
            ..Done::for_chunk(&chunk)
        },
        run,
        run_goal: None,
        last_goal: None,
        missing: None,
        jobs: Vec::new(),
        fast: None,
    };
    let mut parser = Parser::starting_at(reading.layout, chunk.line);
    parser.feed(&chunk.bytes, &mut |item| answers.take(item));
    if chunk.last {
        parser.finish(&mut |item| answers.take(item));
    }
    answers.flush_jobs();
    answers.flush_run();
    answers.scratch.chunk_run = std::mem::take(&mut answers.run);
    let mut done = answers.done;
    done.ahead = None;
    done.retry = answers
        .missing
        .map(|(goal, line)| (chunk.rest_from(line), goal));
    done
}

/// The boards of a chunk, answered as they are parsed ([`answer_chunk`]).
struct ChunkAnswers<'a> {
    solvers: &'a [Arc<Solver>],
    style: Style,
    reading: Reading,
    scratch: &'a mut Scratch,
    done: Done,
    /// A run of boards toward one goal, waiting to be answered together,
    /// and the goal with its solver.
    run: Vec<Board>,
    run_goal: Option<(Board, usize)>,
    last_goal: Option<(Board, usize)>,
    /// A goal with no solver loaded, and the line of its board: the chunk
    /// from there goes back.
    missing: Option<(Board, u64)>,
    /// Boards that do not go in runs, answered in order as jobs.
    jobs: Vec<Job>,
    /// The shape whose boards join the run as they come, once one has: a
    /// board of that shape has the run's goal and solver (the fixed goal, or
    /// the shape's usual one), and nothing waits before the run.
    fast: Option<Shape>,
}

impl ChunkAnswers<'_> {
    /// Takes the next board: most join the run here, in a few
    /// instructions inlined into the parser's loop (a call for each board
    /// cost about 31 more: 398 against 368 million instructions for
    /// 1,000,000 boards).
    #[inline(always)]
    fn take(&mut self, item: Item) {
        if let (Some(shape), Ok(board)) = (self.fast, &item.result)
            && board.shape() == shape
        {
            self.run.push(*board);
            return;
        }
        self.take_other(item);
    }

    /// Takes a board that does not simply join the run.
    #[inline(never)]
    fn take_other(&mut self, item: Item) {
        self.fast = None;
        if self.missing.is_some() || self.done.fatal.is_some() {
            return;
        }
        let plain = self.style.is_plain();
        let line = item.line;
        // A rejected board, in the plain form: its line at once, no job.
        if let (true, Err(error)) = (plain, &item.result) {
            self.flush_run();
            self.flush_jobs();
            let done = &mut self.done;
            render::answer_rejected(line, error, self.scratch, &mut done.out, &mut done.errors);
            done.invalid = true;
            return;
        }
        let start = item.result.map_err(|error| Rejected::Parse {
            line,
            error: Box::new(error),
        });
        let goal = match (self.reading.goal, &start) {
            (Some(goal), _) => Ok(goal),
            (None, Ok(board)) => Ok(match self.last_goal {
                Some((goal, _)) if goal.shape() == board.shape() => goal,
                _ => Board::goal(board.shape()),
            }),
            (None, Err(_)) => Err(Rejected::Silent),
        };
        let mut solver = 0;
        if let (Ok(_), Ok(goal)) = (&start, &goal) {
            match solver_for(self.solvers, &mut self.last_goal, goal) {
                Some(index) => solver = index,
                None => {
                    // The answers before it, for when the solver cannot be
                    // loaded.
                    self.flush_run();
                    self.flush_jobs();
                    self.missing = Some((*goal, line));
                    return;
                }
            }
        }
        if let (true, Ok(board), Ok(goal)) = (plain, &start, &goal) {
            self.flush_jobs();
            if self.run_goal != Some((*goal, solver)) {
                self.flush_run();
                self.run_goal = Some((*goal, solver));
            }
            self.run.push(*board);
            self.fast = Some(board.shape());
            return;
        }
        self.flush_run();
        self.jobs.push(Job {
            line,
            case: None,
            start,
            goal,
            solver,
            judge: None,
        });
    }

    /// Answers the run so far, the derived answers at once if the table has
    /// them, else one by one.
    fn flush_run(&mut self) {
        let Some((goal, index)) = self.run_goal else {
            return;
        };
        if self.run.is_empty() || self.done.fatal.is_some() {
            self.run.clear();
            return;
        }
        let solver = &self.solvers[index];
        match solver.write_answers(&self.run, &goal, &mut self.done.out) {
            Ok(true) => {}
            Ok(false) => {
                let jobs: Vec<Job> = self
                    .run
                    .iter()
                    .map(|&start| Job {
                        line: 0,
                        case: None,
                        start: Ok(start),
                        goal: Ok(goal),
                        solver: index,
                        judge: None,
                    })
                    .collect();
                answer_into(
                    &jobs,
                    self.solvers,
                    self.style,
                    self.scratch,
                    &mut self.done,
                );
            }
            Err(err) => self.done.fatal = Some(anyhow!("{}: {err}", solver.describe())),
        }
        self.run.clear();
    }

    /// Answers the jobs so far, in order.
    fn flush_jobs(&mut self) {
        let (solvers, style) = (self.solvers, self.style);
        answer_jobs(&mut self.jobs, solvers, style, self.scratch, &mut self.done);
    }
}

/// Answers `jobs` in order into `done`, unless a failure came before, and
/// empties them.
fn answer_jobs(
    jobs: &mut Vec<Job>,
    solvers: &[Arc<Solver>],
    style: Style,
    scratch: &mut Scratch,
    done: &mut Done,
) {
    if !jobs.is_empty() && done.fatal.is_none() {
        answer_into(jobs, solvers, style, scratch, done);
    }
    jobs.clear();
}

/// The index of the solver among `solvers` that serves `goal`, that of the
/// last goal (`last`, kept up to date) if it is the same; `None` if no
/// solver does (one is still to be loaded).
fn solver_for(
    solvers: &[Arc<Solver>],
    last: &mut Option<(Board, usize)>,
    goal: &Board,
) -> Option<usize> {
    match *last {
        Some((seen, index)) if seen == *goal => Some(index),
        _ => {
            let index = solvers.iter().position(|s| s.serves(goal))?;
            *last = Some((*goal, index));
            Some(index)
        }
    }
}

/// Why a case cannot be answered if its start and target boards are of
/// different shapes.
#[inline]
fn other_shapes(line: u64, start: &Board, goal: &Board) -> Option<Rejected> {
    // The message made out of line: every case asks.
    #[cold]
    #[inline(never)]
    fn rejected(line: u64, start: &Board, goal: &Board) -> Rejected {
        Rejected::Other {
            line,
            message: format!(
                "the start is a {} board and the target a {} board",
                start.shape(),
                goal.shape()
            )
            .into(),
        }
    }
    (start.shape() != goal.shape()).then(|| rejected(line, start, goal))
}

/// Parses a chunk of `--pairs` input and answers its cases, numbered from
/// where the chunk is said to start; the first board completes the case
/// waiting there, if any. If a target's goal has no solver among
/// `solvers`, gives the chunk back to answer once one is loaded.
///
/// In the plain form, cases of two good boards go in runs straight to the
/// walks ([`render::answer_plain_cases`]); anything else becomes a job,
/// answered in order.
fn answer_pairs_chunk(
    mut chunk: Chunk,
    reading: Reading,
    solvers: &[Arc<Solver>],
    style: Style,
    scratch: &mut Scratch,
) -> Done {
    let at = chunk.pairs.take().expect("a chunk of --pairs input");
    let mut answers = PairsAnswers {
        solvers,
        style,
        scratch,
        done: Done::for_chunk(&chunk),
        boards: 0,
        case: at.boards / 2,
        pending: at.pending.clone(),
        run: CaseRun::with_capacity(chunk.bytes.len() / 20),
        jobs: Vec::new(),
        last_goal: None,
        missing: None,
    };
    let mut parser = Parser::starting_at(reading.layout, chunk.line);
    parser.feed(&chunk.bytes, &mut |item| answers.take(item));
    if chunk.last {
        parser.finish(&mut |item| answers.take(item));
    }
    if let Some(goal) = answers.missing {
        chunk.pairs = Some(at);
        let mut done = std::mem::take(&mut answers.done);
        done.retry = Some((chunk, goal));
        return done;
    }
    let mut done = answers.finish();
    done.pairs = Some(PairsRead {
        at,
        chunk,
        boards: answers.boards,
        pending: answers.pending,
    });
    done
}

/// The cases of a `--pairs` chunk, answered as their boards are parsed
/// ([`answer_pairs_chunk`]).
struct PairsAnswers<'a> {
    solvers: &'a [Arc<Solver>],
    style: Style,
    scratch: &'a mut Scratch,
    done: Done,
    /// The boards read, and the number of the last case.
    boards: u64,
    case: u64,
    /// The start of the case under way, with its line.
    pending: Option<(u64, Result<Board, Rejected>)>,
    run: CaseRun,
    jobs: Vec<Job>,
    last_goal: Option<(Board, usize)>,
    /// A goal with no solver loaded: the chunk goes back.
    missing: Option<Board>,
}

impl PairsAnswers<'_> {
    /// Takes the next board: the start of a case waits for its target, and
    /// a case of two good boards joins the run, here, inlined into the
    /// parser's loop (a call for each board cost about 9 instructions more:
    /// 179.6 against 177.9 million for 100,000 cases).
    #[inline(always)]
    fn take(&mut self, item: Item) {
        match (&self.pending, item.result) {
            (None, Ok(start)) => {
                self.boards += 1;
                self.pending = Some((item.line, Ok(start)));
            }
            (Some((line, Ok(start))), Ok(goal))
                if self.style.is_plain()
                    && self.jobs.is_empty()
                    && self.missing.is_none()
                    && self.done.fatal.is_none()
                    && start.shape() == goal.shape()
                    && solver_for(self.solvers, &mut self.last_goal, &goal)
                        == Some(self.run.solver) =>
            {
                self.boards += 1;
                self.case += 1;
                self.run.push(*line, self.case, *start, goal);
                self.pending = None;
            }
            (_, result) => self.take_other(Item {
                line: item.line,
                result,
            }),
        }
    }

    /// Takes a board that does not simply wait or join the run.
    #[inline(never)]
    fn take_other(&mut self, item: Item) {
        self.boards += 1;
        let line = item.line;
        let board = item.result.map_err(|error| Rejected::Parse {
            line,
            error: Box::new(error),
        });
        let Some((line, mut start)) = self.pending.take() else {
            self.pending = Some((line, board));
            return;
        };
        self.case += 1;
        if self.missing.is_some() || self.done.fatal.is_some() {
            return;
        }
        let mut solver = 0;
        if let (Ok(board), Ok(goal)) = (&start, &board) {
            if let Some(rejected) = other_shapes(line, board, goal) {
                start = Err(rejected);
            } else {
                match solver_for(self.solvers, &mut self.last_goal, goal) {
                    Some(index) => solver = index,
                    None => {
                        // The answers before it, for when the solver cannot
                        // be loaded.
                        let (solvers, style) = (self.solvers, self.style);
                        answer_jobs(&mut self.jobs, solvers, style, self.scratch, &mut self.done);
                        self.run
                            .answer(solvers, style, self.scratch, &mut self.done);
                        self.missing = Some(*goal);
                        return;
                    }
                }
            }
        }
        let (solvers, style) = (self.solvers, self.style);
        if let (true, Ok(start), Ok(goal)) = (style.is_plain(), &start, &board) {
            answer_jobs(&mut self.jobs, solvers, style, self.scratch, &mut self.done);
            if self.run.solver != solver {
                self.run
                    .answer(solvers, style, self.scratch, &mut self.done);
                self.run.solver = solver;
            }
            self.run.push(line, self.case, *start, *goal);
            return;
        }
        self.run
            .answer(solvers, style, self.scratch, &mut self.done);
        self.jobs.push(Job {
            line,
            case: Some(self.case),
            start,
            goal: board,
            solver,
            judge: None,
        });
    }

    /// Answers the cases still waiting; the answers.
    fn finish(&mut self) -> Done {
        let (solvers, style) = (self.solvers, self.style);
        self.run
            .answer(solvers, style, self.scratch, &mut self.done);
        answer_jobs(&mut self.jobs, solvers, style, self.scratch, &mut self.done);
        std::mem::take(&mut self.done)
    }
}

/// A run of `--pairs` cases in a row, each of two good boards, on one
/// solver: answered at once in the plain form.
struct CaseRun {
    starts: Vec<Board>,
    goals: Vec<Board>,
    /// The line of each case's start, for the jobs they become if the run
    /// cannot be answered at once.
    lines: Vec<u64>,
    /// The number of the first case.
    first: u64,
    solver: usize,
}

impl CaseRun {
    fn with_capacity(cases: usize) -> CaseRun {
        CaseRun {
            starts: Vec::with_capacity(cases),
            goals: Vec::with_capacity(cases),
            lines: Vec::with_capacity(cases),
            first: 0,
            solver: 0,
        }
    }

    fn push(&mut self, line: u64, case: u64, start: Board, goal: Board) {
        if self.starts.is_empty() {
            self.first = case;
        }
        self.starts.push(start);
        self.goals.push(goal);
        self.lines.push(line);
    }

    /// Answers the cases of the run into `done`, and empties it: at once if
    /// the solver's table walks them interleaved, else as jobs.
    fn answer(
        &mut self,
        solvers: &[Arc<Solver>],
        style: Style,
        scratch: &mut Scratch,
        done: &mut Done,
    ) {
        if self.starts.is_empty() || done.fatal.is_some() {
            self.clear();
            return;
        }
        let solver = &solvers[self.solver];
        let (starts, goals) = (&self.starts, &self.goals);
        match render::answer_plain_cases(solver, starts, goals, self.first, scratch, &mut done.out)
        {
            Ok(true) => {}
            Ok(false) => {
                let cases = self.lines.iter().zip(starts.iter().zip(goals));
                let jobs: Vec<Job> = (self.first..)
                    .zip(cases)
                    .map(|(case, (&line, (&start, &goal)))| Job {
                        line,
                        case: Some(case),
                        start: Ok(start),
                        goal: Ok(goal),
                        solver: self.solver,
                        judge: None,
                    })
                    .collect();
                answer_into(&jobs, solvers, style, scratch, done);
            }
            Err(err) => done.fatal = Some(err),
        }
        self.clear();
    }

    fn clear(&mut self) {
        self.starts.clear();
        self.goals.clear();
        self.lines.clear();
    }
}

/// Answers `jobs` in order.
fn answer_batch(
    jobs: &[Job],
    solvers: &[Arc<Solver>],
    style: Style,
    scratch: &mut Scratch,
) -> Done {
    let mut done = Done {
        out: Vec::with_capacity(jobs.len() * 32),
        ..Done::default()
    };
    answer_into(jobs, solvers, style, scratch, &mut done);
    done
}

/// The most bytes of `--pairs` input in one chunk: about 800 cases of one
/// board a line, so that a few chunks keep every core busy. Each chunk
/// costs the threads a wake and a wait: 16 KB chunks made 3,100 context
/// switches on 1,000,000 cases, these 1,800 (64 KB, 1,100, was slower on
/// 100,000 cases, as its last chunks keep one core alone).
const PAIRS_CHUNK: usize = 32 * 1024;

/// Answers a run of jobs at once, or says it did not ([`render::answer_pairs`],
/// [`render::answer_group`]).
type RunAnswer =
    fn(&[Arc<Solver>], Style, &[Job], &mut Scratch, &mut Vec<u8>) -> anyhow::Result<bool>;

/// The most `--pairs` cases walked at once.
const PAIRS_RUN: usize = 256;

/// Answers `jobs` in order, appending to `done`.
fn answer_into(
    jobs: &[Job],
    solvers: &[Arc<Solver>],
    style: Style,
    scratch: &mut Scratch,
    done: &mut Done,
) {
    let plain = style.is_plain();
    let mut rest = jobs;
    // The jobs of a run the derived answers were asked for and could not
    // answer are not asked for again, one shorter run after another (each
    // ask counts its boards toward deriving them): asked for only once the
    // jobs left are this few.
    let mut ask_within = usize::MAX;
    // Likewise, the jobs of a run of `--pairs` cases tried at once and not
    // answered are answered one by one.
    let mut pairs_within = usize::MAX;
    while !rest.is_empty() {
        // A run of plain jobs toward one goal is answered at once, from a
        // table's derived answers.
        let same = |job: &Job| {
            job.start.is_ok()
                && job.judge.is_none()
                && job.case.is_none()
                && job.solver == rest[0].solver
                && job.goal.as_ref().ok() == rest[0].goal.as_ref().ok()
        };
        if plain && rest.len() <= ask_within && same(&rest[0]) {
            let run = rest.iter().take_while(|job| same(job)).count();
            ask_within = rest.len() - run;
            if run >= 8 {
                scratch.starts.clear();
                scratch
                    .starts
                    .extend(rest[..run].iter().filter_map(|job| job.start.as_ref().ok()));
                let goal = match &rest[0].goal {
                    Ok(goal) => goal,
                    Err(_) => unreachable!("a run's jobs have goals"),
                };
                match solvers[rest[0].solver].write_answers(&scratch.starts, goal, &mut done.out) {
                    Ok(true) => {
                        rest = &rest[run..];
                        continue;
                    }
                    Ok(false) => {}
                    Err(err) if err.is_data_error() => {
                        done.fatal = Some(anyhow!("{}: {err}", solvers[rest[0].solver].describe()));
                        break;
                    }
                    Err(_) => {}
                }
            }
        }
        // A run of `--pairs` cases on one table walks interleaved.
        let mut pairs = 0;
        if rest[0].case.is_some() && rest.len() <= pairs_within {
            pairs = rest
                .iter()
                .take(PAIRS_RUN)
                .take_while(|job| {
                    job.start.is_ok()
                        && job.goal.is_ok()
                        && job.judge.is_none()
                        && job.solver == rest[0].solver
                })
                .count();
            pairs_within = rest.len() - pairs;
        }
        // A run of jobs toward one goal walks a large table as one group.
        let grouped = rest[0].start.is_ok()
            && rest[0].goal.is_ok()
            && rest[0].judge.is_none()
            && solvers[rest[0].solver]
                .table()
                .is_some_and(|t| t.groups_pay());
        let group = rest
            .iter()
            .take(if grouped && pairs < 2 { GROUP } else { 0 })
            .take_while(|job| {
                job.start.is_ok()
                    && job.goal.is_ok()
                    && job.solver == rest[0].solver
                    && job.goal.as_ref().ok() == rest[0].goal.as_ref().ok()
            })
            .count();
        let (run, answer_run): (usize, RunAnswer) = match pairs >= 2 {
            true => (pairs, render::answer_pairs),
            false => (group, render::answer_group),
        };
        if run >= 2 {
            match answer_run(solvers, style, &rest[..run], scratch, &mut done.out) {
                Ok(true) => {
                    rest = &rest[run..];
                    continue;
                }
                Ok(false) => {}
                Err(err) => {
                    done.fatal = Some(err);
                    break;
                }
            }
        }
        match render::answer(
            solvers,
            style,
            &rest[0],
            scratch,
            &mut done.out,
            &mut done.errors,
        ) {
            Ok(invalid)
                if rest[0].start.is_ok()
                    && rest[0].goal.is_ok()
                    && solvers.get(rest[0].solver).is_some_and(|s| s.searches()) =>
            {
                done.invalid |= invalid;
                done.send_ahead();
            }
            Ok(invalid) => done.invalid |= invalid,
            Err(err) => {
                done.fatal = Some(err);
                break;
            }
        }
        rest = &rest[1..];
    }
}

/// A numbered batch of work, and the solvers it may name.
type Batch = (u64, Work, Arc<Vec<Arc<Solver>>>);

/// Worker threads, one per core, sharing one queue of numbered batches.
struct Workers {
    batches: SyncSender<Batch>,
    answers: Receiver<(u64, Done)>,
    count: usize,
}

/// Batches jobs, answers them here or on the workers, and writes the
/// answers in input order.
struct Pipeline<'a> {
    style: Style,
    reading: Reading,
    /// The solvers loaded so far, and how to load more.
    solvers: Solvers,
    /// The solvers as the workers see them.
    shared: Arc<Vec<Arc<Solver>>>,
    batch: Vec<Job>,
    /// Jobs per batch: fewer when they search.
    batch_size: usize,
    workers: Option<Workers>,
    /// Batches sent to the workers, and written.
    sent: u64,
    written: u64,
    /// Answers that came back before those of earlier batches, in the order
    /// they came.
    waiting: BTreeMap<u64, VecDeque<Done>>,
    /// The first input line of each batch sent and not yet written.
    lines: BTreeMap<u64, u64>,
    scratch: Scratch,
    out: io::BufWriter<Box<dyn Write + 'a>>,
    reporter: Reporter<'a>,
    host: &'static dyn Host,
    /// Some board was found invalid while answering.
    invalid: bool,
    /// A failure met while taking items, reported by `check`.
    failure: Option<anyhow::Error>,
    /// With `--pairs` in chunks: the lines of the chunks sent, the boards
    /// less the lines as of the last chunk written, and where the next
    /// chunk to write truly starts.
    pairs_lines: u64,
    pairs_offset: i64,
    pairs_read: PairsAt,
}

impl<'a> Pipeline<'a> {
    fn new(
        config: &Config,
        solvers: Solvers,
        output: Box<dyn Write + 'a>,
        reporter: Reporter<'a>,
        host: &'static dyn Host,
    ) -> Pipeline<'a> {
        let shared = Arc::new(solvers.list().to_vec());
        let batch_size = match shared.iter().any(|s| s.searches()) {
            true => 1,
            false => TABLE_BATCH,
        };
        Pipeline {
            style: config.style,
            reading: Reading {
                layout: config.layout,
                goal: config.goal,
            },
            solvers,
            shared,
            batch: Vec::with_capacity(TABLE_BATCH),
            batch_size,
            workers: None,
            sent: 0,
            written: 0,
            waiting: BTreeMap::new(),
            lines: BTreeMap::new(),
            scratch: Scratch::default(),
            out: io::BufWriter::with_capacity(IO_BUFFER, output),
            reporter,
            host,
            invalid: false,
            failure: None,
            pairs_lines: 0,
            pairs_offset: 0,
            pairs_read: PairsAt::default(),
        }
    }

    /// The index of the solver for `goal`, loading it (and sharing it with
    /// the workers) if need be.
    fn find(&mut self, goal: &Board) -> Result<usize> {
        let index = match self.solvers.loaded(goal) {
            Some(index) => index,
            // Loading may take long (a proof): the answers so far are
            // flushed, and a signal meanwhile ends the program at once.
            None => {
                self.flush()?;
                let mut found = None;
                let solvers = &mut self.solvers;
                self.host.at_once(&mut || found = Some(solvers.find(goal)));
                found.expect("at_once runs its work")?
            }
        };
        if self.shared.len() != self.solvers.list().len() {
            self.shared = Arc::new(self.solvers.list().to_vec());
        }
        if self.shared[index].searches() {
            self.batch_size = 1;
        }
        Ok(index)
    }

    fn push(&mut self, job: Job) {
        self.batch.push(job);
        if self.batch.len() >= self.batch_size
            && self.failure.is_none()
            && let Err(err) = self.send_batch()
        {
            self.failure = Some(err);
        }
    }

    /// Returns the first failure met while taking items, or the signal
    /// that asks the run to stop.
    fn check(&mut self) -> Result<()> {
        self.failure.take().map_or(Ok(()), Err)?;
        check(self.host)
    }

    /// Queues the batch of jobs for the workers.
    fn send_batch(&mut self) -> Result<()> {
        let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(self.batch_size));
        self.send_work(Work::Jobs(batch))
    }

    /// Sends the part of `carry` that ends cleanly as a chunk, keeping the
    /// rest; `line` is the first line of `carry`, and then of what is kept.
    /// `--pairs` input, more work a byte, goes in chunks of at most
    /// [`PAIRS_CHUNK`] bytes, each ending where it can after an even number
    /// of boards, as presumed, so that the next is presumed to start with a
    /// case.
    fn send_clean(
        &mut self,
        carry: &mut Vec<u8>,
        line: &mut u64,
        layout: Layout,
        pairs: bool,
    ) -> Result<()> {
        if !pairs {
            let Some(cut) = clean_cut(carry, layout) else {
                return Ok(());
            };
            let rest = carry.split_off(cut);
            let bytes = std::mem::replace(carry, rest);
            let first = *line;
            *line += memchr::memchr_iter(b'\n', &bytes).count() as u64;
            let chunk = self.chunk(bytes, first, false);
            return self.send_work(Work::Chunk(chunk));
        }
        // Chunks copied out one after another; what is left moved once.
        let mut start = 0;
        let sent = loop {
            let window = &carry[start..carry.len().min(start + PAIRS_CHUNK)];
            let Some(mut cut) = clean_cut(window, layout).map(|cut| start + cut) else {
                break Ok(());
            };
            if (self.presumed_boards() + board_lines(&carry[start..cut])) % 2 == 1 {
                // One line less, if the line before it is no grid row.
                if let Some(earlier) =
                    clean_cut(&carry[start..cut - 1], layout).map(|earlier| start + earlier)
                    && memchr::memchr_iter(b'\n', &carry[earlier..cut]).count() == 1
                {
                    cut = earlier;
                }
            }
            let bytes = carry[start..cut].to_vec();
            start = cut;
            let first = *line;
            *line += memchr::memchr_iter(b'\n', &bytes).count() as u64;
            let chunk = self.chunk(bytes, first, true);
            if let Err(err) = self.send_work(Work::Chunk(chunk)) {
                break Err(err);
            }
            if carry.len() - start < PAIRS_CHUNK {
                break Ok(());
            }
        };
        carry.drain(..start);
        sent
    }

    /// The boards before the next chunk of `--pairs` input, as presumed.
    fn presumed_boards(&self) -> u64 {
        self.pairs_lines.saturating_add_signed(self.pairs_offset)
    }

    /// A chunk of `bytes` from `line` on, not the last; with `--pairs`,
    /// presumed to start where [`PairsAt`] says.
    fn chunk(&mut self, bytes: Vec<u8>, line: u64, pairs: bool) -> Chunk {
        let at = pairs.then(|| {
            let boards = self.presumed_boards();
            self.pairs_lines += board_lines(&bytes);
            PairsAt {
                boards,
                pending: None,
                lines: self.pairs_lines,
            }
        });
        Chunk {
            bytes,
            line,
            last: false,
            pairs: at,
        }
    }

    /// Queues work for the workers, starting them if need be and writing
    /// the oldest answers first if enough are in flight.
    fn send_work(&mut self, work: Work) -> Result<()> {
        if self.workers.is_none() {
            self.workers = Some(self.spawn_workers());
        }
        let count = self.workers.as_ref().map_or(1, |workers| workers.count);
        let in_flight = IN_FLIGHT * if self.batch_size == 1 { 4 } else { 1 };
        while self.sent - self.written >= (in_flight * count) as u64 {
            self.write_next()?;
        }
        let line = match &work {
            Work::Jobs(jobs) => jobs.first().map_or(0, |job| job.line),
            Work::Chunk(chunk) => chunk.line,
        };
        self.lines.insert(self.sent, line);
        let workers = self.workers.as_ref().expect("the workers are started");
        workers
            .batches
            .send((self.sent, work, Arc::clone(&self.shared)))
            .map_err(|_| anyhow!("a worker thread stopped"))?;
        self.sent += 1;
        Ok(())
    }

    /// One worker per core; each takes the next batch from the shared queue,
    /// so a long job holds up only its own worker.
    fn spawn_workers(&self) -> Workers {
        let count = thread::available_parallelism().map_or(1, |n| n.get());
        let (batches, queue) = mpsc::sync_channel::<Batch>(IN_FLIGHT * 4 * count);
        let queue = Arc::new(Mutex::new(queue));
        let (done, answers) = mpsc::channel();
        for _ in 0..count {
            let (queue, done) = (Arc::clone(&queue), done.clone());
            let (style, reading) = (self.style, self.reading);
            self.host.spawn(Box::new(move || {
                let mut scratch = Scratch::default();
                loop {
                    let next = queue.lock().map(|queue| queue.recv());
                    let Ok(Ok((number, work, solvers))) = next else {
                        return;
                    };
                    let answered = match work {
                        Work::Jobs(jobs) => answer_batch(&jobs, &solvers, style, &mut scratch),
                        Work::Chunk(chunk) if chunk.pairs.is_some() => {
                            answer_pairs_chunk(chunk, reading, &solvers, style, &mut scratch)
                        }
                        Work::Chunk(chunk) => {
                            let ahead = Ahead {
                                number,
                                answers: done.clone(),
                            };
                            answer_chunk(chunk, reading, &solvers, style, &mut scratch, Some(ahead))
                        }
                    };
                    if done.send((number, answered)).is_err() {
                        return;
                    }
                }
            }));
        }
        Workers {
            batches,
            answers,
            count,
        }
    }

    /// Writes the answers of the oldest batch not yet written. A chunk that
    /// met a goal with no solver loaded goes back to the workers, under the
    /// same number, once it is; so does a chunk of `--pairs` input presumed
    /// to start elsewhere than it does ([`PairsAt`]).
    fn write_next(&mut self) -> Result<()> {
        let done = loop {
            let mut done = self.next_answers()?;
            if done.part {
                self.write(done)?;
                continue;
            }
            let chunk = match (done.retry.take(), done.pairs.take()) {
                (Some((chunk, goal)), _) => match self.find(&goal) {
                    // The answers before the board of that goal go out, and
                    // the chunk from that board on goes back.
                    Ok(_) if chunk.pairs.is_none() => {
                        self.write(done)?;
                        chunk
                    }
                    Ok(_) => chunk,
                    // Presumed to start elsewhere: again, from where it
                    // does, to come back for the goal with the right cases.
                    Err(_)
                        if chunk
                            .pairs
                            .as_ref()
                            .is_some_and(|at| !self.starts_right(at)) =>
                    {
                        self.truly_placed(chunk)
                    }
                    // The answers before the board that needs the solver
                    // go out first.
                    Err(err) => {
                        done.fatal = Some(err);
                        break done;
                    }
                },
                (None, Some(read)) => {
                    let read_as = &read.at;
                    if self.starts_right(read_as) {
                        let truly = &self.pairs_read;
                        let boards = truly.boards + read.boards;
                        self.pairs_offset = boards as i64 - read_as.lines as i64;
                        self.pairs_read = PairsAt {
                            boards,
                            pending: read.pending,
                            lines: read_as.lines,
                        };
                        break done;
                    }
                    // Presumed to start elsewhere: again, from where it does.
                    self.truly_placed(Chunk {
                        pairs: Some(read.at),
                        ..read.chunk
                    })
                }
                (None, None) => break done,
            };
            let workers = self.workers.as_ref().expect("batches were sent");
            workers
                .batches
                .send((self.written, Work::Chunk(chunk), Arc::clone(&self.shared)))
                .map_err(|_| anyhow!("a worker thread stopped"))?;
        };
        self.lines.remove(&self.written);
        self.written += 1;
        self.write(done)
    }

    /// The next answers of the oldest batch not yet written: kept from
    /// before, or the next to come. Whatever is written so far is flushed
    /// before waiting, so that slow answers are seen as they come.
    fn next_answers(&mut self) -> Result<Done> {
        if let Some(queue) = self.waiting.get_mut(&self.written)
            && let Some(done) = queue.pop_front()
        {
            if queue.is_empty() {
                self.waiting.remove(&self.written);
            }
            return Ok(done);
        }
        let mut flushed = false;
        loop {
            let workers = self.workers.as_ref().expect("batches were sent");
            let (number, done) = match workers.answers.try_recv() {
                Ok(answers) => answers,
                Err(TryRecvError::Empty) if !flushed => {
                    self.flush()?;
                    flushed = true;
                    continue;
                }
                Err(_) => self.await_answers()?,
            };
            if number == self.written {
                return Ok(done);
            }
            self.waiting.entry(number).or_default().push_back(done);
        }
    }

    /// Waits for the next answers to come, the wait shown on stderr once it
    /// is long, if stderr is a terminal.
    fn await_answers(&mut self) -> Result<(u64, Done)> {
        let workers = self.workers.as_ref().expect("batches were sent");
        let started = Instant::now();
        let mut shown = 0;
        let answers = loop {
            if let Err(stopped) = check(self.host) {
                if shown > 0 {
                    self.reporter.show("");
                }
                return Err(stopped);
            }
            match workers.answers.recv_timeout(LOOK_EVERY) {
                Ok(answers) => break answers,
                Err(RecvTimeoutError::Disconnected) => bail!("a worker thread stopped"),
                Err(RecvTimeoutError::Timeout) => {}
            }
            let seconds = started.elapsed().as_secs();
            if self.reporter.terminal && seconds > shown {
                shown = seconds;
                let line = self.lines.get(&self.written).copied().unwrap_or(0);
                self.reporter
                    .show(&format!("eight: answering from line {line}: {seconds} s"));
            }
        };
        if shown > 0 {
            self.reporter.show("");
        }
        Ok(answers)
    }

    /// Whether a chunk of `--pairs` input presumed to start `at` starts
    /// there.
    fn starts_right(&self, at: &PairsAt) -> bool {
        let truly = &self.pairs_read;
        at.boards == truly.boards && at.pending.is_some() == truly.pending.is_some()
    }

    /// A chunk of `--pairs` input, placed where it truly starts.
    fn truly_placed(&self, chunk: Chunk) -> Chunk {
        let lines = chunk.pairs.as_ref().map_or(0, |at| at.lines);
        Chunk {
            pairs: Some(PairsAt {
                lines,
                ..self.pairs_read.clone()
            }),
            ..chunk
        }
    }

    /// Writes a batch's answers and reports its messages; then its failure,
    /// if it met one after those answers.
    fn write(&mut self, done: Done) -> Result<()> {
        // A data file changed while the answers were made (or before): none
        // of them can be trusted.
        if map::changed() {
            return Err(anyhow!(
                "a data file was changed or cut short while being read; the answers from then \
                 on were dropped: run again once it is complete"
            ));
        }
        self.reporter.extend(&done.errors);
        self.invalid |= done.invalid;
        if done.out.len() < IO_BUFFER / 4 {
            self.out
                .write_all(&done.out)
                .context("cannot write stdout")?;
        } else {
            // Large answers go out as they are, not copied into the buffer
            // first: a chunk's answers mostly fit it, so were copied.
            self.out.flush().context("cannot write stdout")?;
            self.out
                .get_mut()
                .write_all(&done.out)
                .context("cannot write stdout")?;
        }
        done.fatal.map_or(Ok(()), Err)?;
        check(self.host)
    }

    /// Answers every job so far, writes the answers and flushes them.
    fn drain(&mut self) -> Result<()> {
        self.check()?;
        if self.sent == self.written && self.batch_size > 1 {
            // Little input: answer it here rather than wake the workers
            // (searches go to the workers, so that their answers stream).
            let done = answer_batch(&self.batch, &self.shared, self.style, &mut self.scratch);
            self.batch.clear();
            self.write(done)?;
        } else if !self.batch.is_empty() {
            self.send_batch()?;
        }
        while self.written < self.sent {
            self.write_next()?;
        }
        self.flush()
    }

    /// Writes out the messages and answers written so far.
    fn flush(&mut self) -> Result<()> {
        self.reporter.flush();
        self.out.flush().context("cannot write stdout")
    }
}
