//! End-to-end benchmark of the `eight` binary, beside a simple reference
//! solver implemented here, so that every run reports a ratio.
//!
//! Run with `cargo bench --bench throughput`. It makes 1,000,000 random
//! boards (fixed seed, about half unsolvable), runs `eight` on them from a
//! file to a file, and times the reference on the same input in this process:
//! a BFS once from the goal into a `HashMap`, then a map walk per board (the
//! seeds' fastest approach). It checks that both print the same bytes. It then
//! times start-up on one board against the same program doing nothing
//! (`eight --version`), against `cat` on the same board and against `true`,
//! then `--pairs` on 100,000 cases against as many plain boards and as many
//! cases that need no walk (medians of alternating runs), the million boards
//! in the multi-tile metric against the same in the single-tile one
//! (alternating), the million boards parsed once through the library's
//! typed batch (`Solver::solve_many`) against `eight` on them (alternating),
//! and the generator.

use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;
use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "../tests/common/mod.rs"]
mod common;

const BOARDS: usize = 1_000_000;
const PAIRS: usize = 100_000;
const STARTS: usize = 200;
/// Runs of `--pairs`, of as many plain boards and of as many cases that
/// need no walk, alternating.
const PAIRS_RUNS: usize = 15;
const RUNS: usize = 5;
/// Runs of the million boards in each metric, alternating.
const METRIC_RUNS: usize = 15;
const SEED: u64 = 8;

const EIGHT: &str = env!("CARGO_BIN_EXE_eight");

