//! Korf's 100 random 15-puzzle instances, solved optimally with the mirror
//! lookup: first with the compact 6-6-3 databases built into the program,
//! then with the 7-8 databases of the data folder, on the same boards, and
//! how the two compare.
//!
//! Build the 7-8 databases first (under 3 minutes, 1.6 GB of memory):
//!
//! ```text
//! cargo run --release --bin eight-gen -- --shape 4x4 --blank 0
//! ```
//!
//! then run `cargo bench --bench korf`. It prints each instance's length,
//! nodes and time, checks every length against Korf's, and the totals;
//! without the 7-8 databases it says how to build them. The databases are
//! read from the data folder (`$EIGHT_DATA`, else the user's).
//! `KORF_PARTITION=builtin` or `KORF_PARTITION=7-8` runs one set only,
//! `KORF_PARTITION=5-5-5` other databases (built with `--partition`), and
//! `KORF_FIRST=10` solves only the first instances.

#[path = "../tests/common/mod.rs"]
mod common;

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use eight::data::DataFile;
use eight::{Board, DataDir, DataError, Metric, Shape, Solver, progress};

fn main() {
    let first: usize = std::env::var("KORF_FIRST").map_or(100, |n| n.parse().expect("a count"));
    let partitions = match std::env::var("KORF_PARTITION") {
        Ok(partition) => vec![partition],
        Err(_) => vec!["builtin".to_string(), "7-8".to_string()],
    };
    let mut runs = Vec::new();
    for partition in &partitions {
        if let Some(run) = solve_all(partition, first, partitions.len() == 1) {
            runs.push((partition, run));
        }
    }
    if let [(a, (a_time, a_nodes)), (b, (b_time, b_nodes))] = &runs[..] {
        println!(
            "{b} against {a}: {:.1}x as fast, {:.1}x fewer nodes",
            a_time.as_secs_f64() / b_time.as_secs_f64(),
            *a_nodes as f64 / *b_nodes as f64
        );
    }
}

/// Solves Korf's `first` instances with the databases of `partition` and
/// prints each and the totals; returns the time and the nodes. `None` if
/// the databases are missing and not `required` (it says how to build them).
fn solve_all(partition: &str, first: usize, required: bool) -> Option<(Duration, u64)> {
    let loading = Instant::now();
    let solver = if partition == "builtin" {
        Solver::builtin_for(Shape::FIFTEEN, 0, Metric::Stm)
            .expect("the program has 4x4 databases")
            .expect("the built-in databases load")
    } else {
        let sizes = DataFile::parse_sizes(partition).expect("KORF_PARTITION holds group sizes");
        let dir = DataDir::locate().expect("a data folder");
        match Solver::open(
            &Board::canonical(Shape::FIFTEEN, 0),
            &eight::Options::new()
                .with_data(Ok(dir.clone()))
                .with_partition(sizes.clone()),
        ) {
            Ok(solver) => solver,
            Err(err @ DataError::Missing { .. }) if !required => {
                eprintln!("{err}");
                return None;
            }
            Err(err) => {
                eprintln!("{err}");
                std::process::exit(1);
            }
        }
    };
    let load_time = loading.elapsed();
    // Korf's goal: the blank first.
    let goal = Board::canonical(Shape::FIFTEEN, 0);

    let instances: Vec<(Board, usize)> = common::korf()
        .into_iter()
        .take(first)
        .map(|(cells, length)| (Board::from_cells(Shape::FIFTEEN, &cells).unwrap(), length))
        .collect();
    let results: Vec<Mutex<Option<(usize, u64, Duration)>>> =
        instances.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some((board, _)) = instances.get(index) else {
                        return;
                    };
                    let one = Instant::now();
                    let nodes = std::rc::Rc::new(std::cell::Cell::new(0));
                    let counted = nodes.clone();
                    let solution = progress::with(
                        move |deepening| counted.set(deepening.nodes),
                        || solver.solve_to(board, &goal).expect("the search ends"),
                    );
                    let nodes = nodes.get();
                    let moves = solution
                        .moves()
                        .expect("Korf's instances are solvable")
                        .len();
                    *results[index].lock().unwrap() = Some((moves, nodes, one.elapsed()));
                }
            });
        }
    });
    let total = started.elapsed();
    let mut nodes = 0;
    let mut wrong = 0;
    println!("instance length nodes time_ms");
    for (i, ((_, optimal), result)) in instances.iter().zip(&results).enumerate() {
        let (length, n, time) = result.lock().unwrap().expect("every instance is solved");
        nodes += n;
        wrong += usize::from(length != *optimal);
        println!(
            "{:>8} {length:>6} {n:>10} {:>8.1}",
            i + 1,
            time.as_secs_f64() * 1e3
        );
    }
    println!(
        "Korf's instances ({partition} databases): {} solved optimally, {nodes} nodes ({} per \
         instance), {:.3} s on {threads} threads; databases mapped and opened in {:.3} s",
        instances.len() - wrong,
        nodes / instances.len() as u64,
        total.as_secs_f64(),
        load_time.as_secs_f64()
    );
    assert_eq!(wrong, 0, "some answers are not of Korf's optimal length");
    Some((total, nodes))
}
