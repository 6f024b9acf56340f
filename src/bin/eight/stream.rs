//! The answering engine: boards in as text, answers out in input order.
//!
//! [`run`] reads boards from a reader and writes one answer per board to a
//! writer, in the order the boards came, whatever they hold: the moves, an
//! empty line at the goal, `unsolvable`, or `invalid` with a message
//! naming the line and what is wrong. It chooses the fastest way to answer
//! itself: boards toward one goal walked in interleaved groups, answers
//! derived from a goal's whole tree once many boards share it, `--pairs`
//! cases walked side by side, large input cut into chunks parsed and
//! answered on every core, searched boards one to a worker so that their
//! answers stream as they are found. Answers are flushed whenever the input
//! waits, so a program driving the engine line by line gets each answer at
//! once.
//!
//! The answers come from the library's batch ([`eight::Solver::solve_many`]
//! and its kin), rendered here: the plain form, `--length`, `--json`,
//! `--show`, the notations, `--pairs` and `--judge` are the program's.
//! [`Solvers`] loads each goal's data on first use, from the built-in data
//! or a [`DataDir`](eight::data::DataDir), and keeps it for later runs. A
//! [`Host`] tells the engine whether to stop, runs its threads and hears of
//! its progress: the program's host stops at SIGINT and SIGTERM; [`Quiet`]
//! (the server's) never stops and tells nothing.

mod batch;
mod chunk;
mod engine;
mod input;
mod judge;
mod pairs;
mod pipeline;
mod render;
mod report;
mod work;

use std::fmt;
use std::io::{self, Read, Write};
use std::os::fd::RawFd;
use std::thread;

use eight::SolveError;
use eight::progress::Deepening;
use eight::{Board, Layout};
use eight::{Solver, Solvers};

pub use crate::stream::engine::run;
pub use crate::stream::render::{Form, Style};

/// How the boards are read and answered.
#[derive(Clone, Debug)]
pub struct Config {
    /// The boards' shapes.
    pub layout: Layout,
    /// The goal of every board, if one was given; else each shape's usual
    /// goal, the tiles in order with the blank last.
    pub goal: Option<Board>,
    /// HDU 3567 input: a count, then pairs of start and target boards,
    /// answered `Case k: d` and the moves.
    pub pairs: bool,
    /// Each line a board and moves to judge.
    pub judge: bool,
    /// How answers are written.
    pub style: Style,
}

impl Config {
    /// Boards of `layout`, each answered with its moves toward its shape's
    /// usual goal, a line each.
    pub fn new(layout: Layout) -> Config {
        Config {
            layout,
            goal: None,
            pairs: false,
            judge: false,
            style: Style::default(),
        }
    }
}

/// Where the engine reads boards and writes answers and messages.
pub struct Io<'a> {
    input: Box<dyn Read + Send>,
    /// The input's descriptor, waited on with `poll` so that a wait looks
    /// at [`Host::stopped`] while it lasts.
    input_fd: Option<RawFd>,
    output: Box<dyn Write + 'a>,
    errors: Box<dyn Write + 'a>,
    /// The most bytes one write of messages holds (whole lines): small into
    /// a pipe, so that they never mix with another writer's.
    errors_piece: usize,
    /// Long waits are shown on the messages' last line.
    errors_terminal: bool,
}

impl<'a> Io<'a> {
    /// Boards from `input` (read on a thread of its own once it comes
    /// faster than it is answered), answers to `output`, messages to
    /// `errors`.
    pub fn new(
        input: impl Read + Send + 'static,
        output: impl Write + 'a,
        errors: impl Write + 'a,
    ) -> Io<'a> {
        Io {
            input: Box::new(input),
            input_fd: None,
            output: Box::new(output),
            errors: Box::new(errors),
            errors_piece: report::WHOLE,
            errors_terminal: false,
        }
    }
}

impl<'a> Io<'a> {
    /// The same, reading boards from `input` instead, its descriptor
    /// `input_fd` waited on if given.
    pub fn with_input(self, input: impl Read + Send + 'static, input_fd: Option<RawFd>) -> Io<'a> {
        Io {
            input: Box::new(input),
            input_fd,
            ..self
        }
    }

    /// The same, writing messages to `errors` instead, in the same pieces.
    pub fn with_errors(self, errors: impl Write + 'a) -> Io<'a> {
        Io {
            errors: Box::new(errors),
            ..self
        }
    }
}

impl Io<'static> {
    /// Stdin, stdout and stderr, as the `eight` program uses them: stdin
    /// polled while it waits; messages written so that they never mix with
    /// other writers' in a pipe, and a long wait shown on a terminal.
    pub fn standard() -> Io<'static> {
        use std::io::IsTerminal;
        use std::os::fd::AsRawFd;
        Io {
            input: Box::new(io::stdin()),
            input_fd: Some(io::stdin().as_raw_fd()),
            output: Box::new(io::stdout().lock()),
            errors: Box::new(io::stderr()),
            errors_piece: report::piece_for_stderr(),
            errors_terminal: io::stderr().is_terminal(),
        }
    }
}

impl fmt::Debug for Io<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Io")
            .field("input_fd", &self.input_fd)
            .field("errors_piece", &self.errors_piece)
            .field("errors_terminal", &self.errors_terminal)
            .finish_non_exhaustive()
    }
}