fn main() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut rng = common::Rng(SEED);

    // Throughput.
    let input: String = (0..BOARDS).map(|_| random_board(&mut rng) + "\n").collect();
    let input_path = dir.path().join("boards.txt");
    std::fs::write(&input_path, &input).unwrap();
    let output_path = dir.path().join("answers.txt");
    let eight_time = best_of(RUNS, || run_eight(&[], &input_path, &output_path));
    let peak = match peak_memory_kib(&input_path, &dir.path().join("peak.out")) {
        Some(kib) => format!("{kib} KiB"),
        None => "not measured (needs GNU time at /usr/bin/time)".into(),
    };

    let started = Instant::now();
    let reference = Reference::new();
    let bfs_time = started.elapsed();
    let mut reference_output = Vec::with_capacity(input.len());
    let walk_time = best_of(RUNS, || {
        reference_output.clear();
        let started = Instant::now();
        reference.answer_all(&input, &mut reference_output);
        started.elapsed()
    });
    let reference_time = bfs_time + walk_time;
    let same = std::fs::read(&output_path).unwrap() == reference_output;

    // A million invalid boards (8 tiles a line), each with its message.
    let invalid_path = dir.path().join("invalid.txt");
    std::fs::write(&invalid_path, "1 2 3 4 5 6 7 8\n".repeat(BOARDS)).unwrap();
    let invalid_time = best_of(RUNS, || {
        run_failing(&invalid_path, &output_path, &dir.path().join("invalid.err"))
    });

    // Start-up: one board, against a process that does nothing.
    let one = dir.path().join("one.txt");
    std::fs::write(&one, "8 6 7 2 5 4 3 x 1\n").unwrap();
    let sink = dir.path().join("one.out");
    // The four alternate, so that the machine's drift touches all alike.
    let mut starts: [Vec<Duration>; 4] = Default::default();
    for _ in 0..STARTS {
        starts[0].push(run_eight(&[], &one, &sink));
        starts[1].push(run_eight(&["--version"], &one, &sink));
        starts[2].push(run_timed(Command::new("cat"), &one, &sink));
        starts[3].push(run_timed(Command::new("true"), &one, &sink));
    }
    let [eight_start, version_start, cat_start, true_start] = starts.map(median);

    // --pairs.
    let mut pairs = format!("{PAIRS}\n");
    for _ in 0..PAIRS {
        let (start, goal) = (random_board(&mut rng), random_board(&mut rng));
        writeln!(
            pairs,
            "{}\n{}",
            start.replace(' ', ""),
            goal.replace(' ', "")
        )
        .unwrap();
    }
    let pairs_path = dir.path().join("pairs.txt");
    std::fs::write(&pairs_path, &pairs).unwrap();
    // As many plain boards, the first of the million: the rate --pairs is
    // held to, at the same count. The two alternate, so that the machine's
    // load falls on both alike.
    let plain_path = dir.path().join("plain.txt");
    let plain: String = input
        .lines()
        .take(PAIRS)
        .map(|line| line.to_string() + "\n")
        .collect();
    std::fs::write(&plain_path, plain).unwrap();
    // As many cases that need no walk: each target is its start with two
    // tiles swapped, so no case is solvable. What a case costs besides its
    // answer: parsing two boards, pairing, placing, writing.
    let mut unsolvable_rng = common::Rng(SEED + 1);
    let mut unsolvable = format!("{PAIRS}\n");
    for _ in 0..PAIRS {
        let start = unsolvable_rng.board(9);
        let mut goal = start.clone();
        let (a, b) = match start.iter().position(|&t| t == 0) {
            Some(0) => (1, 2),
            Some(1) => (0, 2),
            _ => (0, 1),
        };
        goal.swap(a, b);
        let line = |cells: &[u8]| common::text(cells).replace(' ', "");
        writeln!(unsolvable, "{}\n{}", line(&start), line(&goal)).unwrap();
    }
    let unsolvable_path = dir.path().join("unsolvable.txt");
    std::fs::write(&unsolvable_path, &unsolvable).unwrap();
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..PAIRS_RUNS {
        times[0].push(run_eight(&["--pairs"], &pairs_path, &output_path));
        times[1].push(run_eight(&[], &plain_path, &output_path));
        times[2].push(run_eight(&["--pairs"], &unsolvable_path, &output_path));
    }
    let [pairs_time, plain_time, unsolvable_time] = times.map(median);

    // The multi-tile metric against the single-tile one, pair by pair.
    let mut metric_ratios = Vec::new();
    let mut metric_times = [Vec::new(), Vec::new()];
    for _ in 0..METRIC_RUNS {
        let mtm = run_eight(&["--metric", "mtm"], &input_path, &output_path);
        let stm = run_eight(&[], &input_path, &output_path);
        metric_ratios.push(mtm.as_secs_f64() / stm.as_secs_f64());
        metric_times[0].push(mtm);
        metric_times[1].push(stm);
    }
    metric_ratios.sort_by(f64::total_cmp);
    let [mtm_time, stm_time] = metric_times.map(median);

    // The typed batch in this process, against the program from a file.
    let solver = eight::Solver::builtin(eight::Shape::EIGHT).unwrap();
    let goal = eight::Board::goal(eight::Shape::EIGHT);
    let boards: Vec<eight::Board> = input.lines().map(|line| line.parse().unwrap()).collect();
    let batch_same = {
        let answers = solver.solve_many(&boards, &goal).unwrap();
        let mut text = String::new();
        for answer in answers.iter() {
            writeln!(text, "{answer}").unwrap();
        }
        text.as_bytes() == reference_output
    };
    let mut batch_ratios = Vec::new();
    let mut batch_times = [Vec::new(), Vec::new()];
    for _ in 0..METRIC_RUNS {
        let started = Instant::now();
        let answers = solver.solve_many(&boards, &goal).unwrap();
        let batch = started.elapsed();
        assert_eq!(answers.len(), BOARDS);
        drop(answers);
        let program = run_eight(&[], &input_path, &output_path);
        batch_ratios.push(batch.as_secs_f64() / program.as_secs_f64());
        batch_times[0].push(batch);
        batch_times[1].push(program);
    }
    batch_ratios.sort_by(f64::total_cmp);
    let [batch_time, program_time] = batch_times.map(median);

    // The lengths alone, typed, against `eight --length` on the same file.
    let lengths_same = {
        let lengths = solver.lengths_many(&boards, &goal).unwrap();
        let mut text = String::new();
        for length in &lengths {
            match length {
                Some(n) => writeln!(text, "{n}").unwrap(),
                None => writeln!(text, "unsolvable").unwrap(),
            }
        }
        let program = Command::new(EIGHT)
            .arg("--length")
            .stdin(File::open(&input_path).unwrap())
            .output()
            .unwrap();
        text.as_bytes() == program.stdout
    };
    let mut lengths_ratios = Vec::new();
    let mut lengths_times = [Vec::new(), Vec::new()];
    for _ in 0..METRIC_RUNS {
        let started = Instant::now();
        let lengths = solver.lengths_many(&boards, &goal).unwrap();
        let batch = started.elapsed();
        assert_eq!(lengths.len(), BOARDS);
        drop(lengths);
        let program = run_eight(&["--length"], &input_path, &output_path);
        lengths_ratios.push(batch.as_secs_f64() / program.as_secs_f64());
        lengths_times[0].push(batch);
        lengths_times[1].push(program);
    }
    lengths_ratios.sort_by(f64::total_cmp);
    let [lengths_time, length_program_time] = lengths_times.map(median);

    // The generator, in this process.
    let mut table = Vec::new();
    let generate_time = best_of(RUNS, || {
        let started = Instant::now();
        let file = eight::data::DataFile::table(eight::Shape::EIGHT, eight::Metric::Stm, None);
        table = eight::generate::make(&file, &eight::Stop::new(), |_| {})
            .expect("the 3x3 table is made")
            .expect("not stopped");
        started.elapsed()
    });

    let rate = |n: usize, t: Duration| n as f64 / t.as_secs_f64();
    println!("eight end-to-end benchmark ({BOARDS} random boards, seed {SEED}, best of {RUNS})");
    println!(
        "  eight      {:>8.1} ms  {:>12.0} boards/s  peak RSS {peak}",
        ms(eight_time),
        rate(BOARDS, eight_time),
    );
    println!(
        "  reference  {:>8.1} ms  {:>12.0} boards/s  (BFS {:.1} ms + walks {:.1} ms)",
        ms(reference_time),
        rate(BOARDS, reference_time),
        ms(bfs_time),
        ms(walk_time)
    );
    println!(
        "  ratio      {:>8.1}x faster end to end, {:.1}x against the reference's walks alone",
        reference_time.as_secs_f64() / eight_time.as_secs_f64(),
        walk_time.as_secs_f64() / eight_time.as_secs_f64()
    );
    println!(
        "  same output as the reference: {}",
        if same { "yes" } else { "NO" }
    );
    println!(
        "  invalid    {:>8.1} ms for {BOARDS} invalid boards with their messages, {:.1}x the good ones",
        ms(invalid_time),
        invalid_time.as_secs_f64() / eight_time.as_secs_f64()
    );
    println!(
        "  start-up   {:>8.3} ms for one board, {:.2}x `cat` on it ({:.3} ms); `eight --version` {:.3} ms, `true` {:.3} ms (medians of {STARTS}, alternating)",
        ms(eight_start),
        eight_start.as_secs_f64() / cat_start.as_secs_f64(),
        ms(cat_start),
        ms(version_start),
        ms(true_start),
    );
    println!(
        "  --pairs    {:>8.1} ms  {:>12.0} cases/s ({PAIRS} cases); {PAIRS} plain boards {:.1} ms: a case takes {:.2}x a board (medians of {PAIRS_RUNS}, alternating)",
        ms(pairs_time),
        rate(PAIRS, pairs_time),
        ms(plain_time),
        pairs_time.as_secs_f64() / plain_time.as_secs_f64()
    );
    println!(
        "             {:>8.1} ms for {PAIRS} cases that need no walk (all unsolvable): {:.2}x a board",
        ms(unsolvable_time),
        unsolvable_time.as_secs_f64() / plain_time.as_secs_f64()
    );
    println!(
        "  --metric mtm {:>6.1} ms against {:.1} ms: {:.2}x the single-tile time (pairs {:.2}-{:.2}; medians of {METRIC_RUNS}, alternating)",
        ms(mtm_time),
        ms(stm_time),
        metric_ratios[METRIC_RUNS / 2],
        metric_ratios[0],
        metric_ratios[METRIC_RUNS - 1],
    );
    println!(
        "  solve_many {:>8.1} ms for the boards parsed, against {:.1} ms for `eight` on them: {:.2}x (pairs {:.2}-{:.2}; medians of {METRIC_RUNS}, alternating); same answers: {}",
        ms(batch_time),
        ms(program_time),
        batch_ratios[METRIC_RUNS / 2],
        batch_ratios[0],
        batch_ratios[METRIC_RUNS - 1],
        if batch_same { "yes" } else { "NO" }
    );
    println!(
        "  lengths_many {:>6.1} ms for the boards parsed, against {:.1} ms for `eight --length` on them: {:.2}x (pairs {:.2}-{:.2}; medians of {METRIC_RUNS}, alternating); same lengths: {}",
        ms(lengths_time),
        ms(length_program_time),
        lengths_ratios[METRIC_RUNS / 2],
        lengths_ratios[0],
        lengths_ratios[METRIC_RUNS - 1],
        if lengths_same { "yes" } else { "NO" }
    );
    println!(
        "  generator  {:>8.1} ms for all nine goals, {} bytes ({:.1} KB per goal)",
        ms(generate_time),
        table.len(),
        table.len() as f64 / 9.0 / 1024.0
    );
    assert!(same, "eight and the reference disagree");
    assert!(batch_same, "the typed batch and the reference disagree");
}

