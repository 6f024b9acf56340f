//! The distances a player may ask next, searched while the player thinks.
//!
//! The page asks the distance of each board a player reaches, and each is
//! one move from the last. Once a searched distance is answered, the
//! boards one move from it are searched on the idle cores, and their
//! distances kept by the solver (which answers a kept distance at once):
//! a multi-tile 4x4 move costs up to seconds with the data built in.
//! A request for the board being searched ahead waits for that search,
//! whose work would be lost if stopped; any other request that searches
//! stops the work ahead first, so it never waits for it.
//!
//! A player's multi-tile moves also make the search stronger, once: the
//! databases of larger groups are made beside the searches (see
//! `Solver::strengthen`), for at most [`STRONGER_CELLS`] goal cells.

use std::sync::{Arc, Mutex};

use eight::{Board, Metric, Shape, Stop};
use tokio::sync::watch;

use super::Server;

/// A board searched ahead: the work's number, the board, its goal and its
/// metric.
type Searching = (u64, Board, Board, Metric);

/// The work ahead of the players, stopped by the next search asked.
pub(super) struct Ahead {
    /// The stop of the work running, and the number of the last work.
    running: Mutex<(Option<Stop>, u64)>,
    /// The board the work ahead searches now, if any.
    searching: watch::Sender<Option<Searching>>,
    /// The shapes and goal cells whose multi-tile search was made stronger,
    /// or tried: whether it holds the memory of stronger databases (made,
    /// or being made).
    stronger: Mutex<Vec<((Shape, usize), bool)>>,
}

/// The most goal cells whose multi-tile search a server makes stronger:
/// 115 MB each on 4x4.
const STRONGER_CELLS: usize = 2;

impl Default for Ahead {
    fn default() -> Ahead {
        Ahead {
            running: Mutex::default(),
            searching: watch::Sender::new(None),
            stronger: Mutex::default(),
        }
    }
}

impl Ahead {
    /// Stops the work ahead, if any runs.
    pub(super) fn stop(&self) {
        let running = self.running.lock().unwrap_or_else(|err| err.into_inner());
        if let Some(stop) = running.0.as_ref() {
            stop.stop();
        }
    }

    /// Waits until the work ahead no longer searches `board` toward `goal`
    /// in `metric`: at once if it does not now.
    pub(super) async fn finish(&self, board: Board, goal: Board, metric: Metric) {
        let mut searching = self.searching.subscribe();
        let now = |seen: &Option<Searching>| {
            seen.is_some_and(|(_, b, g, m)| (b, g, m) == (board, goal, metric))
        };
        // The work ahead ends within the server's time for a search, and
        // its sender lives as long as the server.
        let _ = searching.wait_for(|seen| !now(seen)).await;
    }

    /// The stop and number of new work ahead, the work before it stopped.
    fn start(&self) -> (Stop, u64) {
        let mut running = self.running.lock().unwrap_or_else(|err| err.into_inner());
        if let Some(stop) = running.0.take() {
            stop.stop();
        }
        let stop = Stop::new();
        running.0 = Some(stop.clone());
        running.1 += 1;
        (stop, running.1)
    }

    /// The goal cells made stronger, or tried ([`strengthen`]).
    fn stronger(&self) -> std::sync::MutexGuard<'_, Vec<((Shape, usize), bool)>> {
        self.stronger.lock().unwrap_or_else(|err| err.into_inner())
    }

    /// Says which board the work numbered `work` searches (`None`: none),
    /// unless newer work has said so since.
    fn tell(&self, work: u64, board: Option<(Board, Board, Metric)>) {
        self.searching.send_if_modified(|seen| {
            let newer = seen.is_some_and(|(number, ..)| number > work);
            if !newer {
                *seen = board.map(|(b, g, m)| (work, b, g, m));
            }
            !newer
        });
    }
}

/// Searches the distances of the boards one move from `board` toward
/// `goal` (a step of the blank, or in the multi-tile metric a run of
/// steps one way), one after the other, until stopped, and for no longer
/// in all than the server gives a search.
pub(super) fn search_beside(server: &Arc<Server>, board: Board, goal: Board, metric: Metric) {
    let (stop, work) = server.ahead.start();
    let stop = stop.after(server.search_limit);
    let mut solvers = server.solvers[&metric]
        .lock()
        .unwrap_or_else(|err| err.into_inner())
        .stopping(&stop);
    let server = Arc::clone(server);
    tokio::task::spawn_blocking(move || {
        let ahead = &server.ahead;
        if let Ok(solver) = solvers.get(&goal) {
            // The steps first: the arrow keys' moves.
            for next in metric.beside(&board) {
                if stop.is_stopped() {
                    break;
                }
                ahead.tell(work, Some((next, goal, metric)));
                // The distance is kept by the solver; an error (the search
                // stopped) keeps nothing.
                let _ = solver.lengths_many(&[next], &goal);
            }
        }
        ahead.tell(work, None);
    });
}

/// Makes the multi-tile search toward `goal` stronger (`Solver::strengthen`)
/// on a thread of its own, unless it was tried before or the server has
/// made [`STRONGER_CELLS`] goal cells so. No search waits for it, and no
/// request stops it: searches that start once it is made use it.
pub(super) fn strengthen(server: &Arc<Server>, goal: Board) {
    let cell = (goal.shape(), goal.blank());
    {
        let mut stronger = server.ahead.stronger();
        let held = stronger.iter().filter(|(_, holds)| *holds).count();
        if stronger.iter().any(|(other, _)| *other == cell) || held >= STRONGER_CELLS {
            return;
        }
        stronger.push((cell, true));
    }
    let solver = server.solvers[&Metric::Mtm]
        .lock()
        .unwrap_or_else(|err| err.into_inner())
        .get(&goal);
    let server = Arc::clone(server);
    tokio::task::spawn_blocking(move || {
        let made = solver.map(|solver| solver.strengthen(&goal));
        if !matches!(made, Ok(Ok(true))) {
            // Nothing to make (databases read from a file) holds no memory.
            for (other, holds) in server.ahead.stronger().iter_mut() {
                *holds &= *other != cell;
            }
        }
    });
}
