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

use std::fmt::Display;
use std::io::Write;

use anyhow::Result;

use crate::stream::chunk::other_shapes;
use crate::stream::input::{FULL_READ, Input};
use crate::stream::judge::{JudgeLine, JudgeLines, MAX_HEAD};
use crate::stream::pipeline::{Pipeline, Unavailable};
use crate::stream::render::{Form, Job, Judged, Rejected};
use crate::stream::report::Reporter;
use crate::stream::work::{Chunk, Work};
use crate::stream::{Config, Finish, Host, Io, StreamError};
use eight::Board;
use eight::Solvers;
use eight::Walk;
use eight::{Item, Parser};

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
    solvers: &mut Solvers,
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
    let reporter = Reporter::new(errors, errors_piece, errors_terminal);
    let input = Input::new(input, input_fd, host);
    answer_with(config, solvers, output, reporter, host, |session| {
        answer_all(session, input)
    })
}

/// Answers `boards`, parsed already, as [`run`] answers them read a line
/// each (a board's line is its place in `boards`, from 1): no text between.
pub(crate) fn run_boards(
    config: Config,
    solvers: &mut Solvers,
    boards: &[Board],
    output: &mut Vec<u8>,
    errors: &mut Vec<u8>,
    host: &'static dyn Host,
) -> Result<Finish, StreamError> {
    let reporter = Reporter::new(Box::new(errors), super::report::WHOLE, false);
    answer_with(
        config,
        solvers,
        Box::new(output),
        reporter,
        host,
        |session| {
            // Looked at whether to stop as often as a block of input would be.
            for (lines, block) in (1..).step_by(CHECK_EVERY).zip(boards.chunks(CHECK_EVERY)) {
                session.take_boards(lines, block);
                session.check()?;
            }
            session.check()
        },
    )
}

/// The fewest boards of a shape in a row sent to the workers as they are.
const MIN_RUN: usize = 64;

/// Boards taken between two looks at whether to stop.
const CHECK_EVERY: usize = 1 << 12;

/// A session of `config` answering into `output`, fed by `feed`; then its
/// end. Whatever ends it, every answer made before is written first.
fn answer_with<'a>(
    config: Config,
    solvers: &'a mut Solvers,
    output: Box<dyn Write + 'a>,
    reporter: Reporter<'a>,
    host: &'static dyn Host,
    feed: impl FnOnce(&mut Session<'a>) -> Result<()>,
) -> Result<Finish, StreamError> {
    // Data remade since an earlier run is read as it is now.
    solvers.refresh();
    let mut session = Session {
        pipeline: Pipeline::new(&config, solvers, output, reporter, host),
        pairs: config.pairs.then(Pairs::default),
        config,
        goal_cache: None,
        last_goal: None,
        invalid: false,
        unanswered: false,
        unavailable: Vec::new(),
        fatal: None,
    };
    let answered = feed(&mut session);
    if answered.is_err() {
        // The answers made before the failure still go out, and so do the
        // messages.
        let _ = session.pipeline.out.flush();
        session.pipeline.reporter.flush();
    }
    answered.map_err(StreamError::new)?;
    session.finish().map_err(StreamError::new)
}