/// A random arrangement of the 3x3 board, tiles separated by spaces.
fn random_board(rng: &mut common::Rng) -> String {
    common::text(&rng.board(9))
}

fn run_eight(args: &[&str], input: &Path, output: &Path) -> Duration {
    let mut command = Command::new(EIGHT);
    command.args(args);
    run_timed(command, input, output)
}

/// Runs `eight` on input it must call invalid (exit 1), stderr to a file.
fn run_failing(input: &Path, output: &Path, errors: &Path) -> Duration {
    let mut command = Command::new(EIGHT);
    command
        .stdin(File::open(input).unwrap())
        .stdout(File::create(output).unwrap())
        .stderr(File::create(errors).unwrap());
    let started = Instant::now();
    let status = command.status().expect("eight runs");
    let elapsed = started.elapsed();
    assert_eq!(status.code(), Some(1), "invalid boards exit 1");
    elapsed
}

/// Runs a command from `input` to `output` and returns its wall time.
///
/// The files are opened before the clock starts: emptying the last run's
/// output frees its pages, which took about 5 ms against 100,000 answers,
/// more after a larger output (as `--pairs` leaves for the plain run after
/// it).
fn run_timed(mut command: Command, input: &Path, output: &Path) -> Duration {
    command
        .stdin(File::open(input).unwrap())
        .stdout(File::create(output).unwrap())
        .stderr(Stdio::inherit());
    let started = Instant::now();
    let status = command.status().expect("the command runs");
    let elapsed = started.elapsed();
    assert!(status.success(), "{command:?} failed: {status}");
    elapsed
}

