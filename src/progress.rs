//! Word of a search as it deepens, for whoever shows it: a search tells
//! the sink its thread runs under ([`with`]) each bound it starts and its
//! end. A thread without a sink hears nothing, and its searches do not
//! look at the clock.

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

use crate::shape::Shape;

/// How far a search has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deepening {
    /// The board's shape.
    pub shape: Shape,
    /// The bound being searched: no answer is shorter.
    pub bound: u32,
    /// The positions searched so far.
    pub nodes: u64,
    /// The positions looked at so far, within the bound or over it: each
    /// searched position's next positions, the count of nodes generated
    /// that Korf and Felner give for their searches.
    pub generated: u64,
    /// The time since the search started.
    pub elapsed: Duration,
    /// Whether the search has ended (answered, or failed): the last word.
    pub done: bool,
    /// Whether it ended with an answer, of `bound` moves.
    pub answered: bool,
}

/// How far the search has come, in words: `searching 48 moves or more,
/// 12000000 positions in 4.0 s (3.0 million a second), 25000000
/// generated`, or at its end `answered in 48 moves: …` (`ended in the
/// bound of 48 moves without an answer: …`).
impl std::fmt::Display for Deepening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let seconds = self.elapsed.as_secs_f64();
        let rate = self.nodes as f64 / seconds.max(1e-9) / 1e6;
        match (self.done, self.answered) {
            (false, _) => write!(f, "searching {} moves or more", self.bound)?,
            (true, true) => write!(f, "answered in {} moves:", self.bound)?,
            (true, false) => write!(
                f,
                "ended in the bound of {} moves without an answer:",
                self.bound
            )?,
        }
        let sep = if self.done { "" } else { "," };
        write!(
            f,
            "{sep} {} positions in {seconds:.1} s ({rate:.1} million a second), {} generated",
            self.nodes, self.generated
        )
    }
}

/// How far making data has come, as every builder tells it: the part
/// being made (`boards`, `goals`, a database's tiles), its steps done,
/// their number, and the depth its breadth-first search has reached.
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    /// What is being made.
    pub part: &'a str,
    /// Steps done.
    pub done: u64,
    /// Steps in all.
    pub total: u64,
    /// The depth of the breadth-first search reached, if it has one.
    pub depth: Option<u32>,
}

/// A sink of [`Deepening`]s.
type Sink = Box<dyn Fn(&Deepening)>;

thread_local! {
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// Runs `work` with `report` told how every search this thread makes
/// meanwhile deepens: each bound as it starts, then its end. The sink
/// before is back afterwards.
pub fn with<R>(report: impl Fn(&Deepening) + 'static, work: impl FnOnce() -> R) -> R {
    let _installed = install(report);
    work()
}

/// Tells `report` how every search this thread makes deepens, until the
/// guard returned is dropped; the sink before is then back.
#[must_use = "the sink is removed when the guard is dropped"]
fn install(report: impl Fn(&Deepening) + 'static) -> Installed {
    let before = SINK.with(|sink| sink.borrow_mut().replace(Box::new(report)));
    Installed { before }
}

/// A sink installed on this thread by [`install`], until dropped.
struct Installed {
    before: Option<Sink>,
}

impl Drop for Installed {
    fn drop(&mut self) {
        let before = self.before.take();
        let _ = SINK.try_with(|sink| *sink.borrow_mut() = before);
    }
}

/// One search's reports; its end is told when it is dropped.
pub(crate) struct Reporter {
    shape: Shape,
    started: Instant,
    bound: Cell<u32>,
    nodes: Cell<u64>,
    generated: Cell<u64>,
    answered: Cell<bool>,
}

impl Reporter {
    /// The reports of a search of a board of `shape`, if this thread has a
    /// sink.
    pub(crate) fn start(shape: Shape) -> Option<Reporter> {
        let listened = SINK
            .try_with(|sink| sink.try_borrow().is_ok_and(|sink| sink.is_some()))
            .unwrap_or(false);
        listened.then(|| Reporter {
            shape,
            started: Instant::now(),
            bound: Cell::new(0),
            nodes: Cell::new(0),
            generated: Cell::new(0),
            answered: Cell::new(false),
        })
    }

    /// The search starts `bound`, `nodes` searched so far and `generated`
    /// looked at. A bound below one told before (a search starting again
    /// with a stronger estimate) tells the larger.
    pub(crate) fn bound(&self, bound: u32, nodes: u64, generated: u64) {
        self.bound.set(self.bound.get().max(bound));
        self.nodes.set(nodes);
        self.generated.set(generated);
        self.tell(false);
    }

    /// The search ends with an answer of `moves` moves, `nodes` searched
    /// in all and `generated` looked at (a search dropped without it ended
    /// without an answer).
    pub(crate) fn end(&self, moves: u32, nodes: u64, generated: u64) {
        self.bound.set(moves);
        self.nodes.set(nodes);
        self.generated.set(generated);
        self.answered.set(true);
    }

    fn tell(&self, done: bool) {
        let deepening = Deepening {
            shape: self.shape,
            bound: self.bound.get(),
            nodes: self.nodes.get(),
            generated: self.generated.get(),
            elapsed: self.started.elapsed(),
            done,
            answered: done && self.answered.get(),
        };
        let _ = SINK.try_with(|sink| {
            if let Ok(sink) = sink.try_borrow()
                && let Some(report) = sink.as_ref()
            {
                report(&deepening);
            }
        });
    }
}

impl Drop for Reporter {
    fn drop(&mut self) {
        self.tell(true);
    }
}
