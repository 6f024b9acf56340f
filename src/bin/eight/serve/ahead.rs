//! The distances a player may ask next, searched while the player thinks.
//!
//! The page asks the distance of each board a player reaches, and each is
//! one move from the last. Once a searched distance is answered, the
//! boards one move from it are searched on the idle cores, and their
//! distances kept by the solver (which answers a kept distance at once):
//! a multi-tile 4x4 move costs up to seconds with the data built in.
//! Any request that searches stops the work ahead first, so it never
//! waits for it.

use std::sync::{Arc, Mutex};

use eight::{Board, Metric, Stop};

use super::Server;

/// The work ahead of the players, stopped by the next search asked.
#[derive(Default)]
pub(super) struct Ahead {
    running: Mutex<Option<Stop>>,
}

impl Ahead {
    /// Stops the work ahead, if any runs.
    pub(super) fn stop(&self) {
        let running = self.running.lock().unwrap_or_else(|err| err.into_inner());
        if let Some(stop) = running.as_ref() {
            stop.stop();
        }
    }

    /// The stop of new work ahead, the work before it stopped.
    fn start(&self) -> Stop {
        let mut running = self.running.lock().unwrap_or_else(|err| err.into_inner());
        if let Some(stop) = running.take() {
            stop.stop();
        }
        let stop = Stop::new();
        *running = Some(stop.clone());
        stop
    }
}

/// Searches the distances of the boards one move from `board` toward
/// `goal` (a step of the blank, or in the multi-tile metric a run of
/// steps one way), one after the other, until stopped, and for no longer
/// in all than the server gives a search.
pub(super) fn search_beside(server: &Arc<Server>, board: Board, goal: Board, metric: Metric) {
    let stop = server.ahead.start().after(server.search_limit);
    let mut solvers = server.solvers[&metric]
        .lock()
        .unwrap_or_else(|err| err.into_inner())
        .stopping(&stop);
    tokio::task::spawn_blocking(move || {
        let Ok(solver) = solvers.get(&goal) else {
            return;
        };
        // The steps first: the arrow keys' moves.
        for next in metric.beside(&board) {
            if stop.is_stopped() {
                return;
            }
            // The distance is kept by the solver; an error (the search
            // stopped) keeps nothing.
            let _ = solver.lengths_many(&[next], &goal);
        }
    });
}