/// The peak resident memory of `eight` on `input`, in KiB, as GNU time
/// reports it. (A child's own rusage would count this large process, which
/// it was spawned from, so the measure comes from a small one.)
fn peak_memory_kib(input: &Path, output: &Path) -> Option<u64> {
    let report = output.with_extension("rss");
    let mut command = Command::new("/usr/bin/time");
    command
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&report)
        .arg(EIGHT);
    let ran = command
        .stdin(File::open(input).ok()?)
        .stdout(File::create(output).ok()?)
        .status()
        .ok()?;
    ran.success().then_some(())?;
    std::fs::read_to_string(report).ok()?.trim().parse().ok()
}

fn best_of(runs: usize, mut f: impl FnMut() -> Duration) -> Duration {
    (0..runs).map(|_| f()).min().unwrap()
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The reference: a BFS from the goal over boards packed 4 bits a cell into
/// a `HashMap` from each board to its next move, then a walk per board.
struct Reference {
    next: HashMap<u64, u8>,
}

const GOAL: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 0];
const LETTERS: [u8; 4] = *b"dlru";

impl Reference {
    fn new() -> Reference {
        let mut depth: HashMap<u64, u8> = HashMap::from([(pack(&GOAL), 0)]);
        let mut next: HashMap<u64, u8> = HashMap::new();
        let mut queue = VecDeque::from([GOAL]);
        while let Some(board) = queue.pop_front() {
            let d = depth[&pack(&board)];
            for mv in 0..4u8 {
                let Some(neighbour) = step(&board, mv) else {
                    continue;
                };
                let key = pack(&neighbour);
                // From the neighbour, the blank goes back the opposite way.
                let back = 3 - mv;
                match depth.get(&key) {
                    None => {
                        depth.insert(key, d + 1);
                        next.insert(key, back);
                        queue.push_back(neighbour);
                    }
                    Some(&e) if e == d + 1 => {
                        let best = next.get_mut(&key).unwrap();
                        *best = (*best).min(back);
                    }
                    Some(_) => {}
                }
            }
        }
        Reference { next }
    }

    fn answer_all(&self, input: &str, out: &mut Vec<u8>) {
        for line in input.lines() {
            let mut board = [0u8; 9];
            for (cell, token) in board.iter_mut().zip(line.split_whitespace()) {
                *cell = token.parse().unwrap_or(0);
            }
            let goal = pack(&GOAL);
            let mut key = pack(&board);
            if key != goal && !self.next.contains_key(&key) {
                out.extend_from_slice(b"unsolvable\n");
                continue;
            }
            while key != goal {
                let mv = self.next[&key];
                out.push(LETTERS[usize::from(mv)]);
                board = step(&board, mv).unwrap();
                key = pack(&board);
            }
            out.push(b'\n');
        }
    }
}

fn pack(board: &[u8; 9]) -> u64 {
    board.iter().fold(0, |acc, &c| acc << 4 | u64::from(c))
}

/// The blank moves d, l, r, u (0..4), if it stays on the board.
fn step(board: &[u8; 9], mv: u8) -> Option<[u8; 9]> {
    let blank = board.iter().position(|&c| c == 0).unwrap();
    let (row, col) = (blank / 3, blank % 3);
    let target = match mv {
        0 if row < 2 => blank + 3,
        1 if col > 0 => blank - 1,
        2 if col < 2 => blank + 1,
        3 if row > 0 => blank - 3,
        _ => return None,
    };
    let mut next = *board;
    next.swap(blank, target);
    Some(next)
}
