//! Chunks of raw input, parsed and answered on a worker: where input may be
//! cut, and the answers of a chunk's boards as they are parsed.

use std::sync::Arc;

use crate::stream::batch::answer_into;
use crate::stream::render::{self, Job, Rejected, Scratch, Style};
use crate::stream::work::{Ahead, Chunk, Done, Reading};
use eight::Shape;
use eight::Solver;
use eight::{Board, Layout};
use eight::{Item, Parser};

/// Where `bytes` may be cut: just after the last whole line that leaves a
/// parser with nothing pending, a line that is no row of a grid (a board,
/// a bad line, an empty line). Only the last few lines are looked at.
pub(super) fn clean_cut(bytes: &[u8], layout: Layout) -> Option<usize> {
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
pub(super) fn board_lines(bytes: &[u8]) -> u64 {
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
pub(super) fn is_row(line: &[u8], layout: Layout) -> bool {
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

/// Parses a chunk and answers its boards; if a board's goal has no solver
/// among `solvers`, gives the chunk back to answer once one is loaded.
///
/// Plain answers of boards toward one goal are written in runs straight
/// from the parsed boards; anything else becomes a job, answered in order.
pub(super) fn answer_chunk(
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
pub(super) struct ChunkAnswers<'a> {
    pub(super) solvers: &'a [Arc<Solver>],
    pub(super) style: Style,
    pub(super) reading: Reading,
    pub(super) scratch: &'a mut Scratch,
    pub(super) done: Done,
    /// A run of boards toward one goal, waiting to be answered together,
    /// and the goal with its solver.
    pub(super) run: Vec<Board>,
    pub(super) run_goal: Option<(Board, usize)>,
    pub(super) last_goal: Option<(Board, usize)>,
    /// A goal with no solver loaded, and the line of its board: the chunk
    /// from there goes back.
    pub(super) missing: Option<(Board, u64)>,
    /// Boards that do not go in runs, answered in order as jobs.
    pub(super) jobs: Vec<Job>,
    /// The shape whose boards join the run as they come, once one has: a
    /// board of that shape has the run's goal and solver (the fixed goal, or
    /// the shape's usual one), and nothing waits before the run.
    pub(super) fast: Option<Shape>,
}

impl ChunkAnswers<'_> {
    /// Takes the next board: most join the run here, in a few
    /// instructions inlined into the parser's loop (a call for each board
    /// cost about 31 more: 398 against 368 million instructions for
    /// 1,000,000 boards).
    #[inline(always)]
    pub(super) fn take(&mut self, item: Item) {
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
    pub(super) fn take_other(&mut self, item: Item) {
        self.fast = None;
        if self.missing.is_some() || self.done.fatal.is_some() {
            return;
        }
        // Rejected boards and runs alike are written at once in the forms
        // whose runs a table writes itself.
        let plain = self.style.runs();
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
    pub(super) fn flush_run(&mut self) {
        let Some((goal, index)) = self.run_goal else {
            return;
        };
        if self.run.is_empty() || self.done.fatal.is_some() {
            self.run.clear();
            return;
        }
        let (solvers, style) = (self.solvers, self.style);
        answer_run(
            &self.run,
            goal,
            index,
            solvers,
            style,
            self.scratch,
            &mut self.done,
        );
        self.run.clear();
    }

    /// Answers the jobs so far, in order.
    pub(super) fn flush_jobs(&mut self) {
        let (solvers, style) = (self.solvers, self.style);
        answer_jobs(&mut self.jobs, solvers, style, self.scratch, &mut self.done);
    }
}

/// Answers `run`, boards toward `goal` in the plain form, into `done`: the
/// derived answers at once if the table has them, else one by one.
pub(super) fn answer_run(
    run: &[Board],
    goal: Board,
    index: usize,
    solvers: &[Arc<Solver>],
    style: Style,
    scratch: &mut Scratch,
    done: &mut Done,
) {
    let solver = &solvers[index];
    match render::answer_plain_run(solver, style, run, &goal, scratch, &mut done.out) {
        Ok(answered) if answered == run.len() => {}
        Ok(answered) => {
            let jobs: Vec<Job> = run[answered..]
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
            answer_into(&jobs, solvers, style, scratch, done);
        }
        Err(err) => done.fatal = Some(err),
    }
}

/// Answers `jobs` in order into `done`, unless a failure came before, and
/// empties them.
pub(super) fn answer_jobs(
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
pub(super) fn solver_for(
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
pub(super) fn other_shapes(line: u64, start: &Board, goal: &Board) -> Option<Rejected> {
    // The message made out of line: every case asks.
    #[cold]
    #[inline(never)]
    pub(super) fn rejected(line: u64, start: &Board, goal: &Board) -> Rejected {
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
