//! Work shared among the cores: a search cut into subtrees, searched in
//! the order the search in one piece meets them (the first subtree that
//! holds an answer gives it, so answers and counts do not depend on the
//! threads), and a queue of independent items.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// The number of threads work is shared among: the cores this process may
/// use, read once (on Linux the count reads files of the control groups,
/// tens of microseconds a call).
pub(crate) fn threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Searches `tasks` on `threads` threads (this one among them), each
/// thread taking the next task not taken. `search` is handed a task, its
/// index, and the index of the first task found to hold an answer so far
/// (`usize::MAX` while none has), after which it may stop: no answer there
/// is given. Tasks after one found are not searched.
///
/// Returns the results in the tasks' order, each task up to the first
/// whose result `found` holds searched.
pub(crate) fn in_order<T: Sync, R: Send>(
    tasks: &[T],
    threads: usize,
    search: impl Fn(&T, usize, &AtomicUsize) -> R + Sync,
    found: impl Fn(&R) -> bool + Sync,
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let first = AtomicUsize::new(usize::MAX);
    let results: Vec<Mutex<Option<R>>> = tasks.iter().map(|_| Mutex::new(None)).collect();
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(task) = tasks.get(i) else {
                return;
            };
            if i > first.load(Ordering::Relaxed) {
                continue;
            }
            let result = search(task, i, &first);
            if found(&result) {
                first.fetch_min(i, Ordering::Relaxed);
            }
            *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            // A thread that cannot start leaves its share to the others.
            let _ = std::thread::Builder::new().spawn_scoped(scope, work);
        }
        work();
    });
    results
        .into_iter()
        .map(|result| result.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// `work(i)` for every `i` in `0..n`, on `threads` threads (this one
/// among them), each taking the next `i` not taken: the results in order.
/// For items of very different cost, such as one search a board.
pub(crate) fn each<R: Send>(n: usize, threads: usize, work: impl Fn(usize) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<R>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let run = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                return;
            }
            let result = work(i);
            *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.min(n) {
            // A thread that cannot start leaves its share to the others.
            let _ = std::thread::Builder::new().spawn_scoped(scope, run);
        }
        run();
    });
    results
        .into_iter()
        .map(|result| {
            result
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("every item is worked")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whatever the threads, every task up to the first found is searched
    /// and the first found is the lowest, even when later tasks finish
    /// first.
    #[test]
    fn the_first_task_found_is_the_lowest_whatever_the_threads() {
        let tasks: Vec<u64> = (0..200).collect();
        for threads in [1, 2, 3, 8] {
            let results = in_order(
                &tasks,
                threads,
                |&task, _, _| {
                    // Early tasks take longest.
                    std::thread::sleep(std::time::Duration::from_micros(200 - task));
                    task
                },
                |&task| task % 37 == 36,
            );
            assert!(
                results[..=36]
                    .iter()
                    .enumerate()
                    .all(|(i, r)| *r == Some(i as u64))
            );
            let first = results.iter().position(|r| r.is_some_and(|t| t % 37 == 36));
            assert_eq!(first, Some(36), "{threads} threads");
        }
    }

    #[test]
    fn each_item_is_worked_once_in_order() {
        for threads in [1, 2, 5] {
            let squares = each(100, threads, |i| i * i);
            assert!(squares.iter().enumerate().all(|(i, &s)| s == i * i));
        }
        assert!(each(0, 3, |i| i).is_empty());
    }
}
