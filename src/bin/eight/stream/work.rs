//! The work a worker is given (jobs, or a chunk of raw input) and what it
//! gives back (a batch's answers, and what went wrong).

use std::sync::mpsc;

use crate::stream::render::{Job, Rejected};
use eight::{Board, Layout};

/// A batch's answers, and what to report with them.
#[derive(Default)]
pub(super) struct Done {
    pub(super) out: Vec<u8>,
    /// The messages for its invalid boards, whole lines.
    pub(super) errors: Vec<u8>,
    /// Some board was invalid.
    pub(super) invalid: bool,
    /// Some good board was left unanswered for want of data.
    pub(super) unanswered: bool,
    /// A failure that makes every later answer untrustworthy.
    pub(super) fatal: Option<anyhow::Error>,
    /// A chunk that met a goal no solver was loaded for: to answer again
    /// once it is.
    pub(super) retry: Option<(Chunk, Board)>,
    /// For a chunk of `--pairs` input: what it read, to check where it was
    /// presumed to start.
    pub(super) pairs: Option<PairsRead>,
    /// Where answers go ahead of the rest of the batch, if they may.
    pub(super) ahead: Option<Ahead>,
    /// Answers sent ahead: more of the batch follows.
    pub(super) part: bool,
}

/// Where a worker sends a chunk's answers ahead of the rest: each search's
/// answer as soon as it and those before it are made, so that slow answers
/// stream, from a file as from a pipe.
pub(super) struct Ahead {
    pub(super) number: u64,
    pub(super) answers: mpsc::Sender<(u64, Done)>,
}

impl Done {
    /// Notes what a line came to.
    pub(super) fn note(&mut self, mark: super::render::Mark) {
        self.invalid |= mark == super::render::Mark::Invalid;
        self.unanswered |= mark == super::render::Mark::Unanswered;
    }

    /// Sends the answers so far ahead of the rest of the batch, if they
    /// may go ahead.
    pub(super) fn send_ahead(&mut self) {
        let Some(ahead) = &self.ahead else {
            return;
        };
        let part = Done {
            out: std::mem::take(&mut self.out),
            errors: std::mem::take(&mut self.errors),
            invalid: self.invalid,
            unanswered: self.unanswered,
            part: true,
            ..Done::default()
        };
        let _ = ahead.answers.send((ahead.number, part));
    }

    /// Nothing yet, for the answers of `chunk`: room for twice its bytes,
    /// as answers run longer than boards (a 3x3 line of 18 bytes has an
    /// answer of 23 on average and 32 at most).
    pub(super) fn for_chunk(chunk: &Chunk) -> Done {
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
pub(super) struct PairsAt {
    pub(super) boards: u64,
    pub(super) pending: Option<(u64, Result<Board, Rejected>)>,
    /// The lines of the chunks up to this one's end, its own included, as
    /// [`board_lines`] counts them.
    pub(super) lines: u64,
}

/// What a chunk of `--pairs` input read: where it was presumed to start,
/// the chunk itself (to answer again if that was wrong), its boards, and the
/// start board left waiting at its end.
pub(super) struct PairsRead {
    pub(super) at: PairsAt,
    pub(super) chunk: Chunk,
    pub(super) boards: u64,
    pub(super) pending: Option<(u64, Result<Board, Rejected>)>,
}

/// Work for a worker: jobs made on the main thread, a chunk of raw input
/// to parse and answer, or a run of boards parsed already.
pub(super) enum Work {
    Jobs(Vec<Job>),
    Chunk(Chunk),
    Run(Run),
}

/// Boards parsed already, of one shape and from line `line` on, answered
/// in the plain form toward one goal by a solver that walks a table: as a
/// chunk's run is ([`answer_run`](super::chunk::answer_run)), with no job a
/// board.
pub(super) struct Run {
    pub(super) line: u64,
    pub(super) boards: Vec<Board>,
    pub(super) goal: Board,
    pub(super) solver: usize,
}

/// Raw input: whole lines from `line` on, starting with nothing pending and
/// ending with nothing pending (or at the end of input).
pub(super) struct Chunk {
    pub(super) bytes: Vec<u8>,
    pub(super) line: u64,
    /// The end of input: what is pending at its end is reported.
    pub(super) last: bool,
    /// For `--pairs` input: where the chunk starts among the boards.
    pub(super) pairs: Option<PairsAt>,
}

impl Chunk {
    /// The chunk from line `line` on, one of its lines.
    pub(super) fn rest_from(mut self, line: u64) -> Chunk {
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
pub(super) struct Reading {
    pub(super) layout: Layout,
    pub(super) goal: Option<Board>,
}
