//! Korf's 100 random 15-puzzle instances, solved optimally with the 7-8
//! pattern databases and the mirror lookup.
//!
//! Build the databases first (minutes, a few gigabytes of memory):
//!
//! ```text
//! cargo run --release --bin eight-gen -- --fifteen --blank 0
//! ```
//!
//! then run `cargo bench --bench korf`. It prints each instance's length,
//! nodes and time, checks every length against Korf's, and the totals.
//! `KORF_PARTITION=5-5-5` reads other databases (built with `--partition`),
//! `KORF_FOLDER` another folder, and `KORF_FIRST=10` solves only the first
//! instances.

use std::fs::File;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use eight::ida::Solver;
use eight::pdb::{self, PdbTable};
use eight::{Board, Shape};
use memmap2::Mmap;

const INSTANCES: &str = include_str!("../tests/data/korf100.txt");

fn main() {
    let partition = std::env::var("KORF_PARTITION").unwrap_or_else(|_| "7-8".into());
    let sizes = pdb::parse_sizes(&partition).expect("KORF_PARTITION holds group sizes");
    let folder = std::env::var("KORF_FOLDER")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/generated").into());
    let first: usize = std::env::var("KORF_FIRST").map_or(100, |n| n.parse().expect("a count"));
    let path = std::path::Path::new(&folder).join(pdb::file_name(&sizes, 0));
    let Ok(file) = File::open(&path) else {
        eprintln!(
            "{} is missing: run `cargo run --release --bin eight-gen -- --fifteen --partition \
             {partition} --blank 0 --out {folder}` first",
            path.display()
        );
        std::process::exit(1);
    };
    let loading = Instant::now();
    // SAFETY: the file is only read, and nothing writes it while this runs.
    let map = unsafe { Mmap::map(&file) }.expect("the databases map");
    let table = PdbTable::new(map).expect("the databases are valid");
    table.verify().expect("the databases are intact");
    let solver = Solver::new(table);
    let load_time = loading.elapsed();

    let instances: Vec<(Board, usize)> = INSTANCES
        .lines()
        .filter(|line| !line.trim().is_empty())
        .take(first)
        .map(|line| {
            let numbers: Vec<&str> = line.split_whitespace().collect();
            let board = Board::parse(Shape::FIFTEEN, numbers[..16].join(" ").as_bytes())
                .expect("Korf's boards parse");
            (board, numbers[16].parse().expect("a length"))
        })
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
                    let found = solver.solve(board);
                    let moves = found.moves.expect("Korf's instances are solvable");
                    *results[index].lock().unwrap() =
                        Some((moves.len(), found.nodes, one.elapsed()));
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
        "Korf's instances ({partition} databases): {} solved optimally, {nodes} nodes ({} per instance), \
         {:.3} s on {threads} threads; databases mapped and checked in {:.3} s",
        instances.len() - wrong,
        nodes / instances.len() as u64,
        total.as_secs_f64(),
        load_time.as_secs_f64()
    );
    assert_eq!(wrong, 0, "some answers are not of Korf's optimal length");
}