/// Reads, parses and answers all of stdin.
pub(super) fn answer_all(session: &mut Session<'_>, mut input: Input) -> Result<()> {
    let mut count = match session.config.pairs {
        true => CountLine::Waiting(Vec::new()),
        false => CountLine::Done,
    };
    let mut parser = Parser::new(session.config.layout);
    if session.config.judge {
        let keep_letters = session.config.style.form != Form::Plain || session.config.style.analyse;
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
pub(super) const MAX_CARRY: usize = 1 << 20;

/// Answers large input in chunks: raw bytes cut after a line that leaves
/// the parser with nothing pending (a line that is no grid row), parsed and
/// answered by the workers, each with a parser starting at its first line.
/// Returns what is left to read on the main thread, and its first line, if
/// the input has no clean cut for [`MAX_CARRY`] bytes.
///
/// With `--pairs`, `first` follows the count line and starts on line
/// `line`; each chunk is presumed to start after one board a line (see
/// [`PairsAt`]).
pub(super) fn answer_chunked(
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

/// The count line that opens `--pairs` input.
pub(super) enum CountLine {
    /// Not read yet: the input so far.
    Waiting(Vec<u8>),
    Done,
}

impl CountLine {
    /// Reads the count line from the input so far, once it is all there (or
    /// at the end of input): tells the session the count, or that there is
    /// none, and sets the parser to start after it. Returns the input left
    /// for the parser.
    pub(super) fn resolve(
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
            Err(why) => {
                let shown: String = text.trim().chars().take(40).collect();
                session.pairs_mut().announced = Some((line, None));
                if Board::parse_in(layout, text.as_bytes()).is_ok() {
                    // No count: read the line as the first board, so that
                    // the pairs after it stay paired as they were written.
                    session.report(
                        line,
                        &format!("expected the number of cases first, found the board {shown:?}"),
                    );
                    *parser = Parser::starting_at(layout, line);
                    return Some(head[start..].to_vec());
                }
                // A count that cannot be read is still the count line: the
                // pairs after it stay pairs.
                let why = match why.kind() {
                    std::num::IntErrorKind::PosOverflow => "too large",
                    _ => "not a whole number of cases",
                };
                session.report(
                    line,
                    &format!(
                        "the number of cases {shown:?} is {why}; the pairs after it are answered"
                    ),
                );
                *parser = Parser::starting_at(layout, line + 1);
                Some(head[after..].to_vec())
            }
        }
    }
}

/// The state of `--pairs` input.
#[derive(Debug, Default)]
pub(super) struct Pairs {
    /// The line of the count, and the count if it was readable.
    pub(super) announced: Option<(u64, Option<u64>)>,
    /// Cases so far.
    pub(super) cases: u64,
    /// A start board (or why it is invalid) waiting for its target, and its
    /// line.
    pub(super) start: Option<(u64, Result<Board, Rejected>)>,
}

/// Turns parsed items into jobs, reporting what is wrong.
pub(super) struct Session<'a> {
    pub(super) config: Config,
    /// The usual goal of the last shape seen.
    pub(super) goal_cache: Option<Board>,
    /// The last goal, and its solver.
    pub(super) last_goal: Option<(Board, usize)>,
    pub(super) pipeline: Pipeline<'a>,
    pub(super) pairs: Option<Pairs>,
    /// Some board was invalid.
    pub(super) invalid: bool,
    /// Some good board was left unanswered for want of data.
    pub(super) unanswered: bool,
    /// The goals whose solvers could not be had, said once each.
    pub(super) unavailable: Vec<Board>,
    /// A failure met while taking items, reported by `check`.
    pub(super) fatal: Option<anyhow::Error>,
}

impl Session<'_> {
    pub(super) fn take(&mut self, item: Item) {
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

    /// Takes `boards`, parsed already, from line `line` on: the runs of one
    /// shape that a table answers in the plain form go to the workers as
    /// they are, with no job a board; every other board as [`Session::take`]
    /// takes it.
    pub(super) fn take_boards(&mut self, mut line: u64, mut boards: &[Board]) {
        let plain = self.config.style.runs() && self.pairs.is_none() && !self.config.judge;
        while let Some(first) = boards.first() {
            let shape = first.shape();
            let same = boards.iter().take_while(|b| b.shape() == shape).count();
            let (run, rest) = boards.split_at(same);
            let walker = match plain && run.len() >= MIN_RUN && self.fatal.is_none() {
                true => self.table_walker(first),
                false => None,
            };
            match walker {
                Some((goal, index)) => {
                    if let Err(err) = self.pipeline.send_run(line, run, goal, index) {
                        self.fatal = Some(err);
                    }
                }
                None => {
                    for (line, board) in (line..).zip(run) {
                        self.take(Item {
                            line,
                            result: Ok(*board),
                        });
                    }
                }
            }
            line += same as u64;
            boards = rest;
        }
    }

    /// The goal of `board` and the solver toward it, if the goal is of its
    /// shape and the solver walks a table; loading it if need be.
    fn table_walker(&mut self, board: &Board) -> Option<(Board, usize)> {
        let goal = match self.config.goal {
            Some(goal) => goal,
            None => self.usual_goal(board),
        };
        if goal.shape() != board.shape() {
            return None;
        }
        let index = match self.last_goal {
            Some((last, index)) if last == goal => index,
            // A goal that fails to load fails again, and is said, as each
            // board takes it.
            _ => self.load(&goal).ok()?,
        };
        self.last_goal = Some((goal, index));
        let searches = self.pipeline.shared.get(index)?.searches();
        (!searches).then_some((goal, index))
    }

    /// Takes one line of `--judge` input: a board, then its moves (blank
    /// letters, `-` for none) as the last token.
    pub(super) fn take_judged(&mut self, line: u64, text: JudgeLine<'_>) {
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
                let split = super::judge::split_judged(layout, text);
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
    pub(super) fn load_first_solver(&mut self, bytes: &[u8], line: u64) {
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
    pub(super) fn usual_goal(&mut self, board: &Board) -> Board {
        match self.goal_cache {
            Some(goal) if goal.shape() == board.shape() => goal,
            _ => *self.goal_cache.insert(Board::goal(board.shape())),
        }
    }

    /// Makes a job, with the solver for its goal.
    pub(super) fn push(
        &mut self,
        line: u64,
        case: Option<u64>,
        start: Result<Board, Rejected>,
        goal: Result<Board, Rejected>,
    ) {
        self.push_judged(line, case, start, goal, None);
    }

    /// Makes a job, with moves to judge if any, and the solver for its goal.
    pub(super) fn push_judged(
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
                        // Its boards get `unanswered`, the message said at
                        // the first of them; the run goes on.
                        Err(err) if err.is::<Unavailable>() => {
                            let said = self.unavailable.contains(&goal);
                            if !said {
                                self.unavailable.push(goal);
                            }
                            self.unanswered = true;
                            job.start = Err(Rejected::Unanswered {
                                line,
                                board: *start,
                                message: err.to_string().into(),
                                said,
                            });
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
    pub(super) fn load(&mut self, goal: &Board) -> Result<usize> {
        if self.pipeline.loaded(goal).is_none() {
            self.pipeline.drain()?;
        }
        self.pipeline.find(goal)
    }

    /// Once the chunks of `--pairs` input are sent: writes their answers,
    /// and takes the cases they read and the start board they leave
    /// waiting, if any.
    pub(super) fn end_pairs_chunks(&mut self) -> Result<()> {
        self.drain()?;
        let read = std::mem::take(&mut self.pipeline.pairs_read);
        let pairs = self.pairs_mut();
        pairs.cases = read.boards / 2;
        pairs.start = read.pending;
        Ok(())
    }

    pub(super) fn pairs_mut(&mut self) -> &mut Pairs {
        self.pairs
            .as_mut()
            .expect("count lines come only with --pairs")
    }

    /// Reports something wrong with the input as a whole on stderr.
    pub(super) fn report(&mut self, line: u64, message: &dyn Display) {
        self.pipeline.reporter.report(line, message);
        self.invalid = true;
    }

    /// Returns the first failure met while taking items, after writing the
    /// answers made before it.
    pub(super) fn check(&mut self) -> Result<()> {
        if let Some(err) = self.fatal.take() {
            self.pipeline.drain()?;
            return Err(err);
        }
        self.pipeline.check()
    }

    pub(super) fn drain(&mut self) -> Result<()> {
        self.check()?;
        self.pipeline.drain()
    }

    /// Reports what the end of input leaves unfinished, writes every answer,
    /// and picks the exit code.
    pub(super) fn finish(mut self) -> Result<Finish> {
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
        self.unanswered |= self.pipeline.unanswered;
        self.pipeline.reporter.flush();
        Ok(Finish {
            invalid: self.invalid,
            unanswered: self.unanswered,
        })
    }
}
