//! `--pairs` input in chunks: its cases answered as their boards are
//! parsed, runs of them walked side by side.

use std::sync::Arc;

use anyhow::Result;

use crate::stream::batch::answer_into;
use crate::stream::chunk::{answer_jobs, other_shapes, solver_for};
use crate::stream::render::{self, Job, Rejected, Scratch, Style};
use crate::stream::work::{Chunk, Done, PairsRead, Reading};
use eight::Board;
use eight::Solver;
use eight::{Item, Parser};

/// Parses a chunk of `--pairs` input and answers its cases, numbered from
/// where the chunk is said to start; the first board completes the case
/// waiting there, if any. If a target's goal has no solver among
/// `solvers`, gives the chunk back to answer once one is loaded.
///
/// In the plain form, cases of two good boards go in runs straight to the
/// walks ([`render::answer_plain_cases`]); anything else becomes a job,
/// answered in order.
pub(super) fn answer_pairs_chunk(
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
pub(super) struct PairsAnswers<'a> {
    pub(super) solvers: &'a [Arc<Solver>],
    pub(super) style: Style,
    pub(super) scratch: &'a mut Scratch,
    pub(super) done: Done,
    /// The boards read, and the number of the last case.
    pub(super) boards: u64,
    pub(super) case: u64,
    /// The start of the case under way, with its line.
    pub(super) pending: Option<(u64, Result<Board, Rejected>)>,
    pub(super) run: CaseRun,
    pub(super) jobs: Vec<Job>,
    pub(super) last_goal: Option<(Board, usize)>,
    /// A goal with no solver loaded: the chunk goes back.
    pub(super) missing: Option<Board>,
}

impl PairsAnswers<'_> {
    /// Takes the next board: the start of a case waits for its target, and
    /// a case of two good boards joins the run, here, inlined into the
    /// parser's loop (a call for each board cost about 9 instructions more:
    /// 179.6 against 177.9 million for 100,000 cases).
    #[inline(always)]
    pub(super) fn take(&mut self, item: Item) {
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
    pub(super) fn take_other(&mut self, item: Item) {
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
    pub(super) fn finish(&mut self) -> Done {
        let (solvers, style) = (self.solvers, self.style);
        self.run
            .answer(solvers, style, self.scratch, &mut self.done);
        answer_jobs(&mut self.jobs, solvers, style, self.scratch, &mut self.done);
        std::mem::take(&mut self.done)
    }
}

/// A run of `--pairs` cases in a row, each of two good boards, on one
/// solver: answered at once in the plain form.
pub(super) struct CaseRun {
    pub(super) starts: Vec<Board>,
    pub(super) goals: Vec<Board>,
    /// The line of each case's start, for the jobs they become if the run
    /// cannot be answered at once.
    pub(super) lines: Vec<u64>,
    /// The number of the first case.
    pub(super) first: u64,
    pub(super) solver: usize,
}

impl CaseRun {
    pub(super) fn with_capacity(cases: usize) -> CaseRun {
        CaseRun {
            starts: Vec::with_capacity(cases),
            goals: Vec::with_capacity(cases),
            lines: Vec::with_capacity(cases),
            first: 0,
            solver: 0,
        }
    }

    pub(super) fn push(&mut self, line: u64, case: u64, start: Board, goal: Board) {
        if self.starts.is_empty() {
            self.first = case;
        }
        self.starts.push(start);
        self.goals.push(goal);
        self.lines.push(line);
    }

    /// Answers the cases of the run into `done`, and empties it: at once if
    /// the solver's table walks them interleaved, else as jobs.
    pub(super) fn answer(
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

    pub(super) fn clear(&mut self) {
        self.starts.clear();
        self.goals.clear();
        self.lines.clear();
    }
}

/// The most bytes of `--pairs` input in one chunk: about 800 cases of one
/// board a line, so that a few chunks keep every core busy. Each chunk
/// costs the threads a wake and a wait: 16 KB chunks made 3,100 context
/// switches on 1,000,000 cases, these 1,800 (64 KB, 1,100, was slower on
/// 100,000 cases, as its last chunks keep one core alone).
pub(super) const PAIRS_CHUNK: usize = 32 * 1024;
