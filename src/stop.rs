//! Asking a search to stop: from another thread, at a deadline, or both.
//!
//! Searches look at their [`Stop`] where they look for a changed data file
//! (every few thousand positions, well under a millisecond apart) and end
//! with [`SolveError::Stopped`](crate::answer::SolveError::Stopped); table walks
//! take microseconds and do not look.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A request to stop, shared by its clones: [`Stop::stop`] on any clone
/// stops every search that holds one, and a deadline stops them once it
/// passes.
///
/// ```
/// use eight::{Board, Metric, Shape, Solver, SolveError, Stop};
///
/// let solver = Solver::builtin_for(Shape::FIFTEEN, 15, Metric::Stm).expect("built in")?;
/// let far: Board = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1".parse()?;
/// let stop = Stop::new();
/// stop.stop();
/// let stopped = solver.stopping(stop).solve(&far);
/// assert!(matches!(stopped, Err(SolveError::Stopped)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Stop {
    asked: Arc<AtomicBool>,
    deadline: Option<Instant>,
}

impl Stop {
    /// A stop not asked for, with no deadline.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// The same stop, asked for once `limit` has passed from now too.
    pub fn after(self, limit: Duration) -> Stop {
        let deadline = Instant::now().checked_add(limit);
        Stop {
            deadline: match (self.deadline, deadline) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            ..self
        }
    }

    /// Asks every search holding a clone of this stop to stop.
    pub fn stop(&self) {
        self.asked.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for, or the deadline passed.
    pub fn is_stopped(&self) -> bool {
        self.asked.load(Ordering::Relaxed)
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// Whether [`Stop::stop`] was called (not only the deadline passed).
    pub fn was_asked(&self) -> bool {
        self.asked.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_stops_the_original_and_a_deadline_stops_on_its_own() {
        let stop = Stop::new();
        let clone = stop.clone();
        assert!(!stop.is_stopped());
        clone.stop();
        assert!(stop.is_stopped() && stop.was_asked());
        let timed = Stop::new().after(Duration::ZERO);
        assert!(timed.is_stopped() && !timed.was_asked());
        let later = Stop::new().after(Duration::from_secs(3600));
        assert!(!later.is_stopped());
        // The earlier deadline holds.
        assert!(later.after(Duration::ZERO).is_stopped());
    }
}