/// What the program around the engine decides: whether to stop, how
/// threads start, and what to tell of data being proven or loaded.
pub trait Host: eight::Loading {
    /// The signal (or other cause, as a number) that asks the run to stop,
    /// if one came. The engine looks at it whenever it waits and after each
    /// batch it writes, and then ends after every finished answer with
    /// [`StreamError::stopped`].
    fn stopped(&self) -> Option<i32> {
        None
    }

    /// Runs `work`, which cannot look at [`Host::stopped`] (loading data,
    /// which may take minutes to prove), with every answer so far written.
    fn at_once(&self, work: &mut dyn FnMut()) {
        work()
    }

    /// Starts one of the engine's threads.
    fn spawn(&self, work: Box<dyn FnOnce() + Send>) -> thread::JoinHandle<()> {
        thread::spawn(work)
    }

    /// A search on one of the engine's threads deepened, or ended
    /// ([`crate::progress`]).
    fn searching(&self, deepening: &Deepening) {
        let _ = deepening;
    }
}

/// A [`Host`] that never stops the run and tells nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Host for Quiet {}

impl eight::Loading for Quiet {}

/// How a run ended that answered every board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finish {
    /// Some board (or the input as a whole) was invalid.
    pub invalid: bool,
    /// Some good board was left `unanswered`: its data is missing or
    /// refused here (the message names the command that makes it).
    pub unanswered: bool,
}

/// Why a run ended before its input did. Every answer made before it is
/// written first.
#[derive(Debug)]
pub struct StreamError(anyhow::Error);

impl StreamError {
    /// Whether the answers' reader went away (a broken pipe): a run ends
    /// quietly then.
    pub fn is_broken_pipe(&self) -> bool {
        self.0.chain().any(|cause| {
            cause
                .downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
        })
    }
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for StreamError {}

impl StreamError {
    /// The run's failure, with what led to it.
    pub(crate) fn new(err: anyhow::Error) -> StreamError {
        StreamError(err)
    }
}

/// The answers of a batch of boards ([`answer_boards`]), one line each, in
/// order.
#[derive(Clone, Debug, Default)]
pub struct Answers {
    /// The answers, a line each, as [`run`] writes them.
    pub text: Vec<u8>,
    /// The messages, a line each (none unless some answer is `invalid` or
    /// `unanswered`).
    pub messages: Vec<u8>,
    /// Some answer is `invalid`.
    pub invalid: bool,
    /// Some answer is `unanswered`: its data is missing or refused here.
    pub unanswered: bool,
}

/// Answers `boards`, in order, exactly as [`run`] answers them read one a
/// line (a board's line is its place, from 1), with no text between: on
/// every core, each the fastest way, in the style of `config`. Boards of
/// any shapes may be mixed; each goes toward `config.goal`, else its
/// shape's usual goal.
///
/// # Errors
///
/// As [`run`]: missing or wrong data, or `host` asking the run to stop.
pub fn answer_boards(
    boards: &[Board],
    mut config: Config,
    solvers: &mut Solvers,
    host: &'static dyn Host,
) -> Result<Answers, StreamError> {
    let first = boards.first().map(Board::shape);
    config.layout = match first {
        Some(shape) if boards.iter().all(|board| board.shape() == shape) => Layout::Fixed(shape),
        _ => Layout::Auto,
    };
    let mut answers = Answers::default();
    let finish = engine::run_boards(
        config,
        solvers,
        boards,
        &mut answers.text,
        &mut answers.messages,
        host,
    )?;
    answers.invalid = finish.invalid;
    answers.unanswered = finish.unanswered;
    Ok(answers)
}

/// Answers the boards of `input`, text a board a line (or as the input
/// rule reads it), as [`run`] answers them, and returns the answers.
///
/// # Errors
///
/// As [`run`].
pub fn answer_text(
    input: Vec<u8>,
    config: Config,
    solvers: &mut Solvers,
    host: &'static dyn Host,
) -> Result<Answers, StreamError> {
    let mut answers = Answers::default();
    let io = Io::new(
        io::Cursor::new(input),
        &mut answers.text,
        &mut answers.messages,
    );
    let finish = engine::run(config, solvers, io, host)?;
    answers.invalid = finish.invalid;
    answers.unanswered = finish.unanswered;
    Ok(answers)
}

/// A solver's data failed while it answered: the run ends.
#[derive(Debug, thiserror::Error)]
#[error("{solver}: {error}")]
pub(crate) struct Failed {
    /// The solver, described.
    solver: String,
    /// What failed.
    error: SolveError,
}

/// The error that ends a run when `solver` fails with `error`.
pub(crate) fn failed(solver: &Solver, error: SolveError) -> anyhow::Error {
    anyhow::Error::new(Failed {
        solver: solver.describe(),
        error,
    })
}

/// The run was stopped by [`Host::stopped`], after every finished answer.
#[derive(Debug, thiserror::Error)]
#[error("stopped by signal {0}")]
struct Stopped(i32);

/// The number a run stopped by its solvers' [`Stop`](eight::Stop) is told
/// by: SIGINT's, as if interrupted.
const SIGINT: i32 = 2;

/// Fails with [`Stopped`] if the host asks the run to stop.
fn check(host: &dyn Host) -> anyhow::Result<()> {
    host.stopped()
        .map_or(Ok(()), |signal| Err(Stopped(signal).into()))
}
